"""The batch writer of the text form: `disasm` over many words at once (`TextForm.disasm_rows`,
what a listing reads), the same text as the per-word writer, made a field at a time over numpy
columns of words."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ..addressing import DEFAULT_PARTITION_ADDR_MASK, AddressMap
from ..arms import arm_named, bare_arm, inline_arm, is_partition_offset
from ..decoding import WORD_SIZE
from ..layout import FieldLayout, Struct, Union
from .fields import Leaf, float_text, is_union, leaf_of

if TYPE_CHECKING:
    from .form import TextForm

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
        `disasm` gives them for each row (`Disassembler._compile`)."""
        cols: list[_Texts] = []
        siblings: dict[str, _Sibling] = {}
        form = self.form
        for f in cls.LAYOUT:
            if top and f.kind == "struct" and base + f.offset == 0 and not is_union(f):
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
        """One field's column (see `Disassembler._compile`)."""
        n = B.shape[0]
        lo = base + f.offset
        keep: np.ndarray[Any, np.dtype[np.bool_]] | None = None  # rows that show the field
        if f.kind == "struct" and dflt is not None:
            keep = (B[:, lo : lo + f.size] != np.frombuffer(dflt[lo : lo + f.size], np.uint8)).any(
                axis=1
            )
            if not keep.any():
                return [""] * n
        if is_union(f):
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
        leaf = leaf_of(f)
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
            return self.scalar_texts(f, raw, show)
        return self.array_texts(f, raw, show)

    def scalar_texts(
        self,
        f: FieldLayout,
        raw: np.ndarray[Any, Any],
        show: np.ndarray[Any, np.dtype[np.bool_]] | None,
    ) -> _Texts:
        """A scalar leaf's `" name=value"` per row ("" where `show` leaves it out)."""
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

    def array_texts(
        self,
        f: FieldLayout,
        raw: np.ndarray[Any, Any],
        show: np.ndarray[Any, np.dtype[np.bool_]] | None,
    ) -> _Texts:
        """An array leaf's `" name=[a,b,...]"` per row ("" where `show` leaves it out)."""
        if f.kind in ("int", "uint") and not is_partition_offset(f):
            return self.int_array_texts(f, raw, show)
        elements = self.format(f, raw)
        pre = f" {f.name}=["
        c = f.count
        texts = [pre + ",".join(elements[i : i + c]) + "]" for i in range(0, len(elements), c)]
        if show is not None:
            texts = [t if k else "" for t, k in zip(texts, show.tolist(), strict=True)]
        return texts

    @staticmethod
    def int_array_texts(
        f: FieldLayout,
        raw: np.ndarray[Any, Any],
        show: np.ndarray[Any, np.dtype[np.bool_]] | None,
    ) -> _Texts:
        """`array_texts` of an integer array: str() of a row's list is "[a, b, c]" with every
        element str(int), its blanks dropped."""
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
            column[shown] = _objects([pre + str(r).replace(" ", "") for r in raw[shown].tolist()])
        listed: _Texts = column.tolist()
        return listed

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
        """`name=text` or `name.arm=text` of one union arm (see `Disassembler._arm`)."""
        plain, named = f" {f.name}=", f" {f.name}.{arm.name}="
        if arm.kind == "struct":
            pre = plain if bare_arm(u, "struct").name == arm.name else named
            return [pre + t for t in self.struct_text(arm, B, ub, out, dflt, None)]
        leaf = leaf_of(arm)
        raw = self.read(leaf, B, ub)
        self.cover(arm, ub, B, out, None)
        elements = self.format(arm, raw)
        if arm.dims:
            pre = plain if bare_arm(u, "list").name == arm.name else named
            c = arm.count
            return [
                pre + "[" + ",".join(elements[i : i + c]) + "]" for i in range(0, len(elements), c)
            ]
        if arm.kind == "float":
            pre = plain if bare_arm(u, "float").name == arm.name else named
            return [pre + e for e in elements]
        other = plain if bare_arm(u, "other").name == arm.name else named
        if not is_partition_offset(arm):
            return [other + e for e in elements]
        address = plain if bare_arm(u, "address").name == arm.name else named
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
        """A struct field's `{...}` (or `[{...},...]`) per row (see `Disassembler._struct`)."""
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
        index = {a.name: i for i, a in enumerate(u.LAYOUT)}
        arms = self.shaped_arms(u, B, ub, index)
        src = siblings.get(f"{name}_src")
        if src is not None:  # choose_arm's first rule, once per distinct value
            chosen = self.selected_arms(u, src, index)
            arms = np.where(chosen >= 0, chosen, arms)
        return arms

    def shaped_arms(
        self,
        u: type[Union],
        B: np.ndarray[Any, np.dtype[np.uint8]],
        ub: int,
        index: Mapping[str, int],
    ) -> np.ndarray[Any, np.dtype[np.intp]]:
        """The arm `choose_arm` picks for each row by the union's shape and bytes (its rules
        after the first)."""
        form = self.form
        n = B.shape[0]
        arms = np.zeros(n, dtype=np.intp)
        po = next((a for a in u.LAYOUT if is_partition_offset(a)), None)
        st = next((a for a in u.LAYOUT if a.kind == "struct"), None)
        if po is not None and st is not None and len(u.LAYOUT) == 2:
            mask = form.addresses.mask if form.addresses else DEFAULT_PARTITION_ADDR_MASK
            v = np.zeros(n, dtype=np.uint64)
            for k in range(po.size):
                v |= B[:, ub + k].astype(np.uint64) << np.uint64(8 * k)
            high = (v & np.uint64(~mask & ((1 << 64) - 1))) != 0
            arms[:] = np.where(high, index[st.name], index[po.name])
        elif any(a.kind == "float" for a in u.LAYOUT):
            arms[:] = index[inline_arm(u).name]
        elif form._indirect_markers:
            ind = next((a for a in u.LAYOUT if "INDIRECT" in a.c_type and a.kind == "struct"), None)
            if ind is not None and u.SIZE > 3:
                hit = np.isin(B[:, ub + 3], list(form._indirect_markers))
                arms[hit] = index[ind.name]
        return arms

    def selected_arms(
        self, u: type[Union], src: _Sibling, index: Mapping[str, int]
    ) -> np.ndarray[Any, np.dtype[np.intp]]:
        """The arm the `<name>_src` field selects in each row (`choose_arm`'s first rule), -1
        in the rows where it selects none (or is not shown)."""
        f_src, values, shown = src
        fmt = self.form._formatter(f_src)
        reg, ptr, inline = (
            -1 if a is None else index[a.name]
            for a in (arm_named(u, "reg"), arm_named(u, "ptr"), inline_arm(u))
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
        chosen: np.ndarray[Any, np.dtype[np.intp]] = np.asarray(by_label, dtype=np.intp)[
            inverse.reshape(-1)
        ]
        if shown is not None:
            chosen[~shown] = -1
        return chosen

    @staticmethod
    def read(leaf: Leaf, B: np.ndarray[Any, np.dtype[np.uint8]], base: int) -> np.ndarray[Any, Any]:
        """A leaf's raw values in every row, as an (n, count) integer array (`Leaf.read`)."""
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
            return _float_texts(flat, leaf_of(f).es)
        table = self.table(f, raw)
        if table is not None:
            return list(map(table.__getitem__, flat.tolist()))
        if f.kind in ("int", "uint") and not is_partition_offset(f):
            return list(map(str, flat.tolist()))
        if is_partition_offset(f) and self.form.addresses is not None:
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
