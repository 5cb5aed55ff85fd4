"""Lowered C predicates -> numpy source (the batch path): one call validates N words at once.

Every value is an array over the N words (or a typed numpy scalar), in the numpy dtype of its
C type, so fixed-width wrap-around comes from numpy itself. Control flow becomes masks: an
`if` runs both arms under complementary masks, a `return` records its value for the lanes still
running and retires them, a loop repeats while any lane still wants another pass. The
predicates are pure, so evaluating both sides of `&&`, `||` and `?:` gives C's answer; the two
places where C relies on short-circuit for safety (division by zero, a run-time array index)
are guarded: a zero divisor becomes 1 and an index is clipped into the word, in lanes whose
result is discarded anyway.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field
from typing import Any

from .analyses import assigned, flatten, jumps, reads_comment
from .c_semantics import BOOL, ScalarType, fits
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
    covers,
    dispatch,
    strip_parens,
)
from .to_python import HOIST_DEPTH, low


class BatchUnsupported(Exception):
    pass


_bare = strip_parens


def np_dtype(t: ScalarType) -> str:
    """The numpy scalar type that holds C type `t` exactly (bool, float32/64, (u)int8-64)."""
    if t.kind == "bool":
        return "np.bool_"
    if t.kind == "float":
        return "np.float32" if t.bits == 32 else "np.float64"
    return f"np.{'int' if t.signed else 'uint'}{t.bits}"


_VIEW = {
    ("int", 16, False): "<u2",
    ("int", 16, True): "<i2",
    ("int", 32, False): "<u4",
    ("int", 32, True): "<i4",
    ("int", 64, False): "<u8",
    ("int", 64, True): "<i8",
    ("float", 32, True): "<f4",
    ("float", 64, True): "<f8",
}


@dataclass
@covers("expr", EXPR_NODES)
@covers("stmt", STMT_NODES)
class NpEmitter:
    _n: int = 0
    lines: list[str] = field(default_factory=list)
    pre: list[str] = field(default_factory=list)
    loops: list[tuple[str, str]] = field(
        default_factory=list
    )  # (skip mask, break mask) of each enclosing loop
    hoisted: list[str] = field(
        default_factory=list
    )  # local functions for deep subexpressions (see to_python)
    _depth: int = 0
    module: list[str] = field(default_factory=list)  # module-level constants the function names
    _fn: str = ""
    _retired: bool = False  # has a return been emitted (so some lanes may be done)?
    tables: set[str] = field(default_factory=set)  # the constant tables the code indexes (C names)
    # the runtime helpers the code calls, as `_<name>` (vector.<name>, translate/validators.py
    # BATCH_HELPERS): the generated module binds only these
    helpers: set[str] = field(default_factory=set)
    _returns: ScalarType = BOOL

    def call(self, helper: str, *args: object) -> str:
        """A call of runtime helper `helper` (`_gather`, `_isin`, ...), noted in `helpers`."""
        self.helpers.add(helper)
        return f"{helper}({', '.join(map(str, args))})"

    def tmp(self, prefix: str = "_t") -> str:
        """A fresh local name (`prefix` and a counter), unique within this emitter."""
        self._n += 1
        return f"{prefix}{self._n}"

    # -- expressions -----------------------------------------------------------------------
    def offset(self, buf: str, off: Offset) -> tuple[str, bool]:
        """(expression, is_dynamic) of a byte offset."""
        parts = [f"{buf}_o"]
        dynamic = False
        if off.const:
            parts.append(str(off.const))
        for e, stride in off.terms:
            dynamic = True
            x = f"{self.expr(e)}.astype(np.int64)" if not isinstance(e, Const) else str(e.value)
            parts.append(f"{x} * {stride}" if stride != 1 else x)
        return " + ".join(parts), dynamic

    def load(self, e: Load) -> str:
        """The column of a field read `e` over every lane: a view of the word bytes at a
        fixed offset, or a gather at a per-lane offset, then the bit-field's shift and mask and the
        C type's conversion."""
        W = f"{e.view.buf}_W"
        off, dynamic = self.offset(e.view.buf, e.view.offset)
        if dynamic:
            byte = self.call("_gather", W, off, e.size)
            raw = byte
            if e.bit_width is None and e.t.kind in ("int", "bool") and e.size <= 8:
                val = (
                    raw
                    if e.t.kind != "int" or (e.size == 1 and not e.t.signed)
                    else f"{raw}.astype({np_dtype(e.t)})"
                )
                if e.t.kind == "bool":
                    return f"({raw} != 0)"
                if e.t.signed and e.size == 1:
                    val = f"{raw}.astype(np.int8)"
                return val
            if e.bit_width is None:
                return self.call(
                    "_gather_as", W, off, e.size, repr(_VIEW[(e.t.kind, e.t.bits, e.t.signed)])
                )
        elif e.bit_width is not None:  # a bit-field: its bytes as one integer, then the bits
            raw = self.fixed_bytes(W, off, e.size)
        if e.bit_width is not None:
            val = f"(({raw} >> {e.bit_offset}) & {hex((1 << e.bit_width) - 1)})"
            val = f"{val}.astype({np_dtype(e.t)})"
            if e.t.signed and e.t.kind == "int":
                half = 1 << (e.bit_width - 1)
                val = f"(({val} ^ {half}) - {half}).astype({np_dtype(e.t)})"
            return val
        t = e.t
        if t.kind == "bool":
            return f"({self.call('_byte', W, off)} != 0)"
        if t.kind == "int" and t.bits == 8:
            byte = self.call("_byte", W, off)
            return byte if not t.signed else f"{byte}.view(np.int8)"
        return self.call("_colv", W, off, repr(_VIEW[(t.kind, t.bits, t.signed)]))

    def fixed_bytes(self, words: str, off: str, size: int) -> str:
        """The `size` bytes at a fixed offset of each word as one unsigned integer per word."""
        return self.call("_byte", words, off) if size == 1 else self.call("_col", words, off, size)

    def const(self, e: Const) -> str:
        """A C constant as a numpy scalar of its C type (NaN and infinities spelt so they
        survive repr)."""
        if e.t.kind == "bool":
            return "True" if e.value else "False"
        if isinstance(e.value, float) and (math.isnan(e.value) or math.isinf(e.value)):
            return f"{np_dtype(e.t)}({'np.nan' if math.isnan(e.value) else 'np.inf' if e.value > 0 else '-np.inf'})"
        return f"{np_dtype(e.t)}({e.value!r})"

    def cmp_operand(self, e: Expr) -> str:
        """A comparison operand: a value-preserving integer widening is left to numpy's own
        (exact) promotion instead of an explicit astype copy; arithmetic still widens first."""
        if (
            isinstance(e, Conv)
            and e.t.kind == "int"
            and e.e.t.kind in ("int", "bool")
            and fits(e.e.t, e.t)
            and e.e.t.bits < 64
        ):
            return self.expr(e.e)
        return self.expr(e)

    def members(self, values: list[int] | tuple[int, ...]) -> str:
        """A module-level `Members` constant for a set of integers (see vector.isin)."""
        name = f"_K_{self._fn}_{len(self.module)}"
        self.module.append(f"{name} = {self.call('_Members', repr(tuple(sorted(set(values)))))}")
        return name

    def isin(self, e: Expr, values: list[int] | tuple[int, ...]) -> str:
        """`e` in `values`, lane by lane: a few comparisons or one 256-entry table, on the value
        before a widening conversion (a byte field stays a byte: the table is indexed by it)."""
        return self.call("_isin", _bare(self.cmp_operand(e)), self.members(values))

    def arg(self, e: Expr) -> str:
        """An expression placed as a whole argument of a call: no outer parentheses."""
        return _bare(self.expr(e))

    def expr(self, e: Expr) -> str:
        """The numpy expression of `e` over every lane; a subexpression nested past
        HOIST_DEPTH becomes a local function (see `hoist`) so the emitted code stays shallow."""
        if self._depth >= HOIST_DEPTH and not low(e, 3):
            return self.hoist(e)
        self._depth += 1
        try:
            out: str = dispatch(self, "expr", e)
        finally:
            self._depth -= 1
        return out

    def hoist(self, e: Expr) -> str:
        """`e` as a call of a local function defined before the statement (see PyEmitter.hoist)."""
        name = self.tmp("_sub")
        depth, self._depth = self._depth, 0
        try:
            body = self.arg(e)
        finally:
            self._depth = depth
        self.hoisted += [f"def {name}() -> Any:", f"    return {body}"]
        return f"{name}()"

    def take_hoisted(self, ind: str) -> list[str]:
        """The local functions hoisted so far, indented by `ind`; the list is emptied."""
        out = [ind + line for line in self.hoisted]
        self.hoisted = []
        return out

    def expr_Const(self, e: Const) -> str:
        """A constant: a numpy scalar of its C type."""
        return self.const(e)

    def expr_Var(self, e: Var) -> str:
        """A local variable: its array, by name."""
        return e.name

    def expr_Load(self, e: Load) -> str:
        """A field read: its column (see `load`)."""
        return self.load(e)

    def expr_Index(self, e: Index) -> str:
        """A constant table indexed per lane (the table is noted in `tables`)."""
        self.tables.add(e.name)
        # clipped: lanes whose C code would not have indexed (short-circuit) are discarded anyway
        return f"np.asarray({e.name}, dtype={np_dtype(e.t)})[np.clip({self.arg(e.index)}, 0, {len(e.values) - 1})]"

    def expr_Not(self, e: Not) -> str:
        """C's `!`: a lane-wise logical not."""
        return f"np.logical_not({self.arg(e.e)})"

    def expr_Logical(self, e: Logical) -> str:
        """`&&` / `||` over every lane: membership tests of one operand grouped into
        one `_isin`, the rest combined with `_all_of` / `_any_of` (no short circuit is needed:
        the lowered operands have no side effects, and a division guards its own zero lanes)."""
        terms = flatten(e, e.op)
        grouped = self.group_members(terms, e.op)
        if grouped is not None:
            rendered, originals = grouped
            if len(rendered) == 1:
                return rendered[0]
            fn = "_all_of" if e.op == "and" else "_any_of"
            self.helpers.add(fn)
            return (
                f"{fn}(\n"
                + "".join(
                    f"        {r},{reads_comment(o)}\n"
                    for r, o in zip(rendered, originals, strict=True)
                )
                + "    )"
            )
        if len(terms) > 2:  # a chain: one term per line, as the header and the scalar code have it
            fn = "_all_of" if e.op == "and" else "_any_of"
            self.helpers.add(fn)
            return (
                f"{fn}(\n"
                + "".join(f"        {self.arg(t)},{reads_comment([t])}\n" for t in terms)
                + "    )"
            )
        op = "np.logical_and" if e.op == "and" else "np.logical_or"
        return f"{op}({self.arg(e.a)}, {self.arg(e.b)})"

    def group_members(
        self, terms: list[Expr], op: str
    ) -> tuple[list[str], list[list[Expr]]] | None:
        """An `||` chain's `x == c` terms (an `&&` chain's `x != c`) on one integer operand `x`,
        three or more of them, as one membership test in place of the first; None when the chain
        has no such group. The terms are pure, so their order does not change the answer."""
        want = "==" if op == "or" else "!="
        groups: dict[Expr, list[int]] = {}
        values: dict[int, int] = {}  # term index -> the constant it compares with
        for k, t in enumerate(terms):
            if (
                isinstance(t, Compare)
                and t.op == want
                and isinstance(t.b, Const)
                and isinstance(t.b.value, int)
                and t.a.t.kind in ("int", "bool")
            ):
                groups.setdefault(t.a, []).append(k)
                values[k] = t.b.value
        groups = {x: ks for x, ks in groups.items() if len(ks) >= 3}
        if not groups:
            return None
        rendered: list[str] = []
        originals: list[list[Expr]] = []
        seen: set[int] = set()
        for k, t in enumerate(terms):
            if k in seen:
                continue
            x = t.a if isinstance(t, Compare) else None
            if x is not None and x in groups and groups[x][0] == k:
                ks = groups[x]
                seen.update(ks)
                test = self.isin(x, [values[j] for j in ks])
                rendered.append(test if op == "or" else f"np.logical_not({test})")
                originals.append([terms[j] for j in ks])
            else:
                rendered.append(self.arg(t))
                originals.append([t])
        return rendered, originals

    def expr_Compare(self, e: Compare) -> str:
        """A comparison; integer widenings are left to numpy's exact promotion."""
        return f"({self.cmp_operand(e.a)} {e.op} {self.cmp_operand(e.b)})"

    def expr_Cond(self, e: Cond) -> str:
        """C's `c ? a : b`: a lane-wise select."""
        return self.call("_select", self.arg(e.c), self.arg(e.a), self.arg(e.b))

    def expr_Call(self, e: Call) -> str:
        """A call of another translated function's batch form (`_v_<name>`); a struct
        view is passed as its word columns and byte offset."""
        args = []
        for a in e.args:
            if isinstance(a, View):
                off, _ = self.offset(a.buf, a.offset)
                args += [f"{a.buf}_W", off]
            else:
                args.append(self.arg(a))
        return f"_v_{e.fn}({', '.join(args)})"

    def expr_Unary(self, e: Unary) -> str:
        """Unary minus or bitwise not, in the operand's (already promoted) type."""
        x = self.expr(e.e)
        return f"(-{x})" if e.op == "-" else f"(~{x})"

    def expr_Binary(self, e: Binary) -> str:
        """An arithmetic or bitwise operator with C's semantics: shifts in the left
        operand's type, division and remainder truncating with zero lanes guarded
        (`_vdiv`/`_vmod`), an unsigned division by a constant as a shift, mask or floor division."""
        sa, sb = self.expr(e.a), self.expr(e.b)
        if e.op in ("<<", ">>") and e.b.t != e.t:
            # numpy has no uint64 << int32; C's result type is the left operand's anyway
            sb = (
                f"np.asarray({_bare(sb)}).astype({np_dtype(e.t)})"
                if not isinstance(e.b, Const)
                else f"{np_dtype(e.t)}({e.b.value!r})"
            )
        if (
            e.op in ("/", "%")
            and e.t.kind == "int"
            and not e.t.signed
            and isinstance(e.b, Const)
            and isinstance(e.b.value, int)
            and e.b.value > 0
        ):
            # an unsigned division by a positive constant: no zero lane to guard, and C's
            # truncation is numpy's floor; by a power of two, a shift or a mask
            d = e.b.value
            c = np_dtype(e.t)
            if d & (d - 1) == 0:
                return (
                    f"({sa} >> {c}({d.bit_length() - 1}))"
                    if e.op == "/"
                    else f"({sa} & {c}({d - 1}))"
                )
            return f"({sa} {'//' if e.op == '/' else '%'} {c}({d}))"
        if e.op == "/":
            return self.call("_vdiv" if e.t.kind == "int" else "_fdiv", _bare(sa), _bare(sb))
        if e.op == "%":
            return self.call("_vmod", _bare(sa), _bare(sb))
        return f"({sa} {e.op} {sb})"

    def expr_Conv(self, e: Conv) -> str:
        """A C conversion: to bool as `!= 0`, otherwise `astype` (numpy wraps integers as
        C's modular conversion does)."""
        xs = self.expr(e.e)
        if e.t.kind == "bool":
            return f"({xs} != 0)"
        return f"np.asarray({_bare(xs)}).astype({np_dtype(e.t)})"

    # -- statements ------------------------------------------------------------------------
    def function(self, f: LFunction) -> list[str]:
        """`f` as a numpy function over a batch of words, after the module-level constants it
        names; BatchUnsupported when it cannot be vectorised (the helpers its partial code
        called are then not counted in `helpers`)."""
        noted = set(self.helpers)
        try:
            return self._function(f)
        except BatchUnsupported:
            self.helpers = noted
            raise

    def _function(self, f: LFunction) -> list[str]:
        """The body of `function`: a single return, a switch that is a membership test or a table
        lookup, or a general body lowered lane by lane (masks for branches, `_done` for lanes
        that returned, `_ret` for their answer)."""
        params = []
        for p in f.params:
            params += (
                [f"{p.name}_W: Any", f"{p.name}_o: Any"]
                if p.struct is not None
                else [f"{p.name}: Any"]
            )
        self._fn = f.name
        self.module = []
        head = f"def _v_{f.name}({', '.join(params)}) -> Any:"
        if f.params:
            # asked again with the same arguments in one batch, it answers from the batch's memo
            # (vector.memo: the headers call their tensor and dtype checks repeatedly)
            self.helpers.add("_memo")
            head = f"@_memo\n{head}"
        body = f.body
        self.hoisted = []
        if len(body) == 1 and isinstance(body[0], Return) and body[0].e is not None:
            ret = self.arg(body[0].e)
            return self.with_module([head, *self.take_hoisted("    "), f"    return {ret}"])
        if (
            len(body) == 1
            and isinstance(body[0], Switch)
            and (member := self.switch_membership(body[0])) is not None
        ):
            return self.with_module([head, *self.take_hoisted("    "), f"    return {member}"])
        self.pre = []
        if (
            len(body) == 1
            and isinstance(body[0], Switch)
            and (table := self.switch_table(body[0], f.returns)) is not None
        ):
            return self.with_module(
                [head, *self.take_hoisted("    "), *self.pre, f"    return {table}"]
            )
        self.hoisted = []
        self.lines = []
        self.loops = []
        n_src = next((f"{p.name}_W.shape[0]" for p in f.params if p.struct is not None), None)
        if n_src is None:
            n_src = next(
                (f"np.shape({p.name})[0] if np.ndim({p.name}) else 1" for p in f.params), "1"
            )
        self.lines.append(f"    _N = {n_src}")
        self.lines.append("    _done = np.zeros(_N, dtype=np.bool_)")
        self.lines.append(f"    _ret = np.zeros(_N, dtype={np_dtype(f.returns)})")
        self._retired = False
        self._returns = f.returns
        self.block(body, "_ALL", "    ")
        if self.lines[-1] == "    _done = _done | _live":
            self.lines.pop()  # the last statement: nothing reads `_done` after it
        self.lines.append("    return _ret")
        text = "\n".join(self.lines)
        # a local every use of which went with an unrolled loop (its index) is not declared
        declare = [
            f"    {name} = np.zeros(_N, dtype={np_dtype(t)})"
            for name, t in f.locals
            if re.search(rf"\b{re.escape(name)}\b", text)
        ]
        self.lines[3:3] = declare
        return self.with_module([head, *self.lines])

    def with_module(self, lines: list[str]) -> list[str]:
        """The function's lines after the module-level constants it names (two blank lines
        between, as between functions)."""
        return [*self.module, "", "", *lines] if self.module else lines

    def switch_table(self, s: Switch, ret: ScalarType) -> str | None:
        """A switch on a byte-sized value whose every case returns a constant: one table lookup."""
        values: dict[int, int | float] = {}
        default: int | float | None = None
        for labels, body in s.cases:
            if (
                len(body) != 1
                or not isinstance(body[0], Return)
                or not isinstance(body[0].e, Const)
            ):
                return None
            v = body[0].e.value
            if labels is None:
                default = v
            else:
                values.update({lb: v for lb in labels})
        if default is None or not values or min(values) < 0 or max(values) > 255:
            return None
        table = [values.get(k, default) for k in range(256)]
        name = f"_T_{self._fn}_{len(self.module)}"
        self.module.append(f"{name} = np.array({table!r}, dtype={np_dtype(ret)})")
        key = _bare(self.cmp_operand(s.e))
        return self.call("_lookup", key, name, f"{np_dtype(ret)}({default!r})")

    def switch_membership(self, s: Switch) -> str | None:
        """A switch whose every case returns a constant bool (an is_valid_enum_* table), as one lookup."""
        true_labels: list[int] = []
        all_labels: list[int] = []
        default: bool | None = None
        for labels, body in s.cases:
            if (
                len(body) != 1
                or not isinstance(body[0], Return)
                or not isinstance(body[0].e, Const)
                or body[0].e.t.kind != "bool"
            ):
                return None
            if labels is None:
                default = bool(body[0].e.value)
            else:
                all_labels += labels
                if body[0].e.value:
                    true_labels += labels
        if default is None:
            return None
        if default:
            false_labels = sorted(set(all_labels) - set(true_labels))
            return (
                f"np.logical_not({self.isin(s.e, false_labels)})"
                if false_labels
                else f"np.ones(np.shape({self.arg(s.e)}), dtype=np.bool_)"
            )
        return (
            self.isin(s.e, true_labels)
            if true_labels
            else f"np.zeros(np.shape({self.arg(s.e)}), dtype=np.bool_)"
        )

    def block(self, body: tuple[Stmt, ...], mask: str, ind: str) -> None:
        """Emit the statements of `body` for the lanes in `mask`, indented by `ind`; an
        assignment followed by a loop over constant bounds is unrolled (see `unrolled`)."""
        k = 0
        while k < len(body):
            s = body[k]
            nxt = body[k + 1] if k + 1 < len(body) else None
            if isinstance(s, Assign) and isinstance(nxt, Loop):
                run = unrolled(s, nxt)
                if run is not None:
                    passes, last = run
                    for value in passes:
                        self.block(substitute(nxt.body, s.name, value), mask, ind)
                    if f"name={s.name!r}" in repr(body[k + 2 :]):
                        self.stmt(Assign(s.name, last, s.line), mask, ind)  # read after the loop
                    k += 2
                    continue
            self.stmt(s, mask, ind)
            k += 1

    def eff(self, mask: str) -> str:
        """The lanes a statement under `mask` runs for: inside a loop, minus the lanes that took a
        `continue` or `break` earlier in this pass (re-read at every statement, so a skip taken in
        a nested branch is seen by everything after it)."""
        if not self.loops:
            return mask
        skip = self.loops[-1][0]
        return f"(~{skip})" if mask == "_ALL" else f"({mask} & ~{skip})"

    def live(self, mask: str) -> str:
        """The lanes a statement under `mask` runs for that have not returned yet."""
        m = self.eff(mask)
        return "np.logical_not(_done)" if m == "_ALL" else f"({m} & ~_done)"

    def stmt(self, s: Stmt, mask: str, ind: str) -> None:
        """Emit statement `s` for the lanes in `mask` (dispatch by its class), with any
        local functions its expressions hoisted placed just before it."""
        start = len(self.lines)
        outer, self.hoisted = self.hoisted, []
        try:
            dispatch(self, "stmt", s, mask, ind)
            self.lines[start:start] = self.take_hoisted(ind)
        finally:
            self.hoisted = outer

    def stmt_Return(self, s: Return, mask: str, ind: str) -> None:
        """A return: the live lanes take the value (`_ret`) and are marked done
        (`_done`), so later statements skip them."""
        L = self.lines
        assert s.e is not None
        m = self.eff(mask)
        # before any lane has returned (no return emitted yet, outside a masked loop) `_done` is
        # all False: the lanes returning are the mask's
        live = m if not self._retired and not self.loops and m != "_ALL" else self.live(mask)
        L.append(f"{ind}_live = {live}")
        if self._returns.kind == "bool":
            # `_ret` is False in every lane still running, so the choice is an `or`
            if not isinstance(s.e, Const):
                L.append(f"{ind}_ret = _ret | (_live & {self.expr(s.e)})")
            elif s.e.value:
                L.append(f"{ind}_ret = _ret | _live")
        else:
            L.append(f"{ind}_ret = {self.call('_select', '_live', self.arg(s.e), '_ret')}")
        L.append(f"{ind}_done = _done | _live")
        self._retired = True

    def stmt_Assign(self, s: Assign, mask: str, ind: str) -> None:
        """An assignment: every lane when the mask is all of them, else a select that
        keeps the old value where the mask is off; the variable keeps its C type."""
        L = self.lines
        m = self.eff(mask)
        if m == "_ALL":
            L.append(
                f"{ind}{s.name} = {self.call('_fill', self.arg(s.e), '_N', f'{s.name}.dtype')}"
            )
        else:
            L.append(
                f"{ind}{s.name} = {self.call('_select', m, self.arg(s.e), s.name)}.astype({s.name}.dtype)"
            )

    def stmt_If(self, s: If, mask: str, ind: str) -> None:
        """An if: the condition once per lane, the then-block under `mask & c`, the
        else-block under `mask & ~c`."""
        L = self.lines
        c = self.tmp("_c")
        L.append(f"{ind}{c} = np.broadcast_to(np.asarray({self.arg(s.c)}), _done.shape)")
        m1, m2 = self.tmp("_m"), self.tmp("_m")
        m = self.eff(mask)
        base = "" if m == "_ALL" else f"{m} & "
        L.append(f"{ind}{m1} = {base}{c}")
        self.block(s.then, m1, ind)
        if s.orelse:
            L.append(f"{ind}{m2} = {base}~{c}")
            self.block(s.orelse, m2, ind)

    def stmt_Switch(self, s: Switch, mask: str, ind: str) -> None:
        """A switch without fall-through: each case block under the lanes whose value is
        one of its labels, `default:` under the lanes matching no label."""
        L = self.lines
        v = self.tmp("_sw")
        L.append(f"{ind}{v} = np.broadcast_to(np.asarray({self.arg(s.e)}), _done.shape)")
        labels_all: list[int] = []
        m = self.eff(mask)
        base = "" if m == "_ALL" else f"{m} & "
        default = None
        for labels, body in s.cases:
            if labels is None:
                default = body
                continue
            labels_all += labels
            cm = self.tmp("_m")
            test = (
                f"({v} == {labels[0]})"
                if len(labels) == 1
                else self.call("_isin", v, self.members(labels))
            )
            L.append(f"{ind}{cm} = {base}{test}")
            self.block(body, cm, ind)
        if default is not None:
            cm = self.tmp("_m")
            # a switch of only `default:` matches every lane (np.isin cannot take an empty table)
            rest = (
                f"~{self.call('_isin', v, self.members(labels_all))}"
                if labels_all
                else f"np.ones(np.shape({v}), dtype=np.bool_)"
            )
            L.append(f"{ind}{cm} = {base}{rest}")
            self.block(default, cm, ind)

    def stmt_Continue(self, s: Continue, mask: str, ind: str) -> None:
        """`continue`: the lanes taking it skip the rest of this pass."""
        self._jump("continue", mask, ind)

    def stmt_Break(self, s: Break, mask: str, ind: str) -> None:
        """`break`: the lanes taking it skip the rest of this pass and every later one."""
        self._jump("break", mask, ind)

    def _jump(self, what: str, mask: str, ind: str) -> None:
        """`continue` or `break`: the lanes that take it skip the rest of this pass (and, for
        `break`, every later one)."""
        if not self.loops:
            raise BatchUnsupported(f"{what} outside a loop")
        skip, brk = self.loops[-1]
        m = self.eff(mask)
        m = "np.logical_not(_done)" if m == "_ALL" else m
        if what == "break":
            # the lanes taking it, fixed before the skip mask changes (the effective mask reads it)
            taking = self.tmp("_jmp")
            self.lines.append(f"{ind}{taking} = {m}")
            m = taking
            self.lines.append(f"{ind}{brk} = {brk} | {m}")
        self.lines.append(f"{ind}{skip} = {skip} | {m}")

    def stmt_Loop(self, s: Loop, mask: str, ind: str) -> None:
        """A loop as a masked `while` that runs while any lane is still in it: the body
        under the lanes in the loop, then the step for those that did not break, then the
        condition again (loops are proven to terminate before they get here: translate/loops.py)."""
        L = self.lines
        lm, skip, brk = self.tmp("_lm"), self.tmp("_skip"), self.tmp("_brk")
        m = self.eff(mask)
        start = "np.logical_not(_done)" if m == "_ALL" else f"({m} & ~_done)"
        cond = f"np.broadcast_to(np.asarray({self.arg(s.c)}), _done.shape)"
        L.append(f"{ind}{lm} = {start} & {cond}")
        L.append(f"{ind}{brk} = np.zeros_like(_done)")
        L.append(f"{ind}while {lm}.any():")
        L.append(f"{ind}    {skip} = np.zeros_like(_done)")
        self.loops.append((skip, brk))
        self.block(s.body, lm, ind + "    ")
        self.loops.pop()
        # the step runs for every lane still in the loop that did not break (continue included)
        step_mask = self.tmp("_m")
        L.append(f"{ind}    {step_mask} = {lm} & ~{brk}")
        self.block(s.step, step_mask, ind + "    ")
        L.append(f"{ind}    {lm} = {lm} & ~{brk} & ~_done & {cond}")


