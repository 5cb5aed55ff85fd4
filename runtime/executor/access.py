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

Two forms, one set of rules: `walk` resolves one instruction's pattern (raising, with the reason,
for a pattern it refuses) and `walk_columns` the patterns of many words at once (numpy columns,
for `run_program`'s planner and `info_batch`'s footprints: each row resolved as `walk` resolves
it, or left to `walk`). Every rule both apply (the ADDR4 form, the region look-up and decode,
alignment, the partition bound, the element limit, the dimension merge, the active-bytes
bound) is one function below (or ../addressing.py's `AddressMap`), written with operators that
mean the same for a Python int and, elementwise, for an int64 array; each form calls it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..addressing import REGIONS
from .errors import AddressError, UnsupportedError
from .memory import Memory, Region

MAX_ELEMENTS_PER_PARTITION = 1 << 24
MARKER_ADDR_REG = 0x80
MARKER_SHAPE_REG = 0x40
MARKER_INDIRECT = 0x20
#: the marker bits of the forms whose address is not in the ADDR4 itself
MARKERS_NOT_IMMEDIATE = MARKER_ADDR_REG | MARKER_SHAPE_REG | MARKER_INDIRECT

I64 = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

# -- the rules, for an int or (elementwise) an int64 array --------------------------------------


def addr4_fields(raw: Any, mask: int) -> tuple[Any, Any]:
    """An ADDR4's marker byte (the top byte of its 32 bits) and the PartitionOffset it holds
    when the marker is immediate (its bits within the mask)."""
    raw = raw & 0xFFFFFFFF
    return raw >> 24, raw & mask


def too_many(count: Any) -> Any:
    """Whether a walk has more elements per partition than the executor handles."""
    return count > MAX_ELEMENTS_PER_PARTITION


def walk_rules(
    offset: Any,
    partition: Any,
    itemsize: Any,
    nparts: Any,
    partitions: Any,
    active: Any,
    dims: Iterable[tuple[Any, Any]],
) -> tuple[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any]:
    """The rules of a walk from byte ``offset`` of ``partition`` (of a region of ``partitions``
    partitions of ``active`` bytes) over ``nparts`` partitions, of ``itemsize``-byte elements,
    with the pattern's (step, count) dimensions ``dims``, innermost first:

    (aligned, fits, count, many, elem0, lo, hi, inside, plain, step, reach): whether the first
    byte is aligned to the element size; whether the partitions (at least one) exist; the
    elements per partition and whether they are `too_many`; the first element and the lowest
    and highest element relative to it; whether every element is among the partition's active
    bytes (an empty walk touches none); and whether the walk is one stride (`plain`), with
    that stride's step and reach (step times count). A stride: the dimensions that repeat
    (count > 1), merged where one continues the one before (its step is the merged one's
    reach), are none ((1, 1)) or one whose step is not 0.

    Arithmetic only (a select is a product with a 0/1 condition): an int and an int64 array
    take the same steps (the arrays' values must be small enough not to overflow). A
    dimension of one element changes nothing here (it may be left out)."""
    aligned = offset % itemsize == 0
    fits = (nparts >= 1) & (partition + nparts <= partitions)
    count, total, width = 1, 0, 0
    runs, step, reach = 0, 1, 1
    for s, n in dims:
        count = count * n
        span = (n - 1) * s
        total = total + span
        width = width + abs(span)
        repeats = n > 1
        starts = repeats & ((runs == 0) | (s != reach))  # repeats, and does not continue
        step = step + starts * (s - step)
        reach = (reach + starts * (s - reach)) * (1 + repeats * (n - 1))
        runs = runs + starts
    lo, hi = (total - width) // 2, (total + width) // 2  # the sums of min/max(span, 0)
    elem0 = offset // itemsize
    inside = (count == 0) | ((elem0 + lo >= 0) & (elem0 + hi < active // itemsize))
    plain = (runs == 0) | ((runs == 1) & (step != 0))
    return aligned, fits, count, too_many(count), elem0, lo, hi, inside, plain, step, reach


def touched_bytes(elem0: Any, lo: Any, hi: Any, itemsize: Any) -> tuple[Any, Any]:
    """Bytes [first, stop) of its partition a walk's elements span."""
    return (elem0 + lo) * itemsize, (elem0 + hi + 1) * itemsize


# -- one instruction's pattern --------------------------------------------------------------


def resolve_addr4(raw: int, memory: Memory, what: str = "start_addr") -> int:
    """An ADDR4's 32 bits -> the PartitionOffset it designates (register forms read the register)."""
    marker, address = addr4_fields(int(raw), memory.mask)
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
        regnum = int(raw) & 0xFF
        if regnum >= memory.registers.shape[0]:
            raise AddressError(f"{what}: register {regnum} does not exist")
        return int(memory.registers[regnum])
    return int(address)


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
    steps = list(map(int, steps))
    nums = list(map(int, nums))
    if len(steps) != len(nums):
        raise ValueError("steps and nums differ in length")
    at, partition, offset = memory.addresses.find(addr)  # `Memory.decode`, no Location made
    region = memory.lookup_regions[at]
    aligned, fits, count, many, elem0, lo, hi, inside, plain, step, reach = walk_rules(
        offset, partition, itemsize, nparts, region.partitions, region.active,
        [d for d in zip(steps, nums, strict=True) if d[1] != 1],
    )  # fmt: skip
    if not aligned:
        raise AddressError(
            f"{what}: address 0x{addr:X} is not aligned to its {itemsize}-byte dtype"
        )
    if not fits:
        raise AddressError(
            f"{what}: {nparts} partitions from {region.name} partition {partition} run past "
            f"partition {region.partitions - 1}"
        )
    if many:
        raise UnsupportedError(
            f"{what}: {count} elements per partition is more than the executor handles "
            f"({MAX_ELEMENTS_PER_PARTITION})"
        )
    if not inside:
        first, last = touched_bytes(elem0, lo, hi, itemsize)
        raise AddressError(
            f"{what}: the walk from 0x{addr:X} touches bytes [{first}, {last}) of "
            f"{region.name} partition {partition}, outside its {region.active} active bytes"
        )
    if count == 0:
        empty = slice(elem0, elem0)
        return Walk(region, partition, nparts, elem0, 0, itemsize, empty, None, True)
    if plain:
        stop = elem0 + reach
        slc = slice(elem0, stop if stop >= 0 else None, step)
        return Walk(region, partition, nparts, elem0, count, itemsize, slc, None, True)
    offsets = element_offsets(steps, nums)
    injective = int(np.unique(offsets).size) == count
    return Walk(region, partition, nparts, elem0, count, itemsize, None, offsets, injective)


# -- the patterns of many words -------------------------------------------------------------


def resolve_addr4_columns(raw: I64, mask: int) -> tuple[Bools, I64]:
    """`resolve_addr4` of a column of ADDR4s, for the immediate form: (immediate, address),
    the rows of the other forms (a register read, or refused) not immediate."""
    marker, address = addr4_fields(raw, mask)
    return (marker & MARKERS_NOT_IMMEDIATE) == 0, address


@dataclass
class WalkColumns:
    """`walk_columns`' walks of N rows, each field (N,) int64 (meaningful where the row is
    resolved)."""

    region: I64  # 0 SBUF, 1 PSUM (addressing.REGIONS)
    off: I64  # byte offset of the first element from the region's first byte
    rs: I64  # elements from one partition's first element to the next one's
    es: I64  # elements from one element to the next
    count: I64
    part: I64
    lo: I64  # lowest and highest byte the walk touches (relative to its partition's start)
    hi: I64
    elem0: I64  # the first element (the start address's), in elements from the partition's
    gather: Bools  # rows whose walk is not one plain stride (`walk` gives offsets)


def walk_columns(
    memory: Memory,
    addr: I64,
    steps: I64,
    nums: I64,
    itemsize: I64,
    nparts: I64,
    ok: Bools,
    gathers: bool = False,
) -> tuple[WalkColumns, Bools]:
    """`walk` of every row (PartitionOffsets `addr`, (N, dims) `steps` and `nums`), with its
    rules, for the rows it resolves to a plain stride of at least one element (`ok` cleared for
    every other row: one `walk` refuses, or a gather); with `gathers`, the rows it resolves to
    element offsets are kept too (`gather` set: their elements are `elem0` plus the pattern's
    offsets), and the empty walks. A row with a negative count or an element size the executor
    has no dtype of (`itemsize` < 1) is left to `walk` (cleared) without being judged."""
    where = memory.addresses.locate_columns(addr)
    regions = [memory.addresses.region(name) for name in REGIONS]  # by region index
    partitions = np.array([r.partitions for r in regions], np.int64)[where.region]
    active = np.array([r.active for r in regions], np.int64)[where.region]
    isz = np.where(itemsize > 0, itemsize, 1)
    # a row whose counts' product may overflow is not worked out (its nums and steps made
    # 1 and 0); it is refused when it has too many elements, else left to `walk`
    bounded = (nums >= 0).all(axis=1) & ~too_many(np.prod(nums.astype(np.float64), axis=1))
    ok = ok & where.found & (itemsize > 0) & bounded
    nums = np.where(ok[:, None], nums, 1)
    steps = np.where(ok[:, None], steps, 0)
    aligned, fits, count, _, elem0, lo, hi, inside, plain, step, _ = walk_rules(
        where.offset, where.partition, isz, nparts, partitions, active,
        zip(steps.T, nums.T, strict=True),
    )  # fmt: skip
    plain |= count == 0
    # an empty walk is no error (nothing to bound): a footprint's, not a record's
    ok &= aligned & fits & inside & (((count > 0) & (plain | gathers)) | (gathers & (count == 0)))
    first, stop = touched_bytes(elem0, lo, hi, isz)
    part = where.partition
    w = WalkColumns(
        where.region, part * active + elem0 * isz, active // isz, step, count, part, first, stop,
        elem0, ~plain,
    )  # fmt: skip
    return w, ok
