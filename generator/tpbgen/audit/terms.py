"""A validator body as predicate terms: the unit the audit diffs, instead of lines of text.

A C predicate is normalised to one boolean expression (`return e;`, `if (c) return false; ...`,
`if (c) return true; ...`, and `switch (x) { case A: case B: return true; default: return false; }`
are folded), then split into its top-level conjuncts. A conjunct that is itself a disjunction keeps
its arms, so an arm added to `a || b || c` shows as one arm, not as a changed line. Terms are
rendered as C by tpbgen's own printer (ir/cprint.py), so spacing and parenthesisation never show as
changes, and the text does not depend on the installed pycparser.

Polarity (`Polarity`) says whether making a function stricter makes the instructions that reach
it stricter (+1, the usual case), looser (-1, the function is only ever used negated, e.g. an
opcode-class test in `!is_arith(i) || ...`) or either (0).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from pycparser import c_ast  # type: ignore[import-untyped,unused-ignore]

from ..ir import cprint
from ..ir.model import Function

_NEGATED_CMP = {"==": "!=", "!=": "=="}


@dataclass(frozen=True)
class Term:
    """One conjunct of a predicate. `arms` holds a disjunction's arms (two or more), else ()."""

    text: str
    arms: tuple[str, ...] = ()
    kind: str = "cond"  # cond | let (a local declaration the conditions read) | stmt (not foldable)


def render(node: c_ast.Node) -> str:
    """C text of an expression or statement, whitespace collapsed to single spaces."""
    return cprint.render(node)


def _const(node: c_ast.Node | None) -> int | None:
    if isinstance(node, c_ast.Constant) and node.type in (
        "int",
        "unsigned int",
        "long",
        "bool",
        "_Bool",
    ):
        text = node.value.rstrip("uUlL")
        try:
            return int(text, 0)
        except ValueError:
            return None
    if isinstance(node, c_ast.ID) and node.name in ("true", "false"):
        return 1 if node.name == "true" else 0
    if isinstance(node, c_ast.Cast):
        return _const(node.expr)
    return None


def neg(node: c_ast.Node) -> c_ast.Node:
    """The logical negation of a C expression, simplified: `!x` unwrapped, a comparison inverted, a
    constant flipped, else wrapped in `!`. The node is new; `node` is not changed."""
    if isinstance(node, c_ast.UnaryOp) and node.op == "!":
        return node.expr
    if isinstance(node, c_ast.BinaryOp) and node.op in _NEGATED_CMP:
        return c_ast.BinaryOp(_NEGATED_CMP[node.op], node.left, node.right)
    k = _const(node)
    if k is not None:
        return c_ast.Constant("int", "0" if k else "1")
    return c_ast.UnaryOp("!", node)


def _and(a: c_ast.Node, b: c_ast.Node) -> c_ast.Node:
    ka, kb = _const(a), _const(b)
    if ka is not None:
        return b if ka else a
    if kb is not None:
        return a if kb else b
    return c_ast.BinaryOp("&&", a, b)


def _or(a: c_ast.Node, b: c_ast.Node) -> c_ast.Node:
    ka, kb = _const(a), _const(b)
    if ka is not None:
        return a if ka else b
    if kb is not None:
        return b if kb else a
    return c_ast.BinaryOp("||", a, b)


class _Opaque(Exception):
    """A statement the folding does not understand: the rest of the body stays statements."""


def _items(stmt: c_ast.Node | None) -> list[c_ast.Node]:
    if stmt is None:
        return []
    if isinstance(stmt, c_ast.Compound):
        return list(stmt.block_items or [])
    return [stmt]


def _any(nodes: Iterable[c_ast.Node]) -> c_ast.Node:
    expr: c_ast.Node = c_ast.Constant("int", "0")
    for n in nodes:
        expr = _or(expr, n)
    return expr


def _all(nodes: Iterable[c_ast.Node]) -> c_ast.Node:
    expr: c_ast.Node = c_ast.Constant("int", "1")
    for n in nodes:
        expr = _and(expr, n)
    return expr


