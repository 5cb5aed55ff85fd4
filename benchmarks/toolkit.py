"""The test-bench toolkit's speed: valid words per second per opcode, near misses per second,
microseconds per `info`, and what tracing costs (and that it costs nothing when off).

    python benchmarks/toolkit.py [--gen mariana] [--n 10000] [--rounds 5]

Baselines, in the same run: the C backend's `validate_batch` of the same words (what checking a
word costs, the floor of any generator that checks what it makes), and `run()` of the same
prepared word on an executor made without `trace=` (for the tracing rows). Times are CPU time
(user+sys of this process) and wall time, min of --rounds; the machine is shared.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "generated"))


def best(fn: Callable[[], Any], rounds: int) -> tuple[float, float]:
    """(cpu, wall) seconds, each the min over `rounds` calls."""
    cpu, wall = [], []
    for _ in range(rounds):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return min(cpu), min(wall)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", default="mariana")
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    import importlib

    mod = importlib.import_module(f"tpb_isa.{a.gen}")
    stim = mod.bench.STIMULUS
    print(f"{a.gen}: {a.n} words per opcode, min of {a.rounds} rounds (CPU / wall)")
    for op in stim.opcodes():
        c0 = time.process_time()
        stim.enriched(op)  # the one-time search (seeds and their variants), cached per opcode
        setup = time.process_time() - c0
        seeds = iter(range(1000))
        cpu, wall = best(
            lambda op=op, s=seeds: mod.random_words(a.n, opcode=op, seed=next(s)), a.rounds
        )
        W = mod.random_words(a.n, opcode=op)
        ccpu, _ = best(lambda W=W: mod.validate_batch(W, backend="c"), a.rounds)
        ncpu, _ = best(lambda op=op, s=seeds: stim.near_misses(1000, op, seed=next(s)), 2)
        print(
            f"  {op:#04x} valid {a.n / cpu:>9.0f} words/s CPU ({a.n / wall:.0f} wall), "
            f"C check {a.n / ccpu:.0f}/s; near misses {1000 / ncpu:.0f}/s; setup {setup:.2f} s"
        )
    words = mod.random_words(2000, seed=3)
    known = [w for w in words if mod.info(w).footprint_known]
    mod.bench.INFO.info(known[0])
    cpu, wall = best(lambda: [mod.info(w) for w in known[:500]], a.rounds)
    print(
        f"  info: {cpu / 500 * 1e6:.0f} us a word CPU ({wall / 500 * 1e6:.0f} wall), executable words"
    )
    # footprint_runs (the arrays info's Spans are made from; the footprint check's per-word
    # cost) against its floor, info() on the same words, interleaved rounds
    fp = mod.bench.INFO.footprint_runs
    runs_t, info_t = [], []
    for _ in range(a.rounds):
        runs_t.append(best(lambda: [fp(w) for w in known[:500]], 1)[0])
        info_t.append(best(lambda: [mod.info(w) for w in known[:500]], 1)[0])
    print(
        f"  footprint_runs: {min(runs_t) / 500 * 1e6:.0f} us a word CPU (median "
        f"{sorted(runs_t)[len(runs_t) // 2] / 500 * 1e6:.0f}); info() "
        f"{min(info_t) / 500 * 1e6:.0f} (median {sorted(info_t)[len(info_t) // 2] / 500 * 1e6:.0f})"
    )
    # info_batch against its floor, the loop of info() over the same words (all of them: words
    # of every opcode, executable or not, interleaved rounds)
    loop_t, batch_t = [], []
    for _ in range(a.rounds):
        loop_t.append(best(lambda: [mod.info(w) for w in words], 1)[0])
        batch_t.append(best(lambda: mod.info_batch(words), 1)[0])
    n = len(words)
    print(
        f"  info_batch: {min(batch_t) / n * 1e6:.0f} us a word CPU (median "
        f"{sorted(batch_t)[len(batch_t) // 2] / n * 1e6:.0f}); loop of info() "
        f"{min(loop_t) / n * 1e6:.0f} (median {sorted(loop_t)[len(loop_t) // 2] / n * 1e6:.0f}); "
        f"{n} words of every opcode"
    )
    cpu, _ = best(lambda: mod.coverage(words), 3)
    print(f"  coverage: {cpu / len(words) * 1e6:.0f} us a word CPU")
    w = next(w for w in known if mod.info(w).writes).tobytes()
    plain = mod.Executor()
    sink: list[dict[str, Any]] = []
    traced = mod.Executor(trace=sink.append, trace_bytes="hash")
    plain.run(w)
    traced.run(w)
    reps = 2000
    p_cpu, _ = best(lambda: [plain.run(w) for _ in range(reps)], a.rounds)
    t_cpu, _ = best(lambda: [traced.run(w) for _ in range(200)], a.rounds)
    print(
        f"  run(): {p_cpu / reps * 1e6:.2f} us untraced; traced (callable, hash) "
        f"{t_cpu / 200 * 1e6:.0f} us"
    )


if __name__ == "__main__":
    main()
