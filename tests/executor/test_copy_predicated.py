"""CopyPredicated (0x72) and CastPredicated (0x99), added through tpbgen's table of executor
semantics: real S3S3D3_TT words (src0 the predicate, src1 the data) built with the generated
structs, validated by the drop's validators and run on both backends.

AWS's NKI golden test (`nki/test/test_nki_isa_copypredicated.py`, next-families-facts.md §3):
fp32 [128, 512] `a`, `b`; `tensor_copy_predicated(src=a, dst=b, predicate=np.less_equal(a, 0.8))`;
golden `np.where(np.less_equal(a, 0.8), a, b)` compared with `np.allclose` — replayed at that
tolerance (and bit for bit). The predicate goes in as uint8 0/1 (the test passes a bool array,
whose on-device dtype it does not state)."""

from __future__ import annotations

import importlib
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from .engine_loader import c_available, load_package
from .test_tt_families_golden import G

errors = importlib.import_module(f"{load_package().__name__}._runtime.executor.errors")
BACKENDS = ["numpy", pytest.param("c", marks=pytest.mark.skipif(not c_available(), reason="no C"))]
GENS = ["sunda", "cayman", "mariana", "maverick"]
N = 512
PRED, DATA, DST = 0x0, 0x800, 0x1800


def _word(g: G, opcode: int, pred_dt: int, data_dt: int, out_dt: int, n: int = N) -> bytes:
    S = g.S

    def t3(x: int) -> Any:
        return S.Tensor3D(g.addr(x), (1, n, n), (n, 1, 1))

    return g.word(S.S3S3D3_TT(header=g.hdr(opcode), in0_in1_dtype=g.pair(pred_dt, data_dt),
                              out_dtype=out_dt, op=g.E.AluOp.BYPASS, num_active_channels=128,
                              src0_mem_pattern=t3(PRED), src1_mem_pattern=t3(DATA),
                              dst_mem_pattern=t3(DST)))  # fmt: skip


def _run(g: G, backend: str, w: bytes, pred: Any, data: Any, old: Any) -> Any:
    ex = g.mod.Executor(backend=backend)
    ex.write(PRED, pred)
    ex.write(DATA, data)
    ex.write(DST, old)
    ex.run(w)
    return ex


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("gen", GENS)
def test_copy_predicated_is_nkis_golden(gen: str, backend: str) -> None:
    g = G(gen)
    E = g.E
    assert {0x72, 0x99} <= set(g.mod.executor.EXECUTABLE)
    rng = np.random.default_rng(13)
    a = rng.random((128, N), dtype=np.float32)
    b = rng.random((128, N), dtype=np.float32)
    pred = np.less_equal(a, 0.8)
    w = _word(g, E.Opcode.COPY_PREDICATED, E.Dtype.UINT8, E.Dtype.FP32, E.Dtype.FP32)
    got = _run(g, backend, w, pred.astype(np.uint8), a, b).read(DST, np.float32, (128, N))
    golden = np.where(np.less_equal(a, 0.8), a, b)
    assert np.allclose(got, golden)
    assert np.array_equal(got.view(np.uint32), golden.view(np.uint32))


