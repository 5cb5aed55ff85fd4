"""Evaluate C constant expressions (enumerator values, array sizes, static asserts, `static const`
initialisers), as gcc does on the modelled target (x86-64: LP64, signed plain char, IEEE 754
binary32 `float` and binary64 `double` evaluated in their own type, FLT_EVAL_METHOD 0).

Integer values carry C's usual arithmetic conversions in a reduced form: a width (32 or 64) and
a signedness. Unsigned results wrap; division truncates toward zero; comparisons give int 0/1.
Floating values carry their type's width (32 for `float`, 64 for `double`) and are always
exactly a value of that type: literals are rounded once from their exact decimal or hexadecimal
value, every operation rounds its exact result (so `1e39f` is +inf, `0.0f / 0.0f` is NaN).
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pycparser import c_ast

from .ctypes import PLAIN_CHAR_SIGNED

# Bumped when an evaluation rule changes the value a constant gets: the IR cache key includes it,
# so an IR built under the old rule is not reused (2: char constants signed, floats rounded to
# their type, constants converted to their declared type; 3: integer literals too large for long
# typed as gcc types them).
CONSTEVAL_VERSION = 3


class NotConstant(Exception):
    """The expression is not an integer constant expression tpbgen can evaluate."""

    def __init__(self, message: str, node: c_ast.Node | None = None) -> None:
        super().__init__(message)
        self.node = node


@dataclass(frozen=True)
class CValue:
    value: int | float
    unsigned: bool = False
    bits: int = 32  # an integer's width (32, 64); a float's (32 for float, 64 for double)

    def norm(self) -> CValue:
        """The value wrapped to its type's width, as C stores it (a float unchanged)."""
        if isinstance(self.value, float):
            return self
        mask = (1 << self.bits) - 1
        v = self.value & mask
        if not self.unsigned and v >> (self.bits - 1):
            v -= 1 << self.bits
        return CValue(v, self.unsigned, self.bits)


def parse_int_literal(text: str) -> CValue:
    """The value and type gcc gives the C integer constant `text` on LP64 (C11 6.4.4.1): int,
    long or their unsigned forms by suffix, base and magnitude; a constant above 64 bits keeps
    its low 64 bits as unsigned long when hex or octal (gcc's warning case), and a decimal one
    gcc would make an __int128 raises ValueError."""
    v, suffix, decimal = _int_literal_parts(text)
    unsigned = "u" in suffix
    if v > 0xFFFF_FFFF_FFFF_FFFF or (decimal and not unsigned and v > 0x7FFF_FFFF_FFFF_FFFF):
        if decimal:  # gcc: an __int128 (or unsigned __int128), which tpbgen does not model
            raise ValueError("a decimal constant too large for long: gcc makes it an __int128")
        # gcc, "integer constant is too large for its type": its low 64 bits, an unsigned long
        return CValue(v & 0xFFFF_FFFF_FFFF_FFFF, True, 64)
    bits = 64 if "l" in suffix or v > 0xFFFFFFFF else 32
    if bits == 32 and not unsigned and v > 0x7FFFFFFF:
        # C11 6.4.4.1: a hex or octal literal that does not fit int is unsigned int; a decimal one is long
        if not decimal:
            unsigned = True
        else:
            bits = 64
    if bits == 64 and not unsigned and v > 0x7FFF_FFFF_FFFF_FFFF:
        unsigned = True  # a hex or octal literal that does not fit long is unsigned long
    return CValue(v, unsigned, bits)


def _int_literal_parts(text: str) -> tuple[int, str, bool]:
    """(value, lower-case suffix of u and l, whether decimal) of an integer constant's spelling."""
    t = text.lower()
    suffix = ""
    while t and t[-1] in "ul":
        suffix = t[-1] + suffix
        t = t[:-1]
    if t.startswith("0x"):
        v = int(t, 16)
    elif t.startswith("0b"):
        v = int(t[2:], 2)
    elif len(t) > 1 and t.startswith("0"):
        v = int(t, 8)
    else:
        v = int(t)
    return v, suffix, not t.startswith("0")


