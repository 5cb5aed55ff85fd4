"""The numpy backend: the numeric kernels, vectorised over partitions and elements.

Each kernel takes the gathered source elements as a (partitions, elements) array of raw bits and
returns the raw output bits in a fresh array; gathering and scattering belong to ``kernels``.
Per-partition scalars come as (partitions, W) arrays: the elements of a row are split into W
equal consecutive slices, slice ``w`` using column ``w`` (W = 1 for a plain TensorScalar, the W
dimension for PtrMulti/Dual).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from . import alu
from . import dtypes as dt
from .codes import WIDE_OP
from .numerics import Numerics

F32 = npt.NDArray[np.float32]
U32 = npt.NDArray[np.uint32]
Raw = npt.NDArray[Any]


def needs_rand(out_code: int, numerics: Numerics) -> bool:
    """Whether the output conversion consumes stochastic-rounding bits."""
    return (
        numerics.rounding == "stochastic"
        and dt.info(out_code).kind == "float"
        and out_code != dt.FP32
    )


def _rand(shape: tuple[int, int], out_code: int, numerics: Numerics, key: int) -> U32 | None:
    if not needs_rand(out_code, numerics):
        return None
    idx = np.arange(shape[0] * shape[1], dtype=np.uint64).reshape(shape)
    return dt.rand_bits(key, idx)


def _store(out_code: int, y: F32, numerics: Numerics, key: int) -> Raw:
    y2 = y.reshape(y.shape[0], -1)
    shape = (y2.shape[0], y2.shape[1])
    return dt.store_from_f32(out_code, y2, numerics, _rand(shape, out_code, numerics, key))


def _owned(a: npt.NDArray[Any], src: npt.NDArray[Any]) -> bool:
    return a.base is None and not np.may_share_memory(a, src)


def _deliver(res: Raw, out: Raw | None) -> Raw:
    """Return ``res``, or copy it into the caller's output view ``out`` and return that."""
    if out is None:
        return res
    np.copyto(out, res.reshape(out.shape), casting="no")
    return out


_FP32_IN = (dt.FP32, dt.FP32R)

# TensorTensorIntWide's op codes (codes.WIDE_OP)
_WIDE = WIDE_OP
WIDE_ADD = _WIDE["ADD_INT"]
WIDE_SUBTRACT = _WIDE["SUBTRACT_INT"]
WIDE_MULT = _WIDE["MULT_INT"]
WIDE_MULT_UINT = _WIDE["MULT_UINT"]

# Elements per tile of the TensorScalar arith path: the fp32 hub and the rounding's scratch
# (some 30-40 bytes an element with stochastic bits) live only for one tile, so a large tensor
# of any dtype pair allocates well under its own size in temporaries (benchmarks/execute.py).
TILE = 1 << 15


def _tile_dest(src: Raw, out: Raw | None, out_code: int) -> Raw | None:
    """The (n, total) array the tiles are written into: ``out`` seen as (n, total) without a
    copy, or a fresh array; None when tiling is unsafe (``out`` overlaps ``src``: a tile's write
    could clobber a later tile's input) or ``out`` has no such view."""
    n, total = src.shape
    if out is None:
        return np.empty((n, total), dtype=dt.storage_dtype(out_code))
    if out.dtype != dt.storage_dtype(out_code):
        return None
    try:  # exact test: src and out are often interleaved views of one memory (bounds overlap)
        if np.shares_memory(out, src):
            return None
    except Exception:  # numpy.exceptions.TooHardError: treat as overlapping
        return None
    view = out.view()
    try:
        view.shape = (n, total)  # raises instead of copying
    except (AttributeError, ValueError):
        return None
    return view