UNROLL_LIMIT = 64  # passes: a longer constant loop stays a masked `while`


def unrolled(init: Assign, loop: Loop) -> tuple[list[Const], Const] | None:
    """The values the loop variable takes, pass by pass (and its value after), when `init; loop` is a loop every lane
    runs the same number of times: a constant start, a condition and step on that variable alone
    (run here, in C's arithmetic), a body that neither assigns it nor leaves the loop with
    `break` or `continue` (a `return` is a lane's own business: the masks handle it). Such a loop
    is emitted pass after pass with the variable a constant, so an array element it indexes is a
    column, not a per-row gather; None for any other loop."""
    name = init.name
    if not isinstance(init.e, Const) or not isinstance(init.e.value, int):
        return None
    if name in assigned(loop.body) or jumps(loop.body):
        return None
    if any(not isinstance(st, Assign) or st.name != name for st in loop.step) or not loop.step:
        return None
    t = init.e.t
    value = wrap(init.e.value, t)
    out: list[Const] = []
    while True:
        go = _const_eval(loop.c, name, value)
        if go is None or len(out) > UNROLL_LIMIT:
            return None
        if not go:
            return out, Const(value, t)
        out.append(Const(value, t))
        for st in loop.step:
            assert isinstance(st, Assign)
            nv = _const_eval(st.e, name, value)
            if nv is None:
                return None
            value = wrap(int(nv), t)


