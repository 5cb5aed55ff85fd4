"""The committed generated package for the kernel tests, and each kernel's numpy reference."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import numpy.typing as npt

REPO = Path(__file__).resolve().parents[2]
GENERATED = REPO / "generated"
GENS = ("sunda", "cayman", "mariana", "maverick")
KERNEL_NAMES = ("softmax", "rmsnorm", "layernorm", "cumsum", "cummax")
#: the kernels whose opcodes a generation's executor does not run (EXPONENTIAL 0x30 does not
#: decode on sunda and cayman: common-h-facts.md, no validator and no JSON binding)
UNSUPPORTED = {("sunda", "softmax"), ("cayman", "softmax")}

F64 = npt.NDArray[np.float64]


def package() -> ModuleType:
    """generated/tpb_isa, imported the way a vendoring user would."""
    if str(GENERATED) not in sys.path:
        sys.path.insert(0, str(GENERATED))
    return importlib.import_module("tpb_isa")


def gen_module(gen: str, sub: str = "") -> ModuleType:
    package()
    return importlib.import_module(f"tpb_isa.{gen}" + (f".{sub}" if sub else ""))


def kernels(gen: str) -> ModuleType:
    return gen_module(gen, "kernels")


def _softmax(x: F64) -> F64:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    out: F64 = e / e.sum(axis=1, keepdims=True)
    return out


def _rmsnorm(x: F64) -> F64:
    out: F64 = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6)
    return out


def _layernorm(x: F64) -> F64:
    c = x - x.mean(axis=1, keepdims=True)
    out: F64 = c / np.sqrt((c * c).mean(axis=1, keepdims=True) + 1e-5)
    return out


#: kernel -> its reference in float64 on the input's values (default eps as the builders')
REFERENCE: dict[str, Callable[[F64], F64]] = {
    "softmax": _softmax,
    "rmsnorm": _rmsnorm,
    "layernorm": _layernorm,
}
