"""The fp32 hub and the one output rounding: golden edge cases and ml_dtypes as the reference."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from tpbgen.isa import table

from .engine_loader import gen_module, load_engine, sub

dt = sub("dtypes")
Numerics = load_engine().Numerics


def f32(bits: list[int]) -> np.ndarray[Any, np.dtype[np.float32]]:
    return np.array(bits, dtype=np.uint32).view(np.float32)


def store(code: int, x: Any, **kw: Any) -> np.ndarray[Any, Any]:
    return dt.store_from_f32(code, np.asarray(x, dtype=np.float32), Numerics(**kw))


# -- RNE ties -----------------------------------------------------------------------------------


def test_bf16_ties_round_to_even() -> None:
    # 1 + 2**-8 is halfway between bf16 0x3F80 (even) and 0x3F81; 1 + 3 * 2**-8 between 0x3F81 and 0x3F82
    got = store(dt.BFLOAT16, f32([0x3F808000, 0x3F818000, 0x3F808001, 0xBF808000]))
    assert [hex(v) for v in got] == ["0x3f80", "0x3f82", "0x3f81", "0xbf80"]


def test_fp16_ties_round_to_even() -> None:
    one = np.float32(1.0)
    x = [
        one + np.float32(2.0**-11),
        one + np.float32(3 * 2.0**-11),
        np.float32(65520.0),
        np.float32(65519.0),
    ]
    got = store(dt.FP16, x)
    # 65520 is the tie between 65504 (max, odd mantissa) and 65536 (overflow) -> Inf
    assert [hex(v) for v in got] == ["0x3c00", "0x3c02", "0x7c00", "0x7bff"]


def test_fp16_subnormal_tie() -> None:
    q = 2.0**-24  # fp16's smallest subnormal
    got = store(dt.FP16, [0.5 * q, 1.5 * q, 2.5 * q, -0.5 * q])
    assert [hex(v) for v in got] == ["0x0", "0x2", "0x2", "0x8000"]


# -- fp8: variants and overflow ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "overflow", "x", "want"),
    [
        ("ieee", "inf_nan", 300.0, 0x78),  # +Inf
        ("ieee", "saturate", 300.0, 0x77),  # 240
        ("ieee", "inf_nan", 248.0, 0x78),  # tie 240/256 goes to the even 256: overflow
        ("ieee", "inf_nan", 247.0, 0x77),
        ("ieee", "saturate", float("inf"), 0x77),
        ("ieee", "inf_nan", -300.0, 0xF8),
        ("ieee", "saturate", -300.0, 0xF7),
        ("ocp", "inf_nan", 500.0, 0x7F),  # e4m3fn has no Inf: NaN
        ("ocp", "inf_nan", -500.0, 0x7F),  # canonical NaN, sign clear
        ("ocp", "saturate", 500.0, 0x7E),  # 448
        ("ocp", "saturate", -1e30, 0xFE),
        ("ocp", "inf_nan", 464.0, 0x7E),  # tie 448/480 goes to the even 448
        ("ocp", "inf_nan", 465.0, 0x7F),
        ("ieee", "inf_nan", float("nan"), 0x7C),
        ("ocp", "saturate", float("nan"), 0x7F),
    ],
)
def test_fp8_e4m3(variant: str, overflow: str, x: float, want: int) -> None:
    got = store(dt.FP8_EXP4, [x], fp8_e4m3=variant, fp8_overflow=overflow)
    assert int(got[0]) == want


@pytest.mark.parametrize(("overflow", "want"), [("inf_nan", 0x7C), ("saturate", 0x7B)])
def test_fp8_e5m2_overflow(overflow: str, want: int) -> None:
    assert int(store(dt.FP8_EXP5, [62000.0], fp8_overflow=overflow)[0]) == want
    assert (
        int(store(dt.FP8_EXP5, [61440.0], fp8_overflow=overflow)[0]) == want
    )  # tie 57344/65536: even is 65536
    assert int(store(dt.FP8_EXP5, [57344.0], fp8_overflow=overflow)[0]) == 0x7B


def test_fp8_e3m4_overflow() -> None:
    assert int(store(dt.FP8_EXP3, [16.0])[0]) == 0x70
    assert int(store(dt.FP8_EXP3, [16.0], fp8_overflow="saturate")[0]) == 0x6F
    assert int(store(dt.FP8_EXP3, [15.5])[0]) == 0x6F


def test_bf16_and_fp16_overflow_ignores_fp8_switch() -> None:
    assert int(store(dt.BFLOAT16, [3.39e38], fp8_overflow="saturate")[0]) == 0x7F7F
    assert int(store(dt.BFLOAT16, [np.float32(3.4028235e38)], fp8_overflow="saturate")[0]) == 0x7F80
    assert int(store(dt.FP16, [1e6], fp8_overflow="saturate")[0]) == 0x7C00


# -- FP32R --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bits", "mbits", "want"),
    [
        (0x3F800800, 11, 0x3F800000),  # tie on the dropped 12 bits -> even
        (0x3F801800, 11, 0x3F802000),
        (0x3F800801, 11, 0x3F801000),
        (0x3F801000, 10, 0x3F800000),  # tf32 grid: tie -> even (down)
        (0x3F803000, 10, 0x3F804000),  # tf32 grid: tie -> even (up)
        (0x3F800200, 13, 0x3F800000),  # FP22 reading (13 explicit bits): tie -> even
        (0x7F7FFFFF, 11, 0x7F800000),  # rounds up out of range -> Inf
        (0x7FC12345, 11, 0x7FC00000),  # NaN -> canonical
        (0x80000801, 11, 0x80001000),  # a subnormal, on the same bit grid
    ],
)
def test_fp32r(bits: int, mbits: int, want: int) -> None:
    got = store(dt.FP32R, f32([bits]), fp32r_mantissa_bits=mbits)
    assert int(got[0]) == want


# -- fp32 -> int ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "mode", "x", "want"),
    [
        (dt.INT32, "rne_saturate", [2.5, 3.5, -2.5, 3.7, -3.7], [2, 4, -2, 4, -4]),
        (dt.INT32, "truncate", [2.5, 3.5, -2.5, 3.7, -3.7], [2, 3, -2, 3, -3]),
        (dt.UINT8, "rne_saturate", [300.0, -1.0, 254.5, float("nan")], [255, 0, 254, 255]),
        (dt.UINT8, "truncate", [300.0, -1.0, 254.9, float("nan")], [255, 0, 254, 0]),
        (dt.INT8, "rne_saturate", [-200.0, 127.5, float("-inf")], [-128, 127, -128]),
        (dt.INT32, "rne_saturate", [3e9, -3e9, float("inf")], [2**31 - 1, -(2**31), 2**31 - 1]),
        (dt.UINT32, "truncate", [5e9, 4294967040.0], [2**32 - 1, 4294967040]),
        (dt.INT16, "truncate", [-0.9, 40000.0], [0, 32767]),
    ],
)
def test_float_to_int(code: int, mode: str, x: list[float], want: list[int]) -> None:
    raw = store(code, x, float_to_int=mode)
    got = raw.view(dt.numpy_dtype(code)).tolist()
    assert got == want


def test_fp32_output_canonicalises_nan_only() -> None:
    x = f32([0x7FC12345, 0xFFC00000, 0x7F800000, 0x80000000, 0x00000001])
    got = store(dt.FP32, x)
    assert [hex(v) for v in got] == ["0x7fc00000", "0x7fc00000", "0x7f800000", "0x80000000", "0x1"]


# -- references: ml_dtypes / numpy ----------------------------------------------------------


def _sample_f32(rng: np.random.Generator) -> np.ndarray[Any, np.dtype[np.float32]]:
    bits = rng.integers(0, 2**32, size=200_000, dtype=np.uint64).astype(np.uint32)
    # plenty of values near the small formats' ranges: exponents -30..+20
    near = (rng.integers(97, 148, size=200_000) << 23) | rng.integers(0, 2**23, size=200_000)
    near |= rng.integers(0, 2, size=200_000) << 31
    ties = (near & ~np.int64(0xFFFF)) | 0x8000  # bf16 ties
    allb = np.concatenate([bits, near.astype(np.uint32), ties.astype(np.uint32)])
    return allb.view(np.float32)


REFERENCES = [
    (dt.BFLOAT16, "ieee", ml_dtypes.bfloat16),
    (dt.FP16, "ieee", np.float16),
    (dt.FP8_EXP5, "ieee", ml_dtypes.float8_e5m2),
    (dt.FP8_EXP4, "ieee", ml_dtypes.float8_e4m3),
    (dt.FP8_EXP4, "ocp", ml_dtypes.float8_e4m3fn),
    (dt.FP8_EXP3, "ieee", ml_dtypes.float8_e3m4),
]


@pytest.mark.parametrize(
    ("code", "variant", "ref"), REFERENCES, ids=lambda v: getattr(v, "__name__", str(v))
)
def test_rne_matches_reference_casts(code: int, variant: str, ref: Any) -> None:
    """In the default (RNE, non-saturating) mode our bit-level rounding is the reference cast."""
    x = _sample_f32(np.random.default_rng(code))
    with np.errstate(all="ignore"):
        want_v = x.astype(ref)
    width = np.dtype(ref).itemsize
    want = want_v.view(np.uint8 if width == 1 else np.uint16).astype(np.uint32)
    nm = Numerics(fp8_e4m3=variant)
    got = dt.store_from_f32(code, x, nm).astype(np.uint32)
    nan = np.isnan(want_v.astype(np.float32))
    assert np.array_equal(nan, np.isnan(dt.load_f32(code, got.astype(dt.storage_dtype(code)), nm)))
    bad = np.flatnonzero((got != want) & ~nan)
    assert bad.size == 0, (
        f"{bad.size} mismatches, first x={x[bad[0]]!r} got {got[bad[0]]:#x} want {want[bad[0]]:#x}"
    )


@pytest.mark.parametrize(
    ("code", "variant", "ref"), REFERENCES, ids=lambda v: getattr(v, "__name__", str(v))
)
def test_load_matches_reference(code: int, variant: str, ref: Any) -> None:
    width = np.dtype(ref).itemsize
    codes = np.arange(2 ** (8 * width), dtype=np.uint8 if width == 1 else np.uint16)
    got = dt.load_f32(code, codes, Numerics(fp8_e4m3=variant))
    want = codes.view(ref).astype(np.float32)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    assert np.array_equal(got[ok].view(np.uint32), want[ok].view(np.uint32))


def test_int32_loads_round_like_a_c_cast() -> None:
    v = np.array([2**24 + 1, 2**24 + 3, -(2**31), 2**31 - 1], dtype=np.int32)
    got = dt.load_f32(dt.INT32, v.view(np.uint32), Numerics())
    assert got.tolist() == [16777216.0, 16777220.0, -2147483648.0, 2147483648.0]


# -- stochastic rounding ---------------------------------------------------------------------


def test_stochastic_rounding_is_unbiased_and_reproducible() -> None:
    x = np.full(200_000, 1.0 + 2.0**-9, dtype=np.float32)  # a quarter of a bf16 ulp above 1
    nm = Numerics(rounding="stochastic", seed=7)
    key = dt.stream_key(nm.seed, 0)
    rnd = dt.rand_bits(key, np.arange(x.size, dtype=np.uint64))
    got = dt.store_from_f32(dt.BFLOAT16, x, nm, rnd)
    up = np.mean(got == 0x3F81)
    assert set(np.unique(got).tolist()) == {0x3F80, 0x3F81}
    assert abs(up - 0.25) < 0.01
    again = dt.store_from_f32(
        dt.BFLOAT16, x, nm, dt.rand_bits(key, np.arange(x.size, dtype=np.uint64))
    )
    assert np.array_equal(got, again)
    other = dt.rand_bits(dt.stream_key(8, 0), np.arange(x.size, dtype=np.uint64))
    assert not np.array_equal(got, dt.store_from_f32(dt.BFLOAT16, x, nm, other))


def test_stochastic_rounding_leaves_representable_values_alone() -> None:
    x = np.array([1.0, 1.5, -2.0, 0.0, 448.0], dtype=np.float32)
    nm = Numerics(rounding="stochastic", seed=1, fp8_e4m3="ocp")
    rnd = np.full(x.size, 0xFFFFFFFF, dtype=np.uint32)
    got = dt.store_from_f32(dt.FP8_EXP4, x, nm, rnd)
    assert dt.decode_format(got, dt.FMT_E4M3FN).tolist() == x.tolist()


# -- numpy types and the Numerics object ------------------------------------------------------


def test_numpy_dtype_follows_e4m3_variant() -> None:
    assert dt.numpy_dtype(dt.FP8_EXP4, Numerics(fp8_e4m3="ieee")) == np.dtype(ml_dtypes.float8_e4m3)
    assert dt.numpy_dtype(dt.FP8_EXP4, Numerics(fp8_e4m3="ocp")) == np.dtype(
        ml_dtypes.float8_e4m3fn
    )
    assert dt.numpy_dtype(dt.FP32R) == np.dtype(np.float32)
    assert dt.numpy_dtype(dt.INT16) == np.dtype(np.int16)


def test_refused_dtypes() -> None:
    """Codes with no semantics (the vendored drop's INVALID, UINT64, INT64, FP4_EXP2, CPTC1):
    the executor refuses them by name before the engine; the engine refuses any code it lacks."""
    assert not {0x00, 0x01, 0x0C, 0x10, 0x19} & set(dt.SUPPORTED_CODES)
    for code in (0x00, 0x01, 0x0C, 0x10, 0x19):
        with pytest.raises(dt.DtypeError):
            dt.info(code)


def test_numerics_defaults_and_validation(eng: ModuleType) -> None:
    n = eng.Numerics()
    assert (n.rounding, n.seed, n.fp8_overflow, n.float_to_int, n.fp32r_mantissa_bits) == (
        "rne",
        0,
        "inf_nan",
        "rne_saturate",
        11,
    )
    for gen, e4m3 in (
        ("sunda", "ieee"),
        ("cayman", "ieee"),
        ("mariana", "ocp"),
        ("maverick", "ocp"),
    ):
        x = gen_module(gen, "executor")
        assert x.NUMERICS == eng.Numerics(fp8_e4m3=e4m3) == x.Executor(backend="numpy").numerics
    for bad in (
        {"rounding": "rtz"},
        {"fp8_e4m3": "e4m3"},
        {"fp32r_mantissa_bits": 23},
        {"seed": -1},
    ):
        with pytest.raises(ValueError):
            eng.Numerics(**bad)


def test_a_generation_s_numerics_come_from_its_core_version_not_its_name() -> None:
    """The defaults follow the core version a drop's banner states: a fifth generation (a name
    the runtime has never seen) gets them by its version, or `Numerics()` when it states none."""
    assert table.numerics_defaults("NC-v6") == {"fp8_e4m3": "ocp"}
    assert table.numerics_defaults("NC-v3") == {} == table.numerics_defaults("")
