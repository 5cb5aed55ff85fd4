"""The runtime library's batch driver, tested directly (it is copied verbatim into tpb_isa._runtime)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tpbgen.runtime import vector
from tpbgen.runtime.vector import BatchValidators


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


def test_an_opcode_with_few_words_goes_word_by_word_to_the_scalar_code() -> None:
    """The numpy backend hands the words of an opcode a chunk holds fewer than SCALAR_BELOW of
    to the scalar translation, and the rest to the array code (here they answer differently, so
    the verdicts show which ran); a word no validator is responsible for reaches neither."""
    seen: list[int] = []

    def accept_all(w: Any, o: int) -> np.ndarray:
        return np.ones(w.shape[0], dtype=bool)

    def scalar_rejects(word: bytes) -> bool:
        seen.append(word[0])
        return False

    bv = BatchValidators(
        {"a": (0x43,), "b": (0x44, 0x45)},
        {"a": accept_all, "b": accept_all},
        scalar=scalar_rejects,
    )
    bv.SCALAR_BELOW = 3
    # pieces of this tiny batch's size (see test_a_validator_whose_pieces_would_be_too_small)
    bv.TEMPORARIES, bv.DISPATCH_BYTES = 1.0, 0
    ops = [0x43] * 3 + [0x44] * 2 + [0x45] * 4 + [0x46]
    words = np.zeros((len(ops), 64), dtype=np.uint8)
    words[:, 0] = ops
    assert bv.validate_batch(words, backend="numpy").tolist() == [
        *[True] * 3,
        *[False] * 2,
        *[True] * 4,
        False,
    ]
    assert seen == [0x44, 0x44]
    bv.SCALAR_BELOW = 0
    assert bv.validate_batch(words, backend="numpy").tolist() == [True] * 9 + [False]
    assert seen == [0x44, 0x44]


def test_a_validator_whose_pieces_would_be_too_small_goes_to_the_scalar_code() -> None:
    """A validator whose working set allows pieces of fewer than SCALAR_BELOW rows within
    TEMPORARIES of the batch's bytes leaves all its words to the scalar translation; with a
    larger allowance the same words go to the array code."""
    seen: list[int] = []

    def holds_a_column(w: Any, o: int) -> np.ndarray:
        return vector.byte(w, 1) == vector.byte(w, 1)  # byte 1 read twice: kept between

    def scalar_rejects(word: bytes) -> bool:
        seen.append(word[0])
        return False

    bv = BatchValidators({"a": (0x43,)}, {"a": holds_a_column}, scalar=scalar_rejects)
    bv.SCALAR_BELOW = 8
    words = np.zeros((20, 64), dtype=np.uint8)
    words[:, 0] = 0x43
    bv.DISPATCH_BYTES = 0
    bv.TEMPORARIES = 20 * (1 + bv.ROW_SLACK) / words.nbytes  # pieces of ~20 rows
    assert bv.validate_batch(words, backend="numpy").tolist() == [True] * 20
    assert seen == []
    bv.TEMPORARIES /= 4  # ~5 rows, fewer than SCALAR_BELOW
    assert bv.validate_batch(words, backend="numpy").tolist() == [False] * 20
    assert seen == [0x43] * 20
    # no validator could have pieces of SCALAR_BELOW rows (ROW_SLACK a row at least): the whole
    # batch goes word by word, its plans never learnt
    seen.clear()
    fresh = BatchValidators({"a": (0x43,)}, {"a": holds_a_column}, scalar=scalar_rejects)
    fresh.SCALAR_BELOW, fresh.DISPATCH_BYTES = 8, 0
    fresh.TEMPORARIES = 8 * fresh.ROW_SLACK / words.nbytes * 0.99
    assert fresh.validate_batch(words, backend="numpy").tolist() == [False] * 20
    assert seen == [0x43] * 20 and not fresh._plans


def test_scalar_words_run_the_opcode_checks_in_blocks_and_verdicts_land_on_their_rows() -> None:
    """The words left to the scalar translation run `by_opcode`'s checks (the first that
    accepts decides, none: False), copied out SCALAR_ROWS at a time: a batch smaller than
    SCALAR_BELOW wholly, a larger one's few-word opcodes by their rows."""

    def odd_byte_1(w: bytes, o: int) -> bool:
        return w[o + 1] % 2 == 1

    def never(w: bytes, o: int) -> bool:
        return False

    def array_says_no(w: Any, o: int) -> np.ndarray:
        return np.zeros(w.shape[0], dtype=bool)

    table: list[tuple[Any, ...]] = [()] * 256
    table[0x43], table[0x44] = (odd_byte_1,), (never, odd_byte_1)
    bv = BatchValidators(
        {"a": (0x43,), "b": (0x44,)},
        {"a": array_says_no, "b": array_says_no},
        scalar=lambda word: False,  # not called: by_opcode is given
        by_opcode=table,
    )
    bv.SCALAR_ROWS = 3
    ops = [0x43, 0x44, 0x45, 0x44, 0x43, 0x43, 0x44, 0x99, 0x43, 0x44, 0x44]
    words = np.zeros((len(ops), 64), dtype=np.uint8)
    words[:, 0] = ops
    words[:, 1] = np.arange(len(ops))
    want = [op in (0x43, 0x44) and k % 2 == 1 for k, op in enumerate(ops)]
    assert bv.validate_batch(words, backend="numpy").tolist() == want  # 11 < SCALAR_BELOW
    bv.SCALAR_BELOW = 5  # 0x43 and 0x44 have 4 and 5 words: 0x43's go word by word
    bv.TEMPORARIES, bv.DISPATCH_BYTES = 1.0, 0  # pieces of the batch's size
    got = bv.validate_batch(words, backend="numpy").tolist()
    assert got == [w and op == 0x43 for w, op in zip(want, ops, strict=True)]


