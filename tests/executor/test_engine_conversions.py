"""Conversions bit for bit, dense: every (input, output) dtype pair, every numeric switch that
changes a conversion, and every input bit pattern of the 8- and 16-bit dtypes (fp32 inputs: every
sign and exponent with mantissas at and around each format's rounding point), run through both
backends' TensorScalar kernel and checked against the reference (``dtypes.load_f32`` then
``dtypes.store_from_f32`` on the whole array at once). NaN, +-Inf, subnormals, overflow in both
fp8 overflow modes and both e4m3 variants are all in the draw, so a faster conversion cannot
change a bit unseen."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from .engine_loader import c_available, load_engine, sub

eng = load_engine()
dt = sub("dtypes")
alu = sub("alu")
npb = sub("npbackend")
cbk = sub("cbackend")

pytestmark = pytest.mark.skipif(not c_available(), reason="C backend unavailable")

IN_CODES = [dt.FP32, dt.FP32R, dt.BFLOAT16, dt.FP16, dt.FP8_EXP3, dt.FP8_EXP4, dt.FP8_EXP5,
            *dt.INT_CODES]  # fmt: skip
OUT_CODES = [dt.FP32, dt.FP32R, dt.BFLOAT16, dt.FP16, dt.FP8_EXP3, dt.FP8_EXP4, dt.FP8_EXP5,
             *dt.INT_CODES]  # fmt: skip
ROWS = 16

# (rounding, fp8_e4m3, fp8_overflow, float_to_int, fp32r_mantissa_bits): each value of every
# switch appears with each value of the others that matter to one conversion
NUMERICS = [
    eng.Numerics("rne", 0, "ieee", "inf_nan", "rne_saturate", 11),
    eng.Numerics("rne", 0, "ocp", "saturate", "truncate", 1),
    eng.Numerics("rne", 0, "ocp", "inf_nan", "rne_saturate", 22),
    eng.Numerics("rne", 0, "ieee", "saturate", "truncate", 10),
    eng.Numerics("stochastic", 12345, "ocp", "inf_nan", "rne_saturate", 7),
    eng.Numerics("stochastic", 2**64 - 1, "ieee", "saturate", "truncate", 13),
]


def dense_f32() -> np.ndarray[Any, np.dtype[np.uint32]]:
    """fp32 bit patterns: every sign and exponent with mantissas at, just below and just above the
    half-way and whole-ulp points of every rounding shift 1..23 (ties with odd and even lsb), the
    extremes, and a few random ones."""
    mants = {0, 1, 0x7FFFFF, 0x400000, 0x3FFFFF}
    for s in range(1, 24):
        half, ulp = 1 << (s - 1), 1 << s
        for v in (half - 1, half, half + 1, ulp | half, (ulp | half) - 1, ulp - 1, ulp, ulp + 1):
            mants.add(v & 0x7FFFFF)
    rng = np.random.default_rng(7)
    mants.update(int(v) for v in rng.integers(0, 2**23, size=24))
    m = np.array(sorted(mants), dtype=np.uint32)
    se = np.arange(512, dtype=np.uint32) << np.uint32(23)
    out: np.ndarray[Any, np.dtype[np.uint32]] = (se[:, None] | m[None, :]).reshape(-1)
    return out


def source(code: int) -> np.ndarray[Any, Any]:
    """Every bit pattern of an 8/16-bit dtype, the dense fp32 set for a 32-bit one (and the
    32-bit integer extremes), as ROWS rows."""
    size = dt.size(code)
    if size == 4:
        bits = dense_f32()
        if code in (dt.INT32, dt.UINT32):
            edge = np.array([0, 1, 2**24 + 1, 2**31 - 1, 2**31, 2**32 - 1], dtype=np.uint32)
            bits = np.concatenate([bits, edge])
    else:
        bits = np.arange(2 ** (8 * size), dtype=np.uint32)
        bits = np.tile(bits, max(1, 4096 // bits.size))
    bits = bits[: bits.size - bits.size % ROWS]
    return bits.astype(dt.storage_dtype(code)).reshape(ROWS, -1)


# per-row scalars: identity, a push towards overflow and one towards the subnormals of the
# narrow formats, negation, a value that is not a power of two, NaN/Inf-producing ones
S0 = np.array([1.0, 2.0**8, 2.0**-12, -1.0, 1.7, 2.0**100, 2.0**-100, 3.0, 0.5, -2.0**-7, 7.0,
               np.inf, 0.0, 1e-3, 448.0, 2.0**-24], dtype=np.float32)  # fmt: skip
S1 = np.array([0.0, 0.0, 0.0, -0.0, -0.25, 0.0, 0.0, 1e-3, 2.0**-20, 0.0, -1.0, 0.0, np.nan,
               0.0, 16.0, 0.0], dtype=np.float32)  # fmt: skip


def reference(src: np.ndarray[Any, Any], in_code: int, out_code: int, op0: int, op1: int,
              nm: Any, key: int, rev: int = 0) -> np.ndarray[Any, Any]:  # fmt: skip
    x = dt.load_f32(in_code, src, nm)
    with np.errstate(all="ignore"):
        t = alu.arith(op0, x, S0.reshape(-1, 1), bool(rev & 1))
        y = alu.arith(op1, t, S1.reshape(-1, 1), bool(rev & 2))
    rnd = None
    if npb.needs_rand(out_code, nm):
        rnd = dt.rand_bits(key, np.arange(y.size, dtype=np.uint64).reshape(y.shape))
    return dt.store_from_f32(out_code, np.asarray(y, dtype=np.float32), nm, rnd)


def check(src: np.ndarray[Any, Any], in_code: int, out_code: int, op0: int, op1: int,
          nm: Any, rev: int = 0) -> None:  # fmt: skip
    key = dt.stream_key(nm.seed, 3)
    want = reference(src, in_code, out_code, op0, op1, nm, key, rev)
    s0, s1 = S0.reshape(-1, 1).copy(), S1.reshape(-1, 1).copy()
    for be in (npb.NumpyBackend(), cbk.get_backend("c")):
        for out in (None, np.zeros(src.shape, dt.storage_dtype(out_code))):
            got = be.ts_arith(
                src, in_code, out_code, s0, s1, op0, op1, bool(rev & 1), bool(rev & 2), nm, key, out
            )
            if not np.array_equal(np.asarray(got).reshape(want.shape), want):
                g = np.asarray(got).reshape(want.shape)
                bad = np.argwhere(g != want)[0]
                raise AssertionError(
                    f"{be.name} {in_code:#x}->{out_code:#x} {nm}: at {tuple(bad)} src "
                    f"{int(src[tuple(bad)]):#x} got {int(g[tuple(bad)]):#x} want "
                    f"{int(want[tuple(bad)]):#x}"
                )


PAIRS = list(itertools.product(IN_CODES, OUT_CODES))


@pytest.mark.parametrize(("in_code", "out_code"), PAIRS, ids=lambda v: f"{v:#x}")
def test_every_dtype_pair_bit_for_bit(in_code: int, out_code: int) -> None:
    """MULT by a per-row scalar then ADD one (the fused fp32 loop's shape) on every pattern."""
    src = source(in_code)
    for nm in NUMERICS:
        check(src, in_code, out_code, alu.MULT, alu.ADD, nm)


@pytest.mark.parametrize("out_code", OUT_CODES, ids=lambda v: f"{v:#x}")
def test_stores_of_every_fp32_pattern_class(out_code: int) -> None:
    """BYPASS from fp32: the store alone, on the dense fp32 set (ties at every shift)."""
    src = source(dt.FP32)
    for nm in NUMERICS:
        check(src, dt.FP32, out_code, alu.BYPASS, alu.BYPASS, nm)


@pytest.mark.parametrize("in_code", IN_CODES, ids=lambda v: f"{v:#x}")
def test_loads_of_every_pattern(in_code: int) -> None:
    """BYPASS to fp32: the load alone (NaN canonical on the way out)."""
    src = source(in_code)
    for variant in ("ieee", "ocp"):
        check(src, in_code, dt.FP32, alu.BYPASS, alu.BYPASS, eng.Numerics(fp8_e4m3=variant))


@pytest.mark.parametrize("nm", NUMERICS[3:5], ids=["rne", "stochastic"])
@pytest.mark.parametrize("out_code", [dt.BFLOAT16, dt.FP8_EXP4, dt.FP32, dt.INT8])
def test_tiled_numpy_path_with_w_slices(nm: Any, out_code: int) -> None:
    """The numpy backend's tiles (TILE elements, inside one of W column slices) against the C
    backend, on a tensor large enough to be tiled, W = 4, into a fresh array and into a view."""
    src = np.tile(source(dt.BFLOAT16), (1, 3))
    rng = np.random.default_rng(5)
    s0 = rng.choice(S0, size=(ROWS, 4)).astype(np.float32)
    s1 = rng.choice(S1, size=(ROWS, 4)).astype(np.float32)
    key = dt.stream_key(nm.seed, 9)
    c = cbk.get_backend("c").ts_arith(src, dt.BFLOAT16, out_code, s0, s1, alu.MULT, alu.SUBTRACT,
                                      False, True, nm, key)  # fmt: skip
    assert src.size > npb.TILE
    big = np.zeros((ROWS, src.shape[1] + 8), dt.storage_dtype(out_code))
    for out in (None, big[:, 8:]):
        got = npb.NumpyBackend().ts_arith(src, dt.BFLOAT16, out_code, s0, s1, alu.MULT,
                                          alu.SUBTRACT, False, True, nm, key, out)  # fmt: skip
        assert np.array_equal(got, c)


FUSABLE = [alu.BYPASS, alu.ADD, alu.SUBTRACT, alu.MULT, alu.MAX, alu.MIN]


@pytest.mark.parametrize("rev", [0, 1, 2, 3])
@pytest.mark.parametrize(("op0", "op1"), list(itertools.product(FUSABLE, FUSABLE)))
def test_fused_bf16_loop_every_pattern(op0: int, op1: int, rev: int) -> None:
    """bf16 -> bf16 with RNE on contiguous rows is the C backend's fused single pass: every op
    pair and reverse bit it takes, on every bf16 pattern."""
    check(source(dt.BFLOAT16), dt.BFLOAT16, dt.BFLOAT16, op0, op1, NUMERICS[0], rev)
