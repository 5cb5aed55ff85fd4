"""How long `tpbgen audit --all` takes with a warm IR cache, relative to ingesting one generation
cold (an empty TPBGEN_CACHE_DIR: preprocess, parse, build, write the cache).

    python benchmarks/audit.py [--headers vendor_headers] [--gen maverick] [--repeat 5]

Prints absolute times (median of --repeat runs) and the ratios, in one run.

    python benchmarks/audit.py --processes 7 [--headers vendor_headers] [--gen maverick]

As processes (issue 28: at most 0.4x): `python -m tpbgen audit --all` with a warm cache against
`python -m tpbgen inspect --gen maverick` with an empty one, each a fresh process (start-up and
imports included, as a user pays them), in interleaved rounds; min and median of wall and CPU
time (user + sys, the preprocessor's processes included) and of each round's own ratio.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tpbgen.cli import main as tpbgen_main
from tpbgen.frontend.discover import discover
from tpbgen.frontend.ingest import ingest, ingest_root


def _median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(times)


def _quiet_cli(argv: list[str]) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return tpbgen_main(argv)


def _process(argv: list[str], cache: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one `python -m tpbgen` process, its children included."""
    env = {**os.environ, "TPBGEN_CACHE_DIR": cache}
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(
        [sys.executable, "-m", "tpbgen", *argv], env=env, capture_output=True, check=False
    )
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):  # audit exits 1 on breaking findings, as asked
        raise SystemExit(f"tpbgen {' '.join(argv)} failed ({p.returncode}):\n{p.stderr.decode()}")
    return wall, (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)


def processes(headers: Path, gen: str, rounds: int) -> None:
    audit = ["audit", "--all", "--headers", str(headers)]
    inspect = ["inspect", "--gen", gen, "--headers", str(headers)]
    with tempfile.TemporaryDirectory(prefix="tpbgen-bench-") as tmp:
        warm = str(Path(tmp) / "warm")
        _process(audit, warm)  # fills the warm cache (IRs, audit facts)
        got: dict[str, list[tuple[float, float]]] = {"inspect": [], "audit": []}
        for _ in range(rounds):
            got["inspect"].append(_process(inspect, tempfile.mkdtemp(dir=tmp)))
            got["audit"].append(_process(audit, warm))
    rows = {
        f"inspect --gen {gen}, empty cache (baseline)": got["inspect"],
        "audit --all, warm cache": got["audit"],
    }
    for name, ts in rows.items():
        w, c = [t[0] for t in ts], [t[1] for t in ts]
        print(
            f"{name:40s} wall min {min(w) * 1e3:6.0f} median {statistics.median(w) * 1e3:6.0f} ms"
            f"   CPU min {min(c) * 1e3:6.0f} median {statistics.median(c) * 1e3:6.0f} ms"
        )
    for k, what in ((0, "wall"), (1, "CPU")):
        a = [t[k] for t in got["audit"]]
        i = [t[k] for t in got["inspect"]]
        own = [x / y for x, y in zip(a, i, strict=True)]
        print(
            f"audit / inspect by {what}: {min(a) / min(i):.2f}x (min / min), "
            f"{statistics.median(a) / statistics.median(i):.2f}x (median / median), rounds' own "
            f"{min(own):.2f}x / {statistics.median(own):.2f}x (min / median); goal <= 0.4x"
        )
    print(f"{rounds} interleaved rounds, each command a fresh process")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--headers", type=Path, default=Path(__file__).resolve().parent.parent / "vendor_headers"
    )
    ap.add_argument(
        "--gen",
        default="maverick",
        help="the generation ingested cold (default: maverick, the largest)",
    )
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--processes",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="compare warm audit --all and cold inspect as processes, in ROUNDS interleaved rounds",
    )
    args = ap.parse_args()
    if args.processes:
        processes(args.headers, args.gen, args.processes)
        return 0
    source = next((s for s in discover(args.headers) if s.name == args.gen), None)
    if source is None:
        print(f"no generation {args.gen} under {args.headers}", file=sys.stderr)
        return 2
    saved = os.environ.get("TPBGEN_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix="tpbgen-bench-") as tmp:
        try:
            # cold: every run gets its own empty cache directory
            def cold() -> None:
                os.environ["TPBGEN_CACHE_DIR"] = tempfile.mkdtemp(dir=tmp)
                r = ingest(source, use_cache=True)
                assert not r.from_cache

            cold()  # imports and the preprocessor's first start are not what we measure
            cold_ms = _median_ms(cold, args.repeat)

            # warm: one cache, filled once
            os.environ["TPBGEN_CACHE_DIR"] = str(Path(tmp) / "warm")
            ingest_root(args.headers)
            argv = ["audit", "--all", "--headers", str(args.headers)]
            _quiet_cli([*argv, "--format", "json"])
            load_ms = _median_ms(lambda: ingest_root(args.headers), args.repeat)
            per_fmt = {
                fmt: _median_ms(lambda fmt=fmt: _quiet_cli([*argv, "--format", fmt]), args.repeat)
                for fmt in ("text", "md", "json", "html")
            }
        finally:
            if saved is None:
                os.environ.pop("TPBGEN_CACHE_DIR", None)
            else:
                os.environ["TPBGEN_CACHE_DIR"] = saved
    n = len(discover(args.headers))
    print(f"ingest {args.gen} cold (empty cache):           {cold_ms:8.1f} ms   1.00")
    print(
        f"load {n} generations from the warm IR cache:    {load_ms:8.1f} ms   {load_ms / cold_ms:5.2f}"
    )
    for fmt, ms in per_fmt.items():
        print(
            f"audit --all --format {fmt:<5} (warm cache):      {ms:8.1f} ms   {ms / cold_ms:5.2f}"
        )
    print(f"median of {args.repeat} runs; ratio = time / cold ingest of {args.gen}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