def _switch_expr(switch: c_ast.Switch) -> tuple[c_ast.Node, c_ast.Node | None]:
    """A switch whose every case group returns: (its value as a disjunction of
    `x == label [&& value]` arms, the condition under which it falls through to what follows,
    None when it has a default)."""
    groups = _case_groups(switch)
    every = [lab for g in groups for lab in g[0]]
    arms: list[c_ast.Node] = []
    has_default = False
    for labs, dflt, value in groups:
        if dflt:
            has_default = True
            others = [lab for lab in every if lab not in labs]
            cond = _all(c_ast.BinaryOp("!=", switch.cond, lab) for lab in others)
        else:
            cond = _any(c_ast.BinaryOp("==", switch.cond, lab) for lab in labs)
        k = _const(value)
        if k == 0:
            continue
        arms.append(cond if k is not None else _and(cond, value))
    fall = None if has_default else _all(c_ast.BinaryOp("!=", switch.cond, lab) for lab in every)
    return _any(arms), fall


def _case_groups(switch: c_ast.Switch) -> list[tuple[list[c_ast.Node], bool, c_ast.Node]]:
    """The switch body as (case labels, whether `default` is among them, the returned value)
    per group of labels sharing one `return <value>;`; _Opaque for anything else (a statement
    outside a case, a group that does not start with a valued return, labels at the end)."""
    groups: list[tuple[list[c_ast.Node], bool, c_ast.Node]] = []
    labels: list[c_ast.Node] = []
    is_default = False
    for item in _items(switch.stmt):
        if isinstance(item, c_ast.Case):
            labels.append(item.expr)
        elif isinstance(item, c_ast.Default):
            is_default = True
        else:
            raise _Opaque
        body = list(item.stmts or [])
        if not body:
            continue
        if not isinstance(body[0], c_ast.Return) or body[0].expr is None:
            raise _Opaque
        groups.append((labels, is_default, body[0].expr))
        labels, is_default = [], False
    if labels or is_default:
        raise _Opaque
    return groups


def _fold(stmts: list[c_ast.Node], lets: list[c_ast.Node]) -> c_ast.Node:
    """The boolean value of running `stmts`; local declarations are collected into `lets`."""
    if not stmts:
        raise _Opaque
    s, rest = stmts[0], stmts[1:]
    if isinstance(s, c_ast.Return):
        if s.expr is None:
            raise _Opaque
        return s.expr
    if isinstance(s, c_ast.Compound):
        return _fold(_items(s) + rest, lets)
    if isinstance(s, c_ast.EmptyStatement):
        return _fold(rest, lets)
    if isinstance(s, c_ast.Decl) and s.init is not None:
        lets.append(s)
        return _fold(rest, lets)
    if isinstance(s, c_ast.Switch):
        sw, fall = _switch_expr(s)
        if fall is None:
            return sw
        return _or(sw, _and(fall, _fold(rest, lets)))
    if isinstance(s, c_ast.If):
        then_items = _items(s.iftrue)
        if len(then_items) == 1 and isinstance(then_items[0], c_ast.Return) and s.iffalse is None:
            k = _const(then_items[0].expr)
            if k == 0:
                return _and(neg(s.cond), _fold(rest, lets) if rest else c_ast.Constant("int", "1"))
            if k == 1:
                return _or(s.cond, _fold(rest, lets) if rest else c_ast.Constant("int", "0"))
            if rest:
                tail = _fold(rest, lets)
                return _or(_and(s.cond, then_items[0].expr), _and(neg(s.cond), tail))
            raise _Opaque
        if s.iffalse is not None:
            t = _fold(then_items + rest, lets)
            f = _fold(_items(s.iffalse) + rest, lets)
            return _or(_and(s.cond, t), _and(neg(s.cond), f))
        raise _Opaque
    raise _Opaque


def _flatten(node: c_ast.Node, op: str) -> Iterator[c_ast.Node]:
    if isinstance(node, c_ast.BinaryOp) and node.op == op:
        yield from _flatten(node.left, op)
        yield from _flatten(node.right, op)
    else:
        yield node


def expression_terms(expr: c_ast.Node) -> list[Term]:
    """The conjuncts of an expression, each with its arms when it is a disjunction."""
    out: list[Term] = []
    for conj in _flatten(expr, "&&"):
        arms = tuple(render(a) for a in _flatten(conj, "||"))
        out.append(Term(render(conj), arms if len(arms) > 1 else ()))
    return out


