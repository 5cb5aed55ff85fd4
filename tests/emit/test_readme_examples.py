"""The generated README's Python examples run, in order, against the generated package."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from tpb_paths import REPO

from . import runtime_import  # noqa: F401  (puts generated/ on sys.path)


def test_readme_examples_run() -> None:
    text = (REPO / "generated" / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 5
    scope: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "generated/README.md", "exec"), scope)
    explain = scope["mariana"].explain(bytes(scope["bad"]))  # type: ignore[attr-defined]
    assert (
        explain
        == "is_valid_tensor_scalar_op -> tensor_scalar_valid_ops: op0 = 7 (DIVIDE) (needs op0 != NEURON_ISA_TPB_ALU_OP_DIVIDE)"
    )


def _next_steps() -> list[str]:
    """The commands of the top-level README's "Next steps" block."""
    text = (REPO / "README.md").read_text()
    block = text[text.index("### Next steps") : text.index("## What it does")]
    return [line[4:] for line in block.splitlines() if line.startswith("    ")]


def test_readme_listing_commands_copy_paste(tmp_path: Path) -> None:
    """The README's `python -m tpb_isa` lines, as a user pastes them into a shell (in a directory
    where `generated` is the package tree): the source it writes assembles, the listing of the
    result re-assembles to the same bytes, the explained word is valid; each exits 0."""
    (tmp_path / "generated").symlink_to(REPO / "generated", target_is_directory=True)
    lines = [c for c in _next_steps() if c.startswith("echo ") or "python -m tpb_isa" in c]
    assert len(lines) == 5 and lines[0].endswith("> prog.s")
    for line in lines:
        r = subprocess.run(
            ["sh", "-c", line], cwd=tmp_path, capture_output=True, text=True, check=False
        )
        assert r.returncode == 0, (line, r.stdout, r.stderr)
    assert (tmp_path / "again.bin").read_bytes() == (tmp_path / "prog.bin").read_bytes()
    listing = (tmp_path / "listing.s").read_text()
    assert listing.startswith("00000000:  ") and listing.endswith("; valid\n")
    assert r.stdout.endswith("\nvalid\n")  # the explain line, last
    hexword = lines[-1].split()[-3]
    assert bytes.fromhex(hexword) == (tmp_path / "prog.bin").read_bytes()


def test_generated_readme_command_lines_copy_paste(tmp_path: Path) -> None:
    """The `python -m tpb_isa` lines of the generated README (the package importable, as once
    installed): each exits 0 and the listing re-assembles to the same bytes."""
    text = (REPO / "generated" / "README.md").read_text()
    block = text[text.index("From the command line") : text.index("A listing line is")]
    lines = [line[4:] for line in block.splitlines() if line.startswith("    ")]
    assert len(lines) == 8 and lines[0].startswith("echo ")
    env = {**os.environ, "PYTHONPATH": str(REPO / "generated")}
    for line in lines:
        r = subprocess.run(
            ["sh", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
        )
        assert r.returncode == 0, (line, r.stdout, r.stderr)
    assert (tmp_path / "again.bin").read_bytes() == (tmp_path / "program.bin").read_bytes()


def test_readme_says_how_to_make_a_venv() -> None:
    text = (REPO / "README.md").read_text()
    assert "python3 -m venv .venv && . .venv/bin/activate" in text
    assert ".venv/" in (REPO / ".gitignore").read_text().splitlines()
