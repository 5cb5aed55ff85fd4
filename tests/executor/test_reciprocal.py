"""Reciprocal (0x48), added through tpbgen's table of executor semantics: real S4D4_TR words
validated by the drop's validators and run on both backends. AWS's NKI golden test of reciprocal
(`nki/test/test_nki_isa_reciprocal.py`: fp32 [128, 512] inputs `random_sample * 100`,
`dst_golden = np.reciprocal(src)`, compared with `np.allclose`) is replayed at its own
tolerance; the model is one IEEE fp32 rounding of 1/x (the device's seed-and-refine error is
not published, next-families-facts.md Q12), so it also equals numpy's fp32 reciprocal bit for
bit, and the two backends agree bit for bit."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from .engine_loader import c_available
from .test_copy_cast import _t4, _word
from .test_tt_families_golden import G

BACKENDS = ["numpy", pytest.param("c", marks=pytest.mark.skipif(not c_available(), reason="no C"))]
GENS = ["sunda", "cayman", "mariana", "maverick"]


def _run(g: G, backend: str, w: bytes, data: np.ndarray) -> Any:
    ex = g.mod.Executor(backend=backend)
    ex.write(0, data)
    ex.run(w)
    return ex


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("gen", GENS)
def test_reciprocal_is_nkis_golden(gen: str, backend: str) -> None:
    """nisa.reciprocal of fp32 [128, 512] `random_sample * 100` is np.reciprocal (allclose, as
    the AWS test asserts), and in fact exactly numpy's correctly rounded fp32 1/x."""
    g = G(gen)
    E = g.E
    assert 0x48 in set(g.mod.executor.EXECUTABLE)
    src = (np.random.default_rng(7).random((128, 512)) * 100).astype(np.float32)
    w = _word(g, E.Opcode.RECIPROCAL, _t4(g, 0, (512, 1, 1, 1)), _t4(g, 0x800, (512, 1, 1, 1)),
              E.Dtype.FP32, E.Dtype.FP32, 128)  # fmt: skip
    got = _run(g, backend, w, src).read(0x800, np.float32, (128, 512))
    golden = np.reciprocal(src)
    assert np.allclose(got, golden)
    assert np.array_equal(got.view(np.uint32), golden.view(np.uint32))


@pytest.mark.parametrize("gen", GENS)
def test_reciprocal_backends_agree_on_edges_and_casts(gen: str) -> None:
    """Zeros, infinities, NaN, subnormals and a bf16 source into a bf16 destination: both
    backends give the same bits, which are fp32 1/x rounded once to bf16 (RNE)."""
    if not c_available():
        pytest.skip("no C")
    g = G(gen)
    E = g.E
    x = (np.random.default_rng(11).standard_normal((4, 64)) * 10).astype(np.float32)
    x[0, :6] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40]
    xb = x.astype(ml_dtypes.bfloat16)
    w = _word(g, E.Opcode.RECIPROCAL, _t4(g, 0, (64, 1, 1, 1)), _t4(g, 0x800, (64, 1, 1, 1)),
              E.Dtype.BFLOAT16, E.Dtype.BFLOAT16, 4)  # fmt: skip
    got = [
        _run(g, b, w, xb.view(np.uint16)).read(0x800, np.uint16, (4, 64)) for b in ("numpy", "c")
    ]
    assert np.array_equal(got[0], got[1])
    with np.errstate(all="ignore"):
        want = np.reciprocal(xb.astype(np.float32)).astype(ml_dtypes.bfloat16).view(np.uint16)
    finite = ~np.isnan(xb.astype(np.float32))
    assert np.array_equal(got[0][finite], want[finite])
    assert np.isnan(got[0].view(ml_dtypes.bfloat16).astype(np.float32)[~finite]).all()