def _funcdef(fn: Function) -> c_ast.FuncDef:
    node = fn.code.as_node()
    assert isinstance(node, c_ast.FuncDef)
    return node


def function_terms(fn: Function) -> list[Term]:
    """The conjunct terms of a function body, in body order."""
    fd = _funcdef(fn)
    stmts = _items(fd.body)
    lets: list[c_ast.Node] = []
    try:
        expr = _fold(stmts, lets)
    except _Opaque:
        return [Term(render(s), (), "stmt") for s in stmts]
    terms = [Term(render(d), (), "let") for d in lets]
    return terms + expression_terms(expr)


_COORD = re.compile(r'"coord":"[^"]*",?')


def canonical_body(fn: Function) -> str:
    """The body without source coordinates: equal strings mean equal code. (Serialised by the C
    encoder, then the coordinates cut out: several times faster than stripping the tree first.)"""
    return _COORD.sub("", json.dumps(fn.body.get("body"), sort_keys=True, separators=(",", ":")))


def call_signs(fn: Function) -> dict[str, set[int]]:
    """Sign of each call site in `fn`: +1 under an even number of negations of the result,
    -1 under an odd number, 0 when the result is compared, passed on, or the body did not fold."""
    fd = _funcdef(fn)
    signs: dict[str, set[int]] = {}
    lets: list[c_ast.Node] = []
    root: c_ast.Node | None
    try:
        root = _fold(_items(fd.body), lets)
    except _Opaque:
        root = None

    def walk(node: c_ast.Node | None, sign: int) -> None:
        if node is None:
            return
        if isinstance(node, c_ast.UnaryOp) and node.op == "!":
            walk(node.expr, -sign)
            return
        if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
            walk(node.left, sign)
            walk(node.right, sign)
            return
        if isinstance(node, c_ast.FuncCall):
            if isinstance(node.name, c_ast.ID):
                signs.setdefault(node.name.name, set()).add(sign)
            walk(node.args, 0)
            return
        if isinstance(node, c_ast.TernaryOp):
            walk(node.cond, 0)
            walk(node.iftrue, sign)
            walk(node.iffalse, sign)
            return
        for _, child in node.children():
            walk(child, 0)

    def stmt(node: c_ast.Node | None) -> None:
        """An unfolded body: what a `return` yields is the value (+1); conditions are mixed."""
        if node is None:
            return
        if isinstance(node, c_ast.Return):
            walk(node.expr, 1)
        elif isinstance(node, c_ast.If):
            walk(node.cond, 0)
            stmt(node.iftrue)
            stmt(node.iffalse)
        elif isinstance(node, c_ast.Switch):
            walk(node.cond, 0)
            stmt(node.stmt)
        elif isinstance(node, (c_ast.Compound, c_ast.Case, c_ast.Default)):
            for _, child in node.children():
                if isinstance(node, c_ast.Case) and child is node.expr:
                    continue
                stmt(child)
        else:
            walk(node, 0)

    if root is not None:
        walk(root, 1)
        for d in lets:
            walk(d, 0)
    else:
        stmt(fd.body)
    return signs


class Polarity:
    """Effective polarity of a function: the product of call-site signs along every path from a
    function nobody calls (a top-level validator, +1); disagreeing paths give 0. Callers come from
    the IR's call lists, so only the bodies on the paths above the asked-for function are folded."""

    def __init__(
        self,
        functions: Iterable[Function],
        site_signs: Callable[[Function], dict[str, set[int]]] | None = None,
    ) -> None:
        self.fns = {f.name: f for f in functions}
        self._signs_of = site_signs or call_signs
        self.callers: dict[str, list[str]] = {n: [] for n in self.fns}
        for f in self.fns.values():
            for callee in f.calls:
                if callee in self.callers and callee != f.name:
                    self.callers[callee].append(f.name)
        self._signs: dict[str, dict[str, set[int]]] = {}
        self._memo: dict[str, int] = {}
        self._active: set[str] = set()

    def _site_signs(self, caller: str) -> dict[str, set[int]]:
        if caller not in self._signs:
            self._signs[caller] = self._signs_of(self.fns[caller])
        return self._signs[caller]

    def __call__(self, name: str) -> int:
        if name not in self.fns:
            return 1
        if name in self._memo:
            return self._memo[name]
        if name in self._active:
            return 0
        self._active.add(name)
        got: set[int] = set()
        if not self.callers[name]:
            got.add(1)
        for caller in self.callers[name]:
            up = self(caller)
            for sgn in self._site_signs(caller).get(name, {0}):
                got.add(sgn * up)
        self._active.discard(name)
        self._memo[name] = got.pop() if len(got) == 1 else 0
        return self._memo[name]


