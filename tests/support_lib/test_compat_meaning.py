"""compat(word, other_gen) by meaning, held to an oracle written apart from it: the struct
objects each generation decodes, walked field by field over their LAYOUTs (not the text form's
`to_dict`, which compat reads). The rule (generated README): the same instruction, every field
both generations have equal, a field only one has counting only when not at its zero value
(a note then), the same verdict."""

from __future__ import annotations

import struct
from enum import IntEnum
from typing import Any

import pytest
from emit.runtime_import import gen_module


def _leaf(v: Any) -> Any:
    """A field's meaning: enum members by name (an undefined value by number), floats by bits,
    unions by their bytes."""
    if isinstance(v, IntEnum):
        return ("enum", v.name)
    if isinstance(v, float):
        return ("f", struct.pack("<d", v))
    if hasattr(v, "to_bytes") and not isinstance(v, int):
        return ("bytes", v.to_bytes())
    if isinstance(v, tuple):
        return tuple(_leaf(x) for x in v)
    return v


def _zero(v: Any) -> bool:
    if isinstance(v, tuple):
        return all(_zero(x) for x in v)
    if hasattr(v, "to_bytes") and not isinstance(v, int):
        return not any(v.to_bytes())
    if isinstance(v, float):
        return struct.pack("<d", v) == bytes(8)
    return int(v) == 0


def _fields(obj: Any) -> dict[str, Any]:
    layout = obj.LAYOUT if isinstance(obj, _Arms) else type(obj).LAYOUT
    return {f.name: (f, getattr(obj, f.name)) for f in layout}


def _is_union(cls: Any) -> bool:
    return "Union" in [c.__name__ for c in cls.__mro__]


def _place(m: Any, union: Any) -> str | None:
    """Where a union's pointer arm (an address immediate, a scalar pointer) points on generation
    `m`, None when nowhere or when it has none (the executor's own `locate`)."""
    arm = next((n for n in ("addr_immediate", "imm_ptr") if n in _fields(union)), None)
    if arm is None:
        return None
    try:
        return str(m.Executor.locate(_EXECUTORS[m.NAME], int(getattr(union, arm))))
    except ValueError:
        return None


class _Arms:
    """A union seen through the arms both generations give it."""

    def __init__(self, union: Any, names: list[str]) -> None:
        self.LAYOUT = [f for f in type(union).LAYOUT if f.name in names]
        for n in names:
            setattr(self, n, getattr(union, n))


_EXECUTORS: dict[str, Any] = {}


def _compare(
    ms: tuple[Any, Any], a: Any, b: Any, path: str, differ: list[str], only: list[tuple[str, bool]]
) -> None:
    fa, fb = _fields(a), _fields(b)
    for name in list(fa) + [n for n in fb if n not in fa]:
        p = f"{path}{name}"
        if name not in fb or name not in fa:
            (_, v) = fa[name] if name in fa else fb[name]
            only.append((p, _zero(v)))
            continue
        (la, va), (lb, vb) = fa[name], fb[name]
        if la.kind == "struct" and lb.kind == "struct" and not la.dims and not lb.dims:
            if _is_union(type(va)) and _is_union(type(vb)):
                _compare_unions(ms, fa.get(f"{name}_src", (None, None))[1], va, vb, p, differ, only)
            else:
                _compare(ms, va, vb, p + ".", differ, only)
        elif _leaf(va) != _leaf(vb) or _places(ms, la, va) != _places(ms, lb, vb):
            differ.append(p)


def _places(ms: tuple[Any, Any], f: Any, v: Any) -> tuple[str | None, ...]:
    """Where a PartitionOffset field points on each generation (its meaning: the same bits can
    name a byte on one generation and another byte, or none, on the next), () for any other
    field."""
    if not f.c_type.endswith("PARTITION_OFFSET") or f.dims:
        return ()
    return tuple(_where(m, int(v)) for m in ms)


def _where(m: Any, addr: int) -> str | None:
    try:
        return str(m.Executor.locate(_EXECUTORS[m.NAME], addr))
    except ValueError:
        return None


def _shown_arm(m: Any, union: Any) -> str:
    """The struct arm a union's bytes mean on generation `m`: an INDIRECT arm when the first
    address's marker byte (byte 3) is one of the headers' `*MARKER_INDIRECT*` constants, else
    the first struct arm (C's default member)."""
    arms = [f for f in type(union).LAYOUT if f.kind == "struct"]
    markers = {v for k, v in vars(m.constants).items() if "MARKER_INDIRECT" in k}
    indirect = [f for f in arms if "INDIRECT" in f.c_type]
    raw = union.to_bytes()
    if indirect and len(raw) > 3 and raw[3] in markers:
        return str(indirect[0].name)
    return str(arms[0].name) if arms else ""


