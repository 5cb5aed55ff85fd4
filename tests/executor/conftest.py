"""Fixtures for the executor tests: the rendered engine, geometries, engines on both backends."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_loader import load_engine, sub  # noqa: E402

# Geometry constants as the headers state them (common-h-facts.md §6)
GEOMETRY: dict[str, dict[str, int]] = {
    "sunda": {
        "STATE_BUF_NUM_PARTITIONS": 128, "STATE_BUF_PARTITION_SIZE": 256 * 1024,
        "STATE_BUF_PARTITION_ACTIVE_SIZE": 192 * 1024, "STATE_BUF_OFFSET": 0,
        "STATE_BUF_SZ": 0x2000000, "PSUM_BUF_NUM_PARTITIONS": 128, "PSUM_BUF_OFFSET": 0x2000000,
        "PSUM_BUF_SZ": 0x400000, "PSUM_BUF_PARTITION_SIZE": 32 * 1024,
        "PSUM_BUF_PARTITION_ACTIVE_SIZE": 16 * 1024, "TPB_PARTITION_ADDR_MASK": 0x1FFFFFFF,
        "NUM_ADDR_REGISTERS": 64, "DVE_NUM_CHANNELS": 128,
    },
    "mariana": {
        "STATE_BUF_NUM_PARTITIONS": 128, "STATE_BUF_PARTITION_SIZE": 256 * 1024,
        "STATE_BUF_PARTITION_ACTIVE_SIZE": 256 * 1024, "STATE_BUF_OFFSET": 0,
        "STATE_BUF_SZ": 0x2000000, "PSUM_BUF_NUM_PARTITIONS": 128, "PSUM_BUF_OFFSET": 0x2000000,
        "PSUM_BUF_SZ": 0x400000, "PSUM_BUF_PARTITION_SIZE": 32 * 1024,
        "PSUM_BUF_PARTITION_ACTIVE_SIZE": 16 * 1024, "TPB_PARTITION_ADDR_MASK": 0x1FFFFFFF,
        "NUM_ADDR_REGISTERS": 64, "DVE_NUM_CHANNELS": 128,
    },
    "maverick": {
        "STATE_BUF_NUM_PARTITIONS": 128, "STATE_BUF_PARTITION_SIZE": 1024 * 1024,
        "STATE_BUF_PARTITION_ACTIVE_SIZE": 512 * 1024, "STATE_BUF_OFFSET": 0,
        "STATE_BUF_SZ": 0x8000000, "PSUM_BUF_NUM_PARTITIONS": 128, "PSUM_BUF_OFFSET": 0x2000000,
        "PSUM_BUF_SZ": 0, "PSUM_BUF_PARTITION_SIZE": 32 * 1024,
        "PSUM_BUF_PARTITION_ACTIVE_SIZE": 16 * 1024, "TPB_PARTITION_ADDR_MASK": 0x1FFFFFFF,
        "NUM_ADDR_REGISTERS": 64, "DVE_NUM_CHANNELS": 128,
    },
}  # fmt: skip
PSUM = 0x2000000
SB_PART = 256 * 1024


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
def c_available() -> bool:
    return sub("cbackend").load() is not None


def make_engine(backend: str = "numpy", gen: str = "sunda", **numerics: Any) -> Any:
    e = load_engine()
    nm = e.Numerics(**numerics) if numerics else e.Numerics.for_generation(gen)
    return e.Engine(GEOMETRY[gen], nm, backend=backend)


@pytest.fixture(params=["numpy", "c"])
def backend(request: pytest.FixtureRequest, c_available: bool) -> str:
    if request.param == "c" and not c_available:
        pytest.skip(f"C backend unavailable: {sub('cbackend').load_error()}")
    return str(request.param)
