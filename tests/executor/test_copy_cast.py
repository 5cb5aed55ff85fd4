"""Copy (0x46) and Cast (0x47), added through tpbgen's table of executor semantics: real S4D4_TR
words built with the generated structs, validated by the drop's validators and run on both
backends. AWS's NKI golden test of tensor_copy (`nki/test/test_nki_isa_tensor_copy.py`: an fp32
[8, 8] tile copied, `dst_golden = np.copy(src)`, compared with `np.allclose`) is checked exactly;
Cast goes through the fp32 hub (next-families-facts.md §2a) and is held to ml_dtypes' RNE."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from .engine_loader import c_available
from .test_tt_families_golden import G

BACKENDS = ["numpy", pytest.param("c", marks=pytest.mark.skipif(not c_available(), reason="no C"))]
GENS = ["sunda", "cayman", "mariana", "maverick"]


def _t4(g: G, addr: int, nums: tuple[int, int, int, int]) -> Any:
    """A row-major 4-D tensor of `nums` elements (innermost first) at `addr`."""
    S = g.S
    steps, s = [], 1
    for k in nums:
        steps.append(s)
        s *= k
    t = S.Tensor4D(g.addr(addr), tuple(steps), nums)
    mem4 = type(S.S4D4_TR().src_mem_pattern)
    return t if mem4 is S.Tensor4D else mem4.of_t(t)


def _word(g: G, opcode: int, src: Any, dst: Any, in_dt: int, out_dt: int, n: int) -> bytes:
    E = g.E
    return g.word(g.S.S4D4_TR(header=g.hdr(opcode), src_mem_pattern=src, in_dtype=in_dt,
                              out_dtype=out_dt, num_active_channels=n, negated=0,
                              op=E.AluOp.BYPASS, op_dim=E.TensorSubdim.X,
                              dst_mem_pattern=dst))  # fmt: skip


def _run(g: G, backend: str, w: bytes, data: np.ndarray) -> Any:
    ex = g.mod.Executor(backend=backend)
    ex.write(0, data)
    ex.run(w)
    return ex


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("gen", GENS)
def test_copy_is_nkis_golden(gen: str, backend: str) -> None:
    """nisa.tensor_copy of an fp32 [8, 8] tile equals np.copy(src): exactly, bit for bit."""
    g = G(gen)
    E = g.E
    assert {0x46, 0x47} <= set(g.mod.executor.EXECUTABLE)
    src = np.random.default_rng(3).random((8, 8), dtype=np.float32)
    w = _word(g, E.Opcode.COPY, _t4(g, 0, (8, 1, 1, 1)), _t4(g, 0x800, (8, 1, 1, 1)),
              E.Dtype.FP32, E.Dtype.FP32, 8)  # fmt: skip
    got = _run(g, backend, w, src).read(0x800, np.float32, (8, 8))
    assert np.array_equal(got.view(np.uint32), np.copy(src).view(np.uint32))


@pytest.mark.parametrize("backend", BACKENDS)
def test_copy_moves_bits_and_reshapes_in_walk_order(backend: str) -> None:
    """Copy keeps every bit (int32 beyond 2^24, a NaN's payload: what a trip through fp32 would
    change), and element k of the source walk lands on element k of the destination walk when
    the two shapes differ."""
    g = G("mariana")
    E = g.E
    raw = np.array([[(1 << 30) + 1, 0x7FA00001, -7, 16777217] * 4] * 2, np.int32)  # (2, 16)
    w = _word(g, E.Opcode.COPY, _t4(g, 0, (16, 1, 1, 1)), _t4(g, 0x800, (4, 4, 1, 1)),
              E.Dtype.INT32, E.Dtype.INT32, 2)  # fmt: skip
    got = _run(g, backend, w, raw).read(0x800, np.int32, (2, 16))
    assert np.array_equal(got, raw)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("gen", GENS)
def test_cast_goes_through_fp32_and_rounds_once(gen: str, backend: str) -> None:
    """Cast fp32 -> bf16 is round-to-nearest-even (ml_dtypes), fp32 -> int32 rounds to nearest
    even and saturates (the default Numerics.float_to_int)."""
    g = G(gen)
    E = g.E
    x = (np.random.default_rng(5).standard_normal((4, 32)) * 1000).astype(np.float32)
    x[0, :4] = [2.5, -3.5, 3e9, -3e9]
    bf = _word(g, E.Opcode.CAST, _t4(g, 0, (32, 1, 1, 1)), _t4(g, 0x800, (32, 1, 1, 1)),
               E.Dtype.FP32, E.Dtype.BFLOAT16, 4)  # fmt: skip
    got = _run(g, backend, bf, x).read(0x800, ml_dtypes.bfloat16, (4, 32))
    assert np.array_equal(got.view(np.uint16), x.astype(ml_dtypes.bfloat16).view(np.uint16))
    i32 = _word(g, E.Opcode.CAST, _t4(g, 0, (32, 1, 1, 1)), _t4(g, 0x800, (32, 1, 1, 1)),
                E.Dtype.FP32, E.Dtype.INT32, 4)  # fmt: skip
    got = _run(g, backend, i32, x).read(0x800, np.int32, (4, 32))
    want = np.clip(np.rint(x.astype(np.float64)), -(2**31), 2**31 - 1).astype(np.int32)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shift", [-3, 3, 0])
def test_a_copy_onto_itself_reads_everything_first(backend: str, shift: int) -> None:
    """Source and destination rows that overlap (the destination `shift` elements along, either
    way, or the same place) copy as if every element were read before any is written; rows
    that share no memory take the one-pass move, and a strided destination the scatter."""
    g = G("mariana")
    E = g.E
    raw = np.arange(2 * 64, dtype=np.uint32).reshape(2, 64) * np.uint32(2654435761)
    at = 0x100
    w = _word(g, E.Opcode.COPY, _t4(g, at, (32, 1, 1, 1)), _t4(g, at + 4 * shift, (32, 1, 1, 1)),
              E.Dtype.FP32, E.Dtype.FP32, 2)  # fmt: skip
    ex = g.mod.Executor(backend=backend)
    ex.write(at, raw[:, :32])
    ex.run(w)
    got = ex.read(at + 4 * shift, np.uint32, (2, 32))
    assert np.array_equal(got, raw[:, :32])
    # a destination of every other element (a walk, not a plain stride of one) is scattered
    mem4 = type(g.S.S4D4_TR().dst_mem_pattern)
    t = g.S.Tensor4D(g.addr(0x800), (2, 64, 64, 64), (32, 1, 1, 1))
    w2 = _word(g, E.Opcode.COPY, _t4(g, at + 4 * shift, (32, 1, 1, 1)),
               t if mem4 is g.S.Tensor4D else mem4.of_t(t), E.Dtype.FP32, E.Dtype.FP32, 2)  # fmt: skip
    ex.run(w2)
    assert np.array_equal(ex.read(0x800, np.uint32, (2, 64))[:, ::2], raw[:, :32])
