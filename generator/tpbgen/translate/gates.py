"""Opcode gates computed from the lowered bodies: the opcode bytes for which a top-level validator
can return true.

An abstract interpreter over the lowered IR (translate/lir.py) runs the validator with the
instruction's byte 0 ranging over a set of opcode bytes and every other byte unknown. Values are
known integers or UNKNOWN, or, where they depend on byte 0, a vector: pieces (value, mask of the
bytes that have it) (`_Vec`), or byte 0 itself (`_Opcode`, which comparisons with a constant,
conversions and switches handle as masks). Arithmetic, comparisons, joins, `&&`/`||` and `?:`
work piece by piece (expressions have no effects, so the side C would not evaluate is evaluated
and not taken). A branch, loop or switch whose decision differs between bytes of the set stops
the run, and the interpreter runs again once on each part of the set that decides alike (all
256 bytes first; 18-25 runs for a generation's validators instead of 256 each). So every byte
follows, in the run that decides its gate, the path and the values its own run with byte 0
fixed would have: the gate is the one interpreting once per byte gives (a recursive call, which
the headers do not have, gives up precision there as it did, perhaps at another depth: still
sound).

Within a run: an `if` whose condition is unknown runs both branches and joins what they assign; a
loop havocs what its body assigns; a `switch` on an unknown value runs every case; calls are
interpreted at any depth with their arguments (and with the instruction views they are passed, so
a helper that tests `h.opcode` through a `NEURON_ISA_TPB_HEADER` parameter is seen). The gate is
every byte for which some path can return a non-zero or unknown value.

The result is sound (an over-approximation of the true gate): a word outside the gate makes the
validator return false whatever its other bytes hold. For the headers' usual shapes (`opcode == X
&& ...`, early returns, accumulators, a switch on the opcode, dispatchers to per-opcode helpers) it
is exact. Floating point, division by zero and out-of-range shifts evaluate to UNKNOWN: never a
wrong "cannot".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from math import prod

from .analyses import assigned
from .c_semantics import ScalarType, wrap
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
Scalar = int | float | _Unknown


class _Vec(tuple[tuple["Scalar", int], ...]):
    """A value that depends on byte 0: (scalar, mask) pieces, each the value of the opcode bytes
    whose bits are set in its mask (bit v: byte v); the masks are disjoint, cover the run's bytes
    and are sorted. Never one piece (`_pieces` makes that its scalar), so never a value all the
    bytes of the run share."""

    __slots__ = ()


class _Opcode:
    """Byte 0 itself (through conversions that keep its value): for each byte v of `mask`, v.
    Compared with a constant, converted, or switched on, it costs a few mask operations;
    anything else spells it out as a `_Vec` of its bytes."""

    __slots__ = ("mask",)

    def __init__(self, mask: int) -> None:
        self.mask = mask

    def __eq__(self, other: object) -> bool:
        return type(other) is _Opcode and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(("opcode", self.mask))

    def pieces(self) -> _Vec:
        return _Vec((v, 1 << v) for v in _bytes_of(self.mask))


Value = Scalar | _Vec | _Opcode
Env = dict[str, Value]
_ALL = -1  # the mask of a scalar: every byte of the run


def _depends(v: Value) -> bool:
    """v differs between the bytes of the run."""
    return type(v) is _Vec or type(v) is _Opcode


def _pieces(values: Mapping[tuple[type, Scalar], int]) -> Scalar | _Vec:
    """The value with `values`' pieces ((type, scalar) -> mask): a scalar when there is one."""
    if len(values) == 1:
        ((_, only),) = values
        return only
    return _Vec(sorted(((v, m) for (_, v), m in values.items()), key=lambda p: p[1]))


def _map(f: Callable[..., Scalar], *xs: Value) -> Scalar | _Vec:
    """f applied byte by byte: on scalars as they are, on vectors once for each combination of
    pieces that some byte has."""
    if not any(_depends(x) for x in xs):
        return f(*xs)
    split = [_split_of(x) for x in xs]
    combos: list[tuple[int, tuple[Scalar, ...]]]
    if sum(len(p) > 1 for p in split) > 1 and prod(len(p) for p in split) > 256:
        combos = _byte_by_byte(split)  # fewer than the combinations the pieces could make
    else:
        combos = [(_ALL, ())]
        for pieces in split:
            combos = [(m & pm, (*vs, pv)) for m, vs in combos for pv, pm in pieces if m & pm]
    out: dict[tuple[type, Scalar], int] = {}
    for m, vs in combos:
        r = f(*vs)
        key = (type(r), r)
        out[key] = out.get(key, 0) | m
    return _pieces(out)


