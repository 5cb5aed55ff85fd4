"""Analyses of the lowered IR every back end shares: children of an expression, the
expressions of a body, the bodies nested in a statement and the walk over them, conjuncts,
calls, the locals a body assigns, whether it jumps out of its loop and whether it always
returns. `Children`, `BodyExprs` and `SubBodies` are covered dispatchers (see lir.covers): a new
node class must be taught to them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

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
        """A constant: a leaf."""
        return []

    def of_Var(self, e: Var) -> list[Expr | View]:
        """A local: a leaf."""
        return []

    def of_Load(self, e: Load) -> list[Expr | View]:
        """A field read: the index expressions of its offset."""
        return [t for t, _ in e.view.offset.terms]

    def of_Unary(self, e: Unary) -> list[Expr | View]:
        """`-x`, `~x`: the operand."""
        return [e.e]

    def of_Not(self, e: Not) -> list[Expr | View]:
        """`!x`: the operand."""
        return [e.e]

    def of_Conv(self, e: Conv) -> list[Expr | View]:
        """A conversion: the value converted."""
        return [e.e]

    def of_Binary(self, e: Binary) -> list[Expr | View]:
        """Both operands."""
        return [e.a, e.b]

    def of_Compare(self, e: Compare) -> list[Expr | View]:
        """Both operands."""
        return [e.a, e.b]

    def of_Logical(self, e: Logical) -> list[Expr | View]:
        """Both operands."""
        return [e.a, e.b]

    def of_Cond(self, e: Cond) -> list[Expr | View]:
        """The condition, then both arms."""
        return [e.c, e.a, e.b]

    def of_Call(self, e: Call) -> list[Expr | View]:
        """The arguments (views included)."""
        return list(e.args)

    def of_Index(self, e: Index) -> list[Expr | View]:
        """A constant table's element: the index."""
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
        """The returned value (none for a bare return)."""
        return [s.e] if s.e is not None else []

    def of_Assign(self, s: Assign) -> list[Expr]:
        """The value assigned."""
        return [s.e]

    def of_If(self, s: If) -> list[Expr]:
        """The condition, then those of both branches."""
        return [s.c, *self(s.then), *self(s.orelse)]

    def of_Loop(self, s: Loop) -> list[Expr]:
        """The condition, then those of the body and the step."""
        return [s.c, *self(s.body), *self(s.step)]

    def of_Switch(self, s: Switch) -> list[Expr]:
        """The switched value, then those of every case."""
        return [s.e, *(x for _, b in s.cases for x in self(b))]

    def of_Break(self, s: Break) -> list[Expr]:
        """None."""
        return []

    def of_Continue(self, s: Continue) -> list[Expr]:
        """None."""
        return []


body_exprs = BodyExprs()


def flatten(e: Expr, op: str) -> list[Expr]:
    """The operands of a chain of one logical operator (`a && b && c` -> [a, b, c])."""
    if isinstance(e, Logical) and e.op == op:
        return flatten(e.a, op) + flatten(e.b, op)
    return [e]


def conjuncts(e: Expr) -> list[Expr]:
    """The terms of `e` as a chain of `&&` (just `e` when it is not one), left to right."""
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


@covers("of", STMT_NODES)
class SubBodies:
    """The statement lists nested directly in a statement: an if's two arms, a loop's body and
    step, a switch's case bodies; none for the others. Every walk over nested bodies goes
    through it, so a new statement class with bodies of its own is taught to all of them here."""

    def __call__(self, s: Stmt) -> tuple[tuple[Stmt, ...], ...]:
        out: tuple[tuple[Stmt, ...], ...] = dispatch(self, "of", s)
        return out

    def of_If(self, s: If) -> tuple[tuple[Stmt, ...], ...]:
        """Both branches."""
        return (s.then, s.orelse)

    def of_Loop(self, s: Loop) -> tuple[tuple[Stmt, ...], ...]:
        """The body and the step."""
        return (s.body, s.step)

    def of_Switch(self, s: Switch) -> tuple[tuple[Stmt, ...], ...]:
        """Every case's body, default included."""
        return tuple(body for _, body in s.cases)

    def of_Return(self, s: Return) -> tuple[tuple[Stmt, ...], ...]:
        """None."""
        return ()

    def of_Assign(self, s: Assign) -> tuple[tuple[Stmt, ...], ...]:
        """None."""
        return ()

    def of_Break(self, s: Break) -> tuple[tuple[Stmt, ...], ...]:
        """None."""
        return ()

    def of_Continue(self, s: Continue) -> tuple[tuple[Stmt, ...], ...]:
        """None."""
        return ()


sub_bodies = SubBodies()

_NESTING: tuple[type, ...] = (If, Loop, Switch)


def walk(body: Sequence[Stmt], into: tuple[type, ...] = _NESTING) -> Iterator[Stmt]:
    """Every statement of `body` in order, each followed by those of its sub-bodies when it is an
    instance of one of the classes `into` (all nesting statements by default)."""
    for s in body:
        yield s
        if isinstance(s, into):
            for inner in sub_bodies(s):
                yield from walk(inner, into)


def assigned(stmts: Sequence[Stmt]) -> set[str]:
    """The locals `stmts` assign, nested bodies and loop steps included."""
    return {s.name for s in walk(stmts) if isinstance(s, Assign)}


def jumps(body: Sequence[Stmt]) -> bool:
    """Does a `break` or `continue` in `body` leave the loop it is the body of? A nested loop's
    are its own; a nested switch's count too (a `continue` there leaves the loop, and a `break`,
    which leaves only the switch, is counted to be safe)."""
    return any(isinstance(s, (Break, Continue)) for s in walk(body, (If, Switch)))


def always_returns(body: Sequence[Stmt]) -> bool:
    """Does every path through `body` end in a return (so nothing can fall off the end)? A
    return does; so does an if whose two arms both do (an empty arm does not), or a switch with
    a default whose every case does; a loop never (it may run no pass)."""
    for s in body:
        if isinstance(s, Return):
            return True
        closes = isinstance(s, If) or (
            isinstance(s, Switch) and any(labels is None for labels, _ in s.cases)
        )
        if closes and all(always_returns(inner) for inner in sub_bodies(s)):
            return True
    return False
