"""Run `tpbgen audit` through the CLI's main() and build synthetic header drops by editing a copy
of a vendored generation."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tpb_paths import HEADER_ROOT, tpb_dir
from tpbgen.cli import main


@dataclass
class Run:
    rc: int
    out: str
    err: str

    def json(self) -> dict[str, Any]:
        doc: dict[str, Any] = json.loads(self.out)
        return doc


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Run:
    capsys.readouterr()
    rc = main(["audit", "--headers", str(HEADER_ROOT), *argv])
    cap = capsys.readouterr()
    return Run(rc, cap.out, cap.err)


def run_quiet(*argv: str) -> Run:
    """`run` without capsys, for module-scoped fixtures."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["audit", "--headers", str(HEADER_ROOT), *argv])
    return Run(rc, out.getvalue(), err.getvalue())


def findings(doc: dict[str, Any], index: int = 0) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = doc["transitions"][index]["findings"]
    return found


def of_kind(fs: list[dict[str, Any]], *kinds: str) -> list[dict[str, Any]]:
    return [f for f in fs if f["kind"] in kinds]


def copy_generation(gen: str, dest_root: Path) -> Path:
    """A copy of the vendored `tpb/` tree of `gen` under `dest_root`; returns the copy's tpb/."""
    dest = dest_root / f"neuron_{gen}_arch_isa" / "tpb"
    shutil.copytree(tpb_dir(gen), dest)
    return dest


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace `old` by `new` in `path`; the text must occur exactly `count` times."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == count, (
        f"{path.name}: expected {count} x {old!r}, found {text.count(old)}"
    )
    path.write_text(text.replace(old, new), encoding="utf-8")


def edit_json(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(json.dumps(doc, indent=4) + "\n", encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    """1-based line of the only line of `path` containing `needle`."""
    hits = [
        n
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if needle in line
    ]
    assert len(hits) == 1, f"{path.name}: {needle!r} on lines {hits}"
    return hits[0]
