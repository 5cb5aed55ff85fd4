"""Executor speed and memory: two-op TensorScalars ``(x * s0) + s1`` over 128 partitions x 16,384
elements, in fp32, bf16 and fp8 (e4m3) in and out; with ``--instr``, the other families' new
instructions (TensorTensor, ScalarTensorTensor, TensorTensorScan, TensorReduce, TensorTensorIntWide
and sunda's BF16 forms, and issue 36's Copy, Cast, Reciprocal, Memset, CopyPredicated,
CastPredicated and Iota) on 128 x 16,384 tensors on the C and numpy backends, against memcpy of
their bytes.

    python benchmarks/execute.py [--gen sunda] [--rounds 7] [--case fp32,bf16,fp8]
                                 [--cache cold,warm] [--json] [--generated]
    python benchmarks/execute.py --instr all [--rounds 7] [--cache cold,warm] [--generated]
    python benchmarks/execute.py --instr copy,cast,reciprocal,memset,copy_predicated,\
cast_predicated,iota --rounds 15

For each case and each cache state, prints per-run times (min and median of ``--rounds``
interleaved rounds: every contestant runs once per round, in turn, so load on the shared machine
falls on all alike) of
  * the executor's ``run()`` on its C backend,
  * the executor's ``run()`` on its numpy backend,
  * a hand-written branch-free C loop doing the same computation and the same rounding (RNE,
    canonical NaN, overflow to Inf) on the same contiguous bytes, compiled with the executor's
    flags (the baseline of what a plain loop gets; no Python around it but one cffi call),
  * the executor's C kernel alone on the C loop's compact arrays (one bound cffi call): the
    kernel's speed apart from the executor's memory layout (its tensors sit in SBUF rows, 64 KiB
    used of every 192 KiB partition),
  * a hand-written numpy expression of the fp32 computation (fp32 case only),
  * a plain copy of the case's tensor bytes (``numpy.copyto``, memcpy speed: the ceiling),
  * for an instruction that only writes (Memset, Iota), also ``ndarray.fill`` of the bytes it
    writes (store bandwidth: the floor of a store-only loop),
as ratios to the copy (bandwidth share of the tensor's bytes) and to the C loop, and the peak
memory the numpy backend allocates while executing the instruction, relative to the input tensor's
bytes (tracemalloc; numpy reports its buffers to it). Every contestant reads and writes bytes of
its own. The cache state is the same for all at the start of each timed call: "cold" (a buffer
four times the last-level cache written just before: the bytes come from memory, which is what
memory bandwidth means) or "warm" (the same call just before; here the 16 MiB an fp32 case
touches fits the 32 MiB L3, so "warm" is cache bandwidth, where layouts and prefetching matter
more).

The executor is ``tpb_isa.<gen>.Executor`` as tpbgen renders it from the current templates (into a
temporary directory), or with ``--generated`` the committed package in generated/.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
PARTITIONS = 128
ELEMENTS = 16_384
S0, S1 = 1.7, -0.25
CASES = ("fp32", "bf16", "fp8")

# the hand-written baseline: one plain loop per case, branch-free (selects only), same rounding
BASELINE_CDEF = """
void base_fp32(const float *x, float *y, int64_t n, float s0, float s1);
void base_bf16(const uint16_t *x, uint16_t *y, int64_t n, float s0, float s1);
void base_e4m3(const uint8_t *x, uint8_t *y, int64_t n, float s0, float s1, const float *lut);
"""
BASELINE_C = r"""
#include <stdint.h>
#include <string.h>
TPB_CLONES_BLOCK
static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
TPB_CLONES void base_fp32(const float *restrict x, float *restrict y, int64_t n, float s0,
                          float s1) {
    int64_t i;
    for (i = 0; i < n; i++) {
        float v = x[i] * s0 + s1;
        uint32_t u = f2u(v);
        uint32_t o = ((u & 0x7FFFFFFFu) > 0x7F800000u) ? 0x7FC00000u : u;
        memcpy(&y[i], &o, 4);
    }
}
TPB_CLONES void base_bf16(const uint16_t *restrict x, uint16_t *restrict y, int64_t n, float s0,
                          float s1) {
    int64_t i;
    for (i = 0; i < n; i++) {
        uint32_t u = f2u(u2f((uint32_t)x[i] << 16) * s0 + s1);
        uint32_t r = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
        y[i] = (uint16_t)(((u & 0x7FFFFFFFu) > 0x7F800000u) ? 0x7FC0u : r);
    }
}
/* IEEE-like e4m3 (bias 7, max 0x77, Inf 0x78, NaN 0x7C), subnormals included */
TPB_CLONES void base_e4m3(const uint8_t *restrict x, uint8_t *restrict y, int64_t n, float s0,
                          float s1, const float *restrict lut) {
    int64_t i;
    for (i = 0; i < n; i++) {
        uint32_t u = f2u(lut[x[i]] * s0 + s1);
        uint32_t a = u & 0x7FFFFFFFu, e = a >> 23;
        uint32_t nrm = ((a + 0x7FFFFu + ((a >> 20) & 1u)) >> 20) - (120u << 3);
        uint32_t sig = (a & 0x7FFFFFu) | 0x800000u;
        uint32_t s = 141u - e, q;
        s = s > 25u ? 25u : s;
        q = (sig + ((1u << (s - 1u)) - 1u) + ((sig >> s) & 1u)) >> s;
        q = e < 121u ? q : nrm;
        q = e == 0u ? 0u : q;  /* fp32 subnormals are far below e4m3's quantum */
        q = q > 0x77u ? 0x78u : q;
        q |= (u >> 31) << 7;
        y[i] = (uint8_t)(a > 0x7F800000u ? 0x7Cu : q);
    }
}
"""


def load_generation(gen: str, use_generated: bool) -> tuple[ModuleType, str]:
    """tpb_isa.<gen> with an Executor: rendered from templates/, or the committed generated/."""
    if use_generated:
        sys.path.insert(0, str(REPO / "generated"))
        mod = importlib.import_module(f"tpb_isa.{gen}")
        if not hasattr(mod, "Executor"):
            raise SystemExit(
                "generated/ has no Executor yet; run `tpbgen generate` or drop --generated"
            )
        return mod, "generated/"
    from tpbgen.driver import build_files

    files, _, _ = build_files(REPO / "vendor_headers")
    root = Path(tempfile.mkdtemp(prefix="tpb_bench_"))
    for rel, text in files.items():
        if rel.startswith("tpb_isa/"):
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    sys.path.insert(0, str(root))
    return importlib.import_module(f"tpb_isa.{gen}"), "templates/ (rendered by tpbgen)"


def clones_block(kernel_source: str) -> str:
    """The kernels' `#if defined(TPB_CLONES) ... #endif` block, which picks the ISAs they are
    cloned for: the baseline loops take the same, from the kernels' own source."""
    lines = kernel_source.splitlines()
    start = lines.index("#if defined(TPB_CLONES)")
    depth = 0
    for end in range(start, len(lines)):
        word = lines[end].split(maxsplit=1)[0] if lines[end].strip() else ""
        depth += word.startswith("#if") - (word == "#endif")
        if depth == 0:
            return "\n".join(lines[start : end + 1])
    raise ValueError("tpb_kernels.c: the TPB_CLONES block does not end")


