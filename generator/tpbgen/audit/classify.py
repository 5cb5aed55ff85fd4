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
Each kind's rule is declared with the kind in `kinds.KINDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .diff import Change, Side
from .kinds import KINDS, Verdict

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
        """The finding as the JSON report writes it (audit/report.schema.json)."""
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


Rule = Callable[[Any], Verdict]  # a kind's detail -> (class, reason)

RULES: dict[str, Rule] = {name: kind.rule for name, kind in KINDS.items()}


def classify(c: Change) -> Finding:
    """The finding of change `c`: its kind's rule (RULES) gives the class and the reason; the id is
    kind:subject (and the struct, for a binding change). KeyError for a kind without a rule."""
    rule = RULES.get(c.kind)
    if rule is None:
        raise KeyError(f"no classification rule for change kind {c.kind!r}")
    cls, reason = rule(c.detail)
    struct = getattr(c.detail, "struct", "")
    where = f":{struct}" if c.kind.startswith("binding.") and struct else ""
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
        c.detail.detail_json(),
    )


def classify_all(changes: Iterable[Change]) -> list[Finding]:
    """Every change classified, in order; a finding id seen before in the same transition gets a #2,
    #3... suffix so ids stay unique."""
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
    """How many findings fall in each class (every class present, zero included)."""
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