def _split_of(x: Value) -> Sequence[tuple[Scalar, int]]:
    """x's pieces: (scalar, mask)."""
    if type(x) is _Opcode:
        return x.pieces()
    if type(x) is _Vec:
        return x
    return ((x, _ALL),)  # type: ignore[return-value]


def _byte_by_byte(
    split: Sequence[Sequence[tuple[Scalar, int]]],
) -> list[tuple[int, tuple[Scalar, ...]]]:
    """The combinations of pieces that bytes have, found by looking at each byte."""
    run = next(_ALL & sum(m for _, m in p) for p in split if len(p) > 1)
    at = [{v: x for x, m in p for v in _bytes_of(m & run)} if len(p) > 1 else None for p in split]
    return [
        (1 << v, tuple(p[0][0] if a is None else a[v] for p, a in zip(split, at, strict=True)))
        for v in _bytes_of(run)
    ]


def _holds_byte(t: ScalarType) -> bool:
    """Converting any byte value 0..255 to t keeps it."""
    return t.kind == "int" and (t.bits > 8 or (t.bits == 8 and not t.signed))


def _low(n: int) -> int:
    """The mask of the bytes below n."""
    return (1 << max(0, min(n, 256))) - 1


_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _bytes_where(op: str, c: int) -> int:
    """The mask of the bytes v with `v op c`."""
    if op == "==":
        return 1 << c if 0 <= c < 256 else 0
    if op == "!=":
        return ~_bytes_where("==", c)
    return {"<": _low(c), "<=": _low(c + 1), ">": ~_low(c + 1), ">=": ~_low(c)}[op]


def _truth_of_mask(true: int, mask: int) -> Scalar | _Vec:
    """1 for the bytes of `mask` in `true`, 0 for the others."""
    return _pieces({k: m for k, m in (((int, 1), mask & true), ((int, 0), mask & ~true)) if m})


def _bytes_of(mask: int) -> list[int]:
    return [v for v in OPCODE_BYTES if mask >> v & 1]


class _Split(Exception):
    """The run's bytes decide a branch differently: run again on each part."""

    def __init__(self, parts: list[int]) -> None:  # each part a mask of opcode bytes
        super().__init__(parts)
        self.parts = parts


# -- scalar semantics: one byte's values ---------------------------------------------------------


def _truth(v: Scalar) -> Scalar:
    return UNKNOWN if isinstance(v, _Unknown) else int(v != 0)


def _join(a: Scalar, b: Scalar) -> Scalar:
    return a if b == a and type(b) is type(a) else UNKNOWN


def _not(v: Scalar) -> Scalar:
    t = _truth(v)
    return UNKNOWN if isinstance(t, _Unknown) else int(not t)


def _unary(op: str, t: ScalarType, v: Scalar) -> Scalar:
    if isinstance(v, (_Unknown, float)) or t.kind == "float":
        return UNKNOWN
    return wrap(-v if op == "-" else ~v, t)


def _binary(op: str, t: ScalarType, a: Scalar, b: Scalar) -> Scalar:
    if not (isinstance(a, int) and isinstance(b, int)) or t.kind == "float":
        return UNKNOWN
    if op in ("/", "%"):
        if b == 0:
            return UNKNOWN
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        return wrap(q if op == "/" else a - q * b, t)
    if op in ("<<", ">>"):
        if not 0 <= b < t.bits:
            return UNKNOWN
        return wrap(a << b if op == "<<" else a >> b, t)
    result = {"+": a + b, "-": a - b, "*": a * b, "&": a & b, "|": a | b, "^": a ^ b}.get(op)
    return UNKNOWN if result is None else wrap(result, t)


