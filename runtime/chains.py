"""The chain of a top-level validator, as the generated batch module lists it (`CHAINS`): its
terms (the operands of its C `&&`, named by their C text) as translated batch functions, and
the integer constants the predicates it reaches name. A validator whose body is a top-level
`||` has one alternative per disjunct, each with its own terms (a word is valid when every term
of one alternative holds); a term that is itself a disjunction with a disjunct of several
conjuncts is split, the conjuncts of each disjunct given as sub-terms the stimulus search can
satisfy one at a time. The test-bench toolkit (stimulus, coverage) evaluates every term on
every word, without C's short circuit."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .vector import Cols, VectorCheck, Words, as_words, run_batch

Terms = tuple[tuple[str, VectorCheck], ...]


@dataclass(frozen=True)
class Chain:
    validator: str
    terms: Terms  # (C text, batch function of (W, offset))
    constants: tuple[int, ...]
    # (C text of a top-level disjunct, indices of its terms); () for one alternative, all terms
    alternatives: tuple[tuple[str, tuple[int, ...]], ...] = ()
    # (index of a term, for each of its disjuncts the conjuncts as terms)
    splits: tuple[tuple[int, tuple[Terms, ...]], ...] = ()
    alternative: str = ""  # the top-level disjunct this chain is (`alternative_chains`), or ""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.terms)

    def alternative_chains(self) -> tuple[Chain, ...]:
        """One chain per top-level alternative, its terms only (and the splits among them);
        `(self,)` for a validator with one."""
        if len(self.alternatives) <= 1:
            return (self,)
        out = []
        for label, idx in self.alternatives:
            where = {k: j for j, k in enumerate(idx)}
            out.append(
                Chain(
                    self.validator,
                    tuple(self.terms[k] for k in idx),
                    self.constants,
                    (),
                    tuple((where[k], ds) for k, ds in self.splits if k in where),
                    label,
                )
            )
        return tuple(out)

    def matrix(self, words: Words, upto: int | None = None) -> npt.NDArray[np.bool_]:
        """(terms, N): each term's value on each word (every term evaluated on every word; one
        batch, so the helpers the terms share are evaluated once); `upto`: the first terms only."""
        terms = self.terms if upto is None else self.terms[:upto]
        return evaluate(terms, words)

    def accepts(self, words: Words) -> npt.NDArray[np.bool_]:
        """(N,): whether every term of some alternative holds on each word (the validator's
        verdict)."""
        M = self.matrix(words)
        out: npt.NDArray[np.bool_]
        if len(self.alternatives) <= 1:
            out = np.all(M, axis=0)
            return out
        out = np.zeros(M.shape[1], dtype=np.bool_)
        for _, idx in self.alternatives:
            out |= M[list(idx)].all(axis=0)
        return out


def evaluate(terms: Terms, words: Words) -> npt.NDArray[np.bool_]:
    """(len(terms), N): each of `terms` on each word."""
    W = as_words(words)
    out = np.zeros((len(terms), W.shape[0]), dtype=np.bool_)
    if not W.shape[0]:
        return out
    cols = Cols(W)
    for k, (_, fn) in enumerate(terms):
        out[k] = run_batch(fn, cols)
    return out
