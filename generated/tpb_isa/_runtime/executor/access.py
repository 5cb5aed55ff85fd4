"""Access patterns: the TENSOR2D/3D/4D walk (semantics.md §4.3) as vectorised index arrays.

A pattern is ``start_addr`` (an ADDR4), signed element steps and unsigned counts, dimension 0
innermost. Every active partition ``start_partition + p`` (``p < num_active_channels``) follows
the same free pattern; the element at counter ``(i0, i1, ...)`` is at element offset
``sum(i_k * step_k)`` from the start byte, so the flattened order has ``i0`` fastest. Source and
destination are walked independently; only their element counts must match.

Choices where the shelf is open (semantics.md §9.10): the walk stays inside its partition; an
element whose byte offset falls outside the partition's active bytes is an :class:`AddressError`
(it does not spill into the next partition). Overlapping destination elements (a zero step, or
dims that alias) are written in walk order, so the last write wins. All of an instruction's reads
happen before any of its writes.

ADDR4 forms (common-h-facts.md §4.4): marker 0x00 is an immediate PartitionOffset; marker 0x80 takes
the address from register ``regnum``; a shape taken from a register (0x40, 0xC0) and the indirect
forms (0x20, 0xA0) are refused (:class:`UnsupportedError`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .errors import AddressError, UnsupportedError
from .memory import Memory, Region

MAX_ELEMENTS_PER_PARTITION = 1 << 24
MARKER_ADDR_REG = 0x80
MARKER_SHAPE_REG = 0x40
MARKER_INDIRECT = 0x20


def resolve_addr4(raw: int, memory: Memory, what: str = "start_addr") -> int:
    """An ADDR4's 32 bits -> the PartitionOffset it designates (register forms read the register)."""
    raw = int(raw) & 0xFFFFFFFF
    marker = raw >> 24
    if marker & MARKER_INDIRECT:
        raise UnsupportedError(
            f"{what}: indirect addressing (ADDR4 marker 0x{marker:02X}) is not modelled by the executor"
        )
    if marker & MARKER_SHAPE_REG:
        raise UnsupportedError(
            f"{what}: a shape taken from a register (ADDR4 marker 0x{marker:02X}) is not modelled: "
            "the shape registers' layout is not documented"
        )
    if marker & MARKER_ADDR_REG:
        regnum = raw & 0xFF
        if regnum >= memory.registers.shape[0]:
            raise AddressError(f"{what}: register {regnum} does not exist")
        return int(memory.registers[regnum])
    return raw & memory.mask


@dataclass(slots=True)
class Walk:
    """A resolved, bounds-checked walk over ``nparts`` partitions of one region (not frozen: made
    for every instruction prepared, where a frozen dataclass's __init__ costs 1.5 us more)."""

    region: Region
    partition: int
    nparts: int
    elem0: int
    count: int
    itemsize: int
    slc: slice | None
    offsets: npt.NDArray[np.int64] | None
    injective: bool

    def gather(self) -> npt.NDArray[Any]:
        """(nparts, count) raw elements; a view of memory when the walk is a plain stride."""
        rows = self.region.view(self.itemsize)[self.partition : self.partition + self.nparts]
        if self.slc is not None:
            return rows[:, self.slc]
        assert self.offsets is not None
        return rows[:, self.elem0 + self.offsets]

    def direct(self) -> npt.NDArray[Any] | None:
        """The walk as a writable (nparts, count) view of memory when it is a plain stride (so
        a kernel may write its output in place), else None."""
        if self.slc is None or self.count == 0:
            return None
        rows = self.region.view(self.itemsize)[self.partition : self.partition + self.nparts]
        return rows[:, self.slc]

    def scatter(self, values: npt.NDArray[Any]) -> None:
        """Store (nparts, count) raw elements in walk order (last write wins on overlap)."""
        if self.count == 0 or self.nparts == 0:
            return
        rows = self.region.view(self.itemsize)[self.partition : self.partition + self.nparts]
        vals = values.reshape(self.nparts, self.count)
        if self.slc is not None:
            rows[:, self.slc] = vals
            return
        assert self.offsets is not None
        if self.injective:
            rows[:, self.elem0 + self.offsets] = vals
            return
        rev = self.offsets[::-1]
        uniq, first_in_rev = np.unique(rev, return_index=True)
        last = (self.count - 1) - first_in_rev
        rows[:, self.elem0 + uniq] = vals[:, last]


def element_offsets(steps: Sequence[int], nums: Sequence[int]) -> npt.NDArray[np.int64]:
    """Element offsets of the flattened walk, dimension 0 fastest."""
    off = np.zeros(1, dtype=np.int64)
    for step, num in reversed(list(zip(steps, nums, strict=True))):
        off = (off[:, None] + np.arange(num, dtype=np.int64)[None, :] * step).reshape(-1)
    return off


def walk(
    memory: Memory,
    addr: int,
    steps: Sequence[int],
    nums: Sequence[int],
    itemsize: int,
    nparts: int,
    what: str,
) -> Walk:
    """Resolve and bounds-check a pattern starting at PartitionOffset ``addr``."""
    steps = [int(s) for s in steps]
    nums = [int(n) for n in nums]
    if len(steps) != len(nums):
        raise ValueError("steps and nums differ in length")
    loc = memory.decode(addr)
    region = memory.region_of(loc.region)
    if loc.offset % itemsize:
        raise AddressError(
            f"{what}: address 0x{addr:X} is not aligned to its {itemsize}-byte dtype"
        )
    if nparts < 1 or loc.partition + nparts > region.partitions:
        raise AddressError(
            f"{what}: {nparts} partitions from {region.name} partition {loc.partition} run past "
            f"partition {region.partitions - 1}"
        )
    # one pass over the dimensions: the count, the walk's lowest and highest element (relative
    # to the start) and the dimensions that repeat, merged where one continues the one before
    count, lo, hi = 1, 0, 0
    merged: list[tuple[int, int]] = []
    for s, n in zip(steps, nums, strict=True):
        count *= n
        span = (n - 1) * s
        if span < 0:
            lo += span
        else:
            hi += span
        if n > 1:
            if merged and s == merged[-1][0] * merged[-1][1]:
                merged[-1] = (merged[-1][0], merged[-1][1] * n)
            else:
                merged.append((s, n))
    if count > MAX_ELEMENTS_PER_PARTITION:
        raise UnsupportedError(
            f"{what}: {count} elements per partition is more than the executor handles "
            f"({MAX_ELEMENTS_PER_PARTITION})"
        )
    elem0 = loc.offset // itemsize
    row_elems = region.active // itemsize
    if count and (elem0 + lo < 0 or elem0 + hi >= row_elems):
        first = (elem0 + lo) * itemsize
        last = (elem0 + hi + 1) * itemsize
        raise AddressError(
            f"{what}: the walk from 0x{addr:X} touches bytes [{first}, {last}) of "
            f"{region.name} partition {loc.partition}, outside its {region.active} active bytes"
        )
    if count == 0:
        empty = slice(elem0, elem0)
        return Walk(region, loc.partition, nparts, elem0, 0, itemsize, empty, None, True)
    if not merged or (len(merged) == 1 and merged[0][0] != 0):
        st, n = merged[0] if merged else (1, 1)
        stop = elem0 + n * st
        slc = slice(elem0, stop if stop >= 0 else None, st)
        return Walk(region, loc.partition, nparts, elem0, count, itemsize, slc, None, True)
    offsets = element_offsets(steps, nums)
    injective = int(np.unique(offsets).size) == count
    return Walk(region, loc.partition, nparts, elem0, count, itemsize, None, offsets, injective)
