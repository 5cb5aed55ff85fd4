"""IR(old) x IR(new) -> raw changes. Facts only: what differs, where on each side; `classify`
decides what each change means for instruction words and for Python code.

Every change carries a `Side` for OLD and for NEW. A side where the thing does not exist
(`present=False`) points at the nearest place it would be: the neighbour it would follow, or
the enclosing enum/struct, or the JSON key.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Generic, TypeVar

from .. import resolve
from ..ir.model import (
    Constant,
    Enum,
    EnumMember,
    Field,
    Function,
    Generation,
    Loc,
    Maintenance,
    Struct,
    TypeRef,
)
from ..resolve import OPCODE_ENUM, PSEUDO_OPCODE_ENUM
from . import terms as T
from .facts import facts
from .kinds import (
    KINDS,
    BindingFacts,
    ConstantAdded,
    ConstantChanged,
    ConstantRemoved,
    DecodeFacts,
    Detail,
    EnumPresence,
    FieldAdded,
    FieldMoved,
    FieldRemoved,
    FieldRenamed,
    FieldRetyped,
    FunctionAdded,
    FunctionChanged,
    FunctionRemoved,
    FunctionSignature,
    MemberMarker,
    MemberPresence,
    MemberRenamed,
    MemberRenumbered,
    OpcodePresence,
    OpcodeRenumbered,
    ReservedRepurposed,
    Retyped,
    SizeChange,
    StaleAppeared,
    StaleDisappeared,
    StructKind,
    StructPresence,
    StructSize,
)

_RESERVED = re.compile(r"^(reserved|rsvd|_*pad)", re.IGNORECASE)
_MEMBER_TEST = re.compile(r"^\w+ == (\w+)$")


def is_reserved(name: str) -> bool:
    """Whether a field's name marks it reserved or padding (`reserved*`, `rsvd*`, `pad*`, any
    case)."""
    return bool(_RESERVED.match(name))


@dataclass(frozen=True)
class Side:
    file: str
    line: int
    present: bool
    near: str = ""  # for an absent side: what the place is next to ("after X", "in ENUM")

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"

    def to_json(self) -> dict[str, Any]:
        """The side as the JSON report writes it."""
        return {"file": self.file, "line": self.line, "present": self.present, "near": self.near}


@dataclass(frozen=True)
class Change:
    kind: str  # a name in kinds.KINDS
    category: str
    subject: str
    summary: str
    old: Side
    new: Side
    detail: Detail = field(compare=False, hash=False)


def at(loc: Loc) -> Side:
    """The side of a finding present at `loc`."""
    return Side(loc.file, loc.line, True)


def _absent(loc: Loc, near: str) -> Side:
    return Side(loc.file, loc.line, False, near)


def file_fallback(gen: Generation, like: str) -> Side:
    """Line 1 of the file in `gen` named like `like` (the same header basename), else of its first file."""
    base = PurePosixPath(like).name
    path = facts(gen).memo("files_by_name", lambda: _files_by_name(gen)).get(base)
    if path is not None:
        return Side(path, 1, False, f"{base} of {gen.name}")
    first = gen.files[0].path if gen.files else gen.tpb_dir
    return Side(first, 1, False, f"no {base} in {gen.name}")


def _files_by_name(gen: Generation) -> dict[str, str]:
    out: dict[str, str] = {}
    for f in gen.files:
        out.setdefault(PurePosixPath(f.path).name, f.path)
    return out


def anchor(seq: Sequence[str], idx: int, other: dict[str, Loc], fallback: Side) -> Side:
    """Where item `seq[idx]` would sit on the other side: after its nearest preceding neighbour
    that the other side has, else before the nearest following one, else `fallback`."""
    for j in range(idx - 1, -1, -1):
        if seq[j] in other:
            loc = other[seq[j]]
            return _absent(loc, f"after {seq[j]}")
    for j in range(idx + 1, len(seq)):
        if seq[j] in other:
            loc = other[seq[j]]
            return _absent(loc, f"before {seq[j]}")
    return fallback


def fmt_marker(marker: Maintenance | None) -> str:
    """A field's maintenance marker as text: the marker and its note, or "(none)"."""
    if marker is None:
        return "(none)"
    return marker.marker + (f", {marker.note}" if marker.note else "")


