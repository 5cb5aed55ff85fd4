"""ALU operators: the shelf's meanings and the executor's documented choices where it is open."""

from __future__ import annotations

import math

import numpy as np
import pytest

from .engine_loader import sub

alu = sub("alu")
errors = sub("errors")
codes = sub("codes")


def ar(op: int, a: float, b: float, reverse: bool = False) -> float:
    return float(alu.arith(op, np.array([a], np.float32), np.array([b], np.float32), reverse)[0])


def bits(x: float) -> int:
    return int(np.array([x], np.float32).view(np.uint32)[0])


@pytest.mark.parametrize(
    ("op", "a", "b", "want"),
    [
        (alu.ADD, 1.5, 2.25, 3.75),
        (alu.SUBTRACT, 1.0, 3.0, -2.0),
        (alu.MULT, 1.5, -2.0, -3.0),
        (alu.MAX, -1.0, 2.0, 2.0),
        (alu.MIN, -1.0, 2.0, -1.0),
        (alu.ABSOLUTE_DIFF, 1.0, 4.5, 3.5),
        (alu.IS_EQ, 2.0, 2.0, 1.0),
        (alu.IS_NE, 2.0, 2.0, 0.0),
        (alu.IS_GT, 3.0, 2.0, 1.0),
        (alu.IS_GE, 2.0, 2.0, 1.0),
        (alu.IS_LE, 3.0, 2.0, 0.0),
        (alu.IS_LT, 1.0, 2.0, 1.0),
        (alu.LOGICAL_AND, 2.0, 0.0, 0.0),
        (alu.LOGICAL_AND, -3.0, 0.5, 1.0),
        (alu.LOGICAL_OR, 0.0, 0.0, 0.0),
        (alu.LOGICAL_OR, 0.0, 7.0, 1.0),
        (alu.LOGICAL_XOR, 5.0, 7.0, 0.0),
        (alu.LOGICAL_XOR, 5.0, 0.0, 1.0),
        (alu.ABS_MAX, -5.0, 3.0, -5.0),  # DOC-LANG: the signed operand with the larger magnitude
        (alu.ABS_MAX, 2.0, -3.0, -3.0),
        (alu.ABS_MIN, -5.0, 3.0, 3.0),
        (alu.ABS_MIN, -2.0, 3.0, -2.0),
    ],
)
def test_binary_arith(op: int, a: float, b: float, want: float) -> None:
    assert ar(op, a, b) == want


def test_reverse_swaps_only_binary_operands() -> None:
    assert ar(alu.SUBTRACT, 1.0, 3.0, reverse=True) == 2.0
    assert ar(alu.IS_GT, 3.0, 2.0, reverse=True) == 0.0
    # BYPASS and unary ops act on the data operand whatever the reverse bit says
    assert ar(alu.BYPASS, 1.0, 3.0, reverse=True) == 1.0
    assert ar(alu.ABSOLUTE_VALUE, -4.0, 3.0, reverse=True) == 4.0
    assert ar(alu.SQUARE, -3.0, 9.0, reverse=True) == 9.0
    assert ar(alu.RE_LU, -3.0, 9.0, reverse=True) == 0.0


def test_unary_arith() -> None:
    assert ar(alu.ABSOLUTE_VALUE, -2.5, 0.0) == 2.5
    assert ar(alu.RE_LU, -2.5, 0.0) == 0.0
    assert ar(alu.RE_LU, 2.5, 0.0) == 2.5
    assert bits(ar(alu.RE_LU, -0.0, 0.0)) == 0  # relu(-0) = +0 under the IEEE-2019 max
    assert ar(alu.SQUARE, -1.5, 0.0) == 2.25
    assert ar(alu.RSQRT, 4.0, 0.0) == 0.5
    assert math.isnan(ar(alu.RSQRT, -4.0, 0.0))
    assert ar(alu.RSQRT, 0.0, 0.0) == math.inf


def test_max_min_nan_and_signed_zero() -> None:
    nan = float("nan")
    for op in (alu.MAX, alu.MIN, alu.ABS_MAX, alu.ABS_MIN):
        assert math.isnan(ar(op, nan, 1.0)) and math.isnan(ar(op, 1.0, nan))
    assert bits(ar(alu.MAX, -0.0, 0.0)) == 0 and bits(ar(alu.MAX, 0.0, -0.0)) == 0
    assert bits(ar(alu.MIN, -0.0, 0.0)) == 0x80000000 and bits(ar(alu.MIN, 0.0, -0.0)) == 0x80000000