@pytest.mark.parametrize("gen", GENS)
def test_cast_predicated_backends_agree(gen: str) -> None:
    """CastPredicated fp32 -> bf16 under an int16 predicate of 0, 1 and -1 (odd: true on either
    reading of Q7): converted lanes are RNE bf16, the others keep the old bits, on both backends."""
    if not c_available():
        pytest.skip("no C")
    g = G(gen)
    E = g.E
    rng = np.random.default_rng(17)
    x = (rng.standard_normal((128, 64)) * 100).astype(np.float32)
    old = rng.integers(0, 2**16, (128, 64), dtype=np.uint16)
    pred = rng.choice(np.array([0, 1, -1], np.int16), (128, 64))
    w = _word(g, E.Opcode.CAST_PREDICATED, E.Dtype.INT16, E.Dtype.FP32, E.Dtype.BFLOAT16, 64)
    got = [_run(g, b, w, pred, x, old).read(DST, np.uint16, (128, 64)) for b in ("numpy", "c")]
    assert np.array_equal(got[0], got[1])
    want = np.where(pred != 0, x.astype(ml_dtypes.bfloat16).view(np.uint16), old)
    assert np.array_equal(got[0], want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_even_nonzero_predicate_is_refused(backend: str) -> None:
    """2 is true if a predicate is 'not 0' (KLR) and false if only its low bit counts: Q7 is
    open, so the executor refuses it and leaves the destination as it was."""
    g = G("cayman")
    E = g.E
    w = _word(g, E.Opcode.COPY_PREDICATED, E.Dtype.UINT8, E.Dtype.FP32, E.Dtype.FP32, 8)
    pred = np.zeros((128, 8), np.uint8)
    pred[3, 5] = 2
    old = np.full((128, 8), 7.0, np.float32)
    ex = g.mod.Executor(backend=backend)
    ex.write(PRED, pred)
    ex.write(DST, old)
    with pytest.raises(errors.UnsupportedError, match="Q7"):
        ex.run(w)
    assert np.array_equal(ex.read(DST, np.float32, (128, 8)), old)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_predicated_copy_onto_its_data_or_predicate(backend: str) -> None:
    """A destination that is the data itself, or overlaps the predicate, reads every source
    element before any is written (the one-pass select is only for a destination that shares
    no memory with either), and agrees with np.where on the values read."""
    g = G("mariana")
    E = g.E
    S = g.S
    n = 64
    rng = np.random.default_rng(5)
    data = rng.random((128, n), dtype=np.float32)
    pred = (rng.random((128, n)) < 0.5).astype(np.uint32)

    def t3(x: int) -> Any:
        return S.Tensor3D(g.addr(x), (1, n, n), (n, 1, 1))

    for dst in (DATA, DATA + 8, PRED + 4):
        ex = g.mod.Executor(backend=backend)
        ex.write(PRED, pred)
        ex.write(DATA, data)
        old = ex.read(dst, np.float32, (128, n)).copy()
        w = g.word(S.S3S3D3_TT(header=g.hdr(E.Opcode.COPY_PREDICATED),
                               in0_in1_dtype=g.pair(E.Dtype.UINT32, E.Dtype.FP32),
                               out_dtype=E.Dtype.FP32, op=E.AluOp.BYPASS,
                               num_active_channels=128, src0_mem_pattern=t3(PRED),
                               src1_mem_pattern=t3(DATA), dst_mem_pattern=t3(dst)))  # fmt: skip
        ex.run(w)
        want = np.where(pred != 0, data, old)
        got = ex.read(dst, np.float32, (128, n))
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), hex(dst)


@pytest.mark.parametrize("rounding", ["rne", "stochastic"])
def test_cast_predicated_across_blocks_and_roundings(rounding: str) -> None:
    """Rows longer than the C kernel's block (it converts and selects a cache-sized block at a
    time) under both roundings: the C backend's bits are the numpy backend's (a stochastic
    rounding draws from each element's index in the whole tensor)."""
    if not c_available():
        pytest.skip("no C")
    g = G("mariana")
    E = g.E
    n = 3000
    numerics = g.mod.executor.Numerics(rounding, 99)
    rng = np.random.default_rng(23)
    x = (rng.standard_normal((128, n)) * 100).astype(np.float32)
    old = rng.integers(0, 2**16, (128, n), dtype=np.uint16)
    pred = rng.choice(np.array([0, 1], np.uint8), (128, n))
    got = []
    for backend in ("numpy", "c"):
        ex = g.mod.Executor(numerics, backend=backend)
        ex.write(PRED, pred)
        ex.write(0x3000, x)
        ex.write(0x20000, old)
        t3 = g.S.Tensor3D
        word = g.word(g.S.S3S3D3_TT(header=g.hdr(E.Opcode.CAST_PREDICATED),
                                    in0_in1_dtype=g.pair(E.Dtype.UINT8, E.Dtype.FP32),
                                    out_dtype=E.Dtype.BFLOAT16, op=E.AluOp.BYPASS,
                                    num_active_channels=128,
                                    src0_mem_pattern=t3(g.addr(PRED), (1, n, n), (n, 1, 1)),
                                    src1_mem_pattern=t3(g.addr(0x3000), (1, n, n), (n, 1, 1)),
                                    dst_mem_pattern=t3(g.addr(0x20000), (1, n, n), (n, 1, 1))))  # fmt: skip
        ex.run(word)
        got.append(ex.read(0x20000, np.uint16, (128, n)))
    assert np.array_equal(got[0], got[1])
    kept = pred == 0
    assert np.array_equal(got[0][kept], old[kept])
    if rounding == "rne":
        want = x.astype(ml_dtypes.bfloat16).view(np.uint16)
        assert np.array_equal(got[0][~kept], want[~kept])