def marker_json(marker: Maintenance | None) -> dict[str, Any] | None:
    """A maintenance marker as the JSON report writes it (null for none)."""
    if marker is None:
        return None
    return {"maintained": marker.maintained, "marker": marker.marker, "note": marker.note}


def type_json(t: TypeRef, f: Field | None = None) -> dict[str, Any]:
    """A type as the JSON report writes it; with the field `f`, also its array dimensions and bit
    width."""
    d: dict[str, Any] = {
        "kind": t.kind,
        "name": t.name,
        "spelled": t.spelled,
        "size": t.size,
        "signed": t.signed,
    }
    if f is not None:
        d["dims"] = list(f.dims)
        d["bit_width"] = f.bit_width
        d["field_size"] = f.size
    return d


def fmt_type(t: TypeRef, f: Field | None = None) -> str:
    """A type as C spells it; with the field `f`, its array dimensions and bit width after it."""
    dims = "".join(f"[{d}]" for d in f.dims) if f is not None else ""
    bits = f" :{f.bit_width}" if f is not None and f.bit_width is not None else ""
    return f"{t.spelled}{dims}{bits}"


# ---------------------------------------------------------------------------------------------
Item = TypeVar("Item", Enum, EnumMember, Constant, Struct, Field, Function)


class Keyed(Generic[Item]):
    """OLD's and NEW's sequences of one kind of named item (enums, enumerators, constants,
    structs, fields, functions), walked by name: the items only one side has, each with where
    it would sit on the other side, and the pairs both have."""

    def __init__(self, old: Sequence[Item], new: Sequence[Item]) -> None:
        self.old: Sequence[Item] = old
        self.new: Sequence[Item] = new
        self.old_by_name: dict[str, Item] = {x.name: x for x in old}
        self.new_by_name: dict[str, Item] = {x.name: x for x in new}
        self._old_locs = {x.name: x.loc for x in old}
        self._new_locs = {x.name: x.loc for x in new}

    def only_old(self) -> list[tuple[int, Item]]:
        """(position in OLD, item) for each item NEW does not have, in OLD's order."""
        return [(i, x) for i, x in enumerate(self.old) if x.name not in self.new_by_name]

    def only_new(self) -> list[tuple[int, Item]]:
        """(position in NEW, item) for each item OLD does not have, in NEW's order."""
        return [(i, x) for i, x in enumerate(self.new) if x.name not in self.old_by_name]

    def common(self) -> list[tuple[Item, Item]]:
        """(OLD's item, NEW's item) for each name both have, in NEW's order."""
        return [(self.old_by_name[x.name], x) for x in self.new if x.name in self.old_by_name]

    def in_new(self, position: int, fallback: Side) -> Side:
        """Where OLD's item at `position` would sit in NEW."""
        return anchor([x.name for x in self.old], position, self._new_locs, fallback)

    def in_old(self, position: int, fallback: Side) -> Side:
        """Where NEW's item at `position` would sit in OLD."""
        return anchor([x.name for x in self.new], position, self._old_locs, fallback)


