"""Differential: a prepared TensorScalar (`Engine.prepare_tensor_scalar`, the call `run()` makes
for a word it has seen) does what `Engine.tensor_scalar` does with the same operands, bit for bit,
on both backends: the same memory afterwards, the same error at the same call, the same
instruction count (stochastic rounding keys on it), run after run on changing memory.

The draws cover what decides between the prepared fast path and the full path: immediate or
register addresses, SBUF or PSUM, any start partition and offset (misaligned and out of range
included), forward, backward, broadcast and gathered walks, overlapping source and destination,
zero-element walks, immediate, pointer and register scalars, every dtype pair."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .engine_loader import c_available, load_engine, small_geometry, sub

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
    max_examples=int(os.environ.get("TPB_EXEC_EXAMPLES", "300")),
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
    call = prepared_e.prepare_tensor_scalar(**ops)
    for run in range(3):  # again on changed memory: a prepared call reads memory when it runs
        got = outcome(call)
        want = outcome(lambda: full_e.tensor_scalar(**ops))
        assert got == want, f"run {run}: prepared {got!r}, full {want!r}"
        assert state(prepared_e) == state(full_e), f"run {run}: memory or count differs"
        for e in (prepared_e, full_e):
            fill(e, seed + run + 1)
