"""The C backend's streamed stores: Memset's fill and Iota's outer add write an output of at
least 4 MiB (tpb_kernels.c, TPB_STREAM_BYTES) with non-temporal stores, 16-byte blocks between
element stores at a row's two ends. They must store the plain loop's bits (the numpy backend's)
wherever the rows start, whatever the element size, and nothing outside the rows."""

from __future__ import annotations

import numpy as np
import pytest

from .engine_loader import c_available, make_engine

pytestmark = pytest.mark.skipif(not c_available(), reason="no C compiler for the C backend")

ROWS = 128
STREAMED = 4 << 20  # TPB_STREAM_BYTES


def _rows(mem: np.ndarray, offset: int, row_bytes: int, dtype: type) -> np.ndarray:
    """(ROWS, row_bytes) bytes of `mem` from byte `offset` of each row, as `dtype` elements."""
    return mem[:, offset : offset + row_bytes].view(dtype)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32])
@pytest.mark.parametrize("offset", [0, 1, 2, 4, 12, 20])
def test_a_large_fill_stores_the_plain_loops_bits(dtype: type, offset: int) -> None:
    size = np.dtype(dtype).itemsize
    row_bytes = (STREAMED // ROWS + 7 * size + 3) // size * size  # not a multiple of 16
    assert ROWS * row_bytes >= STREAMED
    bits = 0xA5C3_9E17 & ((1 << (8 * size)) - 1)
    out = {}
    for backend in ("c", "numpy"):
        mem = np.full((ROWS, row_bytes + 64), 0x5A, np.uint8)
        make_engine(backend).backend.fill(_rows(mem, offset, row_bytes, dtype), bits)
        out[backend] = mem
    assert np.array_equal(out["c"], out["numpy"])
    assert (_rows(out["c"], offset, row_bytes, dtype) == bits).all()
    assert (out["c"][:, :offset] == 0x5A).all() and (
        out["c"][:, offset + row_bytes :] == 0x5A
    ).all()


@pytest.mark.parametrize("kind", [np.int32, np.float32])
@pytest.mark.parametrize("offset", [0, 4, 8, 12, 2])
def test_a_large_outer_add_stores_the_plain_loops_bits(kind: type, offset: int) -> None:
    n = STREAMED // ROWS // 4 + 5  # elements a row, not a multiple of 4
    rng = np.random.default_rng(offset)
    if kind is np.int32:
        rows = rng.integers(-(2**31), 2**31, ROWS, dtype=np.int64).astype(np.int32)
        cols = rng.integers(-(2**31), 2**31, n, dtype=np.int64).astype(np.int32)
    else:  # values whose sums round, overflow to inf, and meet NaN and subnormals
        rows = (rng.standard_normal(ROWS) * 1e30).astype(np.float32)
        cols = (rng.standard_normal(n) * 1e30).astype(np.float32)
        cols[:8] = [np.nan, np.inf, -np.inf, 1e-40, -1e-40, 3.4e38, -0.0, 0.0]
    out = {}
    for backend in ("c", "numpy"):
        mem = np.full((ROWS, 4 * n + 32), 0x5A, np.uint8)
        make_engine(backend).backend.outer_add(rows, cols, _rows(mem, offset, 4 * n, kind))
        out[backend] = mem
    assert np.array_equal(out["c"], out["numpy"])
    assert (out["c"][:, :offset] == 0x5A).all() and (out["c"][:, offset + 4 * n :] == 0x5A).all()