class Differ:
    def __init__(self, old: Generation, new: Generation) -> None:
        self.old = old
        self.new = new
        self.fo = facts(old)
        self.fn = facts(new)
        self.out: list[Change] = []
        self.enum_delta: dict[
            str, str
        ] = {}  # enumerator name -> the enum it was added to / removed from

    def add(
        self, kind: str, subject: str, summary: str, old: Side, new: Side, detail: Detail
    ) -> None:
        """Record a change of `kind` (kinds.KINDS), whose detail must be of the kind's type."""
        spec = KINDS[kind]
        if type(detail) is not spec.detail:
            raise TypeError(f"a {kind} change carries a {spec.detail.__name__}, not {detail!r}")
        self.out.append(Change(kind, spec.category, subject, summary, old, new, detail))

    def run(self) -> list[Change]:
        """Every change from the old generation to the new, by area in a fixed order (opcodes,
        enums, constants, structs, functions, JSON bindings); the facts cached along the way are
        saved."""
        self.opcodes()
        self.enums()
        self.constants()
        self.structs()
        self.functions()
        self.bindings()
        self.fo.save()
        self.fn.save()
        return self.out

    # -- enums and opcodes ------------------------------------------------------------------
    def _members(self, old_enum: Enum, new_enum: Enum, opcode: bool) -> None:
        """The member findings of an enum present in both headers (`opcode`: the opcode enum, whose
        findings are opcode.*): changed values of common members, then removed members (a removed
        and an added member with the same value pair up as one rename), then added ones; records
        which enum each moved member belongs to in `enum_delta`."""
        pfx = "opcode" if opcode else "enum.member"
        members = Keyed(old_enum.members, new_enum.members)
        for o, m in members.common():
            self._member_common(pfx, new_enum, o, m)
        removed = members.only_old()
        added = members.only_new()
        renamed: dict[str, EnumMember] = {}
        taken: set[str] = set()
        for _, r in removed:
            for _, a in added:
                if a.name not in taken and a.value == r.value:
                    renamed[r.name] = a
                    taken.add(a.name)
                    break
        for _, m in (*removed, *added):
            self.enum_delta[m.name] = new_enum.name
        in_old = _absent(old_enum.loc, f"in {old_enum.name}")
        in_new = _absent(new_enum.loc, f"in {new_enum.name}")
        for i, r in removed:
            if r.name in renamed:
                a = renamed[r.name]
                self.add(
                    f"{pfx}.renamed",
                    a.name,
                    f"{r.name} renamed {a.name} (value {a.value:#x})",
                    at(r.loc),
                    at(a.loc),
                    MemberRenamed(new_enum.name, a.value, r.name, a.name),
                )
                continue
            self.add(
                f"{pfx}.removed",
                r.name,
                f"{r.name} ({r.value:#x}) removed from {new_enum.name}",
                at(r.loc),
                members.in_new(i, in_new),
                self._presence(opcode, new_enum, r),
            )
        for i, a in added:
            if a.name in taken:
                continue
            self.add(
                f"{pfx}.added",
                a.name,
                f"{a.name} ({a.value:#x}) added to {new_enum.name}",
                members.in_old(i, in_old),
                at(a.loc),
                self._presence(opcode, new_enum, a),
            )

    def _member_common(self, pfx: str, enum: Enum, old: EnumMember, new: EnumMember) -> None:
        """An enumerator (an opcode when pfx is "opcode") both sides have."""
        if old.value != new.value:
            self.add(
                f"{pfx}.renumbered",
                new.name,
                f"{new.name}: {old.value:#x} -> {new.value:#x}",
                at(old.loc),
                at(new.loc),
                OpcodeRenumbered(enum.name, old.value, new.value, *self._opcode_facts(new.name))
                if pfx == "opcode"
                else MemberRenumbered(enum.name, old.value, new.value),
            )
        if old.maintenance != new.maintenance:
            self.add(
                f"{pfx}.marker",
                new.name,
                f"{new.name}: maintenance marker {fmt_marker(old.maintenance)} -> {fmt_marker(new.maintenance)}",
                at(old.loc),
                at(new.loc),
                MemberMarker(
                    enum.name, new.value, marker_json(old.maintenance), marker_json(new.maintenance)
                ),
            )

    def _presence(self, opcode: bool, enum: Enum, member: EnumMember) -> Detail:
        """The detail of an enumerator (or opcode) added or removed."""
        marker = marker_json(member.maintenance)
        if opcode:
            return OpcodePresence(enum.name, member.value, marker, *self._opcode_facts(member.name))
        return MemberPresence(enum.name, member.value, marker)

    def _opcode_facts(self, name: str) -> tuple[list[str], list[str], list[str], list[str]]:
        """(json_old, json_new, decodable_old, decodable_new) of opcode `name`."""
        return (
            self.bound_old.get(name, []),
            self.bound_new.get(name, []),
            self.dec_old.get(name, []),
            self.dec_new.get(name, []),
        )

    def opcodes(self) -> None:
        """The opcode enum's member changes (as opcode.* findings), after reading both sides' JSON
        bindings (used by the presence details)."""
        self.bound_old, self.dec_old = self.fo.memo("bindings", lambda: bindings_of(self.old))
        self.bound_new, self.dec_new = self.fn.memo("bindings", lambda: bindings_of(self.new))
        eo, en = self.old.find_enum(OPCODE_ENUM), self.new.find_enum(OPCODE_ENUM)
        if eo is not None and en is not None:
            self._members(eo, en, opcode=True)

    def enums(self) -> None:
        """Enums added and removed (located at the nearest place on the other side), then the member
        changes of each enum both sides have."""
        enums = Keyed(self.old.enums, self.new.enums)
        for i, e in enums.only_new():
            self.add(
                "enum.added",
                e.name,
                f"enum {e.name} added ({len(e.members)} enumerators)",
                enums.in_old(i, file_fallback(self.old, e.loc.file)),
                at(e.loc),
                EnumPresence(len(e.members), e.size),
            )
        for i, e in enums.only_old():
            self.add(
                "enum.removed",
                e.name,
                f"enum {e.name} removed ({len(e.members)} enumerators)",
                at(e.loc),
                enums.in_new(i, file_fallback(self.new, e.loc.file)),
                EnumPresence(len(e.members), e.size),
            )
        for o, e in enums.common():
            if o.size != e.size:
                self.add(
                    "enum.size",
                    e.name,
                    f"enum {e.name}: size {o.size} -> {e.size} bytes",
                    at(o.loc),
                    at(e.loc),
                    SizeChange(o.size, e.size),
                )
            if e.name != OPCODE_ENUM:
                self._members(o, e, opcode=False)

    # -- constants ----------------------------------------------------------------------------
    def constants(self) -> None:
        """Constants added, removed and changed in value, each naming the functions on either side
        that read it."""
        constants = Keyed(self.old.constants, self.new.constants)

        def readers(name: str) -> list[str]:
            return sorted({*self.fo.readers(name), *self.fn.readers(name)})

        for i, c in constants.only_new():
            self.add(
                "constant.added",
                c.name,
                f"{c.name} = {c.value} added",
                constants.in_old(i, file_fallback(self.old, c.loc.file)),
                at(c.loc),
                ConstantAdded(c.value),
            )
        for i, c in constants.only_old():
            self.add(
                "constant.removed",
                c.name,
                f"{c.name} (= {c.value}) removed",
                at(c.loc),
                constants.in_new(i, file_fallback(self.new, c.loc.file)),
                ConstantRemoved(c.value, readers(c.name)),
            )
        for o, c in constants.common():
            if o.value != c.value:
                self.add(
                    "constant.changed",
                    c.name,
                    f"{c.name}: {o.value} -> {c.value}",
                    at(o.loc),
                    at(c.loc),
                    ConstantChanged(o.value, c.value, readers(c.name)),
                )
            if (o.type.name, o.type.size, o.type.signed) != (
                c.type.name,
                c.type.size,
                c.type.signed,
            ):
                self.add(
                    "constant.retyped",
                    c.name,
                    f"{c.name}: type {o.type.spelled} -> {c.type.spelled}",
                    at(o.loc),
                    at(c.loc),
                    Retyped(type_json(o.type), type_json(c.type)),
                )

    # -- structs ------------------------------------------------------------------------------
    def structs(self) -> None:
        """Structs and unions added and removed, then the layout changes of each one both sides
        have."""
        structs = Keyed(self.old.structs, self.new.structs)
        for i, s in structs.only_new():
            self.add(
                "struct.added",
                s.name,
                f"{s.kind} {s.name} added ({s.size} bytes)",
                structs.in_old(i, file_fallback(self.old, s.loc.file)),
                at(s.loc),
                StructPresence(s.name, s.size, s.kind),
            )
        for i, s in structs.only_old():
            self.add(
                "struct.removed",
                s.name,
                f"{s.kind} {s.name} removed ({s.size} bytes)",
                at(s.loc),
                structs.in_new(i, file_fallback(self.new, s.loc.file)),
                StructPresence(s.name, s.size, s.kind),
            )
        for o, s in structs.common():
            self._struct(o, s)

    def _struct(self, old: Struct, new: Struct) -> None:
        """A struct both sides have: its kind, its size, and its fields (`reserved*` fields
        are not API: their names and shapes are never findings of their own)."""
        if old.kind != new.kind:
            self.add(
                "struct.kind",
                new.name,
                f"{new.name}: {old.kind} -> {new.kind}",
                at(old.loc),
                at(new.loc),
                StructKind(new.name, old.kind, new.kind),
            )
        if old.size != new.size:
            self.add(
                "struct.size",
                new.name,
                f"{new.name}: size {old.size} -> {new.size} bytes",
                at(old.loc),
                at(new.loc),
                StructSize(new.name, old.size, new.size),
            )
        fields = Keyed(old.fields, new.fields)
        for g, f in fields.common():
            if not is_reserved(f.name):
                self._field_common(new, g, f)
        removed = [(i, g) for i, g in fields.only_old() if not is_reserved(g.name)]
        added = [(i, f) for i, f in fields.only_new() if not is_reserved(f.name)]
        renamed: dict[str, Field] = {}
        taken: set[str] = set()
        for _, g in removed:
            for _, f in added:
                if (
                    f.name not in taken
                    and (f.offset, f.bit_offset) == (g.offset, g.bit_offset)
                    and _shape(f) == _shape(g)
                ):
                    renamed[g.name] = f
                    taken.add(f.name)
                    break
        if removed or added:
            self._fields_removed(fields, new, removed, renamed)
            self._fields_added(fields, old, new, added, taken)

    def _field_common(self, s: Struct, g: Field, f: Field) -> None:
        """A field of struct `s` both sides have (g in OLD, f in NEW): moved, retyped."""
        path = f"{s.name}.{f.name}"
        if (g.offset, g.bit_offset) != (f.offset, f.bit_offset):
            self.add(
                "field.moved",
                path,
                f"{path}: offset {_off(g)} -> {_off(f)}",
                at(g.loc),
                at(f.loc),
                FieldMoved(s.name, f.name, g.offset, f.offset, g.bit_offset, f.bit_offset),
            )
        if _shape(g) != _shape(f):
            via = self._arm_of(f.type, g.type)
            extra = f" (the old layout is its .{via} arm)" if via else ""
            self.add(
                "field.retyped",
                path,
                f"{path}: {fmt_type(g.type, g)} -> {fmt_type(f.type, f)}{extra}",
                at(g.loc),
                at(f.loc),
                FieldRetyped(s.name, f.name, type_json(g.type, g), type_json(f.type, f), via),
            )

    def _fields_removed(
        self,
        fields: Keyed[Field],
        s: Struct,
        removed: list[tuple[int, Field]],
        renamed: dict[str, Field],
    ) -> None:
        """OLD's fields that NEW's `s` does not have: renamed (`renamed`) or removed."""
        new_bytes = byte_owners(s)
        for i, g in removed:
            if g.name in renamed:
                f = renamed[g.name]
                self.add(
                    "field.renamed",
                    f"{s.name}.{f.name}",
                    f"{s.name}.{g.name} renamed {f.name} (offset {_off(f)})",
                    at(g.loc),
                    at(f.loc),
                    FieldRenamed(s.name, g.name, f.name, f.offset),
                )
                continue
            now = sorted({n for b in _bytes(g) if b < len(new_bytes) for n in new_bytes[b]})
            self.add(
                "field.removed",
                f"{s.name}.{g.name}",
                f"{s.name}.{g.name} removed (offset {_off(g)}, {fmt_type(g.type, g)})",
                at(g.loc),
                fields.in_new(i, _absent(s.loc, f"in {s.name}")),
                FieldRemoved(
                    s.name,
                    g.name,
                    g.offset,
                    g.size,
                    now,
                    bool(now) and all(is_reserved(n) for n in now),
                ),
            )

    def _fields_added(
        self,
        fields: Keyed[Field],
        o: Struct,
        s: Struct,
        added: list[tuple[int, Field]],
        renames: set[str],
    ) -> None:
        """NEW's fields of `s` that OLD's `o` does not have and that are no rename (`renames`):
        over bytes OLD reserved, or added."""
        old_bytes = byte_owners(o)
        for i, f in added:
            if f.name in renames:
                continue
            before = [old_bytes[b] if b < len(old_bytes) else set() for b in _bytes(f)]
            side = fields.in_old(i, _absent(o.loc, f"in {o.name}"))
            reserved_names = sorted({n for owners in before for n in owners})
            if (
                before
                and any(owners for owners in before)
                and all(all(is_reserved(n) for n in owners) for owners in before)
            ):
                self.add(
                    "field.reserved-repurposed",
                    f"{s.name}.{f.name}",
                    f"{s.name}: reserved bytes {_range(f)} ({', '.join(reserved_names)}) now hold {f.name} ({fmt_type(f.type, f)})",
                    side,
                    at(f.loc),
                    ReservedRepurposed(
                        s.name, f.name, f.offset, f.size, reserved_names, type_json(f.type, f)
                    ),
                )
            else:
                self.add(
                    "field.added",
                    f"{s.name}.{f.name}",
                    f"{s.name}.{f.name} added (offset {_off(f)}, {fmt_type(f.type, f)})",
                    side,
                    at(f.loc),
                    FieldAdded(
                        s.name,
                        f.name,
                        f.offset,
                        f.size,
                        reserved_names,
                        s.kind == "union",
                        type_json(f.type, f),
                    ),
                )

    def _arm_of(self, union_type: TypeRef, old_type: TypeRef) -> str:
        """The arm of NEW's union `union_type` whose type is OLD's `old_type`, "" when none."""
        if union_type.kind != "union":
            return ""
        try:
            u = self.new.struct(union_type.name)
        except KeyError:
            return ""
        return next((f.name for f in u.fields if f.type.name == old_type.name and not f.dims), "")

    # -- validators -----------------------------------------------------------------------------
    def functions(self) -> None:
        """Functions added and removed, then each common function whose body changed, classified by
        the effect its term changes have on which words it accepts."""
        functions = Keyed(self.old.functions, self.new.functions)
        for i, f in functions.only_new():
            self.add(
                "function.added",
                f.name,
                f"{f.name} added",
                functions.in_old(i, file_fallback(self.old, f.loc.file)),
                at(f.loc),
                FunctionAdded(list(f.calls), f.section),
            )
        for i, f in functions.only_old():
            self.add(
                "function.removed",
                f.name,
                f"{f.name} removed",
                at(f.loc),
                functions.in_new(i, file_fallback(self.new, f.loc.file)),
                FunctionRemoved(f.section),
            )
        common = functions.common()
        changed = [(o, f) for o, f in common if self.fo.body_hash(o) != self.fn.body_hash(f)]
        of = functions.old_by_name
        sig_old: dict[str, tuple[Any, ...]] = self.fo.memo("signatures", lambda: _sigs(of))
        for o, f in common:
            if sig_old[f.name] != _sig(f):
                self.add(
                    "function.signature",
                    f.name,
                    f"{f.name}: {_sig_text(o)} -> {_sig_text(f)}",
                    at(o.loc),
                    at(f.loc),
                    FunctionSignature(
                        [{"name": p.name, "type": p.type.spelled} for p in o.params],
                        [{"name": p.name, "type": p.type.spelled} for p in f.params],
                        o.returns.spelled,
                        f.returns.spelled,
                        _sig(o)[1:] != _sig(f)[1:],
                    ),
                )
        for o, f in changed:
            self._function_changed(o, f)

    def _function_changed(self, old: Function, new: Function) -> None:
        """A function whose body differs: the terms that change, and what that does to which
        words it accepts."""
        tc = T.diff_terms(self.fo.terms(old), self.fn.terms(new))
        if not tc:
            return
        po, pn = self.fo.polarity(old.name), self.fn.polarity(new.name)
        pol = po if po == pn else 0
        boolean = new.returns.kind == "bool" and old.returns.kind == "bool"
        n_add = sum(1 for c in tc if c.op == "+")
        n_rm = sum(1 for c in tc if c.op == "-")
        n_arm = sum(1 for c in tc if c.op == "~")
        parts = [
            p
            for p in (
                f"+{n_add} term{'s' * (n_add != 1)}" if n_add else "",
                f"-{n_rm} term{'s' * (n_rm != 1)}" if n_rm else "",
                f"{n_arm} disjunction{'s' * (n_arm != 1)} with arms changed" if n_arm else "",
            )
            if p
        ]
        self.add(
            "function.changed",
            new.name,
            f"{new.name}: {', '.join(parts)}",
            at(old.loc),
            at(new.loc),
            FunctionChanged(
                T.term_changes_json(tc),
                T.describe_polarity(pol),
                boolean,
                T.effect(tc, pol, boolean),
                self._mirrors(new.name, tc),
            ),
        )

    def _mirrors(self, name: str, changes: list[T.TermChange]) -> list[str]:
        """For an enums.h membership table (`is_valid_enum_<list>`) whose every changed arm is
        `x == E` for an enumerator E added or removed in this transition: the enums it mirrors."""
        if not name.startswith("is_valid_enum_"):
            return []
        texts = [t for c in changes for t in ([a for _, a in c.arms] if c.op == "~" else [c.text])]
        enums: set[str] = set()
        for text in texts:
            m = _MEMBER_TEST.match(text)
            if m is None or m.group(1) not in self.enum_delta:
                return []
            enums.add(self.enum_delta[m.group(1)])
        return sorted(enums)

    # -- JSON bindings --------------------------------------------------------------------------
    def bindings(self) -> None:
        """JSON binding changes of every opcode both sides name (in the new side's order), then the
        bindings that name an opcode no longer defined."""
        names_old = _opcode_names(self.old)
        names_new = _opcode_names(self.new)
        for name in _ordered(self.new):
            if name in names_old and name in names_new:
                self._binding(name)
        self._stale(names_new)

    def _binding(self, name: str) -> None:
        """The JSON struct keys that list opcode `name`, which both sides define."""
        bo, bn = self.bound_old.get(name, []), self.bound_new.get(name, [])
        do, dn = self.dec_old.get(name, []), self.dec_new.get(name, [])
        facts = DecodeFacts(bo, bn, do, dn)
        if bo != bn:
            gone = [s for s in bo if s not in bn]
            came = [s for s in bn if s not in bo]
            if gone and came:
                self.add(
                    "binding.rebound",
                    name,
                    f"{name}: bound to {', '.join(gone)} -> {', '.join(came)}",
                    mapping_side(self.old, gone[0]),
                    mapping_side(self.new, came[0]),
                    facts,
                )
                return
            for kind, structs, says in (
                ("binding.unbound", gone, "no longer lists"),
                ("binding.bound", came, "now lists"),
            ):
                for s in structs:
                    self.add(
                        kind,
                        name,
                        f"{s} {says} {name}",
                        mapping_side(self.old, s),
                        mapping_side(self.new, s),
                        BindingFacts(s, bo, bn, do, dn),
                    )
        elif do != dn:
            struct = (dn or do)[0] if (dn or do) else ""
            kind = (
                "opcode.decodable"
                if dn and not do
                else "opcode.undecodable"
                if do and not dn
                else "binding.rebound"
            )
            why = f"{struct} is {'now' if dn else 'no longer'} defined by the headers"
            self.add(
                kind,
                name,
                f"{name}: {'decodable' if dn else 'not decodable'} ({why})",
                mapping_side(self.old, struct),
                mapping_side(self.new, struct),
                facts,
            )

    def _stale(self, names_new: set[str]) -> None:
        """JSON names neither opcode enum defines, that appear or disappear."""
        so = self.fo.stale()
        sn = self.fn.stale()
        for key, (file, line) in sn.items():
            if key not in so:
                struct, name = key
                self.add(
                    "binding.stale-appeared",
                    name,
                    f"{struct} lists {name}, which the {self.new.name} enum does not define",
                    mapping_side(self.old, struct),
                    Side(file, line, True),
                    StaleAppeared(struct, name),
                )
        for key, (file, line) in so.items():
            if key not in sn:
                struct, name = key
                why = (
                    "the enum defines it again"
                    if name in names_new
                    else "the JSON no longer lists it"
                )
                self.add(
                    "binding.stale-disappeared",
                    name,
                    f"{struct}: stale {name} is gone ({why})",
                    Side(file, line, True),
                    mapping_side(self.new, struct),
                    StaleDisappeared(struct, name, name in names_new),
                )


