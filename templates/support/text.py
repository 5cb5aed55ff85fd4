"""The text form of an instruction word: a disassembler, an assembler and a dict form, for any
generation, driven by the structs' `LAYOUT` tables.

One line per word::

    TENSOR_SCALAR_ARITH_OP header={inst_word_len=64 debug_cmd=0 debug_hint=0} ... imm0=1.5 ...

The mnemonic is the opcode's enum name; then every field of the struct the opcode is bound to, as
`name=value`: enums by member name (a value the enum does not define as hex), floats as the
shortest text that reads back to the same bits (`nan:0x7fc00001` keeps a NaN's payload),
PartitionOffsets as `sbuf[partition]+offset` / `psum[...]+...` when they point at an existing
byte, nested structs in braces, arrays in brackets. A union shows one arm, chosen for
readability (`ARM_RULES` below); `name.arm=value` names the arm where the value alone would not.
Reserved fields are shown only when non-zero, and any byte the fields shown do not reproduce
(padding, a `_Bool` holding 2, bits no field covers) follows as `@offset=0xNN`. Words whose opcode
does not decode on the generation are `.word 0x` + their 64 bytes in memory order. So
`asm(disasm(w)) == w` for every 64-byte word; `disasm(w, compact=True)` also leaves out every
field that holds its default (what `asm` fills in for an omitted field), and reads back as exactly.
`asm` also reads the lines of a `python -m tpb_isa disasm` listing: a leading `OFFSET:` column
and a column of the word's 128 hex digits are skipped (`TextForm.listing_columns`). A text of
many lines is read as a batch (`_FastAsm`): a line in `disasm`'s own spelling is split into its
fields' texts by one expression per mnemonic made from the struct's `LAYOUT` (or, for the
skeletons a mnemonic's lines mostly have, at its blanks: by the C text scanner, `textscan`,
where it is built, which gives each token an id and no string), each distinct text is read
once by the same parser, and every other line by the per-line parser, so what `asm` accepts
and every error it gives are the per-line parser's.

Grammar (EBNF; names are case-insensitive, `;` starts a comment, one instruction per line)::

    program    = { line "\\n" } ;
    line       = [ statement ] [ ";" { any character } ] ;
    statement  = ".word" HEX128 | MNEMONIC { assignment } ;
    assignment = NAME [ "." ARM ] "=" value | "@" INT "=" INT ;
    value      = INT | FLOAT | NAME | address | "{" { assignment } "}" | "[" [ value { "," value } ] "]" ;
    address    = ( "sbuf" | "psum" ) "[" INT "]" "+" INT ;
    INT        = [ "-" ] ( DIGITS | "0x" HEXDIGITS ) ;
    FLOAT      = [ "-" ] ( DIGITS "." [ DIGITS ] [ EXP ] | DIGITS EXP | "inf" ) | "nan:0x" HEXDIGITS ;

Omitted fields keep the struct's defaults (those of `cls()`); the opcode comes from the mnemonic.
A union given without an arm takes its only float arm for a FLOAT, its PartitionOffset arm for
an address, else its first arm (C's default member).
"""

from __future__ import annotations

import math
import re
import struct
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from enum import IntEnum
from itertools import chain, count
from typing import Any, NoReturn, cast

import numpy as np

from .addressing import DEFAULT_PARTITION_ADDR_MASK, AddressMap
from .codec import Word, as_bytes, put_bits, sext, uint
from .decoding import WORD_SIZE, Decoder
from .layout import FieldLayout, Struct, Union
from .textscan import Scan, scans

__all__ = ["AsmError", "TextForm"]


Where = tuple[int, int] | str  # (line, column), or a JSON pointer


class AsmError(ValueError):
    """Text the assembler cannot read: `where` is `line:col` (or a JSON pointer for `from_dict`)."""

    def __init__(self, message: str, where: Where) -> None:
        self.message = message
        self.where = where if isinstance(where, str) else f"{where[0]}:{where[1]}"
        super().__init__(f"{self.where}: {message}")


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


def _is_partition_offset(f: FieldLayout) -> bool:
    return f.c_type.endswith("PARTITION_OFFSET")


def _is_reserved(f: FieldLayout) -> bool:
    return f.name.lower().startswith(("reserved", "pad", "_"))


def _is_union(f: FieldLayout) -> bool:
    return f.kind == "struct" and isinstance(f.cls, type) and issubclass(f.cls, Union)


# -- leaf fields: raw values in, raw values out ------------------------------------------------


_CODES = {1: "B", 2: "H", 4: "I", 8: "Q"}


class _Leaf:
    """How one scalar (or scalar array) field is read and written as raw integers (a float as
    its bits, so every value, NaN payloads included, reads back exactly)."""

    __slots__ = ("bits", "es", "f", "off", "pack", "reserved", "signed", "unpack")

    def __init__(self, f: FieldLayout) -> None:
        self.f = f
        self.off = f.offset
        self.es = f.size // f.count if f.bit_width is None else f.size
        self.bits = f.bit_width if f.bit_width is not None else self.es * 8
        self.signed = f.kind == "int"
        self.reserved = _is_reserved(f)
        if f.bit_width is None:
            code = _CODES[self.es]
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


_LEAVES: dict[int, _Leaf] = {}  # by id(): a FieldLayout lives as long as its class's LAYOUT


def _leaf(f: FieldLayout) -> _Leaf:
    leaf = _LEAVES.get(id(f))
    if leaf is None or leaf.f is not f:
        leaf = _LEAVES[id(f)] = _Leaf(f)
    return leaf


_MEMBERS: dict[type[Any], dict[str, int]] = {}
_BY_NAME: dict[type[Any], dict[str, FieldLayout]] = {}
_DEFAULTS: dict[type[Any], bytes] = {}


def _members(cls: type[Any]) -> dict[str, int]:
    """An enum's member names (aliases too), lower-cased, with their values."""
    found = _MEMBERS.get(cls)
    if found is None:
        found = _MEMBERS[cls] = {k.lower(): int(m) for k, m in cls.__members__.items()}
    return found


def _by_name(cls: type[Any]) -> dict[str, FieldLayout]:
    """A struct's or union's fields by lower-cased name."""
    found = _BY_NAME.get(cls)
    if found is None:
        found = _BY_NAME[cls] = {f.name.lower(): f for f in cls.LAYOUT}
    return found


