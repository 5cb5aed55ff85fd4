"""Lowered C predicates -> Python source (the scalar path of the generated `validators` module).

Struct parameters are (bytes, offset) pairs named `<param>_b`, `<param>_o`; field reads are
`struct.unpack_from` at a computed offset (or a plain index for a byte). Conversions wrap only
where C's value can change: a narrowing, a signedness change that can flip, unsigned arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from .analyses import always_returns, children, flatten, loads, reads_comment
from .c_semantics import BOOL, ScalarType, fits
from .inline import Inliner
from .lir import (
    EXPR_NODES,
    STMT_NODES,
    Assign,
    Binary,
    Break,
    Call,
    Compare,
    Cond,
    Const,
    Continue,
    Conv,
    Expr,
    If,
    Index,
    LFunction,
    Load,
    Logical,
    Loop,
    Not,
    Offset,
    Return,
    Stmt,
    Switch,
    Unary,
    Var,
    View,
    call_argument,
    covers,
    dispatch,
    strip_parens,
    unconv,
)

# Readers the generated module defines (see templates/runtime/gen/validators.py.j2)
_READERS = {
    ("int", 16, False): "_U16",
    ("int", 16, True): "_I16",
    ("int", 32, False): "_U32",
    ("int", 32, True): "_I32",
    ("int", 64, False): "_U64",
    ("int", 64, True): "_I64",
    ("float", 32, True): "_F32",
    ("float", 64, True): "_F64",
}


HOIST_DEPTH = 32  # levels of a lowered expression written inline (each adds at most 4 brackets)


def low(e: Expr | View, levels: int) -> bool:
    """Is `e` at most `levels` levels deep (so not worth a local function of its own)?"""
    if levels <= 0:
        return False
    return all(low(c, levels - 1) for c in children(e))


def py_float(v: float) -> str:
    """A float as Python source that reads back exactly: `0.1`, `-0.0`, `float('inf')`, `float('nan')`."""
    if math.isnan(v):
        return "float('nan')"
    if math.isinf(v):
        return "float('inf')" if v > 0 else "float('-inf')"
    return repr(v)


def py_literal(v: int | float | tuple[int | float, ...]) -> str:
    """A constant's value as Python source, `repr` but floats through `py_float`."""
    if isinstance(v, tuple):
        return "(" + ", ".join(py_literal(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    return py_float(v) if isinstance(v, float) else repr(v)


def wrap_expr(x: str, t: ScalarType) -> str:
    """Python source `x` reduced to C's type `t` as C's arithmetic wraps it: masked to t.bits when
    unsigned, brought back into [-2**(bits-1), 2**(bits-1)) by two's complement when signed."""
    mask = (1 << t.bits) - 1
    if not t.signed:
        return f"(({x}) & {hex(mask)})"
    half = 1 << (t.bits - 1)
    return f"(((({x}) + {hex(half)}) & {hex(mask)}) - {hex(half)})"


@dataclass
@covers("expr", EXPR_NODES)
@covers("stmt", STMT_NODES)
class PyEmitter:
    arms: frozenset[str] = frozenset()  # INST_UNION arm names, stripped from explain paths
    used_consts: dict[str, int | float | tuple[int | float, ...]] = field(default_factory=dict)
    _tmp: int = 0
    # Set while emitting an explain twin: how each `return` is written, given the conditions of
    # the branches that lead to it (innermost last).
    return_hook: Callable[[Return, str, list[Expr]], list[str]] | None = None
    branch: list[Expr] = field(default_factory=list)
    defs: dict[str, Expr] = field(
        default_factory=dict
    )  # the last expression assigned to each local
    # Subexpressions nested deeper than HOIST_DEPTH, as local functions (`def _sub1() -> int: ...`)
    # the statement being written is preceded by: Python's parser takes 200 nested brackets at most.
    hoisted: list[str] = field(default_factory=list)
    # the runtime helpers the code calls, by the alias it calls them (translate/validators.py
    # VALIDATOR_HELPERS): the generated module binds only these
    helpers: set[str] = field(default_factory=set)
    # the module-level frozensets membership tests of named constants read (`x in _MEMBERS1`),
    # by their members' names: a tuple is scanned, ~8 ns a member (`is_arith_op` has 30)
    member_sets: dict[tuple[str, ...], str] = field(default_factory=dict)
    member_prefix: str = "_MEMBERS"  # their names: the prefix and a number
    _depth: int = 0
    _subs: int = 0

    def call(self, helper: str, *args: str) -> str:
        """A call of runtime helper `helper` (an alias: `_U32`, `_cdiv`, ...), noted in `helpers`."""
        self.helpers.add(helper)
        return f"{helper}({', '.join(args)})"

    def members(self, values: list[Const]) -> str:
        """The right-hand side of a membership test of the constants `values`: a tuple for one
        or two (as fast), else a set, which Python looks up without scanning: a set display
        of integer literals (compiled to a constant frozenset), a module-level frozenset (in
        `member_sets`) when they have C names; floats stay a tuple (NaN)."""
        texts = [self.expr(v) for v in values]
        if len(values) < 3 or any(v.t.kind == "float" for v in values):
            return f"({', '.join(texts)})"
        if not any(v.name for v in values):
            return "{" + ", ".join(texts) + "}"
        key = tuple(texts)
        if key not in self.member_sets:
            self.member_sets[key] = f"{self.member_prefix}{len(self.member_sets) + 1}"
        return self.member_sets[key]

    # -- expressions -----------------------------------------------------------------------
    def offset(self, view: View) -> str:
        """The byte offset `view` starts at, as Python source (see `offset_of`)."""
        return self.offset_of(view.buf, view.offset)

    def offset_of(self, buf: str, off: Offset) -> str:
        """The byte offset `off` into buffer `buf`, as Python source: the buffer's base offset
        argument (`<buf>_o`) plus the constant and each index term times its stride."""
        parts = [f"{buf}_o"]
        if off.const:
            parts.append(str(off.const))
        for e, stride in off.terms:
            parts.append(f"{self.expr(e)} * {stride}" if stride != 1 else self.expr(e))
        return " + ".join(parts)

    def load(self, e: Load) -> str:
        """A field read as Python source: a bit-field by shift and mask (sign-extended when its C
        type is signed), a bool as a byte test, a byte by indexing, anything wider by the runtime's
        little-endian reader for its C type (noted in `helpers`)."""
        buf = f"{e.view.buf}_b"
        off = self.offset(e.view)
        if e.bit_width is not None:
            raw = (
                f"int.from_bytes({buf}[{off}:{off} + {e.size}], 'little')"
                if e.size > 1
                else f"{buf}[{off}]"
            )
            val = f"(({raw} >> {e.bit_offset}) & {hex((1 << e.bit_width) - 1)})"
            if e.t.signed and e.t.kind == "int":
                val = f"(({val} ^ {hex(1 << (e.bit_width - 1))}) - {hex(1 << (e.bit_width - 1))})"
            return val
        t = e.t
        if t.kind == "bool":
            return f"({buf}[{off}] != 0)"
        if t.kind == "int" and t.bits == 8:
            return f"{buf}[{off}]" if not t.signed else f"(({buf}[{off}] ^ 0x80) - 0x80)"
        return f"{self.call(_READERS[(t.kind, t.bits, t.signed)], buf, off)}[0]"

    def expr(self, e: Expr) -> str:
        """`e` as Python source, with the parentheses its operator needs; a subexpression nested
        deeper than HOIST_DEPTH becomes a call of a hoisted local function (Python's parser takes
        200 nested brackets at most)."""
        if self._depth >= HOIST_DEPTH and not low(e, 3):
            return self.hoist(e)
        self._depth += 1
        try:
            out: str = dispatch(self, "expr", e)
        finally:
            self._depth -= 1
        return out

    def hoist(self, e: Expr) -> str:
        """`e` as a call of a local function defined before the statement: evaluated where the
        call stands (so short-circuit and loop conditions keep their meaning), nested afresh."""
        self._subs += 1
        name = f"_sub{self._subs}"
        depth, self._depth = self._depth, 0
        try:
            body = self.bare(e)
        finally:
            self._depth = depth
        self.hoisted += [f"def {name}() -> {_pytype(e.t)}:", f"    return {body}"]
        return f"{name}()"

    def take_hoisted(self, ind: str) -> list[str]:
        """The local functions the expressions written since the last call need, at `ind`."""
        out = [ind + line for line in self.hoisted]
        self.hoisted = []
        return out

    def expr_Const(self, e: Const) -> str:
        """A constant: its C name when it has one (noted in `used_consts`), else a Python
        literal."""
        if e.name:
            self.used_consts[e.name] = e.value
            return e.name
        if isinstance(e.value, float):
            return py_float(e.value)
        if e.t.kind == "bool":
            return "True" if e.value else "False"
        return str(e.value) if -1024 < e.value < 1024 else hex(e.value)

    def expr_Var(self, e: Var) -> str:
        """A local: its name."""
        return e.name

    def expr_Load(self, e: Load) -> str:
        """A field read (see `load`)."""
        return self.load(e)

    def expr_Index(self, e: Index) -> str:
        """An element of a constant table: the table (noted in `used_consts`) indexed by the
        element."""
        self.used_consts[e.name] = e.values
        return f"{e.name}[{self.bare(e.index)}]"

    def expr_Not(self, e: Not) -> str:
        """C's `!`: a double negation dropped, a comparison inverted where that keeps its meaning
        (not for an ordered comparison of floats, which NaN makes differ), else `not x` or `x ==
        0`."""
        inner = e.e
        if isinstance(inner, Not):
            return (
                self.expr(inner.e) if inner.e.t.kind == "bool" else f"({self.expr(inner.e)} != 0)"
            )
        # !(a < b) is a >= b only without NaN: an ordered comparison of floats stays negated
        if isinstance(inner, Compare) and (
            inner.op in ("==", "!=") or "float" not in (inner.a.t.kind, inner.b.t.kind)
        ):
            return self.expr(Compare(_NEGATE[inner.op], inner.a, inner.b))
        if (
            isinstance(inner, Logical)
            and (member := self.membership(inner, negate=True)) is not None
        ):
            return member
        return f"(not {self.expr(inner)})"

    def expr_Logical(self, e: Logical) -> str:
        """`&&`/`||`: a membership test when every term compares one value with constants, else the
        terms joined by `and`/`or`."""
        member = self.membership(e)
        if member is not None:
            return member
        return "(" + f" {e.op} ".join(self.chain_terms(e)) + ")"

    def expr_Compare(self, e: Compare) -> str:
        """A comparison: Python's operator (C's operands are already converted to one type)."""
        return f"({self.expr(e.a)} {e.op} {self.expr(e.b)})"

    def expr_Cond(self, e: Cond) -> str:
        """C's `c ? a : b`: Python's conditional expression."""
        return f"({self.expr(e.a)} if {self.expr(e.c)} else {self.expr(e.b)})"

    def expr_Call(self, e: Call) -> str:
        """A call of another translated function: a struct argument passed as its buffer and
        offset."""
        args = []
        for a in e.args:
            if isinstance(a, View):
                args += [f"{a.buf}_b", self.offset(a)]
            else:
                args.append(call_argument(self.expr(a)))
        return f"_{e.fn}({', '.join(args)})"

    def expr_Unary(self, e: Unary) -> str:
        """Unary minus and `~`: wrapped to the C type's width when it is unsigned."""
        x = self.expr(e.e)
        if e.t.kind == "float":
            return f"(-{x})"
        if e.op == "~":
            return f"(~{x} & {hex((1 << e.t.bits) - 1)})" if not e.t.signed else f"(~{x})"
        return wrap_expr(f"-{x}", e.t) if not e.t.signed else f"(-{x})"

    def expr_Binary(self, e: Binary) -> str:
        """A binary arithmetic operator (see `binary`)."""
        return self.binary(e)

    def expr_Conv(self, e: Conv) -> str:
        """A C conversion (see `conv`)."""
        return self.conv(e)

    def chain_terms(self, e: Logical) -> list[str]:
        """The rendered terms of an `and`/`or` chain: runs of `x == A`, `x == B` ... (`!=` under
        `and`) on the same x folded into one membership test; each term parenthesised unless it
        is an atom, a call, a comparison or a negation (which bind tighter than `and`/`or`)."""
        return [text for text, _ in self.chain_terms_read(e)]

    def chain_terms_read(self, e: Logical) -> list[tuple[str, list[Expr]]]:
        """`chain_terms`, each with the C expressions it renders (for the fields it reads)."""
        cmp = "==" if e.op == "or" else "!="
        out: list[tuple[str, list[Expr]]] = []
        run: list[Compare] = []

        def flush() -> None:
            if len(run) >= 2:
                values = self.members([t.b for t in run if isinstance(t.b, Const)])
                out.append(
                    (
                        f"{self.bare(run[0].a)} {'in' if cmp == '==' else 'not in'} {values}",
                        list(run),
                    )
                )
            else:
                out.extend((self.tight(t), [t]) for t in run)
            run.clear()

        for t in flatten(e, e.op):
            if (
                isinstance(t, Compare)
                and t.op == cmp
                and isinstance(t.b, Const)
                and (not run or self.expr(run[0].a) == self.expr(t.a))
            ):
                run.append(t)
                continue
            flush()
            if isinstance(t, Compare) and t.op == cmp and isinstance(t.b, Const):
                run.append(t)
            else:
                out.append((self.tight(t), [t]))
        flush()
        return out

    def reads(self, *es: Expr) -> str:
        """The trailing `# reads: ...` comment naming the fields `es` read ("" when none)."""
        return reads_comment(es, self.arms)

    def tight(self, e: Expr) -> str:
        """`e` as a term of an `and`/`or` chain: bare when it binds tighter than both."""
        if isinstance(e, (Logical, Cond)):
            return self.expr(e)
        return self.bare(e)

    def membership(self, e: Logical, negate: bool = False) -> str | None:
        """`x == A || x == B ...` as `x in (A, B, ...)` (and `!=`/&& as `not in`); `negate` for its `!`."""
        cmp, op = ("==", "or") if e.op == "or" else ("!=", "and")
        terms = flatten(e, op)
        if len(terms) < 2 or not all(
            isinstance(t, Compare) and t.op == cmp and isinstance(t.b, Const) for t in terms
        ):
            return None
        lhs = {self.expr(t.a) for t in terms if isinstance(t, Compare)}
        if len(lhs) != 1:
            return None
        values = self.members(
            [t.b for t in terms if isinstance(t, Compare) and isinstance(t.b, Const)]
        )
        positive = (cmp == "==") != negate
        return f"({lhs.pop()} {'in' if positive else 'not in'} {values})"

    def binary(self, e: Binary) -> str:
        """A binary operator with C's semantics: float division by the IEEE helper and float results
        rounded to float32 where C computes in float; signed `/` and `%` truncate toward zero
        (`_cdiv`, `_cmod`); integer results wrapped to the C type's width where Python's would not
        be."""
        a, b, t = self.expr(e.a), self.expr(e.b), e.t
        if t.kind == "float":
            # IEEE: x / 0.0 is inf or NaN
            out = self.call("_fdiv", a, b) if e.op == "/" else f"({a} {e.op} {b})"
            return self.call("_f32", strip_parens(out)) if t.bits == 32 else out
        if e.op == "/":
            return self.call("_cdiv", a, b) if t.signed else f"({a} // {b})"
        if e.op == "%":
            return self.call("_cmod", a, b) if t.signed else f"({a} % {b})"
        out = f"({a} {e.op} {b})"
        if not t.signed and e.op in ("+", "-", "*", "<<"):
            return wrap_expr(out[1:-1], t)
        return out

    def conv(self, e: Conv) -> str:
        """A C conversion: `!= 0` to bool, nothing when the value already fits, `float()` (and
        float32 rounding) to a float, truncation toward zero from a float, else a wrap to the
        target's width."""
        src, dst = e.e.t, e.t
        x = self.expr(e.e)
        if dst.kind == "bool":
            return f"({x} != 0)" if src.kind != "float" else f"({x} != 0.0)"
        if fits(src, dst):
            return x
        if dst.kind == "float":
            return self.call("_f32", f"float({x})") if dst.bits == 32 else f"float({x})"
        if src.kind == "float":
            return wrap_expr(f"int({x})", dst)
        return wrap_expr(x, dst)

    # -- statements ------------------------------------------------------------------------
    def stmts(
        self, body: tuple[Stmt, ...] | list[Stmt], indent: str, step: tuple[Stmt, ...] = ()
    ) -> list[str]:
        """The statements of `body` at `indent` (`pass` when it writes none); `step` is the
        enclosing loop's step, written again before each `continue`."""
        out: list[str] = []
        for s in body:
            out += self.stmt(s, indent, step)
        return out or [f"{indent}pass"]

    def stmt(self, s: Stmt, ind: str, step: tuple[Stmt, ...]) -> list[str]:
        """The lines of one statement, preceded by the local functions its deep subexpressions were
        hoisted into."""
        outer, self.hoisted = self.hoisted, []
        try:
            out: list[str] = dispatch(self, "stmt", s, ind, step)
            pre = self.take_hoisted(ind)
        finally:
            self.hoisted = outer
        return pre + out

    def stmt_Return(self, s: Return, ind: str, step: tuple[Stmt, ...]) -> list[str]:
        """`return`: through `return_hook` when writing an explain twin; a long conjunction one term
        per line (as the header writes it); else one line."""
        if self.return_hook is not None:
            return self.return_hook(s, ind, list(self.branch))
        assert s.e is not None
        e = s.e
        subs = self._subs
        terms = (
            self.chain_terms_read(e)
            if isinstance(e, Logical) and self.membership(e) is None
            else []
        )
        if isinstance(e, Logical) and len(terms) > 2:
            # a long conjunction (the usual validator body): one term per line, as in the header;
            # a term keeps its parentheses unless it binds tighter than `and`/`or` anyway.
            # Written again only when the first writing hoisted a local function (its lines and
            # numbers as they always were); else a second writing would be the same text.
            if self._subs != subs:
                terms = self.chain_terms_read(e)
            lines = [
                f"{ind}    {'' if k == 0 else e.op + ' '}{t}{self.reads(*es)}"
                for k, (t, es) in enumerate(terms)
            ]
            return [f"{ind}return (", *lines, f"{ind})"]
        return [f"{ind}return {self.bare(s.e)}{self.reads(s.e)}"]

    def stmt_Assign(self, s: Assign, ind: str, step: tuple[Stmt, ...]) -> list[str]:
        """An assignment to a local (remembered in `defs`, so explain can show the field it
        holds)."""
        self.defs[s.name] = s.e
        return [f"{ind}{s.name} = {self.bare(s.e)}{self.reads(s.e)}"]

    def stmt_If(self, s: If, ind: str, step: tuple[Stmt, ...]) -> list[str]:
        """`if`/`else`, each branch's condition kept on `branch` while its body is written."""
        self.branch.append(s.c)
        out = [
            f"{ind}if {self.bare(s.c)}:{self.reads(s.c)}",
            *self.stmts(s.then, ind + "    ", step),
        ]
        self.branch[-1] = Not(s.c)
        if s.orelse:
            out += [f"{ind}else:", *self.stmts(s.orelse, ind + "    ", step)]
        self.branch.pop()
        return out

    def stmt_Loop(self, s: Loop, ind: str, step: tuple[Stmt, ...]) -> list[str]:
        """A C loop as `while`, its step written after the body (and before each `continue` in
        it)."""
        lines = self.stmts(s.body, ind + "    ", s.step)
        stepc = [line for st in s.step for line in self.stmt(st, ind + "    ", ())]
        return [f"{ind}while {self.bare(s.c)}:", *lines, *stepc]

    def stmt_Break(self, s: Break, ind: str, step: tuple[Stmt, ...]) -> list[str]:
        """`break`."""
        return [f"{ind}break"]

    def stmt_Continue(self, s: Continue, ind: str, step: tuple[Stmt, ...]) -> list[str]:
        """`continue`, after the enclosing loop's step (which C runs on `continue` in a `for`)."""
        return [*(line for st in step for line in self.stmt(st, ind, ())), f"{ind}continue"]

    def stmt_Switch(self, s: Switch, ind: str, step: tuple[Stmt, ...]) -> list[str]:
        """A switch: one membership test when every case returns a constant bool, else the value in
        a temporary and an `if`/`elif` chain (cases do not fall through: lower.py rejects that)."""
        if self.return_hook is None and (member := self.switch_membership(s)) is not None:
            return [f"{ind}return {member}{self.reads(s.e)}"]
        self._tmp += 1
        v = f"_sw{self._tmp}"
        out = [f"{ind}{v} = {self.expr(s.e)}{self.reads(s.e)}"]
        default: tuple[Stmt, ...] | None = None
        first = True
        for labels, body in s.cases:
            if labels is None:
                default = body
                continue
            test = f"{v} == {labels[0]}" if len(labels) == 1 else f"{v} in {_labels(labels)}"
            out.append(f"{ind}{'if' if first else 'elif'} {test}:")
            out += self.stmts(body, ind + "    ", step)
            first = False
        if default is not None:
            if first:
                out += self.stmts(default, ind, step)
            else:
                out.append(f"{ind}else:")
                out += self.stmts(default, ind + "    ", step)
        return out

    def bare(self, e: Expr) -> str:
        """An expression without the outer parentheses the operator rules put around it."""
        return strip_parens(self.expr(e))

    def switch_membership(self, s: Switch) -> str | None:
        """A switch whose every case returns a constant bool, as one membership test."""
        true_labels: list[int] = []
        false_labels: list[int] = []
        default: bool | None = None
        for labels, body in s.cases:
            if (
                len(body) != 1
                or not isinstance(body[0], Return)
                or not isinstance(body[0].e, Const)
                or body[0].e.t.kind != "bool"
            ):
                return None
            value = bool(body[0].e.value)
            if labels is None:
                default = value
            else:
                (true_labels if value else false_labels).extend(labels)
        if default is None:
            return None
        v = self.expr(s.e)
        if default is False:
            return f"{v} in {_labels(true_labels, 1)}" if true_labels else "False"
        return f"{v} not in {_labels(false_labels, 1)}" if false_labels else "True"

    # -- whole functions -------------------------------------------------------------------
    def signature(self, f: LFunction) -> str:
        """The `def` line of a translated function: a struct parameter as its buffer and offset, the
        rest typed as Python's int, float or bool."""
        ps = []
        for p in f.params:
            if p.struct is not None:
                ps += [f"{p.name}_b: bytes", f"{p.name}_o: int"]
            else:
                assert p.t is not None
                ps.append(f"{p.name}: {_pytype(p.t)}")
        return f"def _{f.name}({', '.join(ps)}) -> {_pytype(f.returns)}:"

    def function(self, f: LFunction, inliner: Inliner | None = None) -> list[str]:
        """A whole translated function; a body that can reach its end (undefined in C when the
        caller reads the value) returns False, or 0. With `inliner`, the small helpers it calls
        written into it (inline.py), each statement still shallow enough not to be hoisted (a
        local function costs more than the call)."""
        if inliner is not None:
            f = inliner.function(f, HOIST_DEPTH - 2)
        body = self.stmts(f.body, "    ")
        if not always_returns(f.body):
            body.append(
                f"    return {'False' if f.returns == BOOL else '0'}  # C: control reaches the end"
            )
        return [self.signature(f), *body]

    # -- explain ---------------------------------------------------------------------------
    def c_text(self, e: Expr | View) -> str:
        """The C-looking text of a lowered expression, for explain() messages."""
        if isinstance(e, View):
            return "{...}"
        if isinstance(e, Const):
            return e.name or (repr(e.value) if isinstance(e.value, float) else str(e.value))
        if isinstance(e, Var):
            d = self.defs.get(e.name)
            return (
                self.c_text(d)
                if isinstance(d, (Load, Conv)) and isinstance(unconv(d), Load)
                else e.name
            )
        if isinstance(e, Load):
            return self.path(e)
        if isinstance(e, Not):
            return f"!{self.c_text(e.e)}"
        if isinstance(e, Logical):
            sep = " && " if e.op == "and" else " || "
            return "(" + sep.join(self.c_text(t) for t in flatten(e, e.op)) + ")"
        if isinstance(e, (Compare, Binary)):
            return f"({self.c_text(e.a)} {e.op} {self.c_text(e.b)})"
        if isinstance(e, Cond):
            return f"({self.c_text(e.c)} ? {self.c_text(e.a)} : {self.c_text(e.b)})"
        if isinstance(e, Call):
            return f"{e.fn}({', '.join(self.c_text(a) for a in e.args)})"
        if isinstance(e, Unary):
            return f"{e.op}{self.c_text(e.e)}"
        if isinstance(e, Conv):
            return self.c_text(e.e)
        if isinstance(e, Index):
            return f"{e.name}[{self.c_text(e.index)}]"
        raise TypeError(e)

    def path(self, e: Load) -> str:
        """A field's C path for explain messages, without the INST_UNION arm it was read through."""
        parts = e.path.split(".")
        if len(parts) > 1 and parts[0] in self.arms:
            parts = parts[1:]
        return ".".join(parts)

    def loads(self, e: Expr | View, acc: list[Load]) -> list[Load]:
        """Every field read in `e`, appended to `acc` (see analyses.loads)."""
        return loads(e, acc)

    def vars_in(self, e: Expr | View, acc: list[str], loads: list[Load] | None = None) -> list[str]:
        """Locals read by `e`; a local that holds a field read (`w = src.num_elem[3]`) is shown as
        that field instead, by adding the load to `loads`."""
        if isinstance(e, Var):
            d = self.defs.get(e.name)
            if loads is not None and d is not None and isinstance(unconv(d), Load):
                self.loads(unconv(d), loads)
            elif e.name not in acc:
                acc.append(e.name)
            return acc
        for child in children(e):
            self.vars_in(child, acc, loads)
        return acc

    def values_fstring(self, loads: list[Load]) -> str:
        """The body of an f-string showing each field in `loads` with its value at run time (an
        enum's by name); an element chosen by a local is left out, having no stable name."""
        parts = []
        for ld in loads:
            if "?" in ld.path or ld.view.offset.terms:
                continue  # an element chosen at run time by a local: no stable name to show
            shown = self.path(ld).replace("{", "{{").replace("}", "}}")
            if ld.enum:
                parts.append(f"{shown} = {{_show({ld.enum!r}, {self.load(ld)})}}")
            elif ld.t.kind == "float":
                parts.append(f"{shown} = {{{self.load(ld)}!r}}")
            else:
                parts.append(f"{shown} = {{{self.load(ld)}}}")
        return ", ".join(parts)


_NEGATE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def sets_code(member_sets: dict[tuple[str, ...], str]) -> str:
    """Python defining the frozensets of an emitter's `member_sets` (after the constants)."""
    return "".join(f"{name} = frozenset(({', '.join(ms)},))\n" for ms, name in member_sets.items())


def _labels(labels: list[int] | tuple[int, ...], comma: int = 0) -> str:
    """Case labels as the right-hand side of a membership test: a tuple for one or two (with a
    trailing comma when `comma`, as the translation writes a switch of constant returns), a
    set display of three or more (a constant frozenset: looked up, not scanned)."""
    text = ", ".join(map(str, labels))
    if len(labels) >= 3:
        return "{" + text + "}"
    return f"({text}{',' if comma else ''})"


def _pytype(t: ScalarType) -> str:
    return {"bool": "bool", "float": "float"}.get(t.kind, "int")