def load_baseline() -> Any:
    """The hand-written loops, compiled with the executor kernels' flags and clones (cached by
    content)."""
    cbuild = importlib.import_module("tpb_isa._runtime.cbuild")
    cext = importlib.import_module("tpb_isa._runtime.cextensions")
    source = BASELINE_C.replace("TPB_CLONES_BLOCK", clones_block(cext.kernels().source))
    spec = cbuild.Spec("_tpb_bench_baseline", source, BASELINE_CDEF, cext.KERNEL_ARGS,
                       what="the benchmark's hand-written C loops")  # fmt: skip
    return cbuild.load(spec)


def build_word(mod: ModuleType, src_addr: int, dst_addr: int, dtype: Any) -> bytes:
    S, E = mod.structs, mod.enums
    mem3 = type(S.S3D3_TS().src_mem_pattern)

    def pat(addr: int) -> Any:
        t = S.Tensor3D(S.Addr4.of_addr_immediate(addr), (1, 0, 0), (ELEMENTS, 1, 1))
        return t if mem3 is S.Tensor3D else mem3.of_t(t)

    w = S.S3D3_TS(
        header=S.Header(opcode=E.Opcode.TENSOR_SCALAR_ARITH_OP, inst_word_len=16),
        src_mem_pattern=pat(src_addr),
        dst_mem_pattern=pat(dst_addr),
        in_dtype=dtype,
        out_dtype=dtype,
        num_active_channels=PARTITIONS,
        op0=E.AluOp.MULT,
        op1=E.AluOp.ADD,
        imm0=S.ImmValInstField.of_imm_arith_fp32(S0),
        imm1=S.ImmValInstField.of_imm_arith_fp32(S1),
    )
    why = mod.explain(w)
    if why:
        raise SystemExit(f"benchmark word rejected: {why}")
    return bytes(w.to_bytes())