def _default_bytes(cls: type[Any]) -> bytes:
    """The bytes of a default-built instance: what `asm` starts from."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = _DEFAULTS[cls] = bytes(cls().to_bytes())
    return found


_BITS: dict[tuple[int, int], int] = {}


def _bits(f: FieldLayout, base: int) -> int:
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


# one field's step in `TextForm._plain_fields_of`: (kind, field, leaf, value, bits)
_PlainStep = tuple[str, FieldLayout, "_Leaf | None", "Callable[[int], Any] | None", int]


# -- choosing the arm a union shows --------------------------------------------------------------


def _arm_named(u: type[Union], *words: str) -> FieldLayout | None:
    for a in u.LAYOUT:
        if any(w in a.name.lower() for w in words):
            return a
    return None


_INLINE_ARMS: dict[type[Any], FieldLayout] = {}


def _inline_arm(u: type[Union]) -> FieldLayout:
    found = _INLINE_ARMS.get(u)
    if found is None:
        plain = [a for a in u.LAYOUT if not any(w in a.name.lower() for w in ("ptr", "reg"))]
        floats = [a for a in plain if a.kind == "float"]
        found = _INLINE_ARMS[u] = (floats or plain or list(u.LAYOUT))[0]
    return found


def _bare_arm(u: type[Union], kind: str) -> FieldLayout:
    """The arm a value of this kind ("float", "address", other) takes when no arm is named."""
    if kind == "float":
        floats = [a for a in u.LAYOUT if a.kind == "float"]
        if len(floats) == 1:
            return floats[0]
    if kind == "address":
        for a in u.LAYOUT:
            if _is_partition_offset(a):
                return a
    return u.LAYOUT[0]


def choose_arm(
    u: type[Union],
    name: str,
    b: bytes,
    base: int,
    siblings: Mapping[str, Any],
    mask: int = DEFAULT_PARTITION_ADDR_MASK,
    indirect_markers: frozenset[int] = frozenset(),
) -> FieldLayout:
    """The arm a union shows (presentation only: the text form is exact whichever it is).
    `siblings` maps the enum fields read so far in the enclosing struct to their member names.

    1. a sibling enum field `<name>_src` selects: a member naming a register (REG) shows the
       register arm, a pointer (POINTER/PTR) the pointer arm, anything else the inline (float,
       else first plain) arm;
    2. a union of a PartitionOffset and a struct (an address or a register): the address when no
       bit above the partition-address mask is set, else the struct; a union with a float arm
       and no selector: the inline arm;
    3. a struct arm whose C type says INDIRECT when the first address's marker byte is one of
       the headers' `*MARKER_INDIRECT*` constants;
    4. else the first arm (C's default member)."""
    label = siblings.get(f"{name}_src")
    if isinstance(label, str):
        if "REG" in label:
            arm = _arm_named(u, "reg")
        elif "POINTER" in label or "PTR" in label:
            arm = _arm_named(u, "ptr")
        else:
            arm = _inline_arm(u)
        if arm is not None:
            return arm
    po, st, floats, ind = _shape(u)
    if po is not None and st is not None and len(u.LAYOUT) == 2:
        return po if uint(b, base, po.size) & ~mask == 0 else st
    if floats:
        return _inline_arm(u)
    if indirect_markers and ind is not None and u.SIZE > 3 and b[base + 3] in indirect_markers:
        return ind
    return u.LAYOUT[0]


_SHAPES: dict[type[Any], tuple[FieldLayout | None, FieldLayout | None, bool, FieldLayout | None]]
_SHAPES = {}


def _shape(
    u: type[Union],
) -> tuple[FieldLayout | None, FieldLayout | None, bool, FieldLayout | None]:
    """What `choose_arm` looks for in a union's arms: its first PartitionOffset arm, its first
    struct arm, whether an arm is a float, its first INDIRECT struct arm (found once)."""
    found = _SHAPES.get(u)
    if found is None:
        found = _SHAPES[u] = (
            next((a for a in u.LAYOUT if _is_partition_offset(a)), None),
            next((a for a in u.LAYOUT if a.kind == "struct"), None),
            any(a.kind == "float" for a in u.LAYOUT),
            next((a for a in u.LAYOUT if "INDIRECT" in a.c_type and a.kind == "struct"), None),
        )
    return found


# -- repr ----------------------------------------------------------------------------------------

_FORMS: dict[type[Any], TextForm] = {}  # each generation's struct and union classes -> its form


def _py(v: Any) -> str:
    if isinstance(v, IntEnum):
        return f"{type(v).__name__}.{v.name}"
    if isinstance(v, tuple):
        return "(" + ", ".join(map(_py, v)) + ("," if len(v) == 1 else "") + ")"
    return repr(v)


def _arm_repr(u: Union, arm: FieldLayout) -> str:
    return f"{type(u).__name__}.of_{arm.name}({_py(u.arm(arm.name))})"


def union_repr(u: Union) -> str:
    """`Cls.of_arm(value)`: the union shown through the arm `choose_arm` picks (no context)."""
    form = _FORMS.get(type(u))
    b = u.to_bytes()
    arm = form._choose_arm(type(u), "", b, 0, {}) if form else choose_arm(type(u), "", b, 0, {})
    return _arm_repr(u, arm)


def struct_repr(s: Struct) -> str:
    """`Cls(field=value, ...)` with enum members by name and each union through the arm the
    text form shows in this struct (an immediate as the float its `_src` field selects)."""
    form = _FORMS.get(type(s))
    siblings: dict[str, Any] = {}
    parts = []
    for f in s.LAYOUT:
        v = getattr(s, f.name)
        if isinstance(v, IntEnum):
            siblings[f.name] = v.name
        if isinstance(v, Union) and not f.dims:
            b = v.to_bytes()
            arm = (
                form._choose_arm(type(v), f.name, b, 0, siblings)
                if form
                else choose_arm(type(v), f.name, b, 0, siblings)
            )
            parts.append(f"{f.name}={_arm_repr(v, arm)}")
        else:
            parts.append(f"{f.name}={_py(v)}")
    return f"{type(s).__name__}({', '.join(parts)})"


# -- the per-generation text form --------------------------------------------------------------


_TOKEN = re.compile(
    r"nan:0[xX][0-9a-fA-F]+|-?inf\b|-?\d[\w.]*(?:(?<=[eE])[+-]\d+)?|[A-Za-z_]\w*|;.*|\S"
)
_INT = re.compile(r"-?(?:0[xX][0-9a-fA-F]+|0|[1-9]\d*)\Z")  # no leading zeros (C: octal)
_FLOAT = re.compile(
    r"-?(?:\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|inf)\Z|nan:0[xX][0-9a-fA-F]+\Z"
)
_NAME = re.compile(r"[A-Za-z_]\w*\Z")
_LISTING = re.compile(
    r"\s*(?P<addr>[0-9a-fA-F]+:(?:\s+|\Z))?(?:(?P<enc>[0-9a-fA-F]{128})(?:\s+|\Z))?"
)


def _line_end(text: str, start: int, lines: int) -> int:
    """Where the `lines` lines of `text` from `start` on end: the newline after the last of
    them, or the text's end if it has no more."""
    at = start - 1
    for _ in range(lines):
        at = text.find("\n", at + 1)
        if at < 0:
            return len(text)
    return at


def _has_lines(text: str, n: int) -> bool:
    """Whether `text` has `n` lines or more (`n - 1` newlines), looking no further."""
    return _line_end(text, 0, n - 1) < len(text)


def _split_lines(text: str, start: int) -> Iterator[list[str]]:
    """The lines of `text` from `start` on, split in Python, `_FAST_LINES` at a time."""
    lines = (text[start:] if start else text).split("\n")
    if len(lines) <= _FAST_LINES:
        yield lines
        return
    for first in range(0, len(lines), _FAST_LINES):
        yield lines[first : first + _FAST_LINES]


class TextForm:
    """`disasm`, `asm`, `to_dict` and `from_dict` for one generation."""

    def __init__(
        self,
        decoder: Decoder,
        constants: Mapping[str, Any] | None = None,
        geometry: Mapping[str, int] | None = None,
    ) -> None:
        self.decoder = decoder
        self.opcodes = decoder.opcodes
        self.addresses: AddressMap | None = None
        if geometry:
            try:
                self.addresses = AddressMap(geometry)
            except ValueError:
                self.addresses = None
        consts = dict(constants or {})
        self._indirect_markers = frozenset(
            int(v) for k, v in consts.items() if "MARKER_INDIRECT" in k and isinstance(v, int)
        )
        self._mnemonics = _members(self.opcodes)
        todo = list(decoder.structs.values())
        while todo:
            cls = todo.pop()
            if cls not in _FORMS:
                _FORMS[cls] = self
                todo += [f.cls for f in cls.LAYOUT if f.kind == "struct"]
        self._formatters: dict[int, Callable[[int], str]] = {}
        self._plainers: dict[int, Callable[[int], Any]] = {}
        self._plans: dict[tuple[type[Any], int, bool], list[_PlainStep]] = {}
        self._batch: _BatchText | None = None
        self._fast: _FastAsm | None = None

    # -- disassembly ---------------------------------------------------------------------------

    def disasm(self, word: Word, *, compact: bool = False) -> str:
        """The word on one line (see the module docstring); exact: `asm(disasm(w)) == w`.
        `compact=True` leaves out every field that holds its default (what `asm` fills in for
        an omitted field), so the line is as exact and only as long as the word is unusual."""
        b = as_bytes(word, "word")
        if len(b) != WORD_SIZE:
            raise ValueError(
                f"word: a TPB instruction word is {WORD_SIZE} bytes, this one has {len(b)}"
            )
        cls = self.decoder.structs.get(b[0])
        if cls is None:
            return ".word 0x" + b.hex()
        out = self._base(cls, b[0])
        parts = self._fields(cls, b, 0, out, top=True, dflt=bytes(out) if compact else None)
        overrides = [f"@{k}={b[k]:#04x}" for k in range(WORD_SIZE) if out[k] != b[k]]
        return " ".join([self.opcodes(b[0]).name, *parts, *overrides])

    def disasm_rows(
        self, words: np.ndarray[Any, np.dtype[np.uint8]], *, compact: bool = False
    ) -> Iterator[str]:
        """`disasm` of each row of an (N, 64) uint8 array, in order, the same text word for
        word; made a batch of rows at a time over numpy columns (`_BatchText`), so a listing
        costs a few microseconds a word. The command-line listing reads its text here."""
        if self._batch is None:
            self._batch = _BatchText(self)
        return self._batch.rows(words, compact)

    def _base(self, cls: type[Struct], opcode: int) -> bytearray:
        out = bytearray(_default_bytes(cls))
        out[0] = opcode
        return out

    def _fields(
        self,
        cls: type[Any],
        b: bytes,
        base: int,
        out: bytearray,
        top: bool = False,
        dflt: bytes | None = None,
    ) -> list[str]:
        """The `name=value` texts of a struct's fields. With `dflt` (the bytes `asm` starts
        from), a field whose bits equal its default there is left out: `out` holds it already."""
        parts = []
        values: dict[str, Any] = {}
        for f in cls.LAYOUT:
            if top and f.kind == "struct" and base + f.offset == 0 and not _is_union(f):
                # the header: its opcode is the mnemonic
                inner = self._fields(f.cls, b, f.offset, out, top=True, dflt=dflt)
                if inner or dflt is None:
                    parts.append(f"{f.name}={{{' '.join(inner)}}}")
                continue
            if top and base == 0 and f.offset == 0 and f.kind == "enum" and f.cls is self.opcodes:
                continue
            text = self._value(f, b, base, out, values, dflt)
            if text is not None:
                parts.append(text)
        return parts

    def _value(
        self,
        f: FieldLayout,
        b: bytes,
        base: int,
        out: bytearray,
        siblings: dict[str, Any],
        dflt: bytes | None = None,
    ) -> str | None:
        """`name=value` (or `name.arm=value`) for one field, writing what it shows into `out`;
        None for a reserved field that is zero, or (with `dflt`) a field at its default."""
        if f.kind == "struct" and dflt is not None:
            lo = base + f.offset
            if b[lo : lo + f.size] == dflt[lo : lo + f.size]:
                return None
        if _is_union(f):
            u = f.cls
            arm = self._choose_arm(u, f.name, b, base + f.offset, siblings)
            text, kind = self._arm_text(arm, b, base + f.offset, out, dflt)
            if _bare_arm(u, kind).name == arm.name:
                return f"{f.name}={text}"
            return f"{f.name}.{arm.name}={text}"
        if f.kind == "struct":
            return f"{f.name}={self._struct_text(f, b, base, out, dflt)}"
        leaf = _leaf(f)
        raw = leaf.read(b, base)
        if leaf.reserved and not any(raw):
            return None
        fmt = self._formatter(f)
        if not f.dims and f.kind == "enum":
            siblings[f.name] = fmt(raw[0])  # a union's arm follows its `_src`, shown or not
        if dflt is not None and tuple(raw) == tuple(leaf.read(dflt, base)):
            return None
        leaf.write(out, base, raw)
        if not f.dims:
            return f"{f.name}={fmt(raw[0])}"
        return f"{f.name}=[{','.join(map(fmt, raw))}]"

    def _struct_text(
        self, f: FieldLayout, b: bytes, base: int, out: bytearray, dflt: bytes | None
    ) -> str:
        """A struct field's value: `{...}`, or `[{...},...]` for an array of structs."""
        es = f.size // f.count
        items = [
            "{" + " ".join(self._fields(f.cls, b, base + f.offset + k * es, out, dflt=dflt)) + "}"
            for k in range(f.count)
        ]
        return items[0] if not f.dims else "[" + ",".join(items) + "]"

    def _arm_text(
        self, arm: FieldLayout, b: bytes, base: int, out: bytearray, dflt: bytes | None = None
    ) -> tuple[str, str]:
        if arm.kind == "struct":  # shown whole even when compact: the union differs somewhere
            return self._struct_text(arm, b, base, out, dflt), "struct"
        leaf = _leaf(arm)
        raw = leaf.read(b, base)
        leaf.write(out, base, raw)
        texts = list(map(self._formatter(arm), raw))
        if arm.dims:
            return "[" + ",".join(texts) + "]", "list"
        kind = "float" if arm.kind == "float" else "other"
        if _is_partition_offset(arm) and texts[0].startswith(("sbuf", "psum")):
            kind = "address"
        return texts[0], kind

    def _formatter(self, f: FieldLayout) -> Callable[[int], str]:
        """How one element of a scalar field is shown (built once per field)."""
        fmt = self._formatters.get(id(f))
        if fmt is not None:
            return fmt
        es = _leaf(f).es
        if f.kind == "float":

            def fmt(v: int) -> str:
                return float_text(v, es)

        elif f.kind == "enum":
            names = {int(m): m.name for m in f.cls}

            def fmt(v: int) -> str:
                return names.get(v) or hex(v)

        elif f.kind == "bool":

            def fmt(v: int) -> str:
                return "true" if v == 1 else "false" if v == 0 else str(v)

        elif _is_partition_offset(f) and self.addresses is not None:
            locate = self.addresses.try_locate

            def fmt(v: int) -> str:
                loc = locate(v)
                return str(loc) if loc is not None else hex(v)

        elif _is_partition_offset(f):
            fmt = hex
        else:
            fmt = str
        self._formatters[id(f)] = fmt
        return fmt

    def _choose_arm(
        self, u: type[Union], name: str, b: bytes, base: int, siblings: Mapping[str, Any]
    ) -> FieldLayout:
        mask = self.addresses.mask if self.addresses else DEFAULT_PARTITION_ADDR_MASK
        return choose_arm(u, name, b, base, siblings, mask, self._indirect_markers)

    # -- assembly ------------------------------------------------------------------------------

    def asm(self, text: str) -> bytes:
        """The words of `text`, one per non-empty line, concatenated (64 bytes each)."""
        return self._assemble(text).tobytes()

    def asm_lines(self, text: str) -> list[bytes]:
        """One 64-byte word per instruction line of `text` (blank and comment lines skipped).
        A line of a `disasm` listing reads as its instruction: a leading `OFFSET:` column and
        a column of the word's 128 hex digits are skipped (see `listing_columns`)."""
        b = self._assemble(text).tobytes()
        return [b[i : i + WORD_SIZE] for i in range(0, len(b), WORD_SIZE)]

    def _assemble(self, text: str) -> np.ndarray[Any, np.dtype[np.uint8]]:
        """The (N, 64) words of `text`: the lines in the text `disasm` writes go through
        `_FastAsm` (a batch over the lines), every other line through `_asm_line`, and an
        error is the first bad line's, located as `_asm_line` locates it."""
        if not isinstance(text, str):
            raise TypeError(f"text: assembly is a str, not {type(text).__name__}")
        if not _has_lines(text, _FAST_MIN_LINES):  # numpy's fixed costs outweigh a few lines'
            split = text.split("\n")  # parse
            words = [w for i, line in enumerate(split, 1) if (w := self._asm_line(line, i))]
            return np.frombuffer(b"".join(words), dtype=np.uint8).reshape(-1, WORD_SIZE)
        if self._fast is None:
            self._fast = _FastAsm(self)
        fast = self._fast
        # a long text a batch of lines at a time, in order (the first bad line's error is the
        # first raised): the tables of a batch's distinct texts stay small
        batches, declined, scanned, first = [], 0, 0, 0
        for lines in fast.batches(text):
            batches.append(fast.assemble(lines, first))
            declined += fast.declined
            scanned += fast.scanned
            first += len(lines)
        fast.declined, fast.scanned = declined, scanned
        return batches[0] if len(batches) == 1 else np.concatenate(batches)

    def _asm_scalar(self, text: str) -> list[bytes]:
        """`asm_lines` by the per-line parser alone (the fast path's reference)."""
        words = []
        for lineno, line in enumerate(text.split("\n"), 1):
            word = self._asm_line(line, lineno)
            if word is not None:
                words.append(word)
        return words

    def _asm_line(self, line: str, lineno: int) -> bytes | None:
        """The word of one line by the per-line parser; None for a line with no statement."""
        skip = self.listing_columns(line)
        tk = _Tokens(" " * skip + line[skip:], lineno)
        if tk.toks:
            return self._statement(tk)
        if skip:
            raise AsmError(
                "a listing line without its instruction after the offset and hex columns",
                (lineno, skip + 1),
            )
        return None

    def listing_columns(self, line: str) -> int:
        """How many leading characters of `line` are listing columns (objdump's habit): an
        `OFFSET:` (hex digits and a colon) and then, or alone, the word's encoding (128 hex
        digits), each followed by blanks; 0 for a line of assembly. A statement never starts
        so: a mnemonic is a name, and no opcode is named by 128 hex digits."""
        m = _LISTING.match(line)
        if m is None or (m.group("addr") is None and m.group("enc") is None):
            return 0
        enc = m.group("enc")
        if enc is not None and enc.lower() in self._mnemonics:
            return m.start("enc")
        return m.end()

    def _statement(self, tk: _Tokens) -> bytes:
        first = tk.next()
        if first == ".":
            directive = tk.next()
            if directive.lower() != "word":
                tk.fail(f"unknown directive .{directive} (only .word)", 0)
            digits = tk.next()
            if not (digits[:2].lower() == "0x" and len(digits) == 2 + 2 * WORD_SIZE):
                tk.fail(".word takes 0x and the word's 64 bytes in memory order (128 hex digits)")
            try:
                word = bytes.fromhex(digits[2:])
            except ValueError:
                tk.fail(f"{digits!r} is not hexadecimal")
            tk.expect("")
            return word
        if not _is_name(first):
            tk.fail(f"expected a mnemonic, found {_describe(first)}", 0)
        opcode = self._mnemonics.get(first.lower())
        if opcode is None:
            tk.fail(f"{first!r} is not a {self.decoder.generation} opcode", 0)
        cls = self.decoder.structs.get(opcode)
        if cls is None:
            tk.fail(f"{first} does not decode on {self.decoder.generation}: write it as .word", 0)
        out = self._base(cls, opcode)
        overrides: list[tuple[int, int]] = []
        self._struct_body(tk, cls, out, 0, True, "", overrides)
        for off, v in overrides:
            out[off] = v
        return bytes(out)

    def _struct_body(
        self,
        tk: _Tokens,
        cls: type[Any],
        out: bytearray,
        base: int,
        header: bool,
        closer: str,
        overrides: list[tuple[int, int]] | None = None,
    ) -> None:
        """`name=value ...` up to `closer` ("" for the end of the line), written into `out`."""
        seen: set[str] = set()
        while True:
            tok = tk.peek()
            if tok == closer:
                return
            if tok == "":
                tk.fail(f"expected {closer!r}, found the end of the line", tk.i)
            self._assignment(tk, cls, out, base, header, overrides, seen)

    def _assignment(
        self,
        tk: _Tokens,
        cls: type[Any],
        out: bytearray,
        base: int,
        header: bool,
        overrides: list[tuple[int, int]] | None,
        seen: set[str],
    ) -> FieldLayout | None:
        """One `name=value` (or, with `overrides`, `@N=V`) of a struct body, written into
        `out`; the field it set (None for an override)."""
        at = tk.i
        tok = tk.next()
        if tok == "@" and overrides is not None:
            off = self._int_in(tk, 0, WORD_SIZE - 1, "a byte offset")
            tk.expect("=")
            overrides.append((off, self._int_in(tk, 0, 255, "a byte")))
            return None
        if not _is_name(tok):
            tk.fail(f"expected a field name, found {_describe(tok)}", at)
        f = _by_name(cls).get(tok.lower())
        if f is None:
            names = ", ".join(x.name for x in cls.LAYOUT)
            tk.fail(f"{cls.__name__} has no field {tok!r} (fields: {names})", at)
        if f.name in seen:
            tk.fail(f"field {f.name} is given twice", at)
        seen.add(f.name)
        if header and f.kind == "enum" and f.cls is self.opcodes and base + f.offset == 0:
            tk.fail("the opcode is the mnemonic; it cannot be set as a field", at)
        arm = None
        if tk.peek() == ".":
            tk.next()
            arm = tk.next()
        tk.expect("=")
        self._value_into(tk, f, arm, out, base, header and base + f.offset == 0, at)
        return f

    def _value_into(
        self,
        tk: _Tokens,
        f: FieldLayout,
        arm: str | None,
        out: bytearray,
        base: int,
        header: bool,
        at: int,
    ) -> None:
        if _is_union(f):
            u = f.cls
            if arm is None:
                nxt = tk.peek()
                low = nxt.lower()
                kind = (
                    "float"
                    if low == "nan"
                    else _num_kind(nxt) or ("address" if low in ("sbuf", "psum") else "other")
                )
                af = _bare_arm(u, "float" if kind == "float" else kind)
            else:
                found = _by_name(u).get(arm.lower())
                if found is None:
                    arms = ", ".join(a.name for a in u.LAYOUT)
                    tk.fail(f"{f.name} has no arm {arm!r} (arms: {arms})", at)
                af = found
            self._value_into(tk, af, None, out, base + f.offset, False, at)
            return
        if arm is not None:
            tk.fail(f"{f.name} is not a union; '.{arm}' names no arm", at)
        if f.kind == "struct":
            es = f.size // f.count
            for k in self._elements(tk, f, at):
                tk.expect("{")
                self._struct_body(tk, f.cls, out, base + f.offset + k * es, header, "}")
                tk.expect("}")
            if f.dims:
                tk.expect("]")
            return
        leaf = _leaf(f)
        if not f.dims:
            leaf.write(out, base, (self._scalar(tk, f, leaf),))
            return
        values = [self._scalar(tk, f, leaf) for _ in self._elements(tk, f, at)]
        tk.expect("]")
        leaf.write(out, base, values)

    def _elements(self, tk: _Tokens, f: FieldLayout, at: int) -> Iterator[int]:
        """The element indices of a field's value: one for a scalar; for an array `[a, b, ...]`
        with exactly `count` elements (the caller reads the closing bracket)."""
        if not f.dims:
            yield 0
            return
        if tk.peek() != "[":
            tk.fail(f"{f.name} is an array of {f.count}: give [a, b, ...]", tk.i)
        tk.next()
        for k in range(f.count):
            if k:
                if tk.peek() == "]":
                    tk.fail(f"{f.name} takes {f.count} elements, {k} given", at)
                tk.expect(",")
            yield k
        if tk.peek() == ",":
            tk.fail(f"{f.name} takes {f.count} elements, more given", at)

    def _int_in(self, tk: _Tokens, lo: int, hi: int, what: str) -> int:
        tok = tk.next()
        if _num_kind(tok) != "int":
            tk.fail(f"expected {what}, found {_describe(tok)}")
        v = int(tok, 0)
        if not lo <= v <= hi:
            tk.fail(f"{what} is {lo}..{hi}, not {tok}")
        return v

    def _scalar(self, tk: _Tokens, f: FieldLayout, leaf: _Leaf) -> int:
        tok = tk.next()
        if not tok:
            tk.fail(f"expected a value for {f.name}, found the end of the line")
        kind = _num_kind(tok)
        if f.kind == "float":
            if tok.lower() == "nan":
                tok = "nan:0x7fc00000" if leaf.es == 4 else "nan:0x7ff8000000000000"
            elif kind is None:
                tk.fail(f"{f.name} is a float: give a number, not {_describe(tok)}")
            bits = float_bits(tok, leaf.es)
            if not 0 <= bits < 1 << (8 * leaf.es):
                tk.fail(f"{tok} is wider than {f.name}'s {leaf.es} bytes")
            return bits
        if kind == "float":
            tk.fail(f"{f.name} is an integer field ({f.c_type}), not a float")
        if kind == "int":
            v = int(tok, 0)
        elif tok.lower() in ("sbuf", "psum") and tk.peek() == "[":
            v = self._address(tk, tok)
        elif _is_name(tok):
            v = self._named(tk, f, tok)
        else:
            tk.fail(f"expected a value for {f.name}, found {_describe(tok)}")
        lo, hi = leaf.range
        if not lo <= v <= hi:
            tk.fail(f"{f.name} ({f.c_type}) is {lo}..{hi}, not {v}")
        return v

    def _address(self, tk: _Tokens, region: str) -> int:
        at = tk.i - 1
        tk.expect("[")
        part = self._int_in(tk, 0, 1 << 32, "a partition")
        tk.expect("]")
        tk.expect("+")
        off = self._int_in(tk, 0, 1 << 64, "an offset")
        if self.addresses is None:
            tk.fail(f"{self.decoder.generation} states no address geometry", at)
        try:
            return self.addresses.address(region, part, off)
        except ValueError as e:
            tk.fail(str(e), at)

    def _named(self, tk: _Tokens, f: FieldLayout, name: str) -> int:
        if f.kind == "bool":
            if name.lower() in ("true", "false"):
                return int(name.lower() == "true")
            tk.fail(f"{f.name} is a bool: true, false or a number, not {name!r}")
        if f.kind == "enum":
            v = _members(f.cls).get(name.lower())
            if v is None:
                members = ", ".join(f.cls.__members__)
                tk.fail(f"{name!r} is not a member of {f.cls.__name__} ({members})")
            return v
        tk.fail(f"{f.name} ({f.c_type}) takes a number, not {name!r}")

    # -- dict form -----------------------------------------------------------------------------

    def to_dict(self, word: Word) -> dict[str, Any]:
        """The word as plain data (JSON-ready), the text form's values as Python values:
        `{"opcode": name, "fields": {...}, "hex": ...}`; nested structs are dicts, a union arm
        other than the one its value implies is keyed `name.arm`, enums are names, floats
        numbers (a NaN "nan:0x…"), addresses "sbuf[p]+0x…", bytes no field reproduces "@N".
        An undecodable word is `{"opcode": None, "hex": ...}`."""
        b = as_bytes(word, "word")
        if len(b) != WORD_SIZE:
            raise ValueError(
                f"word: a TPB instruction word is {WORD_SIZE} bytes, this one has {len(b)}"
            )
        cls = self.decoder.structs.get(b[0])
        if cls is None:
            return {"opcode": None, "hex": b.hex()}
        cover = [0]  # the bits the fields shown reproduce (what `disasm` writes into `out`)
        fields = self._plain_fields_of(cls, b, 0, cover, True)
        word = int.from_bytes(b, "little")
        rest = (int.from_bytes(_default_bytes(cls), "little") ^ word) & ~cover[0] & ~255
        if rest:  # bytes no field shown reproduces: those of the default that differ
            for k, x in enumerate(rest.to_bytes(WORD_SIZE, "little")):
                if x:
                    fields[f"@{k}"] = b[k]
        return {"opcode": self.opcodes(b[0]).name, "fields": fields, "hex": b.hex()}

    def _plain_fields_of(
        self, cls: type[Any], b: bytes, base: int, cover: list[int], top: bool
    ) -> dict[str, Any]:
        """`_fields`' walk giving the values `to_dict` holds (what its text reads back as)
        instead of the text: the same fields, keys, arms and order, without the text; the
        bits of each field shown are ORed into `cover[0]`."""
        plain: dict[str, Any] = {}
        siblings: dict[str, Any] = {}
        for step, f, leaf, value, mask in self._plain_plan(cls, base, top):
            if step == "leaf" or step == "enum":
                assert leaf is not None and value is not None
                raw = leaf.read(b, base)
                if leaf.reserved and not any(raw):
                    continue
                if step == "enum":
                    siblings[f.name] = self._formatter(f)(raw[0])
                cover[0] |= mask
                plain[f.name] = list(map(value, raw)) if f.dims else value(raw[0])
            elif step == "header":
                plain[f.name] = self._plain_fields_of(f.cls, b, f.offset, cover, True)
            elif step == "union":
                u = f.cls
                arm = self._choose_arm(u, f.name, b, base + f.offset, siblings)
                got, kind = self._plain_arm(arm, b, base + f.offset, cover)
                key = f.name if _bare_arm(u, kind).name == arm.name else f"{f.name}.{arm.name}"
                plain[key] = got
            else:
                plain[f.name] = self._plain_struct(f, b, base, cover)
        return plain

    def _plain_plan(self, cls: type[Any], base: int, top: bool) -> list[_PlainStep]:
        """How `_plain_fields_of` takes each field of `cls` at `base` (as `_fields` decides):
        "header", "union", "struct", "enum" (a scalar a union may follow) or "leaf", with a
        leaf's reader, value and bits; the opcode is left out."""
        key = (cls, base, top)
        plan = self._plans.get(key)
        if plan is None:
            plan = []
            for f in cls.LAYOUT:
                if top and f.kind == "struct" and base + f.offset == 0 and not _is_union(f):
                    plan.append(("header", f, None, None, 0))
                elif (
                    top
                    and base == 0
                    and f.offset == 0
                    and f.kind == "enum"
                    and f.cls is self.opcodes
                ):
                    continue
                elif _is_union(f):
                    plan.append(("union", f, None, None, 0))
                elif f.kind == "struct":
                    plan.append(("struct", f, None, None, 0))
                else:
                    step = "enum" if not f.dims and f.kind == "enum" else "leaf"
                    plan.append((step, f, _leaf(f), self._plainer(f), _bits(f, base)))
            self._plans[key] = plan
        return plan

    def _plainer(self, f: FieldLayout) -> Callable[[int], Any]:
        """`_plain_text` of `_formatter(f)`'s text, without the text where the value is the
        raw integer itself (an int, a member the enum does not define, an unplaced address)."""
        found = self._plainers.get(id(f))
        if found is not None:
            return found
        fmt = self._formatter(f)
        value: Callable[[int], Any]
        if f.kind in ("int", "uint") and not _is_partition_offset(f):

            def value(v: int) -> Any:
                return v

        elif f.kind in ("enum", "bool"):
            named = {int(m): _plain_text(m.name) for m in f.cls} if f.kind == "enum" else {}
            if f.kind == "bool":
                named = {0: False, 1: True}

            def value(v: int) -> Any:
                return named.get(v, v)

        else:

            def value(v: int) -> Any:
                return _plain_text(fmt(v))

        self._plainers[id(f)] = value
        return value

    def _plain_struct(self, f: FieldLayout, b: bytes, base: int, cover: list[int]) -> Any:
        es = f.size // f.count
        items = [
            self._plain_fields_of(f.cls, b, base + f.offset + k * es, cover, False)
            for k in range(f.count)
        ]
        return items if f.dims else items[0]

    def _plain_arm(
        self, arm: FieldLayout, b: bytes, base: int, cover: list[int]
    ) -> tuple[Any, str]:
        """A union arm's value and the kind `_arm_text` gives it."""
        if arm.kind == "struct":
            return self._plain_struct(arm, b, base, cover), "struct"
        leaf = _leaf(arm)
        raw = leaf.read(b, base)
        cover[0] |= _bits(arm, base)
        if arm.dims:
            return list(map(self._plainer(arm), raw)), "list"
        text = self._formatter(arm)(raw[0])
        kind = "float" if arm.kind == "float" else "other"
        if _is_partition_offset(arm) and text.startswith(("sbuf", "psum")):
            kind = "address"
        return _plain_text(text), kind

    def from_dict(self, data: Mapping[str, Any]) -> bytes:
        """The word a `to_dict` result (or a hand-written one of the same shape) describes; the
        "hex" of a decodable opcode is ignored, the fields decide. TypeError for `data` that is
        no mapping; AsmError (a ValueError) located by JSON pointer for what it cannot read."""
        if not isinstance(data, Mapping):
            raise TypeError(f"data: a mapping (to_dict's shape), not {type(data).__name__}")
        if data.get("opcode") is None:
            try:
                raw = bytes.fromhex(str(data.get("hex", "")))
            except ValueError:
                raise AsmError("hex is not hexadecimal", "/hex") from None
            if len(raw) != WORD_SIZE:
                raise AsmError(f"an undecodable word needs its {WORD_SIZE} bytes as hex", "/hex")
            return raw
        fields = data.get("fields", {})
        if not isinstance(fields, Mapping):
            raise AsmError("fields must be an object", "/fields")
        return self.asm(" ".join([str(data["opcode"]), *_field_texts(fields)]))


def _is_name(tok: str) -> bool:
    return _NAME.match(tok) is not None and tok != "inf"


def _num_kind(tok: str) -> str | None:
    """ "int" or "float" for a number token, else None."""
    if not tok:
        return None
    c = tok[0]
    if c.isdigit() or (c == "-" and len(tok) > 1):
        return "int" if _INT.match(tok) else "float" if _FLOAT.match(tok) else None
    if c in "in" and _FLOAT.match(tok):
        return "float"
    return None


def _describe(tok: str) -> str:
    if _LEADING_ZERO.match(tok):
        return (
            f"{tok!r} (a decimal with a leading zero: C would read it as octal; write it without)"
        )
    return repr(tok) if tok else "the end of the line"


_LEADING_ZERO = re.compile(r"-?0\d+\Z")


class _Tokens:
    """The tokens of one line, read left to right. Errors locate a token by `line:col`."""

    __slots__ = ("i", "line", "lineno", "toks")

    def __init__(self, line: str, lineno: int) -> None:
        toks = _TOKEN.findall(line)
        if toks and toks[-1][0] == ";":
            toks.pop()
        self.toks: list[str] = toks
        self.line, self.lineno, self.i = line, lineno, 0

    def peek(self) -> str:
        return self.toks[self.i] if self.i < len(self.toks) else ""

    def next(self) -> str:
        tok = self.peek()
        self.i += 1
        return tok

    def expect(self, text: str) -> None:
        tok = self.next()
        if tok != text:
            self.fail(f"expected {_describe(text)}, found {_describe(tok)}")

    def fail(self, message: str, index: int | None = None) -> NoReturn:
        """Raise AsmError at token `index` (default: the one just read)."""
        k = self.i - 1 if index is None else index
        cols = [m.start() + 1 for m in _TOKEN.finditer(self.line)]
        col = cols[k] if 0 <= k < len(cols) else len(self.line.rstrip()) + 1
        raise AsmError(message, (self.lineno, col))


def _plain_text(text: str) -> Any:
    """The value `_plain_value` reads from one value's text (`TextForm._formatter`'s): an
    int, a float, a NaN's text, an address's text, true / false, or a member name."""
    kind = _num_kind(text)
    if kind == "int":
        return int(text, 0)
    if kind == "float":
        return text if text.startswith("nan") else float(text)
    return {"true": True, "false": False}.get(text, text)


def _value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v) if not math.isnan(v) else "nan"
    if isinstance(v, Mapping):
        return "{" + " ".join(_field_texts(v)) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(_value_text(x) for x in v) + "]"
    return str(v)