def _compare_unions(
    ms: tuple[Any, Any],
    src: Any,
    va: Any,
    vb: Any,
    p: str,
    differ: list[str],
    only: list[tuple[str, bool]],
) -> None:
    """A union's arms are views of the same bytes: compared as bytes, a pointer arm by the place
    it names (when its `_src` sibling, if any, says it holds a pointer), and the struct arm the
    bytes mean (`_shown_arm`) field by field."""
    pointer = src is None or any(k in getattr(src, "name", "") for k in ("PTR", "POINTER"))
    places = (_place(ms[0], va), _place(ms[1], vb)) if pointer else (None, None)
    if va.to_bytes() != vb.to_bytes() or places[0] != places[1]:
        differ.append(p)
        return
    shown = (_shown_arm(ms[0], va), _shown_arm(ms[1], vb))
    if shown[0] != shown[1]:
        differ.append(p)
        return
    arm = [n for n in shown[:1] if n and n in _fields(vb)]
    _compare(ms, _Arms(va, arm), _Arms(vb, arm), p + ".", differ, only)


def oracle(this: Any, other: Any, word: bytes) -> tuple[bool, list[str]]:
    """(same, paths of the fields only one generation has at zero)."""
    verdicts = this.validate(word) == other.validate(word)
    decoded = []
    for m in (this, other):
        try:
            decoded.append(m.decode(word))
        except ValueError:
            decoded.append(None)
    a, b = decoded
    if a is None or b is None:
        return verdicts and a is None and b is None, []
    if this.opcode_status(word[0]).name != other.opcode_status(word[0]).name:
        return False, []
    if type(a).__name__ != type(b).__name__:
        return False, []
    differ: list[str] = []
    only: list[tuple[str, bool]] = []
    for m in (this, other):
        _EXECUTORS.setdefault(m.NAME, m.Executor(backend="numpy"))
    _compare((this, other), a, b, "", differ, only)
    at_zero = [p for p, z in only if z]
    return verdicts and not differ and all(z for _, z in only), at_zero


@pytest.mark.parametrize(("gen", "other"), [("mariana", "maverick"), ("sunda", "cayman")])
def test_compat_agrees_with_a_field_by_field_oracle(gen: str, other: str) -> None:
    this, that = gen_module(gen), gen_module(other)
    words = [bytes(w) for w in this.random_words(300, seed=11)]
    words += [bytes(w) for w in this.bench.near_misses(60, 0x43, seed=11)[0]]
    agree = same = 0
    for w in words:
        got = this.compat(w, other)
        want, zero_only = oracle(this, that, w)
        assert got.same == want, (w.hex(), got, zero_only)
        assert got.same == (got.difference == "") == (not got.differences)
        for note in got.notes:  # a note is a field only one has, at zero, by the oracle too
            assert note.split(":")[0] in zero_only, (note, zero_only)
        agree += 1
        same += got.same
    assert agree == len(words) and 0 < same < len(words)  # both answers on real stimulus


def test_a_field_only_one_generation_has_is_a_note_at_zero_and_a_difference_else() -> None:
    """mariana's header.debug_hint is maverick's header.inst_flags (the same byte): at zero
    both are notes and the word means the same; set, both are differences."""
    mariana = gen_module("mariana")
    valid = [
        bytes(w)
        for w in mariana.random_words(200, opcode=0x43, seed=4)
        if mariana.compat(bytes(w), "maverick").same
    ]
    assert valid, "some TensorScalar word means the same on maverick"
    w = bytearray(valid[0])
    assert mariana.decode(bytes(w)).header.debug_hint == 0
    r = mariana.compat(bytes(w), "maverick")
    assert r.same and r.difference == ""
    assert "header.debug_hint: only here, at its zero value (0)" in r.notes
    assert "header.inst_flags: only there, at its zero value (0)" in r.notes
    w[3] = 5  # debug_hint / inst_flags
    r = mariana.compat(bytes(w), "maverick")
    assert not r.same
    assert r.differences[:2] == (
        "header.debug_hint: only here (5)",
        "header.inst_flags: only there (5)",
    )
