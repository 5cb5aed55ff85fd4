"""Per-generation decisions every back end shares, made once from the IR.

Which enums are the opcode enums, which JSON struct keys bind each opcode, which opcodes
decode to which struct, and what an enumerator's maintenance marker means: reconcile (double bindings), emit (the decode table) and audit
(binding changes) all read these answers instead of walking the JSON each in its own way.
The executor's own decisions (which enum each operand reads, which opcodes run) are
`isa.binding`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .ir.model import Enum, Generation, Maintenance, Struct

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
