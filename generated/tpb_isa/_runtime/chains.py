"""The chain of a top-level validator, as the generated batch module lists it (`CHAINS`): its
terms (the operands of its C `&&`, named by their C text) as translated batch functions, and
the integer constants the predicates it reaches name. The test-bench toolkit (stimulus,
coverage) evaluates every term on every word, without C's short circuit."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .vector import Cols, VectorCheck, Words, as_words, run_batch


@dataclass(frozen=True)
class Chain:
    validator: str
    terms: tuple[tuple[str, VectorCheck], ...]  # (C text, batch function of (W, offset))
    constants: tuple[int, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.terms)

    def matrix(self, words: Words, upto: int | None = None) -> npt.NDArray[np.bool_]:
        """(terms, N): each term's value on each word (every term evaluated on every word; one
        batch, so the helpers the terms share are evaluated once); `upto`: the first terms only."""
        W = as_words(words)
        terms = self.terms if upto is None else self.terms[:upto]
        out = np.zeros((len(terms), W.shape[0]), dtype=np.bool_)
        if not W.shape[0]:
            return out
        cols = Cols(W)
        for k, (_, fn) in enumerate(terms):
            out[k] = run_batch(fn, cols)
        return out