# -- floating point ----------------------------------------------------------------------------
# IEEE 754 binary formats: (significand bits with the hidden one, minimum normal exponent, maximum exponent)
_FORMATS = {32: (24, -126, 127), 64: (53, -1022, 1023)}


def round_float(x: Fraction | int | float, bits: int) -> float:
    """`x` rounded once to the nearest binary32 (`bits` 32) or binary64 value, ties to even, as
    a C conversion or a correctly rounded operation gives it: too large a magnitude is +-inf.
    A Python float `x` is taken as its exact value (NaN and infinities pass through)."""
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x):
            return x
        if x == 0.0:
            return x  # keeps the sign of zero
        x = Fraction(x)
    q = Fraction(x)
    if q == 0:
        return 0.0
    mant, emin, emax = _FORMATS[bits]
    a = abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()  # 2**e <= a < 2**(e + 2)
    if Fraction(2) ** e > a:
        e -= 1
    elif Fraction(2) ** (e + 1) <= a:
        e += 1
    quantum = max(e, emin) - (
        mant - 1
    )  # the weight of the last significand bit (subnormals: fixed)
    n = round(a / Fraction(2) ** quantum)  # round() of a Fraction: nearest, ties to even
    sign = -1.0 if q < 0 else 1.0
    if n == 0:
        return math.copysign(0.0, sign)
    if n.bit_length() + quantum > emax + 1:  # the rounded value is 2**(emax + 1) or more
        return math.copysign(math.inf, sign)
    return math.copysign(math.ldexp(n, quantum), sign)


# Bounds that change no value: binary64's halfway points (the only values whose rounding needs
# every digit) have at most 767 significant decimal digits, and every literal of more than 10**400
# (2**1100) is +inf, of less than 10**-400 (2**-1200) is 0, in both formats. Past them a literal
# is cut (a dropped nonzero tail kept as one sticky digit) or clamped, so `1e999999999` or
# ten thousand digits cost no more than `1e308`.
_MAX_DIGITS = 800
_MAX_DECIMAL_MAGNITUDE = 400
_MAX_BINARY_MAGNITUDE = 1200


def _exponent(text: str) -> int:
    """An exponent's digits as an int, clamped to +-10**9 (past any format's range)."""
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-").lstrip("0") or "0"
    return sign * (10**9 if len(digits) > 9 else int(digits))


def _decimal_literal(t: str) -> Fraction:
    m = re.fullmatch(r"([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?", t)
    if m is None or not (m.group(1) or m.group(2)):
        raise ValueError(f"not a floating constant: {t}")
    frac = m.group(2) or ""
    digits = (m.group(1) + frac).lstrip("0")
    if not digits:
        return Fraction(0)
    e10 = _exponent(m.group(3) or "0") - len(frac)
    magnitude = len(digits) + e10  # 10**(magnitude - 1) <= value < 10**magnitude
    if magnitude > _MAX_DECIMAL_MAGNITUDE:
        return Fraction(10) ** (_MAX_DECIMAL_MAGNITUDE + 1)
    if magnitude < -_MAX_DECIMAL_MAGNITUDE:
        return Fraction(1, 10 ** (_MAX_DECIMAL_MAGNITUDE + 1))
    if len(digits) > _MAX_DIGITS:
        kept = digits[:_MAX_DIGITS] + ("1" if digits[_MAX_DIGITS:].strip("0") else "")
        e10 += len(digits) - len(kept)
        digits = kept
    n = int(digits)
    return Fraction(n * 10**e10) if e10 >= 0 else Fraction(n, 10**-e10)


