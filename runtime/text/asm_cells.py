"""The batch reader's fields: what one field's text, as `disasm` spells it, changes in a word of
one opcode (`_Body`: a struct's fields where they sit; `_Cell`: a leaf's bytes; `_Numbers`: a
column of plain numbers packed at once), read as the per-line reader reads it or left to it."""

from __future__ import annotations

import re
import struct
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np

from ..addressing import AddressMap
from ..arms import bare_arm
from ..decoding import WORD_SIZE
from ..layout import FieldLayout
from .fields import STRUCT_CODES, Leaf, fields_by_name, float_bits, is_union, leaf_of, member_values
from .grammar import ADDRESS, CHUNK, DEC, FLOAT, INT, LEAF, NAME, NUM, Tokens, bare_kind

if TYPE_CHECKING:
    from .batch_asm import _FastAsm

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
            rf"(?: ({re.escape(f.name)}(?:\.[A-Za-z_]\w*)?={CHUNK}))?" for f in self.fields
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
        by_name = fields_by_name(self.cls)
        for j, f in enumerate(self.fields):
            name = re.escape(f.name)
            lo = self.base + f.offset
            if _plain_struct(f) and by_name.get(f.name.lower()) is f and depth < 3:
                sub = self.sub(f, lo, self.header and lo == 0)
                inner = sub.flat(r"(?:(?<=\{)| )", columns, depth + 1)
                parts.append(rf"(?>{sep}{name}=\{{{inner}\}})?")
            elif (
                is_union(f)
                and by_name.get(f.name.lower()) is f
                and _plain_struct(arm := bare_arm(f.cls, "other"))
                and depth < 3
            ):
                # `name={...}` is the arm a value in braces takes (a struct): opened as above;
                # else (`name.arm=...`) the union's text is one group
                sub = self.sub(arm, lo + arm.offset, False)
                inner = sub.flat(r"(?:(?<=\{)| )", columns, depth + 1)
                columns.append((self, j, lo, lo + f.size))
                whole = rf"({name}(?:\.[A-Za-z_]\w*)?={CHUNK})"
                parts.append(rf"(?>{sep}{name}=\{{{inner}\}}|{sep}{whole})?")
            else:
                columns.append((self, j, lo, lo + f.size))
                if f.kind == "struct":  # a union (its struct arms in braces), structs' array
                    parts.append(rf"(?>{sep}({name}(?:\.[A-Za-z_]\w*)?={CHUNK}))?")
                else:  # a leaf: no braces in it
                    parts.append(rf"(?>{sep}({name}={LEAF}))?")
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
        if fields_by_name(self.cls).get(f.name.lower()) is f:
            target = self._target(f, text[len(f.name) :])
            if target is not None:
                d = self._quick(*target)
                if d is not None:
                    return d
        out = bytearray(self.word.to_bytes(WORD_SIZE, "little"))
        tk = Tokens(text, 0)
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
            if not eq or not is_union(f):
                return None
            af = fields_by_name(f.cls).get(arm.lower())
            if af is None:
                return None
            return af, base + f.offset, False, value
        if rest[:1] != "=":
            return None
        value = rest[1:]
        if not is_union(f):
            return f, base, self.header and base + f.offset == 0, value
        kind = "other" if value[:1] == "{" else bare_kind(value)
        if kind is None:
            return None
        return bare_arm(f.cls, kind), base + f.offset, False, value

    def _quick(self, f: FieldLayout, base: int, header: bool, value: str) -> int | None:
        """The delta of `value` written to `f` at `base`, read here when it is a struct's
        `{...}` of fields or a leaf's plain number, member or `[...]` of them (as `_scalar`
        reads them); None to leave it to the parser."""
        if f.kind == "struct":
            return self._quick_struct(f, base, header, value)
        if f.kind not in ("int", "uint", "enum", "bool", "float") or (
            f.kind == "enum" and f.cls is self.fast.form.opcodes
        ):
            return None
        return self._quick_leaf(f, base, value)

    def _quick_struct(self, f: FieldLayout, base: int, header: bool, value: str) -> int | None:
        """`_quick` of a plain struct's `{...}`: the XOR of its fields' deltas."""
        if f.dims or is_union(f) or value[:1] != "{" or value[-1:] != "}":
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

    def _quick_leaf(self, f: FieldLayout, base: int, value: str) -> int | None:
        """`_quick` of a scalar leaf's value, or an array leaf's `[...]` of them."""
        leaf = leaf_of(f)
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
    return f.kind == "struct" and not f.dims and not is_union(f)


def _quick_scalar(f: FieldLayout, leaf: Leaf, tok: str, am: AddressMap | None) -> int | None:
    """`TextForm._scalar` of a value that is a plain number, an address as `disasm` writes it
    (or, for an enum or a bool, a name), or None where `_scalar` would do anything else or
    fail (the parser then reads it)."""
    if f.kind == "float":
        if tok == "nan":
            tok = "nan:0x7fc00000" if leaf.es == 4 else "nan:0x7ff8000000000000"
        elif not (FLOAT.match(tok) or DEC.match(tok)):
            return None
        bits = float_bits(tok, leaf.es)
        return bits if 0 <= bits < 1 << (8 * leaf.es) else None
    if INT.match(tok):
        return int(tok, 0)
    if tok[:1] in ("s", "p") and am is not None:
        return _quick_address(f, tok, am)
    if f.kind == "enum" and NAME.match(tok) and tok != "inf":
        return member_values(f.cls).get(tok.lower())
    if f.kind == "bool" and tok.lower() in ("true", "false"):
        return int(tok.lower() == "true")
    return None


def _quick_address(f: FieldLayout, tok: str, am: AddressMap | None) -> int | None:
    """`_quick_scalar` of a value starting with `s` or `p` in an integer or float field:
    an address as `disasm` writes it, or None."""
    if f.kind == "float" or am is None:
        return None
    m = ADDRESS.match(tok)
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
            or fields_by_name(body.cls).get(f.name.lower()) is not f
        ):
            return None
        return _Numbers(f, body.base, body.fast.form.addresses)

    def __init__(self, f: FieldLayout, base: int, am: AddressMap | None) -> None:
        leaf = leaf_of(f)
        self.prefix = len(f.name) + 1  # `name=`
        self.count, self.dims = f.count, bool(f.dims)
        code = STRUCT_CODES[leaf.es]
        self.code = code.lower() if leaf.signed else code  # a `struct` code, as `Leaf` packs
        self.lo, self.hi = leaf.range
        self.at, self.size = base + f.offset, f.size
        # a column's values joined by `;` (which no value holds): each value one whole number
        # or one whole array of numbers
        one = rf"\[{NUM}{f',{NUM}' * (f.count - 1)}\]" if self.dims else NUM
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
        if fields_by_name(body.cls).get(f.name.lower()) is not f:
            return None
        union = is_union(f)
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
        self.arms: dict[str, tuple[FieldLayout, Leaf, int, int, int, int, int] | None] = {}
        for kind, arm, at in (
            [(k, bare_arm(f.cls, k), 0) for k in ("float", "int", "address")]
            if union
            else [("", f, -f.offset)]
        ):
            if union and not _Cell.writes(body, arm):
                self.arms[kind] = None
                continue
            leaf = leaf_of(arm)
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
            found = "address" if value[:1] in ("s", "p") else bare_kind(value)
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
