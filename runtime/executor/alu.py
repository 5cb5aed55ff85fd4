"""The ALU operators (``NEURON_ISA_TPB_ALU_OP``), vectorised with numpy.

Arithmetic operators work on fp32 arrays in IEEE binary32 (numpy float32, no fused multiply-add);
comparisons and logical operators give 1.0 or 0.0. Bitvec operators work on the raw bits of the
dtype, held zero-extended in uint32 arrays, at the dtype's width ``w`` (8, 16 or 32).

Operand order. :func:`arith` and :func:`bitvec` take the *data* operand (the tensor element, or
the running value) and the *scalar* operand; ``reverse`` swaps them, so a binary operator computes
``f(data, scalar)`` or, reversed, ``f(scalar, data)`` (the four ``TENS_SCALAR_REV_OPS`` forms
of semantics.md §1.3 are two such stages). Choices where the shelf is open (semantics.md §8, §9):

* BYPASS and the unary operators (ABSOLUTE_VALUE, RE_LU, SQUARE, RSQRT, BITWISE_NOT) act on the
  data operand whatever ``reverse`` says: a reversed BYPASS does not select the scalar.
* MAX/MIN propagate NaN and order -0 below +0 (IEEE 754-2019 maximum/minimum, §9.2 open).
* ABS_MAX/ABS_MIN return the *signed* operand of larger/smaller magnitude (DOC-LANG, §8 C1);
  on equal magnitudes they return the first operand of the (possibly reversed) pair.
* LOGICAL_* treat any non-zero value, NaN included, as true (RE-FW, §8 C2).
* RSQRT is ``1 / sqrt(x)`` in fp32 (two IEEE roundings); the device's Newton-iteration error is
  not published (§9.12).
* RECIPROCAL (an engine operator no drop's ALU_OP names, ``codes.ENGINE_OP``: Reciprocal 0x48's
  stage) is ``1 / x`` in fp32, one IEEE rounding; the device's seed-and-refine error is not
  published (next-families-facts.md Q12).
* Shifts take the amount as the unsigned value of the other operand's ``w``-bit pattern; an
  amount ``>= w`` shifts every bit out (0, or all sign bits for ARITH_SHIFT_RIGHT) (§9.7 open).
  ARITH_SHIFT_RIGHT fills with bit ``w-1`` of the pattern, whatever the dtype's signedness.
* CRC32, DIVIDE, POW, MOD, SYMMETRIC_CLAMP and the integer band are refused, by name, before
  an instruction reaches the engine (``codes.ROLES["alu_op"]`` says why); they have no
  semantic code here.

Every ``op`` here is a semantic code (``ALU_OP``), never a drop's value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .codes import ALU_OP, ENGINE_OP
from .errors import UnsupportedError

F32 = npt.NDArray[np.float32]
U32 = npt.NDArray[np.uint32]

# The executor's semantic codes, by name (codes.ALU_OP, emitted from tpbgen's table): never a drop's values, which
# each generation's executor maps to these names first.
_CODE = ALU_OP
BYPASS = _CODE["BYPASS"]
BITWISE_NOT = _CODE["BITWISE_NOT"]
ARITH_SHIFT_LEFT = _CODE["ARITH_SHIFT_LEFT"]
ARITH_SHIFT_RIGHT = _CODE["ARITH_SHIFT_RIGHT"]
ADD = _CODE["ADD"]
SUBTRACT = _CODE["SUBTRACT"]
MULT = _CODE["MULT"]
MAX = _CODE["MAX"]
MIN = _CODE["MIN"]
BITWISE_AND = _CODE["BITWISE_AND"]
BITWISE_OR = _CODE["BITWISE_OR"]
BITWISE_XOR = _CODE["BITWISE_XOR"]
LOGICAL_AND = _CODE["LOGICAL_AND"]
LOGICAL_OR = _CODE["LOGICAL_OR"]
LOGICAL_XOR = _CODE["LOGICAL_XOR"]
LOGICAL_SHIFT_LEFT = _CODE["LOGICAL_SHIFT_LEFT"]
LOGICAL_SHIFT_RIGHT = _CODE["LOGICAL_SHIFT_RIGHT"]
IS_EQ = _CODE["IS_EQ"]
IS_GT = _CODE["IS_GT"]
IS_GE = _CODE["IS_GE"]
IS_LE = _CODE["IS_LE"]
IS_LT = _CODE["IS_LT"]
ABSOLUTE_DIFF = _CODE["ABSOLUTE_DIFF"]
IS_NE = _CODE["IS_NE"]
ABSOLUTE_VALUE = _CODE["ABSOLUTE_VALUE"]
RSQRT = _CODE["RSQRT"]
ABS_MAX = _CODE["ABS_MAX"]
ABS_MIN = _CODE["ABS_MIN"]
RE_LU = _CODE["RE_LU"]
SQUARE = _CODE["SQUARE"]
RECIPROCAL = ENGINE_OP["RECIPROCAL"]

ARITH_OPS: frozenset[int] = frozenset(
    {
        BYPASS, ADD, SUBTRACT, MULT, MAX, MIN, LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR,
        IS_EQ, IS_GT, IS_GE, IS_LE, IS_LT, IS_NE, ABSOLUTE_DIFF, ABSOLUTE_VALUE,
        RSQRT, ABS_MAX, ABS_MIN, RE_LU, SQUARE, RECIPROCAL,
    }
)  # fmt: skip
BITVEC_OPS: frozenset[int] = frozenset(
    {
        BYPASS, BITWISE_NOT, ARITH_SHIFT_LEFT, ARITH_SHIFT_RIGHT, LOGICAL_SHIFT_LEFT,
        LOGICAL_SHIFT_RIGHT, BITWISE_AND, BITWISE_OR, BITWISE_XOR,
    }
)  # fmt: skip
UNARY_OPS: frozenset[int] = frozenset(
    {ABSOLUTE_VALUE, RE_LU, SQUARE, RSQRT, RECIPROCAL, BITWISE_NOT}
)
# cache-reduce / cumulative accumulate operators and their identities (semantics.md §10)
ACCUM_IDENTITY: dict[int, float] = {
    ADD: 0.0,
    SUBTRACT: 0.0,
    MULT: 1.0,
    MAX: float("-inf"),
    MIN: float("inf"),
}

_NAMES: dict[int, str] = {code: name for name, code in _CODE.items()}


def op_name(op: int) -> str:
    """The name of a semantic code (its hex value when it is none)."""
    return _NAMES.get(int(op), f"code 0x{int(op):02X}")


def check_arith(op: int) -> None:
    """Raise :class:`UnsupportedError` unless ``op`` is an arithmetic operator we execute."""
    if int(op) not in ARITH_OPS:
        _refuse(op, "an arithmetic")


def check_bitvec(op: int) -> None:
    """Raise :class:`UnsupportedError` unless ``op`` is a bitvec operator we execute."""
    if int(op) not in BITVEC_OPS:
        _refuse(op, "a bitvec")


def _refuse(op: int, cls: str) -> None:
    raise UnsupportedError(f"ALU op {op_name(op)} is not {cls} operator the executor runs")


# ---------------------------------------------------------------------------------------------
# arithmetic (fp32)

_NAN = np.float32(np.nan)
_ONE = np.float32(1.0)
_ZERO = np.float32(0.0)


def _b(x: npt.NDArray[np.bool_]) -> F32:
    return x.astype(np.float32)


def _max(a: Any, b: Any) -> F32:
    r = np.where(a > b, a, np.where(b > a, b, np.where(np.signbit(a), b, a)))
    r = np.where(np.isnan(a) | np.isnan(b), _NAN, r)
    return np.asarray(r, dtype=np.float32)


def _min(a: Any, b: Any) -> F32:
    r = np.where(a < b, a, np.where(b < a, b, np.where(np.signbit(a), a, b)))
    r = np.where(np.isnan(a) | np.isnan(b), _NAN, r)
    return np.asarray(r, dtype=np.float32)


def _abs_pick(a: Any, b: Any, larger: bool) -> F32:
    fa = np.abs(a)
    fb = np.abs(b)
    pick_b = (fb > fa) if larger else (fb < fa)
    r = np.where(pick_b, b, a)
    r = np.where(np.isnan(a) | np.isnan(b), _NAN, r)
    return np.asarray(r, dtype=np.float32)


def _binary_arith(op: int, a: Any, b: Any, out: F32 | None) -> F32:
    if op == ADD:
        return np.asarray(np.add(a, b, out=out, dtype=np.float32), dtype=np.float32)
    if op == SUBTRACT:
        return np.asarray(np.subtract(a, b, out=out, dtype=np.float32), dtype=np.float32)
    if op == MULT:
        return np.asarray(np.multiply(a, b, out=out, dtype=np.float32), dtype=np.float32)
    if op == MAX:
        return _max(a, b)
    if op == MIN:
        return _min(a, b)
    if op == ABSOLUTE_DIFF:
        r = np.asarray(np.subtract(a, b, out=out, dtype=np.float32), dtype=np.float32)
        return np.abs(r, out=r)
    if op == ABS_MAX:
        return _abs_pick(a, b, True)
    if op == ABS_MIN:
        return _abs_pick(a, b, False)
    if op == LOGICAL_AND:
        return _b((a != 0) & (b != 0))
    if op == LOGICAL_OR:
        return _b((a != 0) | (b != 0))
    if op == LOGICAL_XOR:
        return _b((a != 0) ^ (b != 0))
    if op == IS_EQ:
        return _b(a == b)
    if op == IS_NE:
        return _b(a != b)
    if op == IS_GT:
        return _b(a > b)
    if op == IS_GE:
        return _b(a >= b)
    if op == IS_LE:
        return _b(a <= b)
    if op == IS_LT:
        return _b(a < b)
    raise UnsupportedError(f"ALU op {op_name(op)} is not a binary arithmetic operator")


def arith(op: int, data: Any, scalar: Any, reverse: bool = False, out: F32 | None = None) -> F32:
    """One arithmetic stage: ``f(data, scalar)``, or ``f(scalar, data)`` when ``reverse``.

    ``out`` may be passed to compute in place (it may alias ``data``); the result is returned.
    """
    op = int(op)
    with np.errstate(all="ignore"):
        if op == BYPASS:
            d = np.asarray(data, dtype=np.float32)
            if out is not None and out is not d:
                np.copyto(out, d)
                return out
            return d
        if op == ABSOLUTE_VALUE:
            return np.asarray(np.abs(data, out=out, dtype=np.float32), dtype=np.float32)
        if op == SQUARE:
            return np.asarray(np.multiply(data, data, out=out, dtype=np.float32), dtype=np.float32)
        if op == RE_LU:
            return _max(np.asarray(data, dtype=np.float32), _ZERO)
        if op == RSQRT:
            s = np.asarray(np.sqrt(data, dtype=np.float32), dtype=np.float32)
            return np.divide(_ONE, s, out=out if out is not None else s, dtype=np.float32)
        if op == RECIPROCAL:
            d = np.asarray(data, dtype=np.float32)
            return np.asarray(np.divide(_ONE, d, out=out, dtype=np.float32), dtype=np.float32)
        if reverse:
            return _binary_arith(op, scalar, data, out)
        return _binary_arith(op, data, scalar, out)


# ---------------------------------------------------------------------------------------------
# bitvec (raw bits at width w)


def _shift_amount(b: U32, width: int) -> tuple[U32, npt.NDArray[np.bool_]]:
    big = b >= np.uint32(width)
    return np.where(big, np.uint32(0), b).astype(np.uint32), big


def bitvec(op: int, data: U32, scalar: U32, width: int, reverse: bool = False) -> U32:
    """One bitvec stage on ``width``-bit patterns held in uint32 arrays (zero-extended)."""
    op = int(op)
    mask = np.uint32((1 << width) - 1)
    if op == BYPASS:
        return np.asarray(data, dtype=np.uint32)
    if op == BITWISE_NOT:
        return np.asarray(~np.asarray(data, dtype=np.uint32) & mask, dtype=np.uint32)
    a, b = (scalar, data) if reverse else (data, scalar)
    a = np.asarray(a, dtype=np.uint32)
    b = np.asarray(b, dtype=np.uint32)
    if op == BITWISE_AND:
        return np.asarray(a & b, dtype=np.uint32)
    if op == BITWISE_OR:
        return np.asarray(a | b, dtype=np.uint32)
    if op == BITWISE_XOR:
        return np.asarray(a ^ b, dtype=np.uint32)
    if op in (ARITH_SHIFT_LEFT, LOGICAL_SHIFT_LEFT):
        amt, big = _shift_amount(b, width)
        return np.asarray(np.where(big, np.uint32(0), (a << amt) & mask), dtype=np.uint32)
    if op == LOGICAL_SHIFT_RIGHT:
        amt, big = _shift_amount(b, width)
        return np.asarray(np.where(big, np.uint32(0), a >> amt), dtype=np.uint32)
    if op == ARITH_SHIFT_RIGHT:
        amt, big = _shift_amount(b, width)
        neg = (a >> np.uint32(width - 1)) & np.uint32(1)
        fill = np.where(neg == 1, ~(mask >> amt) & mask, np.uint32(0))
        res = np.where(big, np.where(neg == 1, mask, np.uint32(0)), (a >> amt) | fill)
        return np.asarray(res, dtype=np.uint32)
    raise UnsupportedError(f"ALU op {op_name(op)} is not a bitvec operator the executor runs")
