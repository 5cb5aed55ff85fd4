"""The support library's batch driver, tested directly (it is copied verbatim into tpb_isa._runtime)."""

from __future__ import annotations

import numpy as np

from tpbgen.templates.support.vector import BatchValidators


def test_a_validator_without_a_gate_is_skipped_not_an_error() -> None:
    def accept_all(w: np.ndarray, o: int) -> np.ndarray:
        return np.ones(w.shape[0], dtype=bool)

    bv = BatchValidators({"gated": (0x43,), "ungated": ()}, {"gated": accept_all, "ungated": accept_all})
    words = np.zeros((3, 64), dtype=np.uint8)
    words[0, 0] = 0x43
    assert bv.validate_batch(words).tolist() == [True, False, False]
    assert bv.validate_batch(np.zeros((0, 64), dtype=np.uint8)).tolist() == []
