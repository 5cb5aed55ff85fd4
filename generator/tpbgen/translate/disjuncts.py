"""The top-level disjuncts of a predicate's expression, through the helpers it passes the whole
instruction to: `return A || B || C`, where `A` may itself be a call of a helper whose body is
such a `||`. The chains of the test-bench toolkit (chain.py) and the explain twins of the
top-level validators (validators.py: which alternative applies to a word, by its opcode gate)
split a validator on them."""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from typing import Any

from .analyses import flatten
from .lir import Call, Const, Expr, LFunction, Offset, Return, Var, View


def inline_call(t: Expr, param: str, by_name: dict[str, LFunction]) -> Expr | None:
    """The body of the helper `t` calls, when `t` passes it the whole instruction (and, for any
    further parameter, a constant: `is_valid_x(i, NEURON_CORE_VERSION_V4)`) and the body is one
    `return e`: `e`, its views renamed to `param`, each constant parameter bound to its value."""
    g = by_name.get(t.fn) if isinstance(t, Call) else None
    if not (isinstance(t, Call) and g is not None and _passes_the_word(t, param, g)):
        return None
    body = g.body[0]
    assert isinstance(body, Return) and body.e is not None
    e: Any = body.e
    for p, a in zip(g.params[1:], t.args[1:], strict=True):
        if not isinstance(a, Const) or p.t is None:
            return None
        e = bind(e, p.name, Const(a.value, p.t, a.name))
    if g.params[0].name == param:  # the usual case (`i` both): nothing to rename
        return e  # type: ignore[no-any-return]
    return rename(e, g.params[0].name, param)  # type: ignore[no-any-return]


def _passes_the_word(t: Call, param: str, g: LFunction) -> bool:
    """Whether call `t` of `g` passes the whole instruction `param` first and a constant for
    each scalar parameter after it, and `g` is one `return e`."""
    first = t.args[0] if t.args else None
    return (
        isinstance(first, View)
        and first.buf == param
        and first.offset == Offset(0)
        and len(g.params) == len(t.args)
        and g.params[0].struct is not None
        and all(isinstance(a, Const) for a in t.args[1:])
        and all(p.struct is None and p.t is not None for p in g.params[1:])
        and not g.locals
        and len(g.body) == 1
        and isinstance(g.body[0], Return)
        and g.body[0].e is not None
    )


def bind(node: Any, name: str, value: Const) -> Any:
    """`node` with every use of the scalar parameter `name` (a `Var`) replaced by `value`."""
    if isinstance(node, Var):
        return value if node.name == name else node
    if isinstance(node, tuple):
        return tuple(bind(x, name, value) for x in node)
    if is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: bind(getattr(node, f.name), name, value) for f in fields(node)}
        return replace(node, **changes)
    return node


def disjuncts(e: Expr, param: str, by_name: dict[str, LFunction], depth: int = 0) -> list[Expr]:
    """The operands of `e`'s top-level `||`, a call that passes the whole instruction to a helper
    whose body is such a `||` replaced by its operands, recursively."""
    out: list[Expr] = []
    for d in flatten(e, "or"):
        inner = inline_call(d, param, by_name) if depth < 8 else None
        if inner is not None and len(flatten(inner, "or")) > 1:
            out += disjuncts(inner, param, by_name, depth + 1)
        else:
            out.append(d)
    return out


def rename(node: Any, old: str, new: str) -> Any:
    """`node` with every view of buffer `old` made a view of `new` (the lowered IR is frozen
    dataclasses and tuples)."""
    if isinstance(node, View):
        return replace(
            node, buf=new if node.buf == old else node.buf, offset=rename(node.offset, old, new)
        )
    if isinstance(node, tuple):
        return tuple(rename(x, old, new) for x in node)
    if is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: rename(getattr(node, f.name), old, new) for f in fields(node)}
        return replace(node, **changes)
    return node
