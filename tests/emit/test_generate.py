"""`tpbgen generate`: deterministic, atomic, write-if-changed, --check, and a package that stands alone."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tpb_paths import HEADER_ROOT, REPO
from tpbgen.cli import main

GOLDEN = Path(__file__).parent / "golden"


def generate(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["generate", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_committed_generated_is_current(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = generate(
        capsys, "--headers", str(HEADER_ROOT), "--out", str(REPO / "generated"), "--check"
    )
    assert code == 0, err
    assert "generated/ is current" in out


def _generate_in_a_process(headers: Path, out: Path, hash_seed: str, *options: str) -> None:
    """`tpbgen generate` in a fresh interpreter whose str hashes are seeded with `hash_seed`."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    proc = subprocess.run(
        [sys.executable, "-m", "tpbgen.cli", "generate", "--headers", str(headers),
         "--out", str(out), *options],
        capture_output=True, text=True, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr


def test_deterministic_relocatable_and_independent_of_hash_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same drop, copied to another place and generated without the cache under another
    PYTHONHASHSEED (set and dict iteration order of strings change with it), gives the same
    bytes: the committed package's, with no absolute path in any file."""
    other = tmp_path / "elsewhere" / "drop"
    shutil.copytree(HEADER_ROOT, other)
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    _generate_in_a_process(HEADER_ROOT, tmp_path / "a", "1")
    _generate_in_a_process(other, tmp_path / "b", "12345", "--no-cache")
    a, b = tree(tmp_path / "a"), tree(tmp_path / "b")
    assert a == b
    assert a == tree(REPO / "generated") | {
        k: v for k, v in a.items() if k not in tree(REPO / "generated")
    }
    for name, data in a.items():
        text = data.decode("utf-8")
        assert str(tmp_path) not in text and str(REPO) not in text, f"absolute path in {name}"


def test_write_if_changed_keeps_timestamps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "gen"
    assert generate(capsys, "--out", str(out), "--headers", str(HEADER_ROOT))[0] == 0
    first = {p: p.stat().st_mtime_ns for p in out.rglob("*.py")}
    os.utime(out / "README.md", ns=(1, 1))
    code, printed, _ = generate(capsys, "--out", str(out), "--headers", str(HEADER_ROOT))
    assert code == 0 and "0 files written" in printed
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.py")} == first


def test_check_reports_each_stale_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "gen"
    shutil.copytree(REPO / "generated", out, ignore=shutil.ignore_patterns("__pycache__"))
    (out / "tpb_isa" / "sunda" / "enums.py").write_text("# edited by hand\n")
    (out / "README.md").unlink()
    # a file the previous run wrote (its MANIFEST lists it) that this run no longer generates
    manifest = json.loads((out / "MANIFEST.json").read_text())
    manifest["files"]["tpb_isa/retired.py"] = hashlib.sha256(b"x = 1\n").hexdigest()
    (out / "MANIFEST.json").write_text(json.dumps(manifest))
    (out / "tpb_isa" / "retired.py").write_text("x = 1\n")
    # a file tpbgen never wrote is not its business
    (out / "tpb_isa" / "notes.py").write_text("x = 1\n")
    code, _, err = generate(capsys, "--out", str(out), "--headers", str(HEADER_ROOT), "--check")
    assert code == 1
    assert f"{out / 'tpb_isa/sunda/enums.py'}: error [stale-output]: differs" in err
    assert f"{out / 'tpb_isa/retired.py'}: error [stale-output]: no longer generated" in err
    assert f"{out / 'README.md'}: error [stale-output]: missing" in err
    assert "notes.py" not in err
    # build debris and user files are not a difference
    shutil.copytree(
        REPO / "generated", tmp_path / "clean", ignore=shutil.ignore_patterns("__pycache__")
    )
    (tmp_path / "clean" / "tpb_isa.egg-info").mkdir()
    (tmp_path / "clean" / "tpb_isa.egg-info" / "PKG-INFO").write_text("x")
    (tmp_path / "clean" / "NOTES.md").write_text("mine")
    assert (
        generate(
            capsys, "--out", str(tmp_path / "clean"), "--headers", str(HEADER_ROOT), "--check"
        )[0]
        == 0
    )


