"""The dict writer of the text form: `to_dict(word)`, the word as plain data (JSON-ready) holding
the values its `disasm` text reads back as, and the text of such data for `from_dict` (which the
line reader then reads)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from ..arms import bare_arm, is_partition_offset
from ..codec import Word, as_bytes
from ..decoding import WORD_SIZE
from ..layout import FieldLayout
from .base import FormBase, PlainStep
from .fields import bits_of, default_bytes, is_union, leaf_of
from .grammar import num_kind


class DictWriter(FormBase):
    """`to_dict` of one word at a time."""

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
        rest = (int.from_bytes(default_bytes(cls), "little") ^ word) & ~cover[0] & ~255
        if rest:  # bytes no field shown reproduces: those of the default that differ
            for k, x in enumerate(rest.to_bytes(WORD_SIZE, "little")):
                if x:
                    fields[f"@{k}"] = b[k]
        return {"opcode": self.opcodes(b[0]).name, "fields": fields, "hex": b.hex()}

    def _plain_fields_of(
        self, cls: type[Any], b: bytes, base: int, cover: list[int], top: bool
    ) -> dict[str, Any]:
        """`disasm`'s walk (`Disassembler._compile`) giving the values `to_dict` holds (what
        its text reads back as) instead of the text: the same fields, keys, arms and order,
        without the text; the bits of each field shown are ORed into `cover[0]`."""
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
                key = f.name if bare_arm(u, kind).name == arm.name else f"{f.name}.{arm.name}"
                plain[key] = got
            else:
                plain[f.name] = self._plain_struct(f, b, base, cover)
        return plain

    def _plain_plan(self, cls: type[Any], base: int, top: bool) -> list[PlainStep]:
        """How `_plain_fields_of` takes each field of `cls` at `base` (as
        `Disassembler._compile` decides): "header", "union", "struct", "enum" (a scalar a
        union may follow) or "leaf", with a leaf's reader, value and bits; the opcode is left
        out."""
        key = (cls, base, top)
        plan = self._plans.get(key)
        if plan is None:
            plan = []
            for f in cls.LAYOUT:
                if top and f.kind == "struct" and base + f.offset == 0 and not is_union(f):
                    plan.append(("header", f, None, None, 0))
                elif (
                    top
                    and base == 0
                    and f.offset == 0
                    and f.kind == "enum"
                    and f.cls is self.opcodes
                ):
                    continue
                elif is_union(f):
                    plan.append(("union", f, None, None, 0))
                elif f.kind == "struct":
                    plan.append(("struct", f, None, None, 0))
                else:
                    step = "enum" if not f.dims and f.kind == "enum" else "leaf"
                    plan.append((step, f, leaf_of(f), self._plainer(f), bits_of(f, base)))
            self._plans[key] = plan
        return plan

    def _plainer(self, f: FieldLayout) -> Callable[[int], Any]:
        """`plain_text` of `_formatter(f)`'s text, without the text where the value is the
        raw integer itself (an int, a member the enum does not define, an unplaced address)."""
        found = self._plainers.get(id(f))
        if found is not None:
            return found
        fmt = self._formatter(f)
        value: Callable[[int], Any]
        if f.kind in ("int", "uint") and not is_partition_offset(f):

            def value(v: int) -> Any:
                return v

        elif f.kind in ("enum", "bool"):
            named = {int(m): plain_text(m.name) for m in f.cls} if f.kind == "enum" else {}
            if f.kind == "bool":
                named = {0: False, 1: True}

            def value(v: int) -> Any:
                return named.get(v, v)

        else:

            def value(v: int) -> Any:
                return plain_text(fmt(v))

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
        """A union arm's value and the kind `Disassembler._arm` gives it."""
        if arm.kind == "struct":
            return self._plain_struct(arm, b, base, cover), "struct"
        leaf = leaf_of(arm)
        raw = leaf.read(b, base)
        cover[0] |= bits_of(arm, base)
        if arm.dims:
            return list(map(self._plainer(arm), raw)), "list"
        text = self._formatter(arm)(raw[0])
        kind = "float" if arm.kind == "float" else "other"
        if is_partition_offset(arm) and text.startswith(("sbuf", "psum")):
            kind = "address"
        return plain_text(text), kind


def value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v) if not math.isnan(v) else "nan"
    if isinstance(v, Mapping):
        return "{" + " ".join(field_texts(v)) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(value_text(x) for x in v) + "]"
    return str(v)


def field_texts(fields: Mapping[str, Any]) -> list[str]:
    return [f"{k}={value_text(v)}" for k, v in fields.items()]


def plain_text(text: str) -> Any:
    """The value `_plain_value` reads from one value's text (`TextForm._formatter`'s): an
    int, a float, a NaN's text, an address's text, true / false, or a member name."""
    kind = num_kind(text)
    if kind == "int":
        return int(text, 0)
    if kind == "float":
        return text if text.startswith("nan") else float(text)
    return {"true": True, "false": False}.get(text, text)
