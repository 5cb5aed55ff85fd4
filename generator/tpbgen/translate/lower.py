"""Lower a C predicate body (pycparser AST) to a small typed IR that the Python and numpy
back ends share: every expression knows its C type, every implicit conversion is explicit, every
struct access is a byte offset into the instruction word.

Struct and union values are never copied: a struct-typed parameter or local is a *view*, a
byte buffer plus an offset, which is exact for the pure predicates we accept (they never write
to a struct). Anything outside the accepted subset stops with an error naming the function and
`file:line`; nothing is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from .. import naming
from ..ir import ctypes
from ..ir.consteval import (
    char_type_of,
    float_binop,
    float_to_int,
    float_value,
    parse_char_literal,
    parse_int_literal,
    round_float,
)
from ..ir.model import Field, Function, Generation, Loc, Struct, TypeRef
from . import loops
from .analyses import always_returns, jumps, walk
from .c_semantics import (
    BOOL,
    FLOAT32,
    FLOAT64,
    INT32,
    INT64,
    UINT16,
    UINT32,
    UINT64,
    ScalarType,
    common,
    promote,
    scalar_for,
    wrap,
)
from .lir import (
    ArrayView,
    Assign,
    Binary,
    Break,
    Call,
    Compare,
    Cond,
    Const,
    ConstArray,
    Continue,
    Conv,
    Expr,
    If,
    Index,
    LFunction,
    Load,
    Logical,
    Loop,
    LParam,
    Not,
    Offset,
    Return,
    Stmt,
    Switch,
    Unary,
    Var,
    View,
    covers,
    dispatch,
)


class LowerError(Exception):
    """A construct outside the accepted subset, or undefined: where (file, line, column; 0 when
    unknown) and what."""

    def __init__(self, function: str, where: Loc, message: str) -> None:
        super().__init__(f"{where}: cannot translate {function}: {message}")
        self.function = function
        self.where = where
        self.message = message


py_name = naming.local_name  # the one naming rule (tpbgen.naming)


@dataclass
class _Scope:
    scalars: dict[str, tuple[str, ScalarType]] = field(default_factory=dict)
    views: dict[str, View] = field(default_factory=dict)
    arrays: dict[str, ArrayView] = field(default_factory=dict)


def _line(node: c_ast.Node) -> int:
    """The line a node starts on (0 when pycparser gives none)."""
    return node.coord.line if node.coord else 0


# The statement classes the lowerer accepts, each lowered by its `stmt_<class>` handler.
C_STATEMENTS: tuple[type[c_ast.Node], ...] = (
    c_ast.Compound,
    c_ast.Return,
    c_ast.Decl,
    c_ast.DeclList,
    c_ast.If,
    c_ast.For,
    c_ast.DoWhile,
    c_ast.While,
    c_ast.Switch,
    c_ast.Break,
    c_ast.Continue,
    c_ast.EmptyStatement,
    c_ast.Pragma,
    c_ast.StaticAssert,
)


# The expression classes the lowerer accepts, each lowered by its `expr_<class>` handler.
C_EXPRESSIONS: tuple[type[c_ast.Node], ...] = (
    c_ast.Constant,
    c_ast.ID,
    c_ast.StructRef,
    c_ast.ArrayRef,
    c_ast.UnaryOp,
    c_ast.BinaryOp,
    c_ast.TernaryOp,
    c_ast.Cast,
    c_ast.FuncCall,
)


@covers("stmt", C_STATEMENTS)
@covers("expr", C_EXPRESSIONS)
class Lowerer:
    """Lowers the functions of one generation; holds the type environment they share. Each C
    node class it accepts has a handler of its own, `stmt_<class>` (C_STATEMENTS) or
    `expr_<class>` (C_EXPRESSIONS), as the back ends have for the lowered nodes (lir.covers)."""

    def __init__(self, gen: Generation) -> None:
        self.gen = gen
        self.structs: dict[str, Struct] = {s.name: s for s in gen.structs}
        self.functions: dict[str, Function] = {f.name: f for f in gen.functions}
        self.consts: dict[str, Const] = {}
        self.const_arrays: dict[str, ConstArray] = {}
        for e in gen.enums:
            for m in e.members:
                self.consts[m.name] = Const(m.value, INT32, m.name)
        for c in gen.constants:
            t = self.scalar(c.type)
            if isinstance(c.value, tuple):
                self.const_arrays[c.name] = ConstArray(c.name, t, c.dims, Offset(0), c.value)
            else:
                self.consts[c.name] = Const(c.value, t, c.name)
        self._type_names = self._collect_type_names()

    def _collect_type_names(self) -> dict[str, TypeRef]:
        names: dict[str, TypeRef] = {}
        for s in self.structs.values():
            names[s.name] = TypeRef(s.kind, s.name, s.name, s.size)
        for e in self.gen.enums:
            names[e.name] = TypeRef("enum", e.name, e.name, e.size)
        builtin = {
            n: TypeRef(sc.kind, sc.canon, n, sc.size, sc.signed) for n, sc in ctypes.STDINT.items()
        }
        names.update(builtin)
        for td in self.gen.typedefs:
            final = td.chain[-1]
            if final in names:
                names[td.name] = names[final]
            elif final in (
                "uint8",
                "int8",
                "uint16",
                "int16",
                "uint32",
                "int32",
                "uint64",
                "int64",
            ):
                sc = ctypes.canon_scalar(final)
                names[td.name] = TypeRef(sc.kind, sc.canon, td.name, sc.size, sc.signed)
            elif len(td.chain) > 1 and td.chain[1] in names:
                names[td.name] = names[td.chain[1]]
        return names

    def _is_pointer_view(self, node: c_ast.Node) -> bool:
        """Is `n` a parameter declared as a pointer to a struct or union?"""
        return isinstance(node, c_ast.ID) and any(
            p.by_pointer and p.name == node.name for p in self._fn.params
        )

    def scalar(self, t: TypeRef) -> ScalarType:
        """The LIR scalar type of a C type (an enum as its underlying integer)."""
        return scalar_for(t.kind, t.size, t.signed)

    # -- functions -------------------------------------------------------------------------
    def lower(self, fn: Function) -> LFunction:
        """The LIR of function `fn`: its parameters (struct parameters as views at offset 0, scalars
        with their C types), its locals and its body lowered statement by statement; LowerError,
        located, for anything outside the translator's subset."""
        node = fn.code.as_node()
        assert isinstance(node, c_ast.FuncDef)
        self._fn = fn
        self._locals: dict[str, ScalarType] = {}
        self._names = {py_name(x) for x in _declared_names(node)}
        scope = _Scope()
        params = []
        for p in fn.params:
            pn = py_name(p.name)
            if p.type.kind in ("struct", "union"):
                params.append(LParam(pn, p.name, None, p.type.name))
                scope.views[p.name] = View(pn, Offset(0), p.type.name)
            else:
                t = self.scalar(p.type)
                params.append(LParam(pn, p.name, t, None))
                scope.scalars[p.name] = (pn, t)
        if fn.returns.kind in ("struct", "union"):
            raise self.err(node, "returns a struct")
        self._returns = BOOL if fn.returns.kind == "bool" else self.scalar(fn.returns)
        body = self.block(node.body, [scope], in_loop=False, in_switch=False)
        return LFunction(
            fn.name,
            tuple(params),
            self._returns,
            tuple(body),
            tuple(self._locals.items()),
            fn.loc,
            fn.calls,
        )

    def err(self, node: c_ast.Node | None, message: str) -> LowerError:
        """A LowerError for `message`, located at `node` (the function's own location when the node
        has none); the caller raises it."""
        where = (
            Loc(self._fn.loc.file, node.coord.line, node.coord.column or 0)
            if node is not None and node.coord
            else self._fn.loc
        )
        return LowerError(self._fn.name, where, message)

    # -- statements ------------------------------------------------------------------------
    def block(
        self, node: c_ast.Node | None, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """The statements of a compound statement in a new scope (or of a single statement in the
        current one); `in_loop`/`in_switch` say where `break` and `continue` may go."""
        if node is None:
            return []
        items = node.block_items or [] if isinstance(node, c_ast.Compound) else [node]
        inner = [*scopes, _Scope()] if isinstance(node, c_ast.Compound) else scopes
        out: list[Stmt] = []
        for item in items:
            out.extend(self.stmt(item, inner, in_loop, in_switch))
        return out

    def stmt(
        self, node: c_ast.Node, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """One C statement, lowered by the `stmt_<class>` handler of its node class (an
        expression standing as a statement by `expression_statement`); any other is refused."""
        if isinstance(node, C_STATEMENTS):
            out: list[Stmt] = dispatch(self, "stmt", node, scopes, in_loop, in_switch)
            return out
        if isinstance(node, _EXPRESSIONS):
            return self.expression_statement(node, scopes)
        raise self.err(node, f"unsupported statement ({type(node).__name__})")

    def stmt_Compound(
        self, node: c_ast.Compound, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """A `{ ... }` block: its statements in a new scope."""
        return self.block(node, scopes, in_loop, in_switch)

    def stmt_Return(
        self, node: c_ast.Return, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """`return e`, converted to the function's return type; a bare `return` is rejected."""
        if node.expr is None:
            raise self.err(node, "return without a value")
        return [Return(self.conv(self.expr(node.expr, scopes), self._returns, node), _line(node))]

    def stmt_Decl(
        self, node: c_ast.Decl, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """A local declaration (see `local`)."""
        return self.local(node, scopes)

    def stmt_DeclList(
        self, node: c_ast.DeclList, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """`int a = 1, b = 2;`: each declaration in turn."""
        return [s for d in node.decls for s in self.local(d, scopes)]

    def stmt_If(
        self, node: c_ast.If, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """`if`/`else`, each branch in a scope of its own."""
        return [
            If(
                self.truth(node.cond, scopes),
                tuple(self.block(node.iftrue, [*scopes, _Scope()], in_loop, in_switch)),
                tuple(self.block(node.iffalse, [*scopes, _Scope()], in_loop, in_switch)),
                _line(node),
            )
        ]

    def stmt_For(
        self, node: c_ast.For, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """A `for` loop whose trip count `loops.for_shape` proves bounded: its init, then the
        loop."""
        inner = [*scopes, _Scope()]
        init = self.stmt(node.init, inner, in_loop, in_switch) if node.init is not None else []
        if node.cond is None:
            raise self.err(node, loops.NO_CONDITION)
        cond = self.truth(node.cond, inner)
        step = self.expression_statement(node.next, inner) if node.next is not None else []
        body = self.block(node.stmt, [*inner, _Scope()], True, False)
        shape = loops.for_shape(init, cond, step, body)
        if isinstance(shape, loops.Refused):
            raise self.err(node, shape.reason)
        return [*init, Loop(cond, tuple(body), tuple(step), _line(node))]

    def stmt_While(
        self, node: c_ast.While, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """`while (0)`, which never runs (its body is checked like any other code); any other
        `while` is refused (`loops.while_shape`)."""
        cond = self.truth(node.cond, scopes)
        self.block(node.stmt, [*scopes, _Scope()], True, False)
        never = loops.while_shape(cond)
        if isinstance(never, loops.Refused):
            raise self.err(node, never.reason)
        return []

    def stmt_Switch(
        self, node: c_ast.Switch, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """A switch (see `switch`)."""
        return [self.switch(node, scopes, in_loop)]

    def stmt_Break(
        self, node: c_ast.Break, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """`break`, rejected outside a loop or switch."""
        if not (in_loop or in_switch):
            raise self.err(node, "break outside a loop or switch")
        return [Break(_line(node))]

    def stmt_Continue(
        self, node: c_ast.Continue, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """`continue`, rejected outside a loop."""
        if not in_loop:
            raise self.err(node, "continue outside a loop")
        return [Continue(_line(node))]

    def stmt_EmptyStatement(
        self, node: c_ast.EmptyStatement, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """`;`: nothing."""
        return []

    def stmt_Pragma(
        self, node: c_ast.Pragma, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """A `#pragma` inside a body: nothing."""
        return []  # `#pragma GCC unroll 4`, `#pragma GCC ivdep`: hints, no effect on the value

    def stmt_StaticAssert(
        self, node: c_ast.StaticAssert, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """`_Static_assert(e, "...")` in a body: no statement at run time. Its condition is a
        constant expression the compiler checks (the layout proof compiles every body); one
        tpbgen can evaluate too (not `sizeof` of an expression, say) is checked here as well."""
        try:
            cond = self.truth(node.cond, scopes)
        except LowerError:
            return []
        if isinstance(cond, Const) and not cond.value:
            raise self.err(node, "static assert that fails")
        return []

    def expression_statement(self, node: c_ast.Node, scopes: list[_Scope]) -> list[Stmt]:
        """`e;`: an assignment or ++/-- (under any `(void)` casts) is an effect on a local; any
        other expression (`(void)x;`, `(void)0;`, `x == 1;`, a call) has none in the accepted
        subset (calls are to pure, terminating predicates), so it is lowered, which checks it the
        same way as anywhere else, and dropped."""
        e = node
        while isinstance(e, c_ast.Cast) and self._is_void(e.to_type):
            e = e.expr
        if isinstance(e, c_ast.ExprList):
            return [s for x in e.exprs for s in self.expression_statement(x, scopes)]
        if isinstance(e, c_ast.Assignment) or (
            isinstance(e, c_ast.UnaryOp) and e.op in ("p++", "p--", "++", "--")
        ):
            return self.effect(e, scopes)
        self.expr_any(e, scopes)
        return []

    @staticmethod
    def _is_void(t: c_ast.Node) -> bool:
        while isinstance(t, (c_ast.Typename, c_ast.TypeDecl)):
            t = t.type
        return isinstance(t, c_ast.IdentifierType) and [
            x for x in t.names if x not in ("const", "volatile")
        ] == ["void"]

    def stmt_DoWhile(
        self, node: c_ast.DoWhile, scopes: list[_Scope], in_loop: bool, in_switch: bool
    ) -> list[Stmt]:
        """`do { body } while (0)` runs its body once. Without a `break` or `continue` of its own
        it is just that block; with one, it is a loop whose flag the body clears first, so either
        jump leaves it (`continue` tests the condition, which is false), in both back ends. Any
        other condition is refused: tpbgen cannot prove such a loop ends."""
        line = node.coord.line if node.coord else 0
        body = self.block(node.stmt, [*scopes, _Scope()], True, False)
        cond = self.truth(node.cond, [*scopes, _Scope()])
        shape = loops.do_shape(cond)
        if isinstance(shape, loops.Refused):
            raise self.err(node, shape.reason)
        if not jumps(body):
            return body
        flag = self.temp("_once")
        self._locals[flag] = BOOL
        return [
            Assign(flag, Const(1, BOOL), line),
            Loop(Var(flag, BOOL), (Assign(flag, Const(0, BOOL), line), *body), (), line),
        ]

    def temp(self, stem: str) -> str:
        """A Python local of tpbgen's own, named apart from every C name of the function."""
        k = 1
        while f"{stem}{k}" in self._names or f"{stem}{k}" in self._locals:
            k += 1
        self._names.add(f"{stem}{k}")
        return f"{stem}{k}"

    def switch(self, node: c_ast.Switch, scopes: list[_Scope], in_loop: bool) -> Switch:
        """A switch whose labels are integer constants and whose every case body ends in a
        `break` (dropped) or returns on every path: no fall-through into the next case."""
        e = self.expr(node.cond, scopes)
        e = self.conv(e, promote(e.t))
        items = (
            node.stmt.block_items or [] if isinstance(node.stmt, c_ast.Compound) else [node.stmt]
        )
        cases: list[tuple[tuple[int, ...] | None, tuple[Stmt, ...]]] = []
        pending: list[int] = []
        has_default = False
        inner = [*scopes, _Scope()]
        for item in items:
            if not isinstance(item, (c_ast.Case, c_ast.Default)):
                raise self.err(item, "statement before the first case label")
            if isinstance(item, c_ast.Case):
                v = self.expr(item.expr, scopes)
                if not isinstance(v, Const) or not isinstance(v.value, int):
                    raise self.err(item, "case label is not an integer constant")
                pending.append(v.value)
            else:
                has_default = True
            if not item.stmts:
                continue  # an empty case falls through to the next label: same body
            body = self.case_body(item, inner, in_loop)
            # `default:` sharing a body with case labels (before or after it): every value those
            # labels name goes to the default's body anyway (C forbids the same value twice)
            labels: tuple[int, ...] | None = None if has_default else tuple(pending)
            cases.append((labels, body))
            pending, has_default = [], False
        if pending or has_default:
            raise self.err(node, "case labels without a body at the end of the switch")
        return Switch(e, tuple(cases), node.coord.line if node.coord else 0)

    def case_body(
        self, item: c_ast.Case | c_ast.Default, inner: list[_Scope], in_loop: bool
    ) -> tuple[Stmt, ...]:
        """The statements under one case label, without the `break` that ends them; refused
        when they may fall through to the next case, or break out of the switch elsewhere."""
        body = [s for st in item.stmts for s in self.stmt(st, inner, in_loop, True)]
        if body and isinstance(body[-1], Break):
            body = body[:-1]
        elif not always_returns(body):
            # a return, an if/else or a nested switch (with a default) returning on every path
            raise self.err(
                item, "case falls through into the next one (end each case with break or return)"
            )
        if any(isinstance(s, Break) for s in walk(body, (If,))):
            raise self.err(item, "break inside a case other than at its end")
        return tuple(body)

    def local(self, decl: c_ast.Decl, scopes: list[_Scope]) -> list[Stmt]:
        """A local declaration as statements: a struct local becomes an alias of the view it is
        initialised from (no statement); a scalar local gets a Python name (suffixed when an
        earlier local of that name has another type) and is assigned its initialiser converted to
        its type, or 0. Local arrays and pointers are refused."""
        line = decl.coord.line if decl.coord else 0
        if isinstance(decl.type, c_ast.ArrayDecl):
            raise self.err(decl, "local arrays are not accepted")
        if isinstance(decl.type, c_ast.PtrDecl):
            raise self.err(decl, f"pointers are not accepted (local '{decl.name}')")
        tref = self.type_of_decl(decl.type, decl)
        top = scopes[-1]
        if tref.kind in ("struct", "union"):
            if decl.init is None:
                raise self.err(decl, "struct local without an initialiser")
            v = self.expr_any(decl.init, scopes)
            if not isinstance(v, View):
                raise self.err(decl, "struct local must be initialised from a struct value")
            top.views[decl.name] = v
            return []
        t = self.scalar(tref)
        name = py_name(decl.name)
        if name in self._locals and self._locals[name] != t:
            k = 2
            while f"{name}_{k}" in self._locals:
                k += 1
            name = f"{name}_{k}"
        self._locals[name] = t
        top.scalars[decl.name] = (name, t)
        if decl.init is None:
            return [Assign(name, Const(0, t), line)]
        return [Assign(name, self.conv(self.expr(decl.init, scopes), t, decl), line)]

    def effect(self, node: c_ast.Node, scopes: list[_Scope]) -> list[Stmt]:
        """An expression statement with a side effect on a scalar local: = op= ++ --."""
        line = node.coord.line if node.coord else 0
        if isinstance(node, c_ast.ExprList):
            return [s for e in node.exprs for s in self.effect(e, scopes)]
        if isinstance(node, c_ast.UnaryOp) and node.op in ("p++", "p--", "++", "--"):
            name, t = self.lvalue(node.expr, scopes)
            op = "+" if "+" in node.op else "-"
            return [
                Assign(
                    name, self.conv(self.arith(op, Var(name, t), Const(1, INT32), node), t), line
                )
            ]
        if isinstance(node, c_ast.Assignment):
            name, t = self.lvalue(node.lvalue, scopes)
            rhs = self.expr(node.rvalue, scopes)
            if node.op != "=":
                rhs = self.arith(node.op[:-1], Var(name, t), rhs, node)
            return [Assign(name, self.conv(rhs, t, node), line)]
        raise self.err(node, f"expression statement without effect ({type(node).__name__})")

    def lvalue(self, node: c_ast.Node, scopes: list[_Scope]) -> tuple[str, ScalarType]:
        """The LIR name and type of the local an assignment writes; a parameter, a field or anything
        else is rejected."""
        if isinstance(node, c_ast.ID):
            for s in reversed(scopes):
                if node.name in s.scalars:
                    name, t = s.scalars[node.name]
                    if name not in self._locals:
                        raise self.err(node, f"assignment to parameter '{node.name}'")
                    return name, t
        raise self.err(node, "assignment to something other than a scalar local")

    # -- expressions -----------------------------------------------------------------------
    def truth(self, node: c_ast.Node, scopes: list[_Scope]) -> Expr:
        """`node` as a condition: its value converted to bool (C's `!= 0`)."""
        return self.conv(self.expr(node, scopes), BOOL)

    def conv(self, e: Expr, t: ScalarType, where: c_ast.Node | None = None) -> Expr:
        """`e` converted to type `t` as C converts it: a constant folded (wrapped to an integer
        type, rounded once to a float type), anything else wrapped in a Conv node; unchanged when
        already of type `t`."""
        if e.t == t:
            return e
        if t.kind == "bool" and e.t.kind == "bool":
            return e
        if isinstance(e, Const) and t.kind == "bool":
            return Const(int(e.value != 0), BOOL)
        if isinstance(e, Const) and t.kind != "float" and e.t.kind != "float":
            assert isinstance(e.value, int)
            return Const(wrap(e.value, t), t, e.name)
        if isinstance(e, Const) and t.kind == "float":
            value = round_float(e.value, t.bits)  # int or float to float: rounded once, as C does
            exact = isinstance(e.value, float) and (value == e.value or value != value)
            return Const(
                value, t, e.name if exact else ""
            )  # a named constant keeps its name when the value does not change
        if isinstance(e, Const) and isinstance(e.value, float):
            v = float_to_int(e.value, t.bits, not t.signed)
            if v is None:
                raise self.err(
                    where, f"converting {e.value!r} to {t.name} is undefined (out of range)"
                )
            return Const(v, t)
        return Conv(e, t)

    def expr(self, node: c_ast.Node, scopes: list[_Scope]) -> Expr:
        """`node` as a scalar value; a struct, union or array where a value is needed is
        rejected."""
        v = self.expr_any(node, scopes)
        if isinstance(v, (View, ArrayView, ConstArray)):
            raise self.err(node, "a struct, union or array used as a value")
        return v

    def expr_any(
        self, node: c_ast.Node, scopes: list[_Scope]
    ) -> Expr | View | ArrayView | ConstArray:
        """One C expression, lowered by the `expr_<class>` handler of its node class: a value, or
        a struct view, an array field or a constant table (which only an access may use)."""
        if isinstance(node, C_EXPRESSIONS):
            out: Expr | View | ArrayView | ConstArray = dispatch(self, "expr", node, scopes)
            return out
        raise self.err(node, f"unsupported expression ({type(node).__name__})")

    def expr_Constant(self, node: c_ast.Constant, scopes: list[_Scope]) -> Expr:
        """A literal (see `constant`)."""
        return self.constant(node)

    def expr_ID(self, node: c_ast.ID, scopes: list[_Scope]) -> Expr | View | ArrayView | ConstArray:
        """A name: the innermost scope's local, view or array; else an enum constant, a static
        const (scalar or table), `true` or `false`."""
        for s in reversed(scopes):
            if node.name in s.scalars:
                name, t = s.scalars[node.name]
                return Var(name, t)
            if node.name in s.views:
                return s.views[node.name]
            if node.name in s.arrays:
                return s.arrays[node.name]
        if node.name in self.consts:
            return self.consts[node.name]
        if node.name in self.const_arrays:
            return self.const_arrays[node.name]
        if node.name in ("true", "false"):
            return Const(int(node.name == "true"), BOOL)
        raise self.err(node, f"unknown identifier '{node.name}'")

    def expr_StructRef(
        self, node: c_ast.StructRef, scopes: list[_Scope]
    ) -> Expr | View | ArrayView:
        """`s.f` or `p->f` to the field's load or view; `->` only on a pointer parameter."""
        base = self.expr_any(node.name, scopes)
        if node.type == "->" and not (isinstance(base, View) and self._is_pointer_view(node.name)):
            raise self.err(node, "pointer access '->' on something that is not a pointer parameter")
        if not isinstance(base, View):
            raise self.err(node, "field access on a non-struct value")
        return self.field(base, node.field.name, node, _path_of(node))

    def expr_ArrayRef(
        self, node: c_ast.ArrayRef, scopes: list[_Scope]
    ) -> Expr | View | ArrayView | ConstArray:
        """An element of an array field (at a constant index, checked in bounds, or at an offset
        computed at run time) or of a constant table."""
        arr = self.expr_any(node.name, scopes)
        if isinstance(arr, ConstArray):
            return self.const_index(arr, self.subscript(node, scopes), node)
        if not isinstance(arr, ArrayView):
            raise self.err(node, "indexing something that is not an array field")
        idx = self.subscript(node, scopes)
        inner = 1
        for d in arr.dims[1:]:
            inner *= d
        stride = inner * arr.elem_size
        if isinstance(idx, Const):
            assert isinstance(idx.value, int)
            if not 0 <= idx.value < arr.dims[0]:
                raise self.err(
                    node, f"index {idx.value} is outside the array's {arr.dims[0]} elements"
                )
            off = arr.view.offset.plus(idx.value * stride)
        else:
            off = arr.view.offset.plus_term(self.conv(idx, INT64), stride)
        view = View(arr.view.buf, off, arr.view.struct)
        if len(arr.dims) > 1:
            return ArrayView(view, arr.elem, arr.dims[1:], arr.elem_size)
        return self.element(view, arr.elem, arr.elem_size, _path_of(node))

    def expr_UnaryOp(self, node: c_ast.UnaryOp, scopes: list[_Scope]) -> Expr | View:
        """Unary operators (see `unary`); `*p` and `&s` only as the view of a struct passed by
        pointer."""
        if node.op not in ("*", "&"):
            return self.unary(node, scopes)
        # *p of a pointer parameter, &s of a struct passed on to a pointer parameter: the view
        target = self.expr_any(node.expr, scopes)
        if isinstance(target, View) and (node.op == "&" or self._is_pointer_view(node.expr)):
            return target
        raise self.err(
            node, f"'{node.op}' is accepted only on struct and union views (pointer parameters)"
        )

    def expr_BinaryOp(self, node: c_ast.BinaryOp, scopes: list[_Scope]) -> Expr:
        """A binary operator (see `binary`)."""
        return self.binary(node, scopes)

    def expr_TernaryOp(self, node: c_ast.TernaryOp, scopes: list[_Scope]) -> Expr:
        """`c ? a : b`, both arms converted to their common type (bool when both are bool)."""
        c = self.truth(node.cond, scopes)
        a = self.expr(node.iftrue, scopes)
        b = self.expr(node.iffalse, scopes)
        t = BOOL if a.t.kind == "bool" and b.t.kind == "bool" else common(a.t, b.t)
        return Cond(c, self.conv(a, t, node), self.conv(b, t, node), t)

    def expr_Cast(self, node: c_ast.Cast, scopes: list[_Scope]) -> Expr:
        """A cast to a scalar type as a conversion; a cast to a struct is rejected."""
        tref = self.type_of_decl(node.to_type.type, node)
        if tref.kind in ("struct", "union"):
            raise self.err(node, "cast to a struct type")
        return self.conv(
            self.expr(node.expr, scopes), BOOL if tref.kind == "bool" else self.scalar(tref), node
        )

    def expr_FuncCall(self, node: c_ast.FuncCall, scopes: list[_Scope]) -> Expr:
        """A call (see `call`)."""
        return self.call(node, scopes)

    def subscript(self, node: c_ast.ArrayRef, scopes: list[_Scope]) -> Expr:
        """An array subscript, which C requires to be of an integer type (gcc refuses others)."""
        idx = self.expr(node.subscript, scopes)
        if idx.t.kind == "float":
            raise self.err(node.subscript, f"array subscript is not an integer ({idx.t.name})")
        return idx

    def const_index(self, arr: ConstArray, idx: Expr, node: c_ast.Node) -> Expr | ConstArray:
        """`arr[idx]` on a constant array: the next dimension's sub-array, or an Index into the
        flattened table; a constant index outside the dimension is a located error."""
        stride = 1
        for d in arr.dims[1:]:
            stride *= d
        if isinstance(idx, Const):
            assert isinstance(idx.value, int)
            if not 0 <= idx.value < arr.dims[0]:
                raise self.err(
                    node, f"index {idx.value} is outside {arr.name}'s {arr.dims[0]} elements"
                )
            off = arr.offset.plus(idx.value * stride)
        else:
            off = arr.offset.plus_term(self.conv(idx, INT64), stride)
        if len(arr.dims) > 1:
            return ConstArray(arr.name, arr.t, arr.dims[1:], off, arr.values)
        if not off.terms:
            return Const(arr.values[off.const], arr.t)
        flat: Expr = Const(off.const, INT64)
        for e, s in off.terms:
            term = e if s == 1 else Binary("*", e, Const(s, INT64), INT64)
            flat = (
                term
                if isinstance(flat, Const) and flat.value == 0
                else Binary("+", flat, term, INT64)
            )
        return Index(arr.name, flat, arr.t, arr.values)

    def constant(self, node: c_ast.Constant) -> Const:
        """A literal as a typed constant, typed as gcc types it: a character constant as int (or
        its prefix's type), a float literal rounded once to float or double, an integer as int,
        long or their unsigned forms by suffix, base and magnitude (parse_int_literal); a string
        or a malformed literal is rejected."""
        if node.type == "string":
            raise self.err(node, "string literal")
        try:
            if node.value.endswith("'"):  # a character constant (pycparser types 'ab' as int)
                c = parse_char_literal(node.value)
                bits, unsigned = char_type_of(node.value)
                return Const(
                    c.value,
                    {(32, False): INT32, (16, True): UINT16, (32, True): UINT32}[(bits, unsigned)],
                )
            if node.type in ("float", "double", "long double"):
                value, fbits = float_value(
                    node.value
                )  # rounded once from the exact literal: 0.1f is 0.100000001490116...
                return Const(value, FLOAT32 if fbits == 32 else FLOAT64)
            v = parse_int_literal(node.value)
        except ValueError as exc:
            raise self.err(
                node, str(exc) if node.value in str(exc) else f"constant {node.value}: {exc}"
            ) from None
        t = {(False, 32): INT32, (True, 32): UINT32, (False, 64): INT64, (True, 64): UINT64}[
            (v.unsigned, v.bits)
        ]
        assert isinstance(v.value, int)
        return Const(v.value, t)

    def field(self, base: View, name: str, node: c_ast.Node, path: str) -> Expr | View | ArrayView:
        """Field `name` of the struct `base` views: a nested array as an ArrayView, a bit-field or
        scalar as a Load (`path` names it for explain), a nested struct as a View; an unknown field
        is rejected."""
        found = self._find(self.structs[base.struct], name, 0)
        if found is None:
            raise self.err(node, f"{base.struct} has no field '{name}'")
        f, extra = found
        view = View(base.buf, base.offset.plus(extra + f.offset), base.struct)
        if f.dims:
            elem_size = f.size
            for d in f.dims:
                elem_size //= d
            return ArrayView(view, f.type, f.dims, elem_size)
        if f.bit_width is not None:
            return Load(
                view,
                self.scalar(f.type),
                f.size,
                f.bit_offset,
                f.bit_width,
                path,
                f.type.name if f.type.kind == "enum" else "",
            )
        return self.element(view, f.type, f.size, path)

    def element(self, view: View, t: TypeRef, size: int, path: str) -> Expr | View:
        """One element of an array of `t` at `view`: a View for a struct or union, else a Load."""
        if t.kind in ("struct", "union"):
            return View(view.buf, view.offset, t.name)
        return Load(
            view,
            BOOL if t.kind == "bool" else self.scalar(t),
            size,
            None,
            None,
            path,
            t.name if t.kind == "enum" else "",
        )

    def _find(self, s: Struct, name: str, base: int) -> tuple[Field, int] | None:
        for f in s.fields:
            if f.name == name and not f.anonymous:
                return f, base
            if f.anonymous:
                got = self._find(self.structs[f.type.name], name, base + f.offset)
                if got:
                    return got
        return None

    def unary(self, node: c_ast.UnaryOp, scopes: list[_Scope]) -> Expr:
        """`sizeof(type)` as a constant, `!`, unary `+`/`-`/`~` with C's promotions (a negated
        constant folded); `sizeof expr`, pointers, `++`/`--` inside an expression and `~` on a float
        are rejected."""
        if node.op == "sizeof":
            if isinstance(node.expr, c_ast.Typename):
                tref = self.type_of_decl(node.expr.type, node)
                size = (
                    self.structs[tref.name].size if tref.kind in ("struct", "union") else tref.size
                )
                return Const(size, UINT64)
            raise self.err(node, "sizeof of an expression")
        if node.op == "!":
            return Not(self.truth(node.expr, scopes))
        if node.op in ("&", "*"):
            raise self.err(node, "pointers are not accepted")
        if node.op in ("++", "--", "p++", "p--"):
            raise self.err(node, "increment inside an expression (only as a statement)")
        e = self.expr(node.expr, scopes)
        t = promote(e.t)
        if node.op == "+":
            return self.conv(e, t)
        if node.op == "-":
            if isinstance(e, Const) and e.t.kind != "bool":
                if isinstance(e.value, float):
                    return Const(-e.value, e.t)
                return Const(wrap(-e.value, t), t)
            return Unary("-", self.conv(e, t), t)
        if node.op == "~":
            if t.kind == "float":
                raise self.err(node, "~ on a float")
            return Unary("~", self.conv(e, t), t)
        raise self.err(node, f"unsupported unary operator {node.op}")

    def binary(self, node: c_ast.BinaryOp, scopes: list[_Scope]) -> Expr:
        """`&&`/`||` on truth values, comparisons on the operands' common type, else arithmetic (see
        `arith`)."""
        if node.op in ("&&", "||"):
            return Logical(
                "and" if node.op == "&&" else "or",
                self.truth(node.left, scopes),
                self.truth(node.right, scopes),
            )
        a = self.expr(node.left, scopes)
        b = self.expr(node.right, scopes)
        if node.op in ("==", "!=", "<", "<=", ">", ">="):
            t = common(a.t, b.t)
            return Compare(node.op, self.conv(a, t, node), self.conv(b, t, node))
        return self.arith(node.op, a, b, node)

    def arith(self, op: str, a: Expr, b: Expr, node: c_ast.Node) -> Expr:
        """An arithmetic or bitwise operator with C's conversions: shifts on the promoted left
        operand (a constant shift count at or beyond its width rejected), the rest on the common
        type; `%` and bitwise operators on floats and integer division by a constant zero are
        rejected; float arithmetic on two constants is folded as gcc does."""
        if op in ("<<", ">>"):
            ta, tb = promote(a.t), promote(b.t)
            if ta.kind == "float" or tb.kind == "float":
                raise self.err(node, "shift of a float")
            if isinstance(b, Const) and isinstance(b.value, int) and not 0 <= b.value < ta.bits:
                raise self.err(node, f"shift by {b.value} is undefined for a {ta.bits}-bit operand")
            return Binary(op, self.conv(a, ta), self.conv(b, tb), ta)
        if op not in ("+", "-", "*", "/", "%", "&", "|", "^"):
            raise self.err(node, f"unsupported operator {op}")
        t = common(a.t, b.t)
        if t.kind == "float" and op in ("%", "&", "|", "^"):
            raise self.err(node, f"operator {op} on a float")
        if t.kind != "float" and op in ("/", "%") and isinstance(b, Const) and b.value == 0:
            raise self.err(node, "division by zero")
        ca, cb = self.conv(a, t, node), self.conv(b, t, node)
        if t.kind == "float" and isinstance(ca, Const) and isinstance(cb, Const):
            # IEEE arithmetic on constants, as gcc folds it: 0.0f / 0.0f is NaN, 1.0f / -0.0f is -inf
            return Const(float_binop(op, float(ca.value), float(cb.value), t.bits), t)
        return Binary(op, ca, cb, t)

    def call(self, node: c_ast.FuncCall, scopes: list[_Scope]) -> Expr:
        """A call of another function the headers define: a struct argument must be a view of the
        parameter's struct, the rest are converted to the parameter types; a call through a pointer,
        of an undefined function or with the wrong number of arguments is rejected."""
        if not isinstance(node.name, c_ast.ID):
            raise self.err(node, "call through a function pointer")
        name = node.name.name
        fn = self.functions.get(name)
        if fn is None:
            raise self.err(node, f"call to '{name}', which no ingested header defines")
        args_in = node.args.exprs if node.args else []
        if len(args_in) != len(fn.params):
            raise self.err(node, f"{name} takes {len(fn.params)} arguments, {len(args_in)} given")
        args: list[Expr | View] = []
        for p, a in zip(fn.params, args_in, strict=True):
            if p.type.kind in ("struct", "union"):
                v = self.expr_any(a, scopes)
                if not isinstance(v, View) or v.struct != p.type.name:
                    raise self.err(a, f"argument '{p.name}' of {name} must be a {p.type.name}")
                args.append(v)
            else:
                args.append(
                    self.conv(
                        self.expr(a, scopes),
                        BOOL if p.type.kind == "bool" else self.scalar(p.type),
                        a,
                    )
                )
        ret = BOOL if fn.returns.kind == "bool" else self.scalar(fn.returns)
        return Call(name, tuple(args), ret)

    def type_of_decl(self, t: c_ast.Node, where: c_ast.Node) -> TypeRef:
        """The type a declarator names (typedefs resolved, qualifiers dropped): a scalar, or a
        struct, union or enum of the generation; a pointer or unknown type is rejected, located at
        `where`."""
        while isinstance(t, (c_ast.TypeDecl, c_ast.Typename)):
            t = t.type
        if isinstance(t, c_ast.PtrDecl):
            raise self.err(where, "pointers are not accepted")
        if isinstance(t, c_ast.IdentifierType):
            names = [x for x in t.names if x not in ("const", "volatile")]
            if len(names) == 1 and names[0] in self._type_names:
                return self._type_names[names[0]]
            sc = ctypes.scalar(names)
            if sc is not None and sc.kind != "void":
                return TypeRef(sc.kind, sc.canon, " ".join(names), sc.size, sc.signed)
            raise self.err(where, f"unknown type '{' '.join(names)}'")
        if isinstance(t, (c_ast.Struct, c_ast.Union, c_ast.Enum)) and t.name:
            for s in self.structs.values():
                if s.name == t.name:
                    return TypeRef(s.kind, s.name, s.name, s.size)
            for e in self.gen.enums:
                if e.name == t.name:
                    return TypeRef("enum", e.name, e.name, e.size)
        raise self.err(where, f"unsupported type ({type(t).__name__})")


# Expression nodes that can stand as a statement (`e;`).
_EXPRESSIONS = (
    c_ast.Assignment,
    c_ast.UnaryOp,
    c_ast.Cast,
    c_ast.ID,
    c_ast.Constant,
    c_ast.BinaryOp,
    c_ast.TernaryOp,
    c_ast.FuncCall,
    c_ast.StructRef,
    c_ast.ArrayRef,
    c_ast.ExprList,
)


def _path_of(node: c_ast.Node) -> str:
    """The C access path below the function parameter: `src_mem_pattern.num_elem[3]`."""
    if isinstance(node, c_ast.StructRef):
        inner = _path_of(node.name)
        return f"{inner}.{node.field.name}" if inner else node.field.name
    if isinstance(node, c_ast.ArrayRef):
        idx = node.subscript.value if isinstance(node.subscript, c_ast.Constant) else "?"
        if isinstance(node.subscript, c_ast.ID):
            idx = node.subscript.name
        return f"{_path_of(node.name)}[{idx}]"
    return ""


def _declared_names(node: c_ast.Node) -> set[str]:
    """Every name a function declares (parameters and locals, any scope), without recursion."""
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Decl) and n.name:
            out.add(n.name)
        stack.extend(c for _, c in n.children())
    return out
