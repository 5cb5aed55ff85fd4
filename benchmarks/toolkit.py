"""The test-bench toolkit's speed: valid words per second per opcode, near misses per second,
microseconds per `info`, and what tracing costs (and that it costs nothing when off).

    python benchmarks/toolkit.py [--gen mariana] [--n 10000] [--rounds 5]
    python benchmarks/toolkit.py --stimulus [--gen mariana] [--n 10000] [--rounds 5]

`--stimulus`: `random_words` (valid, near misses; steady state in one process, and the first
call of a fresh process with the search's results on disk) and `random_program` against the
floor `validate_batch(backend="numpy")` of the same words, min and median of interleaved
rounds (CPU; each round's own ratio); plus, once, a fresh process on an empty store (the
search itself).

Baselines, in the same run: the C backend's `validate_batch` of the same words (what checking a
word costs, the floor of any generator that checks what it makes), and `run()` of the same
prepared word on an executor made without `trace=` (for the tracing rows). Times are CPU time
(user+sys of this process) and wall time, min of --rounds; the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
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


def cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    c0 = time.process_time()
    out = fn()
    return time.process_time() - c0, out


FRESH = """
import sys, time, json
sys.path.insert(0, sys.argv[1])
import importlib
m = importlib.import_module("tpb_isa." + sys.argv[2])
n, seed = int(sys.argv[3]), int(sys.argv[4])
c0 = time.process_time()
W = m.random_words(n, seed=seed)
first = time.process_time() - c0
print(json.dumps({"first": first}))
"""


def fresh(gen: str, n: int, seed: int, cache: str) -> float:
    """CPU seconds of the first `random_words(n, seed)` of a fresh process (imports excluded)."""
    env = {**os.environ, "TPB_ISA_CACHE_DIR": cache}
    p = subprocess.run(
        [sys.executable, "-c", FRESH, str(REPO / "generated"), gen, str(n), str(seed)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return float(json.loads(p.stdout)["first"])


def _row(name: str, times: list[float], floors: list[float], n: int) -> str:
    ratios = [t / f for t, f in zip(times, floors, strict=True)]
    return (
        f"  {name:<28} {min(times) * 1e3:8.0f} / {statistics.median(times) * 1e3:8.0f} ms"
        f"   floor {min(floors) * 1e3:6.1f} / {statistics.median(floors) * 1e3:6.1f} ms"
        f"   ratio {min(times) / min(floors):6.1f}x (of the mins)"
        f" / {statistics.median(ratios):6.1f}x (median of the rounds')"
        f"   ({n / min(times):,.0f} words/s)"
    )


def stimulus_figures(gen: str, n: int, rounds: int, program_n: int) -> None:
    """The issue-37 figures: random_words and random_program against validate_batch(numpy)."""
    import importlib

    mod = importlib.import_module(f"tpb_isa.{gen}")
    from tpb_isa._runtime import cbuild

    cache = str(cbuild.cache_dir())  # the store every process of this user reads
    os.environ["TPB_ISA_CACHE_DIR"] = cache
    mod.random_words(n, seed=0)  # the search, or the store read (warms this process)
    mod.random_words(n, valid=False, seed=0)
    fresh(gen, n, 0, cache)  # the store is on disk now
    with tempfile.TemporaryDirectory() as empty:
        cold = fresh(gen, n, 0, empty)
    rows: dict[str, tuple[list[float], list[float]]] = {
        k: ([], []) for k in ("valid", "near", "fresh", "program")
    }
    for r in range(1, rounds + 1):  # interleaved: one of each per round
        t, W = cpu(lambda r=r: mod.random_words(n, seed=r))
        f, _ = cpu(lambda W=W: mod.validate_batch(W, backend="numpy"))
        rows["valid"][0].append(t)
        rows["valid"][1].append(f)
        t, W = cpu(lambda r=r: mod.random_words(n, valid=False, seed=r))
        f, _ = cpu(lambda W=W: mod.validate_batch(W, backend="numpy"))
        rows["near"][0].append(t)
        rows["near"][1].append(f)
        rows["fresh"][0].append(fresh(gen, n, r, cache))
        rows["fresh"][1].append(rows["valid"][1][-1])
        t, P = cpu(lambda r=r: mod.random_program(program_n, seed=r, dependent=0.5))
        f, _ = cpu(lambda P=P: mod.validate_batch(P.words, backend="numpy"))
        rows["program"][0].append(t)
        rows["program"][1].append(f)
    print(
        f"{gen}: stimulus against validate_batch(numpy) of the same words, CPU, min / median "
        f"of {rounds} interleaved rounds; store {cache}"
    )
    print(_row(f"random_words valid, n={n}", *rows["valid"], n))
    print(_row(f"random_words near, n={n}", *rows["near"], n))
    print(_row("first call, fresh process", *rows["fresh"], n))
    print(_row(f"random_program n={program_n}", *rows["program"], program_n))
    near = [a / b for a, b in zip(rows["near"][0], rows["valid"][0], strict=True)]
    print(f"  near / valid a word: {min(near):.2f}x / {statistics.median(near):.2f}x")
    print(f"  fresh process on an empty store (the search): {cold:.1f} s CPU, once")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", default="mariana")
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--stimulus", action="store_true", help="the issue-37 stimulus figures")
    ap.add_argument("--program-n", type=int, default=200)
    a = ap.parse_args()
    if a.stimulus:
        stimulus_figures(a.gen, a.n, a.rounds, a.program_n)
        return
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
