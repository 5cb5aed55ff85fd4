"""The audit works from per-generation facts kept in the data-only cache (audit/facts.py): a second
audit of the same IRs rebuilds no AST and says the same; a first audit rebuilds ASTs only for the
bodies that differ between the sides (their terms) and for the callers polarity needs; an edited
drop is compared afresh; an entry of the wrong shape costs only time; a generation made in memory
is never cached; and the audit leaves no reference cycles of its own."""

from __future__ import annotations

import collections
import dataclasses
import gc
from collections.abc import Callable
from pathlib import Path

import pytest

from tpb_paths import HEADER_ROOT
from tpbgen import cache as cache_mod
from tpbgen.audit import facts as F
from tpbgen.audit import terms as T
from tpbgen.audit.report import render
from tpbgen.audit.run import audit_walk
from tpbgen.frontend.discover import source_for_tpb_dir
from tpbgen.frontend.ingest import ingest, ingest_root
from tpbgen.ir.model import Generation

from .helpers import copy_generation, edit

PAIR = ["mariana", "maverick"]
ASSERT = "aws_neuron_isa_tpb_assert.h"
FN = "has_zero_accum_cmd_field"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> cache_mod.Cache:
    """A cache of this module's own, so the facts in it are the ones these tests made."""
    return cache_mod.Cache(tmp_path_factory.mktemp("facts-cache"))


def load(store: cache_mod.Cache) -> list[Generation]:
    """Fresh Generation objects (so fresh facts objects) for mariana and maverick."""
    return [r.gen for r in ingest_root(HEADER_ROOT, only=PAIR, cache=store)]


def drop_facts(store: cache_mod.Cache) -> None:
    for p, _ in store.entries():
        if p.name.startswith(F.KIND + "-"):
            p.unlink()


def facts_entries(store: cache_mod.Cache) -> list[str]:
    return sorted(p.name.split("-")[1] for p, _ in store.entries() if p.name.startswith("facts-"))