def cache_bytes() -> int:
    """The largest CPU cache's size (the last level), or 32 MiB where the OS does not say."""
    try:
        size = os.sysconf("SC_LEVEL3_CACHE_SIZE")
    except (ValueError, OSError, AttributeError):
        size = 0
    return size if size > 0 else 32 << 20


def interleaved(fns: dict[str, Callable[[], object]], rounds: int,
                cache: str) -> dict[str, list[float]]:  # fmt: skip
    """Seconds per call of each function, one call of each per round, in turn.

    `cache` says what the caches hold when a timed call starts, the same for every contestant:
    "cold": a buffer of four times the last-level cache was written just before (the call
    streams its bytes from memory: DRAM bandwidth); "warm": the same function ran just before
    (its own bytes are in cache as far as they fit). Without one or the other, a contestant
    would find in cache whatever the contestant before it left there (the memcpy and the C
    loop read the same input), which favours some and not others."""
    scratch = np.zeros(4 * cache_bytes(), dtype=np.uint8) if cache == "cold" else None
    for fn in fns.values():
        fn()  # warm up (and, for the C backend, make sure the build is loaded)
    times: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            if scratch is not None:
                scratch += 1
            else:
                fn()
            t0 = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t0)
    return times


def peak_bytes(fn: Callable[[], object]) -> int:
    fn()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base, _ = tracemalloc.get_traced_memory()
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - base


def run_case(case: str, mod: ModuleType, ffi: Any, lib: Any, rounds: int,
             caches: list[str]) -> dict[str, Any]:  # fmt: skip
    E = mod.enums
    nm = mod.Executor(backend="numpy").engine.numerics
    rt_dtypes = importlib.import_module("tpb_isa._runtime.executor.dtypes")
    rng = np.random.default_rng(0)
    xf = (rng.standard_normal((PARTITIONS, ELEMENTS)) * 3).astype(np.float32)
    if case == "fp32":
        code, x = E.Dtype.FP32, xf
    elif case == "bf16":
        code = E.Dtype.BFLOAT16
        x = xf.astype(rt_dtypes.numpy_dtype(int(code), nm))
    else:
        code = E.Dtype.FP8_EXP4
        x = xf.astype(rt_dtypes.numpy_dtype(int(code), nm))
    isz = x.dtype.itemsize
    src_addr, dst_addr = 0, ELEMENTS * 4
    word = build_word(mod, src_addr, dst_addr, code)
    tensor_bytes = x.nbytes
    n = x.size
    raw = x.view({1: np.uint8, 2: np.uint16, 4: np.float32}[isz])
    base_out = np.empty_like(raw)
    s0, s1 = np.float32(S0), np.float32(S1)
    pin, pout = ffi.cast("void *", raw.ctypes.data), ffi.cast("void *", base_out.ctypes.data)
    if case == "fp32":

        def base() -> None:
            lib.base_fp32(pin, pout, n, s0, s1)
    elif case == "bf16":

        def base() -> None:
            lib.base_bf16(pin, pout, n, s0, s1)
    else:
        lut = rt_dtypes.load_f32(int(code), np.arange(256, dtype=np.uint8), nm)
        plut = ffi.cast("float *", lut.ctypes.data)

        def base() -> None:
            lib.base_e4m3(pin, pout, n, s0, s1, plut)

    base()

    fns: dict[str, Callable[[], object]] = {}
    executors: dict[str, Any] = {}
    out: dict[str, Any] = {"tensor_bytes": tensor_bytes, "elements": n}
    for backend in ("c", "numpy"):
        try:
            ex = mod.Executor(backend=backend)
        except Exception as exc:  # no compiler: report and carry on with numpy
            out[f"{backend}_unavailable"] = str(exc)
            continue
        ex.write(src_addr, x)
        ex.run(word)
        got = ex.read(dst_addr, raw.dtype, (PARTITIONS, ELEMENTS))
        if got.tobytes() != base_out.tobytes():
            raise SystemExit(
                f"{case}: {backend} backend's bits differ from the hand-written loop's"
            )
        executors[backend] = ex
        fns[f"executor_{backend}"] = lambda ex=ex: ex.run(word)
    fns["c_loop"] = base
    if "c" in executors:
        # the executor's own C kernel on the C loop's compact arrays: the kernel's speed apart
        # from where the executor's tensors sit (SBUF rows: 64 KiB used of every 192 KiB)
        ex = executors["c"]
        store = rt_dtypes.storage_dtype(int(code))
        k_src, k_out = raw.copy().view(store), np.empty_like(raw).view(store)
        mult, add = int(E.AluOp.MULT), int(E.AluOp.ADD)
        kernel = ex.engine.backend.bind_ts_arith(
            k_src, int(code), int(code), np.full((PARTITIONS, 1), s0, np.float32),
            np.full((PARTITIONS, 1), s1, np.float32), mult, add, False, False, ex.numerics,
            k_out,
        )  # fmt: skip
        kernel(0)
        if k_out.tobytes() != base_out.tobytes():
            raise SystemExit(f"{case}: the C kernel's bits differ from the hand-written loop's")
        fns["c_kernel_compact"] = lambda: kernel(0)
    if case == "fp32":
        xe = x.copy()
        fns["numpy_expression"] = lambda: xe * s0 + s1
    mem_src, mem_dst = raw.copy(), np.empty_like(raw)  # its own bytes, like every contestant
    fns["memcpy"] = lambda: np.copyto(mem_dst, mem_src)
    for cache in caches:
        times = interleaved(fns, rounds, cache)
        mins = {k: min(v) for k, v in times.items()}
        meds = {k: statistics.median(v) for k, v in times.items()}
        out[cache] = {
            "seconds_min": mins,
            "seconds_median": meds,
            "vs_memcpy_min": {k: mins["memcpy"] / v for k, v in mins.items()},
            "vs_memcpy_median": {k: meds["memcpy"] / v for k, v in meds.items()},
            "vs_c_loop_min": {k: mins["c_loop"] / v for k, v in mins.items()},
        }
    for backend, ex in executors.items():
        out[f"{backend}_backend_peak_over_tensor"] = (
            peak_bytes(lambda ex=ex: ex.run(word)) / tensor_bytes
        )
    return out


