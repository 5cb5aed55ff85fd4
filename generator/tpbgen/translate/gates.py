"""Opcode gates computed from the lowered bodies: the opcode bytes for which a top-level validator
can return true.

An abstract interpreter over the lowered IR (translate/lir.py) runs the validator once per opcode
byte v (0..255) with the instruction's byte 0 fixed to v and every other byte unknown. Values are
known integers or UNKNOWN; an `if` whose condition is unknown runs both branches and joins what
they assign; a loop havocs what its body assigns; a `switch` on an unknown value runs every case;
calls are interpreted at any depth with their arguments (and with the instruction views they are
passed, so a helper that tests `h.opcode` through a `NEURON_ISA_TPB_HEADER` parameter is seen).
The gate is every v for which some path can return a non-zero or unknown value.

The result is sound (an over-approximation of the true gate): a word outside the gate makes the
validator return false whatever its other bytes hold. For the headers' usual shapes (`opcode == X
&& ...`, early returns, accumulators, a switch on the opcode, dispatchers to per-opcode helpers) it
is exact. Floating point, division by zero and out-of-range shifts evaluate to UNKNOWN: never a
wrong "cannot".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .analyses import assigned
from .c_semantics import wrap
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
    Return,
    Stmt,
    Switch,
    Unary,
    Var,
    View,
    covers,
    dispatch,
)

OPCODE_BYTES = range(256)


class _Unknown:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()
Value = int | float | _Unknown
Env = dict[str, Value]


def _join_env(a: Env | None, b: Env | None) -> Env | None:
    if a is None:
        return b
    if b is None:
        return a
    return {
        k: (a[k] if k in b and b[k] == a[k] and type(b[k]) is type(a[k]) else UNKNOWN)
        for k in a.keys() | b.keys()
    }


@dataclass
class _Flow:
    """What running a block can do: fall through (with an env), break, continue, return values."""

    normal: Env | None = None
    brk: Env | None = None
    cont: Env | None = None
    returns: set[Value] = field(default_factory=set)

    def merge(self, other: _Flow) -> None:
        self.normal = _join_env(self.normal, other.normal)
        self.brk = _join_env(self.brk, other.brk)
        self.cont = _join_env(self.cont, other.cont)
        self.returns |= other.returns


def _truth(v: Value) -> Value:
    return UNKNOWN if isinstance(v, _Unknown) else int(v != 0)


@covers("expr", EXPR_NODES)
@covers("stmt", STMT_NODES)
class _Interpreter:
    """One opcode byte's run over a generation's lowered functions."""

    def __init__(
        self,
        functions: Mapping[str, LFunction],
        opcode: int,
        instruction_param: str,
        shared: dict[tuple[object, ...], frozenset[Value]],
    ) -> None:
        self.functions = functions
        self.opcode = opcode
        self.instruction_param = instruction_param
        self.memo: dict[tuple[object, ...], frozenset[Value]] = {}
        self.shared = shared  # results that cannot depend on the opcode, kept across opcodes
        self.views: dict[str, int | None] = {}  # struct parameter -> its offset in the instruction
        self.active: set[tuple[object, ...]] = set()

    # -- functions -----------------------------------------------------------------------------

    def returns(
        self, fn: LFunction, args: Sequence[Value | int | None], views: Mapping[str, int | None]
    ) -> frozenset[Value]:
        """The values `fn` can return: scalar args known or UNKNOWN, `views` each struct
        parameter's byte offset into the instruction (None: not the instruction, or unknown)."""
        key = (fn.name, tuple(args), tuple(sorted(views.items())))
        # without a view into the instruction, nothing the call does can read the opcode byte
        memo = self.shared if all(v is None for v in views.values()) else self.memo
        if key in memo:
            return memo[key]
        if key in self.active:  # recursion: give up on precision
            return frozenset({UNKNOWN})
        self.active.add(key)
        env: Env = {}
        k = 0
        for p in fn.params:
            if p.struct is None:
                env[p.name] = args[k] if k < len(args) and args[k] is not None else UNKNOWN  # type: ignore[assignment]
                k += 1
        for name, _t in fn.locals:
            env.setdefault(name, UNKNOWN)
        saved = self.views
        self.views = dict(views)
        flow = self.block(fn.body, env)
        self.views = saved
        out = set(flow.returns)
        if flow.normal is not None:  # falling off the end of a non-void function: anything
            out.add(UNKNOWN)
        result = frozenset(out)
        self.active.discard(key)
        memo[key] = result
        return result

    def can_return_true(self, fn: LFunction) -> bool:
        views = {
            p.name: (0 if p.name == self.instruction_param else None)
            for p in fn.params
            if p.struct is not None
        }
        return any(isinstance(v, _Unknown) or v != 0 for v in self.returns(fn, [], views))

    # -- statements ----------------------------------------------------------------------------

    def block(self, body: Sequence[Stmt], env: Env) -> _Flow:
        out = _Flow()
        cur: Env | None = dict(env)
        for s in body:
            if cur is None:
                break
            f: _Flow = dispatch(self, "stmt", s, cur)
            out.brk = _join_env(out.brk, f.brk)
            out.cont = _join_env(out.cont, f.cont)
            out.returns |= f.returns
            cur = f.normal
        out.normal = cur
        return out

    def stmt_Return(self, s: Return, env: Env) -> _Flow:
        return _Flow(returns={self.expr(s.e, env) if s.e is not None else UNKNOWN})

    def stmt_Assign(self, s: Assign, env: Env) -> _Flow:
        env = dict(env)
        env[s.name] = self.expr(s.e, env)
        return _Flow(normal=env)

    def stmt_If(self, s: If, env: Env) -> _Flow:
        c = _truth(self.expr(s.c, env))
        if c == 1:
            return self.block(s.then, env)
        if c == 0:
            return self.block(s.orelse, env)
        flow = self.block(s.then, env)
        flow.merge(self.block(s.orelse, env))
        return flow

    def stmt_Loop(self, s: Loop, env: Env) -> _Flow:
        havoc = dict(env)
        for name in assigned(s.body) | assigned(s.step):
            havoc[name] = UNKNOWN
        out = _Flow()
        c = _truth(self.expr(s.c, havoc))
        if c != 0:
            body = self.block(s.body, havoc)
            out.returns |= body.returns
        out.normal = havoc  # leaves after any number of passes: every assigned name unknown
        return out

    def stmt_Switch(self, s: Switch, env: Env) -> _Flow:
        v = self.expr(s.e, env)
        labels = [lab for lab, _ in s.cases]
        if isinstance(v, _Unknown):
            starts = list(range(len(s.cases)))
            if not any(lab is None for lab in labels):
                starts.append(len(s.cases))  # no default: an unmatched value skips the switch
        else:
            hit = next((k for k, lab in enumerate(labels) if lab is not None and v in lab), None)
            if hit is None:
                hit = next((k for k, lab in enumerate(labels) if lab is None), len(s.cases))
            starts = [hit]
        out = _Flow()
        for start in starts:  # lowered cases do not fall through (lowering joined the bodies)
            flow = self.block(s.cases[start][1] if start < len(s.cases) else (), env)
            out.returns |= flow.returns
            out.cont = _join_env(out.cont, flow.cont)
            out.normal = _join_env(out.normal, _join_env(flow.normal, flow.brk))
        return out

    def stmt_Break(self, s: Break, env: Env) -> _Flow:
        return _Flow(brk=dict(env))

    def stmt_Continue(self, s: Continue, env: Env) -> _Flow:
        return _Flow(cont=dict(env))

    # -- expressions ---------------------------------------------------------------------------

    def expr(self, e: Expr, env: Env) -> Value:
        v: Value = dispatch(self, "expr", e, env)
        return v

    def expr_Const(self, e: Const, env: Env) -> Value:
        return e.value

    def expr_Var(self, e: Var, env: Env) -> Value:
        return env.get(e.name, UNKNOWN)

    def expr_Load(self, e: Load, env: Env) -> Value:
        base = self.views.get(e.view.buf)
        if base is None or e.view.offset.terms or e.bit_width is not None:
            return UNKNOWN
        if base + e.view.offset.const == 0 and e.size == 1 and e.t.kind != "float":
            return wrap(self.opcode, e.t) if e.t.kind != "bool" else int(self.opcode != 0)
        return UNKNOWN

    def expr_Unary(self, e: Unary, env: Env) -> Value:
        v = self.expr(e.e, env)
        if isinstance(v, (_Unknown, float)) or e.t.kind == "float":
            return UNKNOWN
        return wrap(-v if e.op == "-" else ~v, e.t)

    def expr_Not(self, e: Not, env: Env) -> Value:
        v = _truth(self.expr(e.e, env))
        return UNKNOWN if isinstance(v, _Unknown) else int(not v)

    def expr_Binary(self, e: Binary, env: Env) -> Value:
        a, b = self.expr(e.a, env), self.expr(e.b, env)
        if not (isinstance(a, int) and isinstance(b, int)) or e.t.kind == "float":
            return UNKNOWN
        op = e.op
        if op in ("/", "%"):
            if b == 0:
                return UNKNOWN
            q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
            return wrap(q if op == "/" else a - q * b, e.t)
        if op in ("<<", ">>"):
            if not 0 <= b < e.t.bits:
                return UNKNOWN
            return wrap(a << b if op == "<<" else a >> b, e.t)
        result = {"+": a + b, "-": a - b, "*": a * b, "&": a & b, "|": a | b, "^": a ^ b}.get(op)
        return UNKNOWN if result is None else wrap(result, e.t)

    def expr_Compare(self, e: Compare, env: Env) -> Value:
        a, b = self.expr(e.a, env), self.expr(e.b, env)
        if isinstance(a, _Unknown) or isinstance(b, _Unknown):
            return UNKNOWN
        return int(
            {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[e.op]
        )

    def expr_Logical(self, e: Logical, env: Env) -> Value:
        a = _truth(self.expr(e.a, env))
        stop = 0 if e.op == "and" else 1
        if a == stop:
            return stop
        b = _truth(self.expr(e.b, env))
        if a == 1 - stop:
            return b
        return stop if b == stop else UNKNOWN

    def expr_Cond(self, e: Cond, env: Env) -> Value:
        c = _truth(self.expr(e.c, env))
        if c == 1:
            return self.expr(e.a, env)
        if c == 0:
            return self.expr(e.b, env)
        a, b = self.expr(e.a, env), self.expr(e.b, env)
        return a if not isinstance(a, _Unknown) and type(a) is type(b) and a == b else UNKNOWN

    def expr_Call(self, e: Call, env: Env) -> Value:
        fn = self.functions.get(e.fn)
        if fn is None:
            return UNKNOWN
        args: list[Value | int | None] = []
        views: dict[str, int | None] = {}
        struct_params = [p for p in fn.params if p.struct is not None]
        scalar_args = [a for a in e.args if not isinstance(a, View)]
        view_args = [a for a in e.args if isinstance(a, View)]
        for a in scalar_args:
            args.append(self.expr(a, env))
        for p, v in zip(struct_params, view_args, strict=False):
            base = self.views.get(v.buf)
            views[p.name] = None if base is None or v.offset.terms else base + v.offset.const
        results = self.returns(fn, args, views)
        if len(results) == 1:
            (only,) = results
            return only
        return UNKNOWN

    def expr_Conv(self, e: Conv, env: Env) -> Value:
        v = self.expr(e.e, env)
        if isinstance(v, _Unknown):
            return UNKNOWN
        if e.t.kind == "float":
            return float(v)
        if isinstance(v, float):
            return UNKNOWN
        return wrap(v, e.t)

    def expr_Index(self, e: Index, env: Env) -> Value:
        i = self.expr(e.index, env)
        if isinstance(i, int) and 0 <= i < len(e.values):
            return e.values[i]
        return UNKNOWN


def opcode_gate(
    fn: LFunction,
    functions: Mapping[str, LFunction],
    shared: dict[tuple[object, ...], frozenset[object]] | None = None,
) -> set[int]:
    """The opcode bytes for which `fn` (a top-level validator: one instruction parameter) can
    return true. `shared` keeps opcode-independent results across calls (one per generation)."""
    param = next(p.name for p in fn.params if p.struct is not None)
    memo: dict[tuple[object, ...], frozenset[Value]] = shared if shared is not None else {}  # type: ignore[assignment]
    return {v for v in OPCODE_BYTES if _Interpreter(functions, v, param, memo).can_return_true(fn)}
