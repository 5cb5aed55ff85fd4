"""Input files that are not what they claim to be, each a located refusal (exit 2), never a hang,
a traceback, an exit 3 or silence: FIFOs, devices, directories and symlink loops where a file
belongs; waivers and overlays that are not UTF-8, not strict JSON, or say two things about one
opcode; float literals where C wants an integer, or too large to expand. Each is a real `tpbgen`
process (with a timeout: a hang fails the test) on a copy of the mariana drop."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tpb_paths import HEADER_ROOT

from .harness import replace_in

GEN = "neuron_mariana_arch_isa"
ASSERT = "aws_neuron_isa_tpb_assert.h"
UTIL = "aws_neuron_isa_tpb_util.h"
COMMON = "aws_neuron_isa_tpb_common.h"
TIMEOUT = 120


def drop(tmp: Path, overlay: bool = True) -> Path:
    """A copy of the mariana drop (and its part of the firmware overlay) under `tmp`/d."""
    root = tmp / "d"
    shutil.copytree(HEADER_ROOT / GEN, root / GEN)
    if overlay:
        doc = json.loads((HEADER_ROOT / "firmware_status.json").read_text(encoding="utf-8"))
        doc["generations"] = {"mariana": doc["generations"]["mariana"]}
        (root / "firmware_status.json").write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return root


def tpbgen(tmp: Path, *argv: str) -> tuple[int, str]:
    """`tpbgen ARGV` run in `tmp` as a process of its own; its exit code and standard error."""
    proc = subprocess.run(
        [sys.executable, "-m", "tpbgen", *argv],
        cwd=tmp,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**os.environ, "TPBGEN_CACHE_DIR": str(tmp / "cache")},
        stdin=subprocess.DEVNULL,
    )
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stderr


def generate(tmp: Path, *extra: str) -> tuple[int, str]:
    return tpbgen(tmp, "generate", "--headers", "d", "--out", "out", *extra)


def refused(result: tuple[int, str], where: str, *words: str) -> None:
    code, err = result
    assert code == 2, (code, err)
    line = next((ln for ln in err.splitlines() if ln.startswith(where)), None)
    assert line is not None, f"nothing located at {where}:\n{err}"
    for w in words:
        assert w in line, line


@pytest.mark.parametrize("name", ["y.h", "sub/z.h", "instruction_mapping.json"])
def test_a_fifo_in_tpb_is_refused_by_type_not_waited_on(tmp_path: Path, name: str) -> None:
    tpb = drop(tmp_path) / GEN / "tpb"
    (tpb / name).parent.mkdir(exist_ok=True)
    (tpb / name).unlink(missing_ok=True)
    os.mkfifo(tpb / name)
    refused(
        tpbgen(tmp_path, "inspect", "--gen", "mariana", "--headers", "d", "--no-cache"),
        f"d/{GEN}/tpb/{name}:",
        "[not-a-file]",
        "a FIFO",
    )


def test_a_directory_named_like_a_header_is_refused(tmp_path: Path) -> None:
    tpb = drop(tmp_path) / GEN / "tpb"
    (tpb / "dir.h").mkdir()
    refused(
        tpbgen(tmp_path, "reconcile", "--headers", "d", "--no-cache"),
        f"d/{GEN}/tpb/dir.h:",
        "a directory",
    )


@pytest.mark.parametrize("target", ["/dev/null", "/dev/zero", "."])
def test_an_include_of_a_device_or_directory_is_located_at_the_directive(
    tmp_path: Path, target: str
) -> None:
    util = drop(tmp_path) / GEN / "tpb" / UTIL
    lines = util.read_text(encoding="utf-8").count("\n")
    with open(util, "a", encoding="utf-8") as fh:
        fh.write(f'#include "{target}"\n')
    refused(
        tpbgen(tmp_path, "inspect", "--gen", "mariana", "--headers", "d", "--no-cache"),
        f"d/{GEN}/tpb/{UTIL}:{lines + 1}:10:",
        "[not-a-file]",
    )


def overlay_as(tmp: Path, make: str) -> None:
    fw = drop(tmp) / "firmware_status.json"
    fw.unlink()
    if make == "fifo":
        os.mkfifo(fw)
    elif make == "directory":
        fw.mkdir()
    else:  # a symlink loop
        fw.symlink_to(fw.name)


@pytest.mark.parametrize(
    ("make", "word"),
    [("fifo", "a FIFO"), ("directory", "a directory"), ("loop", "a symlink loop")],
)
def test_an_overlay_that_is_not_a_file_is_refused(tmp_path: Path, make: str, word: str) -> None:
    overlay_as(tmp_path, make)
    refused(generate(tmp_path), "d/firmware_status.json:", "[not-a-file]", word)
    assert not (tmp_path / "out").exists()


def test_an_overlay_key_given_twice_is_refused_by_pointer(tmp_path: Path) -> None:
    fw = drop(tmp_path) / "firmware_status.json"
    text = fw.read_text(encoding="utf-8")
    fw.write_text(text.replace('"generations": {', '"generations": {"mariana": {},', 1))
    refused(
        generate(tmp_path), "d/firmware_status.json#/generations/mariana:", "[json-duplicate-key]"
    )


def test_an_overlay_naming_one_opcode_twice_through_an_alias_is_refused(tmp_path: Path) -> None:
    root = drop(tmp_path)
    name = "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_ARITH_OP"
    alias = "NEURON_ISA_TPB_OPCODE_TSP_ARITH_ALIAS"
    replace_in(
        root / GEN / "tpb" / COMMON,
        f"    {name} = 0x44,",
        f"    {name} = 0x44,\n    {alias} = {name},",
    )
    fw = root / "firmware_status.json"
    doc = json.loads(fw.read_text(encoding="utf-8"))
    assert doc["generations"]["mariana"][name]["firmware"] == "working"
    doc["generations"]["mariana"][alias] = {"firmware": "absent"}
    fw.write_text(json.dumps(doc), encoding="utf-8")
    refused(
        generate(tmp_path),
        f"d/firmware_status.json#/generations/mariana/{alias}:",
        "[firmware-overlay]",
        name,
        "0x44",
    )


@pytest.mark.parametrize(
    ("make", "word"), [("directory", "a directory"), ("fifo", "a FIFO"), ("loop", "symlink loop")]
)
def test_a_waivers_file_that_is_not_a_file_is_refused(tmp_path: Path, make: str, word: str) -> None:
    drop(tmp_path, overlay=False)
    w = tmp_path / "w" / "mariana.waivers"
    w.parent.mkdir()
    if make == "directory":
        w.mkdir()
    elif make == "fifo":
        os.mkfifo(w)
    else:
        w.symlink_to(w.name)
    refused(
        tpbgen(tmp_path, "reconcile", "--headers", "d", "--waivers", "w"),
        "w/mariana.waivers:",
        "[not-a-file]",
        word,
    )


def test_a_waivers_file_that_is_not_utf8_is_located_at_the_byte(tmp_path: Path) -> None:
    drop(tmp_path, overlay=False)
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "mariana.waivers").write_bytes(
        b"# fine\nstale NEURON_ISA_TPB_OPCODE_\xff\xfe  # no\n"
    )
    refused(
        tpbgen(tmp_path, "reconcile", "--headers", "d", "--waivers", "w"),
        "w/mariana.waivers:2:29:",
        "[waiver]",
        "0xff",
    )


def test_a_deeply_nested_mapping_is_refused_under_an_address_space_limit(
    tmp_path: Path,
) -> None:
    mapping = drop(tmp_path, overlay=False) / GEN / "tpb" / "instruction_mapping.json"
    mapping.write_text('{"struct2opcode": ' + "[" * 100_000 + "]" * 100_000 + "}")
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            limit + "import sys; from tpbgen.cli import main; sys.exit(main(sys.argv[1:]))",
            "reconcile",
            "--headers",
            "d",
            "--no-cache",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**os.environ, "TPBGEN_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert proc.returncode == 2, proc.stderr
    assert f"d/{GEN}/tpb/instruction_mapping.json:1:" in proc.stderr, proc.stderr
    assert "nested more than" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("subscript", ["1.5", "1e999999999", "0x1p999999999"])
def test_a_float_array_subscript_is_refused_where_it_stands(tmp_path: Path, subscript: str) -> None:
    a = drop(tmp_path) / GEN / "tpb" / ASSERT
    replace_in(a, "(a.addr_reg.reserved0[1] == 0U)", f"(a.addr_reg.reserved0[{subscript}] == 0U)")
    line = a.read_text(encoding="utf-8")[: a.read_text(encoding="utf-8").index(subscript)]
    refused(
        generate(tmp_path),
        f"d/{GEN}/tpb/{ASSERT}:{line.count(chr(10)) + 1}:",
        "array subscript is not an integer",
    )


def test_a_huge_float_constant_takes_no_time_and_is_infinity(tmp_path: Path) -> None:
    util = drop(tmp_path) / GEN / "tpb" / UTIL
    with open(util, "a", encoding="utf-8") as fh:
        fh.write("#define TPBGEN_TEST_HUGE 1e999999999\n#define TPBGEN_TEST_TINY 0x1p-999999999\n")
    code, err = tpbgen(
        tmp_path, "inspect", "--gen", "mariana", "--headers", "d", "--format", "json"
    )
    assert code == 0, err


def test_header_comment_text_reaches_the_readme_escaped(tmp_path: Path) -> None:
    """A maintenance note and an overlay note holding HTML, a link, emphasis, an entity and a
    table's `|` are shown as written in the generated README.md, never rendered."""
    root = drop(tmp_path)
    name = "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_ARITH_OP"
    hostile = "<script>alert(1)</script> | [x](javascript:y) *em* &lt;b&gt;"
    replace_in(
        root / GEN / "tpb" / COMMON,
        f"{name} = 0x44, // n, use TensorScalarArithOp instead",
        f"{name} = 0x44, // n, {hostile}",
    )
    fw = root / "firmware_status.json"
    doc = json.loads(fw.read_text(encoding="utf-8"))
    doc["generations"]["mariana"][name]["note"] = hostile + "\nsecond line"
    fw.write_text(json.dumps(doc), encoding="utf-8")
    code, err = generate(tmp_path, "--no-verify-cc")
    assert code == 0, err
    readme = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    for raw in (r"<script", r"\]\(javascript", r"&lt;", r"\*em\*"):  # none unescaped
        assert not re.search(r"(?<!\\)" + raw, readme), raw
    escaped = r"\<script\>alert(1)\</script\> \| \[x\](javascript:y) \*em\* \&lt;b\&gt;"
    rows = [ln for ln in readme.splitlines() if "| `0x44` |" in ln]
    assert len(rows) == 2 and all(escaped in ln for ln in rows), rows
    assert "second line" in rows[0]
    for ln in rows:  # each row keeps its five columns: no `|` of the text splits a cell
        assert len(re.findall(r"(?<!\\)\|", ln)) == 6, ln


