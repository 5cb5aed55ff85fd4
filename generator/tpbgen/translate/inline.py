"""Small helper predicates written into their callers (the scalar translation's speed, issue 28).

A call costs the scalar code more than most of the helpers it reaches: a word went through ~100
Python calls, most of them of one-line predicates (`addr_in_psum`, `is_valid_aluop`, an enum's
membership test). `Inliner` turns a lowered function whose body is one expression (a `return`,
an if/return chain, a switch of constant returns) into that expression, and a call of it into
the expression with the arguments in place of the parameters, when that cannot change what the
caller computes:

- the callee has no locals (its every variable is a parameter) and does not reach itself;
- each argument has the parameter's type, and the expression the call's;
- an argument the expression reads more than once is cheap to read again (a constant, a local,
  a byte of the word); every argument is total (it cannot raise: no call, no division, no table,
  no float, no variable shift and no element chosen at run time), so one the expression reads
  under a condition, or not at all, differs only in work.

The back end asks `inline(call)` and renders what it gets back as it renders any expression
(nested calls are asked again); the helpers keep their own definitions (explain, the public
names, other callers).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace

from .analyses import always_returns, children, flatten
from .c_semantics import BOOL, ScalarType, fits
from .lir import (
    EXPR_NODES,
    Assign,
    Binary,
    Call,
    Compare,
    Cond,
    Const,
    Conv,
    Expr,
    If,
    Index,
    LFunction,
    Load,
    Logical,
    Loop,
    Not,
    Offset,
    Return,
    Stmt,
    Switch,
    Unary,
    Var,
    View,
    covers,
    dispatch,
)

#: the most lowered nodes a callee's expression may have (its own inlined calls counted) to be
#: written into a caller: the one-line helpers, not whole validators
MAX_NODES = 40
#: the most nodes a call may have for its rewrite to be kept by its text (Inliner._written)
KEYED_NODES = 64


def body_expr(f: LFunction) -> Expr | None:
    """`f`'s body as one expression, or None: `return e`; `if (c) return a; <rest>` as
    `c ? a : rest`; a switch whose every case returns a constant as a chain of conditions
    (the switched value compared with each case's labels); the end of a body that can reach it
    as the translation's own `return False` / `return 0`."""
    return _stmts_expr(f.body, f.returns)


def _stmts_expr(body: tuple[Stmt, ...], ret: ScalarType) -> Expr | None:
    """The value `body` returns as one expression of type `ret` (see `body_expr`), or None
    when it is not of that shape (a local, a loop, a case that does more than return)."""
    if not body:  # the end of the body: what the translation returns there
        return Const(0, ret)
    s, rest = body[0], body[1:]
    if isinstance(s, Return):
        return s.e if s.e is not None and s.e.t == ret else None
    if isinstance(s, If):
        return _if_expr(s, rest, ret)
    if isinstance(s, Switch):
        return _switch_expr(s, rest, ret)
    return None


def _if_expr(s: If, rest: tuple[Stmt, ...], ret: ScalarType) -> Expr | None:
    """`if (c) return a; <rest>` as `c ? a : rest` (the else branch runs into `rest`)."""
    then = _stmts_expr(s.then, ret) if always_returns(s.then) else None
    if then is None:
        return None
    other = _stmts_expr(s.orelse + rest, ret)
    if other is None:
        return None
    return Cond(s.c, then, other, ret)


def _switch_arms(
    s: Switch, default: Expr | None, ret: ScalarType
) -> tuple[list[tuple[tuple[int, ...], Const]], Expr | None] | None:
    """A switch's cases as (labels, constant returned), and its default (`default` where it
    has no `default:` case); None if a case does more than return a constant of type `ret`."""
    arms: list[tuple[tuple[int, ...], Const]] = []
    for labels, case in s.cases:
        if len(case) != 1 or not isinstance(case[0], Return):
            return None
        value = case[0].e
        if not isinstance(value, Const) or value.t != ret:
            return None
        if labels is None:
            default = value
        else:
            arms.append((labels, value))
    return arms, default


def _switch_expr(s: Switch, rest: tuple[Stmt, ...], ret: ScalarType) -> Expr | None:
    """A switch whose every case returns a constant, as a chain of conditions (a bool's as one
    membership test); the code after it is its default's value."""
    if rest and any(labels is None for labels, _ in s.cases):
        return None  # unreachable code after a switch that always returns: leave it be
    got = _switch_arms(s, _stmts_expr(rest, ret), ret)
    if got is None:
        return None
    arms, default = got
    if default is None:
        return None
    if ret == BOOL and isinstance(default, Const):
        # as the translation writes such a switch: one membership test
        want = not default.value
        picked = [lab for labels, v in arms if bool(v.value) == want for lab in labels]
        if not picked:
            return default
        test = _any_of(s.e, picked) if want else Not(_any_of(s.e, picked))
        return test
    out = default
    for labels, value in reversed(arms):
        out = Cond(_any_of(s.e, list(labels)), value, out, ret)
    return out


def _any_of(e: Expr, labels: list[int]) -> Expr:
    """`e == l1 || e == l2 ...` (the translation writes it `e in (l1, l2, ...)`)."""
    out: Expr = Compare("==", e, Const(labels[0], e.t))
    for lab in labels[1:]:
        out = Logical("or", out, Compare("==", e, Const(lab, e.t)))
    return out


def size(e: Expr | View) -> int:
    """Lowered nodes in `e`."""
    return 1 + sum(size(c) for c in children(e))


def _member_of(e: Logical) -> Expr | None:
    """The value `x` of `x == A || x == B ...` (`x != A && ...`), which the translation writes
    as one membership test, else None."""
    cmp = "==" if e.op == "or" else "!="
    terms = flatten(e, e.op)
    first = terms[0]
    if not isinstance(first, Compare):
        return None
    for t in terms:
        if not (
            isinstance(t, Compare) and t.op == cmp and isinstance(t.b, Const) and t.a == first.a
        ):
            return None
    return first.a


def total(e: Expr | View) -> bool:
    """Can evaluating `e` not raise? No call, table, float, division, variable shift or
    element chosen at run time."""
    if isinstance(e, View):
        return not e.offset.terms
    if e.t.kind == "float" or isinstance(e, (Call, Index)):
        return False
    if isinstance(e, Load) and e.view.offset.terms:
        return False
    if isinstance(e, Binary) and (
        e.op in ("/", "%")
        or (e.op in ("<<", ">>") and not (isinstance(e.b, Const) and 0 <= e.b.value < 4096))
    ):
        return False
    return all(total(c) for c in children(e))


def cheap(e: Expr | View) -> bool:
    """Is `e` as cheap to read twice as to keep (a constant, a local, a byte of the word)?"""
    if isinstance(e, (Const, Var)):
        return True
    if isinstance(e, View):
        return not e.offset.terms
    if isinstance(e, Load):
        return (
            e.t.kind == "int"
            and e.t.bits == 8
            and not e.t.signed
            and e.bit_width is None
            and not e.view.offset.terms
        )
    if isinstance(e, Conv):
        return fits(e.e.t, e.t) and cheap(e.e)
    return False


@dataclass
class Inliner:
    """The inlinable functions of a generation and the calls of them written out."""

    lowered: list[LFunction]
    max_nodes: int = MAX_NODES
    _fns: dict[str, LFunction] = field(default_factory=dict)
    _exprs: dict[str, Expr] = field(default_factory=dict)
    _sizes: dict[str, int | None] = field(default_factory=dict)
    # the rewrite of each call of at most KEYED_NODES nodes, by its repr (every field of every
    # node, a float's exact value included): the validators of a generation call the same
    # helpers on the same fields, and over half the calls a cold translation wrote out had
    # been written out before. (A bigger call is not keyed: its repr at every level of a deep
    # nest of calls would cost the square of its size.)
    _written: dict[str, Expr] = field(default_factory=dict)
    # the depth of every node `function` measured, by identity (the node kept alive here, so an
    # id is not reused): a call written out once recurs, the same object, in many statements
    _depths: dict[int, tuple[Expr | View, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._fns = {f.name: f for f in self.lowered}
        for f in self.lowered:
            e = body_expr(f)
            if e is not None and not f.locals and self._only_params(e, f):
                self._exprs[f.name] = e

    @staticmethod
    def _only_params(e: Expr | View, f: LFunction) -> bool:
        names = {p.name for p in f.params}
        views = {p.name for p in f.params if p.struct is not None}
        if isinstance(e, Var):
            return e.name in names and e.name not in views
        if isinstance(e, View):
            return e.buf in views and all(Inliner._only_params(t, f) for t, _ in e.offset.terms)
        if isinstance(e, Load):
            return Inliner._only_params(e.view, f)
        return all(Inliner._only_params(c, f) for c in children(e))

    def expanded_size(self, name: str, stack: tuple[str, ...] = ()) -> int | None:
        """Nodes of `name`'s expression with its own inlinable calls counted written out; None
        when it is not inlinable (no expression form, reaches itself, or too big)."""
        if name in stack:
            return None
        if name in self._sizes:
            return self._sizes[name]
        e = self._exprs.get(name)
        out: int | None = None
        if e is not None:
            n = self._count(e, (*stack, name))
            out = n if n is not None and n <= self.max_nodes else None
        if not stack or out is not None:
            self._sizes[name] = out
        return out

    def _count(self, e: Expr | View, stack: tuple[str, ...]) -> int | None:
        if isinstance(e, Call):
            if e.fn in stack:
                return None
            inner = self.expanded_size(e.fn, stack) if e.fn in self._exprs else None
            args = [self._count(a, stack) for a in e.args]
            if any(a is None for a in args):
                return None
            return (inner if inner is not None else 1) + sum(a for a in args if a is not None)
        if isinstance(e, Logical) and (x := _member_of(e)) is not None:
            n = self._count(x, stack)  # one membership test, whatever its constants
            return None if n is None else 1 + n
        parts = [self._count(c, stack) for c in children(e)]
        if any(p is None for p in parts):
            return None
        return 1 + sum(p for p in parts if p is not None)

    def inline(self, call: Call) -> Expr | None:
        """`call` written out (the callee's expression, arguments for parameters), or None
        when it stays a call (see the module's rules)."""
        if self.expanded_size(call.fn) is None:
            return None
        f, e = self._fns[call.fn], self._exprs[call.fn]
        if e.t != call.t or len(call.args) != len(f.params):
            return None
        values: dict[str, Expr] = {}
        views: dict[str, View] = {}
        for p, a in zip(f.params, call.args, strict=True):
            if not total(a):
                return None
            if p.struct is not None:
                if not isinstance(a, View):
                    return None
                views[p.name] = a
            else:
                if isinstance(a, View) or a.t != p.t:
                    return None
                values[p.name] = a
        uses: dict[str, int] = {}
        _count_uses(e, uses)
        for name, n in uses.items():
            arg: Expr | View | None = values[name] if name in values else views.get(name)
            if arg is None or (n > 1 and not cheap(arg)):
                return None
        return _subst(e, values, views)

    def rewrite(self, e: Expr) -> Expr:
        """`e` with every call the rules allow written out, nested ones included, and what
        that makes constant folded (`fold`). A function of `e`'s value alone, so a call is
        written out once (`_written`)."""
        if isinstance(e, Call):
            key = repr(e) if _nodes_within(e, KEYED_NODES) else ""
            done = self._written.get(key) if key else None
            if done is not None:
                return done
            call = _map(e, self.rewrite)
            assert isinstance(call, Call)
            body = self.inline(call)
            out = call if body is None else self.rewrite(body)
            if key:
                self._written[key] = out
            return out
        return fold(_map(e, self.rewrite))

    def function(self, f: LFunction, max_depth: int) -> LFunction:
        """`f` with its calls written out (`rewrite`), statement by statement; a statement whose
        expressions would nest `max_depth` levels or more keeps its calls."""
        return replace(f, body=self._stmts(f.body, max_depth))

    def _stmts(self, body: tuple[Stmt, ...], max_depth: int) -> tuple[Stmt, ...]:
        return tuple(self._stmt(s, max_depth) for s in body)

    def _expr(self, e: Expr, max_depth: int) -> Expr:
        out = self.rewrite(e)
        return out if depth(out, self._depths) < max_depth else e

    def _stmt(self, s: Stmt, max_depth: int) -> Stmt:
        if isinstance(s, Return):
            return s if s.e is None else replace(s, e=self._expr(s.e, max_depth))
        if isinstance(s, Assign):
            return replace(s, e=self._expr(s.e, max_depth))
        if isinstance(s, If):
            return replace(
                s,
                c=self._expr(s.c, max_depth),
                then=self._stmts(s.then, max_depth),
                orelse=self._stmts(s.orelse, max_depth),
            )
        if isinstance(s, Loop):
            return replace(
                s,
                c=self._expr(s.c, max_depth),
                body=self._stmts(s.body, max_depth),
                step=self._stmts(s.step, max_depth),
            )
        if isinstance(s, Switch):
            cases = tuple((labels, self._stmts(b, max_depth)) for labels, b in s.cases)
            return replace(s, e=self._expr(s.e, max_depth), cases=cases)
        return s  # break, continue


def _truth(e: Expr) -> bool | None:
    """The value of a constant bool, else None."""
    if isinstance(e, Const) and e.t == BOOL:
        return bool(e.value)
    return None


def _int_const(e: Expr) -> int | None:
    """The value of an integer constant, through conversions that keep it (`fits`)."""
    while isinstance(e, Conv) and fits(e.e.t, e.t):
        e = e.e
    if isinstance(e, Const) and isinstance(e.value, int) and e.t.kind != "float":
        return e.value
    return None


def fold(e: Expr) -> Expr:
    """`e` (whose operands are folded already) folded where a helper's constant arguments
    leave it constant: a comparison of two integer constants (`ALLOW_U64_FALSE ==
    ALLOW_U64_TRUE`), `!` of a constant, `&&`/`||`/`?:` with a constant deciding operand. An
    operand is dropped only when it is total (evaluating it could not have raised)."""
    if isinstance(e, Compare):
        a, b = _int_const(e.a), _int_const(e.b)
        if a is not None and b is not None:
            ops = {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}
            return Const(int(ops[e.op]), BOOL)
    if isinstance(e, Not) and (v := _truth(e.e)) is not None:
        return Const(int(not v), BOOL)
    if isinstance(e, Logical) and e.a.t == BOOL and e.b.t == BOOL:
        decides = e.op == "or"  # the value of an operand that decides the whole
        if (v := _truth(e.a)) is not None:
            return Const(int(v), BOOL) if v == decides else e.b
        if (v := _truth(e.b)) is not None and total(e.a):
            return Const(int(v), BOOL) if v == decides else e.a
    if isinstance(e, Cond) and (v := _truth(e.c)) is not None:
        kept = e.a if v else e.b
        if kept.t == e.t:
            return kept
    return e


def _nodes_within(e: Expr, limit: int) -> bool:
    """Whether `e` has at most `limit` nodes (it looks at no more than `limit` + 1 of them)."""
    todo: list[Expr | View] = [e]
    seen = 0
    while todo:
        seen += 1
        if seen > limit:
            return False
        x = todo.pop()
        if isinstance(x, View):
            todo += [t for t, _ in x.offset.terms]
        else:
            todo += children(x)
    return True


def depth(e: Expr | View, known: dict[int, tuple[Expr | View, int]] | None = None) -> int:
    """Levels of a lowered expression. `known` holds the depths measured before, by identity
    (each node kept alive in it, so an id is not reused): a node met again is not walked."""
    known = {} if known is None else known
    got = known.get(id(e))
    if got is not None:
        return got[1]
    d = 1 + max((depth(c, known) for c in children(e)), default=0)
    known[id(e)] = (e, d)
    return d


def _count_uses(e: Expr | View, uses: dict[str, int]) -> None:
    if isinstance(e, Var):
        uses[e.name] = uses.get(e.name, 0) + 1
        return
    if isinstance(e, View):
        uses[e.buf] = uses.get(e.buf, 0) + 1
        for t, _ in e.offset.terms:
            _count_uses(t, uses)
        return
    if isinstance(e, Load):
        _count_uses(e.view, uses)
        return
    for c in children(e):
        _count_uses(c, uses)


@covers("map", EXPR_NODES)
class _Map:
    """An expression rebuilt with a function applied to each of its sub-expressions (a read's
    index terms included); covered, so a new node class fails at import until it is taught.
    A node whose sub-expressions all come back as they were (the same objects) is returned as
    it is, not copied: the nodes are frozen, so nothing can tell, and most of a rewrite's nodes
    are such (the cost of a cold translation, issue 28). The rebuilt nodes are made with their
    constructors, field by field (`dataclasses.replace` costs several times as much)."""

    def __call__(self, e: Expr, fn: Callable[[Expr], Expr]) -> Expr:
        out: Expr = dispatch(self, "map", e, fn)
        return out

    def map_Const(self, e: Const, fn: Callable[[Expr], Expr]) -> Expr:
        return e

    def map_Var(self, e: Var, fn: Callable[[Expr], Expr]) -> Expr:
        return e

    def map_Load(self, e: Load, fn: Callable[[Expr], Expr]) -> Expr:
        v = _map_view(e.view, fn)
        if v is e.view:
            return e
        return Load(v, e.t, e.size, e.bit_offset, e.bit_width, e.path, e.enum)

    def map_Call(self, e: Call, fn: Callable[[Expr], Expr]) -> Expr:
        args = tuple(_map_view(a, fn) if isinstance(a, View) else fn(a) for a in e.args)
        if all(x is y for x, y in zip(args, e.args, strict=True)):
            return e
        return Call(e.fn, args, e.t)

    def map_Unary(self, e: Unary, fn: Callable[[Expr], Expr]) -> Expr:
        x = fn(e.e)
        return e if x is e.e else Unary(e.op, x, e.t)

    def map_Not(self, e: Not, fn: Callable[[Expr], Expr]) -> Expr:
        x = fn(e.e)
        return e if x is e.e else Not(x, e.t)

    def map_Conv(self, e: Conv, fn: Callable[[Expr], Expr]) -> Expr:
        x = fn(e.e)
        return e if x is e.e else Conv(x, e.t)

    def map_Binary(self, e: Binary, fn: Callable[[Expr], Expr]) -> Expr:
        a, b = fn(e.a), fn(e.b)
        return e if a is e.a and b is e.b else Binary(e.op, a, b, e.t)

    def map_Compare(self, e: Compare, fn: Callable[[Expr], Expr]) -> Expr:
        a, b = fn(e.a), fn(e.b)
        return e if a is e.a and b is e.b else Compare(e.op, a, b, e.t)

    def map_Logical(self, e: Logical, fn: Callable[[Expr], Expr]) -> Expr:
        a, b = fn(e.a), fn(e.b)
        return e if a is e.a and b is e.b else Logical(e.op, a, b, e.t)

    def map_Cond(self, e: Cond, fn: Callable[[Expr], Expr]) -> Expr:
        c, a, b = fn(e.c), fn(e.a), fn(e.b)
        return e if c is e.c and a is e.a and b is e.b else Cond(c, a, b, e.t)

    def map_Index(self, e: Index, fn: Callable[[Expr], Expr]) -> Expr:
        x = fn(e.index)
        return e if x is e.index else Index(e.name, x, e.t, e.values)


_map = _Map()

# The fields the constructors of _Map, _map_view and _subst pass, in order: a field added to a
# node fails here, at import, until they pass it too (`replace` would have carried it).
_REBUILT: dict[type, tuple[str, ...]] = {
    Load: ("view", "t", "size", "bit_offset", "bit_width", "path", "enum"),
    Call: ("fn", "args", "t"),
    Unary: ("op", "e", "t"),
    Not: ("e", "t"),
    Conv: ("e", "t"),
    Binary: ("op", "a", "b", "t"),
    Compare: ("op", "a", "b", "t"),
    Logical: ("op", "a", "b", "t"),
    Cond: ("c", "a", "b", "t"),
    Index: ("name", "index", "t", "values"),
    View: ("buf", "offset", "struct"),
    Offset: ("const", "terms"),
}
for _cls, _names in _REBUILT.items():
    if tuple(f.name for f in fields(_cls)) != _names:
        raise TypeError(f"inline.py rebuilds {_cls.__name__} with the fields {_names}: update it")


def _map_view(v: View, fn: Callable[[Expr], Expr]) -> View:
    if not v.offset.terms:
        return v
    terms = tuple((fn(t), s) for t, s in v.offset.terms)
    if all(x is t for (x, _), (t, _) in zip(terms, v.offset.terms, strict=True)):
        return v
    return View(v.buf, Offset(v.offset.const, terms), v.struct)


def _subst_view(v: View, values: dict[str, Expr], views: dict[str, View]) -> View:
    at = views[v.buf]
    terms = tuple((_subst(t, values, views), s) for t, s in v.offset.terms)
    return View(at.buf, Offset(at.offset.const + v.offset.const, at.offset.terms + terms), v.struct)


def _subst(e: Expr, values: dict[str, Expr], views: dict[str, View]) -> Expr:
    """`e` with each parameter replaced by its argument (a struct's reads moved to the
    argument's view)."""
    if isinstance(e, Var):
        return values[e.name]
    if isinstance(e, Load):
        v = _subst_view(e.view, values, views)
        return Load(v, e.t, e.size, e.bit_offset, e.bit_width, e.path, e.enum)
    if isinstance(e, Call):
        args = tuple(
            _subst_view(a, values, views) if isinstance(a, View) else _subst(a, values, views)
            for a in e.args
        )
        return Call(e.fn, args, e.t)
    return _map(e, lambda x: _subst(x, values, views))
