"""The per-word writer of the text form: `disasm(word)`, one line a word (the text the
package docstring describes), exact: every field shown reproduces its bits, and every byte of
the word that differs from the default word outside the bits shown follows as `@offset=0xNN`.

A word is written by its opcode's plan (`_Plan`, made once from the struct's `LAYOUT`): one step
a field over the word read as one integer, a leaf's step its text's prefix and where its bits
are, a nested struct's step its fields' own plan; only a union's arm is chosen per word
(`arms.choose_arm`, then the arm's own plan). The text of a nested struct and of a union is a
function of its own bytes (and, for a union, its `_src` field's), so each step keeps the last
`_MEMO` it wrote by those bytes: a program repeats its access patterns and headers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..arms import bare_arm, is_partition_offset
from ..codec import Word, as_bytes
from ..decoding import WORD_SIZE
from ..layout import FieldLayout, Union
from .base import FormBase
from .fields import bits_of, default_bytes, is_union, leaf_of

# the kinds of a plan's steps (the first item of each step's tuple), commonest first
_LEAF = 0  # (kind, "name=", shift, mask, sign bit, formatter, the field's bits)
# (kind, the bits that leave it out when at their default, its elements' plans, "name=",
# dropped when empty and compact, its first byte, its end, its memos (full, compact), whether
# it is an array of structs)
_STRUCT = 1
_UNION = 2  # (kind, field, its first byte, its end, its `_src` sibling or None, its memos)
_ARRAY = 3  # (kind, "name=", shifts, mask, sign bit, formatter, the field's bits)
_RESERVED = 4  # (kind, a _LEAF or _ARRAY step): shown only where its bits are not zero
_MEMO = 4096  # the texts a struct's or union's step keeps (then it forgets them all)

Step = tuple[Any, ...]
# a union's `<name>_src` enum field: (its name, shift, mask, reserved, formatter)
_Src = tuple[str, int, int, bool, Callable[[int], str]]


class _Plan:
    """How one struct (or union arm) at its place in a word is written: its steps, and the bits
    of the word the fields it always shows cover (a union's arm and a reserved field's are
    added per word)."""

    __slots__ = ("cover", "steps")

    def __init__(self, steps: list[Step], cover: int) -> None:
        self.steps, self.cover = steps, cover


class _ArmPlan:
    """A union arm at its place: a struct arm's plan, or a leaf arm's step and the prefix its
    text takes by the kind of value it shows (`name=` for the arm the value alone implies,
    else `name.arm=`)."""

    __slots__ = ("address", "bits", "plan", "prefixes", "step")

    def __init__(
        self, plan: _Plan | None, step: Step | None, prefixes: dict[str, str], address: bool
    ) -> None:
        self.plan, self.step, self.prefixes, self.address = plan, step, prefixes, address
        self.bits = step[6] if step is not None else 0


def _span(lo: int, size: int) -> int:
    """The bits of bytes [lo, lo + size) of a word."""
    return ((1 << (8 * size)) - 1) << (8 * lo)


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
        op = b[0]
        found = self._word_plans.get(op)
        if found is None:
            cls = self.decoder.structs.get(op)
            if cls is None:
                return ".word 0x" + b.hex()
            found = self._word_plan(cls, op)
        name, plan, dv = found
        v = int.from_bytes(b, "little")
        parts = [name]
        cover = plan.cover | self._run(plan.steps, b, v, dv if compact else None, parts)
        rest = (v ^ dv) & ~cover  # the bytes the fields shown do not reproduce
        if rest:
            parts += [
                f"@{k}={b[k]:#04x}" for k, x in enumerate(rest.to_bytes(WORD_SIZE, "little")) if x
            ]
        return " ".join(parts)

    def _word_plan(self, cls: type[Any], op: int) -> tuple[str, _Plan, int]:
        """The opcode's mnemonic, its struct's plan and the default word (the bytes `asm`
        starts from, the opcode in byte 0) as an integer; made once per opcode."""
        plan = self._compile(cls, 0, True)
        dv = (int.from_bytes(default_bytes(cls), "little") & ~255) | op
        found = self._word_plans[op] = (self.opcodes(op).name, plan, dv)
        return found

    def _run(self, steps: list[Step], b: bytes, v: int, d: int | None, parts: list[str]) -> int:
        """Append the texts of `steps` for the word `b` (`v` as an integer) to `parts`; with
        `d` (the default word, compact), leave out what holds its default. Returns the bits
        the reserved fields and union arms shown cover."""
        cover = 0
        for s in steps:
            kind = s[0]
            if kind == _LEAF:
                if d is not None and not (v ^ d) & s[6]:
                    continue
                x = (v >> s[2]) & s[3]
                if x & s[4]:
                    x -= s[4] << 1
                parts.append(s[1] + s[5](x))
                continue
            if kind == _STRUCT:
                if d is not None and s[1] and not (v ^ d) & s[1]:
                    continue
                memo = s[7][d is not None]
                key = b[s[5] : s[6]]
                got = memo.get(key)
                if got is None:
                    if len(memo) >= _MEMO:
                        memo.clear()
                    got = memo[key] = self._struct(s, b, v, d)
            elif kind == _UNION:
                got = self._union(s, b, v, d)
            elif kind == _RESERVED:
                leaf = s[1]
                if v & leaf[6] and (d is None or (v ^ d) & leaf[6]):
                    parts.append(_leaf_text(leaf, v))
                    cover |= leaf[6]
                continue
            else:  # _ARRAY
                if d is None or (v ^ d) & s[6]:
                    parts.append(_leaf_text(s, v))
                continue
            if got[0]:
                parts.append(got[0])
            cover |= got[1]
        return cover

    def _struct(self, s: Step, b: bytes, v: int, d: int | None) -> tuple[str, int]:
        """A struct step's `name={...}` (or `name=[{...},...]`), "" where compact leaves an
        empty header out, and the bits its reserved fields and union arms cover."""
        cover = 0
        items = []
        for plan in s[2]:
            inner: list[str] = []
            cover |= self._run(plan.steps, b, v, d, inner)
            items.append("{" + " ".join(inner) + "}")
        if s[8]:  # an array of structs
            return s[3] + "[" + ",".join(items) + "]", cover
        if s[4] and d is not None and items[0] == "{}":
            return "", cover
        return s[3] + items[0], cover

    def _union(self, s: Step, b: bytes, v: int, d: int | None) -> tuple[str, int]:
        """A union's `name=value` (or `name.arm=value`) through the arm it shows ("" where
        compact leaves it out), and the bits that arm covers."""
        _, f, ub, end, src, memos = s
        memo: dict[Any, tuple[str, int]] = memos[d is not None]
        # the text is a function of the union's bytes and its `_src` field's value
        key: Any = b[ub:end] if src is None else (b[ub:end], (v >> src[1]) & src[2])
        got = memo.get(key)
        if got is not None:
            return got
        if d is not None and not (v ^ d) & _span(ub, end - ub):
            got = ("", 0)
        else:
            siblings = {}
            if src is not None:  # the `_src` enum field before it: its member name
                name, shift, mask, reserved, fmt = src
                x = (v >> shift) & mask
                if x or not reserved:
                    siblings[name] = fmt(x)
            arm = self._choose_arm(f.cls, f.name, b, ub, siblings)
            got = self._arm(f, arm, ub, b, v, d)
        if len(memo) >= _MEMO:
            memo.clear()
        memo[key] = got
        return got

    def _arm(
        self, f: FieldLayout, arm: FieldLayout, ub: int, b: bytes, v: int, d: int | None
    ) -> tuple[str, int]:
        """Union field `f`'s text through `arm` (at byte `ub`), and the bits it covers."""
        ap = self._arm_plans.get((id(f), id(arm), ub))
        if ap is None:
            ap = self._arm_plan(f, arm, ub)
        if ap.plan is not None:  # shown whole even when compact: the union differs somewhere
            struct = ap.plan.steps[0]
            text, cover = self._struct(struct, b, v, d)
            return text, ap.plan.cover | cover
        step = ap.step
        assert step is not None
        text = _leaf_text(step, v, "")
        if step[0] == _ARRAY:
            kind = "list"
        elif arm.kind == "float":
            kind = "float"
        else:
            kind = "address" if ap.address and text.startswith(("sbuf", "psum")) else "other"
        return ap.prefixes[kind] + text, ap.bits

    def _arm_plan(self, f: FieldLayout, arm: FieldLayout, ub: int) -> _ArmPlan:
        """How arm `arm` of union field `f` (at byte `ub`) is written (made once)."""
        u: type[Union] = f.cls
        prefixes = {
            kind: f"{f.name}=" if bare_arm(u, kind).name == arm.name else f"{f.name}.{arm.name}="
            for kind in ("struct", "list", "float", "address", "other")
        }
        if arm.kind == "struct":
            step, cover = self._struct_step(arm, ub, prefixes["struct"], 0, False)
            ap = _ArmPlan(_Plan([step], cover), None, prefixes, False)
        else:
            ap = _ArmPlan(None, self._leaf_step(arm, ub), prefixes, is_partition_offset(arm))
        self._arm_plans[id(f), id(arm), ub] = ap
        return ap

    def _memos(self) -> tuple[dict[Any, tuple[str, int]], dict[Any, tuple[str, int]]]:
        """A struct's or union's step's memos (full, compact), each kept in `_memo_list`."""
        memos: tuple[dict[Any, tuple[str, int]], dict[Any, tuple[str, int]]] = ({}, {})
        self._memo_list += memos
        return memos

    def _forget(self) -> None:
        """Empty every step's memo (the texts written so far), keeping the plans."""
        for memo in self._memo_list:
            memo.clear()

    def _compile(self, cls: type[Any], base: int, top: bool) -> _Plan:
        """The plan of a struct's fields at `base` (the header's fields in braces, the opcode
        left out: it is the mnemonic), with the bits its leaves always shown cover."""
        steps: list[Step] = []
        cover = 0
        for idx, f in enumerate(cls.LAYOUT):
            if top and f.kind == "struct" and base + f.offset == 0 and not is_union(f):
                # the header: shown unless compact leaves it empty
                plan = self._compile(f.cls, f.offset, True)
                memos = self._memos()
                steps.append((_STRUCT, 0, (plan,), f"{f.name}=", True, 0, f.size, memos, False))
                cover |= plan.cover
                continue
            if top and base == 0 and f.offset == 0 and f.kind == "enum" and f.cls is self.opcodes:
                continue
            lo = base + f.offset
            if is_union(f):
                src = self._src(cls, idx, base)
                steps.append((_UNION, f, lo, lo + f.size, src, self._memos()))
            elif f.kind == "struct":
                step, inner = self._struct_step(f, base, f"{f.name}=", _span(lo, f.size), False)
                steps.append(step)
                cover |= inner
            elif leaf_of(f).reserved:
                steps.append((_RESERVED, self._leaf_step(f, base)))
            else:
                steps.append(self._leaf_step(f, base))
                cover |= bits_of(f, base)
        return _Plan(steps, cover)

    def _struct_step(
        self, f: FieldLayout, base: int, prefix: str, skip: int, drop: bool
    ) -> tuple[Step, int]:
        """A struct field's step: `prefix{...}`, or `prefix[{...},...]` for an array of
        structs, left out whole (compact) where the bits `skip` hold their default; and the
        bits its leaves always shown cover."""
        es = f.size // f.count
        lo = base + f.offset
        plans = tuple(self._compile(f.cls, lo + k * es, False) for k in range(f.count))
        cover = 0
        for plan in plans:
            cover |= plan.cover
        memos = self._memos()
        step = (_STRUCT, skip, plans, prefix, drop, lo, lo + f.size, memos, bool(f.dims))
        return step, cover

    def _leaf_step(self, f: FieldLayout, base: int) -> Step:
        """A leaf field's step at `base`: a scalar's bits (a bitfield's too), or an array's."""
        leaf = leaf_of(f)
        sign = 1 << (leaf.bits - 1) if leaf.signed else 0
        mask = (1 << leaf.bits) - 1
        at = 8 * (base + f.offset)
        fmt = self._formatter(f)
        if f.dims:
            shifts = tuple(at + 8 * k * leaf.es for k in range(f.count))
            return (_ARRAY, f"{f.name}=", shifts, mask, sign, fmt, bits_of(f, base))
        shift = at + (f.bit_offset or 0)
        return (_LEAF, f"{f.name}=", shift, mask, sign, fmt, bits_of(f, base))

    def _src(self, cls: type[Any], idx: int, base: int) -> _Src | None:
        """The enum field `<name>_src` before union field `idx` of `cls`, whose member names
        the union's arm follows (`arms.choose_arm`'s first rule), else None."""
        want = f"{cls.LAYOUT[idx].name}_src"
        for g in cls.LAYOUT[:idx]:
            if g.name == want and not g.dims and g.kind == "enum":
                leaf = leaf_of(g)
                shift = 8 * (base + g.offset) + (g.bit_offset or 0)
                return (want, shift, (1 << leaf.bits) - 1, leaf.reserved, self._formatter(g))
        return None


def _leaf_text(s: Step, v: int, with_name: str | None = None) -> str:
    """A _LEAF or _ARRAY step's text for word `v`: `name=value` or `name=[a,b,...]` (the value
    alone, its prefix `with_name`, when that is given)."""
    pre = s[1] if with_name is None else with_name
    mask, sign, fmt = s[3], s[4], s[5]
    if s[0] == _LEAF:
        x = (v >> s[2]) & mask
        if x & sign:
            x -= sign << 1
        text: str = pre + fmt(x)
        return text
    xs = [(v >> shift) & mask for shift in s[2]]
    if sign:
        xs = [x - (sign << 1) if x & sign else x for x in xs]
    return pre + "[" + ",".join(map(fmt, xs)) + "]"