def test_the_preprocessors_output_is_bounded_and_the_bomb_located(tmp_path: Path) -> None:
    """A macro bomb on many lines: cpp is stopped once its output passes the bound (not after
    minutes and gigabytes), and the refusal names the first header line that expands it."""
    util = drop(tmp_path) / GEN / "tpb" / UTIL
    first = util.read_text(encoding="utf-8").count("\n") + 6
    with open(util, "a", encoding="utf-8") as fh:
        fh.write("#define B0 xxxxxxxxxxxxxxxx\n")
        for k in range(1, 5):
            fh.write(f"#define B{k} " + " ".join([f"B{k - 1}"] * 10) + "\n")
        fh.write("B4 B4 B4 B4 B4\n" * 40)  # 34 MB of output, past the bound of about 17 MB
    limits = ("--max-preprocessed-mb", "0.5", "--max-line-kb", "1", "--no-cache")
    result = generate(tmp_path, "--no-verify-cc", *limits)
    refused(result, f"d/{GEN}/tpb/{UTIL}:{first}:", "[limit]", "over the limit of 1,024")
    # the line as far as tpbgen read it: at most the 0.5 MB it reads of a stopped run, not the
    # 850 KB the whole line expands to
    size = re.search(r"one preprocessed line is ([\d,]+) bytes", result[1])
    assert size is not None and int(size.group(1).replace(",", "")) <= 2**19 + 1, result[1]
