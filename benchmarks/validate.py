"""Validation cost per word on every backend, against a plain C loop over the same predicates.

    python benchmarks/validate.py [--gen mariana] [--words 1000000] [--scalar-words 20000] [--rounds 7]

One mixed corpus: valid TensorScalar-family words of every top-level validator, each with 0-3
random byte mutations (so verdicts are mixed), in random order. The baseline is the headers'
predicates compiled with -O2 behind a switch on the opcode byte, in one C loop (no Python per
word). Each path runs once per round, rounds interleaved; the table gives the minimum and median
time per word and the ratio to the baseline. Every path must agree with the baseline on every word.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "generated"))
sys.path.insert(
    0, str(REPO / "tests")
)  # the compiled-C harness lives with the tests (support/cpredicates.py)


def seed_words(m) -> list[bytes]:  # type: ignore[no-untyped-def]
    """Accepted words for each top-level validator, built from the generated struct classes."""
    S, E = m.structs, m.enums
    mem = (
        S.S3D3_TS.__dataclass_fields__["src_mem_pattern"].type == "MemPattern3D"
    )  # mariana+ use the union

    def t3(addr: int, n: int):  # type: ignore[no-untyped-def]
        t = S.Tensor3D(S.Addr4.of_addr_immediate(addr), (1, 1, 1), (n, 1, 1))
        return S.MemPattern3D.of_t(t) if mem else t

    def ts(op: int, **kw: object) -> bytes:
        base = dict(
            header=S.Header(op, 16),
            src_mem_pattern=t3(0, 64),
            in_dtype=E.Dtype.FP32,
            out_dtype=E.Dtype.FP32,
            num_active_channels=128,
            op0=E.AluOp.ADD,
            op1=E.AluOp.BYPASS,
            imm0=S.ImmValInstField.of_imm_arith_fp32(2.0),
            dst_mem_pattern=t3(0x1000, 64),
        )
        base.update(kw)
        return S.S3D3_TS(**base).to_bytes()

    def t4(addr: int, w: int):  # type: ignore[no-untyped-def]
        return S.Tensor4D(S.Addr4.of_addr_immediate(addr), (1, 16, 32, 64), (16, 2, 2, w))

    words = [
        ts(0x43),
        ts(
            0x44, imm0=S.ImmValInstField.of_imm_ptr(0x100), imm1=S.ImmValInstField.of_imm_ptr(0x200)
        ),
        ts(0x9A, accumulator_cmd=E.AccumCmd.ZERO_ACCUMULATE, op0=E.AluOp.MULT, op1=E.AluOp.ADD),
        ts(0xE6, accumulator_cmd=E.AccumCmd.ZERO_ACCUMULATE, op0=E.AluOp.MULT, op1=E.AluOp.ADD),
        S.S4D4_TSM(
            S.Header(0x4F, 16),
            src_mem_pattern=t4(0, 8),
            in_dtype=E.Dtype.FP32,
            out_dtype=E.Dtype.FP32,
            num_active_channels=128,
            op=E.AluOp.MULT,
            op_dim=E.TensorSubdim.XYZ,
            dst_mem_pattern=t4(0x4000, 8),
        ).to_bytes(),
        S.S2_BN(
            S.Header(0x70, 16),
            src_mem_pattern=S.Tensor2D(S.Addr4.of_addr_immediate(0), (1, 8), (8, 1)),
            dtype=E.Dtype.FP32,
            num_active_channels=128,
        ).to_bytes(),
    ]
    if 0x30 in m.validators.DISPATCH:
        words.append(ts(0x30, op0=E.AluOp.BYPASS, imm0=S.ImmValInstField.of_imm_arith_fp32(0.0)))
    return words


BASELINE_C = """
#include <stddef.h>
#include <string.h>
#include "aws_neuron_isa_tpb_assert.h"
void bench_loop(const unsigned char *w, size_t n, unsigned char *out) {
    for (size_t k = 0; k < n; k++) {
        NEURON_ISA_TPB_INST_UNION u;
        memcpy(&u, w + 64 * k, 64);
        switch (w[64 * k]) {
%s
        default: out[k] = 0;
        }
    }
}
"""


def baseline(m, tpb: Path, tmp: Path):  # type: ignore[no-untyped-def]
    """A plain C loop over the same predicates: the headers compiled with -O2, a switch on the
    opcode byte calling each opcode's validators, no Python in the loop."""
    from cffi import FFI

    cases = "\n".join(
        f"        case {op:#04x}: out[k] = "
        + " || ".join(f"({n}(u) != 0)" for n in names)
        + "; break;"
        for op, names in sorted(m.validators.DISPATCH.items())
    )
    ffi = FFI()
    ffi.cdef("void bench_loop(const unsigned char *w, size_t n, unsigned char *out);")
    ffi.set_source(
        "_bench_validate_baseline",
        BASELINE_C % cases,
        include_dirs=[str(tpb)],
        extra_compile_args=["-O2", "-std=gnu11", "-w"],
    )
    so = ffi.compile(tmpdir=str(tmp), verbose=False)
    spec = importlib.util.spec_from_file_location("_bench_validate_baseline", so)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]

    def run(W: np.ndarray) -> np.ndarray:
        out = np.zeros(W.shape[0], dtype=np.uint8)
        mod.lib.bench_loop(
            mod.ffi.from_buffer("unsigned char[]", W),
            W.shape[0],
            mod.ffi.from_buffer("unsigned char[]", out),
        )
        return out.view(bool)

    return run