def _field_texts(fields: Mapping[str, Any]) -> list[str]:
    return [f"{k}={_value_text(v)}" for k, v in fields.items()]


# -- the batch disassembler: the same text, built a field at a time over columns of words ------

_Texts = list[str]  # one string per row of a batch
# an enum field read so far in a struct, for the unions after it: (field, raw values, shown rows)
_Sibling = tuple[FieldLayout, np.ndarray[Any, Any], np.ndarray[Any, np.dtype[np.bool_]] | None]
_BATCH_ROWS = 4096  # rows formatted at once: bounds the temporaries, keeps a listing streaming


class _BatchText:
    """`disasm` over many words at once, byte for byte the text `TextForm.disasm` gives each:
    the words are grouped by opcode, and each field of the opcode's struct is read as one numpy
    column and formatted as one list, so Python does per row only what a line needs (a string
    per field, one join). `out` mirrors the scalar path's rebuilt word: the bytes the fields
    shown reproduce, from which the `@offset=0xNN` overrides follow."""

    def __init__(self, form: TextForm) -> None:
        self.form = form
        self._tables: dict[int, list[str]] = {}  # id(field) -> text of each value 0..255
        self._prefixed: dict[int, list[str]] = {}  # the same as " name=text", and "" at 256
        self._overrides = [[f" @{k}={v:#04x}" for v in range(256)] for k in range(WORD_SIZE)]

    def rows(self, W: np.ndarray[Any, np.dtype[np.uint8]], compact: bool) -> Iterator[str]:
        for lo in range(0, W.shape[0], _BATCH_ROWS):
            yield from self.chunk(np.ascontiguousarray(W[lo : lo + _BATCH_ROWS]), compact)

    def chunk(self, W: np.ndarray[Any, np.dtype[np.uint8]], compact: bool) -> _Texts:
        n = W.shape[0]
        texts = np.full(n, "", dtype=object)
        structs = self.form.decoder.structs
        ops = W[:, 0]
        for op in np.unique(ops).tolist():
            rows = np.flatnonzero(ops == op)
            cls = structs.get(op)
            if cls is None:
                texts[rows] = _objects([".word 0x" + h for h in _hex_rows(W[rows])])
            else:
                texts[rows] = _objects(self.struct_rows(cls, op, W[rows], compact))
        listed: _Texts = texts.tolist()
        return listed

    def struct_rows(
        self, cls: type[Struct], op: int, B: np.ndarray[Any, np.dtype[np.uint8]], compact: bool
    ) -> _Texts:
        """The lines of words `B` that all decode to `cls` (opcode `op`)."""
        base = self.form._base(cls, op)
        out = np.tile(np.frombuffer(bytes(base), dtype=np.uint8), (B.shape[0], 1))
        dflt = bytes(base) if compact else None
        cols = self.fields(cls, B, 0, out, True, dflt)
        diff = out != B
        for k in np.flatnonzero(diff.any(axis=0)).tolist():
            table = self._overrides[k]
            cols.append(
                [
                    table[v] if d else ""
                    for v, d in zip(B[:, k].tolist(), diff[:, k].tolist(), strict=True)
                ]
            )
        name = self.form.opcodes(op).name
        return list(map("".join, zip([name] * B.shape[0], *cols, strict=True)))

    def fields(
        self,
        cls: type[Any],
        B: np.ndarray[Any, np.dtype[np.uint8]],
        base: int,
        out: np.ndarray[Any, np.dtype[np.uint8]],
        top: bool,
        dflt: bytes | None,
    ) -> list[_Texts]:
        """Columns of `" name=value"` texts ("" where a row leaves the field out), as
        `TextForm._fields` gives them for each row."""
        cols: list[_Texts] = []
        siblings: dict[str, _Sibling] = {}
        form = self.form
        for f in cls.LAYOUT:
            if top and f.kind == "struct" and base + f.offset == 0 and not _is_union(f):
                inner = _joined(self.fields(f.cls, B, f.offset, out, True, dflt), B.shape[0])
                pre = f" {f.name}={{"
                cols.append([pre + s[1:] + "}" if s or dflt is None else "" for s in inner])
                continue
            if top and base == 0 and f.offset == 0 and f.kind == "enum" and f.cls is form.opcodes:
                continue
            cols.append(self.value(f, B, base, out, siblings, dflt))
        return cols

    def value(
        self,
        f: FieldLayout,
        B: np.ndarray[Any, np.dtype[np.uint8]],
        base: int,
        out: np.ndarray[Any, np.dtype[np.uint8]],
        siblings: dict[str, _Sibling],
        dflt: bytes | None,
    ) -> _Texts:
        """One field's column (see `TextForm._value`)."""
        n = B.shape[0]
        lo = base + f.offset
        keep: np.ndarray[Any, np.dtype[np.bool_]] | None = None  # rows that show the field
        if f.kind == "struct" and dflt is not None:
            keep = (B[:, lo : lo + f.size] != np.frombuffer(dflt[lo : lo + f.size], np.uint8)).any(
                axis=1
            )
            if not keep.any():
                return [""] * n
        if _is_union(f):
            texts = self.union(f, B, base, out, siblings, dflt, keep)
        elif f.kind == "struct":
            texts = self.struct_text(f, B, base, out, dflt, keep)
            texts = [f" {f.name}=" + t for t in texts]
        else:
            return self.leaf(f, B, base, out, siblings, dflt)
        if keep is not None:
            keep_l = keep.tolist()
            texts = [t if k else "" for t, k in zip(texts, keep_l, strict=True)]
        return texts

    def leaf(
        self,
        f: FieldLayout,
        B: np.ndarray[Any, np.dtype[np.uint8]],
        base: int,
        out: np.ndarray[Any, np.dtype[np.uint8]],
        siblings: dict[str, _Sibling],
        dflt: bytes | None,
    ) -> _Texts:
        leaf = _leaf(f)
        raw = self.read(leaf, B, base)  # (n, count)
        show: np.ndarray[Any, np.dtype[np.bool_]] | None = None
        if leaf.reserved:
            show = np.asarray(raw.any(axis=1), dtype=np.bool_)
        if not f.dims and f.kind == "enum":  # a union's arm follows its `_src`, shown or not
            siblings[f.name] = (f, raw[:, 0], show)
        if dflt is not None:
            d = self.read(leaf, np.frombuffer(dflt, np.uint8)[None, :], base)
            differs = (raw != d).any(axis=1)
            show = differs if show is None else show & differs
        self.cover(f, base, B, out, show)
        if not f.dims:
            pre = f" {f.name}="
            table = self.table(f, raw)
            if table is not None:  # one pass: the value's text, or "" (index 256) where left out
                ptable = self._prefixed.get(id(f))
                if ptable is None:
                    ptable = self._prefixed[id(f)] = [pre + t for t in table] + [""]
                idx = raw[:, 0] if show is None else np.where(show, raw[:, 0].astype(np.intp), 256)
                return list(map(ptable.__getitem__, idx.tolist()))
            elements = self.format(f, raw)
            if show is None:
                return list(map(pre.__add__, elements))
            return [pre + e if k else "" for e, k in zip(elements, show.tolist(), strict=True)]
        if f.kind in ("int", "uint") and not _is_partition_offset(f):
            # str() of a row's list is "[a, b, c]" with every element str(int): drop the blanks
            pre = f" {f.name}="
            if show is None:  # once per distinct row (a program repeats its access patterns)
                rows = np.ascontiguousarray(raw)
                keys = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1])))
                uniq, inverse = np.unique(keys.reshape(-1), return_inverse=True)
                distinct = uniq.view(rows.dtype).reshape(-1, rows.shape[1]).tolist()
                texts = [pre + str(r).replace(" ", "") for r in distinct]
                return list(map(texts.__getitem__, inverse.reshape(-1).tolist()))
            shown = np.flatnonzero(show)  # only the rows that show it (a reserved array: few)
            column = np.full(raw.shape[0], "", dtype=object)
            if shown.size:
                column[shown] = _objects(
                    [pre + str(r).replace(" ", "") for r in raw[shown].tolist()]
                )
            listed: _Texts = column.tolist()
            return listed
        elements = self.format(f, raw)
        pre = f" {f.name}=["
        c = f.count
        texts = [pre + ",".join(elements[i : i + c]) + "]" for i in range(0, len(elements), c)]
        if show is not None:
            texts = [t if k else "" for t, k in zip(texts, show.tolist(), strict=True)]
        return texts

    def union(
        self,
        f: FieldLayout,
        B: np.ndarray[Any, np.dtype[np.uint8]],
        base: int,
        out: np.ndarray[Any, np.dtype[np.uint8]],
        siblings: dict[str, _Sibling],
        dflt: bytes | None,
        keep: np.ndarray[Any, np.dtype[np.bool_]] | None,
    ) -> _Texts:
        u = f.cls
        ub = base + f.offset
        arms = self.choose_arms(u, f.name, B, ub, siblings)
        kinds = np.unique(arms).tolist()
        if len(kinds) == 1 and keep is None:  # one arm for every row: no scatter
            return self.arm_texts(f, u, u.LAYOUT[kinds[0]], B, ub, out, dflt)
        texts = np.full(B.shape[0], "", dtype=object)
        for a in kinds:
            rows = np.flatnonzero(arms == a)
            if keep is not None:
                rows = rows[keep[rows]]
                if not rows.size:
                    continue
            Bs, Os = B[rows], out[rows]
            texts[rows] = _objects(self.arm_texts(f, u, u.LAYOUT[a], Bs, ub, Os, dflt))
            out[rows] = Os
        listed: _Texts = texts.tolist()
        return listed

    def arm_texts(
        self,
        f: FieldLayout,
        u: type[Union],
        arm: FieldLayout,
        B: np.ndarray[Any, np.dtype[np.uint8]],
        ub: int,
        out: np.ndarray[Any, np.dtype[np.uint8]],
        dflt: bytes | None,
    ) -> _Texts:
        """`name=text` or `name.arm=text` of one union arm (see `TextForm._arm_text`)."""
        plain, named = f" {f.name}=", f" {f.name}.{arm.name}="
        if arm.kind == "struct":
            pre = plain if _bare_arm(u, "struct").name == arm.name else named
            return [pre + t for t in self.struct_text(arm, B, ub, out, dflt, None)]
        leaf = _leaf(arm)
        raw = self.read(leaf, B, ub)
        self.cover(arm, ub, B, out, None)
        elements = self.format(arm, raw)
        if arm.dims:
            pre = plain if _bare_arm(u, "list").name == arm.name else named
            c = arm.count
            return [
                pre + "[" + ",".join(elements[i : i + c]) + "]" for i in range(0, len(elements), c)
            ]
        if arm.kind == "float":
            pre = plain if _bare_arm(u, "float").name == arm.name else named
            return [pre + e for e in elements]
        other = plain if _bare_arm(u, "other").name == arm.name else named
        if not _is_partition_offset(arm):
            return [other + e for e in elements]
        address = plain if _bare_arm(u, "address").name == arm.name else named
        return [(address if e.startswith(("sbuf", "psum")) else other) + e for e in elements]

    def struct_text(
        self,
        f: FieldLayout,
        B: np.ndarray[Any, np.dtype[np.uint8]],
        base: int,
        out: np.ndarray[Any, np.dtype[np.uint8]],
        dflt: bytes | None,
        keep: np.ndarray[Any, np.dtype[np.bool_]] | None,
    ) -> _Texts:
        """A struct field's `{...}` (or `[{...},...]`) per row (see `TextForm._struct_text`)."""
        es = f.size // f.count
        n = B.shape[0]
        items = [
            _braced(self.fields(f.cls, B, base + f.offset + k * es, out, False, dflt), n)
            for k in range(f.count)
        ]
        if not f.dims:
            return items[0]
        return ["[" + ",".join(parts) + "]" for parts in zip(*items, strict=True)]

    def choose_arms(
        self,
        u: type[Union],
        name: str,
        B: np.ndarray[Any, np.dtype[np.uint8]],
        ub: int,
        siblings: Mapping[str, _Sibling],
    ) -> np.ndarray[Any, np.dtype[np.intp]]:
        """The index in `u.LAYOUT` of the arm `choose_arm` picks for each row."""
        form = self.form
        index = {a.name: i for i, a in enumerate(u.LAYOUT)}
        n = B.shape[0]
        arms = np.zeros(n, dtype=np.intp)
        po = next((a for a in u.LAYOUT if _is_partition_offset(a)), None)
        st = next((a for a in u.LAYOUT if a.kind == "struct"), None)
        if po is not None and st is not None and len(u.LAYOUT) == 2:
            mask = form.addresses.mask if form.addresses else DEFAULT_PARTITION_ADDR_MASK
            v = np.zeros(n, dtype=np.uint64)
            for k in range(po.size):
                v |= B[:, ub + k].astype(np.uint64) << np.uint64(8 * k)
            high = (v & np.uint64(~mask & ((1 << 64) - 1))) != 0
            arms[:] = np.where(high, index[st.name], index[po.name])
        elif any(a.kind == "float" for a in u.LAYOUT):
            arms[:] = index[_inline_arm(u).name]
        elif form._indirect_markers:
            ind = next((a for a in u.LAYOUT if "INDIRECT" in a.c_type and a.kind == "struct"), None)
            if ind is not None and u.SIZE > 3:
                hit = np.isin(B[:, ub + 3], list(form._indirect_markers))
                arms[hit] = index[ind.name]
        src = siblings.get(f"{name}_src")
        if src is not None:  # choose_arm's first rule, once per distinct value
            f_src, values, shown = src
            fmt = form._formatter(f_src)
            reg, ptr, inline = (
                -1 if a is None else index[a.name]
                for a in (_arm_named(u, "reg"), _arm_named(u, "ptr"), _inline_arm(u))
            )
            uniq, inverse = np.unique(values, return_inverse=True)
            by_label = []
            for v in uniq.tolist():
                label = fmt(v)
                if "REG" in label:
                    by_label.append(reg)
                elif "POINTER" in label or "PTR" in label:
                    by_label.append(ptr)
                else:
                    by_label.append(inline)
            chosen = np.asarray(by_label, dtype=np.intp)[inverse.reshape(-1)]
            if shown is not None:
                chosen[~shown] = -1
            arms = np.where(chosen >= 0, chosen, arms)
        return arms

    @staticmethod
    def read(
        leaf: _Leaf, B: np.ndarray[Any, np.dtype[np.uint8]], base: int
    ) -> np.ndarray[Any, Any]:
        """A leaf's raw values in every row, as an (n, count) integer array (`_Leaf.read`)."""
        f = leaf.f
        o = base + f.offset
        if f.bit_width is None:
            dt = f"<{'i' if leaf.signed else 'u'}{leaf.es}"
            return np.ascontiguousarray(B[:, o : o + f.size]).view(dt)
        v = np.zeros(B.shape[0], dtype=np.uint64)
        for k in range(f.size):
            v |= B[:, o + k].astype(np.uint64) << np.uint64(8 * k)
        raw = (v >> np.uint64(f.bit_offset or 0)) & np.uint64((1 << f.bit_width) - 1)
        if leaf.signed:
            half = 1 << (f.bit_width - 1)
            return ((raw.astype(np.int64) ^ half) - half)[:, None]
        return raw[:, None]

    @staticmethod
    def cover(
        f: FieldLayout,
        base: int,
        B: np.ndarray[Any, np.dtype[np.uint8]],
        out: np.ndarray[Any, np.dtype[np.uint8]],
        rows: np.ndarray[Any, np.dtype[np.bool_]] | None,
    ) -> None:
        """Copy a leaf field's bits from the words into `out` (in `rows`, or every row)."""
        o = base + f.offset
        if f.bit_width is None:
            masks = [255] * f.size
        else:
            m = ((1 << f.bit_width) - 1) << (f.bit_offset or 0)
            masks = [(m >> (8 * k)) & 255 for k in range(f.size)]
        for k, mk in enumerate(masks):
            if not mk:
                continue
            src = B[:, o + k]
            new = src if mk == 255 else (out[:, o + k] & np.uint8(255 ^ mk)) | (src & np.uint8(mk))
            if rows is None:
                out[:, o + k] = new
            else:
                out[:, o + k] = np.where(rows, new, out[:, o + k])

    def table(self, f: FieldLayout, raw: np.ndarray[Any, Any]) -> list[str] | None:
        """The texts of the values 0..255 of a field whose every value in `raw` is one of them
        (an enum, a bool, a byte), else None."""
        if not (f.kind in ("enum", "bool") or (raw.dtype.itemsize == 1 and f.kind == "uint")):
            return None
        if raw.dtype.itemsize != 1 and not (
            raw.size and int(raw.max()) < 256 and int(raw.min()) >= 0
        ):
            return None
        table = self._tables.get(id(f))
        if table is None:
            fmt = self.form._formatter(f)
            table = self._tables[id(f)] = [fmt(v) for v in range(256)]
        return table

    def format(self, f: FieldLayout, raw: np.ndarray[Any, Any]) -> list[str]:
        """The text of every element of `raw` (row-major), as `TextForm._formatter(f)` gives it."""
        flat = raw.reshape(-1)
        if f.kind == "float":
            return _float_texts(flat, _leaf(f).es)
        table = self.table(f, raw)
        if table is not None:
            return list(map(table.__getitem__, flat.tolist()))
        if f.kind in ("int", "uint") and not _is_partition_offset(f):
            return list(map(str, flat.tolist()))
        if _is_partition_offset(f) and self.form.addresses is not None:
            fmt = _address_text(self.form.addresses)
        else:
            fmt = self.form._formatter(f)
        uniq, inverse = np.unique(flat, return_inverse=True)  # addresses repeat in a program
        texts = list(map(fmt, uniq.tolist()))
        return list(map(texts.__getitem__, inverse.reshape(-1).tolist()))


