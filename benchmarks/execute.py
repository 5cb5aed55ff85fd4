"""Executor speed and memory: an fp32 two-op TensorScalar over 128 partitions x 16,384 elements.

    python benchmarks/execute.py [--gen sunda] [--repeat 15] [--json] [--generated]

Prints, in one run, elements per second of
  * the executor on its C backend,
  * the executor on its numpy backend,
  * a hand-written numpy expression of the same computation (``x * s0 + s1``, fresh result),
  * a plain copy of the same bytes (``numpy.copyto``, memcpy speed: the ceiling),
as absolute rates and as ratios to the copy and to the hand-written expression, and the peak
memory the numpy backend allocates while executing the instruction, relative to the tensor size
(tracemalloc; numpy reports its buffers to it).

The executor is ``tpb_isa.<gen>.Executor`` as tpbgen renders it from the current templates (into a
temporary directory), or with ``--generated`` the committed package in generated/.
"""

from __future__ import annotations

import argparse
import importlib
import json
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
    from tpbgen.emit.pipeline import build_files

    files, _, _ = build_files(REPO / "vendor_headers")
    root = Path(tempfile.mkdtemp(prefix="tpb_bench_"))
    for rel, text in files.items():
        if rel.startswith("tpb_isa/"):
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    sys.path.insert(0, str(root))
    return importlib.import_module(f"tpb_isa.{gen}"), "templates/ (rendered by tpbgen)"


def build_word(mod: ModuleType, src_addr: int, dst_addr: int) -> bytes:
    S, E = mod.structs, mod.enums
    mem3 = type(S.S3D3_TS().src_mem_pattern)

    def pat(addr: int) -> Any:
        t = S.Tensor3D(S.Addr4.of_addr_immediate(addr), (1, 0, 0), (ELEMENTS, 1, 1))
        return t if mem3 is S.Tensor3D else mem3.of_t(t)

    w = S.S3D3_TS(
        header=S.Header(opcode=E.Opcode.TENSOR_SCALAR_ARITH_OP, inst_word_len=16),
        src_mem_pattern=pat(src_addr),
        dst_mem_pattern=pat(dst_addr),
        in_dtype=E.Dtype.FP32,
        out_dtype=E.Dtype.FP32,
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


def best_time(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm up (and, for the C backend, make sure the build is loaded)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gen", default="sunda")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument(
        "--json", action="store_true", help="print one JSON object instead of the table"
    )
    ap.add_argument(
        "--generated", action="store_true", help="benchmark generated/ instead of templates/"
    )
    args = ap.parse_args(argv)

    mod, origin = load_generation(args.gen, args.generated)
    src_addr, dst_addr = 0, ELEMENTS * 4
    word = build_word(mod, src_addr, dst_addr)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((PARTITIONS, ELEMENTS)).astype(np.float32)
    n = x.size
    tensor_bytes = x.nbytes

    results: dict[str, Any] = {"generation": args.gen, "executor_from": origin, "elements": n,
                               "tensor_bytes": tensor_bytes}  # fmt: skip
    rates: dict[str, float] = {}
    executors: dict[str, Any] = {}
    for backend in ("c", "numpy"):
        try:
            ex = mod.Executor(backend=backend)
        except Exception as exc:  # no compiler: report and carry on with numpy
            results[f"{backend}_unavailable"] = str(exc)
            continue
        ex.write(src_addr, x)
        ex.run(word)
        want = x * np.float32(S0) + np.float32(S1)
        got = ex.read(dst_addr, np.float32, (PARTITIONS, ELEMENTS))
        if not np.array_equal(got, want):
            raise SystemExit(f"{backend} backend result differs from numpy's x * s0 + s1")
        executors[backend] = ex
        rates[f"executor_{backend}"] = n / best_time(lambda ex=ex: ex.run(word), args.repeat)

    s0, s1 = np.float32(S0), np.float32(S1)
    rates["numpy_expression"] = n / best_time(lambda: x * s0 + s1, args.repeat)
    dst = np.empty_like(x)
    rates["memcpy"] = n / best_time(lambda: np.copyto(dst, x), args.repeat)

    ceiling = rates["memcpy"]
    expr = rates["numpy_expression"]
    results["elements_per_second"] = rates
    results["ratio_to_memcpy"] = {k: v / ceiling for k, v in rates.items()}
    results["ratio_to_numpy_expression"] = {k: v / expr for k, v in rates.items()}
    if "numpy" in executors:
        ex = executors["numpy"]
        results["numpy_backend_peak_over_tensor"] = peak_bytes(lambda: ex.run(word)) / tensor_bytes
    if "c" in executors:
        ex = executors["c"]
        results["c_backend_peak_over_tensor"] = peak_bytes(lambda: ex.run(word)) / tensor_bytes
    results["numpy_expression_peak_over_tensor"] = peak_bytes(lambda: x * s0 + s1) / tensor_bytes

    if args.json:
        print(json.dumps(results, indent=2, sort_keys=True))
        return 0
    print(f"fp32 TensorScalar (x * {S0}) + {S1}, {PARTITIONS} partitions x {ELEMENTS} elements "
          f"({tensor_bytes / 2**20:.0f} MiB), tpb_isa.{args.gen}.Executor from {origin}")  # fmt: skip
    print(f"{'':22s} {'elements/s':>12s} {'vs memcpy':>10s} {'vs numpy expr':>14s}")
    for k, v in rates.items():
        print(f"{k:22s} {v:12.3e} {v / ceiling:10.3f} {v / expr:14.3f}")
    for k in (
        "numpy_backend_peak_over_tensor",
        "c_backend_peak_over_tensor",
        "numpy_expression_peak_over_tensor",
    ):
        if k in results:
            print(f"{k:34s} {results[k]:.2f} x tensor size")
    for k, v in results.items():
        if k.endswith("_unavailable"):
            print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
