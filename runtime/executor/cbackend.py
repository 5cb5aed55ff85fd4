"""The C backend: the kernels of ``tpb_kernels.c`` compiled with cffi.

``tpb_kernels.h`` declares them; it is both the header the C file includes and the cdef cffi
reads, so no prototype is written twice. :mod:`..cextensions` describes the build and
:mod:`..cbuild` loads it: compiled at install when the package was pip-installed with a compiler,
else compiled on first use and cached by content. With no compiler (or no cffi),
:func:`get_backend` falls back to the numpy backend and warns once per process (not at all when
the install already said that cffi is missing: :func:`cbuild.said_at_install`).
``TPB_ISA_BACKEND=numpy|c|auto`` overrides the choice made in code.
"""

from __future__ import annotations

import os
import threading
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import cbuild, cextensions
from . import alu
from . import dtypes as dt
from .errors import ExecutorError
from .npbackend import NumpyBackend
from .numerics import Numerics

F32 = npt.NDArray[np.float32]
U32 = npt.NDArray[np.uint32]
Raw = npt.NDArray[Any]

_lock = threading.Lock()
_loaded: tuple[Any, Any] | None = None
_load_error: str | None = None
_warned = False
_quiet = False  # the install already said why the kernels cannot load


class BackendUnavailable(ExecutorError):
    """The C backend was requested explicitly but cannot be built or loaded."""


def _build() -> tuple[Any, Any]:
    return cbuild.load(cextensions.kernels())


def load() -> tuple[Any, Any] | None:
    """(ffi, lib) of the compiled kernels, building them on first use; None if impossible."""
    global _loaded, _load_error, _quiet
    with _lock:
        if _loaded is None and _load_error is None:
            try:
                _loaded = _build()
            except Exception as exc:  # no compiler, no cffi, unwritable cache, ...
                _load_error = f"{type(exc).__name__}: {exc}"
                _quiet = cbuild.said_at_install(exc)
        return _loaded


def load_error() -> str | None:
    return _load_error


# the C array type `ffi.from_buffer` makes for each pointer type `_ptr` is asked for
_ARRAY_OF = {"void *": "char[]", "float *": "float[]", "uint32_t *": "uint32_t[]"}


def _ptr(ffi: Any, a: npt.NDArray[Any], ctype: str = "void *") -> Any:
    """A C pointer to `a`'s first element: through the buffer protocol when `a` is contiguous
    (a fraction of the cost of `a.ctypes`), else from the address numpy reports."""
    if a.flags.c_contiguous and a.size:
        return ffi.from_buffer(_ARRAY_OF[ctype], a)
    return ffi.cast(ctype, a.ctypes.data)


def _strides(a: npt.NDArray[Any]) -> tuple[int, int]:
    isz = a.dtype.itemsize
    rs, es = a.strides
    if rs % isz or es % isz:
        raise ValueError("unaligned strides")
    return rs // isz, es // isz


