"""The per-line reader of the text form: one line (the grammar the package docstring gives) into
its word, every error located by `line:col`. Every line the batch reader (`batch_asm`) does not
take, and every error `asm` gives, is this reader's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..arms import bare_arm
from ..decoding import WORD_SIZE
from ..layout import FieldLayout
from .base import FormBase
from .fields import Leaf, fields_by_name, float_bits, is_union, leaf_of, member_values
from .grammar import LISTING, AsmError, Tokens, describe, is_name, num_kind


class LineReader(FormBase):
    """`asm` of one line at a time."""

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
        tk = Tokens(" " * skip + line[skip:], lineno)
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
        m = LISTING.match(line)
        if m is None or (m.group("addr") is None and m.group("enc") is None):
            return 0
        enc = m.group("enc")
        if enc is not None and enc.lower() in self._mnemonics:
            return m.start("enc")
        return m.end()

    def _statement(self, tk: Tokens) -> bytes:
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
        if not is_name(first):
            tk.fail(f"expected a mnemonic, found {describe(first)}", 0)
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
        tk: Tokens,
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
        tk: Tokens,
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
        if not is_name(tok):
            tk.fail(f"expected a field name, found {describe(tok)}", at)
        f = fields_by_name(cls).get(tok.lower())
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
        tk: Tokens,
        f: FieldLayout,
        arm: str | None,
        out: bytearray,
        base: int,
        header: bool,
        at: int,
    ) -> None:
        if is_union(f):
            u = f.cls
            if arm is None:
                nxt = tk.peek()
                low = nxt.lower()
                kind = (
                    "float"
                    if low == "nan"
                    else num_kind(nxt) or ("address" if low in ("sbuf", "psum") else "other")
                )
                af = bare_arm(u, "float" if kind == "float" else kind)
            else:
                found = fields_by_name(u).get(arm.lower())
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
        leaf = leaf_of(f)
        if not f.dims:
            leaf.write(out, base, (self._scalar(tk, f, leaf),))
            return
        values = [self._scalar(tk, f, leaf) for _ in self._elements(tk, f, at)]
        tk.expect("]")
        leaf.write(out, base, values)

    def _elements(self, tk: Tokens, f: FieldLayout, at: int) -> Iterator[int]:
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

    def _int_in(self, tk: Tokens, lo: int, hi: int, what: str) -> int:
        tok = tk.next()
        if num_kind(tok) != "int":
            tk.fail(f"expected {what}, found {describe(tok)}")
        v = int(tok, 0)
        if not lo <= v <= hi:
            tk.fail(f"{what} is {lo}..{hi}, not {tok}")
        return v

    def _scalar(self, tk: Tokens, f: FieldLayout, leaf: Leaf) -> int:
        tok = tk.next()
        if not tok:
            tk.fail(f"expected a value for {f.name}, found the end of the line")
        kind = num_kind(tok)
        if f.kind == "float":
            if tok.lower() == "nan":
                tok = "nan:0x7fc00000" if leaf.es == 4 else "nan:0x7ff8000000000000"
            elif kind is None:
                tk.fail(f"{f.name} is a float: give a number, not {describe(tok)}")
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
        elif is_name(tok):
            v = self._named(tk, f, tok)
        else:
            tk.fail(f"expected a value for {f.name}, found {describe(tok)}")
        lo, hi = leaf.range
        if not lo <= v <= hi:
            tk.fail(f"{f.name} ({f.c_type}) is {lo}..{hi}, not {v}")
        return v

    def _address(self, tk: Tokens, region: str) -> int:
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

    def _named(self, tk: Tokens, f: FieldLayout, name: str) -> int:
        if f.kind == "bool":
            if name.lower() in ("true", "false"):
                return int(name.lower() == "true")
            tk.fail(f"{f.name} is a bool: true, false or a number, not {name!r}")
        if f.kind == "enum":
            v = member_values(f.cls).get(name.lower())
            if v is None:
                members = ", ".join(f.cls.__members__)
                tk.fail(f"{name!r} is not a member of {f.cls.__name__} ({members})")
            return v
        tk.fail(f"{f.name} ({f.c_type}) takes a number, not {name!r}")