# -- the other families (issue 27) --------------------------------------------------------------

#: name -> (generation, what it computes)
INSTRUCTIONS: dict[str, tuple[str, str]] = {
    "tensor_tensor": ("mariana", "TensorTensor fp32 a + b"),
    "scalar_tensor_tensor": ("mariana", "ScalarTensorTensor fp32 (a - 1.7) * b"),
    "tensor_tensor_scan": ("mariana", "TensorTensorScan fp32 g = a * g + b"),
    "tensor_reduce": ("mariana", "TensorReduce fp32 add over X (16,384 -> 1)"),
    "tensor_tensor_int_wide": ("maverick", "TensorTensorIntWide uint32 a + b -> lo, carry"),
    "tensor_tensor_add_bf16": ("sunda", "TensorTensorAddBf16 bf16 a + b -> fp32"),
    "tensor_reduce_max_bf16": ("sunda", "TensorReduceMaxBf16 bf16 max over X -> fp32"),
    # issue 36: the next families' instructions (tests/executor/test_copy_cast.py and the others
    # show how their words are built); each on the full 128 x 16,384 fp32 shape
    "copy": ("mariana", "Copy 0x46 fp32 -> fp32"),
    "cast": ("mariana", "Cast 0x47 fp32 -> bf16 (RNE)"),
    "reciprocal": ("mariana", "Reciprocal 0x48 fp32 1/x"),
    "memset": ("mariana", "Memset 0x49 fp32 0.2 (writes only)"),
    "copy_predicated": ("mariana", "CopyPredicated 0x72 uint8 predicate, fp32 data"),
    "cast_predicated": ("mariana", "CastPredicated 0x99 uint8 predicate, fp32 -> bf16"),
    "iota": ("mariana", "Iota 0x7e fp32 x + p (writes only)"),
}
ROW = ELEMENTS * 4  # bytes of one fp32 tensor row (64 KiB)


