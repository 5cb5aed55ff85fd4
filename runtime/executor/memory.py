"""The on-chip state: SBUF, PSUM, the register file, the ImmLd scalar flops and the accumulators.

Geometry comes from the generation's header constants (``STATE_BUF_*`` and ``PSUM_BUF_*``, passed
in as a mapping by the per-generation module); how an address maps to a (region, partition,
offset) is ../addressing.py's, and anything outside the active bytes raises :class:`AddressError`
(a generation whose ``PSUM_BUF_SZ`` is 0 has no PSUM; its ``psum`` view has shape (partitions, 0)).

State is zero at construction (the NKI simulator's NaN fill is a debugging aid, not a device
fact).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ..addressing import REQUIRED_GEOMETRY as REQUIRED_GEOMETRY
from ..addressing import AddressMap, Location, RegionGeometry
from .errors import AddressError

DEFAULT_NUM_ADDR_REGISTERS = 64
IMM_FLOPS_PER_CHANNEL = 8


class Region:
    """One memory (SBUF or PSUM) as a (partitions, active bytes) uint8 array."""

    def __init__(self, geometry: RegionGeometry):
        self.geometry = geometry
        self.name = geometry.name
        self.base = geometry.base
        self.size = geometry.size
        self.partitions = geometry.partitions
        self.stride = geometry.stride
        self.active = geometry.active
        self.data: npt.NDArray[np.uint8] = np.zeros((self.partitions, self.active), dtype=np.uint8)
        self._views: dict[int, npt.NDArray[Any]] = {}

    def contains(self, addr: int) -> bool:
        return bool(self.geometry.contains(addr))

    def view(self, itemsize: int) -> npt.NDArray[Any]:
        """The region as (partitions, active // itemsize) elements of an unsigned type."""
        v = self._views.get(itemsize)
        if v is None:
            dt = {1: np.uint8, 2: np.uint16, 4: np.uint32}[itemsize]
            v = self.data.view(dt)
            self._views[itemsize] = v
        return v


class Memory:
    """SBUF, PSUM, registers, ImmLd flops and accumulators of one NeuronCore model."""

    def __init__(self, geometry: Mapping[str, int]) -> None:
        self.addresses = AddressMap(geometry, error=AddressError)
        g = self.addresses.geometry
        self.geometry: dict[str, int] = g
        self.mask = self.addresses.mask
        nparts = g["STATE_BUF_NUM_PARTITIONS"]
        self.sbuf_region = Region(self.addresses.sbuf)
        self.psum_region = Region(self.addresses.psum)
        #: the regions in the order of `addresses.lookup` (what `AddressMap.find` indexes)
        self.lookup_regions = tuple(self.region_of(g.name) for g in self.addresses.lookup)
        self.num_partitions = nparts
        self.channels = g.get("DVE_NUM_CHANNELS", g.get("POOLING_NUM_CHANNELS", nparts))
        nregs = g.get("NUM_ADDR_REGISTERS", DEFAULT_NUM_ADDR_REGISTERS)
        self.registers: npt.NDArray[np.uint32] = np.zeros(nregs, dtype=np.uint32)
        # per-channel accumulator register of the cache-reduce/cumulative family (fp32)
        self.accumulators: npt.NDArray[np.float32] = np.zeros(self.channels, dtype=np.float32)
        # ImmLd scalar flops: up to 8 raw 32-bit values per channel, with what loaded them
        self.imm_flops: npt.NDArray[np.uint32] = np.zeros(
            (self.channels, IMM_FLOPS_PER_CHANNEL), dtype=np.uint32
        )
        self.imm_count = 0
        self.imm_channels = 0
        self.imm_kind: str | None = None  # "arith" or "bitvec"

    # -- addresses --------------------------------------------------------------------------

    def region_of(self, name: str) -> Region:
        return self.sbuf_region if name == "SBUF" else self.psum_region

    def decode(self, addr: int) -> Location:
        """Decode a PartitionOffset; :class:`AddressError` if it is outside the active bytes."""
        return self.addresses.locate(addr)

    def address(self, region: str, partition: int, offset: int) -> int:
        return self.addresses.address(region, partition, offset)

    # -- test-bench access ------------------------------------------------------------------

    def _rows(self, addr: int, rows: int, row_bytes: int, itemsize: int) -> tuple[Region, int, int]:
        loc = self.decode(addr)
        region = self.region_of(loc.region)
        if rows < 0 or loc.partition + rows > region.partitions:
            raise AddressError(
                f"{rows} partitions from {loc.region} partition {loc.partition} run past partition "
                f"{region.partitions - 1}"
            )
        if loc.offset + row_bytes > region.active:
            raise AddressError(
                f"{row_bytes} bytes at {loc.region} byte {loc.offset} run past the {region.active} "
                "active bytes of a partition"
            )
        if itemsize > 1 and loc.offset % itemsize:
            raise AddressError(f"address 0x{addr:X} is not aligned to {itemsize} bytes")
        return region, loc.partition, loc.offset

    def write(self, addr: int, array: npt.ArrayLike) -> None:
        """Write a (partitions, ...) array: row ``i`` goes to partition ``p(addr) + i`` at
        ``addr``'s byte offset. A 1-D array is one partition. Checked before anything is written."""
        a = np.ascontiguousarray(array)
        if a.ndim == 0:
            a = a.reshape(1, 1)
        elif a.ndim == 1:
            a = a.reshape(1, -1)
        rows = a.shape[0]
        raw = a.reshape(rows, -1).view(np.uint8)
        region, p0, off = self._rows(addr, rows, raw.shape[1], 1)
        region.data[p0 : p0 + rows, off : off + raw.shape[1]] = raw

    def read(
        self, addr: int, dtype: npt.DTypeLike, shape: tuple[int, ...] | int
    ) -> npt.NDArray[Any]:
        """Read ``shape`` = (partitions, ...) elements of ``dtype`` the way :meth:`write` writes."""
        dt = np.dtype(dtype)
        shp = (shape,) if isinstance(shape, int) else tuple(shape)
        if not shp:
            shp = (1,)
        rows = shp[0]
        per_row = int(np.prod(shp[1:], dtype=np.int64)) if len(shp) > 1 else 1
        nbytes = per_row * dt.itemsize
        region, p0, off = self._rows(addr, rows, nbytes, 1)
        raw = region.data[p0 : p0 + rows, off : off + nbytes].copy()
        return raw.view(dt).reshape(shp)

    def set_register(self, n: int, value: int) -> None:
        if not 0 <= int(n) < self.registers.shape[0]:
            raise IndexError(f"register {n} does not exist (0..{self.registers.shape[0] - 1})")
        self.registers[int(n)] = np.uint32(int(value) & 0xFFFFFFFF)

    def snapshot(self) -> tuple[bytes, ...]:
        """Every byte of state, for tests that check an error left the state untouched."""
        return (
            self.sbuf_region.data.tobytes(),
            self.psum_region.data.tobytes(),
            self.registers.tobytes(),
            self.accumulators.tobytes(),
            self.imm_flops.tobytes(),
            repr((self.imm_count, self.imm_channels, self.imm_kind)).encode(),
        )
