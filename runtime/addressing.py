"""PartitionOffset addresses: where an address points, and the address of a place.

An address is a PartitionOffset (semantics.md §4.2): at most the bits of
``TPB_PARTITION_ADDR_MASK``; PSUM when it lies in ``[PSUM_BUF_OFFSET, PSUM_BUF_OFFSET +
PSUM_BUF_SZ)``, else SBUF when it lies in ``[STATE_BUF_OFFSET, STATE_BUF_OFFSET + STATE_BUF_SZ)``.
Within a region ``partition = (addr - base) // PARTITION_SIZE`` and ``offset = (addr - base) %
PARTITION_SIZE``; only the first ``PARTITION_ACTIVE_SIZE`` bytes of a partition exist.

The geometry is the generation's (its header constants, ``constants.GEOMETRY``); the executor's
memory, the text form and the addressing helpers all read addresses through one `AddressMap`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

REQUIRED_GEOMETRY: tuple[str, ...] = (
    "STATE_BUF_NUM_PARTITIONS",
    "STATE_BUF_PARTITION_SIZE",
    "STATE_BUF_PARTITION_ACTIVE_SIZE",
    "STATE_BUF_OFFSET",
    "STATE_BUF_SZ",
    "PSUM_BUF_OFFSET",
    "PSUM_BUF_SZ",
    "PSUM_BUF_PARTITION_SIZE",
    "PSUM_BUF_PARTITION_ACTIVE_SIZE",
)
DEFAULT_PARTITION_ADDR_MASK = 0x1FFFFFFF
REGIONS = ("SBUF", "PSUM")


class AddressError(ValueError):
    """An address outside SBUF and PSUM's active bytes, or a place no address names."""


@dataclass(frozen=True)
class Location:
    """A decoded PartitionOffset: region name ("SBUF" or "PSUM"), partition, byte offset."""

    region: str
    partition: int
    offset: int

    def __str__(self) -> str:
        return location_text(self.region, self.partition, self.offset)


def location_text(region: str, partition: int, offset: int) -> str:
    """A place as the text form writes it: ``sbuf[3]+0x40``."""
    return f"{region.lower()}[{partition}]+{offset:#x}"


@dataclass(frozen=True)
class RegionGeometry:
    """One memory's place in the address space."""

    name: str
    base: int
    size: int
    partitions: int
    stride: int  # bytes from one partition's first address to the next one's
    active: int  # bytes of a partition that exist

    # Each rule below is written once, with operators that mean the same for a Python int and
    # for an int64 array (elementwise): `AddressMap.locate` reads one address with them,
    # `AddressMap.locate_columns` a column of addresses.

    def contains(self, addr: Any) -> Any:
        """Whether `addr` lies in this memory's part of the address space."""
        return (self.size > 0) & (self.base <= addr) & (addr < self.base + self.size)

    def place(self, addr: Any) -> tuple[Any, Any, Any, Any]:
        """(partition, byte offset, whether the partition exists, whether the byte does: is
        among the partition's active bytes) of an address this memory contains."""
        partition, offset = divmod(addr - self.base, self.stride)
        return partition, offset, partition < self.partitions, offset < self.active


@dataclass(frozen=True)
class LocatedColumns:
    """`AddressMap.locate_columns` of N addresses: each row's region index in `REGIONS`
    (0 SBUF, 1 PSUM), partition and byte offset where `found`, else 0."""

    found: npt.NDArray[np.bool_]
    region: npt.NDArray[np.int64]
    partition: npt.NDArray[np.int64]
    offset: npt.NDArray[np.int64]