def test_comparisons_with_nan_are_ieee() -> None:
    nan = float("nan")
    assert [ar(op, nan, 1.0) for op in (alu.IS_EQ, alu.IS_GT, alu.IS_GE, alu.IS_LE, alu.IS_LT)] == [
        0.0
    ] * 5
    assert ar(alu.IS_NE, nan, 1.0) == 1.0
    assert ar(alu.LOGICAL_AND, nan, 1.0) == 1.0  # NaN is non-zero, so true


def bv(op: int, a: int, b: int, width: int, reverse: bool = False) -> int:
    return int(
        alu.bitvec(op, np.array([a], np.uint32), np.array([b], np.uint32), width, reverse)[0]
    )


@pytest.mark.parametrize(
    ("op", "a", "b", "width", "want"),
    [
        (alu.BITWISE_AND, 0xF0F0, 0xFF00, 16, 0xF000),
        (alu.BITWISE_OR, 0x0F, 0xF0, 8, 0xFF),
        (alu.BITWISE_XOR, 0xFFFFFFFF, 0x0F0F0F0F, 32, 0xF0F0F0F0),
        (alu.BITWISE_NOT, 0x0F, 0, 8, 0xF0),
        (alu.BITWISE_NOT, 0x1234, 0, 16, 0xEDCB),
        (alu.LOGICAL_SHIFT_LEFT, 0x81, 1, 8, 0x02),
        (alu.ARITH_SHIFT_LEFT, 0x81, 1, 8, 0x02),
        (alu.LOGICAL_SHIFT_RIGHT, 0x80000000, 31, 32, 1),
        (alu.ARITH_SHIFT_RIGHT, 0x80000000, 31, 32, 0xFFFFFFFF),
        (alu.ARITH_SHIFT_RIGHT, 0x40000000, 30, 32, 1),
        (alu.ARITH_SHIFT_RIGHT, 0xF0000000, 4, 32, 0xFF000000),
        # amounts at or beyond the width shift every bit out
        (alu.LOGICAL_SHIFT_LEFT, 0xFF, 8, 8, 0),
        (alu.LOGICAL_SHIFT_RIGHT, 0xFFFF, 16, 16, 0),
        (alu.LOGICAL_SHIFT_LEFT, 1, 32, 32, 0),
        (alu.LOGICAL_SHIFT_RIGHT, 0xFFFFFFFF, 0xFFFFFFFF, 32, 0),
        (alu.ARITH_SHIFT_RIGHT, 0x80000000, 40, 32, 0xFFFFFFFF),
        (alu.ARITH_SHIFT_RIGHT, 0x7FFFFFFF, 32, 32, 0),
    ],
)
def test_bitvec(op: int, a: int, b: int, width: int, want: int) -> None:
    assert bv(op, a, b, width) == want


def test_bitvec_reverse_makes_the_tensor_the_shift_amount() -> None:
    assert bv(alu.LOGICAL_SHIFT_LEFT, 3, 1, 32, reverse=True) == 8  # 1 << 3
    assert bv(alu.BITWISE_NOT, 0x0F, 0xFF, 8, reverse=True) == 0xF0


@pytest.mark.parametrize(
    "name", ["CRC32", "DIVIDE", "POW", "MOD", "SYMMETRIC_CLAMP", "ADD_INT", "AMIN_UINT"]
)
def test_refused_ops_have_no_semantic_code_and_say_why(name: str) -> None:
    """The refused ALU ops are refused by name before the engine (codes.ROLES says why); the
    engine has no code for them and refuses any code it lacks."""
    _what, _c_enum, implemented, refused = codes.ROLES["alu_op"]
    assert name not in implemented and name in refused
    if name == "CRC32":
        assert "polynomial" in refused[name]
    unused = max(implemented.values()) + 1
    for checker in (alu.check_arith, alu.check_bitvec):
        with pytest.raises(errors.UnsupportedError, match=r"not an? .* operator the executor runs"):
            checker(unused)


def test_bitvec_and_arith_classes_are_disjoint_where_they_must_be() -> None:
    with pytest.raises(errors.UnsupportedError):
        alu.check_bitvec(alu.ADD)
    with pytest.raises(errors.UnsupportedError):
        alu.check_arith(alu.BITWISE_AND)
    alu.check_arith(alu.BYPASS)
    alu.check_bitvec(alu.BYPASS)
