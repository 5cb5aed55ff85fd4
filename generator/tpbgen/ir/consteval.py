"""Evaluate C integer constant expressions (enumerator values, array sizes, static asserts).

Values carry C's usual arithmetic conversions in a reduced form: a width (32 or 64) and a
signedness. Unsigned results wrap; division truncates toward zero; comparisons give int 0/1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pycparser import c_ast


class NotConstant(Exception):
    """The expression is not an integer constant expression tpbgen can evaluate."""

    def __init__(self, message: str, node: c_ast.Node | None = None) -> None:
        super().__init__(message)
        self.node = node


@dataclass(frozen=True)
class CValue:
    value: int | float
    unsigned: bool = False
    bits: int = 32

    def norm(self) -> CValue:
        if isinstance(self.value, float):
            return self
        mask = (1 << self.bits) - 1
        v = self.value & mask
        if not self.unsigned and v >> (self.bits - 1):
            v -= 1 << self.bits
        return CValue(v, self.unsigned, self.bits)


def parse_int_literal(text: str) -> CValue:
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
    unsigned = "u" in suffix
    bits = 64 if "l" in suffix or v > 0xFFFFFFFF else 32
    if bits == 32 and not unsigned and v > 0x7FFFFFFF:
        # C11 6.4.4.1: a hex or octal literal that does not fit int is unsigned int; a decimal one is long
        if t.startswith("0"):
            unsigned = True
        else:
            bits = 64
    return CValue(v, unsigned, bits)


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
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise NotConstant(f"not a constant expression ({type(node).__name__})", node)
        result: CValue = method(node)
        return result.norm()

    def eval_int(self, node: c_ast.Node) -> int:
        v = self.eval(node).value
        if isinstance(v, float):
            raise NotConstant("expected an integer constant", node)
        return v

    def _Constant(self, n: c_ast.Constant) -> CValue:
        if n.type in ("int", "unsigned int", "long int", "unsigned long int", "long long int", "unsigned long long int", "long", "unsigned long"):
            return parse_int_literal(n.value)
        if n.type == "char":
            body = n.value[1:-1]
            return CValue(ord(body.encode().decode("unicode_escape")) if body else 0)
        if n.type in ("float", "double", "long double"):
            return CValue(float(n.value.rstrip("fFlL")))
        if n.type == "string":
            raise NotConstant("string literal in a constant expression", n)
        try:
            return parse_int_literal(n.value)
        except ValueError:
            raise NotConstant(f"unsupported constant {n.value!r}", n) from None

    def _ID(self, n: c_ast.ID) -> CValue:
        v = self._id(n.name)
        if v is None:
            raise NotConstant(f"'{n.name}' is not a known constant", n)
        return v

    def _Cast(self, n: c_ast.Cast) -> CValue:
        inner = self.eval(n.expr)
        size = self._sizeof(n.to_type)
        names = _type_names(n.to_type)
        unsigned = "unsigned" in names or any(x.startswith("uint") for x in names) or "_Bool" in names
        if any(x in ("float", "double") for x in names):
            return CValue(float(inner.value))
        return CValue(int(inner.value), unsigned, 64 if size > 4 else 32 if size == 4 else size * 8).norm()

    def _UnaryOp(self, n: c_ast.UnaryOp) -> CValue:
        if n.op == "sizeof":
            return CValue(self._sizeof(n.expr), True, 64)
        v = self.eval(n.expr)
        if n.op == "-":
            return CValue(-v.value, v.unsigned, v.bits)
        if n.op == "+":
            return v
        if n.op == "~":
            if isinstance(v.value, float):
                raise NotConstant("~ of a float", n)
            return CValue(~v.value, v.unsigned, v.bits)
        if n.op == "!":
            return CValue(int(not v.value))
        raise NotConstant(f"operator {n.op} in a constant expression", n)

    def _BinaryOp(self, n: c_ast.BinaryOp) -> CValue:
        if n.op == "&&":
            return CValue(int(bool(self.eval(n.left).value) and bool(self.eval(n.right).value)))
        if n.op == "||":
            return CValue(int(bool(self.eval(n.left).value) or bool(self.eval(n.right).value)))
        a = self.eval(n.left)
        b = self.eval(n.right)
        if isinstance(a.value, float) or isinstance(b.value, float):
            x, y = float(a.value), float(b.value)
            fops: dict[str, Callable[[float, float], float | bool]] = {
                "+": lambda p, q: p + q, "-": lambda p, q: p - q, "*": lambda p, q: p * q, "/": lambda p, q: p / q,
                "==": lambda p, q: p == q, "!=": lambda p, q: p != q, "<": lambda p, q: p < q,
                ">": lambda p, q: p > q, "<=": lambda p, q: p <= q, ">=": lambda p, q: p >= q,
            }
            if n.op not in fops:
                raise NotConstant(f"operator {n.op} on floats", n)
            r = fops[n.op](x, y)
            return CValue(int(r)) if isinstance(r, bool) else CValue(r)
        if n.op in ("<<", ">>"):
            if b.value < 0 or b.value >= a.bits:
                raise NotConstant("shift count out of range", n)
            if n.op == ">>":
                base = a.value & ((1 << a.bits) - 1) if a.unsigned else a.value
                return CValue(base >> b.value, a.unsigned, a.bits)
            return CValue(a.value << b.value, a.unsigned, a.bits)
        unsigned, bits = _common(a, b)
        mask = (1 << bits) - 1
        x = a.value & mask if unsigned else a.value
        y = b.value & mask if unsigned else b.value
        if n.op in ("/", "%") and y == 0:
            raise NotConstant("division by zero", n)
        ops: dict[str, Callable[[int, int], int]] = {
            "+": lambda p, q: p + q,
            "-": lambda p, q: p - q,
            "*": lambda p, q: p * q,
            "/": lambda p, q: int(p / q) if (p < 0) != (q < 0) else p // q,
            "%": lambda p, q: p - q * (int(p / q) if (p < 0) != (q < 0) else p // q),
            "&": lambda p, q: p & q,
            "|": lambda p, q: p | q,
            "^": lambda p, q: p ^ q,
        }
        cmps: dict[str, Callable[[int, int], bool]] = {
            "==": lambda p, q: p == q, "!=": lambda p, q: p != q, "<": lambda p, q: p < q,
            ">": lambda p, q: p > q, "<=": lambda p, q: p <= q, ">=": lambda p, q: p >= q,
        }
        if n.op in cmps:
            return CValue(int(cmps[n.op](x, y)))
        if n.op in ops:
            return CValue(ops[n.op](x, y), unsigned, bits)
        raise NotConstant(f"operator {n.op} in a constant expression", n)

    def _TernaryOp(self, n: c_ast.TernaryOp) -> CValue:
        return self.eval(n.iftrue) if self.eval(n.cond).value else self.eval(n.iffalse)

    def _FuncCall(self, n: c_ast.FuncCall) -> CValue:
        if isinstance(n.name, c_ast.ID) and n.name.name in ("offsetof", "__builtin_offsetof") and n.args:
            typ, member = n.args.exprs
            return CValue(self._offsetof(typ, member), True, 64)
        raise NotConstant("function call in a constant expression", n)


def _type_names(node: c_ast.Node) -> list[str]:
    t = node
    while not isinstance(t, c_ast.IdentifierType):
        t = getattr(t, "type", None)
        if t is None:
            return []
    return list(t.names)