def _objects(texts: _Texts) -> np.ndarray[Any, np.dtype[np.object_]]:
    """The strings as a 1-d object array (to scatter into rows), never as numpy text."""
    return np.fromiter(texts, dtype=object, count=len(texts))


def _braced(cols: list[_Texts], n: int) -> _Texts:
    """`{a=1 b=2}` per row from columns of " a=1", " b=2"."""
    return (
        ["{" + "".join(parts)[1:] + "}" for parts in zip(*cols, strict=True)]
        if cols
        else ["{}"] * n
    )


def _joined(cols: list[_Texts], n: int) -> _Texts:
    return list(map("".join, zip(*cols, strict=True))) if cols else [""] * n


def _hex_rows(B: np.ndarray[Any, np.dtype[np.uint8]]) -> list[str]:
    h = np.ascontiguousarray(B).tobytes().hex()
    w = 2 * WORD_SIZE
    return [h[i : i + w] for i in range(0, len(h), w)]


def _float_texts(bits: np.ndarray[Any, Any], size: int) -> list[str]:
    """`float_text` of every element, formatted once per distinct value."""
    uniq, inverse = np.unique(bits, return_inverse=True)
    texts = [float_text(v, size) for v in uniq.tolist()]
    return list(map(texts.__getitem__, inverse.reshape(-1).tolist()))


