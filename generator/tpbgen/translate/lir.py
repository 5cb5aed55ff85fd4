"""The lowered IR: what `lower` makes of a C predicate body and every back end reads.

Expressions know their C type (`t`), every implicit conversion is an explicit `Conv`, every
struct access is a `Load` at a byte offset of a view. The back ends (to_python, to_numpy, the
explain twin, the analyses) handle each node class in a method of its own, and `covers`
checks, when their class is defined, that none is missing: a new node class makes every back
end that forgets it fail at import, naming the handler it lacks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, Union

from ..ir.model import Loc, TypeRef
from .c_semantics import BOOL, ScalarType


# -- expressions -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Offset:
    """A byte offset: a constant plus index * stride terms (array elements chosen at run time)."""

    const: int
    terms: tuple[tuple[Expr, int], ...] = ()

    def plus(self, n: int) -> Offset:
        """This offset `n` bytes further."""
        return Offset(self.const + n, self.terms)

    def plus_term(self, e: Expr, stride: int) -> Offset:
        """This offset plus `e` times `stride` bytes."""
        return Offset(self.const, (*self.terms, (e, stride)))


@dataclass(frozen=True)
class View:
    """A struct or union value: `buf` names the byte buffer (a parameter), `offset` where it starts."""

    buf: str
    offset: Offset
    struct: str


@dataclass(frozen=True)
class ArrayView:
    view: View  # the enclosing struct's view, offset at the array's first element
    elem: TypeRef
    dims: tuple[int, ...]
    elem_size: int


@dataclass(frozen=True)
class Const:
    value: int | float
    t: ScalarType
    name: str = ""  # the C name, for an enum constant or a static const


@dataclass(frozen=True)
class Var:
    name: str  # Python name
    t: ScalarType


@dataclass(frozen=True)
class Load:
    view: View  # offset already points at the field's first byte
    t: ScalarType
    size: int  # bytes read (the field's; for a bitfield, the bytes its bits span)
    bit_offset: int | None = None
    bit_width: int | None = None
    path: str = ""  # C access path, for explain(): "src_mem_pattern.num_elem[3]"
    enum: str = ""  # the C enum type of the field, "" when not an enum


@dataclass(frozen=True)
class Unary:
    op: str  # "-", "~"
    e: Expr
    t: ScalarType


@dataclass(frozen=True)
class Not:
    e: Expr
    t: ScalarType = BOOL


@dataclass(frozen=True)
class Binary:
    op: str  # + - * / % & | ^ << >>
    a: Expr
    b: Expr
    t: ScalarType


@dataclass(frozen=True)
class Compare:
    op: str  # == != < <= > >=
    a: Expr
    b: Expr
    t: ScalarType = BOOL


@dataclass(frozen=True)
class Logical:
    op: str  # "and", "or"
    a: Expr
    b: Expr
    t: ScalarType = BOOL


@dataclass(frozen=True)
class Cond:
    c: Expr
    a: Expr
    b: Expr
    t: ScalarType


@dataclass(frozen=True)
class Call:
    fn: str
    args: tuple[Expr | View, ...]
    t: ScalarType


@dataclass(frozen=True)
class Conv:
    e: Expr
    t: ScalarType


@dataclass(frozen=True)
class Index:
    """An element of a `static const` array chosen at run time: name[index] (flattened)."""

    name: str
    index: Expr  # int64 element index into the flattened array
    t: ScalarType
    values: tuple[int | float, ...]


@dataclass(frozen=True)
class ConstArray:
    """A `static const` array, or a row of one, before its last index is applied."""

    name: str
    t: ScalarType
    dims: tuple[int, ...]  # the dimensions still to index
    offset: Offset  # flat element offset of the first element
    values: tuple[int | float, ...]


Expr = Union[Const, Var, Load, Unary, Not, Binary, Compare, Logical, Cond, Call, Conv, Index]  # noqa: UP007  (a runtime alias, forward names)


def unconv(e: Expr) -> Expr:
    """`e` without the implicit conversions lowering wrapped around it."""
    while isinstance(e, Conv):
        e = e.e
    return e


def strip_parens(text: str) -> str:
    """Rendered code without one pair of parentheses that wraps all of it: `(a <= 8)` -> `a <= 8`,
    `(a) + (b)` unchanged."""
    if not (text.startswith("(") and text.endswith(")")):
        return text
    depth = 0
    for m in _PAREN.finditer(text):  # the parentheses alone (a char loop was ~0.1 s a generate)
        depth += 1 if m.group() == "(" else -1
        if depth == 0:
            return text if m.end() < len(text) else text[1:-1]
    return text[1:-1]


_PAREN = re.compile(r"[()]")


def call_argument(text: str) -> str:
    """Rendered code as one argument of a call, without a pair of parentheses that wraps all of
    it (`((x >> 4) & 0xf)` -> `(x >> 4) & 0xf`), unless what is inside has a comma of its own at
    the top level (a tuple stays one argument)."""
    inner = strip_parens(text)
    if inner == text:
        return text
    depth = 0
    for c in inner:
        depth += c in "([{"
        depth -= c in ")]}"
        if c == "," and depth == 0:
            return text
    return inner


# -- statements --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Return:
    e: Expr | None
    line: int


@dataclass(frozen=True)
class Assign:
    name: str
    e: Expr
    line: int


@dataclass(frozen=True)
class If:
    c: Expr
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]
    line: int


@dataclass(frozen=True)
class Loop:
    """`for`/`while` lowered: test `c` before each pass, run `body`, then `step`."""

    c: Expr
    body: tuple[Stmt, ...]
    step: tuple[Stmt, ...]
    line: int


@dataclass(frozen=True)
class Switch:
    e: Expr
    cases: tuple[tuple[tuple[int, ...] | None, tuple[Stmt, ...]], ...]  # None = default
    line: int


@dataclass(frozen=True)
class Break:
    line: int


@dataclass(frozen=True)
class Continue:
    line: int


Stmt = Union[Return, Assign, If, Loop, Switch, Break, Continue]  # noqa: UP007


@dataclass(frozen=True)
class LParam:
    name: str  # Python name; a struct parameter becomes `<name>_b` (bytes) and `<name>_o` (offset)
    c_name: str
    t: ScalarType | None  # None for a struct parameter
    struct: str | None


@dataclass(frozen=True)
class LFunction:
    name: str
    params: tuple[LParam, ...]
    returns: ScalarType
    body: tuple[Stmt, ...]
    locals: tuple[tuple[str, ScalarType], ...]
    loc: Loc  # where the C function is defined
    calls: tuple[str, ...]


EXPR_NODES: tuple[type, ...] = (
    Const,
    Var,
    Load,
    Unary,
    Not,
    Binary,
    Compare,
    Logical,
    Cond,
    Call,
    Conv,
    Index,
)
STMT_NODES: tuple[type, ...] = (Return, Assign, If, Loop, Switch, Break, Continue)

C = TypeVar("C", bound=type)


def covers(prefix: str, nodes: tuple[type, ...]) -> Callable[[C], C]:
    """A class decorator: the class must define `<prefix>_<Node>` for every node class in `nodes`
    (it dispatches with `dispatch(self, prefix, node)`). A missing handler is a TypeError when the
    class is defined, naming it."""

    def check(cls: C) -> C:
        missing = [
            f"{prefix}_{n.__name__}"
            for n in nodes
            if not callable(getattr(cls, f"{prefix}_{n.__name__}", None))
        ]
        if missing:
            raise TypeError(
                f"{cls.__name__} does not handle every lowered node: missing {', '.join(missing)}"
            )
        return cls

    return check


def dispatch(obj: Any, prefix: str, node: object, *args: Any) -> Any:
    """Call `obj.<prefix>_<type of node>(node, *args)` (looked up on each call, so a handler
    replaced on the class is the one called; its name is made once per prefix and node type)."""
    key = (prefix, type(node))
    name = _HANDLER_NAMES.get(key)
    if name is None:
        name = _HANDLER_NAMES[key] = f"{prefix}_{type(node).__name__}"
    return getattr(obj, name)(node, *args)


_HANDLER_NAMES: dict[tuple[str, type], str] = {}