def _hex_literal(t: str) -> Fraction:
    body, _, exp = t[2:].lower().partition("p")
    whole, _, frac = body.partition(".")
    n = int((whole + frac) or "0", 16)
    if n == 0:
        return Fraction(0)
    e2 = _exponent(exp or "0") - 4 * len(frac)
    magnitude = n.bit_length() + e2  # 2**(magnitude - 1) <= value < 2**magnitude
    if magnitude > _MAX_BINARY_MAGNITUDE:
        return Fraction(2) ** (_MAX_BINARY_MAGNITUDE + 1)
    if magnitude < -_MAX_BINARY_MAGNITUDE:
        return Fraction(1, 2 ** (_MAX_BINARY_MAGNITUDE + 1))
    return Fraction(n) * Fraction(2) ** e2


def parse_float_literal(text: str) -> tuple[Fraction, int]:
    """(value, width of its type) of a C floating constant: `0.1f` is (1/10, 32), `1e3` is
    (1000, 64), hexadecimal forms (`0x1.8p3f`) included; the value exact, or past the bounds
    above one that rounds the same. `long double` (an L suffix) is refused: tpbgen does not
    model it."""
    t = text.strip()
    if t[-1:] in "lL":
        raise ValueError(f"long double constant {text}: long double is not modelled")
    bits = 64
    if t[-1:] in "fF" and not (t[:2].lower() == "0x" and "p" not in t.lower()):
        t, bits = t[:-1], 32
    if t[:2].lower() == "0x":
        return _hex_literal(t), bits
    return _decimal_literal(t), bits


def float_value(text: str) -> tuple[float, int]:
    """A C floating constant's value in its own type: (value, 32 or 64)."""
    q, bits = parse_float_literal(text)
    return round_float(q, bits), bits


def float_binop(op: str, x: float, y: float, bits: int) -> float:
    """`x op y` for + - * / in IEEE arithmetic of width `bits` (operands already of that type):
    the exact result rounded once; division by zero gives +-inf or NaN, as on the target."""
    if op == "/" and y == 0.0:
        if math.isnan(x) or math.isnan(y) or x == 0.0:
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)
    if math.isnan(x) or math.isnan(y) or math.isinf(x) or math.isinf(y):
        r = {"+": x + y, "-": x - y, "*": x * y, "/": x / y}[
            op
        ]  # IEEE rules for the special values
        return r
    a, b = Fraction(x), Fraction(y)
    exact = {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else Fraction(0)}[op]
    if exact == 0:
        # the sign of an exact zero: x + y (and x - y) is -0 only when both are -0 (or -0 - +0)
        if op in ("*", "/"):
            return math.copysign(0.0, math.copysign(1.0, x) * math.copysign(1.0, y))
        return x + y if op == "+" else x - y
    return round_float(exact, bits)


def float_to_int(x: float, bits: int, unsigned: bool) -> int | None:
    """C's conversion of a floating value to an integer type: truncation toward zero; None when
    the result does not fit (undefined behaviour: NaN, infinities, out of range)."""
    if math.isnan(x) or math.isinf(x):
        return None
    v = int(x)  # truncates toward zero
    lo, hi = (0, (1 << bits) - 1) if unsigned else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    return v if lo <= v <= hi else None


# -- character constants ---------------------------------------------------------------------
_SIMPLE_ESCAPES = {
    "'": 0x27,
    '"': 0x22,
    "?": 0x3F,
    "\\": 0x5C,
    "a": 7,
    "b": 8,
    "f": 12,
    "n": 10,
    "r": 13,
    "t": 9,
    "v": 11,
    "e": 27,
    "E": 27,
}


