"""Per-generation decisions every back end shares, made once from the IR.

Which enums are the opcode enums, which JSON struct keys bind each opcode, which opcodes
decode to which struct, and what an enumerator's maintenance marker means: reconcile (double bindings), emit (the decode table) and audit
(binding changes) all read these answers instead of walking the JSON each in its own way.
Which enum each executor operand reads, and which of its enumerators the executor runs, are
decided here too (`executor_enums`), for the package's tables, the checks and `inspect` alike.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from enum import StrEnum
from types import ModuleType

from . import naming
from .ir.model import Enum, EnumMember, Field, Generation, Maintenance, Struct

OPCODE_ENUM = "NEURON_ISA_TPB_OPCODE"
INST_UNION = "NEURON_ISA_TPB_INST_UNION"
PSEUDO_OPCODE_ENUM = "NEURON_ISA_TPB_PSEUDO_OPCODE"


class MaintenanceStatus(StrEnum):
    """An enumerator's maintenance, in the one vocabulary every output uses (the audit's JSON and
    HTML, the generated README, reconcile): the value for machines, `label` for people."""

    MAINTAINED = "maintained"  # `// Y`
    NOT_MAINTAINED = "not-maintained"  # `// n, note`
    UNMARKED = "unmarked"  # no marker in the comment

    @property
    def label(self) -> str:
        """The status as people read it: "not maintained"."""
        return self.value.replace("-", " ")

    @classmethod
    def of(cls, marker: Maintenance | None) -> MaintenanceStatus:
        """The status a maintenance marker gives (UNMARKED for none)."""
        return cls.of_flag(None if marker is None else marker.maintained)

    @classmethod
    def of_flag(cls, maintained: bool | None) -> MaintenanceStatus:
        """The status of a `maintained` flag: True, False, or None for no marker."""
        if maintained is None:
            return cls.UNMARKED
        return cls.MAINTAINED if maintained else cls.NOT_MAINTAINED


@dataclass(frozen=True)
class Binding:
    """One opcode name (of either opcode enum) and every JSON key that lists it, in file order."""

    opcode: str
    structs: tuple[str, ...]  # both sections, each key once
    decode_structs: tuple[str, ...]  # those under struct2opcode: what `decode` dispatches on

    @property
    def ambiguous(self) -> bool:
        """Whether the JSON binds the opcode to more than one struct."""
        return len(self.structs) > 1


def instruction_union(gen: Generation) -> Struct | None:
    """The instruction union, by type identity: the union `NEURON_ISA_TPB_INST_UNION` names,
    whether it is the union's tag, a typedef of it (`union tag {...}; typedef union tag
    NEURON_ISA_TPB_INST_UNION;`) or a chain of typedefs. Parameters of that type compare by
    `TypeRef.name`, the resolved name, so `param.type.name == instruction_union(gen).name`."""
    resolved = INST_UNION
    for t in gen.typedefs:
        if t.name == INST_UNION and t.chain:
            resolved = t.chain[-1]
            break
    return next(
        (s for s in gen.structs if s.kind == "union" and s.name in (resolved, INST_UNION)), None
    )


def opcode_enum(gen: Generation) -> Enum | None:
    """The generation's opcode enum (OPCODE_ENUM), or None when its headers lack it."""
    return gen.find_enum(OPCODE_ENUM)


def opcode_names(gen: Generation) -> set[str]:
    """Every enumerator of the OPCODE and PSEUDO_OPCODE enums."""
    out: set[str] = set()
    for name in (OPCODE_ENUM, PSEUDO_OPCODE_ENUM):
        e = gen.find_enum(name)
        if e is not None:
            out.update(m.name for m in e.members)
    return out


def bindings(gen: Generation) -> dict[str, Binding]:
    """The JSON's bindings of names the opcode enums define (stale names are reconcile's)."""
    names = opcode_names(gen)
    structs: dict[str, list[str]] = {}
    decode: dict[str, list[str]] = {}
    if gen.mapping is not None:
        for section, entries in (
            ("struct2opcode", gen.mapping.struct2opcode),
            ("struct2pseudo_opcode", gen.mapping.struct2pseudo_opcode),
        ):
            for entry in entries:
                for name in entry.opcodes:
                    if name not in names:
                        continue
                    if entry.struct not in structs.setdefault(name, []):
                        structs[name].append(entry.struct)
                    if section == "struct2opcode" and entry.struct not in decode.setdefault(
                        name, []
                    ):
                        decode[name].append(entry.struct)
    return {n: Binding(n, tuple(s), tuple(decode.get(n, ()))) for n, s in structs.items()}


@dataclass(frozen=True)
class DecodeEntry:
    value: int
    opcode: str  # C enumerator name
    struct: str  # the JSON key; defined by the headers or not (see `defined`)
    defined: bool


def decode_table(gen: Generation) -> list[DecodeEntry]:
    """Opcode byte -> struct for every OPCODE enumerator bound under struct2opcode, sorted by
    value. Where a byte is bound more than once (two keys, or two names of one value), the first
    binding in file order is listed: reconcile reports the double binding as an error, and
    generate refuses to emit a package with one."""
    e = opcode_enum(gen)
    if e is None or gen.mapping is None:
        return []
    values = {m.name: m.value for m in e.members}
    defined = {s.name for s in gen.structs}
    seen: set[int] = set()
    out = []
    for entry in gen.mapping.struct2opcode:
        for name in entry.opcodes:
            if name not in values or values[name] in seen:
                continue
            seen.add(values[name])
            out.append(DecodeEntry(values[name], name, entry.struct, entry.struct in defined))
    return sorted(out, key=lambda d: d.value)


# -- the executor's enums ------------------------------------------------------------------------


def executor_family() -> ModuleType:
    """The executor's declared table (templates/support/family.py: handlers, operands, and the
    enumerator names it implements), loaded without the runtime's dependencies."""
    return importlib.import_module("tpbgen.templates.support.family")


@dataclass(frozen=True)
class ExecutorEnum:
    """The enum one executor role (family.ENUMS) reads on a generation, by enumerator name."""

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
        """(name, member, why) of every enumerator the executor does not run; `why` is None
        for a name the executor's table does not know at all."""
        role = executor_family().ENUMS[self.role]
        return [
            (n, m, role.refused.get(n))
            for n, m in zip(self.names, self.enum.members, strict=True)
            if n not in role.codes
        ]


@dataclass(frozen=True)
class ExecutorBinding:
    """What the executor reads on one generation: the enum of each role its executed opcodes'
    fields are declared with, and each role no enum binds, with why."""

    enums: dict[str, ExecutorEnum]
    unbound: dict[str, str]  # role -> why no enum binds it


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


def _field_at(gen: Generation, struct: str, path: str) -> Field | None:
    """The field a dotted path names (``in0_in1_dtype.dtype_lo``: a member of a member), each
    step looked up by name as `_top_field` does; ``t?`` steps (an optional union arm) are
    skipped where the member is not a union."""
    f: Field | None = None
    for part in path.split("."):
        optional = part.endswith("?")
        part = part.rstrip("?")
        if f is not None:
            if f.type.kind not in ("struct", "union"):
                return None
            struct = f.type.name
        inner = _top_field(gen, struct, part)
        if inner is None and optional:
            continue
        f = inner
        if f is None:
            return None
    return f


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
    family = executor_family()
    found: dict[str, set[str]] = {}
    unbound: dict[str, str] = {}
    for d, name in executor_opcodes(gen):
        handler = family.HANDLERS.get(name)
        if handler is None:
            continue
        for field_name, role in family.roles(handler).items():
            f = _field_at(gen, d.struct, field_name)
            if f is None:
                unbound[role] = f"{d.struct} has no field {field_name}"
                continue
            declared = f.type.name if f.type.kind == "enum" else family.ENUMS[role].c_enum
            found.setdefault(role, set()).add(declared)
    enums: dict[str, ExecutorEnum] = {}
    for role, names in sorted(found.items()):
        if role in unbound:
            continue
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
    return ExecutorBinding(enums, dict(sorted(unbound.items())))


@dataclass(frozen=True)
class ExecutorCoverage:
    """The executor on one generation: the opcodes it runs and refuses, the enumerators it does
    not run (role, name, value, why; why is "" for a name its table does not know)."""

    runs: list[tuple[int, str]]
    refuses: list[tuple[int, str, str]]
    enumerators: list[tuple[str, str, int, str]]
    unbound: dict[str, str]


def executor_coverage(gen: Generation) -> ExecutorCoverage:
    """Which decodable opcodes the executor runs on `gen`, which it refuses and why, and the
    enumerators of its enums it does not run."""
    family = executor_family()
    binding = executor_enums(gen)
    runs, refuses = [], []
    for d, name in executor_opcodes(gen):
        handler = family.HANDLERS.get(name)
        missing = (
            []
            if handler is None
            else sorted({r for r in family.roles(handler).values() if r in binding.unbound})
        )
        if handler is None:
            refuses.append((d.value, name, family.refusal(name)))
        elif missing:
            why = "; ".join(f"{r}: {binding.unbound[r]}" for r in missing)
            refuses.append((d.value, name, f"no enum binds its fields ({why})"))
        else:
            runs.append((d.value, name))
    enumerators = [
        (role, name, m.value, why or "")
        for role, ee in binding.enums.items()
        for name, m, why in ee.unimplemented()
    ]
    return ExecutorCoverage(runs, refuses, enumerators, binding.unbound)
