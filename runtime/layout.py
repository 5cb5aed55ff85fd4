"""The base classes of the generated structs and unions: byte-exact reads and writes driven by
each class's `LAYOUT` table.

A generated struct is a dataclass that declares its fields (names, Python types, defaults) and
a `LAYOUT`: one `FieldLayout` per field with the offsets tpbgen computed and proved against the C
compiler. Everything else (`from_bytes`, `write_into`, `to_bytes`, the numpy `DTYPE`) is here,
once, for every generation. Explicit little-endian offsets, never ctypes.
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import IntEnum
from math import prod
from typing import Any, ClassVar, Generic, Self, TypeVar, overload

import numpy as np

from .arms import choose_arm, settings_of
from .codec import (
    Buffer,
    DecodeError,
    check_len,
    enum_or_int,
    float_field,
    float_of_bits,
    plain_buffer,
    put_bits,
    sext,
    uint,
)

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


def _need(b: Buffer, offset: int, size: int, what: str) -> Buffer:
    """`b` as a buffer `from_bytes` reads as it is (`codec.plain_buffer`), after checking the
    arguments: TypeError, or DecodeError when fewer than `size` bytes follow `offset`."""
    if not isinstance(b, (bytes, bytearray, memoryview)):
        raise TypeError(
            f"{what}.from_bytes: b is bytes, bytearray or memoryview, not {type(b).__name__}"
        )
    if not isinstance(offset, int):
        raise TypeError(f"{what}.from_bytes: offset is an int, not {type(offset).__name__}")
    b = plain_buffer(b)
    if offset < 0 or len(b) - offset < size:
        raise DecodeError(f"{what} needs {size} bytes at offset {offset}, the buffer has {len(b)}")
    return b


def _reader(f: FieldLayout) -> Reader:
    off, n = f.offset, f.count
    if f.bit_width is not None:
        shift, mask, width, size, cls = (
            f.bit_offset or 0,
            (1 << f.bit_width) - 1,
            f.bit_width,
            f.size,
            f.cls,
        )
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
    if f.kind == "float":  # by its bits, which a Python float alone may not keep (FloatBits)
        es, unpack_bits = f.size // n, struct.Struct(f"<{n}{_INT_FMT[f.size // n]}").unpack_from
        if not f.dims:
            return lambda b, o: float_of_bits(unpack_bits(b, o + off)[0], es)
        return lambda b, o: tuple(float_of_bits(x, es) for x in unpack_bits(b, o + off))
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
    if f.kind == "float":  # its bits: those it was read with, or its value's rounded to fit
        es, pack_bits = f.size // n, struct.Struct(f"<{n}{_INT_FMT[f.size // n]}").pack_into
        if not f.dims:
            return lambda out, o, v: pack_bits(out, o + off, float_field(v, es).bits)

        def write_floats(out: bytearray, o: int, v: Any) -> None:
            check_len(v, n, name)
            pack_bits(out, o + off, *(float_field(x, es).bits for x in v))

        return write_floats
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


Check = Callable[[Any], Any]  # a field value in, the value to store out (or ValueError/TypeError)


def _int_range(f: FieldLayout) -> tuple[int, int]:
    bits = f.bit_width if f.bit_width is not None else 8 * (f.size // f.count)
    if f.kind == "int":
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def _element_check(owner: str, f: FieldLayout) -> Check:
    """How one element of a field is checked and normalised when it is set."""
    what = f"{owner}.{f.name} ({f.c_type})"
    if f.kind == "struct":
        cls = f.cls
        if issubclass(cls, Union):
            coerce: Check = cls.coerce_for(what)
            return coerce

        def check_struct(v: Any) -> Any:
            if not isinstance(v, cls):
                raise TypeError(f"{what} takes a {cls.__name__}, not {type(v).__name__}")
            return v

        return check_struct
    if f.kind == "float":
        es = f.size // f.count

        def check_float(v: Any) -> Any:
            if isinstance(v, (bool, np.bool_)) or not isinstance(
                v, (int, float, np.integer, np.floating)
            ):
                raise TypeError(f"{what} takes a number, not {type(v).__name__}")
            return float_field(v, es)

        return check_float
    lo, hi = _int_range(f)
    if f.kind == "bool" and f.bit_width is None:
        lo, hi = 0, 1

    def check_int(v: Any) -> Any:
        if isinstance(v, (float, np.floating)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{what} takes an integer, not {type(v).__name__} {v!r}")
        if not lo <= v <= hi:
            raise ValueError(f"{what} is {lo}..{hi}, not {v}")
        return v if f.kind == "bool" or isinstance(v, int) else int(v)

    if f.kind != "enum":
        return check_int
    cls = f.cls
    members = {k.lower(): m for k, m in cls.__members__.items()}

    def check_enum(v: Any) -> Any:
        if isinstance(v, cls):
            return v
        if isinstance(v, str):
            m = members.get(v.lower())
            if m is None:
                raise ValueError(
                    f"{what}: {v!r} is not a member of {cls.__name__} ({', '.join(cls.__members__)})"
                )
            return m
        return enum_or_int(cls, check_int(v))

    return check_enum


def _check(owner: str, f: FieldLayout) -> Check:
    one = _element_check(owner, f)
    if not f.dims:
        return one
    n, what = f.count, f"{owner}.{f.name}"

    def check_array(v: Any) -> Any:
        if isinstance(v, (str, bytes)) or not hasattr(v, "__len__"):
            raise TypeError(f"{what} takes a sequence of {n}, not {type(v).__name__}")
        if len(v) != n:
            raise ValueError(f"{what} takes {n} elements, not {len(v)}")
        return tuple(one(x) for x in v)

    return check_array


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


def _same_key(f: FieldLayout) -> Callable[[Any], Any] | None:
    """What `Struct.__eq__` compares of field `f`: a float field's bits (an array's, each
    element's), None for the value itself."""
    if f.kind != "float":
        return None
    es = f.size // f.count
    if not f.dims:
        return lambda v: float_field(v, es).bits
    return lambda v: tuple(float_field(x, es).bits for x in v)


