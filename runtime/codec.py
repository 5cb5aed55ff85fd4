"""Byte-level helpers used by the generated structs and validators: little-endian, explicit offsets."""

from __future__ import annotations

import math
import operator
import struct
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np
import numpy.typing as npt

E = TypeVar("E", bound=IntEnum)

Buffer = bytes | bytearray | memoryview


@runtime_checkable
class HasBytes(Protocol):
    def to_bytes(self) -> bytes: ...


Word = Buffer | HasBytes | npt.NDArray[np.uint8] | np.void


class DecodeError(ValueError):
    """A word that this generation cannot decode (unknown opcode, no struct bound, wrong size)."""


def as_bytes(word: Word, name: str = "word") -> bytes:
    """The raw bytes of an instruction given as bytes, bytearray, memoryview, a struct object,
    a uint8 numpy row (e.g. one row of an (N, 64) array) or a numpy void record; TypeError
    naming the argument (`name`) for anything else."""
    if type(word) is bytes:
        return word
    if isinstance(word, (bytes, bytearray, memoryview)):
        return buffer_bytes(word)
    if isinstance(word, np.ndarray):
        if word.dtype.itemsize != 1 or word.ndim != 1:
            raise TypeError(
                f"{name}: a word given as an array is one row of uint8 bytes, not shape "
                f"{word.shape} of {word.dtype}"
            )
        return word.tobytes()
    if isinstance(word, np.void):
        return word.tobytes()
    if isinstance(word, HasBytes) and not isinstance(word, int):
        return word.to_bytes()
    raise TypeError(
        f"{name}: a TPB instruction word is bytes, a struct object or a uint8 numpy row, "
        f"not {type(word).__name__}"
    )


def buffer_bytes(b: Buffer) -> bytes:
    """The bytes a buffer holds, read through the buffer protocol: a subclass's `__len__` or
    `__bytes__` cannot lie about them, and a strided memoryview gives its elements in order."""
    with memoryview(b) as view:
        return view.tobytes()


def plain_buffer(b: Buffer) -> Buffer:
    """`b` itself when it is a plain bytes, bytearray or contiguous byte memoryview (what
    `struct.unpack_from` reads as it is), else its bytes (`buffer_bytes`)."""
    if type(b) is bytes or type(b) is bytearray:
        return b
    if type(b) is memoryview and b.c_contiguous and b.itemsize == 1 and b.ndim == 1:
        return b
    return buffer_bytes(b)


def int_arg(value: object, name: str, lo: int | None = None, hi: int | None = None) -> int:
    """`value` as an int (an int, an IntEnum member, a numpy integer: anything `operator.index`
    takes), TypeError naming the argument otherwise; ValueError when outside `lo`..`hi`."""
    try:
        v = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name}: an integer, not {type(value).__name__}") from None
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise ValueError(f"{name}: {lo}..{hi}, not {v}")
    return v


def struct_arg(value: Word, size: int, name: str) -> bytes:
    """The bytes of a struct argument of a generated validator: `as_bytes`, and at least `size`
    bytes (the C struct's), else ValueError naming the argument."""
    b = as_bytes(value, name)
    if len(b) < size:
        raise ValueError(f"{name}: the struct is {size} bytes, this value has {len(b)}")
    return b


def enum_or_int(cls: type[E], value: int) -> E | int:
    """The enum member for a defined value, else the plain int (raw bytes may hold anything)."""
    try:
        return cls(value)
    except ValueError:
        return value


def uint(b: Buffer, offset: int, size: int) -> int:
    return int.from_bytes(b[offset : offset + size], "little")


def sext(value: int, width: int) -> int:
    half = 1 << (width - 1)
    return (value ^ half) - half


def put_bits(
    out: bytearray, offset: int, size: int, bit_offset: int, width: int, value: int
) -> None:
    lo = -(1 << (width - 1)) if value < 0 else 0
    if not lo <= value < (1 << width):
        raise ValueError(f"value {value} does not fit a {width}-bit field")
    mask = ((1 << width) - 1) << bit_offset
    cur = int.from_bytes(out[offset : offset + size], "little")
    cur = (cur & ~mask) | ((value << bit_offset) & mask)
    out[offset : offset + size] = cur.to_bytes(size, "little")


