"""Memory budget of the numpy backend: an fp32 two-op TensorScalar into a separate destination
allocates (almost) nothing; a converting one stays under four tensors of scratch."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import numpy as np

from .engine_loader import call, make_engine, sub

k = sub("kernels")
alu = sub("alu")
dt = sub("dtypes")


def peak(fn: Callable[[], None]) -> int:
    fn()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base, _ = tracemalloc.get_traced_memory()
        fn()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def run(e: object, out_dt: int) -> Callable[[], None]:
    def go() -> None:
        call(
            e,
            "tensor_scalar",
            bitvec=False, src=k.pattern(0, [1], [8192]), dst=k.pattern(64 * 1024, [1], [8192]),
            in_dtype=dt.FP32, out_dtype=out_dt, num_active_channels=128, op0=alu.MULT, op1=alu.ADD,
            reverse=0, imm0=k.Imm.f32(1.5), imm1=k.Imm.f32(-2.0),
        )  # fmt: skip

    return go


def test_numpy_backend_peak_memory() -> None:
    e = make_engine("numpy")
    x = np.random.default_rng(0).standard_normal((128, 8192)).astype(np.float32)
    e.write(0, x)
    tensor = x.nbytes
    assert peak(run(e, dt.FP32)) < 0.05 * tensor
    assert np.array_equal(
        e.read(64 * 1024, np.float32, (128, 8192)), x * np.float32(1.5) - np.float32(2.0)
    )
    for code in (dt.BFLOAT16, dt.FP16, dt.FP8_EXP4, dt.FP32R, dt.INT8, dt.INT32):
        assert peak(run(e, code)) < 4 * tensor, dt.info(code).name