def timed(fn, *a):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn(*a)
    return time.perf_counter() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", default="mariana")
    ap.add_argument("--words", type=int, default=1_000_000)
    ap.add_argument(
        "--scalar-words",
        type=int,
        default=20_000,
        help="the scalar path runs on a prefix; its rate is per word",
    )
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()

    m = importlib.import_module(f"tpb_isa.{args.gen}")
    batch = importlib.import_module(f"tpb_isa.{args.gen}.batch")
    seeds = np.frombuffer(b"".join(seed_words(m)), dtype=np.uint8).reshape(-1, 64)
    rng = np.random.default_rng(1)
    W = seeds[rng.integers(0, len(seeds), size=args.words)].copy()
    for _ in range(3):  # up to three random byte mutations per word
        rows = np.flatnonzero(rng.random(args.words) < 0.5)
        W[rows, rng.integers(1, 64, size=rows.size)] = rng.integers(
            0, 256, size=rows.size, dtype=np.uint8
        )
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        sys.exit("a C compiler is needed for the C baseline")
    tpb = REPO / "vendor_headers" / f"neuron_{args.gen}_arch_isa" / "tpb"
    batch.validate_batch(
        W[:10], backend="c"
    )  # build (or load) the runtime's C backend outside the timing
    prefix = [bytes(r) for r in W[: args.scalar_words]]
    with tempfile.TemporaryDirectory() as tmp:
        base = baseline(m, tpb, Path(tmp))
        paths = {
            "baseline: plain C loop over the compiled predicates": (lambda: base(W), args.words),
            "runtime C backend   validate_batch(backend='c')": (
                lambda: batch.validate_batch(W, backend="c"),
                args.words,
            ),
            "numpy               validate_batch(backend='numpy')": (
                lambda: batch.validate_batch(W, backend="numpy"),
                args.words,
            ),
            "python              validate(word) per word": (
                lambda: np.array([m.validate(r) for r in prefix]),
                len(prefix),
            ),
            "runtime C           validate(word, backend='c') per word": (
                lambda: np.array([m.validate(r, backend="c") for r in prefix]),
                len(prefix),
            ),
        }
        times: dict[str, list[float]] = {k: [] for k in paths}
        results: dict[str, np.ndarray] = {}
        for _ in range(args.rounds):  # interleaved rounds: each path once per round
            for name, (fn, _n) in paths.items():
                t, out = timed(fn)
                times[name].append(t)
                results[name] = out
    want = results[next(iter(paths))]
    for name, out in results.items():
        n = len(out)
        assert (np.asarray(out, dtype=bool) == want[:n]).all(), (
            f"{name} disagrees with the baseline"
        )
    per_word = {k: min(v) / paths[k][1] for k, v in times.items()}
    base_key = next(iter(paths))
    print(
        f"{args.gen}: {args.words:,} mixed words ({int(want.sum()):,} accepted), {args.rounds} interleaved rounds; "
        "ns per word, min (median); ratio = time per word / the baseline's"
    )
    for name, v in times.items():
        med = sorted(v)[len(v) // 2] / paths[name][1]
        print(
            f"  {name:58s} {per_word[name] * 1e9:10.1f} ns ({med * 1e9:.1f})  {per_word[name] / per_word[base_key]:8.2f}x"
        )


if __name__ == "__main__":
    main()