class Struct:
    """Base of the generated struct dataclasses.

    Equality: two structs are equal when they are of the same class and every field is equal,
    a float field by its bits (the bits `to_bytes` writes): a NaN equals a NaN of the same bits
    (payload and signalling bit included), and 0.0 differs from -0.0, so `from_bytes(b)` always
    equals `from_bytes(b)`. Bytes no field covers (`_raw`) are not compared. A float field's
    value stays a float (`codec.FloatBits`, which keeps its bits). Structs are mutable, hence
    unhashable."""

    __slots__ = ()
    SIZE: ClassVar[int]
    LAYOUT: ClassVar[tuple[FieldLayout, ...]]
    DTYPE: ClassVar[np.dtype[Any]]
    _codec: ClassVar[tuple[tuple[str, Reader, Writer], ...]]
    _checks: ClassVar[dict[str, Check]] = {}  # until set_layout: nothing to check against
    _keeps_raw: ClassVar[bool]
    _same: ClassVar[tuple[tuple[str, Callable[[Any], Any] | None], ...]] = ()

    @classmethod
    def set_layout(cls, *layout: FieldLayout) -> None:
        """Attach the layout (called once per class by the generated module)."""
        cls.LAYOUT = layout
        cls.DTYPE = dtype_of(layout, cls.SIZE)
        cls._codec = tuple((f.name, _reader(f), _writer(f)) for f in layout)
        cls._checks = {f.name: _check(cls.__name__, f) for f in layout}
        cls._keeps_raw = any(f.name == "_raw" for f in fields(cls))  # type: ignore[arg-type]
        cls._same = tuple((f.name, _same_key(f)) for f in layout)

    def __eq__(self, other: object) -> bool:
        """Same class, every field equal, a float field by its bits (the class docstring)."""
        if type(other) is not type(self):
            return NotImplemented
        for name, key in self._same:
            a, b = getattr(self, name), getattr(other, name)
            if (a != b) if key is None else (key(a) != key(b)):
                return False
        return True

    __hash__ = None  # type: ignore[assignment]

    def __setattr__(self, name: str, value: Any) -> None:
        """Fields are checked when set: type, range, array length; an enum field also takes a
        member name (any case), a union field a float or int its arms make unambiguous."""
        check = type(self)._checks.get(name)
        object.__setattr__(self, name, value if check is None else check(value))

    @classmethod
    def from_bytes(cls, b: Buffer, offset: int = 0) -> Self:
        b = _need(b, offset, cls.SIZE, cls.__name__)
        obj = cls.__new__(cls)  # what the bytes hold needs no checking: skip __setattr__
        for name, read, _ in cls._codec:
            object.__setattr__(obj, name, read(b, offset))
        if cls._keeps_raw:
            object.__setattr__(obj, "_raw", bytes(b[offset : offset + cls.SIZE]))
        return obj

    def __repr__(self) -> str:
        return struct_repr(self)

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
    _arms: ClassVar[dict[str, tuple[Reader, Writer, Check]]]

    def __init__(self, data: Buffer | None = None) -> None:
        data = bytes(self.SIZE) if data is None else data
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(
                f"{type(self).__name__}: data is bytes, bytearray or memoryview, "
                f"not {type(data).__name__} (a value goes through .of_<arm>(value))"
            )
        if len(data) != self.SIZE:
            raise ValueError(f"{type(self).__name__} takes {self.SIZE} bytes, got {len(data)}")
        self._bytes = bytes(data)

    @classmethod
    def set_layout(cls, *layout: FieldLayout) -> None:
        """Attach the layout (called once per class by the generated module)."""
        cls.LAYOUT = layout
        cls.DTYPE = dtype_of(layout, cls.SIZE)
        cls._arms = {f.name: (_reader(f), _writer(f), _check(cls.__name__, f)) for f in layout}

    @classmethod
    def from_bytes(cls, b: Buffer, offset: int = 0) -> Self:
        b = _need(b, offset, cls.SIZE, cls.__name__)
        return cls(b[offset : offset + cls.SIZE])

    @classmethod
    def of(cls, arm: str, value: Any) -> Self:
        """A union whose `arm` holds `value` (other bytes zero)."""
        codec = cls._arms.get(arm)
        if codec is None:
            raise ValueError(
                f"{cls.__name__} has no arm {arm!r} ({', '.join(a.name for a in cls.LAYOUT)})"
            )
        _, write, check = codec
        out = bytearray(cls.SIZE)
        write(out, 0, check(value))
        return cls(out)

    @classmethod
    def coerce_for(cls, what: str) -> Check:
        """The check of a field of this union type: a union as it is; a float when exactly one
        arm is a float, an int when exactly one arm is a plain integer; else a TypeError naming
        the arms."""
        floats = [a.name for a in cls.LAYOUT if a.kind == "float" and not a.dims]
        ints = [
            a.name
            for a in cls.LAYOUT
            if a.kind in ("uint", "int") and not a.dims and a.bit_width is None
        ]
        arms = ", ".join(f"{cls.__name__}.of_{a.name}(...)" for a in cls.LAYOUT)

        def check_union(v: Any) -> Any:
            if isinstance(v, cls):
                return v
            if isinstance(v, (float, np.floating)) and len(floats) == 1:
                return cls.of(floats[0], v)
            if isinstance(v, (int, np.integer)) and not isinstance(v, bool) and len(ints) == 1:
                return cls.of(ints[0], v)
            raise TypeError(
                f"{what} takes a {cls.__name__}; a {type(v).__name__} does not say which arm: "
                f"use one of {arms}"
            )

        return check_union

    def arm(self, name: str) -> Any:
        """The value the union's bytes hold read through arm `name` (ValueError for no arm)."""
        try:
            read = self._arms[name][0]
        except KeyError:
            arms = ", ".join(a.name for a in self.LAYOUT)
            raise ValueError(f"{type(self).__name__} has no arm {name!r} ({arms})") from None
        return read(self._bytes, 0)

    def write_into(self, out: bytearray, o: int = 0) -> None:
        out[o : o + self.SIZE] = self._bytes

    def to_bytes(self) -> bytes:
        return self._bytes

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self) and isinstance(other, Union) and other._bytes == self._bytes
        )

    def __hash__(self) -> int:
        return hash(self._bytes)

    def __repr__(self) -> str:
        return union_repr(self)


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