def _char_units(body: str, wide: bool) -> list[int]:
    """The code units of a character constant's body: one per escape (its value), and for each
    other character its UTF-8 bytes (narrow: gcc's execution character set) or its code point."""
    units: list[int] = []
    k = 0
    while k < len(body):
        c = body[k]
        if c != "\\":
            units += list(c.encode("utf-8")) if not wide else [ord(c)]
            k += 1
            continue
        k += 1
        c = body[k] if k < len(body) else ""
        if c in _SIMPLE_ESCAPES:
            units.append(_SIMPLE_ESCAPES[c])
            k += 1
        elif c in "01234567" and c:
            j = k
            while j < len(body) and j - k < 3 and body[j] in "01234567":
                j += 1
            units.append(int(body[k:j], 8))
            k = j
        elif c == "x":
            j = k + 1
            while j < len(body) and body[j] in "0123456789abcdefABCDEF":
                j += 1
            if j == k + 1:
                raise ValueError("\\x used with no following hex digits")
            units.append(int(body[k + 1 : j], 16))
            k = j
        elif c in "uU":
            n = 4 if c == "u" else 8
            point = int(body[k + 1 : k + 1 + n], 16)
            units += list(chr(point).encode("utf-8")) if not wide else [point]
            k += 1 + n
        else:
            raise ValueError(f"unknown escape sequence \\{c}")
    return units


def parse_char_literal(text: str) -> CValue:
    """The value and type of a C character constant as gcc gives them on the modelled target.

    Plain (`'x'`): type int; one char is the value of a `char`, so `'\\377'` is -1 where char is
    signed (PLAIN_CHAR_SIGNED); several (`'ab'`, gcc's multi-character constant) are
    accumulated big-endian, 8 bits each, and the last four kept as an int. Wide: `L'x'` is a
    wchar_t (int), `u'x'` a char16_t, `U'x'` a char32_t (unsigned), each one code unit."""
    prefix, _, rest = text.partition("'")
    body = rest[:-1] if rest.endswith("'") else rest
    if prefix not in ("", "L", "u", "U"):
        raise ValueError(f"character constant {text}: prefix {prefix} is not supported")
    units = _char_units(body, wide=bool(prefix))
    if not units:
        raise ValueError("empty character constant")
    if prefix:
        if len(units) != 1:
            raise ValueError(f"wide character constant {text} holds more than one character")
        width, unsigned = {"L": (32, False), "u": (16, True), "U": (32, True)}[prefix]
        if units[0] >> width:
            raise ValueError(f"character constant {text} is out of range for its type")
        # the value of a wchar_t (int), char16_t or char32_t; the latter two are unsigned types
        return CValue(units[0], unsigned, 32).norm() if width == 32 else CValue(units[0], False, 32)
    if any(u > 0xFF for u in units):
        raise ValueError(f"escape sequence out of range in {text}")
    if len(units) == 1:
        v = units[0]
        if PLAIN_CHAR_SIGNED and v >= 0x80:
            v -= 0x100
        return CValue(v)
    acc = 0
    for u in units:
        acc = (acc << 8) | u
    return CValue(acc, False, 32).norm()


def char_type_of(text: str) -> tuple[int, bool]:
    """(bits, unsigned) of a character constant's type: int, except u'' (char16_t) and U'' (char32_t)."""
    prefix = text.partition("'")[0]
    return {"u": (16, True), "U": (32, True)}.get(prefix, (32, False))


def _common(a: CValue, b: CValue) -> tuple[bool, int]:
    bits = max(a.bits, b.bits)
    if a.bits == b.bits:
        return a.unsigned or b.unsigned, bits
    wider = a if a.bits > b.bits else b
    return wider.unsigned, bits