def _compare(op: str, a: Scalar, b: Scalar) -> Scalar:
    if isinstance(a, _Unknown) or isinstance(b, _Unknown):
        return UNKNOWN
    return int({"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op])


def _conv(t: ScalarType, v: Scalar) -> Scalar:
    if isinstance(v, _Unknown):
        return UNKNOWN
    if t.kind == "float":
        return float(v)
    if isinstance(v, float):
        return UNKNOWN
    return wrap(v, t)


def _join_env(a: Env | None, b: Env | None) -> Env | None:
    if a is None:
        return b
    if b is None:
        return a
    return {
        k: _map(_join, a[k], b[k]) if k in a and k in b else UNKNOWN for k in a.keys() | b.keys()
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


@covers("expr", EXPR_NODES)
@covers("stmt", STMT_NODES)
class _Interpreter:
    """One run over a generation's lowered functions, byte 0 ranging over the bytes of `mask`."""

    def __init__(
        self,
        functions: Mapping[str, LFunction],
        mask: int,
        instruction_param: str,
        shared: dict[tuple[object, ...], frozenset[Value]],
    ) -> None:
        self.functions = functions
        self.mask = mask
        # byte 0's value
        self.opcode: Value = _Opcode(mask) if mask & (mask - 1) else _bytes_of(mask)[0]
        self.instruction_param = instruction_param
        self.memo: dict[tuple[object, ...], frozenset[Value]] = {}
        self.shared = shared  # results that cannot depend on the opcode, kept across runs
        self.views: dict[str, int | None] = {}  # struct parameter -> its offset in the instruction
        self.active: set[tuple[object, ...]] = set()

    def decide(self, v: Value) -> Scalar:
        """v, which a decision is taken on, as the one scalar every byte of the run has; when
        the bytes differ, stop the run: it goes on as one run for each value."""
        if type(v) is _Opcode:
            v = v.pieces()
        if type(v) is _Vec:
            raise _Split([m for _, m in v])
        return v  # type: ignore[return-value]

    # -- functions -----------------------------------------------------------------------------

    def returns(
        self, fn: LFunction, args: Sequence[Value | None], views: Mapping[str, int | None]
    ) -> frozenset[Value]:
        """The values `fn` can return: scalar args known or UNKNOWN, `views` each struct
        parameter's byte offset into the instruction (None: not the instruction, or unknown)."""
        key = (fn.name, tuple(args), tuple(sorted(views.items())))
        byte_dependent = any(_depends(a) for a in args if a is not None)
        # without a view into the instruction or an argument that depends on it, nothing the
        # call does can read the opcode byte
        shareable = not byte_dependent and all(v is None for v in views.values())
        memo = self.shared if shareable else self.memo
        if key in memo:
            return memo[key]
        if key in self.active:  # recursion: give up on precision
            return frozenset({UNKNOWN})
        self.active.add(key)
        env: Env = {}
        k = 0
        for p in fn.params:
            if p.struct is None:
                arg = args[k] if k < len(args) else None
                env[p.name] = UNKNOWN if arg is None else arg
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

    def gate(self, fn: LFunction) -> set[int]:
        """The bytes of the run for which `fn` can return true."""
        views = {
            p.name: (0 if p.name == self.instruction_param else None)
            for p in fn.params
            if p.struct is not None
        }
        results = self.returns(fn, [], views)
        accepted = 0
        for r in results:
            for v, m in (
                r.pieces() if type(r) is _Opcode else r if type(r) is _Vec else ((r, self.mask),)
            ):
                if isinstance(v, _Unknown) or v != 0:
                    accepted |= m
        return set(_bytes_of(accepted & self.mask))

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
        c = self.decide(_map(_truth, self.expr(s.c, env)))
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
        c = self.decide(_map(lambda v: _truth(v) != 0, self.expr(s.c, havoc)))
        if c:
            body = self.block(s.body, havoc)
            out.returns |= body.returns
        out.normal = havoc  # leaves after any number of passes: every assigned name unknown
        return out

    def stmt_Switch(self, s: Switch, env: Env) -> _Flow:
        v = self.expr(s.e, env)
        if _depends(v):  # bytes that start at other cases go on in runs of their own
            parts = self._switch_parts(s, v)  # type: ignore[arg-type]
            (starts,) = parts if len(parts) == 1 else (None,)
            if starts is None:
                raise _Split(list(parts.values()))
        else:
            starts = self._switch_starts(s, v)  # type: ignore[arg-type]
        out = _Flow()
        for start in starts:
            # lowered cases do not fall through (lowering joined the bodies)
            flow = self.block(s.cases[start][1] if start < len(s.cases) else (), env)
            out.returns |= flow.returns
            out.cont = _join_env(out.cont, flow.cont)
            out.normal = _join_env(out.normal, _join_env(flow.normal, flow.brk))
        return out

    def _switch_parts(self, s: Switch, v: _Vec | _Opcode) -> dict[tuple[int, ...], int]:
        """The bytes (a mask) that start at each list of cases."""
        parts: dict[tuple[int, ...], int] = {}
        if type(v) is _Vec:
            for x, m in v:
                starts = self._switch_starts(s, x)
                parts[starts] = parts.get(starts, 0) | m
            return parts
        rest = v.mask  # type: ignore[union-attr]
        for k, (labels, _) in enumerate(s.cases):
            if labels is not None:
                hit = rest & sum(1 << x for x in set(labels) if isinstance(x, int) and 0 <= x < 256)
                if hit:
                    parts[(k,)] = parts.get((k,), 0) | hit
                    rest &= ~hit
        if rest:
            unmatched = next((k for k, lab in enumerate(s.cases) if lab[0] is None), len(s.cases))
            parts[(unmatched,)] = parts.get((unmatched,), 0) | rest
        return parts

    @staticmethod
    def _switch_starts(s: Switch, v: Scalar) -> tuple[int, ...]:
        """The cases a switch on v can start at (len(cases): none, the switch is skipped)."""
        labels = [lab for lab, _ in s.cases]
        if isinstance(v, _Unknown):
            starts = list(range(len(s.cases)))
            if not any(lab is None for lab in labels):
                starts.append(len(s.cases))  # no default: an unmatched value skips the switch
            return tuple(starts)
        hit = next((k for k, lab in enumerate(labels) if lab is not None and v in lab), None)
        if hit is None:
            hit = next((k for k, lab in enumerate(labels) if lab is None), len(s.cases))
        return (hit,)

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
            t = e.t
            if _holds_byte(t):
                return self.opcode
            return _map(lambda op: wrap(op, t) if t.kind != "bool" else int(op != 0), self.opcode)
        return UNKNOWN

    def expr_Unary(self, e: Unary, env: Env) -> Value:
        return _map(lambda v: _unary(e.op, e.t, v), self.expr(e.e, env))

    def expr_Not(self, e: Not, env: Env) -> Value:
        return _map(_not, self.expr(e.e, env))

    def expr_Binary(self, e: Binary, env: Env) -> Value:
        return _map(lambda a, b: _binary(e.op, e.t, a, b), self.expr(e.a, env), self.expr(e.b, env))

    def expr_Compare(self, e: Compare, env: Env) -> Value:
        a, b = self.expr(e.a, env), self.expr(e.b, env)
        if type(a) is _Opcode and type(b) is int:
            return _truth_of_mask(_bytes_where(e.op, b), a.mask)
        if type(b) is _Opcode and type(a) is int:
            return _truth_of_mask(_bytes_where(_FLIPPED[e.op], a), b.mask)
        return _map(lambda x, y: _compare(e.op, x, y), a, b)

    def expr_Logical(self, e: Logical, env: Env) -> Value:
        stop = 0 if e.op == "and" else 1
        a = _map(_truth, self.expr(e.a, env))
        if type(a) is not _Vec:
            if a == stop:  # C does not evaluate b
                return stop
            b = _map(_truth, self.expr(e.b, env))
            return b if a == 1 - stop else _map(lambda v: _either(stop, v), b)
        # a depends on byte 0: b is evaluated for every byte (it has no effects, and where a
        # stops, its value is not taken), each byte then takes what its own run would
        return _map(
            lambda x, y: stop if x == stop else y if x == 1 - stop else _either(stop, y),
            a,
            _map(_truth, self.expr(e.b, env)),
        )

    def expr_Cond(self, e: Cond, env: Env) -> Value:
        c = _map(_truth, self.expr(e.c, env))
        if type(c) is not _Vec:
            if c == 1:
                return self.expr(e.a, env)
            if c == 0:
                return self.expr(e.b, env)
        return _map(
            lambda x, a, b: a if x == 1 else b if x == 0 else _same(a, b),
            c,
            self.expr(e.a, env),
            self.expr(e.b, env),
        )

    def expr_Call(self, e: Call, env: Env) -> Value:
        fn = self.functions.get(e.fn)
        if fn is None:
            return UNKNOWN
        args: list[Value | None] = []
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
        if not any(_depends(r) for r in results):
            if len(results) == 1:
                (only,) = results
                return only
            return UNKNOWN
        return _map(lambda *vs: _only(set(vs)), *results)

    def expr_Conv(self, e: Conv, env: Env) -> Value:
        v = self.expr(e.e, env)
        if type(v) is _Opcode and _holds_byte(e.t):
            return v
        return _map(lambda x: _conv(e.t, x), v)

    def expr_Index(self, e: Index, env: Env) -> Value:
        values = e.values
        return _map(
            lambda i: values[i] if isinstance(i, int) and 0 <= i < len(values) else UNKNOWN,
            self.expr(e.index, env),
        )


def _either(stop: int, v: Scalar) -> Scalar:
    """`a && b` (stop 0) or `a || b` (stop 1) with a unknown and b's truth v."""
    return stop if v == stop else UNKNOWN


def _same(a: Scalar, b: Scalar) -> Scalar:
    """`c ? a : b` with c unknown."""
    return a if not isinstance(a, _Unknown) and type(a) is type(b) and a == b else UNKNOWN


def _only(values: set[Scalar]) -> Scalar:
    if len(values) == 1:
        (only,) = values
        return only
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
    gate: set[int] = set()
    pending = [(1 << len(OPCODE_BYTES)) - 1]
    while pending:  # each run either decides its bytes or splits them into parts that decide alike
        mask = pending.pop()
        try:
            gate |= _Interpreter(functions, mask, param, memo).gate(fn)
        except _Split as split:
            pending.extend(split.parts)
    return gate
