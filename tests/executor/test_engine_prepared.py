"""Differential: a prepared TensorScalar (`Engine.prepare_tensor_scalar`, the call `run()` makes
for a word it has seen) does what `Engine.tensor_scalar` does with the same operands, bit for bit,
on both backends: the same memory afterwards, the same error at the same call, the same
instruction count (stochastic rounding keys on it), run after run on changing memory.

The draws cover what decides between the prepared fast path and the full path: immediate or
register addresses, SBUF or PSUM, any start partition and offset (misaligned and out of range
included), forward, backward, broadcast and gathered walks, overlapping source and destination,
zero-element walks, immediate, pointer and register scalars, every dtype pair."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tpb_scale import env_int

from .engine_loader import c_available, load_engine, small_geometry, sub
from .engine_loader import operands as record_of

eng = load_engine()
k = sub("kernels")
alu = sub("alu")
dt = sub("dtypes")
errors = sub("errors")
access = sub("access")

GEOM = small_geometry(16, 1024, 512, 256, 128)
NPARTS = GEOM["STATE_BUF_NUM_PARTITIONS"]
PTR = 480  # scalars for the pointer and register sources, away from most walks
SETTINGS = settings(
    max_examples=env_int("TPB_EXEC_EXAMPLES", 100, 300),  # tpb_scale
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
BACKENDS = ["numpy", "c"] if c_available() else ["numpy"]

codes = sorted({dt.FP32, dt.BFLOAT16, dt.FP16, dt.FP8_EXP4, *dt.INT_CODES})


@st.composite
def address(draw: st.DrawFn, itemsize: int, nch: int) -> int:
    """A PartitionOffset: SBUF or PSUM, a partition that leaves room for the channels (mostly),
    an offset aligned to the dtype in the first half of the active bytes (mostly)."""
    psum = draw(st.integers(0, 4)) == 0
    region = "PSUM" if psum else "STATE"
    active = GEOM[f"{region}_BUF_PARTITION_ACTIVE_SIZE"]
    odd = draw(st.integers(0, 9)) == 0  # out of the ordinary: any partition, offset, alignment
    part = draw(st.integers(0, NPARTS) if odd else st.integers(0, NPARTS - nch))
    off = draw(st.integers(0, active // itemsize if odd else active // itemsize // 2)) * itemsize
    off += draw(st.sampled_from([1, 2, 3])) if odd and draw(st.booleans()) else 0
    base = GEOM[f"{region}_BUF_OFFSET"]
    return base + part * GEOM[f"{region}_BUF_PARTITION_SIZE"] + off


@st.composite
def walk(draw: st.DrawFn, itemsize: int, nch: int) -> Any:
    addr = draw(address(itemsize, nch))
    if draw(st.integers(0, 2)):  # a plain walk: one dimension, a small forward step
        steps, nums = [draw(st.sampled_from([1, 1, 2]))], [draw(st.integers(1, 12))]
    else:
        ndim = draw(st.integers(1, 3))
        step = st.sampled_from([1, 1, 2, -1, -2, 0, 3, 8])
        steps = draw(st.lists(step, min_size=ndim, max_size=ndim))
        nums = draw(st.lists(st.integers(0, 6), min_size=ndim, max_size=ndim))
    raw = addr if draw(st.integers(0, 11)) else (access.MARKER_ADDR_REG << 24) | 3  # register 3
    return k.pattern(raw, steps, nums)


def immediate(draw: st.DrawFn, bitvec: bool) -> Any:
    source = draw(st.sampled_from([0] * 18 + [1, 2]))
    if source == 1:
        return k.Imm.ptr(PTR)
    if source == 2:
        return k.Imm.reg(4)
    if bitvec:
        return k.Imm(0, draw(st.integers(0, 2**32 - 1)))
    return k.Imm.f32(draw(st.sampled_from([0.0, 1.5, -2.25, 3e38, float("inf"), float("nan")])))


@st.composite
def operands(draw: st.DrawFn) -> dict[str, Any]:
    bitvec = draw(st.integers(0, 3)) == 0
    if bitvec:
        in_code = out_code = draw(st.sampled_from(sorted(dt.INT_CODES)))
        ops = sorted(alu.BITVEC_OPS)
    else:
        in_code, out_code = draw(st.sampled_from(codes)), draw(st.sampled_from(codes))
        ops = sorted(alu.ARITH_OPS)
    nch = draw(st.integers(1, NPARTS))
    src = draw(walk(dt.size(in_code), nch))
    dst = draw(walk(dt.size(out_code), nch))
    if draw(st.integers(0, 4)):  # mostly the same count, so the instruction can run at all
        dst = k.pattern(dst.start_addr, dst.steps[:1], [src.count])
    return {
        "bitvec": bitvec,
        "src": src,
        "dst": dst,
        "in_dtype": in_code,
        "out_dtype": out_code,
        "num_active_channels": nch if draw(st.integers(0, 9)) else draw(st.integers(0, 17)),
        "op0": draw(st.sampled_from(ops)),
        "op1": draw(st.sampled_from(ops)),
        "reverse": draw(st.integers(0, 3)),
        "imm0": immediate(draw, bitvec),
        "imm1": immediate(draw, bitvec),
    }


def fill(e: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    e.memory.sbuf_region.data[:] = rng.integers(0, 256, e.memory.sbuf_region.data.shape)
    e.memory.psum_region.data[:] = rng.integers(0, 256, e.memory.psum_region.data.shape)
    e.set_register(
        3,
        int(rng.integers(0, NPARTS)) * GEOM["STATE_BUF_PARTITION_SIZE"]
        + int(rng.integers(0, 64)) * 4,
    )
    e.set_register(4, PTR)


def outcome(fn: Any) -> str | None:
    try:
        fn()
    except errors.ExecutorError as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def state(e: Any) -> tuple[bytes, bytes, int]:
    m = e.memory
    return m.sbuf_region.data.tobytes(), m.psum_region.data.tobytes(), e.instructions_executed


@pytest.mark.parametrize("backend", BACKENDS)
@SETTINGS
@given(ops=operands(), nm_stochastic=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_prepared_equals_full(backend: str, ops: dict[str, Any], nm_stochastic: bool,
                              seed: int) -> None:  # fmt: skip
    nm = eng.Numerics(rounding="stochastic" if nm_stochastic else "rne", seed=seed)
    prepared_e = eng.Engine(GEOM, nm, backend=backend)
    full_e = eng.Engine(GEOM, nm, backend=backend)
    for e in (prepared_e, full_e):
        fill(e, seed)
    prepared = prepared_e.prepare_tensor_scalar(record_of("tensor_scalar", **ops))
    for run in range(3):  # again on changed memory: a prepared call reads memory when it runs
        got = outcome(prepared)
        want = outcome(lambda: full_e.tensor_scalar(record_of("tensor_scalar", **ops)))
        assert got == want, f"run {run}: prepared {got!r}, full {want!r}"
        assert state(prepared_e) == state(full_e), f"run {run}: memory or count differs"
        for e in (prepared_e, full_e):
            fill(e, seed + run + 1)


# -- TensorReduce and the two-source families (TensorTensor, STT, TensorTensorScan) ------------

arith_codes = sorted({dt.FP32, dt.BFLOAT16, dt.FP16, dt.FP8_EXP4, dt.INT8, dt.INT32})
REDUCE_OPS = [*sorted(k.REDUCE_ARITH_OPS), alu.SUBTRACT]  # one refused op too


@st.composite
def reduce_operands(draw: st.DrawFn) -> dict[str, Any]:
    bitvec = draw(st.integers(0, 3)) == 0
    if bitvec:
        in_code = out_code = draw(st.sampled_from(sorted(dt.INT_CODES)))
        op = draw(st.sampled_from(sorted(k.REDUCE_BITVEC_OPS)))
    else:
        in_code, out_code = draw(st.sampled_from(arith_codes)), draw(st.sampled_from(arith_codes))
        op = draw(st.sampled_from(REDUCE_OPS))
    nch = draw(st.integers(1, NPARTS))
    src = draw(walk(dt.size(in_code), nch))
    op_dim = draw(st.integers(1, len(src.nums) + (draw(st.integers(0, 9)) == 0)))
    length = 1
    for n in src.nums[:op_dim]:
        length *= n
    groups = src.count // length if length else 0
    dst = draw(walk(dt.size(out_code), nch))
    if draw(st.integers(0, 4)):  # mostly the right count, so the instruction can run at all
        dst = k.pattern(dst.start_addr, dst.steps[:1], [groups])
    return {
        "bitvec": bitvec,
        "src": src,
        "dst": dst,
        "in_dtype": in_code,
        "out_dtype": out_code,
        "num_active_channels": nch if draw(st.integers(0, 9)) else draw(st.integers(0, 17)),
        "negated": draw(st.sampled_from([0, 0, 1, 2])),
        "op": op,
        "op_dim": op_dim,
    }


@st.composite
def two_operands(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    method = draw(st.sampled_from(["tensor_tensor", "scalar_tensor_tensor", "tensor_tensor_scan"]))
    bitvec = method != "tensor_tensor_scan" and draw(st.integers(0, 4)) == 0
    if bitvec:
        in0 = in1 = out = draw(st.sampled_from(sorted(dt.INT_CODES)))
        ops = sorted(alu.BITVEC_OPS)
    else:
        in0, in1, out = (draw(st.sampled_from(arith_codes)) for _ in range(3))
        ops = sorted(alu.ARITH_OPS)
    nch = draw(st.integers(1, NPARTS))
    src0 = draw(walk(dt.size(in0), nch))
    src1, dst = draw(walk(dt.size(in1), nch)), draw(walk(dt.size(out), nch))
    if draw(st.integers(0, 4)):  # mostly the same count, so the instruction can run at all
        src1 = k.pattern(src1.start_addr, src1.steps[:1], [src0.count])
        dst = k.pattern(dst.start_addr, dst.steps[:1], [src0.count])
    ops_: dict[str, Any] = {
        "src0": src0, "src1": src1, "dst": dst, "in0_dtype": in0, "in1_dtype": in1,
        "out_dtype": out,
        "num_active_channels": nch if draw(st.integers(0, 9)) else draw(st.integers(0, 17)),
    }  # fmt: skip
    if method == "tensor_tensor":
        ops_.update(bitvec=bitvec, op=draw(st.sampled_from(ops)))
        return method, ops_
    ops_.update(
        op0=draw(st.sampled_from(ops)), op1=draw(st.sampled_from(ops)),
        reverse=draw(st.integers(0, 3)), imm0=immediate(draw, bitvec),
        imm0_dtype=draw(st.sampled_from([in0, dt.FP32])),
        accumulator_cmd=k.ACCUM_IDLE if draw(st.integers(0, 9)) else k.ACCUM_ZERO,
    )  # fmt: skip
    if method == "scalar_tensor_tensor":
        ops_["bitvec"] = bitvec
    return method, ops_


def _same_as_full(backend: str, method: str, ops: dict[str, Any], stochastic: bool,
                  seed: int) -> None:  # fmt: skip
    nm = eng.Numerics(rounding="stochastic" if stochastic else "rne", seed=seed)
    prepared_e = eng.Engine(GEOM, nm, backend=backend)
    full_e = eng.Engine(GEOM, nm, backend=backend)
    for e in (prepared_e, full_e):
        fill(e, seed)
    prepared = prepared_e.prepare(record_of(method, **ops))
    for run in range(3):  # again on changed memory: a prepared call reads memory when it runs
        got = outcome(prepared)
        want = outcome(lambda: record_of(method, **ops).run(full_e))
        assert got == want, f"run {run}: prepared {got!r}, full {want!r}"
        assert state(prepared_e) == state(full_e), f"run {run}: memory or count differs"
        for e in (prepared_e, full_e):
            fill(e, seed + run + 1)


@pytest.mark.parametrize("backend", BACKENDS)
@SETTINGS
@given(ops=reduce_operands(), nm_stochastic=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_prepared_reduce_equals_full(backend: str, ops: dict[str, Any], nm_stochastic: bool,
                                     seed: int) -> None:  # fmt: skip
    _same_as_full(backend, "tensor_reduce", ops, nm_stochastic, seed)


@pytest.mark.parametrize("backend", BACKENDS)
@SETTINGS
@given(case=two_operands(), nm_stochastic=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_prepared_two_sources_equal_full(backend: str, case: tuple[str, dict[str, Any]],
                                         nm_stochastic: bool, seed: int) -> None:  # fmt: skip
    _same_as_full(backend, case[0], case[1], nm_stochastic, seed)


def test_prepared_paths_bind_the_kernel() -> None:
    """The fast path is taken where it should be (not only equal because it fell back)."""
    e = eng.Engine(GEOM, eng.Numerics(), backend="numpy")
    src, dst = k.pattern(0, [1], [16]), k.pattern(256, [1], [1])
    call = e.prepare(record_of(
        "tensor_reduce", bitvec=False, src=src, dst=dst, in_dtype=dt.FP32, out_dtype=dt.FP32,
        num_active_channels=4, negated=0, op=alu.ADD, op_dim=1,
    ))  # fmt: skip
    assert not isinstance(call, functools.partial)
    t = k.pattern(0, [1], [8])
    call = e.prepare(record_of(
        "tensor_tensor_scan", src0=t, src1=k.pattern(64, [1], [8]), dst=k.pattern(128, [1], [8]),
        in0_dtype=dt.FP32, in1_dtype=dt.FP32, out_dtype=dt.FP32, num_active_channels=4,
        op0=alu.MULT, op1=alu.ADD, reverse=0, imm0=k.Imm.f32(0.0), imm0_dtype=dt.FP32,
        accumulator_cmd=k.ACCUM_IDLE,
    ))  # fmt: skip
    assert not isinstance(call, functools.partial)
    e.memory.sbuf_region.data[:4, :64] = np.arange(64, dtype=np.uint8)
    call()
    assert e.instructions_executed == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_prepared_write_only_and_converting_instructions_equal_full(backend: str) -> None:
    """Memset and Iota read nothing from memory: with an immediate destination their prepared
    call is the one pass worked out ahead (not the method bound); Cast and Reciprocal are
    TensorScalar's prepared call. Each call leaves what the method leaves (on memory changed
    between calls); a refused word raises when it runs, as the method does."""
    cases = [
        record_of(
            "memset", dst=k.pattern(8, [1], [40]), dtype=dt.FP32, num_active_channels=16,
            set_value=0x3E4CCCCD, dst_element_count=40,
        ),
        record_of(
            "iota", ramp=k.pattern(5, [3], [40]), dst=k.pattern(200, [1], [40]),
            out_dtype=dt.INT32, num_active_channels=16, channel_multiplier=7,
        ),
        record_of(
            "iota", ramp=k.pattern(0xFFFFFFFE, [1], [40]), dst=k.pattern(200, [1], [40]),
            out_dtype=dt.FP32, num_active_channels=16, channel_multiplier=1,
        ),
        record_of(
            "tensor_copy", cast=True, src=k.pattern(0, [1], [40]), dst=k.pattern(240, [1], [40]),
            in_dtype=dt.FP32, out_dtype=dt.BFLOAT16, num_active_channels=16,
        ),
        record_of(
            "reciprocal", src=k.pattern(0, [1], [40]), dst=k.pattern(240, [1], [40]),
            in_dtype=dt.FP32, out_dtype=dt.FP32, num_active_channels=16,
        ),
        record_of(  # refused: a dst_element_count that is neither reading
            "memset", dst=k.pattern(8, [1], [40]), dtype=dt.FP32, num_active_channels=16,
            set_value=1, dst_element_count=41,
        ),
    ]  # fmt: skip
    for i, ops in enumerate(cases):
        prepared_e = eng.Engine(GEOM, eng.Numerics(), backend=backend)
        full_e = eng.Engine(GEOM, eng.Numerics(), backend=backend)
        for e in (prepared_e, full_e):
            fill(e, i)
        prepared = prepared_e.prepare(ops)
        assert isinstance(prepared, functools.partial) == (i == len(cases) - 1), i
        for run in range(3):
            got, want = outcome(prepared), outcome(functools.partial(ops.run, full_e))
            assert got == want, (i, run, got, want)
            assert state(prepared_e) == state(full_e), (i, run)
            for e in (prepared_e, full_e):
                fill(e, 100 * i + run)
