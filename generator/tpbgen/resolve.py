"""Per-generation decisions every back end shares, made once from the IR.

Which enums are the opcode enums, which JSON struct keys bind each opcode, which opcodes
decode to which struct, and what an enumerator's maintenance marker means: reconcile (double bindings), emit (the decode table) and audit
(binding changes) all read these answers instead of walking the JSON each in its own way.
The executor's own decisions (which enum each operand reads, which opcodes run) are
`isa.binding`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .ir.model import Enum, EnumMember, Function, Generation, Maintenance, Struct

OPCODE_ENUM = "NEURON_ISA_TPB_OPCODE"
INST_UNION = "NEURON_ISA_TPB_INST_UNION"
PSEUDO_OPCODE_ENUM = "NEURON_ISA_TPB_PSEUDO_OPCODE"
#: The enum of NeuronCore versions. A validator may take one after the word (RangeSelect's
#: `is_valid_range_select(i, nc)`, next-families-facts.md R8): tpbgen binds it to the
#: generation's own version, the one its common.h banner states.
CORE_VERSION_ENUM = "NEURON_ISA_TPB_NEURON_CORE_VERSION"


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


def core_version_member(gen: Generation) -> EnumMember | None:
    """The member of CORE_VERSION_ENUM that is `gen`'s own core version ("NC-v4" -> the
    member ending `_V4`), None when the banner states no version or the enum has no such
    member."""
    found = re.fullmatch(r"NC-v(\d+)", gen.core_version)
    enum = gen.find_enum(CORE_VERSION_ENUM)
    if found is None or enum is None:
        return None
    suffix = f"_V{found.group(1)}"
    return next((m for m in enum.members if m.name.endswith(suffix)), None)


def bound_parameters(gen: Generation, fn: Function) -> tuple[EnumMember, ...] | None:
    """What `fn`'s parameters after the first are bound to when the first is the instruction
    union and each other one a CORE_VERSION_ENUM (the generation's own member, for each), ()
    for a function of the word alone, None for any other function (or a core version the
    banner does not name: no member to bind)."""
    union = instruction_union(gen)
    name = union.name if union is not None else INST_UNION
    if not fn.params or fn.params[0].type.kind != "union" or fn.params[0].type.name != name:
        return None
    rest = fn.params[1:]
    if not rest:
        return ()
    if any(p.by_pointer or p.type.name != CORE_VERSION_ENUM for p in rest):
        return None
    member = core_version_member(gen)
    return None if member is None else tuple(member for _ in rest)


def c_call_arguments(gen: Generation) -> dict[str, str]:
    """For each function of the instruction union, the C arguments a caller holding the word
    in `u` passes it: `u` or `&u` (a `const` pointer parameter), then each bound core version
    (bound_parameters)."""
    out = {}
    for fn in gen.functions:
        bound = bound_parameters(gen, fn)
        if bound is None:
            continue
        word = "&u" if fn.params[0].by_pointer else "u"
        out[fn.name] = ", ".join([word, *(m.name for m in bound)])
    return out


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