class ConstEvaluator:
    def __init__(
        self,
        lookup_id: Callable[[str], CValue | None],
        sizeof_type: Callable[[c_ast.Node], int],
        offsetof: Callable[[c_ast.Node, c_ast.Node], int],
    ) -> None:
        self._id = lookup_id
        self._sizeof = sizeof_type
        self._offsetof = offsetof

    def eval(self, node: c_ast.Node) -> CValue:
        """The value and type of a constant expression (C's integer rules on LP64); NotConstant for
        anything else."""
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise NotConstant(f"not a constant expression ({type(node).__name__})", node)
        result: CValue = method(node)
        return result.norm()

    def eval_int(self, node: c_ast.Node) -> int:
        """The value of an integer constant expression; NotConstant for a float or a
        non-constant."""
        v = self.eval(node).value
        if isinstance(v, float):
            raise NotConstant("expected an integer constant", node)
        return v

    def _Constant(self, node: c_ast.Constant) -> CValue:
        text = node.value
        if node.type == "string":
            raise NotConstant("string literal in a constant expression", node)
        try:
            if text.endswith("'"):  # pycparser types 'ab' as int: the quote decides
                return parse_char_literal(text)
            if node.type in ("float", "double", "long double"):
                value, bits = float_value(text)
                return CValue(value, False, bits)
            return parse_int_literal(text)
        except ValueError as exc:
            raise NotConstant(f"unsupported constant {text!r}: {exc}", node) from None

    def _ID(self, node: c_ast.ID) -> CValue:
        v = self._id(node.name)
        if v is None:
            raise NotConstant(f"'{node.name}' is not a known constant", node)
        return v

    def _Cast(self, node: c_ast.Cast) -> CValue:
        inner = self.eval(node.expr)
        names = _type_names(node.to_type)
        if "void" in names and not _is_pointer(node.to_type):
            raise NotConstant("cast to void in a constant expression", node)
        size = self._sizeof(node.to_type)
        if any(x in ("float", "double") for x in names):
            if "long" in names:
                raise NotConstant("long double is not modelled", node)
            return CValue(
                round_float(inner.value, 32 if size == 4 else 64), False, 32 if size == 4 else 64
            )
        if "_Bool" in names or "bool" in names:
            return CValue(int(inner.value != 0))
        unsigned = "unsigned" in names or any(x.startswith("uint") for x in names)
        bits = 64 if size > 4 else 32 if size == 4 else size * 8
        value = inner.value
        if isinstance(value, float):
            converted = float_to_int(value, size * 8, unsigned)
            if converted is None:
                raise NotConstant(
                    f"conversion of {value!r} to a {size * 8}-bit integer is undefined (out of range)",
                    node,
                )
            value = converted
        return CValue(value, unsigned, bits).norm()

    def _UnaryOp(self, node: c_ast.UnaryOp) -> CValue:
        if node.op == "sizeof":
            return CValue(self._sizeof(node.expr), True, 64)
        v = self.eval(node.expr)
        if isinstance(v.value, float):
            if node.op == "-":
                return CValue(-v.value, False, v.bits)
            if node.op == "+":
                return v
            if node.op == "!":
                return CValue(int(v.value == 0.0))
            raise NotConstant(f"operator {node.op} on a float", node)
        v = _promote(v)
        if node.op == "-":
            return CValue(-v.value, v.unsigned, v.bits)
        if node.op == "+":
            return v
        if node.op == "~":
            if isinstance(v.value, float):
                raise NotConstant("~ of a float", node)
            return CValue(~v.value, v.unsigned, v.bits)
        if node.op == "!":
            return CValue(int(not v.value))
        raise NotConstant(f"operator {node.op} in a constant expression", node)

    def _BinaryOp(self, node: c_ast.BinaryOp) -> CValue:
        if node.op == "&&":
            return CValue(
                int(bool(self.eval(node.left).value) and bool(self.eval(node.right).value))
            )
        if node.op == "||":
            return CValue(
                int(bool(self.eval(node.left).value) or bool(self.eval(node.right).value))
            )
        a = self.eval(node.left)
        b = self.eval(node.right)
        if isinstance(a.value, float) or isinstance(b.value, float):
            return _float_binary(node, a, b)
        return _int_binary(node, _promote(a), _promote(b))

    def _TernaryOp(self, node: c_ast.TernaryOp) -> CValue:
        take, other = (
            (node.iftrue, node.iffalse)
            if self.eval(node.cond).value
            else (node.iffalse, node.iftrue)
        )
        chosen = self.eval(take)
        try:
            unchosen = self.eval(
                other
            )  # only its type matters: the result has the arms' common type
        except NotConstant:
            return chosen
        arms = (chosen, unchosen)
        if any(isinstance(v.value, float) for v in arms):
            bits = max(v.bits for v in arms if isinstance(v.value, float))
            return CValue(round_float(chosen.value, bits), False, bits)
        unsigned, bits = _common(_promote(chosen), _promote(unchosen))
        return CValue(chosen.value, unsigned, bits).norm()

    def _FuncCall(self, node: c_ast.FuncCall) -> CValue:
        if (
            isinstance(node.name, c_ast.ID)
            and node.name.name in ("offsetof", "__builtin_offsetof")
            and node.args
        ):
            typ, member = node.args.exprs
            return CValue(self._offsetof(typ, member), True, 64)
        raise NotConstant("function call in a constant expression", node)


