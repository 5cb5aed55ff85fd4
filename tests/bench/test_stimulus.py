"""The test-bench stimulus of every generation: valid words the headers' own C accepts (10^5 per
generation, compiled here from the vendored assert.h), spread over opcodes and predicate
branches; near misses the C rejects, each failing exactly one rule of its validator's chain,
spread over every rule that can fail alone; the hypothesis strategies and their shrinking."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from emit.runtime_import import gen_module
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import cpredicates
from tpb_paths import GENERATIONS, HEADER_ROOT, tpb_dir
from tpb_scale import scale
from tpbgen.frontend.ingest import ingest_root
from tpbgen.resolve import c_call_arguments

WORDS_PER_GEN = scale(20_000, 100_000)  # tpb_scale: 10^5 in CI


_BUILT: dict[str, object] = {}  # gen -> its compiled predicates, built once per session


def _c_verdicts(cc: str, gen: str, tmp_path: Path, words: np.ndarray) -> np.ndarray:
    """Each word through the compiled C validator(s) its opcode dispatches to."""
    mod = gen_module(gen)
    dispatch = gen_module(gen, "validators").DISPATCH
    clib: Any = _BUILT.get(gen)
    if clib is None:
        g = ingest_root(HEADER_ROOT, [gen])[0].gen  # the IR (cached): each validator's C call
        clib = _BUILT[gen] = cpredicates.build(
            cc, tpb_dir(gen), tuple(mod.TOP_LEVEL), tmp_path, opt="-O1", args=c_call_arguments(g)
        )
    out = np.zeros(len(words), dtype=bool)
    for name in mod.TOP_LEVEL:
        ops = [op for op, names in dispatch.items() if name in names]
        rows = np.flatnonzero(np.isin(words[:, 0], ops))
        if rows.size:
            out[rows] |= clib.run(name, np.ascontiguousarray(words[rows]))
    return out


@pytest.mark.parametrize("gen", GENERATIONS)
def test_valid_words_pass_the_compiled_c(gen: str, cc: str, tmp_path: Path) -> None:
    mod = gen_module(gen)
    stim = mod.bench.STIMULUS
    W = mod.random_words(WORDS_PER_GEN, seed=7)
    assert W.shape == (WORDS_PER_GEN, 64) and W.dtype == np.uint8
    assert _c_verdicts(cc, gen, tmp_path, W).all()
    assert mod.validate_batch(W, backend="numpy").all()
    # spread: every opcode the search reached, in equal shares, and hardly a word twice
    ops, counts = np.unique(W[:, 0], return_counts=True)
    assert tuple(int(o) for o in ops) == stim.reached()
    assert counts.max() - counts.min() <= 1
    assert len(np.unique(W, axis=0)) > 0.9 * WORDS_PER_GEN
    # deterministic for a seed, different for another
    assert np.array_equal(mod.random_words(50, seed=7), mod.random_words(50, seed=7))
    assert not np.array_equal(mod.random_words(50, seed=7), mod.random_words(50, seed=8))


@pytest.mark.parametrize("gen", GENERATIONS)
def test_valid_words_spread_over_the_predicates_branches(gen: str) -> None:
    """Within each opcode's valid words, every enum field the chain constrains takes several
    values, and the fields differ from word to word (not one corner)."""
    mod = gen_module(gen)
    stim = mod.bench.STIMULUS
    for op in stim.reached():
        W = mod.random_words(2000, opcode=op, seed=1)
        assert (W[:, 0] == op).all()
        space = stim.space(op)
        varied = [
            s
            for s in space.slots
            if s.values and len(np.unique(space.pools.read(W, slice(None), s))) > 1
        ]
        assert len(varied) >= 3, f"{gen} {op:#04x}: only {[s.name for s in varied]} vary"


@pytest.mark.parametrize("gen", GENERATIONS)
def test_near_misses_fail_exactly_one_rule(gen: str, cc: str, tmp_path: Path) -> None:
    mod = gen_module(gen)
    stim = mod.bench.STIMULUS
    all_words = []
    for op in stim.reached():
        chain = stim.chain(op)
        words, rules = stim.near_misses(150, op, seed=2)
        M = chain.matrix(words)
        assert not chain.accepts(words).any()
        # each word fails its named rule and no other term of that rule's alternative
        where = {n: k for k, n in enumerate(chain.names)}
        alts = chain.alternatives or (("", tuple(range(len(chain.names)))),)
        for w, rule in enumerate(rules):
            idx = next(list(i) for _, i in alts if where[rule] in i)
            assert not M[where[rule], w] and M[idx, w].sum() == len(idx) - 1
        # spread over the rules a field change can break alone (a rule broken alone too rarely
        # gives its rows to the others), and at least a handful
        failable = {chain.names[j] for j in stim.failable(op)}
        assert set(rules) <= failable and len(set(rules)) >= 0.9 * len(failable)
        assert len(set(rules)) >= min(8, len(failable)), f"{gen} {op:#04x}: {sorted(set(rules))}"
        all_words.append(words)
        # explain() names the rule (the term, or the helper it sits in)
        w = bytes(words[0])
        assert rules[0].split(" > ")[0].split("(")[0] in mod.explain(w)
    W = np.vstack(all_words)
    assert not _c_verdicts(cc, gen, tmp_path, W).any()
    assert not mod.validate_batch(mod.random_words(600, valid=False, seed=3), backend="numpy").any()


def test_no_valid_word_is_a_value_error_naming_the_opcode() -> None:
    mod = gen_module("mariana")
    for op in (
        0x00,
        0x64,
    ):  # not an opcode; decodes (BatchNormParamLoad) but no validator accepts it
        with pytest.raises(ValueError, match=f"opcode {op:#04x}"):
            mod.random_words(4, opcode=op)
    assert mod.random_words(0).shape == (0, 64)


@pytest.mark.parametrize("gen", ["sunda", "maverick"])
def test_strategies_draw_valid_words_and_near_misses(gen: str) -> None:
    mod = gen_module(gen)
    strategies = gen_module(gen, "strategies")

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategies.words(), strategies.words(opcode=0x43, valid=False))
    def check(good: bytes, bad: bytes) -> None:
        assert mod.validate(good)
        assert not mod.validate(bad) and bad[0] == 0x43

    check()


def test_strategies_shrink_toward_simple_words() -> None:
    from hypothesis import find

    mod = gen_module("mariana")
    strategies = gen_module("mariana", "strategies")
    seeds = mod.bench.STIMULUS.seeds(0x43)
    # the simplest valid word the strategy can make with a non-zero channel count is at most as
    # busy as the simplest seed
    w = find(
        strategies.words(opcode=0x43),
        lambda w: w[34] != 0,
        settings=settings(max_examples=200, deadline=None, database=None),
    )
    assert mod.validate(w)
    assert np.count_nonzero(np.frombuffer(w, dtype=np.uint8)) <= np.count_nonzero(seeds[0])
    assert st is not None


@pytest.mark.parametrize("gen", GENERATIONS)
def test_the_search_reaches_every_opcode_a_validator_accepts(gen: str) -> None:
    """Every opcode a translated validator runs on gets valid words, the TensorTensor family's
    too: its validator is a `||` of three validators (one alternative each, searched apart)
    and its terms disjunctions whose disjuncts need several fields at once (split, each
    disjunct's conjuncts satisfied in turn)."""
    stim = gen_module(gen).bench.STIMULUS
    assert stim.unreached() == {}
    assert stim.reached() == stim.opcodes()
    for op in stim.opcodes():
        chain = stim.chain(op)
        if chain.validator == "is_valid_s3s3d3_tt":
            assert len(chain.alternatives) >= 3 and len(stim.alternatives(op)) == 1