class AddressMap:
    """The address space of one generation's NeuronCore, from its geometry constants."""

    def __init__(
        self, geometry: Mapping[str, int], error: type[AddressError] = AddressError
    ) -> None:
        self.error = error
        missing = [k for k in REQUIRED_GEOMETRY if k not in geometry]
        if missing:
            raise ValueError(f"geometry mapping lacks {', '.join(missing)}")
        g = {k: int(v) for k, v in geometry.items()}
        self.geometry: dict[str, int] = g
        self.mask = g.get("TPB_PARTITION_ADDR_MASK", DEFAULT_PARTITION_ADDR_MASK)
        self.sbuf = RegionGeometry(
            "SBUF",
            g["STATE_BUF_OFFSET"],
            g["STATE_BUF_SZ"],
            g["STATE_BUF_NUM_PARTITIONS"],
            g["STATE_BUF_PARTITION_SIZE"],
            g["STATE_BUF_PARTITION_ACTIVE_SIZE"],
        )
        self.psum = RegionGeometry(
            "PSUM",
            g["PSUM_BUF_OFFSET"],
            g["PSUM_BUF_SZ"],
            g.get("PSUM_BUF_NUM_PARTITIONS", g["STATE_BUF_NUM_PARTITIONS"]),
            g["PSUM_BUF_PARTITION_SIZE"],
            g["PSUM_BUF_PARTITION_ACTIVE_SIZE"] if g["PSUM_BUF_SZ"] > 0 else 0,
        )
        #: the order an address is looked up in: PSUM, then SBUF
        self.lookup: tuple[RegionGeometry, ...] = (self.psum, self.sbuf)

    def region(self, name: str) -> RegionGeometry:
        key = name.upper()
        if key == "SBUF":
            return self.sbuf
        if key == "PSUM":
            return self.psum
        raise self.error(f"no memory region {name!r}: SBUF or PSUM")

    def is_partition_offset(self, addr: Any) -> Any:
        """Whether `addr` (an int or an int64 array) has no bit outside the mask."""
        return (addr >= 0) & ((addr & ~self.mask) == 0)

    def locate(self, addr: int) -> Location:
        """Where a PartitionOffset points; `AddressError` when it is outside the active bytes."""
        i, part, off = self.find(addr)
        return Location(self.lookup[i].name, part, off)

    def find(self, addr: int) -> tuple[int, int, int]:
        """`locate` as (the region's index in `lookup`, partition, offset), no object made (the
        executor's walk of every instruction admitted calls it)."""
        addr = int(addr)
        if not self.is_partition_offset(addr):
            raise self.error(
                f"address 0x{addr:X} is not a PartitionOffset (bits above mask 0x{self.mask:X})"
            )
        for i, r in enumerate(self.lookup):
            if r.contains(addr):
                part, off, has_partition, has_byte = r.place(addr)
                if not has_partition:
                    raise self.error(f"address 0x{addr:X} is beyond the last {r.name} partition")
                if not has_byte:
                    raise self.error(
                        f"address 0x{addr:X} is {r.name} partition {part} byte {off}, beyond "
                        f"its {r.active} active bytes"
                    )
                return i, part, off
        where = f"SBUF [0x{self.sbuf.base:X}, 0x{self.sbuf.base + self.sbuf.size:X})"
        if self.psum.size:
            where += f" or PSUM [0x{self.psum.base:X}, 0x{self.psum.base + self.psum.size:X})"
        raise self.error(f"address 0x{addr:X} is not in {where}")

    def locate_columns(self, addr: npt.NDArray[np.int64]) -> LocatedColumns:
        """`locate` of each of a column of addresses, with the same rules (the methods above):
        (found, region index in `REGIONS`, partition, byte offset), the last three 0 where
        `locate` raises (`found` False)."""
        zero = np.zeros(addr.shape, np.int64)
        region, part, off = zero, zero, zero
        found = np.zeros(addr.shape, np.bool_)
        claimed = ~self.is_partition_offset(addr)  # `locate` raises before the look-up
        for r in self.lookup:
            inside = ~claimed & r.contains(addr)
            if not inside.any():
                continue
            q, m, has_partition, has_byte = r.place(addr)
            good = inside & has_partition & has_byte
            region = np.where(good, REGIONS.index(r.name), region)
            part = np.where(good, q, part)
            off = np.where(good, m, off)
            found |= good
            claimed |= inside
        return LocatedColumns(found, region, part, off)

    def text_of(self, addr: int) -> str | None:
        """`str(locate(addr))`, or None for an address that points at no existing byte, without
        raising or making a `Location` (the text form's listing asks it of every distinct
        address, most of them nowhere in a word of random bytes)."""
        if not self.is_partition_offset(addr):
            return None
        for r in self.lookup:
            if r.contains(addr):
                part, off, has_partition, has_byte = r.place(addr)
                return location_text(r.name, part, off) if has_partition & has_byte else None
        return None

    def try_locate(self, addr: int) -> Location | None:
        """`locate`, or None for an address that points at no existing byte."""
        try:
            return self.locate(addr)
        except AddressError:
            return None

    def address(self, region: str, partition: int, offset: int) -> int:
        """The PartitionOffset of byte `offset` of `partition` in `region` ("SBUF" or "PSUM");
        `AddressError` naming the allowed range when the place does not exist."""
        r = self.region(region)
        partition, offset = int(partition), int(offset)
        if r.size == 0:
            raise self.error(f"this generation has no {r.name}")
        if not 0 <= partition < r.partitions:
            raise self.error(
                f"{r.name} partition {partition} does not exist (0..{r.partitions - 1})"
            )
        if not 0 <= offset < r.active:
            raise self.error(
                f"{r.name} offset {offset:#x} is beyond a partition's {r.active:#x} active bytes"
            )
        return r.base + partition * r.stride + offset

    def sbuf_addr(self, partition: int, offset: int = 0) -> int:
        """The address of byte `offset` of SBUF partition `partition`."""
        return self.address("SBUF", partition, offset)

    def psum_addr(self, partition: int, offset: int = 0) -> int:
        """The address of byte `offset` of PSUM partition `partition`."""
        return self.address("PSUM", partition, offset)
