"""Loop shapes: what tpbgen proves about how a lowered C loop ends, for `for`, `while` and `do`
alike. Each `*_shape` function returns the shape it found (the loop ends, and how) or a
`Refused` naming why tpbgen cannot prove that it does; the lowerer turns a refusal into an error
at the loop. The loops accepted are those whose trip count is bounded by construction: a `for`
counting a local by a constant to a bound it reaches before it wraps, `do { ... } while (0)`
(one pass) and `while (0)` (none)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .analyses import assigned, children
from .c_semantics import ScalarType, fits, value_range
from .lir import Assign, Binary, Compare, Cond, Const, Conv, Expr, Load, Stmt, Var, View, unconv


@dataclass(frozen=True)
class Counted:
    """`for (init; var op bound; step)`: `var` moves by `step` each pass (negative: down) and
    reaches a bound whose every value lies in `bound` before it would wrap."""

    var: str
    step: int
    op: str
    bound: tuple[int, int]


@dataclass(frozen=True)
class Once:
    """`do { ... } while (0)`: the body runs once (a `break` or `continue` in it leaves)."""


@dataclass(frozen=True)
class Never:
    """`while (0)`: the body never runs (it is still checked like any other code)."""


@dataclass(frozen=True)
class Refused:
    """Why tpbgen cannot prove the loop ends."""

    reason: str


NO_CONDITION = "for loop without a condition: its trip count is not bounded"


def for_shape(
    init: Sequence[Stmt], cond: Expr, step: Sequence[Stmt], body: Sequence[Stmt]
) -> Counted | Refused:
    """The shape of `for (init; cond; step) body`, or why tpbgen cannot prove it ends.

    Proven: the step moves one local `v` by a constant `c` (`v++`, `v--`, `v += c`, `v -= c`);
    the body never assigns `v`; the condition compares `v` (converted without changing its value)
    with a bound that reads no local the loop assigns; and `v` reaches the bound before it would
    wrap: counting up to `< B` needs every value of B to be at most max(v's type) - c + 1 (to
    `<= B`, max - c), down likewise, and `!= B` needs c = 1, a constant B of v's type and a
    constant start on the right side of it (or an unsigned `v`, which wraps onto every value)."""
    counter = _counter(step)
    if isinstance(counter, Refused):
        return _refused_for(counter.reason)
    v, d, t = counter
    if v in assigned(body):
        return _refused_for(f"the body assigns the loop variable {v}")
    compared = _comparison(cond, v)
    if isinstance(compared, Refused):
        return _refused_for(compared.reason)
    op, side, bound = compared
    if _reads(bound) & (assigned(body) | {v}):
        return _refused_for("its bound reads a local the loop assigns")
    start = _start(init, v)
    if not _keeps_value(t, side.t, d, start):
        return _refused_for(f"{v} ({t.name}) is compared as {side.t.name}, which changes its value")
    rng = range_of(bound)
    if rng is None:
        return _refused_for("its bound is not an integer")
    if not _reaches(op, d, rng, t, start):
        lo, hi = rng
        return _refused_for(
            f"{v} ({t.name}) counts {'up' if d > 0 else 'down'} by {abs(d)} while {v} {op} a bound in [{lo}, {hi}]: it may never get there, or wrap first"
        )
    return Counted(v, d, op, rng)


def while_shape(cond: Expr) -> Never | Refused:
    """`while (cond)`: only `while (0)` is proven (it never runs)."""
    if isinstance(cond, Const) and not cond.value:
        return Never()
    return Refused(
        "while loop: tpbgen cannot prove its trip count bounded (accepted: for loops counting a local to a "
        "bound it does not change, do { ... } while (0), while (0))"
    )


def do_shape(cond: Expr) -> Once | Refused:
    """`do { ... } while (cond)`: only `while (0)` is proven (one pass)."""
    if isinstance(cond, Const) and not cond.value:
        return Once()
    return Refused(
        "do/while loop with a condition other than 0: tpbgen cannot prove its trip count bounded "
        "(accepted: do { ... } while (0))"
    )


def _refused_for(why: str) -> Refused:
    return Refused(f"for loop whose trip count tpbgen cannot prove bounded: {why}")


def _counter(step: Sequence[Stmt]) -> tuple[str, int, ScalarType] | Refused:
    """The local a `for` step moves, by how much (negative: down) and its type."""
    if len(step) != 1 or not isinstance(step[0], Assign):
        return Refused("its step is not one increment or decrement of a local")
    v = step[0].name
    inc = unconv(step[0].e)
    amount = unconv(inc.b) if isinstance(inc, Binary) else None
    if not (
        isinstance(inc, Binary)
        and inc.op in ("+", "-")
        and _var(inc.a, v)
        and isinstance(amount, Const)
        and isinstance(amount.value, int)
        and amount.value != 0
    ):
        return Refused(f"its step does not move {v} by a constant")
    return v, amount.value if inc.op == "+" else -amount.value, unconv(inc.a).t


_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!=", "==": "=="}


def _comparison(cond: Expr, v: str) -> tuple[str, Expr, Expr] | Refused:
    """The condition as `v op bound`: the operator (flipped when `v` is on the right), the side
    holding `v` (its conversions kept) and the bound."""
    cmp = unconv(cond)
    if not isinstance(cmp, Compare):
        return Refused("its condition is not a comparison of the loop variable with a bound")
    op, side, bound = (cmp.op, cmp.a, cmp.b) if _var(cmp.a, v) else (_FLIP[cmp.op], cmp.b, cmp.a)
    if not _var(side, v):
        return Refused(f"its condition does not compare the loop variable {v}")
    return op, side, bound


def _start(init: Sequence[Stmt], v: str) -> int | None:
    """The constant `init` leaves in `v` last (None: not a constant, or not set there)."""
    start: int | None = None
    for st in init:
        if isinstance(st, Assign) and st.name == v:
            first = unconv(st.e)
            start = (
                first.value if isinstance(first, Const) and isinstance(first.value, int) else None
            )
    return start


def _keeps_value(t: ScalarType, compared_as: ScalarType, d: int, start: int | None) -> bool:
    """Does comparing a `t` counter as `compared_as` keep its value? Always when the conversion
    does; a signed counter compared as unsigned does while it is not negative: counting up from
    0 or more."""
    return fits(t, compared_as) or (
        d > 0
        and start is not None
        and start >= 0
        and compared_as.kind == "int"
        and not compared_as.signed
        and compared_as.bits >= t.bits
    )


def _reaches(op: str, d: int, bound: tuple[int, int], t: ScalarType, start: int | None) -> bool:
    """Does a `t` counter moving by `d` reach `op` a bound in `bound` before it would wrap?"""
    lo, hi = bound
    tmin, tmax = value_range(t)
    c = abs(d)
    if op == "!=":
        return (
            c == 1
            and lo == hi
            and tmin <= lo <= tmax
            and (not t.signed or (start is not None and (start <= lo if d > 0 else start >= lo)))
        )
    if d > 0:
        return (op == "<" and hi <= tmax - c + 1) or (op == "<=" and hi <= tmax - c)
    return (op == ">" and lo >= tmin + c - 1) or (op == ">=" and lo >= tmin + c)


def _var(e: Expr, name: str) -> bool:
    """Is `e` the local `name`, under conversions?"""
    x = unconv(e)
    return isinstance(x, Var) and x.name == name


def _reads(e: Expr) -> set[str]:
    """The locals an expression reads."""
    out: set[str] = set()
    stack: list[Expr] = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, Var):
            out.add(x.name)
        stack.extend(c for c in children(x) if not isinstance(c, View))
    return out


# -- value ranges ---------------------------------------------------------------------------------
Range = tuple[int, int]


def range_of(e: Expr) -> Range | None:
    """An interval holding every value an integer expression can take: from its constant value,
    from `&` with a non-negative operand, `%` or `>>` by a constant, sums and products that stay
    in their type, the arms of `?:`, through value-preserving conversions; else its type's range.
    None for a float (or a float converted to an integer)."""
    if e.t.kind == "float":
        return None
    full = value_range(e.t)
    rule = _RANGE_OF.get(type(e))
    return full if rule is None else rule(e, full)


def _within(r: Range, full: Range) -> bool:
    return full[0] <= r[0] <= r[1] <= full[1]


def _const_range(e: Const, full: Range) -> Range | None:
    assert isinstance(e.value, int)
    return e.value, e.value


def _conv_range(e: Conv, full: Range) -> Range | None:
    inner = range_of(e.e)
    if inner is None:
        return None
    return inner if _within(inner, full) else full


def _load_range(e: Load, full: Range) -> Range | None:
    w = e.bit_width
    if w is None:
        return full
    if e.t.signed and e.t.kind == "int":
        return -(1 << (w - 1)), (1 << (w - 1)) - 1
    return 0, (1 << w) - 1


def _cond_range(e: Cond, full: Range) -> Range | None:
    a, b = range_of(e.a), range_of(e.b)
    return (min(a[0], b[0]), max(a[1], b[1])) if a and b else full


def _binary_range(e: Binary, full: Range) -> Range | None:
    a, b = range_of(e.a), range_of(e.b)
    if a is None or b is None:
        return full
    rule = _BINARY_RANGE.get(e.op)
    found = rule(a, b) if rule is not None else None
    return found if found is not None and _within(found, full) else full


def _and_range(a: Range, b: Range) -> Range | None:
    nonneg = [x[1] for x in (a, b) if x[0] >= 0]
    return (0, min(nonneg)) if nonneg else None


def _or_range(a: Range, b: Range) -> Range | None:
    if a[0] >= 0 and b[0] >= 0:
        return 0, (1 << max(a[1], b[1]).bit_length()) - 1
    return None


def _mod_range(a: Range, b: Range) -> Range | None:
    if b[0] == b[1] and b[0] > 0 and a[0] >= 0:
        return 0, min(a[1], b[0] - 1)
    return None


def _shr_range(a: Range, b: Range) -> Range | None:
    if b[0] == b[1] and b[0] >= 0 and a[0] >= 0:
        return a[0] >> b[0], a[1] >> b[0]
    return None


def _mul_range(a: Range, b: Range) -> Range | None:
    corners = [x * y for x in a for y in b]
    return min(corners), max(corners)


_BINARY_RANGE: dict[str, Callable[[Range, Range], Range | None]] = {
    "&": _and_range,
    "|": _or_range,
    "^": _or_range,
    "%": _mod_range,
    ">>": _shr_range,
    "+": lambda a, b: (min(a[0] + b[0], a[1] + b[1]), max(a[0] + b[0], a[1] + b[1])),
    "-": lambda a, b: (min(a[0] - b[1], a[1] - b[0]), max(a[0] - b[1], a[1] - b[0])),
    "*": _mul_range,
}

_RANGE_OF: dict[type, Callable[..., Range | None]] = {
    Const: _const_range,
    Conv: _conv_range,
    Load: _load_range,
    Cond: _cond_range,
    Binary: _binary_range,
}