def _off(f: Field) -> str:
    return f"{f.offset}" + (f".bit{f.bit_offset}" if f.bit_offset is not None else "")


def _range(f: Field) -> str:
    return f"{f.offset}" if f.size == 1 else f"{f.offset}-{f.offset + f.size - 1}"


def _bytes(f: Field) -> range:
    return range(f.offset, f.offset + f.size)


def _shape(f: Field) -> tuple[Any, ...]:
    return (f.type.kind, f.type.name, f.type.size, f.type.signed, f.dims, f.size, f.bit_width)


def _sig(f: Function) -> tuple[Any, ...]:
    return (tuple(p.name for p in f.params), tuple(p.type.name for p in f.params), f.returns.name)


def _sigs(fns: dict[str, Function]) -> dict[str, tuple[Any, ...]]:
    return {n: _sig(f) for n, f in fns.items()}


def _sig_text(f: Function) -> str:
    return f"{f.returns.spelled} ({', '.join(f'{p.type.spelled} {p.name}' for p in f.params)})"


def byte_owners(s: Struct) -> list[set[str]]:
    """For every byte of `s`, the names of the top-level fields that cover it (several in a union
    or for bitfields sharing a unit); an empty set is padding."""
    owners: list[set[str]] = [set() for _ in range(s.size)]
    for f in s.fields:
        for b in _bytes(f):
            if 0 <= b < s.size:
                owners[b].add(f.name)
    return owners


