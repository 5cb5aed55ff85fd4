"""A C printer for the pycparser AST that tpbgen owns, so the C text in its outputs (static
assert conditions in the IR, predicate terms in the audit) is the same whatever pycparser
version is installed. (pycparser's own CGenerator changed its parenthesisation between 3.0 and
3.12.) Expressions get the fewest parentheses C's precedence allows; statements are printed
on one line, blocks in braces.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pycparser import c_ast

# C precedence, higher binds tighter (C11 6.5); all binary operators here are left-associative.
_BINARY = {
    "*": 13,
    "/": 13,
    "%": 13,
    "+": 12,
    "-": 12,
    "<<": 11,
    ">>": 11,
    "<": 10,
    "<=": 10,
    ">": 10,
    ">=": 10,
    "==": 9,
    "!=": 9,
    "&": 8,
    "^": 7,
    "|": 6,
    "&&": 5,
    "||": 4,
}
_TERNARY, _ASSIGN, _COMMA = 3, 2, 1
_UNARY, _POSTFIX, _PRIMARY = 14, 15, 16


def expr(node: c_ast.Node) -> str:
    """A C expression as source text, with only the parentheses precedence needs."""
    return _expr(node)[0]


def _wrap(text: str, prec: int, need: int) -> str:
    return f"({text})" if prec < need else text


def _expr(node: c_ast.Node) -> tuple[str, int]:
    """An expression's text and the precedence of its outermost operator, by the form of its
    node class."""
    form = _EXPR_FORMS.get(type(node))
    if form is None:
        raise TypeError(f"cprint: no expression form for {type(node).__name__}")
    return form(node)


def _binary(node: c_ast.BinaryOp) -> tuple[str, int]:
    p = _BINARY[node.op]
    left, lp = _expr(node.left)
    right, rp = _expr(node.right)
    return f"{_wrap(left, lp, p)} {node.op} {_wrap(right, rp, p + 1)}", p


def _unary(node: c_ast.UnaryOp) -> tuple[str, int]:
    if node.op == "sizeof":
        inner = type_name(node.expr) if isinstance(node.expr, c_ast.Typename) else expr(node.expr)
        return f"sizeof({inner})", _UNARY
    x, xp = _expr(node.expr)
    if node.op in ("p++", "p--"):
        return f"{_wrap(x, xp, _POSTFIX)}{node.op[1:]}", _POSTFIX
    return f"{node.op}{_wrap(x, xp, _UNARY)}", _UNARY


def _ternary(node: c_ast.TernaryOp) -> tuple[str, int]:
    c, cp = _expr(node.cond)
    a, _ = _expr(node.iftrue)
    b, bp = _expr(node.iffalse)
    return f"{_wrap(c, cp, _TERNARY + 1)} ? {a} : {_wrap(b, bp, _TERNARY)}", _TERNARY


def _cast(node: c_ast.Cast) -> tuple[str, int]:
    x, xp = _expr(node.expr)
    return f"({type_name(node.to_type)}){_wrap(x, xp, _UNARY)}", _UNARY


def _struct_ref(node: c_ast.StructRef) -> tuple[str, int]:
    x, xp = _expr(node.name)
    return f"{_wrap(x, xp, _POSTFIX)}{node.type}{node.field.name}", _POSTFIX


def _array_ref(node: c_ast.ArrayRef) -> tuple[str, int]:
    x, xp = _expr(node.name)
    return f"{_wrap(x, xp, _POSTFIX)}[{expr(node.subscript)}]", _POSTFIX


def _call(node: c_ast.FuncCall) -> tuple[str, int]:
    f, fp = _expr(node.name)
    args = ", ".join(_wrap(*_expr(a), _ASSIGN) for a in (node.args.exprs if node.args else []))
    return f"{_wrap(f, fp, _POSTFIX)}({args})", _POSTFIX


def _assignment(node: c_ast.Assignment) -> tuple[str, int]:
    lv, _ = _expr(node.lvalue)
    rv, rp = _expr(node.rvalue)
    return f"{lv} {node.op} {_wrap(rv, rp, _ASSIGN)}", _ASSIGN


_EXPR_FORMS: dict[type[c_ast.Node], Callable[[Any], tuple[str, int]]] = {
    c_ast.ID: lambda n: (n.name, _PRIMARY),
    c_ast.Constant: lambda n: (n.value, _PRIMARY),
    c_ast.BinaryOp: _binary,
    c_ast.UnaryOp: _unary,
    c_ast.TernaryOp: _ternary,
    c_ast.Cast: _cast,
    c_ast.StructRef: _struct_ref,
    c_ast.ArrayRef: _array_ref,
    c_ast.FuncCall: _call,
    c_ast.Assignment: _assignment,
    c_ast.ExprList: lambda n: (", ".join(_wrap(*_expr(e), _ASSIGN) for e in n.exprs), _COMMA),
    c_ast.Typename: lambda n: (type_name(n), _PRIMARY),
    c_ast.InitList: lambda n: ("{" + ", ".join(expr(e) for e in n.exprs) + "}", _PRIMARY),
}


def type_name(node: c_ast.Node) -> str:
    """`unsigned int`, `NEURON_ISA_TPB_TENSOR3D`, `uint8_t *`, `int[4]` for a type node."""
    t = node.type if isinstance(node, c_ast.Typename) else node
    suffix = ""
    quals = " ".join(getattr(node, "quals", None) or [])
    while True:
        if isinstance(t, c_ast.TypeDecl):
            quals = " ".join([*(t.quals or []), quals]).strip() if t.quals else quals
            t = t.type
        elif isinstance(t, c_ast.PtrDecl):
            suffix = " *" + suffix
            t = t.type
        elif isinstance(t, c_ast.ArrayDecl):
            suffix += f"[{expr(t.dim) if t.dim is not None else ''}]"
            t = t.type
        else:
            break
    if isinstance(t, c_ast.IdentifierType):
        base = " ".join(t.names)
    elif isinstance(t, (c_ast.Struct, c_ast.Union, c_ast.Enum)):
        base = f"{type(t).__name__.lower()} {t.name}"
    else:
        base = type(t).__name__
    return f"{quals + ' ' if quals else ''}{base}{suffix}"


def decl(node: c_ast.Decl) -> str:
    """A local declaration: `uint32_t n = 1U`."""
    t = type_name(node.type)
    dims = ""
    if "[" in t:
        t, _, rest = t.partition("[")
        dims = "[" + rest
    text = f"{t} {node.name}{dims}"
    if node.init is not None:
        text += f" = {expr(node.init)}"
    return text


def stmt(node: c_ast.Node) -> str:
    """A statement on one line (blocks in braces), for audit terms that are not expressions; a
    node of no statement form is printed as an expression statement."""
    form = _STMT_FORMS.get(type(node))
    return form(node) if form is not None else expr(node) + ";"


def _stmts(items: list[c_ast.Node] | None) -> str:
    return " ".join(stmt(s) for s in (items or []))


def _if(node: c_ast.If) -> str:
    out = f"if ({expr(node.cond)}) {stmt(node.iftrue)}"
    return out + (f" else {stmt(node.iffalse)}" if node.iffalse is not None else "")


def _for(node: c_ast.For) -> str:
    init = (
        stmt(node.init).rstrip(";")
        if isinstance(node.init, (c_ast.DeclList, c_ast.Decl))
        else (expr(node.init) if node.init else "")
    )
    cond = expr(node.cond) if node.cond is not None else ""
    nxt = expr(node.next) if node.next is not None else ""
    return f"for ({init}; {cond}; {nxt}) {stmt(node.stmt)}"


_STMT_FORMS: dict[type[c_ast.Node], Callable[[Any], str]] = {
    c_ast.Compound: lambda n: "{ " + _stmts(n.block_items) + " }",
    c_ast.Decl: lambda n: decl(n) + ";",
    c_ast.DeclList: lambda n: " ".join(decl(d) + ";" for d in n.decls),
    c_ast.Return: lambda n: f"return {expr(n.expr)};" if n.expr is not None else "return;",
    c_ast.If: _if,
    c_ast.For: _for,
    c_ast.While: lambda n: f"while ({expr(n.cond)}) {stmt(n.stmt)}",
    c_ast.DoWhile: lambda n: f"do {stmt(n.stmt)} while ({expr(n.cond)});",
    c_ast.Switch: lambda n: f"switch ({expr(n.cond)}) {stmt(n.stmt)}",
    c_ast.Case: lambda n: f"case {expr(n.expr)}: " + _stmts(n.stmts),
    c_ast.Default: lambda n: "default: " + _stmts(n.stmts),
    c_ast.Break: lambda n: "break;",
    c_ast.Continue: lambda n: "continue;",
    c_ast.EmptyStatement: lambda n: ";",
    c_ast.FuncDef: lambda n: f"{type_name(n.decl.type.type)} {n.decl.name}(...) {stmt(n.body)}",
}


def render(node: c_ast.Node) -> str:
    """Any node: an expression as an expression, a declaration without its `;`, anything else
    as a statement."""
    if isinstance(node, c_ast.Decl):
        return decl(node)
    try:
        return expr(node)
    except TypeError:
        return stmt(node)
