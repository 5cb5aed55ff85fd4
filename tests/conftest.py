"""Shared test fixtures: where the header drop lives and how to reach a C compiler."""

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


@pytest.fixture(scope="session")
def cc() -> str:
    found = find_cc()
    if found is None:
        pytest.skip("no C compiler on PATH (cc, gcc or clang)")
    return found


@pytest.fixture(scope="session")
def cxx() -> str:
    found = find_cxx()
    if found is None:
        pytest.skip("no C++ compiler on PATH (c++, g++ or clang++)")
    return found


def run_checked(argv: Sequence[str], cwd: Path | None = None) -> str:
    """Run a command, fail the test with its stderr if it fails, return its stdout."""
    proc = subprocess.run(list(argv), cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail(f"command failed ({proc.returncode}): {' '.join(argv)}\n{proc.stderr}")
    return proc.stdout


@pytest.fixture(params=GENERATIONS)
def gen(request: pytest.FixtureRequest) -> str:
    return str(request.param)
