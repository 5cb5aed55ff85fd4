"""`pip install` of the generated package compiles its C extensions at install, so the first
`Executor()` and the first C `validate_batch` compile nothing; without a compiler it still installs
and the runtime falls back to numpy with one warning.

Each test installs a copy of generated/ (setuptools writes build/ and egg-info into the tree it
builds) into a fresh virtual environment that sees this interpreter's packages (numpy, cffi), with
pip's normal build isolation, as a user's `pip install ./generated[executor]` does (the extra's
dependencies are already present, so `--no-deps`).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler on PATH"
)

FIRST_USE = r"""
import sys
import numpy as np
import tpb_isa
assert "site-packages" in tpb_isa.__file__, tpb_isa.__file__
from tpb_isa import mariana as m
ex = m.Executor()
print("executor backend", ex.backend)
for g in tpb_isa.GENERATIONS:
    mod = tpb_isa.gen(g)
    W = np.zeros((4, 64), np.uint8)
    W[:, 0] = 0x43
    mod.validate_batch(W, backend=sys.argv[1])
    print("validators", g, mod.batch.batch_backend())
from tpb_isa._runtime import textscan
from tpb_isa.mariana.decode import TEXT
W = np.zeros((64, 64), np.uint8)
W[:, 0] = 0x43
text = "\n".join(TEXT.disasm_rows(W))
assert TEXT.asm(text) == TEXT.asm(text) == W.tobytes()  # learns, then scans
print("text scanner", textscan.load() is not None, TEXT._fast.scanned)
"""


def _install(tmp_path: Path, env: dict[str, str]) -> tuple[Path, subprocess.CompletedProcess[str]]:
    src = tmp_path / "src"
    shutil.copytree(REPO / "generated", src)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    r = subprocess.run(
        [str(python), "-m", "pip", "install", "-v", "--no-deps", "--disable-pip-version-check",
         str(src)],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return python, r


def _first_use(
    python: Path, tmp_path: Path, env: dict[str, str], backend: str
) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "first_use.py"
    script.write_text(FIRST_USE)
    return subprocess.run(
        [str(python), str(script), backend],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
    )  # fmt: skip


def test_an_installed_package_compiles_nothing_at_first_use(tmp_path: Path) -> None:
    env = {**os.environ, "TPB_ISA_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PYTHONPATH", None)
    python, r = _install(tmp_path, env)
    said = r.stdout + r.stderr
    assert "tpb_isa: compiled 6 C extensions into tpb_isa/_prebuilt/" in said
    # the build says how many, how to skip, and a line as each extension is done
    assert "tpb_isa: compiling 6 C extensions in " in said and "TPB_ISA_PREBUILD=0" in said
    assert said.count("] compiled ") == 6 and "tpb_isa: [6/6] compiled " in said, said[-3000:]
    run = _first_use(python, tmp_path, env, "c")
    assert run.returncode == 0, run.stderr
    assert "executor backend c" in run.stdout
    assert run.stdout.count("validators") == 4 and "numpy" not in run.stdout
    assert "text scanner True 64" in run.stdout
    assert "compiling" not in run.stderr, run.stderr  # no build at first use ...
    cache = tmp_path / "cache"
    assert not cache.exists() or not any(p.is_file() for p in cache.rglob("*"))  # ... none cached


def test_without_a_compiler_it_installs_and_falls_back_to_numpy(tmp_path: Path) -> None:
    env = {**os.environ, "TPB_ISA_CACHE_DIR": str(tmp_path / "cache"), "CC": "false"}
    env.pop("PYTHONPATH", None)
    python, r = _install(tmp_path, env)
    assert "tpb_isa: not compiled at install" in r.stdout + r.stderr
    run = _first_use(python, tmp_path, env, "auto")
    assert run.returncode == 0, run.stderr
    assert "executor backend numpy" in run.stdout
    assert run.stdout.count("validators") == 4 and " c\n" not in run.stdout
    assert run.stderr.count("C backend unavailable") == 1, run.stderr  # the executor, once
    assert "text scanner False 0" in run.stdout  # asm splits its lines in Python, and says so
    assert run.stderr.count("the assembler's text scanner is unavailable") == 1, run.stderr


NUMPY_ONLY = r"""
import sys
import numpy as np
import tpb_isa
from tpb_isa import mariana as m
ex = m.Executor()
print("executor backend", ex.backend)
for g in tpb_isa.GENERATIONS:
    mod = tpb_isa.gen(g)
    W = np.zeros((4, 64), np.uint8)
    W[:, 0] = 0x43
    mod.validate_batch(W)
    print("validators", g, mod.batch.batch_backend())