def check_len(values: Sequence[object], n: int, name: str) -> None:
    if len(values) != n:
        raise ValueError(f"field {name} takes {n} elements, got {len(values)}")


def unpack(fmt: str, b: Buffer, offset: int) -> tuple[int, ...]:
    return struct.unpack_from(fmt, b, offset)


pack_into = struct.pack_into


def _reader(fmt: str) -> Callable[[Buffer, int], tuple[int]]:
    f: Callable[[Buffer, int], tuple[int]] = struct.Struct(fmt).unpack_from
    return f


def _freader(fmt: str) -> Callable[[Buffer, int], tuple[float]]:
    f: Callable[[Buffer, int], tuple[float]] = struct.Struct(fmt).unpack_from
    return f


def _writer(fmt: str) -> Callable[[bytearray, int, float], None]:
    f: Callable[[bytearray, int, float], None] = struct.Struct(fmt).pack_into
    return f


S_B, S_b, S_H, S_h = _reader("<B"), _reader("<b"), _reader("<H"), _reader("<h")
S_I, S_i, S_Q, S_q = _reader("<I"), _reader("<i"), _reader("<Q"), _reader("<q")
S_f, S_d = _freader("<f"), _freader("<d")
P_B, P_b, P_H, P_h = _writer("<B"), _writer("<b"), _writer("<H"), _writer("<h")
P_I, P_i, P_Q, P_q = _writer("<I"), _writer("<i"), _writer("<Q"), _writer("<q")
P_f, P_d = _writer("<f"), _writer("<d")
_F32 = struct.Struct("<f")
_BITS = {4: (struct.Struct("<I"), _F32), 8: (struct.Struct("<Q"), struct.Struct("<d"))}


class FloatBits(float):
    """The value of a C `float` (`size` 4) or `double` (`size` 8) field: a Python float, which
    arithmetic and comparisons see, that also holds the field's exact bits (`bits`). A field
    read from bytes writes those bits back, so a signalling NaN, a NaN's payload and -0.0
    survive `from_bytes` -> `to_bytes`, which a Python float alone (quieting a signalling NaN)
    would not. As a float, a NaN is unequal to itself: compare `bits` for identity."""

    __slots__ = ("bits", "size")
    bits: int
    size: int

    def __reduce__(self) -> tuple[Callable[[int, int], FloatBits], tuple[int, int]]:
        return float_of_bits, (self.bits, self.size)


def float_of_bits(bits: int, size: int) -> FloatBits:
    """The `size`-byte C float whose bits are `bits`."""
    as_int, as_float = _BITS[size]
    out = FloatBits(as_float.unpack(as_int.pack(bits))[0])
    out.bits, out.size = bits, size
    return out


def float_field(v: float | np.integer[Any] | np.floating[Any], size: int) -> FloatBits:
    """`v` as a `size`-byte C float field holds it: itself when it is one already; a numpy
    float of that width by its bits; else rounded to nearest as C converts a double to float
    (beyond float's range: an infinity, as `f32`)."""
    if type(v) is FloatBits and v.size == size:
        return v
    as_int, as_float = _BITS[size]
    if isinstance(v, np.floating) and v.itemsize == size:
        return float_of_bits(as_int.unpack(np.asarray(v).astype(f"<f{size}").tobytes())[0], size)
    x = float(v)
    bits: int = as_int.unpack(as_float.pack(f32(x) if size == 4 else x))[0]
    return float_of_bits(bits, size)


def f32(x: float) -> float:
    """Round a Python float to the nearest float32, as C's float arithmetic does (a magnitude
    beyond float's range rounds to an infinity, as IEEE arithmetic gives it)."""
    try:
        r: float = _F32.unpack(_F32.pack(x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)
    return r


def fdiv(a: float, b: float) -> float:
    """IEEE division, as C's on floats: by zero it is an infinity of the operands' combined
    sign, or NaN for 0/0 (Python's `/` raises instead)."""
    try:
        return a / b
    except ZeroDivisionError:
        if math.isnan(a) or a == 0.0:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)


def cdiv(a: int, b: int) -> int:
    """C integer division: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def cmod(a: int, b: int) -> int:
    """C remainder: has the sign of the dividend."""
    return a - b * cdiv(a, b)