def no_ast(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, rebuilding a function body's AST fails the test."""

    def refuse(fn: object) -> object:
        raise AssertionError(f"an AST was rebuilt: {getattr(fn, 'name', fn)}")

    monkeypatch.setattr(T, "_funcdef", refuse)


def test_first_audit_rebuilds_only_changed_bodies_and_their_callers(
    store: cache_mod.Cache,
) -> None:
    drop_facts(store)
    old, new = load(store)
    report = audit_walk([old, new])
    fo, fn = F.facts(old), F.facts(new)
    by_name = {f.name: f for f in old.functions}
    changed = {
        f.name
        for f in new.functions
        if f.name in by_name and fo.body_hash(by_name[f.name]) != fn.body_hash(f)
    }
    assert changed, "mariana -> maverick changes some validator bodies"
    termed = {n for side in (fo, fn) for what, n in side.rebuilt if what == "terms"}
    assert termed == changed  # terms are made for exactly the bodies that differ
    signed = {n for side in (fo, fn) for what, n in side.rebuilt if what == "signs"}
    assert signed  # polarity needed some callers' call sites
    assert len(signed) < len(old.functions) + len(new.functions)
    assert report.findings()
    assert facts_entries(store) == ["mariana", "maverick"]


def test_second_audit_uses_the_cached_facts(
    store: cache_mod.Cache, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = render(audit_walk(load(store)), "json")
    gens = load(store)  # new objects: their facts come from the entries, not from memory
    no_ast(monkeypatch)
    second = render(audit_walk(gens), "json")
    assert second == first
    assert all(F.facts(g).rebuilt == [] for g in gens)


def test_an_edited_drop_is_compared_afresh(
    store: cache_mod.Cache, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    maverick = load(store)[1]
    audit_walk(load(store))  # maverick's facts are cached
    tpb = copy_generation("maverick", tmp_path)
    src = source_for_tpb_dir(tpb)

    def audit_copy() -> tuple[list[str], list[tuple[str, str]]]:
        gen = ingest(src, cache=store).gen
        report = audit_walk([maverick, gen])
        found = [f.summary for f in report.findings() if f.kind == "function.changed"]
        return found, F.facts(gen).rebuilt

    assert audit_copy() == ([], [])  # an identical copy: same bodies, nothing to fold
    edit(
        tpb / ASSERT,
        "    return( i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE );\n",
        "    return( i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE\n"
        "            && i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE );\n",
    )
    found, rebuilt = audit_copy()
    assert found == [f"{FN}: +1 term"]
    assert ("terms", FN) in rebuilt
    # edited again: the facts of the first edit are not the facts of this one
    edit(
        tpb / ASSERT,
        "            && i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE );\n",
        "            && i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE\n"
        "            && i.s3d3_ts.imm2_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE );\n",
    )
    found, _ = audit_copy()
    assert found == [f"{FN}: +2 terms"]
    no_ast(monkeypatch)  # and once cached, the edited drop's audit rebuilds nothing
    found, rebuilt = audit_copy()
    assert (found, rebuilt) == ([f"{FN}: +2 terms"], [])


def _mangle_terms(doc: dict[str, object]) -> None:
    terms = doc["terms"]
    assert isinstance(terms, dict) and terms
    for name in terms:
        terms[name] = [["x", "not a list of arms", "cond"]]


def _mangle_signs(doc: dict[str, object]) -> None:
    signs = doc["signs"]
    assert isinstance(signs, dict) and signs
    for name in signs:
        signs[name] = {"callee": [2]}


def _mangle_functions(doc: dict[str, object]) -> None:
    doc["functions"] = {"not_a_function": ["0" * 32, ""]}


def _mangle_stale(doc: dict[str, object]) -> None:
    doc["stale"] = [["a", "b", "c", "line 1"]]


@pytest.mark.parametrize(
    "mangle", [_mangle_terms, _mangle_signs, _mangle_functions, _mangle_stale, lambda d: d.clear()]
)
def test_an_entry_of_the_wrong_shape_is_recomputed(
    store: cache_mod.Cache, mangle: Callable[[dict[str, object]], None]
) -> None:
    reference = render(audit_walk(load(store)), "json")
    gens = load(store)
    for g in gens:  # a well-formed entry (checksum and all) holding facts of the wrong shape
        f = F.facts(g)
        doc = f._payload()
        mangle(doc)
        store.put(F.KIND, g.name, f._key, doc)
    gens = load(store)
    assert render(audit_walk(gens), "json") == reference
    assert any(F.facts(g).rebuilt for g in gens) or mangle is _mangle_stale
    again = load(store)  # and the entry was written back whole
    assert render(audit_walk(again), "json") == reference
    assert all(F.facts(g).rebuilt == [] for g in again)


def test_a_generation_made_in_memory_is_not_cached(store: cache_mod.Cache) -> None:
    old, new = load(store)
    assert cache_mod.provenance(new) is not None
    edited = dataclasses.replace(new, functions=new.functions[:-1])
    assert cache_mod.provenance(edited) is None
    before = {p.name for p, _ in store.entries()}
    report = audit_walk([old, edited])
    assert {p.name for p, _ in store.entries()} == before
    removed = [f.subject for f in report.findings() if f.kind == "function.removed"]
    assert new.functions[-1].name in removed


def test_provenance_goes_with_the_object(store: cache_mod.Cache) -> None:
    gen = load(store)[0]
    oid = id(gen)
    assert cache_mod.provenance(gen) is not None
    F.facts(gen)
    del gen
    gc.collect()
    assert oid not in cache_mod._MADE_FROM
    assert oid not in F._FACTS


def test_the_audit_leaves_no_cycles_of_its_own(store: cache_mod.Cache) -> None:
    """Everything an audit makes, the generations and their facts included, is freed by reference
    counting once the generations are dropped (so pausing the collector keeps nothing longer)."""
    render(audit_walk(load(store)), "html")  # templates compiled, facts cached
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for fmt in ("text", "md", "json", "html"):
            gens = load(store)
            render(audit_walk(gens), fmt)
            assert all(F.facts(g).gen is g for g in gens)
            del gens
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        kinds = collections.Counter(f"{type(o).__module__}.{type(o).__name__}" for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    ours = {k: n for k, n in kinds.items() if k.startswith(("tpbgen", "pycparser", "jinja2"))}
    assert not ours, f"cycles made of tpbgen objects: {ours}"
    assert sum(kinds.values()) < 100, kinds  # a handful of the json encoder's closure cells
