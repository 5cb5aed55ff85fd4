"""The executor's table (`isa.table`) read with one generation's IR: which enum each role reads,
which decodable opcodes run, the concrete field paths each reads, and why the others are refused.

Every name the table gives is looked up in the drop here, at generate time: an opcode whose
handler names a field path or union arm its struct lacks, or whose enum role no enum binds, is
refused with the reason (and `checks.executor` warns where it is declared), so the package never
holds a binder that would fail at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import naming
from ..ir.model import Enum, EnumMember, Field, Generation, Loc
from ..resolve import DecodeEntry, decode_table, opcode_enum
from . import table


@dataclass(frozen=True)
class ExecutorEnum:
    """The enum one executor role (table.ENUMS) reads on a generation, by enumerator name."""

    role: str
    enum: Enum
    names: tuple[str, ...]  # each member's name as the package spells it, in declaration order

    @property
    def values(self) -> dict[str, int]:
        """name -> value (a name declared twice keeps its first value)."""
        out: dict[str, int] = {}
        for name, m in zip(self.names, self.enum.members, strict=True):
            out.setdefault(name, m.value)
        return out

    def unimplemented(self) -> list[tuple[str, EnumMember, str | None]]:
        """(name, member, why) of every enumerator whose value the executor does not run (an
        alias of an implemented name runs); `why` is None for a name the executor's table does
        not know at all."""
        role = table.ENUMS[self.role]
        pairs = list(zip(self.names, self.enum.members, strict=True))
        # the semantic codes each value's implemented names mean: a value with exactly one runs
        # (EnumBinding.of), whatever its other names (an alias, `SUB = SUBTRACT`) are called
        meant: dict[int, set[int]] = {}
        for n, m in pairs:
            if n in role.codes:
                meant.setdefault(m.value, set()).add(role.codes[n])
        return [
            (n, m, role.refused.get(n))
            for n, m in pairs
            if n not in role.codes and len(meant.get(m.value, ())) != 1
        ]


@dataclass(frozen=True)
class ExecutorBinding:
    """What the executor reads on one generation: the enum of each role its executed opcodes'
    fields are declared with, and each role no enum binds, with why."""

    enums: dict[str, ExecutorEnum]
    unbound: dict[str, str]  # role -> why no enum binds it
    unbound_at: dict[str, Loc]  # role -> the first field that reads it (for a warning's place)


def _top_field(gen: Generation, struct: str, name: str) -> Field | None:
    """A struct's field by name, looking inside anonymous members too."""
    for f in gen.struct(struct).fields:
        if f.name == name:
            return f
        if f.anonymous and f.type.kind in ("struct", "union"):
            inner = _top_field(gen, f.type.name, name)
            if inner is not None:
                return inner
    return None


@dataclass(frozen=True)
class FieldPath:
    """A table path (``src_mem_pattern.t?.num_elem``) looked up in one struct: the concrete
    path the runtime reads (``t?`` kept as ``t`` where the member is a union with that arm,
    dropped where it is not), its leaf, or why it is not there."""

    path: str
    leaf: Field | None
    missing: str = ""  # "" when found: else what the drop lacks
    at: Loc | None = None  # where the member that lacks it is declared


def field_path(gen: Generation, struct: str, path: str) -> FieldPath:
    """`path` looked up in `struct`, step by step by name as `_top_field` does."""
    f: Field | None = None
    owner = struct
    kept: list[str] = []
    for part in path.split("."):
        optional = part.endswith("?")
        name = part.rstrip("?")
        if f is not None:
            if f.type.kind not in ("struct", "union"):
                return FieldPath(path, None, f"{f.name} has no members", f.loc)
            owner = f.type.name
        inner = _top_field(gen, owner, name)
        if inner is None:
            if optional and gen.struct(owner).kind != "union":
                continue
            what = "arm" if gen.struct(owner).kind == "union" else "field"
            return FieldPath(path, None, f"{owner} has no {what} {name}", gen.struct(owner).loc)
        f = inner
        kept.append(name)
    if f is None or f.type.kind in ("struct", "union"):
        return FieldPath(path, None, f"{path} is not a scalar field", gen.struct(struct).loc)
    return FieldPath(".".join(kept), f)


def executor_opcodes(gen: Generation) -> list[tuple[DecodeEntry, str]]:
    """(decode entry, opcode name as the package spells it) of every decodable opcode."""
    op_enum = opcode_enum(gen)
    if op_enum is None:
        return []
    spelled = dict(
        zip(
            (m.name for m in op_enum.members),
            naming.member_names(op_enum.name, [m.name for m in op_enum.members]),
            strict=True,
        )
    )
    return [(d, spelled[d.opcode]) for d in decode_table(gen) if d.defined]