def instruction_case(name: str, mod: ModuleType) -> tuple[bytes, dict[int, Any], int, int]:
    """(word, {address: input array}, bytes read, bytes written) of one instruction."""
    S, E = mod.structs, mod.enums
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((PARTITIONS, ELEMENTS)) * 3).astype(np.float32)
    b = (rng.standard_normal((PARTITIONS, ELEMENTS)) * 3).astype(np.float32)
    n = ELEMENTS

    def addr(x: int) -> Any:
        return S.Addr4.of_addr_immediate(x)

    def pair(lo: Any, hi: Any) -> Any:
        return S.DtypePair(dtype_lo=int(lo), dtype_hi=int(hi))

    fp32 = E.Dtype.FP32
    tensor = PARTITIONS * ELEMENTS * 4
    if name in ("tensor_tensor", "tensor_tensor_add_bf16"):
        bf = name.endswith("bf16")
        dt_in = E.Dtype.BFLOAT16 if bf else fp32
        t3 = lambda x: S.Tensor3D(addr(x), (1, n, n), (n, 1, 1))  # noqa: E731
        opc = E.Opcode.TENSOR_TENSOR_ADD_BF16 if bf else E.Opcode.TENSOR_TENSOR_ARITH_OP
        w = S.S3S3D3_TT(header=S.Header(opc, 16), in0_in1_dtype=pair(dt_in, dt_in),
                        out_dtype=fp32, op=E.AluOp.ADD, num_active_channels=PARTITIONS,
                        src0_mem_pattern=t3(0), src1_mem_pattern=t3(ROW),
                        dst_mem_pattern=t3(2 * ROW))  # fmt: skip
        if bf:
            a16 = (a.view(np.uint32) >> 16).astype(np.uint16)
            b16 = (b.view(np.uint32) >> 16).astype(np.uint16)
            return _checked(mod, w), {0: a16, ROW: b16}, tensor, tensor
        return _checked(mod, w), {0: a, ROW: b}, 2 * tensor, tensor
    if name in ("scalar_tensor_tensor", "tensor_tensor_scan"):
        scan = name == "tensor_tensor_scan"
        t2 = lambda x: S.Tensor2D(addr(x), (1, n), (n, 1))  # noqa: E731
        w = S.S2S2D2_STT(header=S.Header(E.Opcode.TENSOR_TENSOR_SCAN_ARITH if scan else
                                         E.Opcode.SCALAR_TENSOR_TENSOR_ARITH, 16),
                         src0_mem_pattern=t2(0), src1_mem_pattern=t2(ROW),
                         dst_mem_pattern=t2(2 * ROW),
                         op0=E.AluOp.MULT if scan else E.AluOp.SUBTRACT,
                         op1=E.AluOp.ADD if scan else E.AluOp.MULT,
                         in0_in1_dtype=pair(fp32, fp32), out_dtype=fp32,
                         num_active_channels=PARTITIONS, imm0_dtype=fp32,
                         imm0=S.ImmValInstField.of_imm_arith_fp32(0.0 if scan else S0))  # fmt: skip
        if scan:  # a decay in (0, 1): the recurrence stays finite
            a = rng.random((PARTITIONS, ELEMENTS), dtype=np.float32)
        return _checked(mod, w), {0: a, ROW: b}, 2 * tensor, tensor
    if name in ("tensor_reduce", "tensor_reduce_max_bf16"):
        bf = name.endswith("bf16")
        src = S.Tensor4D(addr(0), (1, n, n, n), (n, 1, 1, 1))
        dst = S.Tensor4D(addr(2 * ROW), (1, 1, 1, 1), (1, 1, 1, 1))
        mem4 = type(S.S4D4_TR().src_mem_pattern)
        if mem4 is not S.Tensor4D:
            src, dst = mem4.of_t(src), mem4.of_t(dst)
        w = S.S4D4_TR(header=S.Header(E.Opcode.TENSOR_REDUCE_MAX_BF16 if bf else
                                      E.Opcode.TENSOR_REDUCE_ARITH_OP, 16),
                      src_mem_pattern=src, in_dtype=E.Dtype.BFLOAT16 if bf else fp32,
                      out_dtype=fp32, num_active_channels=PARTITIONS,
                      op=E.AluOp.MAX if bf else E.AluOp.ADD, op_dim=E.TensorSubdim.X,
                      dst_mem_pattern=dst)  # fmt: skip
        if bf:
            return (
                _checked(mod, w),
                {0: (a.view(np.uint32) >> 16).astype(np.uint16)},
                tensor // 2,
                512,
            )
        return _checked(mod, w), {0: a}, tensor, 512
    if name == "tensor_tensor_int_wide":
        m2 = lambda x: S.MemPattern2D.of_t(S.Tensor2D(addr(x), (1, n), (n, 1)))  # noqa: E731
        u32 = E.Dtype.UINT32
        w = S.S2S2D2D2_TT(header=S.Header(E.Opcode.TENSOR_TENSOR_INT_WIDE, 16),
                          in0_in1_dtype=pair(u32, u32), out0_out1_dtype=pair(u32, u32),
                          op=E.AluOp.ADD_INT, num_active_channels=PARTITIONS,
                          src0_mem_pattern=m2(0), src1_mem_pattern=m2(ROW),
                          dst0_mem_pattern=m2(2 * ROW), dst1_mem_pattern=m2(3 * ROW))  # fmt: skip
        return (
            _checked(mod, w),
            {0: a.view(np.uint32), ROW: b.view(np.uint32)},
            2 * tensor,
            2 * tensor,
        )
    return next_family_case(name, mod, a, b)


