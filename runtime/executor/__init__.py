"""The generation-independent executor engine of the TensorScalar and tensor-tensor families
(numpy and C backends).

The per-generation ``tpb_isa.<gen>.Executor`` binds it to that generation's decoder, validators and
geometry constants; :class:`Engine` is usable on its own with plain parameters.
"""

from __future__ import annotations

from .errors import AddressError, ExecutorError, InvalidInstructionError, UnsupportedError
from .kernels import Engine, Imm, Pattern, pattern
from .numerics import Numerics

__all__ = [
    "AddressError",
    "Engine",
    "ExecutorError",
    "Imm",
    "InvalidInstructionError",
    "Numerics",
    "Pattern",
    "UnsupportedError",
    "pattern",
]
