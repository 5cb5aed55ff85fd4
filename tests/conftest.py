"""Shared test fixtures: a C compiler and the generation parameter. Paths live in tpb_paths.py."""

from __future__ import annotations

import pytest

from tpb_paths import GENERATIONS, HEADER_ROOT, REPO, find_cc, find_cxx, run_checked, tpb_dir

__all__ = ["GENERATIONS", "HEADER_ROOT", "REPO", "run_checked", "tpb_dir"]


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


@pytest.fixture(params=GENERATIONS)
def gen(request: pytest.FixtureRequest) -> str:
    return str(request.param)
