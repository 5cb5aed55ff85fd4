"""The C semantics the translators keep: scalar types, integer promotion, usual arithmetic conversions.

Every integer value in translated code is a Python int already reduced to its C type's range;
each operation's result is reduced again (unsigned wrap-around; signed results wrap too, which
is what GCC does for the UB-free code we accept). Comparisons and logical operators give C `int`
0/1, which we carry as Python `bool` (a subclass of int) and call type BOOL.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScalarType:
    kind: str  # "int", "bool" (a 0/1 int: comparisons, logical ops, _Bool), "float"
    bits: int
    signed: bool

    @property
    def name(self) -> str:
        """The type's short name: bool, float32/float64, int8 ... uint64."""
        if self.kind == "bool":
            return "bool"
        if self.kind == "float":
            return f"float{self.bits}"
        return f"{'int' if self.signed else 'uint'}{self.bits}"


INT8 = ScalarType("int", 8, True)
UINT8 = ScalarType("int", 8, False)
INT16 = ScalarType("int", 16, True)
UINT16 = ScalarType("int", 16, False)
INT32 = ScalarType("int", 32, True)
UINT32 = ScalarType("int", 32, False)
INT64 = ScalarType("int", 64, True)
UINT64 = ScalarType("int", 64, False)
BOOL = ScalarType("bool", 1, False)
FLOAT32 = ScalarType("float", 32, True)
FLOAT64 = ScalarType("float", 64, True)

BY_NAME = {
    t.name: t
    for t in (INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, UINT64, BOOL, FLOAT32, FLOAT64)
}


def scalar_for(kind: str, size: int, signed: bool) -> ScalarType:
    """The scalar type of an IR TypeRef (an enum is its underlying integer: signed when it has a
    negative member, as GCC lays it out)."""
    if kind == "bool":
        return BOOL
    if kind == "float":
        return FLOAT32 if size == 4 else FLOAT64
    return ScalarType("int", size * 8, signed if kind in ("int", "enum") else False)


def promote(t: ScalarType) -> ScalarType:
    """Integer promotion: everything narrower than int (and _Bool, and 0/1 results) becomes int."""
    if t.kind == "float":
        return t
    if t.kind == "bool" or t.bits < 32:
        return INT32
    return t


def common(a: ScalarType, b: ScalarType) -> ScalarType:
    """The usual arithmetic conversions (C11 6.3.1.8) for two operands."""
    if a.kind == "float" or b.kind == "float":
        bits = max(a.bits if a.kind == "float" else 0, b.bits if b.kind == "float" else 0)
        return FLOAT64 if bits == 64 else FLOAT32
    a, b = promote(a), promote(b)
    if a == b:
        return a
    if a.signed == b.signed:
        return a if a.bits >= b.bits else b
    unsigned, signed = (a, b) if not a.signed else (b, a)
    if unsigned.bits >= signed.bits:
        return unsigned
    return signed  # the signed type is wider and can hold every unsigned value


def wrap(value: int, t: ScalarType) -> int:
    """Reduce a mathematical integer to t's range, as a conversion to t does."""
    if t.kind == "bool":
        return int(value != 0)
    mask = (1 << t.bits) - 1
    v = value & mask
    if t.signed and v >> (t.bits - 1):
        v -= 1 << t.bits
    return v


def fits(src: ScalarType, dst: ScalarType) -> bool:
    """Every value of src is a value of dst (so converting is the identity)."""
    if dst.kind == "float":
        return src.kind == "float" and src.bits <= dst.bits
    if src.kind == "float":
        return False
    if src.kind == "bool":
        return dst.kind in ("int", "bool")
    if dst.kind == "bool":
        return False
    if src.signed == dst.signed:
        return src.bits <= dst.bits
    if not src.signed and dst.signed:
        return src.bits < dst.bits
    return False


def value_range(t: ScalarType) -> tuple[int, int]:
    """The smallest and largest value of an integer (or bool) type."""
    if t.kind == "bool":
        return 0, 1
    if t.signed:
        return -(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1
    return 0, (1 << t.bits) - 1
