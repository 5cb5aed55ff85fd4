"""What the runtime CLI fuzz (test_fuzz_runtime_cli.py) found, each pinned as it was found:
the real `python -m tpb_isa` process on the input that broke the contract."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tpb_paths import REPO

GEN = "mariana"


def run(cwd: Path, argv: list[str]) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO / "generated")}
    return subprocess.run(
        [sys.executable, "-m", "tpb_isa", *argv],
        cwd=cwd,
        capture_output=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env=env,
    )


def test_a_listing_that_is_not_utf8_is_refused_at_its_line_and_column(tmp_path: Path) -> None:
    """A byte that is not UTF-8 in an assembly listing named the byte's offset in the file, not
    the line a reader can go to (seed 39, case 2: `asm l.s` with a stray 0xff)."""
    src = REPO / "examples" / "kernels" / f"{GEN}_softmax.s"
    shutil.copy(src, tmp_path / "k.s")
    good = run(tmp_path, ["asm", "k.s", "-o", "k.bin", "--gen", GEN])
    assert good.returncode == 0, good.stderr
    lines = src.read_bytes().split(b"\n")
    lines[3] = lines[3][:7] + b"\xff" + lines[3][7:]
    (tmp_path / "bad.s").write_bytes(b"\n".join(lines))
    before = (tmp_path / "k.bin").read_bytes()
    r = run(tmp_path, ["asm", "bad.s", "-o", "k.bin", "--gen", GEN])
    err = r.stderr.decode()
    assert r.returncode == 2, err
    assert err == "error: bad.s:4:8: not UTF-8 text\n", err
    assert (tmp_path / "k.bin").read_bytes() == before
    lines[3] = "é".encode() + lines[3]  # the column counts characters, as asm's errors do
    (tmp_path / "bad.s").write_bytes(b"\n".join(lines))
    r = run(tmp_path, ["asm", "bad.s", "-o", "k.bin", "--gen", GEN])
    assert r.returncode == 2 and r.stderr.decode() == "error: bad.s:4:9: not UTF-8 text\n", r