FieldsReader = Callable[[Buffer], tuple[Any, ...]]


def _leaf(cls: type[Any], path: str) -> tuple[int, FieldLayout]:
    """(absolute byte offset, layout) of the field `path` names inside `cls`.

    `path` is dotted field (or union arm) names; a name ending in ``?`` is optional: it is
    followed where the class has it and skipped where it does not (a field that is a union
    with a ``t`` arm on one generation and the tensor itself on another: ``pattern.t?.num_elem``).
    """
    offset = 0
    current: Any = cls
    leaf: FieldLayout | None = None
    for part in path.split("."):
        optional = part.endswith("?")
        name = part.rstrip("?")
        if leaf is not None:
            if leaf.kind != "struct" or leaf.dims:
                raise KeyError(f"{cls.__name__}.{path}: {leaf.name} has no fields")
            current = leaf.cls
        found = next((f for f in current.LAYOUT if f.name == name), None)
        if found is None:
            if optional:
                continue
            raise KeyError(f"{cls.__name__}.{path}: {current.__name__} has no field {name!r}")
        offset += found.offset
        leaf = found
    if leaf is None or leaf.kind == "struct":
        raise KeyError(f"{cls.__name__}.{path} is not a scalar or an array of scalars")
    return offset, leaf


#: where one path's value sits in a `flat_reader`'s tuple: an index, or a slice (an array's
#: elements, unpacked one by one)
Slot = int | slice


