"""Hypothesis strategies over a generation's stimulus (`stimulus.Stimulus`): valid words and
near misses that shrink toward simple words, drawn from the search's results (kept on disk:
`stimcache`); constrained-random programs (`programs.Programs`). The only module of the runtime that imports
hypothesis (an optional dependency: install it to use this)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import hypothesis.strategies as st
import numpy as np

from .programs import Program, Programs
from .stimulus import Stimulus, Words


@functools.lru_cache(maxsize=256)
def _near_pool(stim: Stimulus, opcode: int) -> Words:
    words, _ = stim.near_misses(512, opcode, 0)
    order = np.lexsort((np.arange(len(words)), np.count_nonzero(words, axis=1)))
    return np.ascontiguousarray(words[order])


def words_strategy(
    stim: Stimulus, opcode: int | None = None, valid: bool = True
) -> st.SearchStrategy[bytes]:
    """64-byte words of `opcode` (or of every opcode with a valid word): valid ones, or near
    misses failing exactly one rule. A valid word is one of the opcode's seeds (simplest first)
    with fields re-set, each change kept only when the chain still accepts the word, so
    shrinking goes to the simplest seed and to zero fields; a near miss is drawn from a pool
    ordered simplest first."""
    ops = (opcode,) if opcode is not None else stim.reached()
    for op in ops:
        stim.seeds(op)  # ValueError naming the opcode now, not inside a test

    @st.composite
    def draw(draw: st.DrawFn) -> bytes:
        op = draw(st.sampled_from(ops))
        if not valid:
            pool = _near_pool(stim, op)
            return bytes(pool[draw(st.integers(0, len(pool) - 1))])
        seeds = stim.seeds(op)
        space = stim.space(op)
        w = seeds[draw(st.integers(0, len(seeds) - 1))].copy()
        changes = draw(
            st.lists(
                st.tuples(st.integers(0, len(space.slots) - 1), st.integers(0, 2**64 - 1)),
                max_size=6,
            )
        )
        for k, value in changes:
            slot = space.slots[k]
            trial = w[None, :].copy()
            space.pools.put(trial, slice(None), slot, np.array([value & ((1 << slot.bits) - 1)]))
            if stim.accepts(trial)[0]:
                w = trial[0]
        return bytes(w)

    return draw()


def programs_strategy(
    programs: Programs, n: int, opcodes: Sequence[int] | None = None, dependent: float = 0.5
) -> st.SearchStrategy[Program]:
    """`programs.random_program(n, ...)` of a drawn seed (shrinking toward seed 0)."""
    ops = None if opcodes is None else tuple(opcodes)
    programs.random_program(0, opcodes=ops, dependent=dependent)  # a ValueError now, not in a test
    return st.integers(0, 2**32 - 1).map(
        lambda seed: programs.random_program(n, seed=seed, opcodes=ops, dependent=dependent)
    )
