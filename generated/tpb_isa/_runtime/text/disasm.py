"""The per-word writer of the text form: `disasm(word)`, one line a word (the text the
package docstring describes), exact: what each field shows is written back into a copy of the
default word, and every byte that copy does not reproduce follows as `@offset=0xNN`."""

from __future__ import annotations

from typing import Any

from ..arms import bare_arm, is_partition_offset
from ..codec import Word, as_bytes
from ..decoding import WORD_SIZE
from ..layout import FieldLayout
from .base import FormBase
from .fields import is_union, leaf_of


class Disassembler(FormBase):
    """`disasm` of one word at a time."""

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
            if top and f.kind == "struct" and base + f.offset == 0 and not is_union(f):
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
        if is_union(f):
            u = f.cls
            arm = self._choose_arm(u, f.name, b, base + f.offset, siblings)
            text, kind = self._arm_text(arm, b, base + f.offset, out, dflt)
            if bare_arm(u, kind).name == arm.name:
                return f"{f.name}={text}"
            return f"{f.name}.{arm.name}={text}"
        if f.kind == "struct":
            return f"{f.name}={self._struct_text(f, b, base, out, dflt)}"
        leaf = leaf_of(f)
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
        leaf = leaf_of(arm)
        raw = leaf.read(b, base)
        leaf.write(out, base, raw)
        texts = list(map(self._formatter(arm), raw))
        if arm.dims:
            return "[" + ",".join(texts) + "]", "list"
        kind = "float" if arm.kind == "float" else "other"
        if is_partition_offset(arm) and texts[0].startswith(("sbuf", "psum")):
            kind = "address"
        return texts[0], kind