def flat_reader(cls: type[Any], paths: tuple[str, ...]) -> tuple[FieldsReader, tuple[Slot, ...]]:
    """A reader of just the named leaf fields of `cls` from its bytes, without building the
    struct, as one flat tuple of raw values (ints, floats, bools; enums as their integer value),
    and for each path where its value is in that tuple: ``flat[slots[k]]`` is the value of
    ``paths[k]`` (an array's a tuple). Field paths are as `_leaf` reads them.

    Non-overlapping byte-aligned fields are read by one precompiled `struct.Struct` in a single
    call, an array's elements side by side (its slot a slice); bitfields (or overlapping union
    arms) by one reader each, one value a path (its slot its index)."""
    leaves = [_leaf(cls, p) for p in paths]
    size = cls.SIZE
    spans = sorted((off, off + f.size) for off, f in leaves)
    plain = all(f.bit_width is None for _, f in leaves) and all(
        a[1] <= b[0] for a, b in itertools.pairwise(spans)
    )
    if not plain:
        readers: list[Callable[[Buffer], Any]] = []
        for off, f in leaves:
            moved = FieldLayout(f.name, off, f.size, f.dims, f.bit_offset, f.bit_width,
                                f.c_type, "uint" if f.kind == "enum" else f.kind)  # fmt: skip
            readers.append(_at_start(_reader(moved)))

        def read_each(b: Buffer) -> tuple[Any, ...]:
            b = _need(b, 0, size, cls.__name__)
            return tuple(r(b) for r in readers)

        return read_each, tuple(range(len(leaves)))
    order = sorted(range(len(leaves)), key=lambda k: leaves[k][0])
    fmt, at, first = "<", 0, 0
    slots: list[Slot] = [0] * len(leaves)
    for k in order:
        off, f = leaves[k]
        if off > at:
            fmt += f"{off - at}x"
        fmt += f"{f.count}{f.fmt}"
        slots[k] = slice(first, first + f.count) if f.dims else first
        first += f.count
        at = off + f.size
    unpack = struct.Struct(fmt).unpack_from
    return (lambda b: unpack(b) if len(b) >= size else _short(b, size, cls.__name__)), tuple(slots)


def fields_reader(cls: type[Any], paths: tuple[str, ...]) -> FieldsReader:
    """`flat_reader`'s values as one tuple in the order of `paths`, an array's as a tuple."""
    read, slots = flat_reader(cls, paths)
    if slots == tuple(range(len(paths))):
        return read

    def read_packed(b: Buffer) -> tuple[Any, ...]:
        flat = read(b)
        return tuple(flat[s] for s in slots)

    return read_packed


