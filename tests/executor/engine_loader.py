"""Import the executor engine and the generated package for the executor tests, and test helpers.

* :func:`load_package` imports the committed generated package ``tpb_isa`` (generated/), whose
  ``_runtime`` is the runtime library (``runtime/``) copied, with the executor's
  semantic codes tpbgen emits from its table (``executor/codes.py``, ``executor/tpb_codes.h``;
  ``tpbgen generate --check`` keeps it current);
* :func:`load_engine` imports the engine from there (``tpb_isa._runtime.executor``).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from tpbgen.isa.lower import record_name

REPO = Path(__file__).resolve().parents[2]
RUNTIME = REPO / "generated" / "tpb_isa" / "_runtime"
ENGINE = RUNTIME / "executor"
FULL_PACKAGE = "tpb_isa"
PACKAGE = f"{FULL_PACKAGE}._runtime.executor"


def runtime(name: str) -> ModuleType:
    """A module of the generated package's runtime library: ``runtime("cextensions")``."""
    load_package()
    return importlib.import_module(f"{FULL_PACKAGE}._runtime.{name}")


def load_engine() -> ModuleType:
    """The engine package of the generated package's runtime library."""
    load_package()
    mod = importlib.import_module(PACKAGE)
    for name in (
        "numerics",
        "dtypes",
        "alu",
        "memory",
        "access",
        "kernels",
        "npbackend",
        "cbackend",
        "errors",
        "program",
        "codes",
        "operands",
    ):
        importlib.import_module(f"{PACKAGE}.{name}")
    return mod


def sub(name: str) -> ModuleType:
    load_engine()
    return sys.modules[f"{PACKAGE}.{name}"]


def operands(method: str, **values: Any) -> Any:
    """The operand record of Engine method `method` (``_runtime/executor/operands.py``, emitted
    from tpbgen's table) holding `values`."""
    return getattr(sub("operands"), record_name(method))(**values)


def call(engine: Any, method: str, **values: Any) -> None:
    """Engine method `method` on the record of `values`: ``engine.<method>(record)``."""
    getattr(engine, method)(operands(method, **values))


def load_package() -> ModuleType:
    """The committed generated package (generated/tpb_isa), imported the way a vendoring user would."""
    if str(REPO / "generated") not in sys.path:
        sys.path.insert(0, str(REPO / "generated"))
    return importlib.import_module(FULL_PACKAGE)


def gen_module(gen: str, sub_name: str = "") -> ModuleType:
    pkg = load_package()
    return importlib.import_module(f"{pkg.__name__}.{gen}" + (f".{sub_name}" if sub_name else ""))


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


def small_geometry(
    partitions: int, sbuf_partition: int, sbuf_active: int, psum_partition: int, psum_active: int
) -> dict[str, int]:
    """A scaled-down machine for the differential tests: ``partitions`` partitions in SBUF (at 0)
    and PSUM (at the headers' PSUM base), each of the given size and active bytes."""
    return {
        "STATE_BUF_NUM_PARTITIONS": partitions, "STATE_BUF_PARTITION_SIZE": sbuf_partition,
        "STATE_BUF_PARTITION_ACTIVE_SIZE": sbuf_active, "STATE_BUF_OFFSET": 0,
        "STATE_BUF_SZ": partitions * sbuf_partition, "PSUM_BUF_NUM_PARTITIONS": partitions,
        "PSUM_BUF_OFFSET": PSUM, "PSUM_BUF_SZ": partitions * psum_partition,
        "PSUM_BUF_PARTITION_SIZE": psum_partition, "PSUM_BUF_PARTITION_ACTIVE_SIZE": psum_active,
    }  # fmt: skip


def make_engine(backend: str = "numpy", gen: str = "sunda", **numerics: Any) -> Any:
    """An engine on ``gen``'s geometry; keyword arguments override that generation's Numerics."""
    e = load_engine()
    nm = gen_module(gen, "executor").NUMERICS
    if numerics:
        nm = nm.with_(**numerics)
    return e.Engine(GEOMETRY[gen], nm, backend=backend)


def c_available() -> bool:
    return sub("cbackend").load() is not None
