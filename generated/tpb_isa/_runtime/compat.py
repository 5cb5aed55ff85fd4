"""Whether one word means the same on another generation: the same opcode name, struct and
field values (their text-form values: enum members by name, addresses by place), and the same
verdict from each generation's validators; the first difference named."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .codec import DecodeError, as_bytes


@dataclass(frozen=True)
class Compat:
    same: bool
    difference: str  # "" when the same, else the first difference
    this_valid: bool
    other_valid: bool

    def __bool__(self) -> bool:
        return self.same


def _first_difference(a: Any, b: Any, path: str) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in b:
                return f"{path}{k}: only here ({a[k]!r})"
            if k not in a:
                return f"{path}{k}: only there ({b[k]!r})"
            d = _first_difference(a[k], b[k], f"{path}{k}.")
            if d:
                return d
        return ""
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            d = _first_difference(x, y, f"{path[:-1]}[{i}].")
            if d:
                return d
        return ""
    return "" if a == b else f"{path[:-1]}: {a!r} here, {b!r} there"


def compat(this: ModuleType, word: Any, other: ModuleType) -> Compat:
    """`word` on generation module `this` against generation module `other`."""
    b = as_bytes(word)
    views = []
    for m in (this, other):
        try:
            m.decode(b)
            views.append(m.to_dict(b))
        except DecodeError as e:
            views.append({"opcode": None, "undecodable": str(e)})
    va, vb = bool(this.validate(b)), bool(other.validate(b))
    a, c = views
    if a.get("opcode") is None or c.get("opcode") is None:
        if a.get("opcode") is None and c.get("opcode") is None:
            diff = "" if va == vb else f"verdict: {va} here, {vb} there"
        else:
            which = this.NAME if a.get("opcode") is None else other.NAME
            diff = f"decode: {which} does not decode opcode {b[0]:#04x}"
        return Compat(not diff, diff, va, vb)
    diff = ""
    if a["opcode"] != c["opcode"]:
        diff = f"opcode {b[0]:#04x}: {a['opcode']} here, {c['opcode']} there"
    else:
        sa = type(this.decode(b)).__name__
        sb = type(other.decode(b)).__name__
        if sa != sb:
            diff = f"struct: {sa} here, {sb} there"
        else:
            diff = _first_difference(a["fields"], c["fields"], "")
    if not diff and va != vb:
        why = (other if va else this).explain(b)
        diff = f"verdict: {'valid' if va else 'invalid'} here, {'valid' if vb else 'invalid'} there ({why})"
    return Compat(not diff, diff, va, vb)
