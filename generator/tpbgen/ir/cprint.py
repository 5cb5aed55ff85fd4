"""A C printer for the pycparser AST that tpbgen owns, so the C text in its outputs (static
assert conditions in the IR, predicate terms in the audit) is the same whatever pycparser
version is installed. (pycparser's own CGenerator changed its parenthesisation between 3.0 and
3.12.) Expressions get the fewest parentheses C's precedence allows; statements are printed
on one line, blocks in braces.
"""

from __future__ import annotations

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
    return _expr(node)[0]


def _wrap(text: str, prec: int, need: int) -> str:
    return f"({text})" if prec < need else text


def _expr(n: c_ast.Node) -> tuple[str, int]:
    if isinstance(n, c_ast.ID):
        return n.name, _PRIMARY
    if isinstance(n, c_ast.Constant):
        return n.value, _PRIMARY
    if isinstance(n, c_ast.BinaryOp):
        p = _BINARY[n.op]
        left, lp = _expr(n.left)
        right, rp = _expr(n.right)
        return f"{_wrap(left, lp, p)} {n.op} {_wrap(right, rp, p + 1)}", p
    if isinstance(n, c_ast.UnaryOp):
        if n.op == "sizeof":
            inner = type_name(n.expr) if isinstance(n.expr, c_ast.Typename) else expr(n.expr)
            return f"sizeof({inner})", _UNARY
        if n.op in ("p++", "p--"):
            x, xp = _expr(n.expr)
            return f"{_wrap(x, xp, _POSTFIX)}{n.op[1:]}", _POSTFIX
        x, xp = _expr(n.expr)
        return f"{n.op}{_wrap(x, xp, _UNARY)}", _UNARY
    if isinstance(n, c_ast.TernaryOp):
        c, cp = _expr(n.cond)
        a, _ = _expr(n.iftrue)
        b, bp = _expr(n.iffalse)
        return f"{_wrap(c, cp, _TERNARY + 1)} ? {a} : {_wrap(b, bp, _TERNARY)}", _TERNARY
    if isinstance(n, c_ast.Cast):
        x, xp = _expr(n.expr)
        return f"({type_name(n.to_type)}){_wrap(x, xp, _UNARY)}", _UNARY
    if isinstance(n, c_ast.StructRef):
        x, xp = _expr(n.name)
        return f"{_wrap(x, xp, _POSTFIX)}{n.type}{n.field.name}", _POSTFIX
    if isinstance(n, c_ast.ArrayRef):
        x, xp = _expr(n.name)
        return f"{_wrap(x, xp, _POSTFIX)}[{expr(n.subscript)}]", _POSTFIX
    if isinstance(n, c_ast.FuncCall):
        f, fp = _expr(n.name)
        args = ", ".join(_wrap(*_expr(a), _ASSIGN) for a in (n.args.exprs if n.args else []))
        return f"{_wrap(f, fp, _POSTFIX)}({args})", _POSTFIX
    if isinstance(n, c_ast.Assignment):
        lv, _ = _expr(n.lvalue)
        rv, rp = _expr(n.rvalue)
        return f"{lv} {n.op} {_wrap(rv, rp, _ASSIGN)}", _ASSIGN
    if isinstance(n, c_ast.ExprList):
        return ", ".join(_wrap(*_expr(e), _ASSIGN) for e in n.exprs), _COMMA
    if isinstance(n, c_ast.Typename):
        return type_name(n), _PRIMARY
    if isinstance(n, c_ast.InitList):
        return "{" + ", ".join(expr(e) for e in n.exprs) + "}", _PRIMARY
    raise TypeError(f"cprint: no expression form for {type(n).__name__}")


def type_name(n: c_ast.Node) -> str:
    """`unsigned int`, `NEURON_ISA_TPB_TENSOR3D`, `uint8_t *`, `int[4]` for a type node."""
    t = n.type if isinstance(n, c_ast.Typename) else n
    suffix = ""
    quals = " ".join(getattr(n, "quals", None) or [])
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


def decl(n: c_ast.Decl) -> str:
    """A local declaration: `uint32_t n = 1U`."""
    t = type_name(n.type)
    dims = ""
    if "[" in t:
        t, _, rest = t.partition("[")
        dims = "[" + rest
    text = f"{t} {n.name}{dims}"
    if n.init is not None:
        text += f" = {expr(n.init)}"
    return text


def stmt(n: c_ast.Node) -> str:
    """A statement on one line (blocks in braces), for audit terms that are not expressions."""
    if isinstance(n, c_ast.Compound):
        return "{ " + " ".join(stmt(s) for s in (n.block_items or [])) + " }"
    if isinstance(n, c_ast.Decl):
        return decl(n) + ";"
    if isinstance(n, c_ast.DeclList):
        return " ".join(decl(d) + ";" for d in n.decls)
    if isinstance(n, c_ast.Return):
        return f"return {expr(n.expr)};" if n.expr is not None else "return;"
    if isinstance(n, c_ast.If):
        out = f"if ({expr(n.cond)}) {stmt(n.iftrue)}"
        return out + (f" else {stmt(n.iffalse)}" if n.iffalse is not None else "")
    if isinstance(n, c_ast.For):
        init = (
            stmt(n.init).rstrip(";")
            if isinstance(n.init, (c_ast.DeclList, c_ast.Decl))
            else (expr(n.init) if n.init else "")
        )
        cond = expr(n.cond) if n.cond is not None else ""
        nxt = expr(n.next) if n.next is not None else ""
        return f"for ({init}; {cond}; {nxt}) {stmt(n.stmt)}"
    if isinstance(n, c_ast.While):
        return f"while ({expr(n.cond)}) {stmt(n.stmt)}"
    if isinstance(n, c_ast.DoWhile):
        return f"do {stmt(n.stmt)} while ({expr(n.cond)});"
    if isinstance(n, c_ast.Switch):
        return f"switch ({expr(n.cond)}) {stmt(n.stmt)}"
    if isinstance(n, c_ast.Case):
        return f"case {expr(n.expr)}: " + " ".join(stmt(s) for s in (n.stmts or []))
    if isinstance(n, c_ast.Default):
        return "default: " + " ".join(stmt(s) for s in (n.stmts or []))
    if isinstance(n, c_ast.Break):
        return "break;"
    if isinstance(n, c_ast.Continue):
        return "continue;"
    if isinstance(n, c_ast.EmptyStatement):
        return ";"
    if isinstance(n, c_ast.FuncDef):
        return f"{type_name(n.decl.type.type)} {n.decl.name}(...) {stmt(n.body)}"
    return expr(n) + ";"


def render(n: c_ast.Node) -> str:
    """Any node: an expression as an expression, a declaration without its `;`, anything else
    as a statement."""
    if isinstance(n, c_ast.Decl):
        return decl(n)
    try:
        return expr(n)
    except TypeError:
        return stmt(n)