def _address_text(am: AddressMap) -> Callable[[int], str]:
    """`str(am.try_locate(v))`, else `hex(v)`, without raising for the addresses that point
    nowhere (the usual case in a word of random bytes): `AddressMap.text_of`'s rules."""
    text_of = am.text_of

    def text(v: int) -> str:
        return text_of(v) or hex(v)

    return text


# -- the batch assembler: lines in `disasm`'s own spelling, a field's text parsed once ----------


def _chunk(depth: int) -> str:
    """A field's value as `disasm` writes it, loosely: no blank, `;` or unbalanced brace outside
    braces, braces nested at most `depth` deep (what it holds is for the parser to judge)."""
    inner = r"[^{};]*+"
    for _ in range(depth):
        inner = r"[^{};]*+(?:\{" + inner + r"\}[^{};]*+)*+"
    return r"[^\s{};]*+(?:\{" + inner + r"\}[^\s{};]*+)*+"


_CHUNK = _chunk(4)
_OVERRIDES = r"(@[^\s{};]*(?: @[^\s{};]*)*)"  # a statement's `@N=V` overrides, one text
_SAMPLE = 8  # a line in this many that `fixed` did not match is counted (`_Statement.learn`)
_SKELETONS = 64  # a mnemonic's skeletons counted (`_Statement.learn`); fewer are compiled
_SPLIT_MIN = 4 * _SAMPLE  # a skeleton's lines counted before they are split (`_Skeleton.split`)
_FAST_MIN_LINES = 32  # fewer lines are read by the per-line parser alone
_FAST_LINES = 8192  # lines `_FastAsm.assemble` reads at once
_SCANNED_SHARE = 0.25  # the lines the text scanner must split for it to be used (`batches`)
_LEAF = r"[^\s{};]*+"  # a leaf's value (a blank, a brace or `;` ends it)
_HEAD = re.compile(r"\s*(?:[0-9a-fA-F]+:\s+)?(?:[0-9a-fA-F]{128}\s+)?(\.word|[A-Za-z_]\w*)")
_END = r"\s*(?:;.*)?\Z"
_WORD_TAIL = re.compile(r"\s+0x([0-9a-fA-F]{128})" + _END)
_FAIL = -1  # a segment's delta when the parser does not read it as exactly one assignment


class _Body:
    """The fields of one struct where it sits in a word of one opcode (`base`, and whether it
    is the header, as `TextForm._struct_body` is called for it), with what each field's text
    written as `disasm` writes it (`name=value` or `name.arm=value`) changes in the word: its
    delta, the XOR of the word with and without it, an int of 64 bytes (little-endian)."""

    __slots__ = (
        "base",
        "cells",
        "cls",
        "epoch",
        "fast",
        "fields",
        "header",
        "memos",
        "pattern",
        "rx",
        "subs",
        "word",
    )

    def __init__(self, fast: _FastAsm, cls: type[Any], base: int, header: bool, word: int) -> None:
        self.fast, self.cls, self.base, self.header, self.word = fast, cls, base, header, word
        self.fields: list[FieldLayout] = list(cls.LAYOUT)
        # one optional group per field, in LAYOUT order, each after one blank: the order and
        # spelling `disasm` prints (names as declared), anything else is the parser's
        self.pattern = "".join(
            rf"(?: ({re.escape(f.name)}(?:\.[A-Za-z_]\w*)?={_CHUNK}))?" for f in self.fields
        )
        self.rx = re.compile(self.pattern + r"\Z")  # a struct's inner text, a blank before
        self.memos: list[dict[str, int]] = [{} for _ in self.fields]
        self.cells: list[_Cell | None] | None = None  # made on the first delta
        self.epoch = fast.epoch
        self.subs: dict[tuple[int, int, bool], _Body] = {}

    def sub(self, f: FieldLayout, lo: int, header: bool) -> _Body:
        """The body of struct field `f` at `lo` (`header`: the flag `_value_into` passes)."""
        key = (id(f), lo, header)
        found = self.subs.get(key)
        if found is None:
            found = self.subs[key] = _Body(self.fast, f.cls, lo, header and lo == 0, self.word)
        return found

    def flat(self, sep: str, columns: list[tuple[_Body, int, int, int]], depth: int = 0) -> str:
        """The body's expression with its plain struct fields opened (`name={...}` as the
        expression of their own fields), one group per other field, appended to `columns`
        as (body, field index, first byte, end byte). Its groups are atomic and its runs
        possessive: a text matched one way cannot match another (a field's text ends where
        a blank, a brace or `;` does), so backtracking could only find nothing."""
        parts = []
        by_name = _by_name(self.cls)
        for j, f in enumerate(self.fields):
            name = re.escape(f.name)
            lo = self.base + f.offset
            if _plain_struct(f) and by_name.get(f.name.lower()) is f and depth < 3:
                sub = self.sub(f, lo, self.header and lo == 0)
                inner = sub.flat(r"(?:(?<=\{)| )", columns, depth + 1)
                parts.append(rf"(?>{sep}{name}=\{{{inner}\}})?")
            elif (
                _is_union(f)
                and by_name.get(f.name.lower()) is f
                and _plain_struct(arm := _bare_arm(f.cls, "other"))
                and depth < 3
            ):
                # `name={...}` is the arm a value in braces takes (a struct): opened as above;
                # else (`name.arm=...`) the union's text is one group
                sub = self.sub(arm, lo + arm.offset, False)
                inner = sub.flat(r"(?:(?<=\{)| )", columns, depth + 1)
                columns.append((self, j, lo, lo + f.size))
                whole = rf"({name}(?:\.[A-Za-z_]\w*)?={_CHUNK})"
                parts.append(rf"(?>{sep}{name}=\{{{inner}\}}|{sep}{whole})?")
            else:
                columns.append((self, j, lo, lo + f.size))
                if f.kind == "struct":  # a union (its struct arms in braces), structs' array
                    parts.append(rf"(?>{sep}({name}(?:\.[A-Za-z_]\w*)?={_CHUNK}))?")
                else:  # a leaf: no braces in it
                    parts.append(rf"(?>{sep}({name}={_LEAF}))?")
        return "".join(parts)

    def delta(self, j: int, text: str) -> int:
        """The delta of field `j` given as `text` (one segment), or `_FAIL`."""
        if self.epoch != self.fast.epoch:
            self.epoch = self.fast.epoch
            self.memos = [{} for _ in self.fields]
        memo = self.memos[j]
        d = memo.get(text)
        if d is None:
            d = memo[text] = self._delta(j, text)
        return d

    def _delta(self, j: int, text: str) -> int:
        if self.cells is None:
            at = [self.base + f.offset for f in self.fields]
            self.cells = [
                _Cell.of(self, k, at[k], at[k] + f.size) for k, f in enumerate(self.fields)
            ]
        cell = self.cells[j]
        if cell is not None:  # what `_quick` gives for a leaf, read as a column's cells are
            chunk = cell.chunk(text)
            if chunk is not None:
                return chunk << (8 * cell.lo)
        f = self.fields[j]
        if _by_name(self.cls).get(f.name.lower()) is f:
            target = self._target(f, text[len(f.name) :])
            if target is not None:
                d = self._quick(*target)
                if d is not None:
                    return d
        out = bytearray(self.word.to_bytes(WORD_SIZE, "little"))
        tk = _Tokens(text, 0)
        try:
            got = self.fast.form._assignment(tk, self.cls, out, self.base, self.header, None, set())
        except Exception:  # whatever the parser raises, it raises again for the line, in order
            return _FAIL
        if got is not f or tk.i != len(tk.toks):
            return _FAIL
        return int.from_bytes(out, "little") ^ self.word

    def _target(self, f: FieldLayout, rest: str) -> tuple[FieldLayout, int, bool, str] | None:
        """What `_value_into` writes for `=value` (or `.arm=value`) after field `f`'s name:
        (the field written, the base it is written at, the header flag, the value's text);
        None where it is not a plain struct or leaf (the parser then reads the text)."""
        base = self.base
        if rest[:1] == ".":
            arm, eq, value = rest[1:].partition("=")
            if not eq or not _is_union(f):
                return None
            af = _by_name(f.cls).get(arm.lower())
            if af is None:
                return None
            return af, base + f.offset, False, value
        if rest[:1] != "=":
            return None
        value = rest[1:]
        if not _is_union(f):
            return f, base, self.header and base + f.offset == 0, value
        kind = "other" if value[:1] == "{" else _bare_kind(value)
        if kind is None:
            return None
        return _bare_arm(f.cls, kind), base + f.offset, False, value

    def _quick(self, f: FieldLayout, base: int, header: bool, value: str) -> int | None:
        """The delta of `value` written to `f` at `base`, read here when it is a struct's
        `{...}` of fields or a leaf's plain number, member or `[...]` of them (as `_scalar`
        reads them); None to leave it to the parser."""
        if f.kind == "struct":
            if f.dims or _is_union(f) or value[:1] != "{" or value[-1:] != "}":
                return None
            sub = self.sub(f, base + f.offset, header)
            inner = value[1:-1]
            if not inner:
                return 0
            m = sub.rx.match(" " + inner)
            if m is None:
                return None
            d = 0
            for k, s in enumerate(m.groups()):
                if s is not None:
                    dk = sub.delta(k, s)
                    if dk == _FAIL:
                        return _FAIL
                    d ^= dk
            return d
        if f.kind not in ("int", "uint", "enum", "bool", "float") or (
            f.kind == "enum" and f.cls is self.fast.form.opcodes
        ):
            return None
        leaf = _leaf(f)
        if f.dims:
            if value[:1] != "[" or value[-1:] != "]":
                return None
            texts = value[1:-1].split(",")
            if len(texts) != f.count:
                return None
        else:
            texts = [value]
        values = []
        lo, hi = leaf.range
        for t in texts:
            v = _quick_scalar(f, leaf, t, self.fast.form.addresses)
            if v is None or (f.kind != "float" and not lo <= v <= hi):
                return None
            values.append(v)
        out = bytearray(self.word.to_bytes(WORD_SIZE, "little"))
        leaf.write(out, base, values)
        return int.from_bytes(out, "little") ^ self.word


