"""The chain of a top-level validator: the terms of its `return a && b && ...` (one term, the
whole body, when the body is anything else), each named by its C text and lowered to a function
of its own, for the runtime's test-bench toolkit (stimulus, near misses, coverage); and the
integer constants the predicates it reaches compare against, the value pools its stimulus draws
from. Decided here from the lowered IR; the templates only place the results.

Disjunctions are split two ways. A body `return A || B || C` (helpers that pass the word on and
are themselves such a `||`, inlined) is one *alternative* per disjunct, each with its own terms:
a word is valid when every term of one alternative holds. A term that is itself a disjunction
(`!bitvec(i) || (int(a) && int(b))`, or a call passing the word to a helper whose body is one)
with a disjunct of several conjuncts is *split*: its disjuncts' conjuncts become sub-terms the
search can satisfy one at a time (one field each) where the whole term needs several at once.
"""

from __future__ import annotations

import contextlib
import struct as _struct
from dataclasses import dataclass

from ..ir.model import Generation
from .analyses import body_exprs, calls, children, conjuncts
from .disjuncts import disjuncts, inline_call
from .lir import Call, Const, Expr, LFunction, Return, View, strip_parens
from .to_python import PyEmitter
from .validators import INST_UNION, TopValidator, TranslatedGen


@dataclass(frozen=True)
class ChainTerm:
    name: str  # the term's C text, unique within its chain ("mem3d_valid(dst_mem_pattern, ...)")
    fn: LFunction  # the term as a function of the validator's parameters


@dataclass(frozen=True)
class Split:
    """Term `term` of a chain (an index into its terms) as the disjunction it is: for each
    disjunct, its conjuncts."""

    term: int
    disjuncts: tuple[tuple[ChainTerm, ...], ...]


@dataclass(frozen=True)
class Chain:
    validator: str
    terms: tuple[ChainTerm, ...]
    constants: tuple[int, ...]  # every integer constant the reachable predicates name, sorted
    # (C text of the top-level disjunct, the indices of its terms): ("", all) for a body that is
    # no top-level `||`
    alternatives: tuple[tuple[str, tuple[int, ...]], ...]
    splits: tuple[Split, ...]


# the last answers, by generation name: the predicate proof and the renderer ask for the same
# (generation, translation) in one run (both immutable, so the answer is theirs while they live);
# `generate` forgets them when done
_LAST: dict[str, tuple[Generation, TranslatedGen, tuple[Chain, ...]]] = {}
_KEEP = 8


def chains(gen: Generation, tr: TranslatedGen) -> tuple[Chain, ...]:
    """One chain per translated top-level validator, in `tr.top` order (the answer of the last
    call on these very objects, when it is kept)."""
    last = _LAST.get(gen.name)
    if last is not None and last[0] is gen and last[1] is tr:
        return last[2]
    found = _chains(gen, tr)
    _LAST.pop(gen.name, None)
    if len(_LAST) >= _KEEP:
        del _LAST[next(iter(_LAST))]
    _LAST[gen.name] = (gen, tr, found)
    return found


def forget() -> None:
    """Drop the kept answers (and the generations they hold): `generate` does when done, so a
    process does not keep them, nor pay for freeing them at exit."""
    _LAST.clear()


def _chains(gen: Generation, tr: TranslatedGen) -> tuple[Chain, ...]:
    by_name = {f.name: f for f in tr.lowered}
    memo: dict[str, tuple[frozenset[int], tuple[str, ...]]] = {}
    out = []
    for top in tr.top:
        lf = by_name.get(top.name)
        if lf is None:  # an UntranslatedPredicate stub: no body to split
            continue
        terms, alts, splits = _terms(gen, lf, top, tr.lowered)
        out.append(Chain(top.name, terms, _constants(lf, by_name, memo), alts, splits))
    return tuple(out)


def _terms(
    gen: Generation, lf: LFunction, top: TopValidator, lowered: tuple[LFunction, ...]
) -> tuple[tuple[ChainTerm, ...], tuple[tuple[str, tuple[int, ...]], ...], tuple[Split, ...]]:
    """The terms of a top-level validator `lf`: one per conjunct of its `return` (helpers that
    pass the word on are inlined), the alternatives of a top-level `||` (each its C text and the
    indices of its terms), and the terms that are themselves disjunctions split into their
    disjuncts' conjuncts; a body other than one `return` is a single opaque term."""
    body = lf.body
    if not (len(body) == 1 and isinstance(body[0], Return) and body[0].e is not None):
        return (ChainTerm(f"{lf.name}(...)", lf),), (("", (0,)),), ()
    line = body[0].line
    names = _field_names(gen, top.struct)
    em = PyEmitter(arms=frozenset({top.struct}) if top.struct else frozenset())
    param = lf.params[0].name
    by_name = {f.name: f for f in lowered}
    seen: dict[str, int] = {}

    def term(k: str, prefix: str, e: Expr) -> ChainTerm:
        name = prefix + strip_parens(_text(em, e, names))
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name = f"{name} #{seen[name]}"
        fn = LFunction(
            f"{lf.name}__{k}",
            lf.params,
            lf.returns,
            (Return(e, line),),
            (),
            lf.loc,
            tuple(calls(e)),
        )
        return ChainTerm(name, fn)

    alts = disjuncts(body[0].e, param, by_name)
    if len(alts) == 1:
        alts = [body[0].e]
    out: list[ChainTerm] = []
    groups: list[tuple[str, tuple[int, ...]]] = []
    splits: list[Split] = []
    for alt in alts:
        label = strip_parens(_text(em, alt, names)) if len(alts) > 1 else ""
        first = len(out)
        for prefix, e in _flat(conjuncts(alt), param, by_name, ""):
            k = len(out)
            out.append(term(f"term{k}", prefix, e))
            ds = disjuncts(e, param, by_name)
            if len(ds) > 1 and any(len(conjuncts(d)) > 1 for d in ds):
                splits.append(
                    Split(
                        k,
                        tuple(
                            tuple(
                                term(f"term{k}_{a}_{b}", pre, x)
                                for b, (pre, x) in enumerate(
                                    _flat(conjuncts(d), param, by_name, "")
                                )
                            )
                            for a, d in enumerate(ds)
                        ),
                    )
                )
        groups.append((label, tuple(range(first, len(out)))))
    return tuple(out), tuple(groups), tuple(splits)