from tpb_isa._runtime import textscan
from tpb_isa.mariana.decode import TEXT
W = np.zeros((64, 64), np.uint8)
W[:, 0] = 0x43
text = "\n".join(TEXT.disasm_rows(W))
assert TEXT.asm(text) == TEXT.asm(text) == W.tobytes()
print("text scanner", textscan.load() is not None)
"""


def _numpy_only_venv(tmp_path: Path) -> Path:
    """A virtual environment that sees numpy and nothing else of this interpreter's packages
    (no cffi): the interpreter's numpy linked into a directory a .pth file adds to the path."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    numpy_spec = importlib.util.find_spec("numpy")
    assert numpy_spec is not None and numpy_spec.origin is not None
    numpy_dir = Path(numpy_spec.origin).parent
    only = tmp_path / "numpy_only"
    only.mkdir()
    for entry in numpy_dir.parent.iterdir():
        if entry.name == "numpy" or entry.name.startswith(("numpy.", "numpy-")):
            (only / entry.name).symlink_to(entry)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    (Path(purelib) / "numpy_only.pth").write_text(f"{only}\n")
    return python


def test_without_cffi_nothing_is_compiled_and_it_is_said_once_at_install(tmp_path: Path) -> None:
    env = {**os.environ, "TPB_ISA_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PYTHONPATH", None)
    python = _numpy_only_venv(tmp_path)
    src = tmp_path / "src"
    shutil.copytree(REPO / "generated", src)
    r = subprocess.run(
        [str(python), "-m", "pip", "install", "-v", "--no-deps", "--disable-pip-version-check",
         str(src)],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    said = [line for line in (r.stdout + r.stderr).splitlines() if "nothing was compiled" in line]
    assert len(said) == 1, r.stdout[-3000:] + r.stderr[-3000:]
    assert "cffi is not installed" in said[0] and "the executor's C kernels" in said[0]
    assert all(f"the {g} validators" in said[0] for g in ("sunda", "cayman", "mariana", "maverick"))
    assert "compiled 6 C extensions" not in r.stdout + r.stderr
    assert "the assembler's text scanner" in said[0]
    where = subprocess.run(
        [str(python), "-c", "import tpb_isa; print(tpb_isa.__file__)"],
        capture_output=True, text=True, env=env, check=True, cwd=tmp_path,
    )  # fmt: skip
    site = Path(where.stdout.strip()).parent
    prebuilt = sorted(p.name for p in (site / "_prebuilt").iterdir())
    assert prebuilt == ["NOT_BUILT"], prebuilt  # no .so: nothing compiled
    script = tmp_path / "numpy_only.py"
    script.write_text(NUMPY_ONLY)
    for _ in range(2):  # every run: the numpy paths, not a word on stderr
        run = subprocess.run(
            [str(python), str(script)], capture_output=True, text=True, env=env, cwd=tmp_path,
            timeout=300,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        assert "executor backend numpy" in run.stdout
        assert run.stdout.count("numpy") == 5, run.stdout
        assert "text scanner False" in run.stdout  # asm without it, not a word said
        assert run.stderr == "", run.stderr
    words = tmp_path / "words.bin"
    words.write_bytes(bytes(64) + bytes([0x43]) + bytes(63))
    cli = subprocess.run(
        [str(python), "-m", "tpb_isa", "disasm", str(words), "--gen", "mariana", "--explain"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert cli.stdout.count("\n") == 2 and cli.stderr == "", cli.stdout + cli.stderr
    assert not (tmp_path / "cache").exists()


def test_the_build_at_install_says_its_progress_and_can_be_skipped(tmp_path: Path) -> None:
    """TPB_ISA_PREBUILD=0: the install compiles nothing and says so (and how the first use then
    compiles); the package's _prebuilt/ holds no extension and no NOT_BUILT (so the runtime does
    compile on first use rather than fall back in silence)."""
    env = {**os.environ, "TPB_ISA_CACHE_DIR": str(tmp_path / "cache"), "TPB_ISA_PREBUILD": "0"}
    env.pop("PYTHONPATH", None)
    python, r = _install(tmp_path, env)
    said = r.stdout + r.stderr
    assert "tpb_isa: TPB_ISA_PREBUILD=0: nothing compiled at install" in said, said[-3000:]
    assert "compiling 6 C extensions" not in said and "compiled 6 C extensions" not in said
    where = subprocess.run(
        [str(python), "-c", "import tpb_isa; print(tpb_isa.__file__)"],
        capture_output=True, text=True, env=env, check=True, cwd=tmp_path,
    )  # fmt: skip
    prebuilt = Path(where.stdout.strip()).parent / "_prebuilt"
    assert not prebuilt.exists() or not any(prebuilt.iterdir())