def test_a_validator_runs_on_its_rows_in_pieces_and_each_verdict_lands_on_its_row() -> None:
    """With ROWS smaller than a validator's rows, it runs on pieces of them (each a batch of its
    own: its columns are of those rows); the verdicts go back to the rows they are about."""
    sizes: list[int] = []

    def odd_byte_1(w: Any, o: int) -> np.ndarray:
        sizes.append(w.shape[0])
        return (vector.byte(w, 1) & 1) == 1

    bv = BatchValidators({"a": (0x43,), "b": (0x44,)}, {"a": odd_byte_1, "b": odd_byte_1})
    bv.ROWS = 3
    rng = np.random.default_rng(5)
    words = rng.integers(0, 256, size=(40, 64), dtype=np.uint8)
    words[:, 0] = rng.choice([0x43, 0x44, 0x45], size=40)
    want = np.isin(words[:, 0], [0x43, 0x44]) & (words[:, 1] % 2 == 1)
    assert bv.validate_batch(words, backend="numpy").tolist() == want.tolist()
    # the first call learnt each validator's plan on PROBE_ROWS words of its own, twice
    assert sizes[:2] == [bv.PROBE_ROWS] * 2
    sizes.clear()
    assert bv.validate_batch(words, backend="numpy").tolist() == want.tolist()
    assert max(sizes) <= 3 and sum(sizes) == int(np.isin(words[:, 0], [0x43, 0x44]).sum())


def _counted_low_bits() -> tuple[list[int], Any]:
    """A memoised helper as the translator writes them (a byte's low four bits), and the list
    each of its computed (not memoised) answers appends to."""
    calls: list[int] = []

    @vector.memo
    def low_bits(v: Any) -> Any:
        calls.append(1)
        return v & np.uint8(15)

    return calls, low_bits


def test_a_memoised_answer_and_a_column_go_at_their_last_planned_read() -> None:
    """A `Cols` with a learnt `ReadPlan` keeps a column and a memoised answer from their first
    read to their last (as the run the plan was learnt from read them), not to the end of the
    run; one read once is not kept at all; the answers are those of a run without a plan."""
    calls, low_bits = _counted_low_bits()

    def check(w: Any, o: int) -> Any:
        a = low_bits(vector.byte(w, 1))  # byte 1 read, answer made
        kept = (len(w.memo), len(w._cols))
        b = low_bits(vector.byte(w, 1))  # byte 1 read again, answer read again: both last
        gone = (len(w.memo), len(w._cols))
        c = vector.byte(w, 2) == 0  # byte 2, read once
        seen.append((kept, gone, len(w._cols)))
        return (a == b) & c

    seen: list[tuple[Any, ...]] = []
    rng = np.random.default_rng(3)
    words = rng.integers(0, 256, size=(50, 64), dtype=np.uint8)
    plan = vector.ReadPlan()
    want = vector.run_batch(check, vector.Cols(words, plan=plan))  # learning: keeps everything
    assert seen[-1] == ((1, 1), (1, 1), 2)
    plan.learnt = True
    got = vector.run_batch(check, vector.Cols(words[10:], plan=plan))
    assert seen[-1] == ((1, 1), (0, 0), 0)
    assert got.tolist() == want[10:].tolist()
    assert len(calls) == 2  # once a run: the second call of each run answered from the memo


def test_a_read_the_plan_never_saw_is_computed_and_not_kept() -> None:
    """A plan is a forecast: a column or answer its run never read (a branch of a loop that
    ran only on other rows) is computed when read and not kept, and a value read more often
    than planned is computed again after its planned last read; the verdicts are unchanged,
    and so is the plan (numbers past it are the run's own)."""
    calls, low_bits = _counted_low_bits()

    def check(w: Any, o: int) -> Any:
        out = low_bits(vector.byte(w, 1)) < 8
        if w.shape[0] > 20:  # only the bigger run reads byte 2 and asks low_bits again
            out = out & (low_bits(vector.byte(w, 1)) == (vector.byte(w, 2) & 15))
            out = out | (vector.byte(w, 2) == 0) | (low_bits(vector.byte(w, 1)) == 0)
            assert not w._cols and not w.memo
        return out

    rng = np.random.default_rng(4)
    words = rng.integers(0, 256, size=(50, 64), dtype=np.uint8)
    plan = vector.ReadPlan()
    vector.run_batch(check, vector.Cols(words[:10], plan=plan))  # learnt: low_bits once
    plan.learnt = True
    calls.clear()
    learnt = (dict(plan.names), list(plan.reads))
    got = vector.run_batch(check, vector.Cols(words, plan=plan))
    assert (plan.names, plan.reads) == learnt  # shared by every run: never changed by one
    lb = words[:, 1] & 15
    want = ((lb < 8) & (lb == (words[:, 2] & 15))) | (words[:, 2] == 0) | (lb == 0)
    assert got.tolist() == want.tolist()
    assert len(calls) == 3  # kept for no read: each call computes


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