def _plain_struct(f: FieldLayout) -> bool:
    return f.kind == "struct" and not f.dims and not _is_union(f)


_NUM = r"-?(?:0|[1-9][0-9]*|0[xX][0-9a-fA-F]+)"
_QINT = re.compile(_NUM + r"\Z")
_QDEC = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")


_ADDRESS = re.compile(rf"(sbuf|psum)\[({_NUM})\]\+({_NUM})\Z")


def _bare_kind(value: str) -> str | None:
    """The arm of a bare union a value's text names ("float", "int" or "address"), or None."""
    if value == "nan":
        return "float"
    if _QINT.match(value):
        return "int"
    if _FLOAT.match(value):
        return "float"
    return "address" if _ADDRESS.match(value) else None


def _quick_scalar(f: FieldLayout, leaf: _Leaf, tok: str, am: AddressMap | None) -> int | None:
    """`TextForm._scalar` of a value that is a plain number, an address as `disasm` writes it
    (or, for an enum or a bool, a name), or None where `_scalar` would do anything else or
    fail (the parser then reads it)."""
    if f.kind == "float":
        if tok == "nan":
            tok = "nan:0x7fc00000" if leaf.es == 4 else "nan:0x7ff8000000000000"
        elif not (_FLOAT.match(tok) or _QDEC.match(tok)):
            return None
        bits = float_bits(tok, leaf.es)
        return bits if 0 <= bits < 1 << (8 * leaf.es) else None
    if _QINT.match(tok):
        return int(tok, 0)
    if tok[:1] in ("s", "p") and am is not None:
        return _quick_address(f, tok, am)
    if f.kind == "enum" and _NAME.match(tok) and tok != "inf":
        return _members(f.cls).get(tok.lower())
    if f.kind == "bool" and tok.lower() in ("true", "false"):
        return int(tok.lower() == "true")
    return None


def _quick_address(f: FieldLayout, tok: str, am: AddressMap | None) -> int | None:
    """`_quick_scalar` of a value starting with `s` or `p` in an integer or float field:
    an address as `disasm` writes it, or None."""
    if f.kind == "float" or am is None:
        return None
    m = _ADDRESS.match(tok)
    if m is None:
        return None
    part, off = int(m.group(2), 0), int(m.group(3), 0)
    if not (0 <= part <= 1 << 32 and 0 <= off <= 1 << 64):
        return None
    try:
        return am.address(m.group(1), part, off)
    except ValueError:
        return None


class _Numbers:
    """A byte-aligned integer leaf (an int, an enum, a bool, an address) whose texts in a
    column are all plain numbers or names: read together, `int(text, 0)` as `_scalar` reads
    a number, the column's distinct texts checked by one expression, a scalar's name (an
    enum's member, a bool's `true`) looked up as `_quick_scalar` reads it, and packed by one
    `struct` call into the field's bytes (`_Statement.words` puts them in place for every
    column at once)."""

    __slots__ = ("at", "code", "count", "dims", "hi", "lo", "named", "prefix", "rx", "size")

    @staticmethod
    def of(body: _Body, j: int) -> _Numbers | None:
        f = body.fields[j]
        if (
            f.kind not in ("int", "uint", "enum", "bool")
            or f.bit_width is not None
            or (f.kind == "enum" and f.cls is body.fast.form.opcodes)
            or _by_name(body.cls).get(f.name.lower()) is not f
        ):
            return None
        return _Numbers(f, body.base, body.fast.form.addresses)

    def __init__(self, f: FieldLayout, base: int, am: AddressMap | None) -> None:
        leaf = _leaf(f)
        self.prefix = len(f.name) + 1  # `name=`
        self.count, self.dims = f.count, bool(f.dims)
        code = _CODES[leaf.es]
        self.code = code.lower() if leaf.signed else code  # a `struct` code, as `_Leaf` packs
        self.lo, self.hi = leaf.range
        self.at, self.size = base + f.offset, f.size
        # a column's values joined by `;` (which no value holds): each value one whole number
        # or one whole array of numbers
        one = rf"\[{_NUM}{f',{_NUM}' * (f.count - 1)}\]" if self.dims else _NUM
        self.rx = re.compile(rf"{one}(?:;{one})*\Z")
        # a scalar's names as `disasm` writes them, each with the value `_quick_scalar` (and
        # the range check `_Cell.chunk` makes) gives it
        names = list(f.cls.__members__) if f.kind == "enum" and f.cls is not None else []
        names += ["true", "false"] if f.kind == "bool" else []
        self.named: dict[str, int] = {}
        for name in [] if self.dims else names:
            v = _quick_scalar(f, leaf, name, am)
            if v is not None and self.lo <= v <= self.hi:
                self.named[name] = v

    def packed(self, texts: list[str]) -> bytes | None:
        """The field's bytes for each of `texts` (`name=value`), one after the other; None if
        a text is not plain numbers in range (those are read one by one)."""
        p = self.prefix
        values = [t[p:] for t in texts]
        if self.named:  # names first; the rest must be numbers
            named = list(map(self.named.get, values))
            if None not in named:
                return struct.pack(f"<{len(named)}{self.code}", *named)
            rest = [i for i, v in enumerate(named) if v is None]
            if len(rest) < len(named):
                got = self.packed([texts[i] for i in rest])  # no name among them: numbers
                if got is None:
                    return None
                for i, v in zip(rest, struct.unpack(f"<{len(rest)}{self.code}", got), strict=True):
                    named[i] = v
                return struct.pack(f"<{len(named)}{self.code}", *named)
        joined = ";".join(values)
        if not self.rx.match(joined):
            return None
        parts = joined[1:-1].replace("];[", ",").split(",") if self.dims else values
        value = {t: int(t, 0) for t in set(parts)}  # each distinct number's text read once
        nums = list(map(value.__getitem__, parts))
        if not (self.lo <= min(nums) and max(nums) <= self.hi):
            return None
        return struct.pack(f"<{len(nums)}{self.code}", *nums)


def _put(
    table: np.ndarray[Any, np.dtype[np.uint8]],
    word: np.ndarray[Any, np.dtype[np.uint8]],
    columns: list[tuple[list[int], _Numbers, bytes]],
) -> None:
    """Rows of `table` (64-byte deltas, zero) made the deltas of fields given as numbers:
    for each column, its rows, its field's plan and the field's bytes for each row one after
    the other (`_Numbers.packed`); for all the columns at once, each byte put at its
    field's place in its row, XOR the statement's `word`."""
    counts = np.array([len(rows) for rows, _, _ in columns], dtype=np.intp)
    sizes = np.repeat(np.array([plan.size for _, plan, _ in columns], dtype=np.intp), counts)
    starts = np.repeat(np.array([plan.at for _, plan, _ in columns], dtype=np.intp), counts)
    rows = np.fromiter(chain.from_iterable(r for r, _, _ in columns), np.intp, int(counts.sum()))
    total = int(sizes.sum())
    # each byte's place in its row: its field's first byte plus its index in the field
    place = np.repeat(starts - (np.cumsum(sizes) - sizes), sizes) + np.arange(total)
    new = np.frombuffer(b"".join(b for _, _, b in columns), dtype=np.uint8)
    np.put(table, np.repeat(rows * WORD_SIZE, sizes) + place, new ^ word[place])


class _Cell:
    """What a leaf field's text (`name=value`), or a union's with no arm named and no braces,
    changes in its bytes [lo, hi) of the word, read as `_Body._quick` reads it but without its
    way through `_delta`, `_target` and a 64-byte word per text: the column's field, union and
    arms are looked up once. `chunk` answers None where `_Body.delta` must read the text."""

    __slots__ = ("am", "arms", "f", "lo", "old", "prefix", "size", "union")

    @staticmethod
    def of(body: _Body, j: int, lo: int, hi: int) -> _Cell | None:
        f = body.fields[j]
        if _by_name(body.cls).get(f.name.lower()) is not f:
            return None
        union = _is_union(f)
        if not union and not _Cell.writes(body, f):
            return None
        return _Cell(body, f, union, lo, hi)

    @staticmethod
    def writes(body: _Body, f: FieldLayout) -> bool:
        """Whether `_Body._quick` reads `f`'s value itself (a scalar, or an array of them)."""
        return f.kind in ("int", "uint", "enum", "bool", "float") and not (
            f.kind == "enum" and f.cls is body.fast.form.opcodes
        )

    def __init__(self, body: _Body, f: FieldLayout, union: bool, lo: int, hi: int) -> None:
        self.f, self.union, self.lo, self.size = f, union, lo, hi - lo
        self.prefix = len(f.name) + 1  # `name=`
        self.am = body.fast.form.addresses
        self.old = (body.word >> (8 * lo)) & ((1 << (8 * self.size)) - 1)
        # a union's arm by the value's kind (`_Body._target`), None where `_quick` would not
        # read it itself; the arm is written at the union's own first byte, a leaf at its own:
        # (the field, its leaf, that byte less the field's offset, the leaf's range, where a
        # scalar's bits go in the cell and how many)
        self.arms: dict[str, tuple[FieldLayout, _Leaf, int, int, int, int, int] | None] = {}
        for kind, arm, at in (
            [(k, _bare_arm(f.cls, k), 0) for k in ("float", "int", "address")]
            if union
            else [("", f, -f.offset)]
        ):
            if union and not _Cell.writes(body, arm):
                self.arms[kind] = None
                continue
            leaf = _leaf(arm)
            shift = 8 * (at + arm.offset) + (arm.bit_offset or 0)
            self.arms[kind] = (arm, leaf, at, *leaf.range, shift, (1 << leaf.bits) - 1)

    def chunk(self, text: str) -> int | None:
        """The XOR of the bytes [lo, hi) with and without `text` (an int, little-endian from
        byte `lo`), or None (see the class)."""
        if text[self.prefix - 1 : self.prefix] != "=":
            return None
        value = text[self.prefix :]
        kind = ""
        if self.union:  # a value starting `s` or `p` is no number: an address or nothing
            found = "address" if value[:1] in ("s", "p") else _bare_kind(value)
            if found is None:
                return None
            kind = found
        plan = self.arms[kind]
        if plan is None:
            return None
        f, leaf, at, lo, hi, shift, mask = plan
        if not f.dims:  # a scalar: its bits, at its place in the cell (as `leaf.write` puts them)
            if kind == "address":  # `_quick_scalar`'s address, its expression matched once
                v = _quick_address(f, value, self.am)
            else:
                v = _quick_scalar(f, leaf, value, self.am)
            if v is None or (f.kind != "float" and not lo <= v <= hi):
                return None
            return (((self.old >> shift) ^ v) & mask) << shift
        if value[:1] != "[" or value[-1:] != "]":
            return None
        texts = value[1:-1].split(",")
        if len(texts) != f.count:
            return None
        values = []
        for t in texts:
            v = _quick_scalar(f, leaf, t, self.am)
            if v is None or (f.kind != "float" and not lo <= v <= hi):
                return None
            values.append(v)
        out = bytearray(self.old.to_bytes(self.size, "little"))
        leaf.write(out, at, values)
        return int.from_bytes(out, "little") ^ self.old


class _Split:
    """A skeleton's lines split at their blanks (`_Skeleton.split`): `width` tokens, the
    mnemonic and then one a column, the columns `at`, each token's text read through its
    expression `tokens[q]` (its literal text, so many characters before and after the
    column's text, and the expressions of one token and of tokens joined by `;`)."""

    __slots__ = ("at", "skeleton", "tokens", "width")

    def __init__(self, skeleton: _Skeleton, at: list[int], tokens: list[_Token]) -> None:
        self.skeleton, self.width, self.at, self.tokens = skeleton, len(at) + 1, at, tokens


class _Token:
    """A token holding a column's group between literal pieces (`_Skeleton.split`): `one`
    matches a token of it (group 1: the column's text), `joined` tokens of it joined by `;`
    (which neither the pieces nor a group hold, so it matches iff each token does), the
    column's text then the token less `before` and `after` characters."""

    __slots__ = ("after", "before", "joined", "one")

    def __init__(self, before: str, group: str, after: str) -> None:
        self.before, self.after = len(before), len(after)
        token = f"{re.escape(before)}(?:{group}){re.escape(after)}"
        self.one = re.compile(rf"{re.escape(before)}({group}){re.escape(after)}\Z").match
        self.joined = re.compile(rf"{token}(?:;{token})*\Z").match


class _Placed:
    """Lines of one `_Split`, their tokens after the mnemonic as ids of (place, text) pairs:
    `code[r, q]` is the id of row r's token q + 1 (line `at[r]`); equal ids are equal pairs,
    every id is below `size`, `places` gives ids' places and `texts` their texts. Made from
    the tokens `line.split(" ")` gives (`split`) or the text scanner's ids (`scanned`)."""

    __slots__ = ("at", "code", "places", "size", "texts")

    def __init__(
        self,
        at: np.ndarray[Any, np.dtype[np.intp]],
        code: np.ndarray[Any, np.dtype[np.integer[Any]]],
        size: int,
        places: Callable[[np.ndarray[Any, np.dtype[np.intp]]], np.ndarray[Any, Any]],
        texts: Callable[[np.ndarray[Any, np.dtype[np.intp]]], list[str]],
    ) -> None:
        self.at, self.code, self.size, self.places, self.texts = at, code, size, places, texts

    @staticmethod
    def split(split: _Split, lines: list[int], tokens: list[list[str]]) -> _Placed:
        """Lines `lines` split into `tokens` (each `split.width` long, the mnemonic first):
        a token's id is its place less one times the number of distinct texts plus its
        text's index among them."""
        n, width = len(tokens), split.width
        tid: defaultdict[str, int] = defaultdict(count().__next__)
        tx = np.fromiter(
            map(tid.__getitem__, chain.from_iterable(tokens)), dtype=np.intp, count=n * width
        ).reshape(n, width)
        keys = list(tid)
        k = len(keys)
        code = tx[:, 1:] + np.arange(0, (width - 1) * k, k, dtype=np.intp)

        def texts(used: np.ndarray[Any, np.dtype[np.intp]]) -> list[str]:
            return [keys[u] for u in (used % k).tolist()]

        return _Placed(
            np.asarray(lines, dtype=np.intp), code, (width - 1) * k, lambda u: u // k + 1, texts
        )

    @staticmethod
    def scanned(scan: Scan, lines: np.ndarray[Any, np.dtype[np.intp]], width: int) -> _Placed:
        """Lines `lines` of `scan`, each of `width` tokens: a token's id is the scanner's."""
        code = scan.tokens[scan.starts[lines][:, None] + np.arange(1, width, dtype=np.int32)]
        return _Placed(lines, code, len(scan.places), scan.places.__getitem__, scan.texts)