def _opcode_names(gen: Generation) -> set[str]:
    return resolve.opcode_names(gen)


def _ordered(gen: Generation) -> list[str]:
    out: list[str] = []
    for en in (OPCODE_ENUM, PSEUDO_OPCODE_ENUM):
        e = gen.find_enum(en)
        if e is not None:
            out.extend(m.name for m in e.members)
    return out


def bindings_of(gen: Generation) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(name -> JSON struct keys listing it, name -> those of them the headers define), names of
    either opcode enum only (stale JSON names are `reconcile`'s business)."""
    defined = {s.name for s in gen.structs}
    bound = {n: sorted(b.structs) for n, b in resolve.bindings(gen).items()}
    return bound, {n: d for n, v in bound.items() if (d := [s for s in v if s in defined])}


def mapping_side(gen: Generation, struct: str) -> Side:
    """Where `struct`'s key sits in the generation's instruction_mapping.json (file, line, whether
    present, and why not: no JSON, or no such key)."""
    m = gen.mapping
    if m is None:
        return Side(
            gen.tpb_dir + "/instruction_mapping.json", 1, False, "no instruction_mapping.json"
        )
    for entry in (*m.struct2opcode, *m.struct2pseudo_opcode):
        if entry.struct == struct:
            return Side(m.file, max(entry.line, 1), True)
    return Side(m.file, 1, False, f"no key {struct}" if struct else "")


def diff(old: Generation, new: Generation) -> list[Change]:
    """Every change from `old` to `new`, unclassified (see classify.py)."""
    return Differ(old, new).run()
