"""Whether one word means the same on another generation.

The rule: the two generations decode the word to the same instruction (the same opcode name
and struct) and every field both have holds the same value (its text-form value: enum
members by name, addresses by place, floats exactly); a field only one generation has counts
only when it is not at its zero value (the value an all-zero field reads as): at zero it is
reported as a note, not a difference. The verdict of each generation's validators must agree
too. The first difference is named; `differences` lists them all."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .codec import DecodeError, as_bytes

Leaf = tuple[str, Any, Any]  # (path, value here, value there)


@dataclass(frozen=True)
class Compat:
    same: bool
    difference: str  # "" when the same, else the first difference
    this_valid: bool
    other_valid: bool
    differences: tuple[str, ...] = ()  # every difference, the first one first
    notes: tuple[str, ...] = ()  # fields only one generation has, at their zero value

    def __bool__(self) -> bool:
        return self.same


@dataclass
class FieldDiff:
    """Field by field: leaves both views have with different values, and the leaves only one
    view has (path, value)."""

    differ: list[Leaf]
    only_here: list[tuple[str, Any]]
    only_there: list[tuple[str, Any]]


def _walk(a: Any, b: Any, path: str, out: FieldDiff) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            sub = f"{path}.{k}" if path else str(k)
            if k not in b:
                _leaves(a[k], sub, out.only_here)
            elif k not in a:
                _leaves(b[k], sub, out.only_there)
            else:
                _walk(a[k], b[k], sub, out)
        return
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _walk(x, y, f"{path}[{i}]", out)
        return
    if not _equal(a, b):
        out.differ.append((path, a, b))


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True  # the text form keeps a NaN's payload in a string; a bare nan is nan
    return bool(type(a) is type(b) and a == b)


def _leaves(v: Any, path: str, out: list[tuple[str, Any]]) -> None:
    if isinstance(v, dict):
        for k, x in v.items():
            _leaves(x, f"{path}.{k}", out)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            _leaves(x, f"{path}[{i}]", out)
    else:
        out.append((path, v))


def field_diff(a: dict[str, Any], b: dict[str, Any]) -> FieldDiff:
    """The leaf-by-leaf comparison of two `to_dict(word)["fields"]` views."""
    out = FieldDiff([], [], [])
    _walk(a, b, "", out)
    return out


def field_differences(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(path, value in a, value in b) of every field of two `to_dict` views (their "fields")
    that differs, values as JSON text, a field only one view has shown as `-` on the other."""
    d = field_diff(a.get("fields", a), b.get("fields", b))
    out = [(p, _show(x), _show(y)) for p, x, y in d.differ]
    out += [(p, _show(x), "-") for p, x in d.only_here]
    out += [(p, "-", _show(y)) for p, y in d.only_there]
    return out


def _show(v: Any) -> str:
    return v if isinstance(v, str) else json.dumps(v)


def _lookup(view: Any, path: str) -> tuple[bool, Any]:
    """The leaf at `path` (`a.b[2].c`) of a view, (False, None) when it has none there."""
    cur = view
    for part in path.replace("[", ".[").split("."):
        if part.startswith("["):
            i = int(part[1:-1])
            if not isinstance(cur, list) or i >= len(cur):
                return False, None
            cur = cur[i]
        else:
            if not isinstance(cur, dict) or part not in cur:
                return False, None
            cur = cur[part]
    return True, cur


def _zero_view(m: ModuleType, opcode: int) -> dict[str, Any]:
    """The fields of `m`'s struct for `opcode` with every byte but the opcode zero."""
    view: dict[str, Any] = m.to_dict(bytes([opcode]) + bytes(63))["fields"]
    return view


def _at_zero(zero: dict[str, Any], path: str, value: Any) -> bool:
    found, z = _lookup(zero, path)
    return found and _equal(z, value)


def resolve(this: ModuleType, other_gen: Any) -> ModuleType:
    """The generation module `other_gen` names (a generation name, or the module itself).
    TypeError for anything else; ValueError for a name that is no generation of this package."""
    package = sys.modules[this.__name__.rsplit(".", 1)[0]]
    names: tuple[str, ...] = package.GENERATIONS
    if isinstance(other_gen, str):
        if other_gen not in names:
            raise ValueError(f"other_gen: one of {', '.join(names)}, not {other_gen!r}")
        module: ModuleType = package.gen(other_gen)
        return module
    if isinstance(other_gen, ModuleType) and getattr(other_gen, "NAME", None) in names:
        return other_gen
    raise TypeError(
        f"other_gen: a generation name ({', '.join(names)}) or module, "
        f"not {type(other_gen).__name__}"
    )


def compat(this: ModuleType, word: Any, other_gen: Any) -> Compat:
    """`word` on generation module `this` against `other_gen` (a name or module): see the
    module's rule. TypeError / ValueError for a word or generation that is none."""
    b = as_bytes(word)
    other = resolve(this, other_gen)
    if len(b) != 64:
        raise ValueError(f"word: a TPB instruction word is 64 bytes, this one has {len(b)}")
    views: list[dict[str, Any] | None] = []
    for m in (this, other):
        try:
            m.decode(b)
            views.append(m.to_dict(b))
        except DecodeError:
            views.append(None)
    va, vb = bool(this.validate(b)), bool(other.validate(b))
    diffs: list[str] = []
    notes: list[str] = []
    a, c = views
    if a is None or c is None:
        if (a is None) != (c is None):
            which = this.NAME if a is None else other.NAME
            diffs.append(f"decode: {which} does not decode opcode {b[0]:#04x}")
    elif a["opcode"] != c["opcode"]:
        diffs.append(f"opcode {b[0]:#04x}: {a['opcode']} here, {c['opcode']} there")
    elif type(this.decode(b)).__name__ != type(other.decode(b)).__name__:
        sa, sb = type(this.decode(b)).__name__, type(other.decode(b)).__name__
        diffs.append(f"struct: {sa} here, {sb} there")
    else:
        diffs, notes = _by_field(this, other, b[0], a["fields"], c["fields"])
    if va != vb:
        why = (other if va else this).explain(b)
        diffs.append(
            f"verdict: {'valid' if va else 'invalid'} here, "
            f"{'valid' if vb else 'invalid'} there ({why})"
        )
    return Compat(not diffs, diffs[0] if diffs else "", va, vb, tuple(diffs), tuple(notes))


def _by_field(
    this: ModuleType, other: ModuleType, opcode: int, a: dict[str, Any], c: dict[str, Any]
) -> tuple[list[str], list[str]]:
    d = field_diff(a, c)
    diffs = [f"{p}: {x!r} here, {y!r} there" for p, x, y in d.differ]
    notes: list[str] = []
    for side, leaves, m in (("here", d.only_here, this), ("there", d.only_there, other)):
        zero = _zero_view(m, opcode) if leaves else {}
        for p, v in leaves:
            if _at_zero(zero, p, v):
                notes.append(f"{p}: only {side}, at its zero value ({v!r})")
            else:
                diffs.append(f"{p}: only {side} ({v!r})")
    return diffs, notes
