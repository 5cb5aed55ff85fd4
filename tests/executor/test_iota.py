"""Iota (0x7E), added through tpbgen's table of executor semantics: real D4_IOTA words built
with the generated structs, validated by the drop's validators and run on both backends.

AWS's NKI golden test of iota (`nki/test/test_nki_isa_iota.py`, next-families-facts.md §6a)
makes five int32 tiles and compares each with `np.allclose`: `a = arange(0, 512)` on partition
0, `b = arange(0, 128)` down the partitions, `c = -arange`, `d = 5 + 2p` (`np.arange(5, 260, 2)`),
`e = a + b` broadcast over [128, 512]. Each is one word here (offset -> DATA4D base, the free
pattern -> one step/count, partitions -> channel_multiplier; INFERRED mapping, §6a), replayed at
that tolerance (integers: exactly). What the sources leave open is refused, each naming why."""

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


def _iota(g: G, base: int, step: int, n: int, cm: int, parts: int, out_dt: int,
          dst: int = 0x800, steps: tuple[int, ...] | None = None,
          nums: tuple[int, ...] | None = None) -> bytes:  # fmt: skip
    S = g.S
    ramp = S.Data4D(base=base, step_elem=steps or (step, 0, 0, 0), num_elem=nums or (n, 1, 1, 1))
    count = int(np.prod(nums)) if nums else n
    return g.word(S.D4_IOTA(header=g.hdr(g.E.Opcode.IOTA), src_data_pattern=ramp, out_dtype=out_dt,
                            num_active_channels=parts, channel_multiplier=cm,
                            dst_mem_pattern=S.Tensor4D(g.addr(dst), (1, count, count, count),
                                                       (count, 1, 1, 1))))  # fmt: skip


def _run(g: G, backend: str, w: bytes, parts: int, n: int, dtype: Any = np.int32) -> Any:
    ex = g.mod.Executor(backend=backend)
    ex.run(w)
    return ex.read(0x800, dtype, (parts, n))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("gen", GENS)
def test_iota_is_nkis_golden(gen: str, backend: str) -> None:
    g = G(gen)
    I32 = g.E.Dtype.INT32
    assert 0x7E in set(g.mod.executor.EXECUTABLE)
    p = np.arange(128)[:, None]
    cases = {
        "a": (_iota(g, 0, 1, 512, 0, 1, I32), 1, 512, np.arange(0, 512)[None, :]),
        "b": (_iota(g, 0, 0, 1, 1, 128, I32), 128, 1, np.arange(0, 128)[:, None]),
        "c": (_iota(g, 0, -1, 512, 0, 1, I32), 1, 512, -np.arange(0, 512)[None, :]),
        "d": (_iota(g, 5, 0, 1, 2, 128, I32), 128, 1, np.arange(5, 260, 2)[:, None]),
        "e": (_iota(g, 0, 1, 512, 1, 128, I32), 128, 512, np.arange(512)[None, :] + p),
    }
    for name, (w, parts, n, golden) in cases.items():
        got = _run(g, backend, w, parts, n)
        assert np.allclose(got, golden), name
        assert np.array_equal(got, golden.astype(np.int32)), name


@pytest.mark.parametrize("gen", GENS)
def test_iota_float_and_narrow_dtypes_agree_across_backends(gen: str) -> None:
    """Exact values in fp32, bf16 and uint8: both backends store the same bits."""
    if not c_available():
        pytest.skip("no C")
    g = G(gen)
    E = g.E
    for code, np_dt, base, step in [(E.Dtype.FP32, np.float32, -100, 3),
                                    (E.Dtype.BFLOAT16, ml_dtypes.bfloat16, 7, 2),
                                    (E.Dtype.UINT8, np.uint8, 3, 1)]:  # fmt: skip
        w = _iota(g, base, step, 64, 1, 4, code)
        got = [_run(g, b, w, 4, 64, np_dt) for b in ("numpy", "c")]
        want = base + step * np.arange(64)[None, :] + np.arange(4)[:, None]
        assert np.array_equal(got[0].view(np.uint8), got[1].view(np.uint8))
        assert np.array_equal(got[0].astype(np.float64), want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_iota_refuses_what_the_sources_leave_open(backend: str) -> None:
    g = G("mariana")
    E = g.E
    open_cases = {
        "step_elem": _iota(g, 0, 0, 0, 0, 2, E.Dtype.INT32, steps=(1, 4, 0, 0), nums=(4, 2, 1, 1)),
        "int32": _iota(g, 2**31 - 10, 1, 64, 0, 1, E.Dtype.INT32),
        "rounding": _iota(g, 255, 1, 4, 0, 1, E.Dtype.UINT8),
        "bf16": _iota(g, 257, 0, 1, 0, 1, E.Dtype.BFLOAT16),
        "partition": _iota(
            g,
            0,
            0,
            1,
            1,
            2,
            E.Dtype.INT32,
            dst=g.mod.Executor().engine.memory.address("SBUF", 2, 0x800),
        ),
    }
    reasons = {"step_elem": "Q8", "int32": "overflow", "rounding": "not exact",
               "bf16": "not exact", "partition": "channel_id"}  # fmt: skip
    for name, w in open_cases.items():
        ex = g.mod.Executor(backend=backend)
        with pytest.raises(errors.UnsupportedError, match=reasons[name]):
            ex.run(w)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("out", ["INT32", "FP32"])
def test_iota_wide_ramps_are_exact(backend: str, out: str) -> None:
    """Ramps whose terms lie far from zero (a negative base, a large channel multiplier and a
    negative step, so the row and column terms cancel): int32 values are exact whatever the
    size of each term; fp32 values are exact up to 2^24 and match the int32 ramp converted."""
    g = G("mariana")
    E = g.E
    S = g.S
    n, nch = 256, 128
    base, cm, step = -(2**23), 2**16, -7
    if out == "INT32":
        base, cm, step = 2**31 - 1 - (nch - 1) * 2**24, 2**24, -(2**15)
    ramp = S.Data4D(base=base, step_elem=(step, 0, 0, 0),
                    num_elem=(n, 1, 1, 1))  # fmt: skip
    dst = S.Tensor4D(g.addr(0x400), (1, n, n, n), (n, 1, 1, 1))
    code = getattr(E.Dtype, out)
    w = g.word(S.D4_IOTA(header=g.hdr(E.Opcode.IOTA), src_data_pattern=ramp, out_dtype=code,
                         num_active_channels=nch, channel_multiplier=cm,
                         dst_mem_pattern=dst))  # fmt: skip
    ex = g.mod.Executor(backend=backend)
    ex.run(w)
    want = base + cm * np.arange(nch, dtype=np.int64)[:, None] + step * np.arange(n)[None, :]
    if out == "INT32":
        assert np.array_equal(ex.read(0x400, np.int32, (nch, n)), want)
    else:
        assert np.array_equal(ex.read(0x400, np.float32, (nch, n)), want.astype(np.float32))