def executor_enums(gen: Generation) -> ExecutorBinding:
    """The enum each executor role reads on `gen`, from the field types of the structs its
    executed opcodes decode to (a field declared as a plain integer reads the role's declared
    enum). Two different enums for one role bind neither: the opcodes using it are refused."""
    found: dict[str, set[str]] = {}
    where: dict[str, Loc] = {}
    unbound: dict[str, str] = {}
    for d, name in executor_opcodes(gen):
        handler = table.HANDLERS.get(name)
        if handler is None:
            continue
        for field_name, role in table.roles(handler).items():
            f = field_path(gen, d.struct, field_name).leaf
            if f is None:
                continue  # the opcode is refused for its missing field (ExecutorCoverage)
            declared = f.type.name if f.type.kind == "enum" else table.ENUMS[role].c_enum
            found.setdefault(role, set()).add(declared)
            where.setdefault(role, f.loc)
    enums: dict[str, ExecutorEnum] = {}
    for role, names in sorted(found.items()):
        if len(names) > 1:
            unbound[role] = f"its fields are declared with {' and '.join(sorted(names))}"
            continue
        e = gen.find_enum(next(iter(names)))
        if e is None:
            unbound[role] = f"the headers declare no {next(iter(names))}"
            continue
        enums[role] = ExecutorEnum(
            role, e, tuple(naming.member_names(e.name, [m.name for m in e.members]))
        )
    return ExecutorBinding(
        enums, dict(sorted(unbound.items())), {r: where[r] for r in sorted(unbound)}
    )


@dataclass(frozen=True)
class Executed:
    """One opcode the executor runs on a generation: its handler, and each operand's fields as
    the runtime reads them (concrete paths, in the handler's order)."""

    value: int
    name: str
    struct: str
    handler: table.Handler
    paths: tuple[tuple[str, ...], ...]  # per operand


@dataclass(frozen=True)
class MissingPath:
    """A path the table names that an opcode's struct lacks: the opcode is refused."""

    opcode: str
    struct: str
    path: str
    missing: str
    at: Loc | None


@dataclass(frozen=True)
class ExecutorCoverage:
    """The executor on one generation: the opcodes it runs and refuses, the enumerators it does
    not run (role, name, value, why; why is "" for a name its table does not know)."""

    runs: list[Executed]
    refuses: list[tuple[int, str, str]]
    enumerators: list[tuple[str, str, int, str]]
    unbound: dict[str, str]
    missing: list[MissingPath]


def _paths(
    gen: Generation, struct: str, name: str, handler: table.Handler
) -> tuple[tuple[tuple[str, ...], ...], list[MissingPath]]:
    found: list[tuple[str, ...]] = []
    missing: list[MissingPath] = []
    for o in handler.operands:
        got = [field_path(gen, struct, p) for p in o.fields]
        missing += [MissingPath(name, struct, p, fp.missing, fp.at) for p, fp in
                    zip(o.fields, got, strict=True) if fp.leaf is None]  # fmt: skip
        found.append(tuple(fp.path for fp in got))
    return tuple(found), missing


def executor_coverage(gen: Generation) -> ExecutorCoverage:
    """Which decodable opcodes the executor runs on `gen`, which it refuses and why, and the
    enumerators of its enums it does not run."""
    binding = executor_enums(gen)
    runs: list[Executed] = []
    refuses: list[tuple[int, str, str]] = []
    missing_paths: list[MissingPath] = []
    for d, name in executor_opcodes(gen):
        handler = table.HANDLERS.get(name)
        if handler is None:
            refuses.append((d.value, name, table.refusal(name)))
            continue
        paths, missing = _paths(gen, d.struct, name, handler)
        unbound = sorted({r for r in table.roles(handler).values() if r not in binding.enums})
        if missing:
            missing_paths += missing
            why = "; ".join(f"{m.path}: {m.missing}" for m in missing)
            refuses.append((d.value, name, f"the drop lacks a field it reads ({why})"))
        elif unbound:
            why = "; ".join(f"{r}: {binding.unbound.get(r, 'no field binds it')}" for r in unbound)
            refuses.append((d.value, name, f"no enum binds its fields ({why})"))
        else:
            runs.append(Executed(d.value, name, d.struct, handler, paths))
    enumerators = [
        (role, name, m.value, why or "")
        for role, ee in binding.enums.items()
        for name, m, why in ee.unimplemented()
    ]
    return ExecutorCoverage(runs, refuses, enumerators, binding.unbound, missing_paths)
