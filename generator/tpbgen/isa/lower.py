"""The executor's table lowered to code: each operand kind (`table.OPERAND_KINDS`, or an enum
role) as the Python expression of its engine argument for one word and as the numpy statements
of its column for N words, and the semantic codes as C enumerators. Decided here, once a kind;
the templates only render these strings into ``<gen>/executor_binding.py``,
``_runtime/executor/codes.py`` and ``_runtime/executor/tpb_codes.h``.

In the scalar form ``v`` is the flat tuple of the fields a handler reads (`layout.flat_reader`)
and ``s<k>`` the slot of its k-th field in it; an enum role ``r`` is bound to the locals ``r``
(the generation's `EnumBinding`) and ``r_get`` (its value -> code lookup). In the column form
``c`` is the list of the fields' columns (`layout.columns_reader`), ``cols`` the operands made,
``good`` the rows whose value the executor implements.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import table
from .binding import Executed


@dataclass(frozen=True)
class LoweredOperand:
    """One operand of one handler: its engine keyword, its scalar expression, its column
    statements, and whether those set ``good`` (the operand can refuse a row)."""

    param: str
    width: int  # how many fields it reads
    scalar: str
    column: tuple[str, ...]
    refuses: bool


@dataclass(frozen=True)
class LoweredHandler:
    """One executed opcode of a generation, lowered: the names its functions are emitted under,
    the engine method, the fixed arguments, the concrete paths it reads and its operands."""

    value: int
    name: str
    function: str  # the emitted functions' suffix
    method: str
    record: str  # the class of the method's operands (`record_name`)
    fixed: tuple[tuple[str, bool], ...]
    paths: tuple[str, ...]
    slots: int  # len(paths): the s<k> locals
    roles: tuple[str, ...]  # the enum roles its operands read, sorted
    operands: tuple[LoweredOperand, ...]

    @property
    def unpack(self) -> str:
        """The targets the slots are unpacked into: ``s0, s1, ...`` (a 1-tuple's comma too)."""
        return ", ".join(f"s{k}" for k in range(self.slots)) + ("," if self.slots == 1 else "")


def _enum_code(role: str, at: str, field: str) -> str:
    """The semantic code of the enum value at ``v[at]``, else its binding's UnsupportedError."""
    return (
        f"(c if (c := {role}_get(v[{at}])) is not None else {role}.code(int(v[{at}]), {field!r}))"
    )


def _scalar(kind: str, at: list[str], fields: tuple[str, ...]) -> str:
    if kind == "int":
        return f"int(v[{at[0]}])"
    if kind == "pattern":
        return f"Pattern(int(v[{at[0]}]), tuple(v[{at[1]}]), tuple(v[{at[2]}]))"
    if kind == "imm":
        return f"Imm({_enum_code('imm_src', at[0], fields[0])}, int(v[{at[1]}]))"
    if kind == "imm_ptr":
        return f"Imm(IMM_POINTER, int(v[{at[0]}]))"
    return _enum_code(kind, at[0], fields[0])


def _column(kind: str, param: str, at: list[int]) -> tuple[tuple[str, ...], bool]:
    p = repr(param)
    if kind == "int":
        return (f"cols[{p}] = c[{at[0]}]",), False
    if kind == "pattern":
        return (f"cols[{p}] = PatternColumn(c[{at[0]}], c[{at[1]}], c[{at[2]}])",), False
    if kind == "imm":
        return (
            f"code, good = column_codes(imm_src, c[{at[0]}])",
            f"cols[{p}] = ImmColumn(code, c[{at[1]}])",
        ), True
    if kind == "imm_ptr":
        return (f"cols[{p}] = ImmColumn(np.full(c[{at[0]}].shape, IMM_POINTER, np.int64), c[{at[0]}])",), False  # fmt: skip
    return (f"cols[{p}], good = column_codes({kind}, c[{at[0]}])",), True


def operand_roles(kind: str) -> tuple[str, ...]:
    """The enum roles an operand of `kind` reads."""
    if kind == "imm":
        return ("imm_src",)
    return (kind,) if kind in table.ENUMS else ()


def lower(executed: Executed) -> LoweredHandler:
    """The scalar and column code of one executed opcode's operands."""
    h = executed.handler
    first = 0
    operands = []
    for o, paths in zip(h.operands, executed.paths, strict=True):
        width = len(paths)
        at = list(range(first, first + width))
        column, refuses = _column(o.kind, o.param, at)
        scalar = _scalar(o.kind, [f"s{k}" for k in at], o.fields)
        operands.append(LoweredOperand(o.param, width, scalar, column, refuses))
        first += width
    roles = sorted({r for o in h.operands for r in operand_roles(o.kind)})
    return LoweredHandler(
        executed.value,
        executed.name,
        executed.name.lower(),
        h.engine,
        record_name(h.engine),
        h.fixed,
        tuple(p for ps in executed.paths for p in ps),
        first,
        tuple(roles),
        tuple(operands),
    )


@dataclass(frozen=True)
class CodeRole:
    """One enum role as the runtime's codes module and the C header state it."""

    role: str
    what: str
    c_enum: str
    codes: dict[str, int]
    refused: dict[str, str]
    c_prefix: str | None


def code_roles() -> list[CodeRole]:
    """Every role of the table, in its order."""
    return [
        CodeRole(role, r.what, r.c_enum, dict(r.codes), dict(r.refused), r.c_prefix)
        for role, r in table.ENUMS.items()
    ]


@dataclass(frozen=True)
class LoweredCheck:
    """One declared admission check as code: where it fails for one value (Python) and for a
    column (numpy), the exception, the message as an f-string, and the refusal's key values."""

    name: str
    args: tuple[str, ...]
    scalar: str
    column: str
    error: str
    message: str
    keys: tuple[str, ...]


def _atom(value: int | str) -> str:
    """A bound or a member of a check: an int, a semantic code (``role.NAME``), or a name (one
    of the check's arguments, or a runtime constant)."""
    if isinstance(value, int):
        return str(value)
    role, dot, name = value.partition(".")
    return f"codes.{role.upper()}[{name!r}]" if dot else value


def _fails(c: table.Condition, column: bool) -> str:
    """Where a check's condition does not hold: for one value (Python) or a column (numpy)."""
    if isinstance(c, table.AllOf):
        return (" | " if column else " or ").join(f"({_fails(p, column)})" for p in c.parts)
    if isinstance(c, table.In):
        return f"~np.isin({c.arg}, {c.members})" if column else f"{c.arg} not in {c.members}"
    if isinstance(c, table.Between):
        lo, hi = _atom(c.lo), _atom(c.hi)
        if column:
            return f"({c.arg} < {lo}) | ({c.arg} > {hi})"
        return f"not {lo} <= {c.arg} <= {hi}"
    values = [_atom(v) for v in c.values]
    if column:
        parts = [f"{c.arg} != {v}" for v in values]
        return parts[0] if len(parts) == 1 else " & ".join(f"({p})" for p in parts)
    if len(values) == 1:
        return f"{c.arg} != {values[0]}"
    return f"{c.arg} not in ({', '.join(values)})"


def runtime_imports() -> list[tuple[str, str]]:
    """``admission.py``'s imports from the runtime's executor, in order: (module, its names) for
    the errors the declared checks raise and each runtime name they read
    (`table.RUNTIME_NAMES`)."""
    used: set[str] = set()

    def names(c: table.Condition) -> None:
        if isinstance(c, table.AllOf):
            for p in c.parts:
                names(p)
        elif isinstance(c, table.In):
            used.add(c.members)
        elif isinstance(c, table.Between):
            used.update(v for v in (c.lo, c.hi) if isinstance(v, str))

    for check in table.CHECKS:
        names(check.holds)
    modules: dict[str, set[str]] = {"errors": {c.error for c in table.CHECKS}}
    for n in used & set(table.RUNTIME_NAMES):  # the others are the checks' own arguments
        modules.setdefault(table.RUNTIME_NAMES[n], set()).add(n)
    return [(m, ", ".join(sorted(ns))) for m, ns in sorted(modules.items())]


def lower_checks() -> list[LoweredCheck]:
    """Every declared admission check (`table.CHECKS`), as its two forms."""
    out = []
    for c in table.CHECKS:
        keys = tuple(a for a in c.args if "{" + a + "}" in c.message)
        scalar, column = _fails(c.holds, False), _fails(c.holds, True)
        out.append(LoweredCheck(c.name, c.args, scalar, column, c.error, c.message, keys))
    return out


# -- the Engine methods' operand records ---------------------------------------------------------


@dataclass(frozen=True)
class RecordField:
    """One field of an operand record: its name (the engine's keyword) and its Python type."""

    name: str
    annotation: str


@dataclass(frozen=True)
class LoweredMethod:
    """One Engine method that runs instructions, as the record of its operands
    (``_runtime/executor/operands.py``): the record's class name, the opcodes it runs, and its
    fields (the fixed arguments, then the operands in the table's order)."""

    method: str
    record: str
    opcodes: tuple[str, ...]
    fields: tuple[RecordField, ...]


class TableError(Exception):
    """The executor's table contradicts itself (a defect of tpbgen, not of a drop)."""


def record_name(method: str) -> str:
    """The operand record of Engine method `method`: ``tensor_scalar`` -> ``TensorScalarOperands``."""
    return "".join(part.capitalize() for part in method.split("_")) + "Operands"


def _record_fields(h: table.Handler) -> tuple[RecordField, ...]:
    fixed = tuple(RecordField(name, "bool") for name, _ in h.fixed)
    return fixed + tuple(RecordField(o.param, table.value_type(o.kind)) for o in h.operands)


def lower_methods() -> list[LoweredMethod]:
    """Every Engine method the table's handlers name, in the table's order, as its operand
    record. The handlers of one method must give it the same fields (TableError otherwise)."""
    handlers: dict[str, list[tuple[str, table.Handler]]] = {}
    for name, h in table.HANDLERS.items():
        handlers.setdefault(h.engine, []).append((name, h))
    out = []
    for method, named in handlers.items():
        shapes = {_record_fields(h) for _, h in named}
        if len(shapes) != 1:
            names = ", ".join(name for name, _ in named)
            raise TableError(
                f"the handlers of Engine.{method} ({names}) give it different operands"
            )
        out.append(
            LoweredMethod(method, record_name(method), tuple(n for n, _ in named), shapes.pop())
        )
    return out
