"""Sizes, alignments, offsets and bitfields, computed the way GCC lays them out on x86-64 / aarch64.

Rules (System V ABI, which GCC follows on both LP64 targets we care about):
- a scalar's alignment is its size; an array's is its element's; a struct's is its largest
  member's; `packed` makes every member's alignment 1 (and so the struct's);
- a union's members all sit at offset 0; its size is the largest member rounded up to its alignment;
- a named bitfield of declared type T and width w goes at the current bit position unless it
  would cross a boundary of T's alignment unit, in which case it starts at the next such
  boundary; in a packed struct it always goes at the current bit position; a zero-width bitfield
  moves to the next boundary of T; an unnamed bitfield does not raise the struct's alignment;
- the struct's size is rounded up to its alignment.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MemberIn:
    """What layout needs to know about one member."""

    name: str | None
    size: int  # bytes of the whole member (all array elements)
    align: int  # natural alignment of the member
    unit_size: int  # for bitfields: sizeof the declared type
    bit_width: int | None = None
    packed: bool = False  # `__attribute__((packed))` on the member itself
    aligned: int = 0  # `__attribute__((aligned(N)))` on the member itself (0: none)


@dataclass(frozen=True)
class MemberOut:
    offset: int  # byte where the member (or the bitfield's first bit) is
    bit_offset: int | None  # for bitfields, bit position inside the byte at `offset` (LSB = 0)
    span: int  # bytes the member occupies (a bitfield: the bytes its bits touch)


@dataclass(frozen=True)
class Layout:
    size: int
    align: int
    members: tuple[MemberOut, ...]


def _align_up(x: int, a: int) -> int:
    return (x + a - 1) // a * a


def _capped(a: int, max_align: int | None) -> int:
    """A member's alignment under `#pragma pack(n)` (max_align = n): at most n."""
    return min(a, max_align) if max_align else a


def layout_struct(
    members: list[MemberIn], packed: bool, min_align: int = 1, max_align: int | None = None
) -> Layout:
    """`max_align` is the `#pragma pack(n)` in force where the struct is defined (None: none)."""
    bit = 0
    align = max(1, min_align)
    out: list[MemberOut] = []
    for m in members:
        if m.bit_width is None:
            a = 1 if packed or m.packed else _capped(m.align, max_align)
            a = max(a, m.aligned)  # GCC: `aligned` on a member raises it, packed or not
            bit = _align_up(bit, a * 8)
            out.append(MemberOut(bit // 8, None, m.size))
            bit += m.size * 8
            align = max(align, a)
            continue
        w = m.bit_width
        unit_bits = m.unit_size * 8
        type_align = _capped(m.align, max_align)
        if w == 0:
            bit = _align_up(bit, type_align * 8)
            out.append(MemberOut(bit // 8, 0, 0))
            continue
        if not packed:
            # the field must fit in one unit of its type starting at a boundary of the type's
            # (possibly #pragma pack-capped) alignment at or below the current bit
            if bit - bit % (type_align * 8) + unit_bits < bit + w:
                bit = _align_up(bit, type_align * 8)
            if m.name is not None:
                align = max(align, type_align)
        start = bit
        out.append(MemberOut(start // 8, start % 8, (start % 8 + w + 7) // 8))
        bit += w
    size = _align_up((bit + 7) // 8, align)
    return Layout(size, align, tuple(out))


def layout_union(
    members: list[MemberIn], packed: bool, min_align: int = 1, max_align: int | None = None
) -> Layout:
    """A union's layout as GCC makes it: every member at offset 0, the size the largest member's
    rounded up to the union's alignment (members' alignments capped by `max_align`, raised by
    `aligned`, 1 when packed; at least `min_align`)."""
    align = max(1, min_align)
    size = 0
    out: list[MemberOut] = []
    for m in members:
        a = 1 if packed or m.packed else _capped(m.align, max_align)
        a = max(a, m.aligned)
        align = max(align, a)
        if m.bit_width is None:
            out.append(MemberOut(0, None, m.size))
            size = max(size, m.size)
        else:
            out.append(MemberOut(0, 0, (m.bit_width + 7) // 8))
            size = max(size, (m.bit_width + 7) // 8)
    return Layout(_align_up(size, align), align, tuple(out))


def enum_size(values: list[int], packed: bool) -> int:
    """GCC: an enum is `int`-sized unless packed, when it takes the smallest type holding its range."""
    if not packed:
        return 8 if values and (max(values) > 0xFFFFFFFF or min(values) < -(2**31)) else 4
    lo = min(values, default=0)
    hi = max(values, default=0)
    for size in (1, 2, 4, 8):
        if lo >= 0 and hi < 2 ** (8 * size):
            return size
        if lo >= -(2 ** (8 * size - 1)) and hi < 2 ** (8 * size - 1):
            return size
    return 8