def test_failed_generation_leaves_previous_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drop = tmp_path / "drop"
    shutil.copytree(HEADER_ROOT, drop)
    out = tmp_path / "gen"
    assert generate(capsys, "--out", str(out), "--headers", str(drop))[0] == 0
    before = tree(out)
    assert_h = drop / "neuron_cayman_arch_isa" / "tpb" / "aws_neuron_isa_tpb_assert.h"
    assert_h.write_text(
        assert_h.read_text().replace(
            "STATIC inline bool has_valid_neuron_header(NEURON_ISA_TPB_INST_UNION i) {",
            "STATIC inline bool has_valid_neuron_header(NEURON_ISA_TPB_INST_UNION i) {\n    return @;\n",
            1,
        )
    )
    code, _, err = generate(capsys, "--out", str(out), "--headers", str(drop))
    assert code == 2 and "aws_neuron_isa_tpb_assert.h:" in err and "error" in err
    assert tree(out) == before


def test_untranslatable_construct_golden(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drop = tmp_path / "drop"
    shutil.copytree(HEADER_ROOT, drop)
    assert_h = drop / "neuron_mariana_arch_isa" / "tpb" / "aws_neuron_isa_tpb_assert.h"
    text = assert_h.read_text()
    marker = "STATIC inline bool four_byte_aligned("
    assert marker in text
    head, tail = text.split(marker, 1)
    body_end = tail.index("\n}\n")
    line = head.count("\n") + 1
    tail = tail[:body_end] + "\n    int x = 0;\n    int *p = &x;\n    (void)p;" + tail[body_end:]
    assert_h.write_text(head + marker + tail)
    code, _, err = generate(
        capsys, "--out", str(tmp_path / "lenient"), "--headers", str(drop), "--no-cache"
    )
    assert (
        code == 0
        and "warning [untranslated]: four_byte_aligned is outside the translator's subset" in err
    ), err
    code, _, err = generate(
        capsys, "--out", str(tmp_path / "gen"), "--headers", str(drop), "--no-cache", "--strict"
    )
    assert code == 1
    expected = (GOLDEN / "untranslatable.txt").read_text()
    assert f"aws_neuron_isa_tpb_assert.h:{line + tail[:body_end].count(chr(10)) + 2}:" in err
    got = "\n".join(ln for ln in err.splitlines() if "error [untranslated]" in ln) + "\n"
    assert _normalise_line(got.replace(f"{drop}/", "")) == _normalise_line(expected)
    assert not (tmp_path / "gen").exists()


def _normalise_line(text: str) -> str:
    import re

    return re.sub(r"\.h:\d+", ".h:N", text)


def test_stale_output_golden(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "gen"
    shutil.copytree(REPO / "generated", out, ignore=shutil.ignore_patterns("__pycache__"))
    (out / "tpb_isa" / "maverick" / "decode.py").write_text("# stale\n")
    code, _, err = generate(capsys, "--out", str(out), "--headers", str(HEADER_ROOT), "--check")
    assert code == 1
    stale = "".join(line + "\n" for line in err.splitlines() if "[stale-output]" in line)
    assert stale.replace(str(out), "<out>") == (GOLDEN / "stale.txt").read_text()


def test_runtime_imports_without_the_generator(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "sys.modules['tpbgen'] = None  # any import of the generator now fails\n"
        f"sys.path.insert(0, {str(REPO / 'generated')!r})\n"
        "import tpb_isa\n"
        "for g in tpb_isa.GENERATIONS:\n"
        "    m = tpb_isa.gen(g)\n"
        "    assert m.TOP_LEVEL and m.structs.STRUCTS\n"
        "print('ok', tpb_isa.RUNTIME_API)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok")


def test_pip_install_generated(tmp_path: Path) -> None:
    """`pip install --target DIR ./generated` (vendoring into a directory) gives an importable,
    typed package. Without a compiler (`CC=false`): the C extensions built at install, and the
    package that results, are tests/emit/test_install.py's (each build of the kernels is a
    minute or more)."""
    src = tmp_path / "src"
    shutil.copytree(
        REPO / "generated", src, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    )
    target = tmp_path / "site"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(target),
            str(src),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "CC": "false"},
    )
    assert proc.returncode == 0, proc.stderr
    probe = (
        f"import sys; sys.path.insert(0, {str(target)!r}); import tpb_isa; print(tpb_isa.__file__)"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().startswith(str(target))
    assert (target / "tpb_isa" / "py.typed").exists()


def test_runtime_api_mismatch_is_refused(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    shutil.copytree(REPO / "generated", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    init = pkg / "tpb_isa" / "_runtime" / "api.py"
    text = init.read_text()
    major = int(re.search(r"RUNTIME_API: tuple\[int, int\] = \((\d+), \d+\)", text).group(1))  # type: ignore[union-attr]
    init.write_text(
        re.sub(
            r"RUNTIME_API: tuple\[int, int\] = \(\d+, \d+\)",
            f"RUNTIME_API: tuple[int, int] = ({major + 1}, 0)",
            text,
        )
    )
    probe = f"import sys; sys.path.insert(0, {str(pkg)!r}); import tpb_isa; tpb_isa.gen('sunda')"
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path
    )
    assert run.returncode != 0 and "RuntimeMismatch" in run.stderr and "regenerate" in run.stderr


def test_arrays_of_any_rank_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Multi-dimensional scalar and struct arrays, bitfields and unions in a drop of our own making
    generate a package whose classes round-trip every byte (run in a fresh interpreter)."""
    tpb = tmp_path / "drop" / "neuron_toy_arch_isa" / "tpb"
    tpb.mkdir(parents=True)
    (tpb / "aws_neuron_isa_tpb_common.h").write_text(
        "/*\n * toy\n * ISA header for NC-v9.\n */\n#include <stdint.h>\n"
        "typedef enum NEURON_ISA_TPB_OPCODE { NEURON_ISA_TPB_OPCODE_A = 1, } __attribute__((__packed__)) NEURON_ISA_TPB_OPCODE;\n"
        "typedef struct NEURON_ISA_TPB_CELL { uint8_t a : 3; uint8_t b : 5; int16_t v; } NEURON_ISA_TPB_CELL;\n"
        "typedef union NEURON_ISA_TPB_U { uint32_t w; float f; uint8_t b[4]; } NEURON_ISA_TPB_U;\n"
        "typedef struct NEURON_ISA_TPB_TOY_STRUCT { NEURON_ISA_TPB_OPCODE opcode; uint8_t grid[2][3]; uint8_t in;\n"
        "    NEURON_ISA_TPB_CELL cells[2][2]; NEURON_ISA_TPB_U u[2]; int32_t m[2][2]; } NEURON_ISA_TPB_TOY_STRUCT;\n"
        '_Static_assert(sizeof(NEURON_ISA_TPB_TOY_STRUCT) == 48, "48");\n'
    )
    (tpb / "instruction_mapping.json").write_text(
        '{"struct2opcode": {"NEURON_ISA_TPB_TOY_STRUCT": ["NEURON_ISA_TPB_OPCODE_A"]}, "struct2pseudo_opcode": {}}'
    )
    out = tmp_path / "gen"
    assert (
        generate(capsys, "--headers", str(tmp_path / "drop"), "--out", str(out), "--no-cache")[0]
        == 0
    )
    probe = (
        f"import sys, os; sys.path.insert(0, {str(out)!r}); from tpb_isa.toy import structs as S\n"
        "raw = os.urandom(48)\n"
        "t = S.TOY.from_bytes(raw)\n"
        "assert t.to_bytes() == raw and S.TOY.from_bytes(t.to_bytes()) == t\n"
        "assert len(t.grid) == 6 and len(t.cells) == 4 and len(t.m) == 4 and t.grid[5] == raw[6]\n"
        "assert t.cells[3].v == int.from_bytes(raw[8 + 3 * 4 + 2: 8 + 3 * 4 + 4], 'little', signed=True)\n"
        "assert t.in_ == raw[7]  # a C field named like a Python keyword gets a trailing _\n"
        "print('ok')\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr
