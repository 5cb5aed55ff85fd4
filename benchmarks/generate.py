"""Generate speed: `tpbgen generate` and `generate --check` with the cache warm, against a cold run.

    python benchmarks/generate.py [--headers vendor_headers] [--rounds 7]

Baseline: `tpbgen generate` with an empty TPBGEN_CACHE_DIR (every stage runs: ingest, the layout
proof with the C compiler, translation, rendering) into an output directory that is already
current, so it writes nothing. Measured against it, in the same rounds: `generate` and
`generate --check` with the cache filled by an earlier run (IR, layout proof, rendered package).
Each is a fresh `python -m tpbgen` process (start-up and imports included, as a user pays them).
Rounds are interleaved (cold, warm, warm --check, cold, ...); min and median of each are printed,
wall time and the process's CPU time (user + sys, children such as cpp and gcc included: on a
loaded machine the steadier of the two).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CPU: dict[str, list[float]] = {}


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(args: list[str], cache: Path, name: str = "") -> float:
    env = {**os.environ, "TPBGEN_CACHE_DIR": str(cache)}
    c0, t0 = _children_cpu(), time.perf_counter()
    p = subprocess.run(
        [sys.executable, "-m", "tpbgen", *args], env=env, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"tpbgen {' '.join(args)} failed ({p.returncode}):\n{p.stderr}")
    CPU.setdefault(name, []).append(_children_cpu() - c0)
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--headers", type=Path, default=Path("vendor_headers"))
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out, warm = Path(tmp) / "out", Path(tmp) / "warm"
        gen = ["generate", "--headers", str(a.headers), "--out", str(out)]
        run(gen, warm)  # the output directory, and the warm cache
        times: dict[str, list[float]] = {"cold": [], "warm": [], "warm --check": []}
        for i in range(a.rounds):
            # a new, empty cache dir
            times["cold"].append(run(gen, Path(tmp) / f"cold{i}", "cold"))
            times["warm"].append(run(gen, warm, "warm"))
            times["warm --check"].append(run([*gen, "--check"], warm, "warm --check"))
    cold_min, cold_med = min(times["cold"]), statistics.median(times["cold"])
    cpu_min, cpu_med = min(CPU["cold"]), statistics.median(CPU["cold"])
    print(f"{a.rounds} interleaved rounds, each a fresh `python -m tpbgen` process")
    for name, ts in times.items():
        lo, med = min(ts), statistics.median(ts)
        what = {
            "cold": "generate, empty TPBGEN_CACHE_DIR (baseline)",
            "warm": "generate, warm cache",
            "warm --check": "generate --check, warm cache",
        }[name]
        clo, cmed = min(CPU[name]), statistics.median(CPU[name])
        print(
            f"{what:44s} min {lo * 1e3:7.0f} ms  median {med * 1e3:7.0f} ms"
            f"  ({lo / cold_min:.2f}x / {med / cold_med:.2f}x the baseline)"
            f"  CPU min {clo * 1e3:7.0f} ms  median {cmed * 1e3:7.0f} ms"
            f"  ({clo / cpu_min:.2f}x / {cmed / cpu_med:.2f}x)"
        )


if __name__ == "__main__":
    main()