def _t4(mod: ModuleType, at: int, n: int, struct: str, field: str) -> Any:
    """A row of `n` elements at `at` as the 4-D memory pattern `struct.field` takes."""
    S = mod.structs
    t = S.Tensor4D(S.Addr4.of_addr_immediate(at), (1, n, n, n), (n, 1, 1, 1))
    mem4 = type(getattr(getattr(S, struct)(), field))
    return t if mem4 is S.Tensor4D else mem4.of_t(t)


def next_family_case(
    name: str, mod: ModuleType, a: Any, b: Any
) -> tuple[bytes, dict[int, Any], int, int]:
    """Issue 36's instructions: (word, {address: input array}, bytes read, bytes written).

    Bytes are the instruction's operands: a predicated copy/cast counts its predicate and data
    read and its destination written, not the destination read for the lanes it keeps (the
    executor reads it whole; masked stores need not); Memset and Iota read nothing, so their
    floor is a memcpy of half the bytes they write. The predicate is uint8 0/1 at random, about
    half the lanes taken (AWS's golden test takes ~80% of random lanes)."""
    S, E = mod.structs, mod.enums
    n, fp32, bf16, u8 = ELEMENTS, E.Dtype.FP32, E.Dtype.BFLOAT16, E.Dtype.UINT8
    tensor = PARTITIONS * ELEMENTS * 4

    def hdr(opc: int) -> Any:
        return S.Header(opcode=opc, inst_word_len=16)

    if name in ("copy", "cast", "reciprocal"):
        opc = {"copy": E.Opcode.COPY, "cast": E.Opcode.CAST, "reciprocal": E.Opcode.RECIPROCAL}
        out = bf16 if name == "cast" else fp32
        w = S.S4D4_TR(header=hdr(opc[name]), src_mem_pattern=_t4(mod, 0, n, "S4D4_TR",
                      "src_mem_pattern"), in_dtype=fp32, out_dtype=out,
                      num_active_channels=PARTITIONS, negated=0, op=E.AluOp.BYPASS,
                      op_dim=E.TensorSubdim.X,
                      dst_mem_pattern=_t4(mod, ROW, n, "S4D4_TR", "dst_mem_pattern"))  # fmt: skip
        return _checked(mod, w), {0: a}, tensor, tensor // 2 if out == bf16 else tensor
    if name in ("copy_predicated", "cast_predicated"):
        cast = name == "cast_predicated"

        def t3(x: int) -> Any:
            return S.Tensor3D(S.Addr4.of_addr_immediate(x), (1, n, n), (n, 1, 1))

        w = S.S3S3D3_TT(header=hdr(E.Opcode.CAST_PREDICATED if cast else E.Opcode.COPY_PREDICATED),
                        in0_in1_dtype=S.DtypePair(dtype_lo=int(u8), dtype_hi=int(fp32)),
                        out_dtype=bf16 if cast else fp32, op=E.AluOp.BYPASS,
                        num_active_channels=PARTITIONS, src0_mem_pattern=t3(0),
                        src1_mem_pattern=t3(ROW), dst_mem_pattern=t3(2 * ROW))  # fmt: skip
        pred = (b > 0).astype(np.uint8)
        out_bytes = tensor // 2 if cast else tensor
        return _checked(mod, w), {0: pred, ROW: a}, tensor // 4 + tensor, out_bytes
    if name == "memset":
        bits = int(np.array([0.2], np.float32).view(np.uint32)[0])
        w = S.D4_MR(header=hdr(E.Opcode.MEMSET), dtype=fp32, num_active_channels=PARTITIONS,
                    set_value=bits, dst_element_count=n,
                    dst_mem_pattern=_t4(mod, ROW, n, "D4_MR", "dst_mem_pattern"))  # fmt: skip
        return _checked(mod, w), {}, 0, tensor
    if name == "iota":
        ramp = S.Data4D(base=0, step_elem=(1, 0, 0, 0), num_elem=(n, 1, 1, 1))
        dst = S.Tensor4D(S.Addr4.of_addr_immediate(ROW), (1, n, n, n), (n, 1, 1, 1))
        w = S.D4_IOTA(header=hdr(E.Opcode.IOTA), src_data_pattern=ramp, out_dtype=fp32,
                      num_active_channels=PARTITIONS, channel_multiplier=1,
                      dst_mem_pattern=dst)  # fmt: skip
        return _checked(mod, w), {}, 0, tensor
    raise SystemExit(f"unknown instruction {name!r}; expected some of {', '.join(INSTRUCTIONS)}")