def _tiles(n: int, total: int, w: int) -> list[tuple[int, int, int, int, int]]:
    """(p0, p1, c0, c1, wi): row and column ranges of at most ~TILE elements, each inside one
    of the W column slices (slice wi uses scalar column wi)."""
    seg = total // w
    cols = min(seg, TILE)
    rows = max(1, TILE // cols)
    out = []
    for wi in range(w):
        for c0 in range(wi * seg, (wi + 1) * seg, cols):
            c1 = min(c0 + cols, (wi + 1) * seg)
            for p0 in range(0, n, rows):
                out.append((p0, min(p0 + rows, n), c0, c1, wi))
    return out


# exp: a deterministic fp32 polynomial (Cephes expf), mirrored by the C backend
_LOG2E = np.float32(1.44269504088896341)
_C1 = np.float32(0.693359375)
_C2 = np.float32(-2.12194440e-4)
_P = tuple(
    np.float32(v)
    for v in (1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2,
              1.6666665459e-1, 5.0000001201e-1)
)  # fmt: skip


def _pow2(k: npt.NDArray[np.int32]) -> F32:
    return ((k + np.int32(127)).astype(np.uint32) << np.uint32(23)).view(np.float32)


def exp_f32(x: F32) -> F32:
    """exp in fp32: range reduction by ln 2, a degree-6 polynomial, two exact power-of-two
    scalings (so subnormal results round once). Within 2 ulp of exp over the fp32 range."""
    with np.errstate(all="ignore"):
        nan = np.isnan(x)
        xc = np.clip(np.where(nan, np.float32(0), x), np.float32(-104.0), np.float32(89.0))
        xc = xc.astype(np.float32)
        nf: F32 = np.rint(xc * _LOG2E).astype(np.float32, copy=False)
        r: F32 = (xc - nf * _C1).astype(np.float32, copy=False)
        r = (r - nf * _C2).astype(np.float32, copy=False)
        z = r * r
        y = np.full_like(r, _P[0])
        for c in _P[1:]:
            y = y * r + c
        y = y * z + r + np.float32(1.0)
        ni = nf.astype(np.int32)
        n1 = ni >> np.int32(1)
        n2 = ni - n1
        res = (y * _pow2(n1)) * _pow2(n2)
        out: F32 = np.where(nan, np.float32(np.nan), res).astype(np.float32)
    return out


class NumpyBackend:
    """Reference backend; also the fallback when no C compiler is available."""

    name = "numpy"

    def ts_arith(
        self,
        src: Raw,
        in_code: int,
        out_code: int,
        s0: F32,
        s1: F32,
        op0: int,
        op1: int,
        rev0: bool,
        rev1: bool,
        numerics: Numerics,
        key: int,
        out: Raw | None = None,
    ) -> Raw:
        n, total = src.shape
        w = s0.shape[1]
        if out is not None and out_code == dt.FP32 and w == 1 and in_code in _FP32_IN:
            # fp32 in and out: compute straight into the destination (no rounding step), then
            # make NaNs canonical in place
            of = out.view(np.float32)
            x2 = dt.load_f32(in_code, src, numerics)
            r = alu.arith(op0, x2, s0, rev0, out=of)
            if r is not of:
                np.copyto(of, r)
            r = alu.arith(op1, of, s1, rev1, out=of)
            if r is not of:
                np.copyto(of, r)
            if dt.has_nan(of):
                out[np.isnan(of)] = np.uint32(0x7FC00000)
            return out
        dest = _tile_dest(src, out, out_code)
        if dest is not None and n * total > TILE:
            for p0, p1, c0, c1, wi in _tiles(n, total, w):
                x = dt.load_f32(in_code, src[p0:p1, c0:c1], numerics)
                t = alu.arith(op0, x, s0[p0:p1, wi : wi + 1], rev0)
                y = alu.arith(
                    op1, t, s1[p0:p1, wi : wi + 1], rev1, out=t if _owned(t, src) else None
                )
                rnd = None
                if needs_rand(out_code, numerics):
                    idx = np.arange(c0, c1, dtype=np.uint64)[None, :] + (
                        np.arange(p0, p1, dtype=np.uint64)[:, None] * np.uint64(total)
                    )
                    rnd = dt.rand_bits(key, idx)
                y2 = np.asarray(y, dtype=np.float32)
                res = dt.store_from_f32(out_code, y2, numerics, rnd)
                np.copyto(dest[p0:p1, c0:c1], res, casting="no")
            return out if out is not None else dest
        x = dt.load_f32(in_code, src, numerics).reshape(n, w, total // w)
        a = s0.reshape(n, w, 1)
        b = s1.reshape(n, w, 1)
        t = alu.arith(op0, x, a, rev0)
        y = alu.arith(op1, t, b, rev1, out=t if _owned(t, src) else None)
        res = _store(out_code, y, numerics, key)
        if out is None and np.may_share_memory(res, src):
            res = res.copy()
        return _deliver(res, out)

    def ts_bitvec(
        self,
        src: Raw,
        code: int,
        s0: U32,
        s1: U32,
        op0: int,
        op1: int,
        rev0: bool,
        rev1: bool,
        out: Raw | None = None,
    ) -> Raw:
        n, total = src.shape
        w = s0.shape[1]
        width = dt.size(code) * 8
        mask = np.uint32((1 << width) - 1)
        x = src.astype(np.uint32).reshape(n, w, total // w)
        a = (s0 & mask).reshape(n, w, 1)
        b = (s1 & mask).reshape(n, w, 1)
        t = alu.bitvec(op0, x, a, width, rev0)
        y = alu.bitvec(op1, t, b, width, rev1)
        return _deliver(y.reshape(n, total).astype(dt.storage_dtype(code)), out)

    def accumulate(
        self,
        src: Raw,
        in_code: int,
        out_code: int,
        s0: F32,
        op0: int,
        rev0: bool,
        op1: int,
        seed: F32,
        cumulative: bool,
        use_acc: bool,
        numerics: Numerics,
        key: int,
        out: Raw | None = None,
    ) -> tuple[Raw, F32]:
        """``reg = op1(op0(x[i], s0), reg)`` per partition (semantics.md §10), in element order.

        Returns the output bits (the running ``reg`` when ``cumulative``, else ``op0``'s result)
        and the final ``reg`` per partition (``seed`` unchanged when not ``use_acc``).
        """
        x = dt.load_f32(in_code, src, numerics)
        t = np.asarray(alu.arith(op0, x, s0.reshape(-1, 1), rev0), dtype=np.float32)
        if not use_acc:
            return _deliver(_store(out_code, t, numerics, key), out), seed.astype(np.float32)
        run = scan(op1, t, seed.astype(np.float32))
        final = run[:, -1].copy() if run.shape[1] else seed.astype(np.float32)
        res = _store(out_code, run if cumulative else t, numerics, key)
        return _deliver(res, out), final

    def exp(
        self,
        src: Raw,
        in_code: int,
        out_code: int,
        s0: F32,
        seed: F32,
        use_acc: bool,
        numerics: Numerics,
        key: int,
        out: Raw | None = None,
    ) -> tuple[Raw, F32]:
        x = dt.load_f32(in_code, src, numerics)
        with np.errstate(all="ignore"):
            t = exp_f32(np.subtract(x, s0.reshape(-1, 1), dtype=np.float32))
        final = seed.astype(np.float32)
        if use_acc:
            run = scan(alu.ADD, t, final)
            if run.shape[1]:
                final = run[:, -1].copy()
        return _deliver(_store(out_code, t, numerics, key), out), final

    # -- two sources: TensorTensor, ScalarTensorTensor, TensorTensorScan ----------------------

    def tt_arith(self, x0: Raw, in0: int, x1: Raw, in1: int, out_code: int, s: F32, op0: int,
                 op1: int, rev0: bool, rev1: bool, scan: bool, numerics: Numerics, key: int,
                 out: Raw | None = None) -> Raw:  # fmt: skip
        """``op1(op0(x0, s), x1)`` element-wise in the reverse forms of rev0/rev1, in fp32, one
        rounding to ``out_code``; with ``scan`` the scalar is the running value of each partition,
        seeded with ``s`` and replaced by every output (TensorTensorScan)."""
        a = dt.load_f32(in0, x0, numerics)
        b = dt.load_f32(in1, x1, numerics)
        if scan:
            y = np.empty(a.shape, dtype=np.float32)
            state = np.asarray(s, dtype=np.float32).reshape(-1)
            for i in range(a.shape[1]):
                t = alu.arith(op0, a[:, i], state, rev0)
                state = np.asarray(alu.arith(op1, t, b[:, i], rev1), dtype=np.float32)
                y[:, i] = state
        else:
            t = alu.arith(op0, a, s, rev0)
            y = np.asarray(alu.arith(op1, t, b, rev1), dtype=np.float32)
        return _deliver(_store(out_code, y, numerics, key), out)

    def tt_bitvec(self, x0: Raw, x1: Raw, code: int, s: U32, op0: int, op1: int, rev0: bool,
                  rev1: bool, out: Raw | None = None) -> Raw:  # fmt: skip
        """``op1(op0(x0, s), x1)`` on the raw bits at the dtype's width."""
        width = dt.size(code) * 8
        mask = np.uint32((1 << width) - 1)
        t = alu.bitvec(op0, x0.astype(np.uint32), s & mask, width, rev0)
        y = alu.bitvec(op1, t, x1.astype(np.uint32) & mask, width, rev1)
        return _deliver(y.astype(dt.storage_dtype(code)), out)

    def reduce(self, src: Raw, in_code: int, out_code: int, op: int, groups: int, length: int,
               negate: bool, bitvec: bool, numerics: Numerics, key: int,
               out: Raw | None = None) -> Raw:  # fmt: skip
        """TensorReduce: each partition's elements are ``groups`` runs of ``length`` (walk order),
        each folded in element order, ``reg = op(x[i], reg)`` from ``reg = x[0]`` (fp32 for arith,
        then negated on request and rounded once; raw bits for bitvec)."""
        n = src.shape[0]
        if bitvec:
            bits = src.astype(np.uint32).reshape(n, groups, length)
            folds: dict[int, np.ufunc] = {
                alu.BITWISE_AND: np.bitwise_and,
                alu.BITWISE_OR: np.bitwise_or,
            }
            fold = folds.get(op, np.bitwise_xor)
            folded = fold.reduce(bits, axis=2)
            return _deliver(folded.astype(dt.storage_dtype(out_code)), out)
        x = dt.load_f32(in_code, src, numerics).reshape(n * groups, length)
        y = scan(op, x[:, 1:], x[:, 0]) if length > 1 else x
        r = np.ascontiguousarray(y[:, -1]).reshape(n, groups)
        if negate:
            r = np.negative(r, dtype=np.float32)
        return _deliver(_store(out_code, r, numerics, key), out)

    def int_wide(self, x0: Raw, in0: int, x1: Raw, in1: int, op: int, lo_out: U32 | None = None,
                 hi_out: U32 | None = None) -> tuple[U32, U32]:  # fmt: skip
        """TensorTensorIntWide: each source extended to 64 bits by its dtype's signedness, the op
        on 64 bits (add, subtract, the product's low 64 bits, a left shift by x1 < 32): the low
        and the high 32 bits."""
        a, b = _extended(x0, in0), _extended(x1, in1)
        with np.errstate(over="ignore"):
            if op == WIDE_ADD:
                r = a + b
            elif op == WIDE_SUBTRACT:
                r = a - b
            elif op in (WIDE_MULT, WIDE_MULT_UINT):
                r = a * b
            else:
                r = a << b
        lo = (r & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        hi = (r >> np.uint64(32)).astype(np.uint32)
        return _deliver(lo, lo_out), _deliver(hi, hi_out)

    # -- prepared calls (see Engine.prepare_tensor_scalar) -----------------------------------

    # -- bit moves (Copy, Memset, the predicated copies, Iota): the destination is a view of
    # memory that shares none with what is read (the engine checks) --------------------------

    def move(self, src: Raw, dst: Raw) -> None:
        np.copyto(dst, src)

    def fill(self, dst: Raw, bits: int) -> None:
        dst.fill(bits)

    def undecided(self, pred: Raw) -> int:
        """The flat index of the first nonzero even predicate element, or -1."""
        hit = np.flatnonzero((pred != 0) & ((pred & 1) == 0))
        return int(hit[0]) if hit.size else -1

    def select(self, pred: Raw, src: Raw, dst: Raw) -> None:
        np.copyto(dst, src, where=pred != 0)

    def select_cast(self, pred: Raw, src: Raw, in_code: int, out_code: int, dst: Raw,
                    numerics: Numerics, key: int) -> None:  # fmt: skip
        """CastPredicated's conversion (both ops BYPASS, the whole tensor) and select."""
        zero: F32 = np.zeros((dst.shape[0], 1), np.float32)
        out = self.ts_arith(src, in_code, out_code, zero, zero, alu.BYPASS, alu.BYPASS, False,
                            False, numerics, key, None)  # fmt: skip
        self.select(pred, out.view(dst.dtype), dst)

    def outer_add(self, rows: Raw, cols: Raw, dst: Raw) -> None:
        """dst[p, k] = rows[p] + cols[k], in fp32 or in wrapping 32-bit integers."""
        np.add(rows[:, None], cols[None, :], out=dst)

    def bind_ts_arith(self, src: Raw, in_code: int, out_code: int, s0: F32, s1: F32, op0: int,
                      op1: int, rev0: bool, rev1: bool, numerics: Numerics,
                      out: Raw) -> Callable[[int], object]:  # fmt: skip
        """`ts_arith` on these operands, a call per key; `src` and `out` are views of memory."""
        return lambda key: self.ts_arith(
            src, in_code, out_code, s0, s1, op0, op1, rev0, rev1, numerics, key, out
        )

    def bind_tt_arith(self, x0: Raw, in0: int, x1: Raw, in1: int, out_code: int, s: F32,
                      op0: int, op1: int, rev0: bool, rev1: bool, scan: bool, numerics: Numerics,
                      out: Raw) -> Callable[[int], object]:  # fmt: skip
        """`tt_arith` on these operands, a call per key; `x0`, `x1` and `out` are views of
        memory, the scalars a copy."""
        s = np.array(s, dtype=np.float32)
        return lambda key: self.tt_arith(
            x0, in0, x1, in1, out_code, s, op0, op1, rev0, rev1, scan, numerics, key, out
        )

    def bind_reduce(self, src: Raw, in_code: int, out_code: int, op: int, groups: int,
                    length: int, negate: bool, bitvec: bool, numerics: Numerics,
                    out: Raw) -> Callable[[int], object]:  # fmt: skip
        """`reduce` on these operands, a call per key; `src` and `out` are views of memory."""
        return lambda key: self.reduce(
            src, in_code, out_code, op, groups, length, negate, bitvec, numerics, key, out
        )

    def bind_ts_bitvec(self, src: Raw, code: int, s0: U32, s1: U32, op0: int, op1: int,
                       rev0: bool, rev1: bool, out: Raw) -> Callable[[int], object]:  # fmt: skip
        """`ts_bitvec` on these operands, a call per (unused) key."""
        return lambda key: self.ts_bitvec(src, code, s0, s1, op0, op1, rev0, rev1, out)


def _extended(raw: Raw, code: int) -> npt.NDArray[np.uint64]:
    """Integer elements extended to 64 bits by their dtype's signedness (as uint64 bits)."""
    info = dt.info(code)
    typed = raw.view(dt.storage_dtype(code))
    if info.signed:
        typed = typed.view(np.dtype(f"i{info.size}"))
    out: npt.NDArray[np.uint64] = typed.astype(np.int64).astype(np.uint64)
    return out


def _key(v: F32) -> npt.NDArray[np.int32]:
    i = v.view(np.int32)
    out: npt.NDArray[np.int32] = i ^ ((i >> np.int32(31)) & np.int32(0x7FFFFFFF))
    return out


def scan(op: int, t: F32, seed: F32) -> F32:
    """Inclusive scan ``r[i] = op(t[i], r[i-1])``, ``r[-1] = seed``, along axis 1, in fp32.

    Sequential IEEE semantics, bit-identical to the element loop of the C backend, without a
    Python loop over elements: add and mult are ``ufunc.accumulate`` (exactly commutative);
    max/min accumulate an order-preserving integer key of the bits (so -0 < +0) and propagate
    NaN; subtract, ``r[i] = t[i] - r[i-1]``, is an alternating-sign cumulative sum, exact by the
    sign symmetry of RNE, followed by a fix-up of the sign of exact zeros.
    """
    n, total = t.shape
    if total == 0:
        return t.copy()
    y = np.empty((n, total + 1), dtype=np.float32)
    y[:, 0] = seed
    y[:, 1:] = t
    with np.errstate(all="ignore"):
        if op == alu.ADD:
            r = np.add.accumulate(y, axis=1, dtype=np.float32)
        elif op == alu.MULT:
            r = np.multiply.accumulate(y, axis=1, dtype=np.float32)
        elif op in (alu.MAX, alu.MIN):
            k = _key(y)
            acc = (
                np.maximum.accumulate(k, axis=1)
                if op == alu.MAX
                else np.minimum.accumulate(k, axis=1)
            )
            r = _key(acc.view(np.float32)).view(np.float32)
            nan = np.logical_or.accumulate(np.isnan(y), axis=1)
            r = np.where(nan, np.float32(np.nan), r).astype(np.float32)
        elif op == alu.SUBTRACT:
            r = _scan_subtract(y)
        else:
            raise ValueError(f"no accumulate form for ALU op {alu.op_name(op)}")
    return np.ascontiguousarray(r[:, 1:], dtype=np.float32)


def _scan_subtract(y: F32) -> F32:
    n, m = y.shape
    sgn = np.where(np.arange(m) % 2 == 0, np.float32(1.0), np.float32(-1.0)).astype(np.float32)
    s = np.add.accumulate(y * sgn, axis=1, dtype=np.float32)
    r = (s * sgn).astype(np.float32)
    # exact-zero signs: R_k = fl(y_k - R_{k-1}) is -0 only for y_k = -0 and R_{k-1} = +0
    zero = r == 0
    negz_y = (y == 0) & np.signbit(y)
    c = np.zeros_like(zero)
    c[:, 0] = negz_y[:, 0]
    c[:, 1:] = negz_y[:, 1:] & zero[:, :-1]
    start = c.copy()
    start[:, 1:] &= ~c[:, :-1]
    pos = np.broadcast_to(np.arange(m), (n, m))
    run_start = np.maximum.accumulate(np.where(start, pos, -1), axis=1)
    t_neg = c & ((pos - run_start) % 2 == 0)
    out: F32 = np.where(zero, np.where(t_neg, np.float32(-0.0), np.float32(0.0)), r).astype(
        np.float32
    )
    return out
