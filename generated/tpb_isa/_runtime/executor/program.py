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
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from . import alu
from . import dtypes as dt
from .access import MAX_ELEMENTS_PER_PARTITION
from .errors import ExecutorError
from .kernels import IMM_INSTRUCTION, Engine, Imm, Pattern
from .numerics import Numerics

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

    def values(self) -> list[Pattern]:
        return [
            Pattern(a, tuple(s), tuple(n))
            for a, s, n in zip(
                self.start.tolist(), self.steps.tolist(), self.nums.tolist(), strict=True
            )
        ]


@dataclass(frozen=True)
class ImmColumn:
    """The ``imm``/``imm_ptr`` operand of N words: semantic source codes and raw bits."""

    src: I64
    bits: I64

    def values(self) -> list[Imm]:
        return [Imm(s, b) for s, b in zip(self.src.tolist(), self.bits.tolist(), strict=True)]


def values(column: Any) -> list[Any]:
    """One engine argument per row, as the per-word binder makes them."""
    if isinstance(column, np.ndarray):
        out: list[Any] = column.tolist()
        return out
    if isinstance(column, list):
        return column
    got: list[Any] = column.values()
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


@dataclass
class _Walk:
    region: I64  # 0 SBUF, 1 PSUM
    off: I64  # byte offset of the first element from the region's first byte
    rs: I64  # elements from one partition's first element to the next one's
    es: I64  # elements from one element to the next
    count: I64
    part: I64
    lo: I64  # lowest and highest byte the walk touches (relative to its partition's start)
    hi: I64


def _walks(engine: Engine, p: PatternColumn, isz: I64, nch: I64, ok: Bools) -> tuple[_Walk, Bools]:
    """`access.walk` of every row, vectorised, for the rows it resolves to a plain stride of at
    least one element within bounds (`ok` cleared for every other row: a register address, an
    error, a gather)."""
    mem = engine.memory
    raw = p.start & 0xFFFFFFFF
    ok = ok & (((raw >> 24) & 0xE0) == 0)  # no register, shape-register or indirect form
    addr = raw & mem.mask
    region = np.zeros_like(addr)
    part = np.zeros_like(addr)
    off = np.zeros_like(addr)
    active = np.zeros_like(addr)
    nparts = np.zeros_like(addr)
    claimed = np.zeros(addr.shape, np.bool_)
    found = np.zeros(addr.shape, np.bool_)
    for rid, r in ((1, mem.psum_region), (0, mem.sbuf_region)):  # the order addressing.locate reads
        if r.size <= 0:
            continue
        inside = ~claimed & (addr >= r.base) & (addr < r.base + r.size)
        q, m = np.divmod(addr - r.base, r.stride)
        good = inside & (q < r.partitions) & (m < r.active)
        region = np.where(good, rid, region)
        part = np.where(good, q, part)
        off = np.where(good, m, off)
        active = np.where(good, r.active, active)
        nparts = np.where(good, r.partitions, nparts)
        found |= good
        claimed |= inside
    safe = np.where(isz > 0, isz, 1)
    ok = ok & found & (isz > 0) & (off % safe == 0) & (nch >= 1) & (part + nch <= nparts)
    steps, nums = p.steps, p.nums
    big = np.prod(nums.astype(np.float64), axis=1) > MAX_ELEMENTS_PER_PARTITION
    ok &= ~big & (nums >= 0).all(axis=1)
    nums = np.where(ok[:, None], nums, 1)  # bounded from here on: no overflow
    steps = np.where(ok[:, None], steps, 0)
    count = np.prod(nums, axis=1)
    span = (nums - 1) * steps
    lo = np.minimum(span, 0).sum(axis=1)
    hi = np.maximum(span, 0).sum(axis=1)
    # the dimensions that repeat, merged where one continues the one before (access.walk)
    merged = np.zeros(addr.shape, np.int64)
    ms = np.ones_like(addr)
    mn = np.ones_like(addr)
    for j in range(nums.shape[1]):
        s, n = steps[:, j], nums[:, j]
        rep = n > 1
        cont = rep & (merged > 0) & (s == ms * mn)
        new = rep & ~cont
        mn = np.where(cont, mn * n, np.where(new, n, mn))
        ms = np.where(new, s, ms)
        merged += new
    ok &= (count > 0) & ((merged == 0) | ((merged == 1) & (ms != 0)))
    elem0 = off // safe
    row_elems = active // safe
    ok &= (elem0 + lo >= 0) & (elem0 + hi < row_elems)
    es = np.where(merged == 0, 1, ms)
    w = _Walk(
        region,
        part * active + elem0 * safe,
        row_elems,
        es,
        count,
        part,
        (elem0 + lo) * safe,
        (elem0 + hi + 1) * safe,
    )
    return w, ok


@dataclass
class PlannedWalk:
    """One walk of every planned row: whether the instruction writes it, the walk, its
    element size in bytes and its partitions (num_active_channels)."""

    writes: bool
    walk: _Walk
    itemsize: I64
    nparts: I64


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
    ok, _, walks = _plan_tensor_scalar(engine, fixed, cols, n)
    return ok, walks


def _plan_tensor_scalar(
    engine: Engine, fixed: dict[str, Any], cols: dict[str, Any], n: int
) -> tuple[Bools, I64, list[PlannedWalk]]:
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
    ok &= ~uses0 | (imm0.src == IMM_INSTRUCTION)
    ok &= ~uses1 | (imm1.src == IMM_INSTRUCTION)
    sw, ok = _walks(engine, src, isz, nch, ok)
    dw, ok = _walks(engine, dst, osz, nch, ok)
    ok &= sw.count == dw.count
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
    walks = [PlannedWalk(False, sw, isz, nch), PlannedWalk(True, dw, osz, nch)]
    return ok, r, walks


#: Engine method -> its planner (see the module's docstring); a method without one is prepared
#: word by word.
PLANNERS: dict[str, Callable[[Engine, dict[str, Any], dict[str, Any], int], tuple[Bools, I64]]] = {
    "tensor_scalar": plan_tensor_scalar,
}
#: Engine method -> the walks of the rows its planner plans (`info_batch`'s footprints of them).
PLANNED_WALKS: dict[
    str, Callable[[Engine, dict[str, Any], dict[str, Any], int], tuple[Bools, list[PlannedWalk]]]
] = {"tensor_scalar": walks_tensor_scalar}


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
