"""Raw changes -> classified findings.

The four classes, most severe first:

- encoding-breaking: an instruction word that OLD decodes or accepts is decoded differently or
  rejected by NEW (moved or resized fields, renumbered or removed enumerators, removed opcodes,
  opcodes that lose their struct, stricter validators, changed constants that validators read);
- api-breaking: a name of the generated Python runtime disappears or changes type, while the
  bytes still mean what they meant (removed enums/structs/fields/constants/validators, renamed
  enumerators and fields, a field whose type changes at the same size and signedness, e.g.
  TENSOR3D -> MEM_PATTERN3D);
- additive: new names and new meanings that old words and old code do not notice (added opcodes,
  enumerators, structs, fields, validators; reserved bytes given a meaning; looser validators);
- informational: nothing a word or a program can observe (maintenance markers, stale JSON names,
  JSON changes for structs the headers do not define, geometry constants no validator reads), or
  what another finding already says (an enums.h membership table following its enum).

`reserved*` fields are not API: their names and shapes are never findings of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .diff import Change, Side

CLASSES = ("encoding-breaking", "api-breaking", "additive", "informational")
BREAKING = ("encoding-breaking", "api-breaking")


@dataclass(frozen=True)
class Finding:
    id: str
    kind: str
    category: str
    cls: str
    reason: str
    subject: str
    summary: str
    old: Side
    new: Side
    detail: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "category": self.category,
            "class": self.cls,
            "reason": self.reason,
            "subject": self.subject,
            "summary": self.summary,
            "old": self.old.to_json(),
            "new": self.new.to_json(),
            "detail": self.detail,
        }


Rule = Callable[[Change], tuple[str, str]]


def _fixed(cls: str, reason: str) -> Rule:
    return lambda _c: (cls, reason)


def _by_decodability(c: Change) -> tuple[str, str]:
    do, dn = c.detail.get("decodable_old", []), c.detail.get("decodable_new", [])
    if do and do != dn:
        return "encoding-breaking", f"OLD decodes it as {', '.join(do)}; NEW " + (
            f"as {', '.join(dn)}" if dn else "does not decode it"
        )
    if dn and not do:
        return "additive", f"NEW decodes it as {', '.join(dn)}; OLD did not decode it"
    return (
        "informational",
        "decoding is unchanged (the struct is not defined by the ingested headers on either side)",
    )


def _opcode_added(c: Change) -> tuple[str, str]:
    dn = c.detail.get("decodable_new", [])
    return "additive", "a new opcode; " + (
        f"NEW decodes it as {', '.join(dn)}" if dn else "no defined struct is bound to it"
    )


def _constant_changed(c: Change) -> tuple[str, str]:
    readers = c.detail.get("read_by", [])
    if readers:
        shown = ", ".join(readers[:4]) + (
            f" and {len(readers) - 4} more" if len(readers) > 4 else ""
        )
        return (
            "encoding-breaking",
            f"validators read it ({shown}): words OLD accepts may be rejected",
        )
    return (
        "informational",
        "machine geometry no validator reads; the runtime constant's value changes",
    )


def _retyped(c: Change) -> tuple[str, str]:
    o, n = c.detail["old_type"], c.detail["new_type"]
    if (o["field_size"], o["dims"], o["bit_width"]) != (n["field_size"], n["dims"], n["bit_width"]):
        return "encoding-breaking", "the field's size, shape or bit width changes"
    if (o["kind"] == "float") != (n["kind"] == "float") or (
        o["kind"] in ("int", "enum") and n["kind"] in ("int", "enum") and o["signed"] != n["signed"]
    ):
        return (
            "encoding-breaking",
            "the same bytes read as a different number (signedness or float/int)",
        )
    via = c.detail.get("via_arm")
    return "api-breaking", "same bytes, different Python type" + (
        f": access moves under .{via}" if via else ""
    )


def _moved(c: Change) -> tuple[str, str]:
    return (
        "encoding-breaking",
        f"the field's bytes move ({c.detail['old_offset']} -> {c.detail['new_offset']})",
    )


def _field_removed(c: Change) -> tuple[str, str]:
    if c.detail.get("bytes_now_reserved"):
        return (
            "encoding-breaking",
            "its bytes are reserved in NEW: words that set them are no longer meaningful",
        )
    return "api-breaking", "the attribute disappears from the generated struct class"


def _function_changed(c: Change) -> tuple[str, str]:
    eff, pol = c.detail["effect"], c.detail["polarity"]
    mirrored = c.detail.get("mirrors_enum") or []
    if mirrored:
        return (
            "informational",
            f"the membership table follows the enumerators added to / removed from {', '.join(mirrored)}, which are findings of their own",
        )
    negated = (
        " (it is only used negated, so its callers move the other way)" if pol == "negative" else ""
    )
    if eff == "stricter":
        return (
            "encoding-breaking",
            f"a stricter validator{negated}: words OLD accepts may be rejected",
        )
    if eff == "both":
        if pol == "mixed" or not c.detail.get("returns_bool", True):
            return (
                "encoding-breaking",
                "the function is used both plainly and negated (or is not a predicate), so any change can reject words OLD accepts",
            )
        return (
            "encoding-breaking",
            f"terms both added and removed{negated}: words OLD accepts may be rejected",
        )
    if eff == "looser":
        return (
            "additive",
            f"a looser validator{negated}: words OLD rejects may be accepted, none OLD accepts is rejected",
        )
    return "informational", "no effect on which words are accepted"


def _signature(c: Change) -> tuple[str, str]:
    if c.detail.get("types_changed"):
        return "api-breaking", "the generated validator's parameter or return types change"
    return "informational", "only parameter names change"


def _reserved(c: Change) -> tuple[str, str]:
    return "additive", "bytes OLD required to be reserved get a meaning; old words hold 0 there"


def _field_added(c: Change) -> tuple[str, str]:
    if c.detail.get("union_arm"):
        return "additive", "a new arm of the union over the same bytes"
    return "additive", "a new attribute over bytes OLD did not use"


RULES: dict[str, Rule] = {
    "opcode.added": _opcode_added,
    "opcode.removed": _fixed(
        "encoding-breaking", "OLD decodes words with this opcode; NEW does not define it"
    ),
    "opcode.renumbered": _fixed(
        "encoding-breaking", "the opcode byte for this instruction changes"
    ),
    "opcode.renamed": _fixed("api-breaking", "same byte, the Opcode member's name changes"),
    "opcode.marker": _fixed(
        "informational", "the maintenance marker is documentation; decoding is unchanged"
    ),
    "opcode.decodable": _by_decodability,
    "opcode.undecodable": _by_decodability,
    "enum.added": _fixed("additive", "a new enum type"),
    "enum.removed": _fixed("api-breaking", "the IntEnum class disappears"),
    "enum.size": _fixed("encoding-breaking", "fields of this enum type change size"),
    "enum.member.added": _fixed(
        "additive", "a new enumerator; bytes that were undefined now have a name"
    ),
    "enum.member.removed": _fixed(
        "encoding-breaking",
        "words holding this value decode to a plain int in NEW and fail its enum check",
    ),
    "enum.member.renumbered": _fixed(
        "encoding-breaking", "the byte value of this enumerator changes"
    ),
    "enum.member.renamed": _fixed("api-breaking", "same value, the IntEnum member's name changes"),
    "enum.member.marker": _fixed("informational", "the maintenance marker is documentation"),
    "constant.added": _fixed("additive", "a new constant"),
    "constant.removed": _fixed("api-breaking", "the constant disappears from constants.py"),
    "constant.changed": _constant_changed,
    "constant.retyped": _fixed("informational", "the Python constant is an int either way"),
    "struct.added": _fixed("additive", "a new struct class"),
    "struct.removed": _fixed("api-breaking", "the struct class disappears"),
    "struct.size": _fixed("encoding-breaking", "the struct's size changes"),
    "struct.kind": _fixed(
        "encoding-breaking", "struct <-> union: the fields' bytes overlap differently"
    ),
    "field.added": _field_added,
    "field.removed": _field_removed,
    "field.renamed": _fixed("api-breaking", "same bytes, the attribute's name changes"),
    "field.moved": _moved,
    "field.retyped": _retyped,
    "field.reserved-repurposed": _reserved,
    "function.added": _fixed("additive", "a new validator or helper"),
    "function.removed": _fixed("api-breaking", "the generated validator disappears"),
    "function.changed": _function_changed,
    "function.signature": _signature,
    "binding.bound": _by_decodability,
    "binding.unbound": _by_decodability,
    "binding.rebound": _by_decodability,
    "binding.stale-appeared": _fixed(
        "informational",
        "a JSON name the enum does not define; decode ignores it (JSON intersected with the enum)",
    ),
    "binding.stale-disappeared": _fixed("informational", "a stale JSON name is gone"),
}


def classify(c: Change) -> Finding:
    rule = RULES.get(c.kind)
    if rule is None:
        raise KeyError(f"no classification rule for change kind {c.kind!r}")
    cls, reason = rule(c)
    where = (
        f":{c.detail['struct']}" if c.kind.startswith("binding.") and c.detail.get("struct") else ""
    )
    return Finding(
        f"{c.kind}:{c.subject}{where}",
        c.kind,
        c.category,
        cls,
        reason,
        c.subject,
        c.summary,
        c.old,
        c.new,
        c.detail,
    )


def classify_all(changes: Iterable[Change]) -> list[Finding]:
    out = [classify(c) for c in changes]
    seen: dict[str, int] = {}
    unique: list[Finding] = []
    for f in out:  # ids are unique within a transition: number repeats (two stale copies of a name)
        n = seen.get(f.id, 0)
        seen[f.id] = n + 1
        if n:
            f = Finding(
                f"{f.id}#{n + 1}",
                f.kind,
                f.category,
                f.cls,
                f.reason,
                f.subject,
                f.summary,
                f.old,
                f.new,
                f.detail,
            )
        unique.append(f)
    return unique


def counts(findings: Iterable[Finding]) -> dict[str, int]:
    c = dict.fromkeys(CLASSES, 0)
    for f in findings:
        c[f.cls] += 1
    return c


def fails(findings: Iterable[Finding], level: str) -> bool:
    """Whether `findings` reach the `--fail-on` level: breaking | any | none."""
    if level == "none":
        return False
    fs = list(findings)
    if level == "any":
        return bool(fs)
    return any(f.cls in BREAKING for f in fs)
