"""Differential: the numpy and C backends are bit-identical on every operator x dtype x reverse x
immediate source (and numeric switch) combination, for every kernel. Hypothesis drives the draw."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tpb_scale import env_int

from .engine_loader import c_available, call, load_engine, small_geometry, sub

pytestmark = pytest.mark.skipif(not c_available(), reason="C backend unavailable")

eng = load_engine()
k = sub("kernels")
alu = sub("alu")
dt = sub("dtypes")
errors = sub("errors")

# a small machine: 128 partitions of 2 KiB active bytes, a small PSUM
GEOM = small_geometry(128, 4096, 2048, 1024, 512)
SRC, PTR0, PTR1, DST = 0, 512, 768, 1024
# TPB_EXEC_EXAMPLES raises the number of draws per test (e.g. 5000 for a soak run)
SETTINGS = settings(
    max_examples=env_int("TPB_EXEC_EXAMPLES", 100, 300),  # tpb_scale
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

FLOAT_SPECIALS = np.array(
    [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, np.inf, -np.inf, np.nan, 1e-40, -1e-45, 3.4e38, 240.0, 248.0,
     448.0, 464.0, 57344.0, 65520.0, 1.0 + 2.0**-8, 1.0 + 2.0**-11, 127.5, 255.5, -128.5, 2.0**31, 2.0**32],
    dtype=np.float32,
)  # fmt: skip

numerics_st = st.builds(
    eng.Numerics,
    rounding=st.sampled_from(["rne", "stochastic"]),
    seed=st.integers(0, 2**64 - 1),
    fp8_e4m3=st.sampled_from(["ieee", "ocp"]),
    fp8_overflow=st.sampled_from(["inf_nan", "saturate"]),
    float_to_int=st.sampled_from(["rne_saturate", "truncate"]),
    fp32r_mantissa_bits=st.sampled_from([10, 11, 13, 1, 22]),
)
float_codes = [dt.FP32, dt.BFLOAT16, dt.FP16, dt.FP8_EXP3, dt.FP8_EXP4, dt.FP8_EXP5]
all_in_codes = float_codes + list(dt.INT_CODES)
all_out_codes = [*all_in_codes, dt.FP32R]


def raw_values(
    rng: np.random.Generator, code: int, shape: tuple[int, int], nm: Any
) -> np.ndarray[Any, Any]:
    """Random raw bits of ``code``, half arbitrary patterns, half interesting values."""
    size = dt.size(code)
    store = dt.storage_dtype(code)
    bits = rng.integers(0, 2 ** (8 * size), size=shape, dtype=np.uint64).astype(store)
    with np.errstate(over="ignore"):
        vals = rng.choice(FLOAT_SPECIALS, size=shape) * rng.choice(
            np.array([1, -1, 0.25, 3, 1e3], np.float32), size=shape
        )
        scaled = (vals * np.float32(37)).astype(np.float32)
    if dt.info(code).kind == "int":
        nice = dt.store_from_f32(code, scaled, eng.Numerics(float_to_int="truncate"))
    else:
        nice = dt.store_from_f32(code, vals.astype(np.float32), nm)
    pick = rng.random(shape) < 0.5
    return np.where(pick, bits, nice.astype(store)).astype(store)


def scalar_bits(rng: np.random.Generator, n: int) -> np.ndarray[Any, np.dtype[np.uint32]]:
    a = rng.integers(0, 2**32, size=n, dtype=np.uint64).astype(np.uint32)
    b = rng.choice(FLOAT_SPECIALS, size=n).astype(np.float32).view(np.uint32)
    c = rng.integers(0, 40, size=n).astype(np.uint32)  # shift amounts around the widths
    sel = rng.integers(0, 3, size=n)
    return np.where(sel == 0, a, np.where(sel == 1, b, c)).astype(np.uint32)


def pair(nm: Any) -> tuple[Any, Any]:
    return eng.Engine(GEOM, nm, backend="numpy"), eng.Engine(GEOM, nm, backend="c")


def load_both(
    engines: tuple[Any, Any], rng: np.random.Generator, code: int, n: int, m: int, nm: Any
) -> None:
    src = raw_values(rng, code, (n, m), nm)
    s0 = scalar_bits(rng, 128).reshape(128, 1)
    s1 = scalar_bits(rng, 128).reshape(128, 1)
    for e in engines:
        e.write(SRC, src)
        e.write(PTR0, s0)
        e.write(PTR1, s1)
        e.set_register(7, PTR1)


def imm(rng: np.random.Generator, source: int, which: int) -> Any:
    if source == 0:
        return k.Imm(0, int(scalar_bits(rng, 1)[0]))
    if source == 1:
        return k.Imm.ptr(PTR0 if which == 0 else PTR1)
    return k.Imm.reg(7)


def assert_same(engines: tuple[Any, Any], what: str) -> None:
    a, b = engines
    if not np.array_equal(a.sbuf, b.sbuf):
        diff = np.argwhere(a.sbuf != b.sbuf)
        p, off = diff[0]
        raise AssertionError(
            f"{what}: backends differ at partition {p} byte {off}: numpy {a.sbuf[p, off]:#x} C {b.sbuf[p, off]:#x}"
        )
    assert a.accumulators.tobytes() == b.accumulators.tobytes(), f"{what}: accumulators differ"


def run_both(engines: tuple[Any, Any], method: str, **kwargs: Any) -> None:
    outcomes: list[str | None] = []
    for e in engines:
        try:
            call(e, method, **kwargs)
            outcomes.append(None)
        except errors.ExecutorError as exc:
            outcomes.append(type(exc).__name__)
    assert outcomes[0] == outcomes[1]


dims_st = st.tuples(st.integers(1, 8), st.integers(1, 4), st.integers(1, 4))


@SETTINGS
@given(
    nm=numerics_st,
    op0=st.sampled_from(sorted(alu.ARITH_OPS)),
    op1=st.sampled_from(sorted(alu.ARITH_OPS)),
    rev=st.integers(0, 3),
    in_code=st.sampled_from(all_in_codes),
    out_code=st.sampled_from(all_out_codes),
    src0=st.integers(0, 2),
    src1=st.integers(0, 2),
    nch=st.integers(1, 16),
    dims=dims_st,
    step0=st.sampled_from([1, 1, 2, -1, -3, 0]),
    seed=st.integers(0, 2**32 - 1),
)
def test_tensor_scalar_arith(nm: Any, op0: int, op1: int, rev: int, in_code: int, out_code: int, src0: int,
                             src1: int, nch: int, dims: tuple[int, int, int], step0: int, seed: int) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    engines = pair(nm)
    m = dims[0] * dims[1] * dims[2]
    load_both(engines, rng, in_code, nch, 512 // dt.size(in_code), nm)
    # dim 0 strided (possibly backwards or broadcast), outer dims packed after it
    span0 = max(1, abs(step0) * (dims[0] - 1) + 1)
    steps = [step0, span0, span0 * dims[1]]
    lo = min(0, step0 * (dims[0] - 1))
    start = SRC - lo * dt.size(in_code)
    run_both(engines, "tensor_scalar", bitvec=False, src=k.pattern(start, steps, list(dims)),
             dst=k.pattern(DST, [1], [m]), in_dtype=in_code, out_dtype=out_code, num_active_channels=nch,
             op0=op0, op1=op1, reverse=rev, imm0=imm(rng, src0, 0), imm1=imm(rng, src1, 1))  # fmt: skip
    assert_same(engines, f"arith op0={op0:#x} op1={op1:#x} rev={rev} {in_code}->{out_code}")


@SETTINGS
@given(
    op0=st.sampled_from(sorted(alu.BITVEC_OPS)),
    op1=st.sampled_from(sorted(alu.BITVEC_OPS)),
    rev=st.integers(0, 3),
    code=st.sampled_from(list(dt.INT_CODES)),
    src0=st.integers(0, 2),
    src1=st.integers(0, 2),
    nch=st.integers(1, 16),
    m=st.integers(1, 64),
    seed=st.integers(0, 2**32 - 1),
)
def test_tensor_scalar_bitvec(op0: int, op1: int, rev: int, code: int, src0: int, src1: int, nch: int, m: int,
                              seed: int) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    nm = eng.Numerics()
    engines = pair(nm)
    load_both(engines, rng, code, nch, m, nm)
    ptr_align = dt.size(code)
    i0 = imm(rng, src0, 0)
    i1 = imm(rng, src1, 1)
    assert PTR0 % ptr_align == 0 and PTR1 % ptr_align == 0
    run_both(engines, "tensor_scalar", bitvec=True, src=k.pattern(SRC, [1], [m]), dst=k.pattern(DST, [1], [m]),
             in_dtype=code, out_dtype=code, num_active_channels=nch, op0=op0, op1=op1, reverse=rev,
             imm0=i0, imm1=i1)  # fmt: skip
    assert_same(engines, f"bitvec op0={op0:#x} op1={op1:#x} rev={rev} dtype={code}")


def test_cache_accumulate_across_partition_groups_and_blocks() -> None:
    """The C kernel folds its partitions 16 at a time, 256 elements a block: a partition count
    and a row length on either side of those (and a last group with spare lanes) give the
    numpy backend's bits, for ADD (whose chains are the kernel's own loop) and ABS_MAX (the
    general operator), seeded from the accumulators, under both roundings."""
    cases = [
        (nch, m, cumulative, nm, op1)
        for nch in (1, 15, 16, 17, 37, 128)
        for m in (255, 256, 257, 700)
        for cumulative in (True, False)
        for nm in (eng.Numerics(), eng.Numerics("stochastic", 5))
        for op1 in (alu.ADD, alu.ABS_MAX)
    ]
    wide = small_geometry(128, 8192, 8192, 1024, 512)  # room for 700 fp32 and bf16
    for nch, m, cumulative, nm, op1 in cases:
        rng = np.random.default_rng(nch * 1000 + m)
        engines = (
            eng.Engine(wide, nm, backend="numpy"),
            eng.Engine(wide, nm, backend="c"),
        )
        src = rng.standard_normal((nch, m)).astype(np.float32)
        start = rng.standard_normal(128).astype(np.float32)
        for e in engines:
            e.write(0, src)
            e.accumulators[:] = start
        run_both(engines, "tensor_scalar_cache", cumulative=cumulative,
                 src=k.pattern(0, [1], [m]), dst=k.pattern(0x1000, [1], [m]),
                 in_dtype=dt.FP32, out_dtype=dt.BFLOAT16, num_active_channels=nch,
                 op0=alu.MULT, op1=op1, reverse=0, accumulator_cmd=k.ACCUM_ACCUMULATE, imm0=k.Imm.f32(1.5),
                 imm1=k.Imm.f32(0.0))  # fmt: skip
        assert_same(engines, f"wide cache nch={nch} m={m} {cumulative=} {nm.rounding} op1={op1:#x}")


@SETTINGS
@given(
    nm=numerics_st,
    cumulative=st.booleans(),
    cmd=st.sampled_from([1, 2, 3, 4, 0]),
    op0=st.sampled_from(sorted(alu.ARITH_OPS)),
    op1=st.sampled_from(sorted(alu.ACCUM_IDENTITY)),
    rev=st.sampled_from([0, 1]),
    in_code=st.sampled_from([c for c in all_in_codes if c not in (dt.INT32, dt.UINT32)]),
    out_code=st.sampled_from(all_out_codes),
    src0=st.integers(0, 2),
    src1=st.integers(0, 2),
    nch=st.integers(1, 16),
    m=st.integers(1, 64),
    seed=st.integers(0, 2**32 - 1),
)
def test_cache_reduce_and_cumulative(nm: Any, cumulative: bool, cmd: int, op0: int, op1: int, rev: int,
                                     in_code: int, out_code: int, src0: int, src1: int, nch: int, m: int,
                                     seed: int) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    engines = pair(nm)
    load_both(engines, rng, in_code, nch, m, nm)
    start = rng.choice(FLOAT_SPECIALS, size=128).astype(np.float32)
    for e in engines:
        e.accumulators[:] = start
    for _ in range(2):  # twice, so ACCUMULATE continues from the first instruction's value
        run_both(engines, "tensor_scalar_cache", cumulative=cumulative, src=k.pattern(SRC, [1], [m]),
                 dst=k.pattern(DST, [1], [m]), in_dtype=in_code, out_dtype=out_code, num_active_channels=nch,
                 op0=op0, op1=op1, reverse=rev, accumulator_cmd=cmd, imm0=imm(rng, src0, 0),
                 imm1=imm(rng, src1, 1))  # fmt: skip
        assert_same(engines, f"cache cumulative={cumulative} cmd={cmd} op0={op0:#x} op1={op1:#x}")


@SETTINGS
@given(
    nm=numerics_st,
    cmd=st.sampled_from([0, 1, 2, 3, 4]),
    in_code=st.sampled_from(all_in_codes),
    out_code=st.sampled_from(all_out_codes),
    src0=st.integers(0, 2),
    nch=st.integers(1, 16),
    m=st.integers(1, 64),
    seed=st.integers(0, 2**32 - 1),
)
def test_exponential(
    nm: Any, cmd: int, in_code: int, out_code: int, src0: int, nch: int, m: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    engines = pair(nm)
    load_both(engines, rng, in_code, nch, m, nm)
    run_both(engines, "exponential", src=k.pattern(SRC, [1], [m]), dst=k.pattern(DST, [1], [m]), in_dtype=in_code,
             out_dtype=out_code, num_active_channels=nch, accumulator_cmd=cmd, imm0=imm(rng, src0, 0),
             imm1=imm(rng, 0, 1))  # fmt: skip
    assert_same(engines, f"exp cmd={cmd} {in_code}->{out_code}")


@SETTINGS
@given(
    nm=numerics_st,
    dual=st.booleans(),
    bitvec=st.booleans(),
    op=st.data(),
    rev=st.integers(0, 3),
    ld_code=st.sampled_from(all_in_codes),
    in_code=st.sampled_from(all_in_codes),
    out_code=st.sampled_from(all_out_codes),
    w=st.integers(1, 8),
    xyz=st.tuples(st.integers(1, 3), st.integers(1, 2), st.integers(1, 2)),
    nch=st.integers(1, 16),
    seed=st.integers(0, 2**32 - 1),
)
def test_imm_ld_ptr_multi_and_dual(nm: Any, dual: bool, bitvec: bool, op: Any, rev: int, ld_code: int, in_code: int,
                                   out_code: int, w: int, xyz: tuple[int, int, int], nch: int, seed: int) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    bitvec = bitvec and not dual
    if bitvec:
        in_code = out_code = int(rng.choice(list(dt.INT_CODES)))
        ld_code = int(rng.choice([dt.UINT32, dt.UINT16, dt.UINT8, dt.INT32]))
    if dual:
        w = min(w, 4)
    opcode = op.draw(st.sampled_from(sorted(alu.BITVEC_OPS if bitvec else alu.ARITH_OPS)))
    engines = pair(nm)
    x, y, z = xyz
    m = x * y * z * w
    load_both(engines, rng, in_code, nch, m, nm)
    scal = raw_values(rng, ld_code, (nch, 8), nm)
    for e in engines:
        e.write(PTR0, scal)
    run_both(engines, "imm_load", bitvec=bitvec, src=k.pattern(PTR0, [1, 4], [4, 2]), dtype=ld_code,
             num_active_channels=nch)  # fmt: skip
    src = k.pattern(SRC, [1, x, x * y, x * y * z], [x, y, z, w])
    dst = k.pattern(DST, [1], [m])
    if dual:
        run_both(engines, "ptr_multi_dual", src=src, dst=dst, in_dtype=in_code, out_dtype=out_code,
                 num_active_channels=nch, op=opcode, reverse=rev)  # fmt: skip
    else:
        run_both(engines, "ptr_multi", bitvec=bitvec, src=src, dst=dst, in_dtype=in_code, out_dtype=out_code,
                 num_active_channels=nch, op=opcode, reverse=rev & 0 if rev in (1, 2) else rev)  # fmt: skip
    assert_same(engines, f"ptr_multi dual={dual} bitvec={bitvec} op={opcode:#x} rev={rev}")
    assert engines[0].imm_flops.tobytes() == engines[1].imm_flops.tobytes()


FUSABLE = [alu.BYPASS, alu.ADD, alu.SUBTRACT, alu.MULT, alu.MAX, alu.MIN]


@SETTINGS
@given(
    op0=st.sampled_from(FUSABLE),
    op1=st.sampled_from([*FUSABLE, alu.IS_GE, alu.ABS_MAX]),
    rev=st.integers(0, 3),
    in_code=st.sampled_from([dt.FP32, dt.FP32R, dt.BFLOAT16]),
    out_code=st.sampled_from([dt.FP32, dt.BFLOAT16]),
    stochastic=st.booleans(),
    src0=st.integers(0, 2),
    src1=st.integers(0, 2),
    nch=st.integers(1, 16),
    m=st.integers(1, 128),
    in_place=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_fp32_and_bf16_fast_paths(op0: int, op1: int, rev: int, in_code: int, out_code: int,
                                  stochastic: bool, src0: int, src1: int, nch: int, m: int,
                                  in_place: bool, seed: int) -> None:  # fmt: skip
    """fp32/bf16 -> fp32/bf16 on contiguous rows: the C backend's fused loops (a branch-free
    bf16 round-to-nearest-even store) and the numpy backend's paths, against each other (and in
    place, where no fused loop applies; stochastic rounding, which the fused loops leave to the
    staged path)."""
    rng = np.random.default_rng(seed)
    nm = eng.Numerics(rounding="stochastic" if stochastic else "rne", seed=seed)
    engines = pair(nm)
    load_both(engines, rng, in_code if in_code == dt.BFLOAT16 else dt.FP32, nch, m, nm)
    dst = SRC if in_place else DST
    run_both(engines, "tensor_scalar", bitvec=False, src=k.pattern(SRC, [1], [m]), dst=k.pattern(dst, [1], [m]),
             in_dtype=in_code, out_dtype=out_code, num_active_channels=nch, op0=op0, op1=op1, reverse=rev,
             imm0=imm(rng, src0, 0), imm1=imm(rng, src1, 1))  # fmt: skip
    assert_same(
        engines, f"fast path {in_code:#x}->{out_code:#x} op0={op0:#x} op1={op1:#x} rev={rev}"
    )


def test_fused_bf16_stores_of_every_op_pair_on_specials_match_numpy() -> None:
    """Every fusable (op0, op1) pair, each reverse, fp32 and bf16 in, bf16 out (the C backend's
    fused loops, vectorised: rows of 69, so whole vectors and a tail): rows of signed zeros,
    infinities, NaNs with payloads, subnormals (a whole vector's worth on every third
    partition), values equal to the scalars and rounding ties, each partition with other
    scalars (zeros of both signs and NaN among them), so MAX and MIN meet equal operands and
    both zeros. Hypothesis draws these only now and then."""
    more = [0x7F800001, 0xFFC12345, 0x00000001, 0x807FFFFF, 0x00400000, 0x3F808000, 0x3F818000,
            0x7F7FFFFF, 0xFF7F8000]  # fmt: skip
    specials = np.concatenate([FLOAT_SPECIALS, np.array(more, np.uint32).view(np.float32)])
    n, m = 128, 69
    rng = np.random.default_rng(12)
    rows = rng.choice(specials, size=(n, m))
    rows[::3, 16:32] = np.float32(1e-40)
    s0 = specials[np.arange(n) % specials.size].reshape(n, 1)
    s1 = specials[(np.arange(n) * 7 + 3) % specials.size].reshape(n, 1)
    rows[:, 40] = s0[:, 0]  # equal to the scalar
    rows[:, 41] = -s1[:, 0]  # its negation (the other zero)
    nm = eng.Numerics()
    for in_code in (dt.FP32, dt.BFLOAT16):
        data = rows if in_code == dt.FP32 else dt.store_from_f32(dt.BFLOAT16, rows, nm)
        for op0 in FUSABLE:
            for op1 in FUSABLE:
                for rev in range(4):
                    engines = pair(nm)
                    for e in engines:
                        e.write(SRC, data)
                        e.write(PTR0, s0.view(np.uint32))
                        e.write(PTR1, s1.view(np.uint32))
                    run_both(engines, "tensor_scalar", bitvec=False, src=k.pattern(SRC, [1], [m]),
                             dst=k.pattern(DST, [1], [m]), in_dtype=in_code, out_dtype=dt.BFLOAT16,
                             num_active_channels=n, op0=op0, op1=op1, reverse=rev,
                             imm0=k.Imm.ptr(PTR0), imm1=k.Imm.ptr(PTR1))  # fmt: skip
                    assert_same(engines, f"{in_code:#x}->bf16 op0={op0:#x} op1={op1:#x} rev={rev}")


def test_bf16_stores_of_every_tie_and_special_match_numpy() -> None:
    """The branch-free bf16 store against the numpy backend on every bf16 input (bf16 -> bf16,
    x * 1 + 0) and on fp32 patterns at every rounding boundary of every exponent (fp32 ->
    bf16): low halves 0x0000, 0x7FFF, 0x8000, 0x8001, 0xFFFF with even and odd kept bits,
    subnormals, the largest finite values (which round to infinity), infinities and NaNs."""
    nm = eng.Numerics()
    every_bf16 = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).reshape(128, 512)
    highs = np.arange(1 << 16, dtype=np.uint32)[::3]  # every exponent and sign, odd/even lsb
    lows = np.array([0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFF], dtype=np.uint32)
    fp32 = ((highs[:, None] << 16) | lows[None, :]).reshape(-1)
    fp32 = np.concatenate([fp32, np.zeros((-fp32.size) % (128 * 256), np.uint32)])
    for code, data in ((dt.BFLOAT16, every_bf16), (dt.FP32, fp32.reshape(-1, 256))):
        for chunk in range(0, data.shape[0], 128):
            rows = data[chunk : chunk + 128]
            engines = pair(nm)
            for e in engines:
                e.write(SRC, rows)
            m = rows.shape[1]
            run_both(engines, "tensor_scalar", bitvec=False, src=k.pattern(SRC, [1], [m]),
                     dst=k.pattern(DST, [1], [m]), in_dtype=code, out_dtype=dt.BFLOAT16,
                     num_active_channels=rows.shape[0], op0=alu.MULT, op1=alu.ADD, reverse=0,
                     imm0=k.Imm.f32(1.0), imm1=k.Imm.f32(0.0))  # fmt: skip
            assert_same(engines, f"bf16 store from {code:#x}, rows {chunk}..")


# -- the two-source, reduce and int-wide kernels ----------------------------------------------

SRC1 = 1536  # a second source, after DST's 512 bytes


def load_second(engines: tuple[Any, Any], rng: np.random.Generator, code: int, n: int, m: int,
                nm: Any) -> None:  # fmt: skip
    src1 = raw_values(rng, code, (n, m), nm)
    for e in engines:
        e.write(SRC1, src1)


@SETTINGS
@given(
    nm=numerics_st,
    kind=st.sampled_from(["tt", "stt", "scan"]),
    op0=st.sampled_from(sorted(alu.ARITH_OPS)),
    op1=st.sampled_from(sorted(alu.ARITH_OPS)),
    rev=st.integers(0, 3),
    in0=st.sampled_from(all_in_codes),
    in1=st.sampled_from(all_in_codes),
    out_code=st.sampled_from(all_out_codes),
    imm_src=st.integers(0, 2),
    imm_code=st.sampled_from(all_in_codes),
    nch=st.integers(1, 16),
    m=st.integers(1, 96),
    step1=st.sampled_from([1, 1, 2, -1, 0]),
    in_place=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_two_source_arith(nm: Any, kind: str, op0: int, op1: int, rev: int, in0: int, in1: int,
                          out_code: int, imm_src: int, imm_code: int, nch: int, m: int, step1: int,
                          in_place: bool, seed: int) -> None:  # fmt: skip
    """TensorTensor, ScalarTensorTensor and TensorTensorScan arith: every operator pair, reverse
    form, dtype triple, scalar source and dtype (a pointer scalar of any dtype), a strided,
    backwards or broadcast src1 and a destination in place over src0."""
    rng = np.random.default_rng(seed)
    engines = pair(nm)
    load_both(engines, rng, in0, nch, 512 // dt.size(in0), nm)
    load_second(engines, rng, in1, nch, 512 // dt.size(in1), nm)
    span = abs(step1) * (m - 1)
    start1 = SRC1 + (span * dt.size(in1) if step1 < 0 else 0)
    if span * dt.size(in1) >= 512:
        step1 = 1
        start1 = SRC1
    dst = SRC if in_place and dt.size(out_code) == dt.size(in0) else DST
    common = dict(src0=k.pattern(SRC, [1], [m]), src1=k.pattern(start1, [step1], [m]),
                  dst=k.pattern(dst, [1], [m]), in0_dtype=in0, in1_dtype=in1, out_dtype=out_code,
                  num_active_channels=nch)  # fmt: skip
    code = imm_code if imm_src else dt.FP32
    if kind == "tt":
        run_both(engines, "tensor_tensor", bitvec=False, op=op1, **common)
    else:
        imm0 = imm(rng, imm_src, 0)
        method = "scalar_tensor_tensor" if kind == "stt" else "tensor_tensor_scan"
        extra = {"bitvec": False} if kind == "stt" else {}
        run_both(engines, method, op0=op0, op1=op1, reverse=rev, imm0=imm0, imm0_dtype=code,
                 accumulator_cmd=0, **extra, **common)  # fmt: skip
    assert_same(engines, f"{kind} op0={op0:#x} op1={op1:#x} rev={rev} {in0},{in1}->{out_code}")


@SETTINGS
@given(
    stt=st.booleans(),
    op0=st.sampled_from(sorted(alu.BITVEC_OPS)),
    op1=st.sampled_from(sorted(alu.BITVEC_OPS)),
    rev=st.integers(0, 3),
    code=st.sampled_from(list(dt.INT_CODES)),
    imm_src=st.integers(0, 2),
    nch=st.integers(1, 16),
    m=st.integers(1, 64),
    seed=st.integers(0, 2**32 - 1),
)
def test_two_source_bitvec(stt: bool, op0: int, op1: int, rev: int, code: int, imm_src: int,
                           nch: int, m: int, seed: int) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    nm = eng.Numerics()
    engines = pair(nm)
    load_both(engines, rng, code, nch, m, nm)
    load_second(engines, rng, code, nch, m, nm)
    common = dict(bitvec=True, src0=k.pattern(SRC, [1], [m]), src1=k.pattern(SRC1, [1], [m]),
                  dst=k.pattern(DST, [1], [m]), in0_dtype=code, in1_dtype=code, out_dtype=code,
                  num_active_channels=nch)  # fmt: skip
    if stt:
        run_both(engines, "scalar_tensor_tensor", op0=op0, op1=op1, reverse=rev,
                 imm0=imm(rng, imm_src, 0), imm0_dtype=code, accumulator_cmd=0, **common)  # fmt: skip
    else:
        run_both(engines, "tensor_tensor", op=op1, **common)
    assert_same(engines, f"bitvec stt={stt} op0={op0:#x} op1={op1:#x} rev={rev} dtype={code}")


@SETTINGS
@given(
    nm=numerics_st,
    bitvec=st.booleans(),
    op=st.data(),
    in_code=st.sampled_from(all_in_codes),
    out_code=st.sampled_from(all_out_codes),
    negated=st.integers(0, 1),
    nums=st.tuples(st.integers(1, 9), st.integers(1, 3), st.integers(1, 3), st.integers(1, 2)),
    op_dim=st.integers(1, 4),
    nch=st.integers(1, 20),
    seed=st.integers(0, 2**32 - 1),
)
def test_tensor_reduce(nm: Any, bitvec: bool, op: Any, in_code: int, out_code: int, negated: int,
                       nums: tuple[int, int, int, int], op_dim: int, nch: int, seed: int) -> None:  # fmt: skip
    """TensorReduce along X, XY, XYZ, XYZW, arith (add, mult, max, min; negated) and bitvec
    (and, or, xor), over more channels than one block of lanes."""
    rng = np.random.default_rng(seed)
    if bitvec:
        in_code = out_code = int(rng.choice(list(dt.INT_CODES)))
        negated = 0
    opcode = op.draw(st.sampled_from(sorted(k.REDUCE_BITVEC_OPS if bitvec else k.REDUCE_ARITH_OPS)))
    engines = pair(nm)
    count = nums[0] * nums[1] * nums[2] * nums[3]
    load_both(engines, rng, in_code, nch, count, nm)
    steps = [1, nums[0], nums[0] * nums[1], nums[0] * nums[1] * nums[2]]
    length = 1
    for n in nums[:op_dim]:
        length *= n
    run_both(engines, "tensor_reduce", bitvec=bitvec, src=k.pattern(SRC, steps, list(nums)),
             dst=k.pattern(DST, [1], [count // length]), in_dtype=in_code, out_dtype=out_code,
             num_active_channels=nch, negated=negated, op=opcode, op_dim=op_dim)  # fmt: skip
    assert_same(
        engines, f"reduce bitvec={bitvec} op={opcode:#x} dims={op_dim} {in_code}->{out_code}"
    )


def test_scan_reduce_and_bf16_tt_row_paths_on_long_rows_of_specials() -> None:
    """The C backend's row paths against the numpy backend, called directly on rows longer than
    the hypothesis draws (whole staging blocks of 128 elements and tails, 1 to 20 partitions, so
    spare lanes; 13 and 20 take the scan's 16 skewed lanes where the CPU has AVX-512, with more
    than 15 blocks of 16 elements): TensorTensorScan's fp32 mult/add-then-add chains, TensorReduce's fp32 and bf16
    add, mult, max and min (max and min folded on integer keys), the fused two-source loops
    on bf16 sources and TensorTensorIntWide's rows of 32-bit sources (every signedness pair,
    add, subtract, both products, on the edges of both ranges); signed zeros, infinities, NaNs with payloads and subnormals, the two zeros
    side by side so max and min meet them."""
    npw = sub("npbackend")
    npb = npw.NumpyBackend()
    cb = sub("cbackend").get_backend("c")
    more = np.array([0x7F800001, 0xFFC12345, 0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0xFF7F8000],
                    np.uint32).view(np.float32)  # fmt: skip
    specials = np.concatenate([FLOAT_SPECIALS, more])
    rng = np.random.default_rng(27)
    nm = eng.Numerics()
    for n, m in ((1, 9), (7, 600), (20, 263), (8, 8), (13, 300)):
        calm = rng.uniform(0.5, 1.0, size=(n, m)).astype(np.float32)
        wild = rng.choice(specials, size=(n, m)).astype(np.float32)
        wild[:, 3] = np.float32(0.0)
        wild[:, 4] = np.float32(-0.0)
        x = np.where(rng.random((n, m)) < 0.02, wild, calm).astype(np.float32)
        v = np.where(rng.random((n, m)) < 0.02, wild[:, ::-1], calm).astype(np.float32)
        seed = rng.choice(specials, size=n).astype(np.float32)
        for op0 in (alu.MULT, alu.ADD):
            args = (x, dt.FP32, v, dt.FP32, dt.FP32, seed, op0, alu.ADD, False, False, True, nm, 0)
            a, b = npb.tt_arith(*args), cb.tt_arith(*args)
            assert a.tobytes() == b.tobytes(), f"scan op0={op0:#x} {n}x{m}"
        b0, b1 = (dt.store_from_f32(dt.BFLOAT16, np.where(rng.random((n, m)) < 0.3, wild, calm), nm)
                  for _ in range(2))  # fmt: skip
        for op0 in (alu.BYPASS, alu.ADD, alu.SUBTRACT, alu.MULT, alu.MAX, alu.MIN):
            for op1 in (alu.ADD, alu.SUBTRACT, alu.MULT):
                for rev in (0, 1):
                    args = (b0, dt.BFLOAT16, b1, dt.BFLOAT16, dt.FP32, seed[:, None], op0, op1, bool(rev),
                            bool(rev), False, nm, 0)  # fmt: skip
                    a, b = npb.tt_arith(*args), cb.tt_arith(*args)
                    assert a.tobytes() == b.tobytes(), f"bf16 tt {op0:#x} {op1:#x} rev={rev}"
        edges = np.array([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFF0000], np.uint32)
        w0, w1 = (np.where(rng.random((n, m)) < 0.3, rng.choice(edges, size=(n, m)),
                           rng.integers(0, 2**32, size=(n, m), dtype=np.uint64)).astype(np.uint32)
                  for _ in range(2))  # fmt: skip
        for in0 in (dt.INT32, dt.UINT32):
            for in1 in (dt.INT32, dt.UINT32):
                for op in (npw.WIDE_ADD, npw.WIDE_SUBTRACT, npw.WIDE_MULT, npw.WIDE_MULT_UINT):
                    a0, b0_ = w0.view(dt.storage_dtype(in0)), w1.view(dt.storage_dtype(in1))
                    got = npb.int_wide(a0, in0, b0_, in1, op), cb.int_wide(a0, in0, b0_, in1, op)
                    assert all(x.tobytes() == y.tobytes() for x, y in zip(*got, strict=True)), (
                        f"int wide {in0} {in1} op={op:#x}"
                    )
        r = np.where(rng.random((n, m)) < 0.05, wild, calm * np.float32(16) - np.float32(12))
        r[1::2] = np.where(np.isnan(r[1::2]), np.float32(-0.0), r[1::2])  # no NaN: a real max
        r[1::4] = -np.abs(r[1::4])  # max among zeros of both signs
        r[1::4, 5] = np.float32(0.0)
        r[3::4] = -np.abs(r[3::4])  # the max is -0
        r[3::4, 6] = np.float32(-0.0)
        r = r.astype(np.float32)
        for code in (dt.FP32, dt.BFLOAT16):
            src = r if code == dt.FP32 else dt.store_from_f32(dt.BFLOAT16, r, nm)
            for op in sorted(k.REDUCE_ARITH_OPS):
                for groups in (1, 3) if m % 3 == 0 else (1,):
                    args = (src, code, dt.FP32, op, groups, m // groups, False, False, nm, 0)
                    a, b = npb.reduce(*args), cb.reduce(*args)
                    assert a.tobytes() == b.tobytes(), f"reduce {code} op={op:#x} {n}x{m}"


def test_scan_on_a_destination_large_enough_to_stream() -> None:
    """TensorTensorScan's fp32 rows with a destination of 4 MiB or more (where the C backend's
    AVX-512 path writes whole 64-byte lines with non-temporal stores after the leading elements
    that align them) against the numpy backend: 75 partitions (four blocks of 16 lanes and one
    of 11 with spare lanes) of 14,011 elements (a tail after the blocks of 16), the destination's rows
    64-byte aligned, 5 elements past that (11 leading elements), and rows a stride apart that
    is no multiple of 64 bytes (no streamed stores); NaNs, infinities and subnormals in some rows."""
    npb = sub("npbackend").NumpyBackend()
    cb = sub("cbackend").get_backend("c")
    nm = eng.Numerics()
    rng = np.random.default_rng(28)
    n, m, wide = 75, 14011, 14016  # n * m * 4 bytes >= 4 MiB; a row of `wide` is 876 lines
    specials = rng.choice(FLOAT_SPECIALS, size=(n, m)).astype(np.float32)
    x = rng.uniform(0.5, 1.0, size=(n, m)).astype(np.float32)
    v = rng.uniform(-1.0, 1.0, size=(n, m)).astype(np.float32)
    wild = np.arange(n)[:, None] % 8 == 3  # a special ends a row's finite run: only some rows
    x = np.where(wild & (rng.random((n, m)) < 0.001), specials, x).astype(np.float32)
    v = np.where(wild & (rng.random((n, m)) < 0.001), specials[::-1], v).astype(np.float32)
    seed = rng.uniform(-1.0, 1.0, size=n).astype(np.float32)
    buf = np.zeros(n * wide + 64, np.uint32)  # fp32 as stored: its bits
    line = (-buf.ctypes.data % 64) // 4  # the first element on a 64-byte boundary
    for op0 in (alu.MULT, alu.ADD):
        args = (x, dt.FP32, v, dt.FP32, dt.FP32, seed, op0, alu.ADD, False, False, True, nm, 0)
        want = npb.tt_arith(*args).tobytes()
        for lead in (0, 5):
            out = buf[line + lead : line + lead + n * wide].reshape(n, wide)[:, :m]
            out[...] = 0
            got = cb.tt_arith(*args, out=out)
            assert got.tobytes() == want, f"scan op0={op0:#x} rows aligned + {lead}"
        assert cb.tt_arith(*args).tobytes() == want, f"scan op0={op0:#x} contiguous rows"


def test_reduce_max_min_keys_on_rows_of_one_kind_of_special() -> None:
    """TensorReduce's max and min on integer keys (the largest and smallest key of each row say
    both the result and whether a NaN was there) against the numpy backend, fp32 and bf16, on
    rows that each hold one kind of special among ordinary values: only a negative NaN, only a
    positive NaN, both infinities, only zeros of one sign or of both, subnormals, all negative;
    lengths around the vector widths and the 512-element chunks, 1 to 9 partitions."""
    npb = sub("npbackend").NumpyBackend()
    cb = sub("cbackend").get_backend("c")
    nm = eng.Numerics()
    u = lambda *bits: np.array(bits, np.uint32).view(np.float32)  # noqa: E731
    kinds = [
        u(0xFFC00000), u(0xFF800001), u(0x7FC00000), u(0x7F812345),
        u(0x7F800000, 0xFF800000), u(0x80000000), u(0x00000000), u(0x80000000, 0x00000000),
        u(0x00000001, 0x80000001, 0x007FFFFF), u(0xFF7FFFFF, 0x80000000), u(0xFF7FFFFF),
    ]  # fmt: skip
    rng = np.random.default_rng(7)
    for m in (1, 15, 16, 17, 31, 33, 64, 513, 1100):
        for n in (1, 3, 9):
            for kind in kinds:
                base = rng.uniform(-5, 5, size=(n, m)).astype(np.float32)
                if kind.view(np.uint32)[0] == 0xFF7FFFFF:
                    base = -np.abs(base)  # all negative: the max is the one nearest zero
                pos = rng.integers(0, m, size=(n, len(kind)))
                for j in range(len(kind)):
                    base[np.arange(n), pos[:, j]] = kind[j]
                for code in (dt.FP32, dt.BFLOAT16):
                    src = base if code == dt.FP32 else dt.store_from_f32(dt.BFLOAT16, base, nm)
                    for op in (alu.MAX, alu.MIN):
                        args = (src, code, dt.FP32, op, 1, m, False, False, nm, 0)
                        a, b = npb.reduce(*args), cb.reduce(*args)
                        assert a.tobytes() == b.tobytes(), (
                            f"reduce {code} op={op:#x} {n}x{m} kind={kind.view(np.uint32)}"
                        )


WIDE = sub("codes").WIDE_OP


@SETTINGS
@given(
    op=st.sampled_from(sorted(WIDE)),
    in0=st.sampled_from(list(dt.INT_CODES)),
    in1=st.sampled_from(list(dt.INT_CODES)),
    out0=st.sampled_from([dt.INT32, dt.UINT32]),
    out1=st.sampled_from([dt.INT32, dt.UINT32]),
    nch=st.integers(1, 16),
    m=st.integers(1, 64),
    seed=st.integers(0, 2**32 - 1),
)
def test_int_wide(op: str, in0: int, in1: int, out0: int, out1: int, nch: int, m: int,
                  seed: int) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    nm = eng.Numerics()
    engines = pair(nm)
    load_both(engines, rng, in0, nch, m, nm)
    if "SHIFT" in op:
        counts = rng.integers(0, 32, (nch, m)).astype(dt.storage_dtype(in1))
        for e in engines:
            e.write(SRC1, counts)
    else:
        load_second(engines, rng, in1, nch, m, nm)
    run_both(engines, "tensor_tensor_wide", src0=k.pattern(SRC, [1], [m]),
             src1=k.pattern(SRC1, [1], [m]), dst0=k.pattern(DST, [1], [m]),
             dst1=k.pattern(DST + 256, [1], [m]), in0_dtype=in0, in1_dtype=in1, out0_dtype=out0,
             out1_dtype=out1, num_active_channels=nch, op=WIDE[op])  # fmt: skip
    assert_same(engines, f"int wide {op} {in0},{in1}")