def _checked(mod: ModuleType, w: Any) -> bytes:
    why = mod.explain(w)
    if why:
        raise SystemExit(f"benchmark word rejected: {why}")
    return bytes(w.to_bytes())


def run_instruction(name: str, mod: ModuleType, rounds: int, caches: list[str]) -> dict[str, Any]:
    """The instruction's ``run()`` on the C backend against a memcpy moving as many bytes as it
    reads and writes (a copy of (read + written) / 2 bytes: that many read and as many written),
    from buffers of its own, interleaved; the same with the numpy backend where it is not a
    Python loop over elements (the scan's numpy form steps through the columns)."""
    word, inputs, read, written = instruction_case(name, mod)
    out: dict[str, Any] = {"bytes_read": read, "bytes_written": written}
    fns: dict[str, Callable[[], object]] = {}
    results = {}
    backends = ("c",) if name == "tensor_tensor_scan" else ("c", "numpy")
    for backend in backends:
        ex = mod.Executor(backend=backend)
        for addr, arr in inputs.items():
            ex.write(addr, arr)
        ex.run(word)
        results[backend] = ex.sbuf.copy()
        fns[f"executor_{backend}"] = lambda ex=ex: ex.run(word)
    if "numpy" in results and not np.array_equal(results["c"], results["numpy"]):
        raise SystemExit(f"{name}: the backends' bits differ")
    half = (read + written) // 2
    mem_src, mem_dst = np.ones(half, np.uint8), np.empty(half, np.uint8)
    fns["memcpy"] = lambda: np.copyto(mem_dst, mem_src)
    if read == 0:
        # a write-only instruction's second floor: ndarray.fill of the bytes it writes, the
        # machine's store bandwidth (the memcpy of half its bytes reads as much as it writes,
        # which a store-only loop cannot match where stores are the narrower path)
        mem_fill = np.empty(written, np.uint8)
        fns["fill"] = lambda: mem_fill.fill(1)
    for cache in caches:
        times = interleaved(fns, rounds, cache)
        mins = {k: min(v) for k, v in times.items()}
        meds = {k: statistics.median(v) for k, v in times.items()}
        out[cache] = {
            "seconds_min": mins,
            "seconds_median": meds,
            "over_memcpy_min": {k: v / mins["memcpy"] for k, v in mins.items()},
            "over_memcpy_median": {k: v / meds["memcpy"] for k, v in meds.items()},
        }
        if "fill" in mins:
            out[cache]["over_fill_min"] = {k: v / mins["fill"] for k, v in mins.items()}
            out[cache]["over_fill_median"] = {k: v / meds["fill"] for k, v in meds.items()}
    return out


