"""Memset (0x49), added through tpbgen's table of executor semantics: real D4_MR words built
with the generated structs, validated by the drop's validators and run on both backends.

AWS's NKI golden test (`nki/test/test_nki_isa_memset.py`, next-families-facts.md §6b):
`nisa.memset(shape=(128, 128), value=0.2, dtype=nl.float32)` against `np.full([128, 128], 0.2)`
with `np.allclose`, replayed at that tolerance (set_value = the fp32 bits of 0.2; INFERRED
mapping, §6b). A dst_element_count that is neither reading of Q13 is refused."""

from __future__ import annotations

import importlib

import ml_dtypes
import numpy as np
import pytest

from .engine_loader import c_available, load_package
from .test_tt_families_golden import G

errors = importlib.import_module(f"{load_package().__name__}._runtime.executor.errors")
BACKENDS = ["numpy", pytest.param("c", marks=pytest.mark.skipif(not c_available(), reason="no C"))]
GENS = ["sunda", "cayman", "mariana", "maverick"]


def _memset(g: G, dtype: int, bits: int, parts: int, n: int, count: int | None = None) -> bytes:
    S = g.S
    dst = S.Tensor4D(g.addr(0x800), (1, n, n, n), (n, 1, 1, 1))
    mem4 = type(S.D4_MR().dst_mem_pattern)
    return g.word(S.D4_MR(header=g.hdr(g.E.Opcode.MEMSET), dtype=dtype, num_active_channels=parts,
                          set_value=bits, dst_element_count=n if count is None else count,
                          dst_mem_pattern=dst if mem4 is S.Tensor4D else mem4.of_t(dst)))  # fmt: skip


def _f32_bits(x: float) -> int:
    return int(np.array([x], np.float32).view(np.uint32)[0])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("gen", GENS)
def test_memset_is_nkis_golden(gen: str, backend: str) -> None:
    g = G(gen)
    assert 0x49 in set(g.mod.executor.EXECUTABLE)
    ex = g.mod.Executor(backend=backend)
    ex.write(0x800, np.full((128, 130), 9.0, np.float32))
    ex.run(_memset(g, g.E.Dtype.FP32, _f32_bits(0.2), 128, 128))
    got = ex.read(0x800, np.float32, (128, 130))
    assert np.allclose(got[:, :128], np.full([128, 128], 0.2))
    assert np.array_equal(got[:, :128], np.full([128, 128], 0.2, np.float32))
    assert (got[:, 128:] == 9.0).all()  # nothing past the pattern


@pytest.mark.parametrize("gen", GENS)
def test_memset_narrow_dtypes_and_backends_agree(gen: str) -> None:
    """bf16 and int8 fills use set_value's low bits; a total dst_element_count is also taken."""
    g = G(gen)
    E = g.E
    bf = int(np.array([-1.5], ml_dtypes.bfloat16).view(np.uint16)[0])
    for code, bits, np_dt, want in [(E.Dtype.BFLOAT16, bf, ml_dtypes.bfloat16, -1.5),
                                    (E.Dtype.INT8, 0xF9, np.int8, -7)]:  # fmt: skip
        outs = []
        for backend in ["numpy"] + (["c"] if c_available() else []):
            ex = g.mod.Executor(backend=backend)
            ex.run(_memset(g, code, bits, 4, 16, count=64))
            outs.append(ex.read(0x800, np_dt, (4, 16)))
        assert all(np.array_equal(o.view(np.uint8), outs[0].view(np.uint8)) for o in outs)
        assert (outs[0].astype(np.float64) == want).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_memset_refuses_a_count_that_is_neither_reading(backend: str) -> None:
    g = G("cayman")
    ex = g.mod.Executor(backend=backend)
    with pytest.raises(errors.UnsupportedError, match="Q13"):
        ex.run(_memset(g, g.E.Dtype.FP32, 0, 4, 16, count=17))
    assert not ex.read(0x800, np.float32, (4, 16)).any()
