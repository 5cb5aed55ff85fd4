"""Fixtures for the executor tests (helpers live in engine_loader.py)."""

from __future__ import annotations

from types import ModuleType

import pytest

from .engine_loader import c_available, load_engine, sub


@pytest.fixture(scope="session")
def eng() -> ModuleType:
    return load_engine()


@pytest.fixture(scope="session")
def dtypes() -> ModuleType:
    return sub("dtypes")


@pytest.fixture(scope="session")
def alu() -> ModuleType:
    return sub("alu")


@pytest.fixture(scope="session")
def kernels() -> ModuleType:
    return sub("kernels")


@pytest.fixture(params=["numpy", "c"])
def backend(request: pytest.FixtureRequest) -> str:
    if request.param == "c" and not c_available():
        pytest.skip(f"C backend unavailable: {sub('cbackend').load_error()}")
    return str(request.param)
