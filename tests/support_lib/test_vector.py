"""The support library's batch driver, tested directly (it is copied verbatim into tpb_isa._runtime)."""

from __future__ import annotations

import numpy as np
import pytest

from tpbgen.templates.support import vector
from tpbgen.templates.support.vector import BatchValidators


def test_a_validator_without_a_gate_is_skipped_not_an_error() -> None:
    def accept_all(w: np.ndarray, o: int) -> np.ndarray:
        return np.ones(w.shape[0], dtype=bool)

    bv = BatchValidators(
        {"gated": (0x43,), "ungated": ()}, {"gated": accept_all, "ungated": accept_all}
    )
    words = np.zeros((3, 64), dtype=np.uint8)
    words[0, 0] = 0x43
    assert bv.validate_batch(words).tolist() == [True, False, False]
    assert bv.validate_batch(np.zeros((0, 64), dtype=np.uint8)).tolist() == []


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6, 7, 8])
def test_col_reads_any_width_little_endian(size: int) -> None:
    """A column of 3, 5, 6 or 7 bytes (a wide bitfield's span) reads like the integer it is, at
    a fixed offset and at per-row offsets alike."""
    rng = np.random.default_rng(size)
    W = rng.integers(0, 256, size=(257, 64), dtype=np.uint8)
    for off in (0, 1, 13, 64 - size):
        want = [int.from_bytes(bytes(r[off : off + size]), "little") for r in W]
        assert [int(x) for x in vector.col(W, off, size)] == want
    offs = rng.integers(0, 64 - size + 1, size=W.shape[0])
    want = [int.from_bytes(bytes(r[o : o + size]), "little") for r, o in zip(W, offs, strict=True)]
    assert [int(x) for x in vector.col(W, offs, size)] == want
