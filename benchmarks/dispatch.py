"""The executor's cost per instruction, apart from the arithmetic: small words through `run()`,
`run_program`, and admitting a new word (decode + validate + prepare), on the C backend.

    python benchmarks/dispatch.py [--gen mariana] [--rounds 7] [--generated]

Baselines, measured in the same run:
  * the floor of a 1 x 1 instruction: one cffi call of the C kernel (`tpb_ts_arith`) with the same
    prepared arguments, from Python (no executor around it);
  * the two-ufunc floor of issue 28: `(x * s0) + s1` on a 1 x 1 fp32 array as two numpy ufunc
    calls with `out=` (what a Python model of one instruction costs at the least);
  * the old admission: the full decoder (a struct object) plus `validate` on the C backend, which
    is what `run()` did for every word before words were prepared.

Rows (min and median of --rounds interleaved rounds, microseconds per instruction or word):
  * run() of one 1 x 1 fp32 TensorScalar word, again and again (prepared once);
  * run_program of 4096 words (64 distinct 1 x 1 words, repeated), per word, on a warm executor;
  * the same program on a fresh executor (every distinct word admitted), per word;
  * programs of all-distinct words (10^3 and 2 x 10^4, each word its own addresses and scalar)
    on a fresh executor, per word: the cost of a program nothing repeats in, and whether it is
    linear in the program's length;
  * admitting one new word: the executor's decode (only the fields it reads) + C validate +
    prepare; and decode + validate alone (`Executor._admit`: since the executor binds enum
    values by name, that includes making the engine's arguments, Patterns, Imms and enum codes,
    which before were made while preparing).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
N_PROGRAM = 4096
DISTINCT = 64


def load(gen: str, use_generated: bool) -> ModuleType:
    sys.path.insert(0, str(REPO / "benchmarks"))
    import execute  # the same loader and word builder as the bandwidth benchmark

    mod, _ = execute.load_generation(gen, use_generated)
    return mod


def word(mod: ModuleType, src: int, dst: int, s0: float) -> bytes:
    S, E = mod.structs, mod.enums
    mem3 = type(S.S3D3_TS().src_mem_pattern)

    def pat(addr: int) -> Any:
        t = S.Tensor3D(S.Addr4.of_addr_immediate(addr), (1, 0, 0), (1, 1, 1))
        return t if mem3 is S.Tensor3D else mem3.of_t(t)

    w = S.S3D3_TS(
        header=S.Header(opcode=E.Opcode.TENSOR_SCALAR_ARITH_OP, inst_word_len=16),
        src_mem_pattern=pat(src),
        dst_mem_pattern=pat(dst),
        in_dtype=E.Dtype.FP32,
        out_dtype=E.Dtype.FP32,
        num_active_channels=1,
        op0=E.AluOp.MULT,
        op1=E.AluOp.ADD,
        imm0=S.ImmValInstField.of_imm_arith_fp32(s0),
        imm1=S.ImmValInstField.of_imm_arith_fp32(0.25),
    )
    assert mod.explain(w) == "", mod.explain(w)
    return bytes(w.to_bytes())


def timed(fn: Callable[[], object], per: int) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) / per * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gen", default="mariana")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--generated", action="store_true", help="use generated/, not templates/")
    args = ap.parse_args(argv)
    mod = load(args.gen, args.generated)

    ex = mod.Executor(backend="c")
    one = word(mod, 0, 64, 1.5)
    distinct = [word(mod, 4 * k, 1024 + 4 * k, 1.0 + k) for k in range(DISTINCT)]
    program = b"".join(distinct[k % DISTINCT] for k in range(N_PROGRAM))
    fresh_words = [word(mod, 4 * k, 2048 + 4 * k, 3.0 + k) for k in range(2000)]
    distinct_programs = {
        n: b"".join(word(mod, 4 * (k % 4000), 32768 + 4 * (k % 4000), 3.0 + k) for k in range(n))
        for n in (1000, 20_000)
    }
    ex.write(0, np.ones((1, 64), np.float32))
    ex.run(one)
    ex.run_program(program)

    # the floor: the kernel itself, called through cffi with prepared arguments
    backend = ex.engine.backend
    src = ex.engine.memory.sbuf_region.view(4)[0:1, 0:1]
    dst = ex.engine.memory.sbuf_region.view(4)[0:1, 16:17]
    E = mod.enums
    fp32, mult, add = int(E.Dtype.FP32), int(E.AluOp.MULT), int(E.AluOp.ADD)
    s0, s1 = np.full((1, 1), 1.5, np.float32), np.full((1, 1), 0.25, np.float32)
    kernel = backend.bind_ts_arith(
        src, fp32, fp32, s0, s1, mult, add, False, False, ex.numerics, dst
    )
    calls = 20_000

    def run_one() -> None:
        r = ex.run
        for _ in range(calls):
            r(one)

    def floor() -> None:
        for _ in range(calls):
            kernel(0)

    x, y = np.ones((1, 1), np.float32), np.empty((1, 1), np.float32)
    f0, f1 = np.float32(1.5), np.float32(0.25)
    mul, add_ = np.multiply, np.add

    def two_ufuncs() -> None:
        for _ in range(calls):
            mul(x, f0, out=y)
            add_(y, f1, out=y)

    def all_distinct(n: int) -> Callable[[], None]:
        return lambda: mod.Executor(backend="c").run_program(distinct_programs[n])

    def program_warm() -> None:
        ex.run_program(program)

    def program_fresh() -> None:
        mod.Executor(backend="c").run_program(program)

    def admit_new() -> None:
        e = mod.Executor(backend="c")
        for b in fresh_words:
            e._prepare(b)

    def admit_fields() -> None:
        e = mod.Executor(backend="c")
        for b in fresh_words:
            e._admit(b)

    dec, val = ex._decoder, ex._validators

    def old_admission() -> None:
        for b in fresh_words:
            dec.decode(b)
            val.validate(b, backend="c")

    rows: dict[str, tuple[Callable[[], None], int]] = {
        "floor: the C kernel via cffi, 1 x 1": (floor, calls),
        "floor: two numpy ufuncs with out=, 1 x 1": (two_ufuncs, calls),
        "run_program, 10^3 all distinct, fresh": (all_distinct(1000), 1000),
        "run_program, 2x10^4 all distinct, fresh": (all_distinct(20_000), 20_000),
        "run(), 1 x 1, prepared word": (run_one, calls),
        "run_program, 64 distinct of 4096, warm": (program_warm, N_PROGRAM),
        "run_program, 64 distinct of 4096, fresh": (program_fresh, N_PROGRAM),
        "admit + prepare a new word": (admit_new, len(fresh_words)),
        "admit a new word (decode + validate)": (admit_fields, len(fresh_words)),
        "old: full decode + validate": (old_admission, len(fresh_words)),
    }
    times: dict[str, list[float]] = {k: [] for k in rows}
    for _ in range(args.rounds):
        for name, (fn, per) in rows.items():
            times[name].append(timed(fn, per))
    base = min(times["floor: the C kernel via cffi, 1 x 1"])
    ufuncs = times["floor: two numpy ufuncs with out=, 1 x 1"]
    print(f"tpb_isa.{args.gen}.Executor, C backend; microseconds per instruction or word")
    print(f"{'':44s} {'min':>8s} {'median':>8s} {'vs floor':>9s} {'vs 2 ufuncs':>12s}")
    for name, ts in times.items():
        # against the two ufuncs: the min over the min, the median of the rounds' own ratios
        rel = statistics.median(t / u for t, u in zip(ts, ufuncs, strict=True))
        print(
            f"{name:44s} {min(ts):8.2f} {statistics.median(ts):8.2f} {min(ts) / base:9.1f} "
            f"{min(ts) / min(ufuncs):5.2f}/{rel:5.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
