"""Paths and helpers shared by the test packages (imported as `tpb_paths`; fixtures live in conftest.py).

A module of its own, because several test folders have a conftest.py and `import conftest`
would find whichever was loaded first.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
HEADER_ROOT = REPO / "vendor_headers"
GENERATIONS = ("sunda", "cayman", "mariana", "maverick")


def tpb_dir(gen: str) -> Path:
    """The `tpb/` directory of one generation of the vendored drop."""
    return HEADER_ROOT / f"neuron_{gen}_arch_isa" / "tpb"


def find_cc() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    return None


def find_cxx() -> str | None:
    for name in (os.environ.get("CXX"), "c++", "g++", "clang++"):
        if name and shutil.which(name):
            return name
    return None


def run_checked(argv: Sequence[str], cwd: Path | None = None) -> str:
    """Run a command, fail the test with its stderr if it fails, return its stdout."""
    proc = subprocess.run(list(argv), cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail(f"command failed ({proc.returncode}): {' '.join(argv)}\n{proc.stderr}")
    return proc.stdout
