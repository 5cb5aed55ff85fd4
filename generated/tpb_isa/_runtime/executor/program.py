"""A program's words prepared together: operand columns, and the TensorScalar words that run as
one C call.

``Executor.run_program`` reads each opcode's operands as numpy columns (``layout.columns_reader``
and the batch converters of ``machine.py``), so no word is admitted one at a time. A handler's
method with a *planner* here (:data:`PLANNERS`) gets the rows whose call would be the prepared
fast path (``Engine.prepare_tensor_scalar``: immediate addresses and scalars, plain-stride walks
that do not overlap, no error) worked out as one row each of an int64 record array, and runs of
consecutive such rows are one call into C (``tpb_run_ts``), which calls the same kernel with the
same arguments the prepared call would, in order, with the same rounding keys. Every other row is
prepared by ``Engine.prepare`` from its operands, as ``run()`` does. The planner is conservative:
a row it is unsure of (a walk that may overlap its source, say) goes the per-word way, which is
the reference.

``info_batch``'s footprints use the same columns (:data:`PLANNED_WALKS`): for six Engine methods,
the rows whose call cannot fail and their walks (``access.walk_columns`` with gathers and empty
walks, and the scalars' pointer reads), worked out over all the rows at once; every other row
calls the method. The walks' rules are access.py's, one definition for both forms.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from . import admission, alu
from . import dtypes as dt
from .access import (
    MARKER_INDIRECT,
    MARKER_SHAPE_REG,
    MARKERS_NOT_IMMEDIATE,
    WalkColumns,
    addr4_fields,
    resolve_addr4_columns,
    walk_columns,
)
from .errors import ExecutorError
from .kernels import (
    ACCUM_ACCUMULATE,
    ACCUM_IDLE,
    ACCUM_LOAD_ACCUMULATE,
    ACCUM_ZERO,
    ACCUM_ZERO_ACCUMULATE,
    IMM_INSTRUCTION,
    IMM_POINTER,
    REDUCE_ARITH_OPS,
    REDUCE_BITVEC_OPS,
    REV_BOTH,
    REV_FIRST,
    REV_NONE,
    REV_SECOND,
    Engine,
    Imm,
    Pattern,
)
from .numerics import Numerics
from .operands import (
    EngineOperands,
    ExponentialOperands,
    ImmLoadOperands,
    PtrMultiOperands,
    ScalarTensorTensorOperands,
    TensorReduceOperands,
    TensorScalarCacheOperands,
    TensorScalarOperands,
    TensorTensorOperands,
    TensorTensorScanOperands,
)

I64 = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

# one record of tpb_run_ts (tpb_kernels.h), int64 each
REC_FIELDS = (
    "bitvec", "in_code", "out_code", "op0", "op1", "rev0", "rev1",
    "src_region", "src_off", "src_rs", "src_es", "dst_region", "dst_off", "dst_rs", "dst_es",
    "n", "N", "s0", "s1",
)  # fmt: skip
REC = len(REC_FIELDS)
_F = {name: k for k, name in enumerate(REC_FIELDS)}
#: the most channels a record may have (the kernel's scalars live on the C stack)
MAX_CHANNELS = 4096


@dataclass(frozen=True)
class PatternColumn:
    """The ``pattern`` operand of N words: start addresses (N,), steps and counts (N, dims)."""

    start: I64
    steps: I64
    nums: I64

    def values(self, rows: npt.NDArray[np.int64] | None = None) -> list[Pattern]:
        """One Pattern a row (of `rows` only, when given)."""
        start, steps, nums = self.start, self.steps, self.nums
        if rows is not None:
            start, steps, nums = start[rows], steps[rows], nums[rows]
        return [
            Pattern(a, tuple(s), tuple(n))
            for a, s, n in zip(start.tolist(), steps.tolist(), nums.tolist(), strict=True)
        ]


@dataclass(frozen=True)
class ImmColumn:
    """The ``imm``/``imm_ptr`` operand of N words: semantic source codes and raw bits."""

    src: I64
    bits: I64

    def values(self, rows: npt.NDArray[np.int64] | None = None) -> list[Imm]:
        """One Imm a row (of `rows` only, when given)."""
        src, bits = (self.src, self.bits) if rows is None else (self.src[rows], self.bits[rows])
        return [Imm(s, b) for s, b in zip(src.tolist(), bits.tolist(), strict=True)]


def values(column: Any, rows: npt.NDArray[np.int64] | None = None) -> list[Any]:
    """One engine argument per row (of `rows` only, when given), as the per-word binder makes
    them."""
    if isinstance(column, np.ndarray):
        out: list[Any] = (column if rows is None else column[rows]).tolist()
        return out
    if isinstance(column, list):
        return column if rows is None else [column[j] for j in rows.tolist()]
    got: list[Any] = column.values(rows)
    return got


def _table(members: Any, size: int = 256) -> Bools:
    t = np.zeros(size, np.bool_)
    for m in members:
        if 0 <= int(m) < size:
            t[int(m)] = True
    return t


def _code_table(fn: Callable[[int], Any], size: int = 256) -> I64:
    """fn(code) for every code, -1 where it raises (ExecutorError, or dtypes.DtypeError)."""
    t = np.full(size, -1, np.int64)
    for c in range(size):
        with contextlib.suppress(ExecutorError, ValueError):
            t[c] = int(fn(c))
    return t


_SIZE = _code_table(dt.size)  # dtype code -> element bytes, -1 for a dtype the executor refuses
_INT = _table(dt.INT_CODES)
_ARITH = _table(alu.ARITH_OPS)
_BITVEC = _table(alu.BITVEC_OPS)
_NO_SCALAR = _table({alu.BYPASS, *alu.UNARY_OPS})


def _small(col: I64, ok: Bools) -> tuple[I64, Bools]:
    """A code column clipped into 0..255 for table look-ups; `ok` cleared where it was not."""
    inside = (col >= 0) & (col < 256)
    return np.where(inside, col, 0), ok & inside


def _walks(
    engine: Engine, p: PatternColumn, isz: I64, nch: I64, ok: Bools, gathers: bool = False
) -> tuple[WalkColumns, Bools]:
    """`Engine._walk` of every row (`access.resolve_addr4`, then `access.walk`), by their column
    forms: the rows of an immediate address only (a register's is left to the method)."""
    immediate, addr = resolve_addr4_columns(p.start, engine.memory.mask)
    return walk_columns(engine.memory, addr, p.steps, p.nums, isz, nch, ok & immediate, gathers)


@dataclass
class PlannedWalk:
    """One walk of every planned row: whether the instruction writes it, the walk, its
    element size in bytes, its partitions (num_active_channels) and the pattern's steps and
    counts."""

    writes: bool
    walk: WalkColumns
    itemsize: I64
    nparts: I64
    steps: I64  # the pattern's steps and counts, (N, dims): a gather's offsets
    nums: I64
    active: Bools | None = None  # the rows that make this walk (None: every planned row)


def plan_tensor_scalar(
    engine: Engine, fixed: dict[str, Any], cols: dict[str, Any], n: int
) -> tuple[Bools, I64]:
    """(rows whose prepared call is the fast path, their records): the conditions of
    `Engine._prepared_tensor_scalar`, every check of `_ts_operands` and `access.walk` on the
    way, over columns."""
    ok, r, _ = _plan_tensor_scalar(engine, fixed, cols, n)
    return ok, r


def walks_tensor_scalar(
    engine: Engine, fixed: dict[str, Any], cols: dict[str, Any], n: int
) -> tuple[Bools, list[PlannedWalk]]:
    """`plan_tensor_scalar`'s rows and the walks their records run on (the source read, the
    destination written): every access of a planned row (its scalars are in the instruction,
    its addresses immediate), so its footprint (`info_batch`)."""
    ok, _, walks = _plan_tensor_scalar(engine, fixed, cols, n, footprint=True)
    return ok, walks


#: the most elements a gather walk may have for `walks_tensor_scalar` to expand it with the
#: others (a larger one is left to the Engine method: its offsets are one array anyway)
MAX_PLANNED_GATHER = 1 << 12


def _plan_tensor_scalar(
    engine: Engine, fixed: dict[str, Any], cols: dict[str, Any], n: int, footprint: bool = False
) -> tuple[Bools, I64, list[PlannedWalk]]:
    """With `footprint`, the rows whose call resolves every access without an error (what
    `tensor_scalar` checks before its kernel), gathers and overlapping walks included: for
    their footprints, not for records to run."""
    bitvec = bool(fixed["bitvec"])
    src, dst = cols["src"], cols["dst"]
    imm0, imm1 = cols["imm0"], cols["imm1"]
    if not all(isinstance(c, PatternColumn) for c in (src, dst)) or not all(
        isinstance(c, ImmColumn) for c in (imm0, imm1)
    ):
        return np.zeros(n, np.bool_), np.zeros((n, REC), np.int64), []
    ok = np.ones(n, np.bool_)
    nch = np.asarray(cols["num_active_channels"], np.int64)
    ok &= (nch >= 1) & (nch <= min(engine.memory.channels, MAX_CHANNELS))
    in_c, ok = _small(np.asarray(cols["in_dtype"], np.int64), ok)
    out_c, ok = _small(np.asarray(cols["out_dtype"], np.int64), ok)
    op0, ok = _small(np.asarray(cols["op0"], np.int64), ok)
    op1, ok = _small(np.asarray(cols["op1"], np.int64), ok)
    rev = np.asarray(cols["reverse"], np.int64)
    ok &= (rev >= 0) & (rev <= 3)
    isz, osz = _SIZE[in_c], _SIZE[out_c]
    ok &= (isz > 0) & (osz > 0)
    if bitvec:
        ok &= _BITVEC[op0] & _BITVEC[op1] & (in_c == out_c) & _INT[in_c]
    else:
        ok &= _ARITH[op0] & _ARITH[op1]
    uses0, uses1 = ~_NO_SCALAR[op0], ~_NO_SCALAR[op1]
    # a scalar in the instruction; for a footprint also one read through an immediate pointer
    # (`Engine._pointer`: the 32 bits as the address, `walk` of one element on every channel)
    ptr0 = uses0 & (imm0.src == IMM_POINTER) & footprint
    ptr1 = uses1 & (imm1.src == IMM_POINTER) & footprint
    ok &= ~uses0 | (imm0.src == IMM_INSTRUCTION) | ptr0
    ok &= ~uses1 | (imm1.src == IMM_INSTRUCTION) | ptr1
    sw, ok = _walks(engine, src, isz, nch, ok, footprint)
    dw, ok = _walks(engine, dst, osz, nch, ok, footprint)
    ok &= sw.count == dw.count
    if footprint:
        ok &= ~(sw.gather | dw.gather) | (sw.count <= MAX_PLANNED_GATHER)
        walks = [
            PlannedWalk(False, sw, isz, nch, src.steps, src.nums),
            PlannedWalk(True, dw, osz, nch, dst.steps, dst.nums),
        ]
        # the scalars' pointers, in `_ts_scalars`' element size (fp32, or the dtype's bits)
        ssz = isz if bitvec else np.full(n, 4, np.int64)
        for imm, ptr in ((imm0, ptr0), (imm1, ptr1)):
            if ptr.any():
                pw, ok = _pointer_walk(engine, imm, ptr, ssz, nch, ok, n)
                walks.append(pw)
        return ok, np.zeros((0, REC), np.int64), walks
    # the destination must share no byte with the source (a conservative test: the exact one
    # is the per-word path's)
    overlap = (
        (sw.region == dw.region)
        & (sw.part < dw.part + nch)
        & (dw.part < sw.part + nch)
        & (sw.lo < dw.hi)
        & (dw.lo < sw.hi)
    )
    ok &= ~overlap
    mask = np.where(
        isz >= 4, 0xFFFFFFFF, (np.int64(1) << (8 * np.maximum(isz, 1))) - 1
    ) if bitvec else np.int64(0xFFFFFFFF)  # fmt: skip
    r = np.zeros((n, REC), np.int64)
    r[:, _F["bitvec"]] = int(bitvec)
    r[:, _F["in_code"]] = in_c
    r[:, _F["out_code"]] = out_c
    r[:, _F["op0"]] = op0
    r[:, _F["op1"]] = op1
    r[:, _F["rev0"]] = rev & 1
    r[:, _F["rev1"]] = (rev >> 1) & 1
    for name, w in (("src", sw), ("dst", dw)):
        r[:, _F[f"{name}_region"]] = w.region
        r[:, _F[f"{name}_off"]] = w.off
        r[:, _F[f"{name}_rs"]] = w.rs
        r[:, _F[f"{name}_es"]] = w.es
    r[:, _F["n"]] = nch
    r[:, _F["N"]] = sw.count
    r[:, _F["s0"]] = np.where(uses0, imm0.bits & mask, 0)
    r[:, _F["s1"]] = np.where(uses1, imm1.bits & mask, 0)
    return ok, r, []


def _pointer_walk(
    engine: Engine, imm: ImmColumn, ptr: Bools, size: I64, nch: I64, ok: Bools, n: int
) -> tuple[PlannedWalk, Bools]:
    """The one-element walk on every channel of a scalar read through an immediate pointer
    (`Engine._pointer`: the 32 bits are the address, `walk` of it) for the rows `ptr`; `ok`
    cleared where it errs."""
    bits = imm.bits & 0xFFFFFFFF
    one = np.ones((n, 1), np.int64)
    pw, pok = walk_columns(engine.memory, bits, one, one, size, nch, ptr & ok, True)
    return PlannedWalk(False, pw, size, nch, one, one, ptr), ok & (~ptr | pok)


def _walks_two_sources(
    record: type[EngineOperands],
) -> Callable[[Engine, dict[str, Any], dict[str, Any], int], tuple[Bools, list[PlannedWalk]]]:
    """The footprint planner of `tensor_tensor`, `scalar_tensor_tensor` or
    `tensor_tensor_scan`: the rows whose call resolves every access without an error (the
    checks of the method and of `Engine._two_plan`, over columns; immediate addresses, a scalar
    in the instruction or behind an immediate pointer) and their walks (src0, src1, the
    scalar's pointer read; dst written)."""

    def plan(
        engine: Engine, fixed: dict[str, Any], cols: dict[str, Any], n: int
    ) -> tuple[Bools, list[PlannedWalk]]:
        def col(name: str, default: int) -> I64:
            v = cols.get(name, fixed.get(name, default))
            return np.asarray(v, np.int64) * np.ones(n, np.int64)

        pats = [cols.get(k) for k in ("src0", "src1", "dst")]
        imm0 = cols.get("imm0", ImmColumn(np.zeros(n, np.int64), np.zeros(n, np.int64)))
        if not all(isinstance(c, PatternColumn) for c in pats) or not isinstance(imm0, ImmColumn):
            return np.zeros(n, np.bool_), []
        src0, src1, dst = pats
        assert isinstance(src0, PatternColumn) and isinstance(src1, PatternColumn)
        assert isinstance(dst, PatternColumn)
        bitvec = bool(fixed.get("bitvec", False)) and record is not TensorTensorScanOperands
        ok = np.ones(n, np.bool_)
        if record is TensorTensorOperands:  # op0 BYPASS, op1 = op, NONE, no scalar
            op0 = np.full(n, alu.BYPASS, np.int64)
            op1, ok = _small(col("op", -1), ok)
            rev = np.full(n, REV_NONE, np.int64)
            sc = np.full(n, dt.FP32, np.int64)
        else:  # accumulator_cmd IDLE, else refused
            ok &= col("accumulator_cmd", -1) == ACCUM_IDLE
            op0, ok = _small(col("op0", -1), ok)
            op1, ok = _small(col("op1", -1), ok)
            rev = col("reverse", -1)
            sc, ok = _small(col("imm0_dtype", -1), ok)
        nch = col("num_active_channels", 0)
        ok &= (nch >= 1) & (nch <= engine.memory.channels)
        in0, ok = _small(col("in0_dtype", -1), ok)
        in1, ok = _small(col("in1_dtype", -1), ok)
        out, ok = _small(col("out_dtype", -1), ok)
        s0, s1, so = _SIZE[in0], _SIZE[in1], _SIZE[out]
        ok &= (s0 > 0) & (s1 > 0) & (so > 0)
        ok &= np.isin(rev, (REV_NONE, REV_FIRST, REV_SECOND, REV_BOTH))  # `_rev`'s values
        count = [
            np.prod(np.maximum(p.nums, 0).astype(np.float64), axis=1) for p in (src0, src1, dst)
        ]
        ok &= (count[1] == count[0]) & (count[2] == count[0])
        if bitvec:
            ok &= _BITVEC[op0] & _BITVEC[op1] & (in0 == in1) & (in1 == out) & _INT[out]
        else:
            ok &= _ARITH[op0] & _ARITH[op1]
        uses = ~_NO_SCALAR[op0]
        ssz = _SIZE[sc]
        ok &= ~uses | (ssz > 0)
        w0, ok = _walks(engine, src0, s0, nch, ok, True)
        w1, ok = _walks(engine, src1, s1, nch, ok, True)
        wd, ok = _walks(engine, dst, so, nch, ok, True)
        ok &= ~(w0.gather | w1.gather | wd.gather) | (w0.count <= MAX_PLANNED_GATHER)
        walks = [
            PlannedWalk(False, w0, s0, nch, src0.steps, src0.nums),
            PlannedWalk(False, w1, s1, nch, src1.steps, src1.nums),
            PlannedWalk(True, wd, so, nch, dst.steps, dst.nums),
        ]
        ptr = uses & (imm0.src == IMM_POINTER)
        ok &= ~uses | (imm0.src == IMM_INSTRUCTION) | ptr
        if ptr.any():
            pw, ok = _pointer_walk(engine, imm0, ptr, np.where(ssz > 0, ssz, 1), nch, ok, n)
            walks.append(pw)
        return ok, walks

    return plan


def _f32_scalar(
    engine: Engine, imm: ImmColumn, reads: Bools, nch: I64, ok: Bools, n: int
) -> tuple[list[PlannedWalk], Bools]:
    """`Engine._scalar_f32` of the rows `reads`: in the instruction, or through an immediate
    pointer (a 4-byte walk); any other source left to the method (`ok` cleared)."""
    ptr = reads & (imm.src == IMM_POINTER)
    ok = ok & (~reads | (imm.src == IMM_INSTRUCTION) | ptr)
    if not ptr.any():
        return [], ok
    pw, ok = _pointer_walk(engine, imm, ptr, np.full(n, 4, np.int64), nch, ok, n)
    return [pw], ok


def _walks_accumulate(
    record: type[EngineOperands],
) -> Callable[[Engine, dict[str, Any], dict[str, Any], int], tuple[Bools, list[PlannedWalk]]]:
    """The footprint planner of `tensor_scalar_cache` or `exponential`: the rows whose call
    resolves every access without an error (the method's checks and `Engine._seed`'s, over
    columns; immediate addresses, scalars in the instruction or behind immediate pointers)
    and their walks (the source, the scalars' pointers; the destination written)."""

    def plan(
        engine: Engine, fixed: dict[str, Any], cols: dict[str, Any], n: int
    ) -> tuple[Bools, list[PlannedWalk]]:
        src, dst = cols.get("src"), cols.get("dst")
        imm0, imm1 = cols.get("imm0"), cols.get("imm1")
        if not (isinstance(src, PatternColumn) and isinstance(dst, PatternColumn)) or not (
            isinstance(imm0, ImmColumn) and isinstance(imm1, ImmColumn)
        ):
            return np.zeros(n, np.bool_), []
        ok = np.ones(n, np.bool_)
        nch = np.asarray(cols["num_active_channels"], np.int64)
        ok &= (nch >= 1) & (nch <= engine.memory.channels)
        in_c, ok = _small(np.asarray(cols["in_dtype"], np.int64), ok)
        out_c, ok = _small(np.asarray(cols["out_dtype"], np.int64), ok)
        isz, osz = _SIZE[in_c], _SIZE[out_c]
        ok &= (isz > 0) & (osz > 0)
        cmd = np.asarray(cols["accumulator_cmd"], np.int64)
        if record is TensorScalarCacheOperands:
            op0, ok = _small(np.asarray(cols["op0"], np.int64), ok)
            op1 = np.asarray(cols["op1"], np.int64)
            rev = np.asarray(cols["reverse"], np.int64)
            ok &= _ARITH[op0] & np.isin(op1, list(alu.ACCUM_IDENTITY))
            # `_rev`'s values, without bit 1 (the accumulate step has no reversed form)
            ok &= np.isin(rev, (REV_NONE, REV_FIRST, REV_SECOND, REV_BOTH)) & ((rev & 2) == 0)
            if bool(fixed["cumulative"]):
                ok &= ~np.isin(cmd, (ACCUM_IDLE, ACCUM_ZERO))
            uses0 = ~_NO_SCALAR[op0]
        else:
            uses0 = np.ones(n, np.bool_)
        counts = [np.prod(np.maximum(p.nums, 0).astype(np.float64), axis=1) for p in (src, dst)]
        ok &= counts[0] == counts[1]
        sw, ok = _walks(engine, src, isz, nch, ok, True)
        dw, ok = _walks(engine, dst, osz, nch, ok, True)
        ok &= ~(sw.gather | dw.gather) | (sw.count <= MAX_PLANNED_GATHER)
        walks = [
            PlannedWalk(False, sw, isz, nch, src.steps, src.nums),
            PlannedWalk(True, dw, osz, nch, dst.steps, dst.nums),
        ]
        w0, ok = _f32_scalar(engine, imm0, uses0, nch, ok, n)
        seeds = (ACCUM_ACCUMULATE, ACCUM_ZERO_ACCUMULATE, ACCUM_ZERO, ACCUM_IDLE)
        ok &= np.isin(cmd, (*seeds, ACCUM_LOAD_ACCUMULATE))
        w1, ok = _f32_scalar(engine, imm1, cmd == ACCUM_LOAD_ACCUMULATE, nch, ok, n)
        return ok, walks + w0 + w1

    return plan


#: An Engine method's operand record -> its planner (see the module's docstring); a method
#: without one is prepared word by word.
PLANNERS: dict[
    type[EngineOperands],
    Callable[[Engine, dict[str, Any], dict[str, Any], int], tuple[Bools, I64]],
] = {
    TensorScalarOperands: plan_tensor_scalar,
}
#: An Engine method's operand record -> the walks of the rows its planner plans
#: (`info_batch`'s footprints of them).
PLANNED_WALKS: dict[
    type[EngineOperands],
    Callable[[Engine, dict[str, Any], dict[str, Any], int], tuple[Bools, list[PlannedWalk]]],
] = {
    TensorScalarOperands: walks_tensor_scalar,
    **{
        r: _walks_two_sources(r)
        for r in (TensorTensorOperands, ScalarTensorTensorOperands, TensorTensorScanOperands)
    },
    **{r: _walks_accumulate(r) for r in (TensorScalarCacheOperands, ExponentialOperands)},
}


class _Refusals:
    """The first of a method's checks (in the method's order) that each row fails, and the
    values the check's error is made of: a row's key (check, values) says that the method
    raises there, with an error that is a function of the key (and of the machine's state,
    for a check that reads it). A row the checks say nothing of (one that passes them all,
    or one whose outcome depends on what the key does not hold) has check -1."""

    def __init__(self, n: int) -> None:
        self.keys = np.full((n, 4), -1, np.int64)
        self.live = np.ones(n, np.bool_)
        self.n = n
        self.at = 0

    def check(self, fails: Bools | bool, *values: I64) -> None:
        """The method's next check: the rows still live that `fails` marks raise here, with
        an error made of `values` (at most three) alone."""
        hit = self.live & fails
        self.keys[hit, 0] = self.at
        for j, v in enumerate(values):
            self.keys[hit, 1 + j] = np.broadcast_to(np.asarray(v, np.int64), (self.n,))[hit]
        self.live &= ~hit
        self.at += 1

    def stop(self, rows: Bools) -> None:
        """From here on the method reads what the keys do not hold, for `rows`: no claim."""
        self.live &= ~rows


def _channels_dtypes(engine: Engine, r: _Refusals, cols: dict[str, Any], *names: str) -> I64:
    """`Engine._channels`, then `dtypes.info` of each dtype operand `names`, in that order;
    the number of channels."""
    nch = np.asarray(cols["num_active_channels"], np.int64)
    admission.refuse_channels(r, nch, engine.memory.channels)
    for name in names:
        code = np.asarray(cols[name], np.int64)
        c, known = _small(code, np.ones(code.shape, np.bool_))
        r.check(~known | (_SIZE[c] < 0), code)
    return nch


def _exact_count(r: _Refusals, p: PatternColumn) -> I64:
    """Each row's `Pattern.count`, the rows whose count is not exact in int64 stopped."""
    f = np.prod(p.nums.astype(np.float64), axis=1)
    r.stop(~((p.nums >= 0).all(axis=1) & (f < 2.0**53)))
    count: I64 = np.prod(np.where(r.live[:, None], p.nums, 1), axis=1)
    return count


def _refusals_imm_load(engine: Engine, fixed: dict[str, Any], cols: dict[str, Any], n: int) -> I64:
    """`Engine.imm_load`'s checks before its walk."""
    r = _Refusals(n)
    src = cols["src"]
    if not isinstance(src, PatternColumn):
        return r.keys
    _channels_dtypes(engine, r, cols, "dtype")
    count = _exact_count(r, src)
    admission.refuse_imm_load_count(r, count)
    _refused_addr4(engine, r, src)
    return r.keys


def _refused_addr4(engine: Engine, r: _Refusals, p: PatternColumn) -> None:
    """`access.resolve_addr4` of the pattern's ADDR4 (the walk's first step): an address
    form it refuses (its error a function of the marker), else no claim from here on for a
    row whose address is held in a register."""
    marker, _ = addr4_fields(p.start, engine.memory.mask)
    r.check((marker & (MARKER_INDIRECT | MARKER_SHAPE_REG)) != 0, marker)
    r.stop((marker & MARKERS_NOT_IMMEDIATE) != 0)


def _refusals_tensor_reduce(
    engine: Engine, fixed: dict[str, Any], cols: dict[str, Any], n: int
) -> I64:
    """`Engine._reduce_plan`'s checks up to its op and dtypes (before op_dim and the walks)."""
    r = _Refusals(n)
    _channels_dtypes(engine, r, cols, "in_dtype", "out_dtype")
    neg = np.asarray(cols["negated"], np.int64)
    op = np.asarray(cols["op"], np.int64)
    admission.refuse_reduce_negated(r, neg)
    if bool(fixed["bitvec"]):
        r.check(~np.isin(op, list(REDUCE_BITVEC_OPS)), op)
        in_c, _ = _small(np.asarray(cols["in_dtype"], np.int64), r.live)
        admission.refuse_reduce_bitvec_dtypes(r, in_c, np.asarray(cols["out_dtype"], np.int64))
        admission.refuse_reduce_bitvec_negated(r, neg)
    else:
        r.check(~np.isin(op, list(REDUCE_ARITH_OPS)), op)
    return r.keys


def _refusals_ptr_multi(engine: Engine, fixed: dict[str, Any], cols: dict[str, Any], n: int) -> I64:
    """`Engine.ptr_multi`'s checks, its walks (the rows the column form resolves) and its
    flops check (`Engine._flops` itself, once per distinct (W, channels), on the machine's
    state)."""
    r = _Refusals(n)
    src, dst = cols["src"], cols["dst"]
    if not (isinstance(src, PatternColumn) and isinstance(dst, PatternColumn)):
        return r.keys
    bitvec = bool(fixed["bitvec"])
    nch = _channels_dtypes(engine, r, cols, "in_dtype", "out_dtype")
    admission.refuse_ptr_multi_dims(r, src.nums.shape[1])
    if not r.live.any():  # every row refused (or none left): there is no 4th dim to read
        return r.keys
    w = src.nums[:, 3]
    admission.refuse_ptr_multi_slices(r, w)
    admission.refuse_ptr_multi_reverse(r, np.asarray(cols["reverse"], np.int64))
    sc, dc = _exact_count(r, src), _exact_count(r, dst)
    admission.refuse_same_count(r, sc, dc)
    op, op_known = _small(np.asarray(cols["op"], np.int64), np.ones(n, np.bool_))
    in_c, _ = _small(np.asarray(cols["in_dtype"], np.int64), r.live)
    out_c, _ = _small(np.asarray(cols["out_dtype"], np.int64), r.live)
    if bitvec:  # alu.check_bitvec, then the dtypes
        r.check(~op_known | ~_BITVEC[op], cols["op"])
        admission.refuse_ptr_multi_bitvec_dtypes(r, in_c, out_c)
    else:  # alu.check_arith
        r.check(~op_known | ~_ARITH[op], cols["op"])
    for p, size in ((src, _SIZE[in_c]), (dst, _SIZE[out_c])):  # `Engine._walk` of each
        _refused_addr4(engine, r, p)
        _, ok = _walks(engine, p, size, nch, r.live, True)
        r.stop(~ok)
    kind = "bitvec" if bitvec else "arith"
    live = np.flatnonzero(r.live)
    pairs, inverse = np.unique(np.stack([w[live], nch[live]], axis=1), axis=0, return_inverse=True)
    texts: dict[str, int] = {}
    fails = np.zeros(len(pairs), np.bool_)
    text_of = np.zeros(len(pairs), np.int64)
    for k, (needed, channels) in enumerate(pairs.tolist()):
        try:
            engine._flops(needed, channels, kind, "TensorScalarPtrMulti")
        except ExecutorError as e:
            fails[k] = True
            text_of[k] = texts.setdefault(str(e), len(texts))
    hit = np.zeros(n, np.bool_)
    hit[live] = fails[inverse.reshape(-1)]
    at = np.zeros(n, np.int64)
    at[live] = text_of[inverse.reshape(-1)]
    r.check(hit, at)
    return r.keys


#: An Engine method's operand record -> its refusals (`_Refusals`) over columns: `info_batch`
#: calls the method on one row of each key and gives the others that row's error.
REFUSALS: dict[
    type[EngineOperands], Callable[[Engine, dict[str, Any], dict[str, Any], int], I64]
] = {
    ImmLoadOperands: _refusals_imm_load,
    TensorReduceOperands: _refusals_tensor_reduce,
    PtrMultiOperands: _refusals_ptr_multi,
}


def can_plan(engine: Engine) -> bool:
    """Whether the engine's backend runs records (the C backend)."""
    return hasattr(engine.backend, "run_ts_records")


def run_records(engine: Engine, records: I64) -> None:
    """Run consecutive planned rows in order; the instruction count (and with it the rounding
    keys) advances by one a row. ExecutorError, with `.done` rows run before it, if the kernel
    refuses one."""
    numerics: Numerics = engine.numerics
    done, rc = engine.backend.run_ts_records(  # type: ignore[union-attr]
        engine.memory, records, numerics, engine.instructions_executed
    )
    engine.instructions_executed += done
    if rc:
        exc = ExecutorError(f"C backend kernel failed (code {rc})")
        exc.done = done  # type: ignore[attr-defined]
        raise exc