class _Statement:
    """The lines of one mnemonic in `disasm`'s spelling: one compiled expression over its
    struct's fields (`_Body`), the skeletons its lines have had (`learn`), and the words of
    the rows they matched."""

    __slots__ = (
        "body",
        "cells",
        "columns",
        "common",
        "credited",
        "fixed",
        "groups",
        "missed",
        "opcode",
        "plans",
        "rx",
        "skeletons",
        "splits",
        "word",
        "word64",
    )

    def __init__(self, fast: _FastAsm, cls: type[Struct], opcode: int) -> None:
        self.opcode = opcode
        word = bytes(fast.form._base(cls, opcode))
        self.word = np.frombuffer(word, dtype=np.uint8)
        self.word64 = np.frombuffer(word, dtype="<u8")
        self.body = _Body(fast, cls, 0, True, int.from_bytes(word, "little"))
        self.columns: list[tuple[_Body, int, int, int]] = []
        over = rf"(?: {_OVERRIDES})?"
        self.rx = re.compile(self.body.flat(" ", self.columns) + over + _END)
        self.plans = [_Numbers.of(body, j) for body, j, _, _ in self.columns]
        self.cells = [_Cell.of(body, j, lo, hi) for body, j, lo, hi in self.columns]
        # each column's group as `rx` spells it, without its parentheses (a union's name too:
        # `_compile` narrows its group), the overrides' last
        self.groups: list[tuple[str, str]] = []
        for body, j, _, _ in self.columns:
            f = body.fields[j]
            name = re.escape(f.name)
            if f.kind != "struct":
                self.groups.append((rf"{name}={_LEAF}", ""))
            else:
                union = f.name if _is_union(f) else ""
                self.groups.append((rf"{name}(?:\.[A-Za-z_]\w*)?={_CHUNK}", union))
        self.groups.append((_OVERRIDES[1:-1], ""))
        self.fixed: re.Pattern[str] | None = None  # the commonest skeleton's (`learn`)
        # the skeletons whose lines are split at their blanks, by their number of tokens
        self.splits: dict[int, _Split] = {}
        self.common: _Skeleton | None = None
        self.missed = 0  # lines `fixed` did not match (`learn`)
        self.credited = 0  # `missed` at the last `credit`
        self.skeletons: dict[tuple[str | None, ...], _Skeleton] = {}

    def read(
        self,
        form: TextForm,
        lines: Sequence[str],
        gathered: _Gathered,
        slow: list[int],
    ) -> tuple[np.ndarray[Any, np.dtype[np.intp]], np.ndarray[Any, np.dtype[np.uint8]]]:
        """The lines a call gathered for the statement (`_FastAsm.assemble`) and their words;
        the lines the parser must read instead are added to `slow`. A line split for a
        skeleton (`split`) whose tokens are not all of it is matched by the expressions."""
        _, at_lines, rows, splits, placed = gathered
        # every text of a column, from any row, gets its id in one dictionary
        ids: defaultdict[str | None, int] = defaultdict(count().__next__)
        none = ids[None]
        blocks: list[np.ndarray[Any, np.dtype[np.intp]]] = []
        where: list[np.ndarray[Any, np.dtype[np.intp]]] = []
        buckets = [(split, _Placed.split(split, *bucket)) for split, bucket in splits.items()]
        for split, tokens in chain(placed, buckets):
            texts, other = self._split_ids(split, tokens, ids)
            at = tokens.at
            for i in at[other].tolist():  # not of the skeleton: its expression reads it
                line = lines[i]
                h = _HEAD.match(line)  # the mnemonic's end, after any listing columns
                got = self.match(line, h.end()) if h is not None else None
                if got is None:
                    slow.append(i)
                    continue
                at_lines.append(i)
                rows.append(got)
            if other.any():
                keep = ~other
                texts, at = texts[keep], at[keep]
            ix = np.full((texts.shape[0], len(self.columns) + 1), none, dtype=np.intp)
            ix[:, split.at] = texts
            blocks.append(ix)
            where.append(at)
            split.skeleton.lines += ix.shape[0]
        self.credit(len(rows))
        if rows:
            n = len(rows)
            ix = np.fromiter(
                map(ids.__getitem__, chain.from_iterable(rows)),
                dtype=np.intp,
                count=n * (len(self.columns) + 1),
            ).reshape(n, -1)
            blocks.append(ix)
            where.append(np.asarray(at_lines, dtype=np.intp))
        if not blocks:
            return np.zeros(0, dtype=np.intp), np.zeros((0, WORD_SIZE), dtype=np.uint8)
        ix = blocks[0] if len(blocks) == 1 else np.concatenate(blocks)
        at = where[0] if len(where) == 1 else np.concatenate(where)
        W, bad = self.words(form, ix, list(ids))
        if bad.any():
            slow += at[bad].tolist()
            at, W = at[~bad], W[~bad]
        return at, W

    def _split_ids(
        self, split: _Split, tokens: _Placed, ids: defaultdict[str | None, int]
    ) -> tuple[np.ndarray[Any, np.dtype[np.intp]], np.ndarray[Any, np.dtype[np.bool_]]]:
        """The ids (in `ids`) of the column texts of lines split for `split` (one row a line,
        a column a token after the mnemonic), and which lines have a token not of it. Each
        distinct (place, token) is read once by the token's expression."""
        code = tokens.code
        seen = np.zeros(tokens.size, dtype=np.bool_)
        seen[code] = True
        used = np.flatnonzero(seen)
        place = tokens.places(used)
        by_place = np.argsort(place, kind="stable")
        used = used[by_place]
        bounds = np.searchsorted(place[by_place], np.arange(1, split.width + 1)).tolist()
        given_all = tokens.texts(used)
        get = ids.__getitem__
        texts: list[int] = []
        for q, token in enumerate(split.tokens):
            a, b = bounds[q], bounds[q + 1]
            given = given_all[a:b]
            joined = ";".join(given)
            if joined.count(";") == b - a - 1 and token.joined(joined):  # all of the skeleton
                start, end = token.before, -token.after or None
                texts += map(get, [t[start:end] for t in given] if start or end else given)
                continue
            for t in given:
                m = token.one(t)
                texts.append(get(m.group(1)) if m is not None else -1)
        table = np.zeros(tokens.size, dtype=np.intp)
        table[used] = texts
        got = table[code]
        return got, (got < 0).any(axis=1)

    def words(
        self, form: TextForm, ix: np.ndarray[Any, np.dtype[np.intp]], keys: list[str | None]
    ) -> tuple[np.ndarray[Any, np.dtype[np.uint8]], np.ndarray[Any, np.dtype[np.bool_]]]:
        """The words of rows of texts (`ix`: a row's texts' indices in `keys`, a column each,
        the overrides' last), and which rows the parser must read instead.

        Each distinct (column, text) pair is read once into the 64-byte delta it makes, and
        a row's word is the statement's word XOR its cells' deltas, gathered and reduced by
        numpy for all the rows at once (a constant number of numpy calls per statement)."""
        ncol = len(self.columns)
        k = len(keys)
        # a (column, text) pair as one number, column-major: a column's pairs are contiguous
        code = ix[:, :ncol] + np.arange(0, ncol * k, k, dtype=np.intp)
        seen = np.zeros(ncol * k, dtype=np.bool_)
        seen[code] = True
        used = np.flatnonzero(seen)
        slot = np.zeros(ncol * k, dtype=np.intp)
        slot[used] = np.arange(used.size, dtype=np.intp)
        bounds = np.searchsorted(used, np.arange(0, (ncol + 1) * k, k)).tolist()
        texts: list[str | None] = [keys[u] for u in (used % k).tolist()] if k else []
        numbers: list[tuple[list[int], _Numbers, bytes]] = []  # columns of plain numbers
        cell_rows: list[int] = []  # the other pairs, and their deltas
        deltas: list[bytes] = []
        failed: list[int] = []
        live: list[int] = []  # the columns some row gives a text
        for c in range(ncol):
            a, b = bounds[c], bounds[c + 1]
            if b - a == 1 and texts[a] is None:
                continue
            live.append(c)
            plan = self.plans[c]
            if plan is not None:
                given, at_rows = texts[a:b], list(range(a, b))
                if None in given:  # the field not given: no change (a zero delta)
                    i = given.index(None)
                    del given[i], at_rows[i]
                    if not given:
                        continue
                got = plan.packed(cast(list[str], given))
                if got is not None:
                    numbers.append((at_rows, plan, got))
                    continue
            cell = self.cells[c]
            shift = 8 * self.columns[c][2]
            for at in range(a, b):
                t = texts[at]
                if t is None:
                    continue
                chunk = cell.chunk(t) if cell is not None else None
                d = chunk << shift if chunk is not None else self.parsed(c, t)
                if d == _FAIL:
                    failed.append(at)
                    continue
                cell_rows.append(at)
                deltas.append(d.to_bytes(WORD_SIZE, "little"))
        table = np.zeros((used.size, WORD_SIZE), dtype=np.uint8)
        if numbers:
            _put(table, self.word, numbers)
        if cell_rows:
            given_deltas = np.frombuffer(b"".join(deltas), dtype=np.uint8)
            table[cell_rows] = given_deltas.reshape(-1, WORD_SIZE)
        inv = np.take(slot, code[:, live] if len(live) < ncol else code)
        return self._gathered(form, ix, keys, inv, table, failed)

    def _gathered(
        self,
        form: TextForm,
        ix: np.ndarray[Any, np.dtype[np.intp]],
        keys: list[str | None],
        inv: np.ndarray[Any, np.dtype[np.intp]],
        table: np.ndarray[Any, np.dtype[np.uint8]],
        failed: list[int],
    ) -> tuple[np.ndarray[Any, np.dtype[np.uint8]], np.ndarray[Any, np.dtype[np.bool_]]]:
        """The rows' words from their pairs' deltas (`table`, 64 bytes a pair; `inv`: each
        row's pairs), the overrides (`ix`'s last column) written over them."""
        n = ix.shape[0]
        # the cells' deltas column by column (`take` along the table's rows, reduced along
        # the columns: several times faster than a row's cells fancy-indexed and reduced)
        cells = np.take(table.view("<u8"), inv.T, axis=0)
        W64 = np.bitwise_xor.reduce(cells, axis=0) ^ self.word64
        W = W64.view(np.uint8).reshape(n, WORD_SIZE)
        if failed:
            fail = np.zeros(table.shape[0], dtype=np.bool_)
            fail[failed] = True
            bad = fail[inv].any(axis=1)
        else:
            bad = np.zeros(n, dtype=np.bool_)
        none = keys.index(None) if None in keys else -1
        parsed: dict[int, list[tuple[int, int]] | None] = {}
        for r in np.flatnonzero(ix[:, -1] != none).tolist():
            u = int(ix[r, -1])
            if u not in parsed:
                parsed[u] = self.overrides(form, keys[u])  # type: ignore[arg-type]
            got = parsed[u]
            if got is None:
                bad[r] = True
                continue
            for off, v in got:
                W[r, off] = v
        return W, bad

    def match(self, line: str, pos: int) -> tuple[str | None, ...] | None:
        """The groups of `line` from `pos` (after its mnemonic), by the commonest skeleton's
        expression, else the statement's (the skeleton then learned); None if neither."""
        fixed = self.fixed
        m = fixed.match(line, pos) if fixed is not None else None
        if m is None:
            m = self.rx.match(line, pos)
            if m is None:
                return None
            self.learn(line, m, pos)
        return m.groups()

    def learn(self, line: str, m: re.Match[str], pos: int) -> None:
        """Count the skeleton of a line `rx` matched from `pos` (its text outside the groups,
        and which groups it has), and make the commonest one `fixed` (`_Skeleton`), tried
        before `rx`. One line in `_SAMPLE` is looked at, standing for them all."""
        self.missed += 1
        if self.missed % _SAMPLE and self.common is not None:
            return
        sig: list[str | None] = []
        prev = pos
        for (a, b), (_, union) in zip(m.regs[1:], self.groups, strict=True):
            if a < 0:
                sig.append(None)
                continue
            sig.append(line[prev:a])
            if union and line[a + len(union) : a + len(union) + 2] == "={":
                return  # `name={...}` read whole: the struct arm's alternative failed on it
            prev = b
        sig.append(line[prev:].split(";", 1)[0].rstrip())
        key = tuple(sig)
        found = self.skeletons.get(key)
        if found is None:
            if len(self.skeletons) >= _SKELETONS:
                return
            found = self.skeletons[key] = _Skeleton(self, key)
        found.lines += _SAMPLE
        common = self.common
        if found is not common and (common is None or found.lines > common.lines):
            if found.rx is None:
                found.compile()
                assert found.rx is not None
            self.common = found
            self.fixed = found.rx
        if found is self.common or found.lines >= _SPLIT_MIN:
            split = found.split()
            if split is not None:
                have = self.splits.get(split.width)
                if have is None or found.lines > have.skeleton.lines:
                    self.splits[split.width] = split

    def credit(self, lines: int) -> None:
        """Count to the skeleton tried first the lines of a call `fixed` matched (`lines`
        were matched, `missed` of them by `rx` alone). Calls in threads at once may miscount:
        the counts choose which skeleton is tried first, never what a line reads as."""
        missed, self.credited = self.missed - self.credited, self.missed
        if self.common is not None:
            self.common.lines += max(lines - missed, 0)

    def parsed(self, c: int, text: str) -> int:
        """The 64-byte delta of column `c` given as `text` where its cell does not read it
        (through `_Body.delta`), or `_FAIL`."""
        body, j, lo, hi = self.columns[c]
        d = body.delta(j, text)
        if d == _FAIL or d >> (8 * hi) or d & ((1 << (8 * lo)) - 1):
            return _FAIL
        return d

    def overrides(self, form: TextForm, text: str) -> list[tuple[int, int]] | None:
        """`@N=V ...` read as the statement's body reads it; None if it reads otherwise."""
        tk = _Tokens(text, 0)
        found: list[tuple[int, int]] = []
        out = bytearray(WORD_SIZE)
        try:
            while tk.i < len(tk.toks):
                if form._assignment(tk, self.body.cls, out, 0, True, found, set()) is not None:
                    return None
        except AsmError:
            return None
        return found


