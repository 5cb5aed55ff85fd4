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
from typing import Any

from .. import resolve
from ..ir.model import (
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

CATEGORIES = ("opcodes", "enums", "constants", "structs", "validators", "bindings")

_RESERVED = re.compile(r"^(reserved|rsvd|_*pad)", re.IGNORECASE)
_MEMBER_TEST = re.compile(r"^\w+ == (\w+)$")


def is_reserved(name: str) -> bool:
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
        return {"file": self.file, "line": self.line, "present": self.present, "near": self.near}


@dataclass(frozen=True)
class Change:
    kind: str
    category: str
    subject: str
    summary: str
    old: Side
    new: Side
    detail: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


def at(loc: Loc) -> Side:
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


def fmt_marker(m: Maintenance | None) -> str:
    if m is None:
        return "(none)"
    return m.marker + (f", {m.note}" if m.note else "")


def marker_json(m: Maintenance | None) -> dict[str, Any] | None:
    if m is None:
        return None
    return {"maintained": m.maintained, "marker": m.marker, "note": m.note}


def type_json(t: TypeRef, f: Field | None = None) -> dict[str, Any]:
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
    dims = "".join(f"[{d}]" for d in f.dims) if f is not None else ""
    bits = f" :{f.bit_width}" if f is not None and f.bit_width is not None else ""
    return f"{t.spelled}{dims}{bits}"


# ---------------------------------------------------------------------------------------------
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
        self,
        kind: str,
        category: str,
        subject: str,
        summary: str,
        old: Side,
        new: Side,
        **detail: Any,
    ) -> None:
        self.out.append(Change(kind, category, subject, summary, old, new, detail))

    def run(self) -> list[Change]:
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
    def _members(self, eo: Enum, en: Enum, opcode: bool) -> None:
        cat = "opcodes" if opcode else "enums"
        pfx = "opcode" if opcode else "enum.member"
        om = {m.name: m for m in eo.members}
        nm = {m.name: m for m in en.members}
        old_locs = {m.name: m.loc for m in eo.members}
        new_locs = {m.name: m.loc for m in en.members}
        old_seq = [m.name for m in eo.members]
        new_seq = [m.name for m in en.members]
        in_old = _absent(eo.loc, f"in {eo.name}")
        in_new = _absent(en.loc, f"in {en.name}")
        for m in en.members:
            o = om.get(m.name)
            if o is None:
                continue
            if o.value != m.value:
                self.add(
                    f"{pfx}.renumbered",
                    cat,
                    m.name,
                    f"{m.name}: {o.value:#x} -> {m.value:#x}",
                    at(o.loc),
                    at(m.loc),
                    enum=en.name,
                    old_value=o.value,
                    new_value=m.value,
                    **self._opcode_facts(m.name) if opcode else {},
                )
            if o.maintenance != m.maintenance:
                self.add(
                    f"{pfx}.marker",
                    cat,
                    m.name,
                    f"{m.name}: maintenance marker {fmt_marker(o.maintenance)} -> {fmt_marker(m.maintenance)}",
                    at(o.loc),
                    at(m.loc),
                    enum=en.name,
                    value=m.value,
                    old_marker=marker_json(o.maintenance),
                    new_marker=marker_json(m.maintenance),
                )
        removed = [m for m in eo.members if m.name not in nm]
        added = [m for m in en.members if m.name not in om]
        renamed: dict[str, EnumMember] = {}
        taken: set[str] = set()
        for r in removed:
            for a in added:
                if a.name not in taken and a.value == r.value:
                    renamed[r.name] = a
                    taken.add(a.name)
                    break
        for m in (*removed, *added):
            self.enum_delta[m.name] = en.name
        for r in removed:
            if r.name in renamed:
                a = renamed[r.name]
                self.add(
                    f"{pfx}.renamed",
                    cat,
                    a.name,
                    f"{r.name} renamed {a.name} (value {a.value:#x})",
                    at(r.loc),
                    at(a.loc),
                    enum=en.name,
                    value=a.value,
                    old_name=r.name,
                    new_name=a.name,
                )
                continue
            side = anchor(old_seq, old_seq.index(r.name), new_locs, in_new)
            self.add(
                f"{pfx}.removed",
                cat,
                r.name,
                f"{r.name} ({r.value:#x}) removed from {en.name}",
                at(r.loc),
                side,
                enum=en.name,
                value=r.value,
                marker=marker_json(r.maintenance),
                **self._opcode_facts(r.name) if opcode else {},
            )
        for a in added:
            if a.name in taken:
                continue
            side = anchor(new_seq, new_seq.index(a.name), old_locs, in_old)
            self.add(
                f"{pfx}.added",
                cat,
                a.name,
                f"{a.name} ({a.value:#x}) added to {en.name}",
                side,
                at(a.loc),
                enum=en.name,
                value=a.value,
                marker=marker_json(a.maintenance),
                **self._opcode_facts(a.name) if opcode else {},
            )

    def _opcode_facts(self, name: str) -> dict[str, Any]:
        return {
            "json_old": self.bound_old.get(name, []),
            "json_new": self.bound_new.get(name, []),
            "decodable_old": self.dec_old.get(name, []),
            "decodable_new": self.dec_new.get(name, []),
        }

    def opcodes(self) -> None:
        self.bound_old, self.dec_old = self.fo.memo("bindings", lambda: bindings_of(self.old))
        self.bound_new, self.dec_new = self.fn.memo("bindings", lambda: bindings_of(self.new))
        eo, en = self.old.find_enum(OPCODE_ENUM), self.new.find_enum(OPCODE_ENUM)
        if eo is not None and en is not None:
            self._members(eo, en, opcode=True)

    def enums(self) -> None:
        oe = {e.name: e for e in self.old.enums}
        ne = {e.name: e for e in self.new.enums}
        old_locs = {e.name: e.loc for e in self.old.enums}
        new_locs = {e.name: e.loc for e in self.new.enums}
        new_seq = [e.name for e in self.new.enums]
        old_seq = [e.name for e in self.old.enums]
        for i, e in enumerate(self.new.enums):
            if e.name in oe:
                continue
            side = anchor(new_seq, i, old_locs, file_fallback(self.old, e.loc.file))
            self.add(
                "enum.added",
                "enums",
                e.name,
                f"enum {e.name} added ({len(e.members)} enumerators)",
                side,
                at(e.loc),
                members=len(e.members),
                size=e.size,
            )
        for i, e in enumerate(self.old.enums):
            if e.name in ne:
                continue
            side = anchor(old_seq, i, new_locs, file_fallback(self.new, e.loc.file))
            self.add(
                "enum.removed",
                "enums",
                e.name,
                f"enum {e.name} removed ({len(e.members)} enumerators)",
                at(e.loc),
                side,
                members=len(e.members),
                size=e.size,
            )
        for e in self.new.enums:
            o = oe.get(e.name)
            if o is None:
                continue
            if o.size != e.size:
                self.add(
                    "enum.size",
                    "enums",
                    e.name,
                    f"enum {e.name}: size {o.size} -> {e.size} bytes",
                    at(o.loc),
                    at(e.loc),
                    old_size=o.size,
                    new_size=e.size,
                )
            if e.name != OPCODE_ENUM:
                self._members(o, e, opcode=False)

    # -- constants ----------------------------------------------------------------------------
    def constants(self) -> None:
        oc = {c.name: c for c in self.old.constants}
        nc = {c.name: c for c in self.new.constants}
        old_locs = {c.name: c.loc for c in self.old.constants}
        new_locs = {c.name: c.loc for c in self.new.constants}
        new_seq = [c.name for c in self.new.constants]
        old_seq = [c.name for c in self.old.constants]

        def readers(name: str) -> list[str]:
            return sorted({*self.fo.readers(name), *self.fn.readers(name)})

        for i, c in enumerate(self.new.constants):
            if c.name in oc:
                continue
            side = anchor(new_seq, i, old_locs, file_fallback(self.old, c.loc.file))
            self.add(
                "constant.added",
                "constants",
                c.name,
                f"{c.name} = {c.value} added",
                side,
                at(c.loc),
                value=c.value,
            )
        for i, c in enumerate(self.old.constants):
            if c.name in nc:
                continue
            side = anchor(old_seq, i, new_locs, file_fallback(self.new, c.loc.file))
            self.add(
                "constant.removed",
                "constants",
                c.name,
                f"{c.name} (= {c.value}) removed",
                at(c.loc),
                side,
                value=c.value,
                read_by=readers(c.name),
            )
        for c in self.new.constants:
            o = oc.get(c.name)
            if o is None:
                continue
            if o.value != c.value:
                self.add(
                    "constant.changed",
                    "constants",
                    c.name,
                    f"{c.name}: {o.value} -> {c.value}",
                    at(o.loc),
                    at(c.loc),
                    old_value=o.value,
                    new_value=c.value,
                    read_by=readers(c.name),
                )
            if (o.type.name, o.type.size, o.type.signed) != (
                c.type.name,
                c.type.size,
                c.type.signed,
            ):
                self.add(
                    "constant.retyped",
                    "constants",
                    c.name,
                    f"{c.name}: type {o.type.spelled} -> {c.type.spelled}",
                    at(o.loc),
                    at(c.loc),
                    old_type=type_json(o.type),
                    new_type=type_json(c.type),
                )

    # -- structs ------------------------------------------------------------------------------
    def structs(self) -> None:
        os_ = {s.name: s for s in self.old.structs}
        ns = {s.name: s for s in self.new.structs}
        old_locs = {s.name: s.loc for s in self.old.structs}
        new_locs = {s.name: s.loc for s in self.new.structs}
        new_seq = [s.name for s in self.new.structs]
        old_seq = [s.name for s in self.old.structs]
        for i, s in enumerate(self.new.structs):
            if s.name in os_:
                continue
            side = anchor(new_seq, i, old_locs, file_fallback(self.old, s.loc.file))
            self.add(
                "struct.added",
                "structs",
                s.name,
                f"{s.kind} {s.name} added ({s.size} bytes)",
                side,
                at(s.loc),
                struct=s.name,
                size=s.size,
                struct_kind=s.kind,
            )
        for i, s in enumerate(self.old.structs):
            if s.name in ns:
                continue
            side = anchor(old_seq, i, new_locs, file_fallback(self.new, s.loc.file))
            self.add(
                "struct.removed",
                "structs",
                s.name,
                f"{s.kind} {s.name} removed ({s.size} bytes)",
                at(s.loc),
                side,
                struct=s.name,
                size=s.size,
                struct_kind=s.kind,
            )
        for s in self.new.structs:
            o = os_.get(s.name)
            if o is not None:
                self._struct(o, s)

    def _struct(self, o: Struct, s: Struct) -> None:
        if o.kind != s.kind:
            self.add(
                "struct.kind",
                "structs",
                s.name,
                f"{s.name}: {o.kind} -> {s.kind}",
                at(o.loc),
                at(s.loc),
                struct=s.name,
                old_kind=o.kind,
                new_kind=s.kind,
            )
        if o.size != s.size:
            self.add(
                "struct.size",
                "structs",
                s.name,
                f"{s.name}: size {o.size} -> {s.size} bytes",
                at(o.loc),
                at(s.loc),
                struct=s.name,
                old_size=o.size,
                new_size=s.size,
            )
        of = {f.name: f for f in o.fields if not is_reserved(f.name)}
        nf = {f.name: f for f in s.fields if not is_reserved(f.name)}
        in_old = _absent(o.loc, f"in {o.name}")
        in_new = _absent(s.loc, f"in {s.name}")
        old_locs = {f.name: f.loc for f in o.fields}
        new_locs = {f.name: f.loc for f in s.fields}
        old_seq = [f.name for f in o.fields]
        new_seq = [f.name for f in s.fields]
        for f in s.fields:
            g = of.get(f.name)
            if g is None or is_reserved(f.name):
                continue
            path = f"{s.name}.{f.name}"
            if (g.offset, g.bit_offset) != (f.offset, f.bit_offset):
                self.add(
                    "field.moved",
                    "structs",
                    path,
                    f"{path}: offset {_off(g)} -> {_off(f)}",
                    at(g.loc),
                    at(f.loc),
                    struct=s.name,
                    field=f.name,
                    old_offset=g.offset,
                    new_offset=f.offset,
                    old_bit_offset=g.bit_offset,
                    new_bit_offset=f.bit_offset,
                )
            if _shape(g) != _shape(f):
                via = self._arm_of(f.type, g.type)
                extra = f" (the old layout is its .{via} arm)" if via else ""
                self.add(
                    "field.retyped",
                    "structs",
                    path,
                    f"{path}: {fmt_type(g.type, g)} -> {fmt_type(f.type, f)}{extra}",
                    at(g.loc),
                    at(f.loc),
                    struct=s.name,
                    field=f.name,
                    old_type=type_json(g.type, g),
                    new_type=type_json(f.type, f),
                    via_arm=via,
                )
        removed = [g for g in o.fields if g.name in of and g.name not in nf]
        added = [f for f in s.fields if f.name in nf and f.name not in of]
        renamed: dict[str, Field] = {}
        taken: set[str] = set()
        for g in removed:
            for f in added:
                if (
                    f.name not in taken
                    and (f.offset, f.bit_offset) == (g.offset, g.bit_offset)
                    and _shape(f) == _shape(g)
                ):
                    renamed[g.name] = f
                    taken.add(f.name)
                    break
        if not removed and not added:
            return
        old_bytes = byte_owners(o)
        new_bytes = byte_owners(s)
        for g in removed:
            if g.name in renamed:
                f = renamed[g.name]
                self.add(
                    "field.renamed",
                    "structs",
                    f"{s.name}.{f.name}",
                    f"{s.name}.{g.name} renamed {f.name} (offset {_off(f)})",
                    at(g.loc),
                    at(f.loc),
                    struct=s.name,
                    old_name=g.name,
                    new_name=f.name,
                    offset=f.offset,
                )
                continue
            now = sorted({n for b in _bytes(g) if b < len(new_bytes) for n in new_bytes[b]})
            side = anchor(old_seq, old_seq.index(g.name), new_locs, in_new)
            self.add(
                "field.removed",
                "structs",
                f"{s.name}.{g.name}",
                f"{s.name}.{g.name} removed (offset {_off(g)}, {fmt_type(g.type, g)})",
                at(g.loc),
                side,
                struct=s.name,
                field=g.name,
                offset=g.offset,
                size=g.size,
                bytes_now=now,
                bytes_now_reserved=bool(now) and all(is_reserved(n) for n in now),
            )
        for f in added:
            if f.name in taken:
                continue
            before = [old_bytes[b] if b < len(old_bytes) else set() for b in _bytes(f)]
            side = anchor(new_seq, new_seq.index(f.name), old_locs, in_old)
            reserved_names = sorted({n for owners in before for n in owners})
            if (
                before
                and any(owners for owners in before)
                and all(all(is_reserved(n) for n in owners) for owners in before)
            ):
                self.add(
                    "field.reserved-repurposed",
                    "structs",
                    f"{s.name}.{f.name}",
                    f"{s.name}: reserved bytes {_range(f)} ({', '.join(reserved_names)}) now hold {f.name} ({fmt_type(f.type, f)})",
                    side,
                    at(f.loc),
                    struct=s.name,
                    field=f.name,
                    offset=f.offset,
                    size=f.size,
                    old_owners=reserved_names,
                    type=type_json(f.type, f),
                )
            else:
                self.add(
                    "field.added",
                    "structs",
                    f"{s.name}.{f.name}",
                    f"{s.name}.{f.name} added (offset {_off(f)}, {fmt_type(f.type, f)})",
                    side,
                    at(f.loc),
                    struct=s.name,
                    field=f.name,
                    offset=f.offset,
                    size=f.size,
                    old_owners=reserved_names,
                    union_arm=s.kind == "union",
                    type=type_json(f.type, f),
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
        of = {f.name: f for f in self.old.functions}
        nf = {f.name: f for f in self.new.functions}
        old_locs = {f.name: f.loc for f in self.old.functions}
        new_locs = {f.name: f.loc for f in self.new.functions}
        new_seq = [f.name for f in self.new.functions]
        old_seq = [f.name for f in self.old.functions]
        for i, f in enumerate(self.new.functions):
            if f.name in of:
                continue
            side = anchor(new_seq, i, old_locs, file_fallback(self.old, f.loc.file))
            self.add(
                "function.added",
                "validators",
                f.name,
                f"{f.name} added",
                side,
                at(f.loc),
                calls=list(f.calls),
                section=f.section,
            )
        for i, f in enumerate(self.old.functions):
            if f.name in nf:
                continue
            side = anchor(old_seq, i, new_locs, file_fallback(self.new, f.loc.file))
            self.add(
                "function.removed",
                "validators",
                f.name,
                f"{f.name} removed",
                at(f.loc),
                side,
                section=f.section,
            )
        changed = [
            (of[f.name], f)
            for f in self.new.functions
            if f.name in of and self.fo.body_hash(of[f.name]) != self.fn.body_hash(f)
        ]
        sig_old: dict[str, tuple[Any, ...]] = self.fo.memo("signatures", lambda: _sigs(of))
        signature = [
            (of[f.name], f)
            for f in self.new.functions
            if f.name in of and sig_old[f.name] != _sig(f)
        ]
        for o, f in signature:
            self.add(
                "function.signature",
                "validators",
                f.name,
                f"{f.name}: {_sig_text(o)} -> {_sig_text(f)}",
                at(o.loc),
                at(f.loc),
                old_params=[{"name": p.name, "type": p.type.spelled} for p in o.params],
                new_params=[{"name": p.name, "type": p.type.spelled} for p in f.params],
                old_returns=o.returns.spelled,
                new_returns=f.returns.spelled,
                types_changed=_sig(o)[1:] != _sig(f)[1:],
            )
        for o, f in changed:
            tc = T.diff_terms(self.fo.terms(o), self.fn.terms(f))
            if not tc:
                continue
            po, pn = self.fo.polarity(o.name), self.fn.polarity(f.name)
            pol = po if po == pn else 0
            boolean = f.returns.kind == "bool" and o.returns.kind == "bool"
            eff = T.effect(tc, pol, boolean)
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
                "validators",
                f.name,
                f"{f.name}: {', '.join(parts)}",
                at(o.loc),
                at(f.loc),
                terms=T.term_changes_json(tc),
                polarity=T.describe_polarity(pol),
                returns_bool=boolean,
                effect=eff,
                mirrors_enum=self._mirrors(f.name, tc),
            )

    def _mirrors(self, name: str, tc: list[T.TermChange]) -> list[str]:
        """For an enums.h membership table (`is_valid_enum_<list>`) whose every changed arm is
        `x == E` for an enumerator E added or removed in this transition: the enums it mirrors."""
        if not name.startswith("is_valid_enum_"):
            return []
        texts = [t for c in tc for t in ([a for _, a in c.arms] if c.op == "~" else [c.text])]
        enums: set[str] = set()
        for text in texts:
            m = _MEMBER_TEST.match(text)
            if m is None or m.group(1) not in self.enum_delta:
                return []
            enums.add(self.enum_delta[m.group(1)])
        return sorted(enums)

    # -- JSON bindings --------------------------------------------------------------------------
    def bindings(self) -> None:
        names_old = _opcode_names(self.old)
        names_new = _opcode_names(self.new)
        both = [n for n in _ordered(self.new) if n in names_old and n in names_new]
        for name in both:
            bo, bn = self.bound_old.get(name, []), self.bound_new.get(name, [])
            do, dn = self.dec_old.get(name, []), self.dec_new.get(name, [])
            facts = {"json_old": bo, "json_new": bn, "decodable_old": do, "decodable_new": dn}
            if bo != bn:
                gone = [s for s in bo if s not in bn]
                came = [s for s in bn if s not in bo]
                if gone and came:
                    self.add(
                        "binding.rebound",
                        "bindings",
                        name,
                        f"{name}: bound to {', '.join(gone)} -> {', '.join(came)}",
                        mapping_side(self.old, gone[0]),
                        mapping_side(self.new, came[0]),
                        **facts,
                    )
                    continue
                for s in gone:
                    self.add(
                        "binding.unbound",
                        "bindings",
                        name,
                        f"{s} no longer lists {name}",
                        mapping_side(self.old, s),
                        mapping_side(self.new, s),
                        struct=s,
                        **facts,
                    )
                for s in came:
                    self.add(
                        "binding.bound",
                        "bindings",
                        name,
                        f"{s} now lists {name}",
                        mapping_side(self.old, s),
                        mapping_side(self.new, s),
                        struct=s,
                        **facts,
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
                    "opcodes" if kind.startswith("opcode") else "bindings",
                    name,
                    f"{name}: {'decodable' if dn else 'not decodable'} ({why})",
                    mapping_side(self.old, struct),
                    mapping_side(self.new, struct),
                    **facts,
                )
        so = self.fo.stale()
        sn = self.fn.stale()
        for key, (file, line) in sn.items():
            if key not in so:
                struct, name = key
                self.add(
                    "binding.stale-appeared",
                    "bindings",
                    name,
                    f"{struct} lists {name}, which the {self.new.name} enum does not define",
                    mapping_side(self.old, struct),
                    Side(file, line, True),
                    struct=struct,
                    name=name,
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
                    "bindings",
                    name,
                    f"{struct}: stale {name} is gone ({why})",
                    Side(file, line, True),
                    mapping_side(self.new, struct),
                    struct=struct,
                    name=name,
                    defined_now=name in names_new,
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
    return Differ(old, new).run()
