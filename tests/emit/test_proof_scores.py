"""The scores that steer the predicate proof's search for accepted words (checks/seeds.py), on
the vendored drop: a chain validator's score is the best of its alternatives' sums of pieces,
each piece reads no byte of the word but those PIECES lists for it, and a climb that scores a
move's candidates piece by piece ends on the very word the whole score leads to (the proof's
corpus depends on it)."""

from __future__ import annotations

import atexit
from functools import cache
from typing import Any

import numpy as np
import pytest

from tpb_paths import GENERATIONS, HEADER_ROOT
from tpbgen.checks import corpus, predicates
from tpbgen.checks.seeds import PIECES, climb
from tpbgen.driver import proof_namespaces
from tpbgen.emit.render import RenderInput, render
from tpbgen.frontend.ingest import ingest_root
from tpbgen.staged import Staged
from tpbgen.translate.validators import translate


@cache
def _scores(gen: str) -> tuple[Any, dict[str, Any]]:
    (r,) = ingest_root(HEADER_ROOT, use_cache=False, only=[gen])
    tr = translate(r.gen)

    def no_c(name: str, words: Any) -> Any:
        raise AssertionError("the scores never run the C")

    staged = Staged(render(RenderInput([(r.gen, tr)], "")))
    atexit.register(staged.close)
    prover = predicates._Prover(r.gen, tr, no_c, {}, lambda: proof_namespaces(staged, r.gen, tr))
    prover._loaded()  # (the prover imports the staged modules when it first needs them)
    return prover, prover.scalar


def _words(rng: np.random.Generator, opcodes: list[int], n: int) -> Any:
    """Random words, zero words and all-ones words, under the gates' opcodes."""
    w = rng.integers(0, 256, size=(n, 64), dtype=np.uint8)
    w[: n // 4] = 0
    w[n // 4 : n // 3] = 0xFF
    w[:, 0] = rng.choice(np.array(opcodes, dtype=np.uint8), size=n)
    return w


@pytest.mark.parametrize("gen", GENERATIONS)
def test_a_score_is_the_best_sum_of_its_pieces_and_each_reads_only_its_bytes(gen: str) -> None:
    prover, ns = _scores(gen)
    opcodes = sorted({op for t in prover.tr.top for op in t.opcodes})
    rng = np.random.default_rng(28)
    table = ns[PIECES]
    assert {f"_s_{t.name}" for t in prover.tr.top} <= {f.__name__ for f in table}
    moved = 0
    for score, alternatives in table.items():
        words = _words(rng, opcodes, 96)
        for w in words:
            data = w.tobytes()
            best = max(shift + sum(p(data, 0) for p, _ in ps) for shift, ps in alternatives)
            assert score(data, 0) == best, (score.__name__, data.hex())
        for _, ps in alternatives:
            for piece, reads in ps:
                if reads is None:
                    continue
                keep = np.zeros(64, dtype=bool)
                keep[sorted(reads)] = True
                other = _words(rng, opcodes, words.shape[0])
                other[:, keep] = words[:, keep]  # the same bytes where the piece reads
                for a, b in zip(words, other, strict=True):
                    assert piece(a.tobytes(), 0) == piece(b.tobytes(), 0), piece.__name__
                moved += int((other != words).any())
    assert moved > 100  # the words differed elsewhere


@pytest.mark.parametrize("gen", GENERATIONS)
def test_a_climb_by_pieces_ends_where_the_whole_score_leads(gen: str) -> None:
    prover, ns = _scores(gen)
    table = ns[PIECES]
    climbed = 0
    for t in prover.tr.top:
        score = ns[f"_s_{t.name}"]
        valid = ns[f"_{t.name}"]
        numbers = corpus.constants(prover._reachable(t.name))
        found = corpus.targets(prover.tr.lowered, t.name, numbers, {})

        def accepts(W: Any, valid: Any = valid) -> Any:
            return np.array([bool(valid(w.tobytes(), 0)) for w in W], dtype=bool)

        start = np.zeros((1, 64), dtype=np.uint8)
        start[0, 0] = t.opcodes[0] if t.opcodes else 0
        runs = [
            climb(score, accepts, start, found, np.random.default_rng(7), pieces=pieces)
            for pieces in (None, table[score])
        ]
        assert runs[0].shape == runs[1].shape and (runs[0] == runs[1]).all(), t.name
        climbed += runs[0].shape[0]
    assert climbed  # some climb found a word the translation accepts
