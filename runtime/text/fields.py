"""A field of a generated struct as the text form reads and writes it: its raw values (`Leaf`, a
float as its bits), a float's shortest exact text, and per-class lookups made once (members,
fields by name, default bytes, a field's bits in a word)."""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..codec import put_bits, sext, uint
from ..layout import FieldLayout, Union

# -- values as text ---------------------------------------------------------------------------

_F = {4: ("<f", "<I", 23, 8), 8: ("<d", "<Q", 52, 11)}


def float_text(bits: int, size: int) -> str:
    """The shortest text that reads back to these float bits; `nan:0x…` for a NaN (any payload)."""
    ffmt, ifmt, mant, expw = _F[size]
    if (bits >> mant) & ((1 << expw) - 1) == (1 << expw) - 1 and bits & ((1 << mant) - 1):
        return f"nan:{bits:#0{size * 2 + 2}x}"
    value = struct.unpack(ffmt, struct.pack(ifmt, bits))[0]
    return str(np.float32(value)) if size == 4 else repr(value)


def float_bits(text: str, size: int) -> int:
    """The bits of a float literal (`float_text`'s inverse), rounded to the field's width as C
    rounds a constant; `nan` alone is the default quiet NaN."""
    if text.lower().startswith("nan:"):
        return int(text[4:], 16)
    value = float(text)
    if size == 4:
        try:  # C's (float) cast, as numpy's; a value it rounds to infinity overflows here
            bits4: int = struct.unpack("<I", struct.pack("<f", value))[0]
            return bits4
        except OverflowError:
            pass
        with np.errstate(over="ignore"):
            return int(np.array(value, dtype=np.float32).view(np.uint32))
    bits: int = struct.unpack("<Q", struct.pack("<d", value))[0]
    return bits


def is_reserved(f: FieldLayout) -> bool:
    return f.name.lower().startswith(("reserved", "pad", "_"))


def is_union(f: FieldLayout) -> bool:
    return f.kind == "struct" and isinstance(f.cls, type) and issubclass(f.cls, Union)


# -- leaf fields: raw values in, raw values out ------------------------------------------------


STRUCT_CODES = {1: "B", 2: "H", 4: "I", 8: "Q"}


class Leaf:
    """How one scalar (or scalar array) field is read and written as raw integers (a float as
    its bits, so every value, NaN payloads included, reads back exactly)."""

    __slots__ = ("bits", "es", "f", "off", "pack", "reserved", "signed", "unpack")

    def __init__(self, f: FieldLayout) -> None:
        self.f = f
        self.off = f.offset
        self.es = f.size // f.count if f.bit_width is None else f.size
        self.bits = f.bit_width if f.bit_width is not None else self.es * 8
        self.signed = f.kind == "int"
        self.reserved = is_reserved(f)
        if f.bit_width is None:
            code = STRUCT_CODES[self.es]
            st = struct.Struct(f"<{f.count}{code.lower() if self.signed else code}")
            self.unpack, self.pack = st.unpack_from, st.pack_into

    def read(self, b: bytes, base: int) -> Sequence[int]:
        f = self.f
        if f.bit_width is None:
            vals: Sequence[int] = self.unpack(b, base + self.off)
            return vals
        raw = (uint(b, base + f.offset, f.size) >> (f.bit_offset or 0)) & ((1 << f.bit_width) - 1)
        return (sext(raw, f.bit_width) if self.signed else raw,)

    def write(self, out: bytearray, base: int, values: Sequence[int]) -> None:
        f = self.f
        if f.bit_width is None:
            self.pack(out, base + self.off, *values)
        else:
            put_bits(out, base + f.offset, f.size, f.bit_offset or 0, f.bit_width, values[0])

    @property
    def range(self) -> tuple[int, int]:
        if self.signed:
            return -(1 << (self.bits - 1)), (1 << (self.bits - 1)) - 1
        return 0, (1 << self.bits) - 1


_LEAVES: dict[int, Leaf] = {}  # by id(): a FieldLayout lives as long as its class's LAYOUT


def leaf_of(f: FieldLayout) -> Leaf:
    leaf = _LEAVES.get(id(f))
    if leaf is None or leaf.f is not f:
        leaf = _LEAVES[id(f)] = Leaf(f)
    return leaf


_MEMBERS: dict[type[Any], dict[str, int]] = {}
_BY_NAME: dict[type[Any], dict[str, FieldLayout]] = {}
_DEFAULTS: dict[type[Any], bytes] = {}


def member_values(cls: type[Any]) -> dict[str, int]:
    """An enum's member names (aliases too), lower-cased, with their values."""
    found = _MEMBERS.get(cls)
    if found is None:
        found = _MEMBERS[cls] = {k.lower(): int(m) for k, m in cls.__members__.items()}
    return found


def fields_by_name(cls: type[Any]) -> dict[str, FieldLayout]:
    """A struct's or union's fields by lower-cased name."""
    found = _BY_NAME.get(cls)
    if found is None:
        found = _BY_NAME[cls] = {f.name.lower(): f for f in cls.LAYOUT}
    return found


def default_bytes(cls: type[Any]) -> bytes:
    """The bytes of a default-built instance: what `asm` starts from."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = _DEFAULTS[cls] = bytes(cls().to_bytes())
    return found


_BITS: dict[tuple[int, int], int] = {}


def bits_of(f: FieldLayout, base: int) -> int:
    """The bits of a leaf field at `base` in a word, as an int (byte k at bits 8k..8k+7)."""
    key = (id(f), base)
    found = _BITS.get(key)
    if found is None:
        at = 8 * (base + f.offset)
        if f.bit_width is None:
            found = ((1 << (8 * f.size)) - 1) << at
        else:
            found = ((1 << f.bit_width) - 1) << (at + (f.bit_offset or 0))
        _BITS[key] = found
    return found
