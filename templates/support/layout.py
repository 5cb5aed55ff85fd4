"""The base classes of the generated structs and unions: byte-exact reads and writes driven by
each class's `LAYOUT` table.

A generated struct is a dataclass that declares its fields (names, Python types, defaults) and
a `LAYOUT`: one `FieldLayout` per field with the offsets tpbgen computed and proved against the C
compiler. Everything else (`from_bytes`, `write_into`, `to_bytes`, the numpy `DTYPE`) is here,
once, for every generation. Explicit little-endian offsets, never ctypes.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, fields
from math import prod
from typing import Any, ClassVar, Generic, Self, TypeVar, overload

import numpy as np

from .codec import Buffer, DecodeError, check_len, enum_or_int, put_bits, sext, uint

T = TypeVar("T")

# C scalar kinds, as the `kind` of a FieldLayout names them.
KINDS = ("uint", "int", "float", "bool", "enum", "struct")
_INT_FMT = {1: "B", 2: "H", 4: "I", 8: "Q"}
_FLOAT_FMT = {4: "f", 8: "d"}
_NP = {"B": "u1", "b": "i1", "H": "<u2", "h": "<i2", "I": "<u4", "i": "<i4", "Q": "<u8", "q": "<i8",
       "f": "<f4", "d": "<f8", "?": "u1"}  # fmt: skip


@dataclass(frozen=True)
class FieldLayout:
    """Where a field sits: byte offset and size (of the whole array for an array field); bit
    position and width for a bitfield; and how the runtime reads it (`kind`, and the enum or
    struct class `cls` for those kinds)."""

    name: str
    offset: int
    size: int
    dims: tuple[int, ...]
    bit_offset: int | None
    bit_width: int | None
    c_type: str
    kind: str = "uint"
    cls: Any = None

    @property
    def count(self) -> int:
        """Elements in the field: 1 for a scalar, the product of the dimensions for an array."""
        return prod(self.dims)

    @property
    def fmt(self) -> str:
        """The `struct` format character of one element (scalar kinds only)."""
        es = self.size // self.count
        if self.kind == "float":
            return _FLOAT_FMT[es]
        if self.kind == "bool":
            return "?"
        c = _INT_FMT[es]
        return c.lower() if self.kind == "int" else c


Reader = Callable[[Buffer, int], Any]
Writer = Callable[[bytearray, int, Any], None]


def _need(b: Buffer, offset: int, size: int, what: str) -> None:
    if offset < 0 or len(b) - offset < size:
        raise DecodeError(f"{what} needs {size} bytes at offset {offset}, the buffer has {len(b)}")


def _reader(f: FieldLayout) -> Reader:
    off, n = f.offset, f.count
    if f.bit_width is not None:
        shift, mask, width, size, cls = f.bit_offset or 0, (1 << f.bit_width) - 1, f.bit_width, f.size, f.cls
        if f.kind == "enum":
            return lambda b, o: enum_or_int(cls, (uint(b, o + off, size) >> shift) & mask)
        if f.kind == "int":
            return lambda b, o: sext((uint(b, o + off, size) >> shift) & mask, width)
        return lambda b, o: (uint(b, o + off, size) >> shift) & mask
    if f.kind == "struct":
        cls, es = f.cls, f.size // n
        if not f.dims:
            return lambda b, o: cls.from_bytes(b, o + off)
        return lambda b, o: tuple(cls.from_bytes(b, o + off + es * k) for k in range(n))
    if f.kind == "bool" and not f.dims:
        return lambda b, o: b[o + off] != 0
    unpack = struct.Struct(f"<{n}{f.fmt}").unpack_from
    if f.kind == "enum":
        cls = f.cls
        if not f.dims:
            return lambda b, o: enum_or_int(cls, unpack(b, o + off)[0])
        return lambda b, o: tuple(enum_or_int(cls, x) for x in unpack(b, o + off))
    if not f.dims:
        return lambda b, o: unpack(b, o + off)[0]
    return lambda b, o: tuple(unpack(b, o + off))


def _writer(f: FieldLayout) -> Writer:
    off, n, name = f.offset, f.count, f.name
    if f.bit_width is not None:
        size, shift, width = f.size, f.bit_offset or 0, f.bit_width
        return lambda out, o, v: put_bits(out, o + off, size, shift, width, int(v))
    if f.kind == "struct":
        es = f.size // n
        if not f.dims:
            return lambda out, o, v: v.write_into(out, o + off)

        def write_structs(out: bytearray, o: int, v: Any) -> None:
            check_len(v, n, name)
            for k, x in enumerate(v):
                x.write_into(out, o + off + es * k)

        return write_structs
    pack = struct.Struct(f"<{n}{f.fmt}").pack_into
    as_int = f.kind in ("uint", "int", "enum")
    if not f.dims:
        if as_int:
            return lambda out, o, v: pack(out, o + off, int(v))
        return lambda out, o, v: pack(out, o + off, v)

    def write_array(out: bytearray, o: int, v: Any) -> None:
        check_len(v, n, name)
        pack(out, o + off, *((int(x) for x in v) if as_int else v))

    return write_array


def dtype_of(layout: tuple[FieldLayout, ...], size: int) -> np.dtype[Any]:
    """The numpy structured dtype of a layout (a bitfield appears as the bytes that hold it)."""
    names, formats, offsets = [], [], []
    for f in layout:
        fmt: Any
        if f.bit_width is not None:
            fmt = f"u{f.size}" if f.size in (1, 2, 4, 8) else f"V{f.size}"
        elif f.kind == "struct":
            fmt = f.cls.DTYPE if not f.dims else (f.cls.DTYPE, f.dims)
        else:
            fmt = _NP[f.fmt] if not f.dims else (_NP[f.fmt], f.dims)
        names.append(f.name)
        formats.append(fmt)
        offsets.append(f.offset)
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": size})


class Struct:
    """Base of the generated struct dataclasses."""

    __slots__ = ()
    SIZE: ClassVar[int]
    LAYOUT: ClassVar[tuple[FieldLayout, ...]]
    DTYPE: ClassVar[np.dtype[Any]]
    _codec: ClassVar[tuple[tuple[str, Reader, Writer], ...]]
    _keeps_raw: ClassVar[bool]

    @classmethod
    def set_layout(cls, *layout: FieldLayout) -> None:
        """Attach the layout (called once per class by the generated module)."""
        cls.LAYOUT = layout
        cls.DTYPE = dtype_of(layout, cls.SIZE)
        cls._codec = tuple((f.name, _reader(f), _writer(f)) for f in layout)
        cls._keeps_raw = any(f.name == "_raw" for f in fields(cls))  # type: ignore[arg-type]

    @classmethod
    def from_bytes(cls, b: Buffer, offset: int = 0) -> Self:
        _need(b, offset, cls.SIZE, cls.__name__)
        values = {name: read(b, offset) for name, read, _ in cls._codec}
        if cls._keeps_raw:
            values["_raw"] = bytes(b[offset : offset + cls.SIZE])
        return cls(**values)

    def write_into(self, out: bytearray, o: int = 0) -> None:
        raw = getattr(self, "_raw", None)
        if raw is not None:
            out[o : o + self.SIZE] = raw
        for name, _, write in self._codec:
            write(out, o, getattr(self, name))

    def to_bytes(self) -> bytes:
        out = bytearray(self.SIZE)
        self.write_into(out, 0)
        return bytes(out)


class Union:
    """Base of the generated unions: the raw bytes, each arm decoded on access (`Arm`)."""

    __slots__ = ("_bytes",)
    SIZE: ClassVar[int]
    LAYOUT: ClassVar[tuple[FieldLayout, ...]]
    DTYPE: ClassVar[np.dtype[Any]]
    _arms: ClassVar[dict[str, tuple[Reader, Writer]]]

    def __init__(self, data: Buffer | None = None) -> None:
        data = bytes(self.SIZE) if data is None else data
        if len(data) != self.SIZE:
            raise ValueError(f"{type(self).__name__} takes {self.SIZE} bytes, got {len(data)}")
        self._bytes = bytes(data)

    @classmethod
    def set_layout(cls, *layout: FieldLayout) -> None:
        """Attach the layout (called once per class by the generated module)."""
        cls.LAYOUT = layout
        cls.DTYPE = dtype_of(layout, cls.SIZE)
        cls._arms = {f.name: (_reader(f), _writer(f)) for f in layout}

    @classmethod
    def from_bytes(cls, b: Buffer, offset: int = 0) -> Self:
        _need(b, offset, cls.SIZE, cls.__name__)
        return cls(b[offset : offset + cls.SIZE])

    @classmethod
    def of(cls, arm: str, value: Any) -> Self:
        """A union whose `arm` holds `value` (other bytes zero)."""
        out = bytearray(cls.SIZE)
        cls._arms[arm][1](out, 0, value)
        return cls(out)

    def arm(self, name: str) -> Any:
        return self._arms[name][0](self._bytes, 0)

    def write_into(self, out: bytearray, o: int = 0) -> None:
        out[o : o + self.SIZE] = self._bytes

    def to_bytes(self) -> bytes:
        return self._bytes

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Union) and other._bytes == self._bytes

    def __hash__(self) -> int:
        return hash(self._bytes)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(bytes.fromhex({self._bytes.hex()!r}))"


class Arm(Generic[T]):
    """One arm of a union, read from the union's bytes on access: `t: Arm[Tensor3D] = Arm()`."""

    __slots__ = ("name",)

    def __init__(self) -> None:
        self.name = ""

    def __set_name__(self, owner: type[Union], name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type[Union]) -> Arm[T]: ...
    @overload
    def __get__(self, obj: Union, owner: type[Union]) -> T: ...
    def __get__(self, obj: Union | None, owner: type[Union]) -> Arm[T] | T:
        if obj is None:
            return self
        value: T = obj.arm(self.name)
        return value

