"""Analyses of the lowered IR every back end shares: children of an expression, the
expressions of a body, conjuncts, calls, and whether a body always returns. `Children` and
`BodyExprs` are covered dispatchers (see lir.covers): a new node class must be taught to them."""

from __future__ import annotations

from collections.abc import Sequence

from .lir import (
    EXPR_NODES,
    STMT_NODES,
    Assign,
    Binary,
    Break,
    Call,
    Compare,
    Cond,
    Const,
    Continue,
    Conv,
    Expr,
    If,
    Index,
    Load,
    Logical,
    Loop,
    Not,
    Return,
    Stmt,
    Switch,
    Unary,
    Var,
    View,
    covers,
    dispatch,
)


@covers("of", EXPR_NODES)
class Children:
    """The sub-expressions of an expression (a load's index terms included)."""

    def __call__(self, e: Expr | View) -> list[Expr | View]:
        if isinstance(e, View):
            return []
        out: list[Expr | View] = dispatch(self, "of", e)
        return out

    def of_Const(self, e: Const) -> list[Expr | View]:
        return []

    def of_Var(self, e: Var) -> list[Expr | View]:
        return []

    def of_Load(self, e: Load) -> list[Expr | View]:
        return [t for t, _ in e.view.offset.terms]

    def of_Unary(self, e: Unary) -> list[Expr | View]:
        return [e.e]

    def of_Not(self, e: Not) -> list[Expr | View]:
        return [e.e]

    def of_Conv(self, e: Conv) -> list[Expr | View]:
        return [e.e]

    def of_Binary(self, e: Binary) -> list[Expr | View]:
        return [e.a, e.b]

    def of_Compare(self, e: Compare) -> list[Expr | View]:
        return [e.a, e.b]

    def of_Logical(self, e: Logical) -> list[Expr | View]:
        return [e.a, e.b]

    def of_Cond(self, e: Cond) -> list[Expr | View]:
        return [e.c, e.a, e.b]

    def of_Call(self, e: Call) -> list[Expr | View]:
        return list(e.args)

    def of_Index(self, e: Index) -> list[Expr | View]:
        return [e.index]


children = Children()


@covers("of", STMT_NODES)
class BodyExprs:
    """Every expression a statement list evaluates, nested bodies included, in order."""

    def __call__(self, body: Sequence[Stmt]) -> list[Expr]:
        out: list[Expr] = []
        for s in body:
            out += dispatch(self, "of", s)
        return out

    def of_Return(self, s: Return) -> list[Expr]:
        return [s.e] if s.e is not None else []

    def of_Assign(self, s: Assign) -> list[Expr]:
        return [s.e]

    def of_If(self, s: If) -> list[Expr]:
        return [s.c, *self(s.then), *self(s.orelse)]

    def of_Loop(self, s: Loop) -> list[Expr]:
        return [s.c, *self(s.body), *self(s.step)]

    def of_Switch(self, s: Switch) -> list[Expr]:
        return [s.e, *(x for _, b in s.cases for x in self(b))]

    def of_Break(self, s: Break) -> list[Expr]:
        return []

    def of_Continue(self, s: Continue) -> list[Expr]:
        return []


body_exprs = BodyExprs()


def flatten(e: Expr, op: str) -> list[Expr]:
    """The operands of a chain of one logical operator (`a && b && c` -> [a, b, c])."""
    if isinstance(e, Logical) and e.op == op:
        return flatten(e.a, op) + flatten(e.b, op)
    return [e]


def conjuncts(e: Expr) -> list[Expr]:
    return flatten(e, "and")


def calls(e: Expr | View) -> list[str]:
    """The functions an expression calls, depth first."""
    out = [e.fn] if isinstance(e, Call) else []
    for c in children(e):
        out += calls(c)
    return out


def loads(e: Expr | View, acc: list[Load] | None = None) -> list[Load]:
    """The field reads of an expression, depth first, each (path, view) once; a read's own
    index expressions count too."""
    acc = [] if acc is None else acc
    if isinstance(e, Load):
        if all(x.path != e.path or x.view != e.view for x in acc):
            acc.append(e)
        for t, _ in e.view.offset.terms:
            loads(t, acc)
        return acc
    for child in children(e):
        loads(child, acc)
    return acc


def read_paths(es: Sequence[Expr | View], arms: frozenset[str] = frozenset()) -> list[str]:
    """The C paths of the fields the expressions read, in order, each once; a leading
    instruction-union arm in `arms` is dropped (`s3d3_ts.in_dtype` -> `in_dtype`)."""
    acc: list[Load] = []
    for e in es:
        loads(e, acc)
    out: list[str] = []
    for x in acc:
        parts = x.path.split(".")
        if len(parts) > 1 and parts[0] in arms:
            parts = parts[1:]
        path = ".".join(parts)
        if path and path not in out:
            out.append(path)
    return out


def reads_comment(es: Sequence[Expr | View], arms: frozenset[str] = frozenset()) -> str:
    """A trailing `  # field, field` naming what a line of generated code reads ("" for none):
    the code indexes bytes, the comment says which C field each byte is."""
    names = read_paths(es, arms)
    return f"  # {', '.join(names)}" if names else ""


def assigned(stmts: Sequence[Stmt]) -> set[str]:
    """The locals `stmts` assign, nested bodies and loop steps included."""
    out: set[str] = set()
    for s in stmts:
        if isinstance(s, Assign):
            out.add(s.name)
        elif isinstance(s, If):
            out |= assigned(s.then) | assigned(s.orelse)
        elif isinstance(s, Loop):
            out |= assigned(s.body) | assigned(s.step)
        elif isinstance(s, Switch):
            for _, b in s.cases:
                out |= assigned(b)
    return out


def always_returns(body: Sequence[Stmt]) -> bool:
    """Does every path through `body` end in a return (so nothing can fall off the end)?"""
    for s in body:
        if isinstance(s, Return):
            return True
        if isinstance(s, If) and s.orelse and always_returns(s.then) and always_returns(s.orelse):
            return True
        if (
            isinstance(s, Switch)
            and any(lb is None for lb, _ in s.cases)
            and all(always_returns(b) for _, b in s.cases)
        ):
            return True
    return False