class CBackend:
    """Same interface and results as :class:`NumpyBackend`, compiled C."""

    name = "c"

    def __init__(self, ffi: Any, lib: Any) -> None:
        self.ffi = ffi
        self.lib = lib

    def _cfg(self, in_code: int, out_code: int, numerics: Numerics, key: int, op0: int = 0,
             op1: int = 0, rev0: bool = False, rev1: bool = False) -> Any:  # fmt: skip
        c = self.ffi.new("tpb_cfg *")
        c.in_code = in_code
        c.out_code = out_code
        c.op0 = op0
        c.op1 = op1
        c.rev0 = int(rev0)
        c.rev1 = int(rev1)
        c.stochastic = int(numerics.rounding == "stochastic")
        c.e4m3_ocp = int(numerics.fp8_e4m3 == "ocp")
        c.fp8_saturate = int(numerics.fp8_overflow == "saturate")
        c.f2i_truncate = int(numerics.float_to_int == "truncate")
        c.fp32r_bits = numerics.fp32r_mantissa_bits
        c.in1_code = in_code
        c.key = key & 0xFFFFFFFFFFFFFFFF
        return c

    @staticmethod
    def _src(src: Raw) -> Raw:
        if src.ndim != 2:
            raise ValueError("source must be 2-D")
        isz = src.dtype.itemsize
        if src.strides[0] % isz or src.strides[1] % isz:
            return np.ascontiguousarray(src)
        return src

    def _check(self, rc: int) -> None:
        if rc != 0:
            raise ExecutorError(f"C backend kernel failed (code {rc})")

    @staticmethod
    def _out(out: Raw | None, shape: tuple[int, ...], code: int) -> Raw:
        if out is None:
            return np.empty(shape, dtype=dt.storage_dtype(code))
        if out.shape != shape or out.dtype != dt.storage_dtype(code):
            raise ValueError("output view has the wrong shape or dtype")
        return out

    def _ts_args(self, cfg: Any, src: Raw, out: Raw, s0: Raw, s1: Raw,
                 scalar: str) -> tuple[tuple[Any, ...], tuple[Raw, ...]]:  # fmt: skip
        """The arguments of tpb_ts_arith / tpb_ts_bitvec (`scalar`: the scalars' C type), and
        the arrays they point into (to be kept alive while C may use them; the scalars are
        copied, C-contiguous)."""
        np_type = np.float32 if scalar == "float" else np.uint32
        a = np.array(s0, dtype=np_type, order="C")
        b = np.array(s1, dtype=np_type, order="C")
        n, total = src.shape
        ffi = self.ffi
        args = (cfg, _ptr(ffi, src), *_strides(src), _ptr(ffi, out), *_strides(out), n, total,
                a.shape[1], _ptr(ffi, a, f"{scalar} *"), _ptr(ffi, b, f"{scalar} *"))  # fmt: skip
        return args, (src, out, a, b)

    def ts_arith(self, src: Raw, in_code: int, out_code: int, s0: F32, s1: F32, op0: int,
                 op1: int, rev0: bool, rev1: bool, numerics: Numerics, key: int,
                 out: Raw | None = None) -> Raw:  # fmt: skip
        src = self._src(src)
        out = self._out(out, src.shape, out_code)
        cfg = self._cfg(in_code, out_code, numerics, key, op0, op1, rev0, rev1)
        if src.size:
            self._check(self.lib.tpb_ts_arith(*self._ts_args(cfg, src, out, s0, s1, "float")[0]))
        return out

    def ts_bitvec(self, src: Raw, code: int, s0: U32, s1: U32, op0: int, op1: int, rev0: bool,
                  rev1: bool, out: Raw | None = None) -> Raw:  # fmt: skip
        src = self._src(src)
        out = self._out(out, src.shape, code)
        cfg = self._cfg(code, code, Numerics(), 0, op0, op1, rev0, rev1)
        if src.size:
            self._check(
                self.lib.tpb_ts_bitvec(*self._ts_args(cfg, src, out, s0, s1, "uint32_t")[0])
            )
        return out

    def accumulate(self, src: Raw, in_code: int, out_code: int, s0: F32, op0: int, rev0: bool,
                   op1: int, seed: F32, cumulative: bool, use_acc: bool, numerics: Numerics,
                   key: int, out: Raw | None = None) -> tuple[Raw, F32]:  # fmt: skip
        src = self._src(src)
        n, total = src.shape
        out = self._out(out, (n, total), out_code)
        a = np.ascontiguousarray(s0.reshape(-1), dtype=np.float32)
        acc = np.array(seed, dtype=np.float32).reshape(-1).copy()
        rs, es = _strides(src)
        drs, des = _strides(out)
        cfg = self._cfg(in_code, out_code, numerics, key, op0, op1, rev0, False)
        if n and total:
            self._check(self.lib.tpb_accumulate(cfg, _ptr(self.ffi, src), rs, es,
                                                _ptr(self.ffi, out), drs, des, n, total,
                                                _ptr(self.ffi, a, "float *"),
                                                _ptr(self.ffi, acc, "float *"), int(cumulative),
                                                int(use_acc)))  # fmt: skip
        return out, acc

    def exp(self, src: Raw, in_code: int, out_code: int, s0: F32, seed: F32, use_acc: bool,
            numerics: Numerics, key: int, out: Raw | None = None) -> tuple[Raw, F32]:  # fmt: skip
        src = self._src(src)
        n, total = src.shape
        out = self._out(out, (n, total), out_code)
        a = np.ascontiguousarray(s0.reshape(-1), dtype=np.float32)
        acc = np.array(seed, dtype=np.float32).reshape(-1).copy()
        rs, es = _strides(src)
        drs, des = _strides(out)
        cfg = self._cfg(in_code, out_code, numerics, key)
        if n and total:
            self._check(self.lib.tpb_exp(cfg, _ptr(self.ffi, src), rs, es, _ptr(self.ffi, out), drs,
                                         des, n, total, _ptr(self.ffi, a, "float *"),
                                         _ptr(self.ffi, acc, "float *"), int(use_acc)))  # fmt: skip
        return out, acc

    # -- two sources: TensorTensor, ScalarTensorTensor, TensorTensorScan ----------------------

    def tt_arith(self, x0: Raw, in0: int, x1: Raw, in1: int, out_code: int, s: F32, op0: int,
                 op1: int, rev0: bool, rev1: bool, scan: bool, numerics: Numerics, key: int,
                 out: Raw | None = None) -> Raw:  # fmt: skip
        x0, x1 = self._src(x0), self._src(x1)
        out = self._out(out, x0.shape, out_code)
        cfg = self._cfg(in0, out_code, numerics, key, op0, op1, rev0, rev1)
        cfg.in1_code = in1
        a = np.ascontiguousarray(np.asarray(s, dtype=np.float32).reshape(-1))
        n, total = x0.shape
        ffi = self.ffi
        if n and total:
            self._check(self.lib.tpb_tt_arith(cfg, _ptr(ffi, x0), *_strides(x0), _ptr(ffi, x1),
                                              *_strides(x1), _ptr(ffi, out), *_strides(out), n,
                                              total, _ptr(ffi, a, "float *"), int(scan)))  # fmt: skip
        return out

    def tt_bitvec(self, x0: Raw, x1: Raw, code: int, s: U32, op0: int, op1: int, rev0: bool,
                  rev1: bool, out: Raw | None = None) -> Raw:  # fmt: skip
        x0, x1 = self._src(x0), self._src(x1)
        out = self._out(out, x0.shape, code)
        cfg = self._cfg(code, code, Numerics(), 0, op0, op1, rev0, rev1)
        cfg.in1_code = code
        a = np.ascontiguousarray(np.asarray(s, dtype=np.uint32).reshape(-1))
        n, total = x0.shape
        ffi = self.ffi
        if n and total:
            self._check(self.lib.tpb_tt_bitvec(cfg, _ptr(ffi, x0), *_strides(x0), _ptr(ffi, x1),
                                               *_strides(x1), _ptr(ffi, out), *_strides(out), n,
                                               total, _ptr(ffi, a, "uint32_t *")))  # fmt: skip
        return out

    def reduce(self, src: Raw, in_code: int, out_code: int, op: int, groups: int, length: int,
               negate: bool, bitvec: bool, numerics: Numerics, key: int,
               out: Raw | None = None) -> Raw:  # fmt: skip
        src = self._src(src)
        n = src.shape[0]
        out = self._out(out, (n, groups), out_code)
        cfg = self._cfg(in_code, out_code, numerics, key, op)
        if n and groups and length:
            self._check(self.lib.tpb_reduce(cfg, _ptr(self.ffi, src), *_strides(src),
                                            _ptr(self.ffi, out), *_strides(out), n, groups,
                                            length, int(negate), int(bitvec)))  # fmt: skip
        return out

    def int_wide(self, x0: Raw, in0: int, x1: Raw, in1: int, op: int, lo_out: U32 | None = None,
                 hi_out: U32 | None = None) -> tuple[U32, U32]:  # fmt: skip
        x0, x1 = self._src(x0), self._src(x1)
        n, total = x0.shape
        lo = self._out(lo_out, (n, total), dt.UINT32)
        hi = self._out(hi_out, (n, total), dt.UINT32)
        cfg = self._cfg(in0, in0, Numerics(), 0, op)
        cfg.in1_code = in1
        ffi = self.ffi
        if n and total:
            self._check(self.lib.tpb_int_wide(cfg, _ptr(ffi, x0), *_strides(x0), _ptr(ffi, x1),
                                              *_strides(x1), _ptr(ffi, lo, "uint32_t *"),
                                              *_strides(lo), _ptr(ffi, hi, "uint32_t *"),
                                              *_strides(hi), n, total))  # fmt: skip
        return lo, hi

    # -- bit moves (Copy, Memset, the predicated copies, Iota): the destination is a view of
    # memory that shares none with what is read (the engine checks) --------------------------

    def move(self, src: Raw, dst: Raw) -> None:
        n, total = dst.shape
        if n and total:
            self._check(self.lib.tpb_move(_ptr(self.ffi, src), *_strides(src),
                                          _ptr(self.ffi, dst), *_strides(dst), n, total,
                                          dst.dtype.itemsize))  # fmt: skip

    def fill(self, dst: Raw, bits: int) -> None:
        n, total = dst.shape
        if n and total:
            self._check(self.lib.tpb_fill(_ptr(self.ffi, dst), *_strides(dst), n, total,
                                          dst.dtype.itemsize, bits))  # fmt: skip

    def undecided(self, pred: Raw) -> int:
        """The flat index of the first nonzero even predicate element, or -1."""
        n, total = pred.shape
        if not (n and total):
            return -1
        at = int(self.lib.tpb_undecided(_ptr(self.ffi, pred), *_strides(pred), n, total,
                                        pred.dtype.itemsize))  # fmt: skip
        if at < -1:
            self._check(int(at))
        return at

    def select(self, pred: Raw, src: Raw, dst: Raw) -> None:
        n, total = dst.shape
        if n and total:
            self._check(self.lib.tpb_select(_ptr(self.ffi, pred), *_strides(pred),
                                            pred.dtype.itemsize, _ptr(self.ffi, src),
                                            *_strides(src), _ptr(self.ffi, dst), *_strides(dst),
                                            n, total, dst.dtype.itemsize))  # fmt: skip

    def select_cast(self, pred: Raw, src: Raw, in_code: int, out_code: int, dst: Raw,
                    numerics: Numerics, key: int) -> None:  # fmt: skip
        """CastPredicated's conversion (both ops BYPASS) and select, a cache-sized block at a
        time; round to nearest only (the kernel refuses a stochastic rounding, whose draws
        depend on each element's index in the whole tensor: the engine converts those whole)."""
        n, total = dst.shape
        if not (n and total):
            return
        cfg = self._cfg(in_code, out_code, numerics, key, alu.BYPASS, alu.BYPASS)
        src = self._src(src)
        self._check(self.lib.tpb_cast_select(cfg, _ptr(self.ffi, pred), *_strides(pred),
                                             pred.dtype.itemsize, _ptr(self.ffi, src),
                                             *_strides(src), _ptr(self.ffi, dst), *_strides(dst),
                                             n, total))  # fmt: skip

    def outer_add(self, rows: Raw, cols: Raw, dst: Raw) -> None:
        """dst[p, k] = rows[p] + cols[k], in fp32 or in wrapping 32-bit integers."""
        n, total = dst.shape
        if n and total:
            rows, cols = np.ascontiguousarray(rows), np.ascontiguousarray(cols)
            self._check(self.lib.tpb_outer_add(_ptr(self.ffi, rows), _ptr(self.ffi, cols),
                                               _ptr(self.ffi, dst), *_strides(dst), n, total,
                                               int(dst.dtype == np.float32)))  # fmt: skip

    # -- prepared calls (see Engine.prepare_tensor_scalar) -----------------------------------

    def bind_ts_arith(self, src: Raw, in_code: int, out_code: int, s0: F32, s1: F32, op0: int,
                      op1: int, rev0: bool, rev1: bool, numerics: Numerics,
                      out: Raw) -> Callable[[int], object]:  # fmt: skip
        """`ts_arith` on these operands with every C argument made here, once: a call per key
        is one call into C. `src` and `out` are views of memory (what the kernel reads and
        writes when it runs); the scalars are copied."""
        if self._src(src) is not src:
            return lambda key: self.ts_arith(
                src, in_code, out_code, s0, s1, op0, op1, rev0, rev1, numerics, key, out
            )
        out = self._out(out, src.shape, out_code)
        cfg = self._cfg(in_code, out_code, numerics, 0, op0, op1, rev0, rev1)
        return self._bound(
            self.lib.tpb_ts_arith, cfg, *self._ts_args(cfg, src, out, s0, s1, "float")
        )

    def bind_ts_bitvec(self, src: Raw, code: int, s0: U32, s1: U32, op0: int, op1: int,
                       rev0: bool, rev1: bool, out: Raw) -> Callable[[int], object]:  # fmt: skip
        """`ts_bitvec` on these operands, its C arguments made once (see `bind_ts_arith`)."""
        if self._src(src) is not src:
            return lambda key: self.ts_bitvec(src, code, s0, s1, op0, op1, rev0, rev1, out)
        out = self._out(out, src.shape, code)
        cfg = self._cfg(code, code, Numerics(), 0, op0, op1, rev0, rev1)
        return self._bound(
            self.lib.tpb_ts_bitvec, cfg, *self._ts_args(cfg, src, out, s0, s1, "uint32_t")
        )

    def bind_tt_arith(self, x0: Raw, in0: int, x1: Raw, in1: int, out_code: int, s: F32,
                      op0: int, op1: int, rev0: bool, rev1: bool, scan: bool, numerics: Numerics,
                      out: Raw) -> Callable[[int], object]:  # fmt: skip
        """`tt_arith` on these operands with every C argument made once (see `bind_ts_arith`):
        `x0`, `x1` and `out` are views of memory; the scalars are copied."""
        if self._src(x0) is not x0 or self._src(x1) is not x1:
            return lambda key: self.tt_arith(
                x0, in0, x1, in1, out_code, s, op0, op1, rev0, rev1, scan, numerics, key, out
            )
        out = self._out(out, x0.shape, out_code)
        cfg = self._cfg(in0, out_code, numerics, 0, op0, op1, rev0, rev1)
        cfg.in1_code = in1
        a = np.array(np.asarray(s, dtype=np.float32).reshape(-1), dtype=np.float32, order="C")
        n, total = x0.shape
        if not (n and total):
            return lambda key: None
        ffi = self.ffi
        args = (cfg, _ptr(ffi, x0), *_strides(x0), _ptr(ffi, x1), *_strides(x1), _ptr(ffi, out),
                *_strides(out), n, total, _ptr(ffi, a, "float *"), int(scan))  # fmt: skip
        return self._bound(self.lib.tpb_tt_arith, cfg, args, (x0, x1, out, a))

    def bind_reduce(self, src: Raw, in_code: int, out_code: int, op: int, groups: int,
                    length: int, negate: bool, bitvec: bool, numerics: Numerics,
                    out: Raw) -> Callable[[int], object]:  # fmt: skip
        """`reduce` on these operands with every C argument made once (see `bind_ts_arith`):
        `src` and `out` are views of memory."""
        if self._src(src) is not src:
            return lambda key: self.reduce(
                src, in_code, out_code, op, groups, length, negate, bitvec, numerics, key, out
            )
        n = src.shape[0]
        out = self._out(out, (n, groups), out_code)
        cfg = self._cfg(in_code, out_code, numerics, 0, op)
        if not (n and groups and length):
            return lambda key: None
        ffi = self.ffi
        args = (cfg, _ptr(ffi, src), *_strides(src), _ptr(ffi, out), *_strides(out), n, groups,
                length, int(negate), int(bitvec))  # fmt: skip
        return self._bound(self.lib.tpb_reduce, cfg, args, (src, out))

    def _bound(self, fn: Any, cfg: Any, args: tuple[Any, ...],
               keep: tuple[Raw, ...]) -> Callable[[int], object]:  # fmt: skip
        check = self._check

        def call(key: int, _keep: tuple[Raw, ...] = keep) -> None:  # _keep: the arrays C uses
            cfg.key = key & 0xFFFFFFFFFFFFFFFF
            rc = fn(*args)
            if rc:
                check(rc)

        return call

    def run_ts_records(self, memory: Any, records: npt.NDArray[np.int64], numerics: Numerics,
                       stream0: int) -> tuple[int, int]:  # fmt: skip
        """Run a program's planned TensorScalar rows (executor/program.py) in one call:
        (rows run, the failing kernel's code or 0). Row i keys its rounding on stream
        `stream0 + i`, as the prepared call run then would."""
        ffi = self.ffi
        recs = np.ascontiguousarray(records, dtype=np.int64)
        if not recs.shape[0]:
            return 0, 0
        arith = self._cfg(0, 0, numerics, 0)
        bitvec = self._cfg(0, 0, Numerics(), 0)
        rc = ffi.new("int32_t *")
        done = self.lib.tpb_run_ts(
            arith, bitvec, ffi.from_buffer("char[]", memory.sbuf_region.data),
            ffi.from_buffer("char[]", memory.psum_region.data)
            if memory.psum_region.data.size else ffi.NULL,
            ffi.from_buffer("int64_t[]", recs), recs.shape[0],
            dt.stream_key_base(numerics.seed), stream0 & 0xFFFFFFFFFFFFFFFF, rc,
        )  # fmt: skip
        return int(done), int(rc[0])


Backend = NumpyBackend | CBackend


def get_backend(choice: str = "auto") -> Backend:
    """``"numpy"``, ``"c"`` (error if it cannot be built) or ``"auto"`` (C, else numpy with a
    one-time warning). ``TPB_ISA_BACKEND`` in the environment overrides ``choice``."""
    global _warned
    choice = os.environ.get("TPB_ISA_BACKEND", choice) or "auto"
    if choice == "numpy":
        return NumpyBackend()
    if choice not in ("c", "auto"):
        raise ValueError(f"backend must be 'auto', 'c' or 'numpy', not {choice!r}")
    got = load()
    if got is not None:
        return CBackend(*got)
    if choice == "c":
        raise BackendUnavailable(f"the C backend cannot be built: {_load_error}")
    if not _warned and not _quiet:
        _warned = True
        warnings.warn(
            f"tpb_isa executor: C backend unavailable ({_load_error}); using the numpy backend",
            RuntimeWarning,
            stacklevel=2,
        )
    return NumpyBackend()