class _Skeleton:
    """A mnemonic's lines of one skeleton: the same text outside their fields' groups (the
    separators, the `name={` and `}` of the structs opened, the end before a comment) and
    the same groups present. Its expression `rx` is that literal text around
    `_Statement.rx`'s own groups, each where that one has it (a group the skeleton does not
    have can match nothing, so it reads None there too). That one reads a line field by
    field, each part atomic and possessive (`_Body.flat`), so a line this one matches is
    one that one matches, with the same groups: the literal text is what its parts for the
    groups not present cannot match (another field's name, a brace, the end), and a union's
    group takes no `name={` (which its other alternative, the struct arm opened as
    `name={...}`, would read instead). A literal text is matched with no group to open or
    field to try, which makes it the faster of the two on a line of its skeleton."""

    __slots__ = ("cut", "key", "lines", "rx", "st")

    def __init__(self, st: _Statement, key: tuple[str | None, ...]) -> None:
        self.st, self.key = st, key  # key: the text before each group (None: no group), the end
        self.lines = 0  # how many lines have had it (those `rx` did not match sampled)
        self.rx: re.Pattern[str] | None = None
        self.cut: tuple[_Split | None] | None = None  # `split`'s answer, once made

    def group(self, c: int) -> str:
        """The expression of column `c`'s group (`_Statement.groups`'s, a union's narrowed:
        `name.arm=...`, or `name=` and no brace)."""
        group, union = self.st.groups[c]
        if union:
            return rf"{re.escape(union)}(?:\.[A-Za-z_]\w*=|=(?!\{{)){_CHUNK}"
        return group

    def compile(self) -> None:
        parts = []
        for c, literal in enumerate(self.key[:-1]):
            if literal is None:
                parts.append("(?:(?!)())?")  # a group that takes part in no match: None
                continue
            parts.append(f"{re.escape(literal)}({self.group(c)})")
        tail = self.key[-1]
        assert tail is not None and len(self.key) == len(self.st.groups) + 1
        self.rx = re.compile("".join(parts) + re.escape(tail) + _END)

    def split(self) -> _Split | None:
        """The skeleton's lines split at their blanks (`_split`, made once)."""
        if self.cut is None:
            self.cut = (self._split(),)
        return self.cut[0]

    def _split(self) -> _Split | None:
        """The skeleton's lines read as `line.split(" ")`: the mnemonic, then one token per
        group present, each the group's text between the literal text's pieces on either
        side of a blank (`name={` before it, `}` after it, say); None where the literal
        text is not so (a piece between two groups with no blank or more than one, the
        overrides present, no group). A line of that many blanks is of the skeleton iff
        each token matches its expression (those pieces around the group's own), and then
        each token's group is `rx`'s: the line is the pieces and the groups in order, and
        the groups are possessive, their text ending where a blank, a brace or `;` does
        (`_Body.flat`), the same within the token as within the line."""
        *literals, tail = self.key
        assert tail is not None
        if literals[-1] is not None or " " in tail:  # the overrides' group (a blank in it)
            return None
        at: list[int] = []
        tokens: list[_Token] = []
        before = ""
        for c, literal in enumerate(literals):
            if literal is None:
                continue
            end, blank, start = literal.partition(" ")
            if not blank or " " in start or (end and not at):
                return None
            if at:
                tokens.append(_Token(before, self.group(at[-1]), end))
            at.append(c)
            before = start
        if not at:
            return None
        tokens.append(_Token(before, self.group(at[-1]), tail))
        return _Split(self, at, tokens)


_Gathered = tuple[
    "_Statement",
    list[int],
    list[tuple[str | None, ...]],
    dict[_Split, tuple[list[int], list[list[str]]]],
    list[tuple[_Split, _Placed]],
]  # a call's lines of a mnemonic, their groups, and those split for a skeleton (`_Split`):
# split in Python, and split by the text scanner


class _FastAsm:
    """`asm` over many lines: a line spelled as `disasm` spells it (its listing columns and
    a trailing comment allowed) is split at its blanks when a skeleton of its mnemonic has
    that many (`_Split`: each distinct token checked once by the skeleton's own group
    between its literal pieces), else matched by its mnemonic's expression (the skeleton
    most of its lines have first, `_Skeleton`, then the statement's own), which splits it
    into its fields' texts; each distinct text of a field is read once, by the per-line parser's
    own `_assignment` (a struct's value field by field, so a changed field costs one field),
    into the bits it sets; the lines of a mnemonic are then built together, each row's word
    the XOR of its fields' deltas, gathered from one table of the distinct texts. A line it
    does not match, or whose text the parser reads otherwise than as one assignment per
    field, is read by `TextForm._asm_line`, so the language and every error are the
    parser's. Where the C text scanner is built (`textscan`) and the text is ASCII, a batch's
    lines are split by it (`batches`): the lines of a mnemonic and of a skeleton's number of
    tokens are gathered by numpy from its ids (`_scanned`) and each distinct (place, token)
    is read once (`_Placed`), the same tokens `line.split(" ")` gives; the other lines go
    through the loop above."""

    def __init__(self, form: TextForm) -> None:
        self.form = form
        self.epoch = 0
        self.statements: dict[str, _Statement] = {}
        self.enabled = not any(
            re.fullmatch(r"[0-9a-fA-F]{128}", name) for name in form.opcodes.__members__
        )  # else `listing_columns` would read such a column as the mnemonic
        self.declined = 0  # lines the last call left to the parser (for tests)
        # where the text scanner is built: "auto" (`batches` decides), "always" or "never"
        self.scanner = "auto"
        self.scanned = 0  # lines the last call took split by the text scanner (for tests)
        # (what a call gathers is its own: a form may assemble in several threads at once; the
        # memos it shares hold what a text means, the same whichever call read it)

    def statement(self, name: str) -> _Statement | None:
        """The statement of the mnemonic `disasm` prints as `name` (made once), else None."""
        st = self.statements.get(name)
        if st is None:
            member = self.form.opcodes.__members__.get(name)
            if member is not None and member.name == name:
                cls = self.form.decoder.structs.get(int(member))
                if cls is not None:
                    st = self.statements[name] = _Statement(self, cls, int(member))
        return st

    def _headed(
        self,
        i: int,
        line: str,
        h: re.Match[str],
        groups: dict[str, _Gathered],
        raw_lines: list[int],
        raw_hex: list[str],
    ) -> bool:
        """Line `i`, headed by `h` (listing columns, then a `.word` or a mnemonic), gathered
        into `groups` or the raw words as `assemble` gathers a line; False if it is not."""
        name = h.group(1)
        pos = h.end()
        if name == ".word":
            m = _WORD_TAIL.match(line, pos)
            if m is None:
                return False
            raw_lines.append(i)
            raw_hex.append(m.group(1))
            return True
        st = self.statement(name)
        if st is None:
            return False
        g = groups.get(name)
        if g is None:
            g = groups[name] = (st, [], [], {}, [])
        # the statement's text split at its blanks, its trailing blanks and comment left out
        # as the expressions' end (`_END`) leaves them: no group or literal holds a `;`
        cut = line.find(";", pos)
        tokens = line[pos : cut if cut >= 0 else len(line)].rstrip().split(" ")
        split = st.splits.get(len(tokens))
        if split is not None and not tokens[0]:  # a blank after the mnemonic, not a tab
            tokens[0] = name
            bucket = g[3].get(split)
            if bucket is None:
                bucket = g[3][split] = ([], [])
            bucket[0].append(i)
            bucket[1].append(tokens)
            return True
        got = st.match(line, pos)
        if got is None:
            return False
        g[1].append(i)
        g[2].append(got)
        return True

    def batches(self, text: str) -> Iterator[Sequence[str]]:
        """The lines of `text`, `_FAST_LINES` at a time, in order: from a line on whose next
        lines are mostly of skeletons the text scanner splits (`probe`), scanned by it
        (`textscan.Scan`) where it is built and the text is ASCII, until a batch it mostly did
        not split (`assemble` counts them in `scanned`: a count a call in another thread may
        have set, which decides how lines are split, never what they read as); else a batch
        split in Python, the next probed again (a text's first batch teaches the skeletons).
        `scanner` "always" scans wherever the scanner is built, "never" splits in Python."""
        if self.scanner == "never":
            yield from _split_lines(text, 0)
            return
        start = 0
        while start <= len(text):
            if self.scanner == "always" or self.probe(text, start):
                scanned = scans(text, _FAST_LINES, start)
                if scanned is None:  # not built here, or not ASCII
                    yield from _split_lines(text, start)
                    return
                for scan in scanned:
                    yield scan
                    start = scan.end
                    if self.scanner == "auto" and self.scanned < _SCANNED_SHARE * len(scan):
                        break  # the next batch probed again
                continue
            end = _line_end(text, start, _FAST_LINES)
            yield text[start:end].split("\n")
            start = end + 1

    def probe(self, text: str, start: int) -> bool:
        """Whether `_SCANNED_SHARE` or more of the `_FAST_MIN_LINES` lines of `text` from
        `start` on start with a mnemonic with a skeleton of their number of tokens split
        (`_Split`): what the scanner gathers (a listing with columns, or lines of no learned
        skeleton, gain nothing from it)."""
        lines = text[start : _line_end(text, start, _FAST_MIN_LINES)].split("\n")
        split = 0
        for line in lines:
            tokens = line.split(" ")
            st = self.statements.get(tokens[0])
            split += st is not None and len(tokens) in st.splits
        return split >= _SCANNED_SHARE * len(lines)

    def _scanned(self, scan: Scan, groups: dict[str, _Gathered]) -> list[int]:
        """The lines of `scan` whose mnemonic has a skeleton split into as many tokens as they
        have (`_Split`), gathered into `groups` as `assemble` gathers such a line (their
        tokens the scanner's ids); the other lines' indices, in order."""
        starts = scan.starts
        width = np.diff(starts)
        wide = int(width.max()) + 1
        # the lines by (mnemonic, number of tokens): a mnemonic is a line's first token
        key = scan.tokens[starts[:-1]].astype(np.int64) * wide + width
        order = np.argsort(key, kind="stable")
        keys = key[order]
        cuts = [0, *(np.flatnonzero(keys[1:] != keys[:-1]) + 1).tolist(), len(keys)]
        taken = np.zeros(len(keys), dtype=np.bool_)
        for a, b, k in zip(cuts, cuts[1:], keys[cuts[:-1]].tolist(), strict=False):
            first, tokens = divmod(k, wide)
            g = groups.get(scan.token(first))
            split = g[0].splits.get(tokens) if g is not None else None
            if g is None or split is None:
                continue
            lines = order[a:b]
            g[4].append((split, _Placed.scanned(scan, lines, tokens)))
            taken[lines] = True
        rest: list[int] = np.flatnonzero(~taken).tolist()
        return rest

    def assemble(self, lines: Sequence[str], first: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
        """The words of `lines` (the text's lines from index `first` on)."""
        self.epoch += 1  # a call's texts are read once, not kept (`_Body.delta`)
        # each mnemonic's lines and their groups, and its lines split at their blanks, by
        # the shape they were split for (what a call gathers is its own)
        groups: dict[str, _Gathered] = {
            name: (st, [], [], {}, []) for name, st in self.statements.items()
        }
        raw_lines: list[int] = []
        raw_hex: list[str] = []
        slow: list[int] = []
        head = _HEAD.match
        todo: Iterable[tuple[int, str]] = enumerate(lines)
        self.scanned = 0
        if isinstance(lines, Scan) and self.enabled:
            rest = self._scanned(lines, groups)
            self.scanned = len(lines) - len(rest)
            todo = zip(rest, map(lines.__getitem__, rest), strict=True)
        for i, line in todo if self.enabled else ():
            sp = line.find(" ")
            g = groups.get(line[:sp] if sp >= 0 else line)
            if g is not None:  # a line that starts with a mnemonic, as `disasm` writes it
                st = g[0]
                tokens = line.split(" ")
                split = st.splits.get(len(tokens))
                if split is not None:  # the blanks of a skeleton's lines: its tokens, maybe
                    bucket = g[3].get(split)
                    if bucket is None:
                        bucket = g[3][split] = ([], [])
                    bucket[0].append(i)
                    bucket[1].append(tokens)
                    continue
                got = st.match(line, len(tokens[0]))
                if got is None:
                    slow.append(i)
                    continue
                g[1].append(i)
                g[2].append(got)
                continue
            h = head(line)  # listing columns first, or a blank, a `.word`, anything else
            if h is None or not self._headed(i, line, h, groups, raw_lines, raw_hex):
                slow.append(i)
        if not self.enabled:
            slow = list(range(len(lines)))
        parts: list[tuple[np.ndarray[Any, np.dtype[np.intp]], np.ndarray[Any, Any]]] = []
        if raw_lines:
            W = np.frombuffer(bytes.fromhex("".join(raw_hex)), dtype=np.uint8)
            parts.append((np.asarray(raw_lines, dtype=np.intp), W.reshape(-1, WORD_SIZE)))
        for g in groups.values():
            at, W = g[0].read(self.form, lines, g, slow)
            if at.size:
                parts.append((at, W))
        self.declined = len(slow)
        slow.sort()
        has = np.zeros(len(lines), dtype=np.bool_)
        found: list[tuple[int, bytes]] = []
        for i in slow:
            word = self.form._asm_line(lines[i], first + i + 1)
            if word is not None:
                found.append((i, word))
                has[i] = True
        for at, _ in parts:
            has[at] = True
        rank = np.cumsum(has) - 1
        out = np.empty((int(has.sum()), WORD_SIZE), dtype=np.uint8)
        for at, W in parts:
            out[rank[at]] = W
        for i, word in found:
            out[rank[i]] = np.frombuffer(word, dtype=np.uint8)
        return out