# -- the structural diff ------------------------------------------------------------------------
@dataclass(frozen=True)
class TermChange:
    op: str  # "+" a conjunct added, "-" removed, "~" a disjunction whose arms changed
    text: str  # the conjunct (for "~": as in NEW)
    kind: str  # cond | let | stmt
    arms: tuple[tuple[str, str], ...] = ()  # for "~": ("+"|"-", arm text)
    old_text: str = ""  # for "~": the conjunct as in OLD

    def to_json(self) -> dict[str, Any]:
        """The change as the JSON report writes it; an edited term (`~`) also carries its old text
        and how each arm changed."""
        d: dict[str, Any] = {"op": self.op, "text": self.text, "kind": self.kind}
        if self.op == "~":
            d["old_text"] = self.old_text
            d["arms"] = [{"op": o, "text": t} for o, t in self.arms]
        return d


def _multiset_minus(a: list[Term], b: list[Term]) -> list[Term]:
    left = list(b)
    out: list[Term] = []
    for t in a:
        if t in left:
            left.remove(t)
        else:
            out.append(t)
    return out


def diff_terms(old: list[Term], new: list[Term]) -> list[TermChange]:
    """Conjuncts removed and added (as multisets: order is not a change); a removed and an
    added disjunction that share an arm are shown as one conjunct whose arms changed."""
    removed = _multiset_minus(old, new)
    added = _multiset_minus(new, old)
    changes: list[TermChange] = []
    paired_old: set[int] = set()
    for a in added:
        best, best_common = -1, 0
        a_arms = a.arms or (a.text,)
        for j, r in enumerate(removed):
            if j in paired_old or r.kind != a.kind or not (a.arms or r.arms):
                continue
            common = len(set(a_arms) & set(r.arms or (r.text,)))
            if common > best_common:
                best, best_common = j, common
        if best >= 0:
            r = removed[best]
            r_arms = r.arms or (r.text,)
            paired_old.add(best)
            arm_changes = tuple(("-", x) for x in r_arms if x not in a_arms) + tuple(
                ("+", x) for x in a_arms if x not in r_arms
            )
            changes.append(TermChange("~", a.text, a.kind, arm_changes, r.text))
        else:
            changes.append(TermChange("+", a.text, a.kind))
    for j, r in enumerate(removed):
        if j not in paired_old:
            changes.append(TermChange("-", r.text, r.kind))
    order = {"-": 0, "~": 1, "+": 2}
    return sorted(changes, key=lambda c: order[c.op]) if changes else []


def stricter_looser(change: TermChange) -> tuple[bool, bool]:
    """(can reject more, can accept more) for the function the change is in."""
    if change.kind != "cond":
        return True, True
    if change.op == "+":
        return True, False
    if change.op == "-":
        return False, True
    ops = {o for o, _ in change.arms}
    return "-" in ops, "+" in ops


def effect(changes: Iterable[TermChange], polarity: int, boolean: bool) -> str:
    """stricter | looser | both, for the instructions validated through this function."""
    s = l_ = False
    for c in changes:
        a, b = stricter_looser(c)
        s, l_ = s or a, l_ or b
    if not boolean or polarity == 0:
        return "both" if (s or l_) else "none"
    if polarity < 0:
        s, l_ = l_, s
    if s and l_:
        return "both"
    return "stricter" if s else ("looser" if l_ else "none")


def term_changes_json(changes: Iterable[TermChange]) -> list[dict[str, Any]]:
    """A list of term changes as the JSON report writes it."""
    return [c.to_json() for c in changes]


def describe_polarity(p: int) -> str:
    """A polarity (+1, -1, 0) as the report words it."""
    return {1: "positive", -1: "negative", 0: "mixed"}[p]