def _tdiv(p: int, q: int) -> int:
    """C integer division: truncates toward zero (exact at any width)."""
    r = abs(p) // abs(q)
    return r if (p < 0) == (q < 0) else -r


# C's comparisons, on two ints or two floats alike (the answer is an int 0/1)
_COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    ">": operator.gt,
    "<=": operator.le,
    ">=": operator.ge,
}
# C's integer arithmetic on operands already converted to their common type
_INT_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": _tdiv,
    "%": lambda p, q: p - q * _tdiv(p, q),
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
}


def _float_binary(node: c_ast.BinaryOp, a: CValue, b: CValue) -> CValue:
    """`a op b` where one operand is floating: the usual arithmetic conversions take both to
    the wider floating type, exactly; a comparison gives int 0/1, `+ - * /` a value of that type
    rounded once; any other operator is not constant."""
    bits = max(v.bits for v in (a, b) if isinstance(v.value, float))
    x, y = round_float(a.value, bits), round_float(b.value, bits)
    compare = _COMPARISONS.get(node.op)
    if compare is not None:
        return CValue(int(compare(x, y)))
    if node.op not in ("+", "-", "*", "/"):
        raise NotConstant(f"operator {node.op} on floats", node)
    return CValue(float_binop(node.op, x, y, bits), False, bits)


def _int_binary(node: c_ast.BinaryOp, a: CValue, b: CValue) -> CValue:
    """`a op b` on promoted integers: a shift has its left operand's type (a count outside
    0..width-1 is not constant), anything else the operands' common type; a zero divisor and an
    operator C has no constant meaning for raise NotConstant."""
    av, bv = a.value, b.value
    assert isinstance(av, int) and isinstance(bv, int)
    if node.op in ("<<", ">>"):
        if bv < 0 or bv >= a.bits:
            raise NotConstant("shift count out of range", node)
        if node.op == ">>":
            base = av & ((1 << a.bits) - 1) if a.unsigned else av
            return CValue(base >> bv, a.unsigned, a.bits)
        return CValue(av << bv, a.unsigned, a.bits)
    unsigned, bits = _common(a, b)
    mask = (1 << bits) - 1
    x = av & mask if unsigned else av
    y = bv & mask if unsigned else bv
    if node.op in ("/", "%") and y == 0:
        raise NotConstant("division by zero", node)
    compare = _COMPARISONS.get(node.op)
    if compare is not None:
        return CValue(int(compare(x, y)))
    arithmetic = _INT_ARITHMETIC.get(node.op)
    if arithmetic is not None:
        return CValue(arithmetic(x, y), unsigned, bits)
    raise NotConstant(f"operator {node.op} in a constant expression", node)


def _promote(v: CValue) -> CValue:
    """Integer promotion of an integer value (the widths below int become a signed int)."""
    return v if v.bits >= 32 else CValue(v.value, False, 32)


def _is_pointer(node: c_ast.Node) -> bool:
    t = node
    while t is not None and not isinstance(t, c_ast.IdentifierType):
        if isinstance(t, c_ast.PtrDecl):
            return True
        t = getattr(t, "type", None)
    return False


def _type_names(node: c_ast.Node) -> list[str]:
    t = node
    while not isinstance(t, c_ast.IdentifierType):
        t = getattr(t, "type", None)
        if t is None:
            return []
    return list(t.names)