def _flat(
    terms: list[Expr], param: str, by_name: dict[str, LFunction], prefix: str, depth: int = 0
) -> list[tuple[str, Expr]]:
    """The terms, with a call that passes the whole instruction on to a helper whose body is
    itself a `&&` chain replaced by that chain's terms (named `helper(i) > term`), recursively:
    the finer rules a near miss can fail and coverage counts."""
    out: list[tuple[str, Expr]] = []
    for t in terms:
        inner = inline_call(t, param, by_name) if depth < 8 else None
        if isinstance(t, Call) and inner is not None and len(conjuncts(inner)) > 1:
            out += _flat(conjuncts(inner), param, by_name, f"{prefix}{t.fn}({param}) > ", depth + 1)
        else:
            out.append((prefix, t))
    return out


def _text(em: PyEmitter, e: Expr | View, names: dict[int, str]) -> str:
    """C text of a term; a struct argument is named by the field it is (`dst_mem_pattern`), the
    whole instruction by its parameter."""
    if isinstance(e, Call):
        args = []
        for a in e.args:
            if isinstance(a, View):
                off = a.offset.const if not a.offset.terms else -1
                args.append(names.get(off, a.buf if off == 0 else f"{a.buf}+{off}"))
            else:
                args.append(em.c_text(a))
        return f"{e.fn}({', '.join(args)})"
    return em.c_text(e)


def _field_names(gen: Generation, arm: str) -> dict[int, str]:
    """Byte offset -> name of the top-level fields of an instruction-union arm's struct."""
    union = next((s for s in gen.structs if s.name == INST_UNION), None)
    if union is None or not arm:
        return {}
    st_name = next((f.type.name for f in union.fields if f.name == arm), "")
    st = next((s for s in gen.structs if s.name == st_name), None)
    if st is None:
        return {}
    out: dict[int, str] = {}
    for f in st.fields:
        if f.offset and f.offset not in out:
            out[f.offset] = f.name
    return out


def _constants(
    lf: LFunction,
    by_name: dict[str, LFunction],
    memo: dict[str, tuple[frozenset[int], tuple[str, ...]]],
) -> tuple[int, ...]:
    found: set[int] = set()
    seen: set[str] = set()
    todo = [lf.name]
    while todo:
        name = todo.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        if name not in memo:  # each function walked once per `chains` call
            memo[name] = _own_constants(by_name[name])
        own, callees = memo[name]
        found |= own
        todo += callees
    return tuple(sorted(v for v in found if 0 <= v < 1 << 32))


def _float_bits(v: float) -> set[int]:
    """The fp32 bit patterns of a float literal and of its negation (a predicate may compare a
    float field with a literal exactly, as `fill_val == -FLT_MAX`, which no random bits reach;
    the sign is taken both ways as a literal's minus may be a separate negation); none for a
    value fp32 cannot hold."""
    out: set[int] = set()
    for x in (v, -v):
        with contextlib.suppress(OverflowError):
            out.add(_struct.unpack("<I", _struct.pack("<f", x))[0])
    return out


def _own_constants(fn: LFunction) -> tuple[frozenset[int], tuple[str, ...]]:
    """The integer constants one function's body names (as unsigned 32-bit; a float literal as
    its fp32 bits, `_float_bits`), and the functions it calls."""
    found: set[int] = set()
    callees: list[str] = []
    for e in body_exprs(fn.body):
        stack: list[Expr | View] = [e]
        while stack:
            x = stack.pop()
            if isinstance(x, Const) and isinstance(x.value, int) and not isinstance(x.value, bool):
                found.add(x.value & 0xFFFFFFFF if x.value < 0 else x.value)
            elif isinstance(x, Const) and isinstance(x.value, float):
                found |= _float_bits(x.value)
            if isinstance(x, Call):
                callees.append(x.fn)
            stack += children(x)
    return frozenset(found), tuple(callees)