ColumnsReader = Callable[[np.ndarray[Any, Any]], list[np.ndarray[Any, Any]]]


def columns_reader(cls: type[Any], paths: tuple[str, ...]) -> ColumnsReader:
    """`fields_reader` over many words at once: an (N, >= SIZE) uint8 array -> one column per
    path, in the order of `paths`: (N,) for a scalar, (N, count) for an array; integers (enums
    and bools included) as int64 (uint64 for an unsigned 8-byte field), floats as float64. The
    values are the ones `fields_reader` gives, row by row (tests/executor/test_executor_e2e.py)."""
    leaves = [_leaf(cls, p) for p in paths]
    size = cls.SIZE

    def one(off: int, f: FieldLayout) -> Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]]:
        es = f.size // f.count
        if f.bit_width is not None:
            shift, mask, width = f.bit_offset or 0, (1 << f.bit_width) - 1, f.bit_width
            signed = f.kind == "int"

            def bits(W: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
                raw = np.zeros(W.shape[0], np.uint64)
                for k in range(f.size):  # little-endian, any width up to 8 bytes
                    raw |= W[:, off + k].astype(np.uint64) << np.uint64(8 * k)
                v = (raw >> np.uint64(shift)) & np.uint64(mask)
                out = v.astype(np.int64)
                if signed:
                    out = np.where(out >= 1 << (width - 1), out - (1 << width), out)
                return out

            return bits
        fmt = f.fmt
        np_type = np.dtype(_NP[fmt])
        wide = np.uint64 if fmt == "Q" else np.float64 if fmt in "fd" else np.int64
        n = f.count

        def plain(W: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
            raw = np.ascontiguousarray(W[:, off : off + es * n]).view(np_type)
            if fmt == "?":
                raw = raw != 0
            out = raw.astype(wide)
            return out if f.dims else out[:, 0]

        return plain

    readers = [one(off, f) for off, f in leaves]

    def read(W: np.ndarray[Any, Any]) -> list[np.ndarray[Any, Any]]:
        if W.ndim != 2 or W.shape[1] < size or W.dtype != np.uint8:
            raise ValueError(f"{cls.__name__}: an (N, >= {size}) uint8 array, not {W.shape}")
        return [r(W) for r in readers]

    return read


def _at_start(read: Reader) -> Callable[[Buffer], Any]:
    return lambda b: read(b, 0)


def _short(b: Buffer, size: int, what: str) -> tuple[Any, ...]:
    _need(b, 0, size, what)
    raise AssertionError("unreachable")


# -- repr: enum members by name, each union through the arm the text form shows ------------------


def _py(v: Any) -> str:
    if isinstance(v, IntEnum):
        return f"{type(v).__name__}.{v.name}"
    if isinstance(v, tuple):
        return "(" + ", ".join(map(_py, v)) + ("," if len(v) == 1 else "") + ")"
    return repr(v)


def _arm_repr(u: Union, arm: FieldLayout) -> str:
    return f"{type(u).__name__}.of_{arm.name}({_py(u.arm(arm.name))})"


def _shown_arm(u: Union, name: str, siblings: dict[str, Any]) -> FieldLayout:
    s = settings_of(type(u))
    return choose_arm(type(u), name, u.to_bytes(), 0, siblings, s.mask, s.indirect_markers)


def union_repr(u: Union) -> str:
    """`Cls.of_arm(value)`: the union shown through the arm `choose_arm` picks (no context)."""
    return _arm_repr(u, _shown_arm(u, "", {}))


def struct_repr(s: Struct) -> str:
    """`Cls(field=value, ...)` with enum members by name and each union through the arm the
    text form shows in this struct (an immediate as the float its `_src` field selects)."""
    siblings: dict[str, Any] = {}
    parts = []
    for f in s.LAYOUT:
        v = getattr(s, f.name)
        if isinstance(v, IntEnum):
            siblings[f.name] = v.name
        if isinstance(v, Union) and not f.dims:
            parts.append(f"{f.name}={_arm_repr(v, _shown_arm(v, f.name, siblings))}")
        else:
            parts.append(f"{f.name}={_py(v)}")
    return f"{type(s).__name__}({', '.join(parts)})"