def wrap(v: int, t: ScalarType) -> int:
    """`v` reduced to the integer type `t`'s range, as a C conversion does."""
    if t.kind == "bool":
        return int(bool(v))
    v &= (1 << t.bits) - 1
    return v - (1 << t.bits) if t.signed and v >= 1 << (t.bits - 1) else v


def _const_eval(e: Expr, name: str, value: int) -> int | None:
    """An integer expression over the loop variable alone, evaluated (None: anything else)."""
    if isinstance(e, Const):
        return int(e.value) if isinstance(e.value, int) else None
    if isinstance(e, Var):
        return value if e.name == name else None
    if e.t.kind not in ("int", "bool"):
        return None
    if isinstance(e, Conv):
        x = _const_eval(e.e, name, value)
        return None if x is None else wrap(x, e.t)
    if isinstance(e, (Binary, Compare)):
        a, b = _const_eval(e.a, name, value), _const_eval(e.b, name, value)
        if a is None or b is None:
            return None
        if isinstance(e, Compare):
            return int(
                {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[
                    e.op
                ]
            )
        if e.op in ("+", "-", "*"):
            return wrap(a + b if e.op == "+" else a - b if e.op == "-" else a * b, e.t)
    return None


def substitute(body: tuple[Stmt, ...], name: str, value: Const) -> tuple[Stmt, ...]:
    """`body` with the variable `name` replaced by the constant `value`, the conversions and
    integer arithmetic of constants folded, and constant array indexes folded into offsets."""

    def go(x: Any) -> Any:
        if isinstance(x, Var) and x.name == name:
            return value
        if isinstance(x, tuple):
            return tuple(go(y) for y in x)
        if not dataclasses.is_dataclass(x) or isinstance(x, (ScalarType, type)):
            return x
        y = dataclasses.replace(
            x, **{f.name: go(getattr(x, f.name)) for f in dataclasses.fields(x)}
        )
        if isinstance(y, Offset):
            const = y.const
            terms = []
            for e, stride in y.terms:
                if isinstance(e, Const) and isinstance(e.value, int):
                    const += e.value * stride
                else:
                    terms.append((e, stride))
            return Offset(const, tuple(terms))
        if isinstance(y, (Conv, Binary)) and y.t.kind == "int":
            v = _const_eval(y, "", 0)
            if v is not None:
                return Const(v, y.t)
        return y

    out: tuple[Stmt, ...] = go(body)
    return out
