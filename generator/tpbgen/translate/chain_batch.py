"""Each top-level validator's chain of terms (`chain.py`) translated to batch (numpy) functions,
for the runtime's test-bench toolkit (stimulus, coverage): which chains and which split terms
the batch path can run, and the code, constant tables and runtime helpers they need. Decided
here, so the renderer only lays the answer out (`emit/context.py`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..ir.model import Generation
from .chain import chains
from .to_numpy import BatchUnsupported, NpEmitter
from .validators import TranslatedGen


@dataclass(frozen=True)
class BatchChain:
    """A validator's chain as batch functions: its terms as (C text, batch function name), its
    constants, its top-level alternatives (C text, term indices) and the split terms it has batch
    functions for (term index, disjuncts of (C text, batch function name))."""

    validator: str
    terms: tuple[tuple[str, str], ...]
    constants: tuple[int, ...]
    alternatives: tuple[tuple[str, tuple[int, ...]], ...]
    splits: tuple[tuple[int, tuple[tuple[tuple[str, str], ...], ...]], ...]


@dataclass(frozen=True)
class BatchChains:
    """The batch chains of a generation and what their code needs."""

    chains: tuple[BatchChain, ...]
    functions: tuple[str, ...]  # the numpy code of every term and disjunct, in order
    tables: frozenset[str]  # the constant tables the code indexes (C names)
    helpers: frozenset[str]  # the runtime helpers the code calls, as `_<name>`


def batch_chains(gen: Generation, translation: TranslatedGen) -> BatchChains:
    """The chains of `gen`'s top-level validators the batch path runs: a validator the batch path
    runs word by word has none, one whose terms do not all vectorise has none (no stimulus or
    coverage through it), and a split whose disjuncts do not is left whole."""
    em = NpEmitter()
    out: list[BatchChain] = []
    functions: list[str] = []
    for ch in chains(gen, translation):
        if ch.validator in translation.rowwise:
            continue
        noted = set(em.helpers)
        try:
            terms = [("\n".join(em.function(t.fn)), t.name, t.fn.name) for t in ch.terms]
        except BatchUnsupported:
            em.helpers = noted  # (the terms emitted before the one that failed are dropped)
            continue
        functions += [code for code, _, _ in terms]
        splits: list[tuple[int, tuple[tuple[tuple[str, str], ...], ...]]] = []
        for sp in ch.splits:
            try:
                code = [["\n".join(em.function(t.fn)) for t in d] for d in sp.disjuncts]
            except BatchUnsupported:
                continue
            functions += [c for d in code for c in d]
            disjuncts = tuple(tuple((t.name, t.fn.name) for t in d) for d in sp.disjuncts)
            splits.append((sp.term, disjuncts))
        out.append(
            BatchChain(
                ch.validator,
                tuple((n, f) for _, n, f in terms),
                ch.constants,
                tuple((label, tuple(idx)) for label, idx in ch.alternatives),
                tuple(splits),
            )
        )
    return BatchChains(tuple(out), tuple(functions), frozenset(em.tables), frozenset(em.helpers))