def main_instructions(names: list[str], rounds: int, caches: list[str], use_generated: bool,
                      as_json: bool) -> int:  # fmt: skip
    results: dict[str, Any] = {"rounds": rounds}
    mods: dict[str, ModuleType] = {}
    for name in names:
        gen = INSTRUCTIONS[name][0]
        if gen not in mods:
            mods[gen] = load_generation(gen, use_generated)[0]
        results[name] = run_instruction(name, mods[gen], rounds, caches)
    if as_json:
        print(json.dumps(results, indent=2, sort_keys=True))
        return 0
    print(f"{PARTITIONS} partitions x {ELEMENTS} elements; time over memcpy of (read + written) / 2 "
          f"bytes (<= 1.5 is the goal); min / median of {rounds} interleaved rounds")  # fmt: skip
    for name in names:
        r = results[name]
        gen, what = INSTRUCTIONS[name]
        print(f"\n{name} ({gen}): {what}; reads {r['bytes_read'] / 2**20:.1f} MiB, writes "
              f"{r['bytes_written'] / 2**20:.3g} MiB")  # fmt: skip
        for cache in caches:
            m = r[cache]
            for k in m["seconds_min"]:
                print(f"  {cache:5s} {k:16s} {m['seconds_min'][k] * 1e3:8.3f} ms "
                      f"{m['seconds_median'][k] * 1e3:8.3f} ms   x memcpy "
                      f"{m['over_memcpy_min'][k]:6.2f} / {m['over_memcpy_median'][k]:6.2f}"
                      + (f"   x fill {m['over_fill_min'][k]:6.2f} / {m['over_fill_median'][k]:6.2f}"
                         if "over_fill_min" in m else ""))  # fmt: skip
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gen", default="sunda")
    ap.add_argument("--rounds", type=int, default=7, help="interleaved rounds (>= 7)")
    ap.add_argument("--case", default=",".join(CASES), help="comma-separated: fp32,bf16,fp8")
    ap.add_argument(
        "--cache", default="cold,warm",
        help="comma-separated: cold (caches flushed before each timed call: memory bandwidth), "
        "warm (the same call just before: its bytes in cache as far as they fit)",
    )  # fmt: skip
    ap.add_argument(
        "--json", action="store_true", help="print one JSON object instead of the table"
    )
    ap.add_argument(
        "--generated", action="store_true", help="benchmark generated/ instead of templates/"
    )
    ap.add_argument(
        "--instr", default="",
        help="comma-separated new-family instructions (or 'all'): " + ",".join(INSTRUCTIONS),
    )  # fmt: skip
    args = ap.parse_args(argv)
    if args.instr:
        names = list(INSTRUCTIONS) if args.instr == "all" else args.instr.split(",")
        for n in names:
            if n not in INSTRUCTIONS:
                raise SystemExit(
                    f"unknown instruction {n!r}; expected some of {','.join(INSTRUCTIONS)}"
                )
        caches = [c for c in args.cache.split(",") if c]
        return main_instructions(names, args.rounds, caches, args.generated, args.json)
    cases = [c for c in args.case.split(",") if c]
    for c in cases:
        if c not in CASES:
            raise SystemExit(f"unknown case {c!r}; expected some of {','.join(CASES)}")

    caches = [c for c in args.cache.split(",") if c]
    for c in caches:
        if c not in ("cold", "warm"):
            raise SystemExit(f"unknown cache state {c!r}; expected cold and/or warm")
    mod, origin = load_generation(args.gen, args.generated)
    ffi, lib = load_baseline()
    results: dict[str, Any] = {"generation": args.gen, "executor_from": origin,
                               "rounds": args.rounds}  # fmt: skip
    for case in cases:
        results[case] = run_case(case, mod, ffi, lib, args.rounds, caches)

    if args.json:
        print(json.dumps(results, indent=2, sort_keys=True))
        return 0
    print(f"TensorScalar (x * {S0}) + {S1}, {PARTITIONS} partitions x {ELEMENTS} elements, "
          f"tpb_isa.{args.gen}.Executor from {origin}; min / median of {args.rounds} "
          "interleaved rounds")  # fmt: skip
    for case in cases:
        r = results[case]
        for cache in caches:
            m = r[cache]
            print(f"\n{case} in / out ({r['tensor_bytes'] / 2**20:.0f} MiB), caches {cache}")
            print(f"{'':18s} {'min ms':>8s} {'median ms':>10s} {'vs memcpy':>10s} "
                  f"{'(median)':>9s} {'vs C loop':>10s}")  # fmt: skip
            for k in m["seconds_min"]:
                print(f"{k:18s} {m['seconds_min'][k] * 1e3:8.3f} "
                      f"{m['seconds_median'][k] * 1e3:10.3f} {m['vs_memcpy_min'][k]:10.3f} "
                      f"{m['vs_memcpy_median'][k]:9.3f} {m['vs_c_loop_min'][k]:10.3f}")  # fmt: skip
        for k in ("numpy_backend_peak_over_tensor", "c_backend_peak_over_tensor"):
            if k in r:
                print(f"{k:34s} {r[k]:.2f} x tensor size")
        for k, v in r.items():
            if k.endswith("_unavailable"):
                print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
