"""The chain of a top-level validator: the terms of its `return a && b && ...` (one term, the
whole body, when the body is anything else), each named by its C text and lowered to a function
of its own, for the runtime's test-bench toolkit (stimulus, near misses, coverage); and the
integer constants the predicates it reaches compare against, the value pools its stimulus draws
from. Decided here from the lowered IR; the templates only place the results."""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from ..ir.model import Generation
from .analyses import body_exprs, calls, children, conjuncts
from .lir import Call, Const, Expr, LFunction, Offset, Return, View, strip_parens
from .to_python import PyEmitter
from .validators import INST_UNION, TopValidator, TranslatedGen


@dataclass(frozen=True)
class ChainTerm:
    name: str  # the term's C text, unique within its chain ("mem3d_valid(dst_mem_pattern, ...)")
    fn: LFunction  # the term as a function of the validator's parameters


@dataclass(frozen=True)
class Chain:
    validator: str
    terms: tuple[ChainTerm, ...]
    constants: tuple[int, ...]  # every integer constant the reachable predicates name, sorted


def chains(gen: Generation, tr: TranslatedGen) -> tuple[Chain, ...]:
    """One chain per translated top-level validator, in `tr.top` order."""
    by_name = {f.name: f for f in tr.lowered}
    out = []
    for top in tr.top:
        lf = by_name.get(top.name)
        if lf is None:  # an UntranslatedPredicate stub: no body to split
            continue
        out.append(Chain(top.name, _terms(gen, lf, top, tr.lowered), _constants(lf, by_name)))
    return tuple(out)


def _terms(
    gen: Generation, lf: LFunction, top: TopValidator, lowered: tuple[LFunction, ...]
) -> tuple[ChainTerm, ...]:
    body = lf.body
    if not (len(body) == 1 and isinstance(body[0], Return) and body[0].e is not None):
        return (ChainTerm(f"{lf.name}(...)", lf),)
    names = _field_names(gen, top.struct)
    em = PyEmitter(arms=frozenset({top.struct}) if top.struct else frozenset())
    out: list[ChainTerm] = []
    seen: dict[str, int] = {}
    by_name = {f.name: f for f in lowered}
    for k, (prefix, term) in enumerate(_flat(conjuncts(body[0].e), lf.params[0].name, by_name, "")):
        name = prefix + strip_parens(_text(em, term, names))
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name = f"{name} #{seen[name]}"
        fn = LFunction(
            f"{lf.name}__term{k}",
            lf.params,
            lf.returns,
            (Return(term, body[0].line),),
            (),
            lf.loc,
            tuple(calls(term)),
        )
        out.append(ChainTerm(name, fn))
    return tuple(out)


def _flat(
    terms: list[Expr], param: str, by_name: dict[str, LFunction], prefix: str, depth: int = 0
) -> list[tuple[str, Expr]]:
    """The terms, with a call that passes the whole instruction on to a helper whose body is
    itself a `&&` chain replaced by that chain's terms (named `helper(i) > term`), recursively:
    the finer rules a near miss can fail and coverage counts."""
    out: list[tuple[str, Expr]] = []
    for t in terms:
        g = by_name.get(t.fn) if isinstance(t, Call) else None
        if (
            isinstance(t, Call)
            and g is not None
            and depth < 8
            and len(t.args) == 1
            and isinstance(t.args[0], View)
            and t.args[0].buf == param
            and t.args[0].offset == Offset(0)
            and len(g.params) == 1
            and g.params[0].struct is not None
            and not g.locals
            and len(g.body) == 1
            and isinstance(g.body[0], Return)
            and g.body[0].e is not None
            and len(conjuncts(g.body[0].e)) > 1
        ):
            inner = [_rename(x, g.params[0].name, param) for x in conjuncts(g.body[0].e)]
            out += _flat(inner, param, by_name, f"{prefix}{t.fn}({param}) > ", depth + 1)
        else:
            out.append((prefix, t))
    return out


def _rename(node: Any, old: str, new: str) -> Any:
    """`node` with every view of buffer `old` made a view of `new` (the lowered IR is frozen
    dataclasses and tuples)."""
    if isinstance(node, View):
        return replace(
            node, buf=new if node.buf == old else node.buf, offset=_rename(node.offset, old, new)
        )
    if isinstance(node, tuple):
        return tuple(_rename(x, old, new) for x in node)
    if is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: _rename(getattr(node, f.name), old, new) for f in fields(node)}
        return replace(node, **changes)
    return node


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


def _constants(lf: LFunction, by_name: dict[str, LFunction]) -> tuple[int, ...]:
    found: set[int] = set()
    seen: set[str] = set()
    todo = [lf.name]
    while todo:
        name = todo.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        for e in body_exprs(by_name[name].body):
            stack: list[Expr | View] = [e]
            while stack:
                x = stack.pop()
                if (
                    isinstance(x, Const)
                    and isinstance(x.value, int)
                    and not isinstance(x.value, bool)
                ):
                    found.add(x.value & 0xFFFFFFFF if x.value < 0 else x.value)
                if isinstance(x, Call):
                    todo.append(x.fn)
                stack += children(x)
    return tuple(sorted(v for v in found if 0 <= v < 1 << 32))
