"""Ingest speed: all four generations cold, then with the IR cache warm, against pycparser alone.

    python benchmarks/ingest.py [--headers vendor_headers] [--rounds 7]

Prints, in one run, times and ratios against the baseline "pycparser alone on the same
preprocessed text" (the part of ingest no implementation can skip; a fresh CParser per
generation, with Python's default garbage collection, as a user of pycparser runs it), and the
warm ingest against the cold one. tpbgen parses with pycparser's parser and a faster lexer of its
own (frontend/lexer.py, the same tokens): that parse alone is printed too, as a second floor,
so the share of the gain that is the lexer's and the share of tpbgen's own work both show. Rounds are interleaved (baseline, cold, warm, baseline, ...);
min and median of each are printed, and the min and median of each round's own ratio. Cold: an
empty cache directory each time (preprocessing, parsing, the IR build and writing the cache
entry); warm: every IR from the cache. CPU times (the process's threads and its cpp children)
are printed too: what a cold ingest costs the machine, where wall time hides cpp behind the
parse.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from pycparser import c_parser

from tpbgen.frontend.dialect import reduce_dialect
from tpbgen.frontend.discover import discover
from tpbgen.frontend.ingest import ingest_root
from tpbgen.frontend.lexer import lexer_class
from tpbgen.frontend.preprocess import preprocess


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--headers", type=Path, default=Path("vendor_headers"))
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    sources = discover(args.headers)
    texts = [reduce_dialect(preprocess(s).text)[0] for s in sources]

    def parse_only() -> None:
        for t in texts:
            c_parser.CParser().parse(t, "<tu>")

    def parse_fast_lexer() -> None:  # (the collector on, as in the baseline)
        for t in texts:
            c_parser.CParser(lexer=lexer_class()).parse(t, "<tu>")

    def cold() -> None:
        with tempfile.TemporaryDirectory() as cache:
            os.environ["TPBGEN_CACHE_DIR"] = cache
            ingest_root(args.headers)

    warm_dir = tempfile.TemporaryDirectory()

    def warm() -> None:
        os.environ["TPBGEN_CACHE_DIR"] = warm_dir.name
        results = ingest_root(args.headers)
        assert all(r.from_cache for r in results)

    os.environ["TPBGEN_CACHE_DIR"] = warm_dir.name
    ingest_root(args.headers)  # fill the warm cache
    parse_only()  # and pycparser's tables
    times: dict[str, list[float]] = {"parse": [], "lexer": [], "cold": [], "warm": []}
    cpu: dict[str, list[float]] = {k: [] for k in times}
    steps = (("parse", parse_only), ("lexer", parse_fast_lexer), ("cold", cold), ("warm", warm))
    for _ in range(args.rounds):
        for name, fn in steps:
            c0 = cpu_seconds()
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
            cpu[name].append(cpu_seconds() - c0)
    warm_dir.cleanup()
    lo = {k: min(v) for k, v in times.items()}
    med = {k: statistics.median(v) for k, v in times.items()}
    lines = sum(t.count("\n") for t in texts)
    print(f"generations: {', '.join(s.name for s in sources)} ({lines} preprocessed lines)")
    print(f"{args.rounds} interleaved rounds; min / median")
    print(
        f"baseline  pycparser alone, same text : {lo['parse'] * 1e3:7.1f} / {med['parse'] * 1e3:7.1f} ms"
    )
    print(
        f"          pycparser, tpbgen's lexer  : {lo['lexer'] * 1e3:7.1f} / {med['lexer'] * 1e3:7.1f} ms"
        f"  {lo['lexer'] / lo['parse']:.2f}x / {med['lexer'] / med['parse']:.2f}x the baseline"
        f" ({lexer_class().__name__})"
    )
    print(
        f"ingest    all four, cold (no cache)  : {lo['cold'] * 1e3:7.1f} / {med['cold'] * 1e3:7.1f} ms"
        f"  {lo['cold'] / lo['parse']:.2f}x / {med['cold'] / med['parse']:.2f}x the baseline"
    )
    print(
        f"ingest    all four, warm IR cache    : {lo['warm'] * 1e3:7.1f} / {med['warm'] * 1e3:7.1f} ms"
        f"  {lo['warm'] / lo['cold']:.1%} / {med['warm'] / med['cold']:.1%} of cold"
    )
    # On shared cores the machine's speed drifts within a run: each round's own ratio (its cold
    # ingest over its baseline, run moments apart) is steadier than a ratio of two minima.
    paired = [c / p for c, p in zip(times["cold"], times["parse"], strict=True)]
    own = [c / p for c, p in zip(times["cold"], times["lexer"], strict=True)]
    warm_paired = [w / c for w, c in zip(times["warm"], times["cold"], strict=True)]
    print(
        f"per round (min / median of the rounds' own ratios): cold {min(paired):.2f}x / "
        f"{statistics.median(paired):.2f}x the baseline, warm {min(warm_paired):.1%} / "
        f"{statistics.median(warm_paired):.1%} of cold; cold {min(own):.2f}x / "
        f"{statistics.median(own):.2f}x the parse with tpbgen's lexer"
    )
    # CPU time: this process's threads and the cpp processes it ran, against the baseline's (the
    # goal is set in wall time). A cold ingest runs cpp beside the parser, so its CPU time
    # exceeds its wall time.
    clo = {k: min(v) for k, v in cpu.items()}
    cmed = {k: statistics.median(v) for k, v in cpu.items()}
    print(
        f"cpu time  (with cpp's processes)     : baseline {clo['parse'] * 1e3:.1f} / "
        f"{cmed['parse'] * 1e3:.1f} ms, cold {clo['cold'] * 1e3:.1f} / {cmed['cold'] * 1e3:.1f} ms "
        f"({clo['cold'] / clo['parse']:.2f}x / {cmed['cold'] / cmed['parse']:.2f}x), warm "
        f"{clo['warm'] * 1e3:.1f} / {cmed['warm'] * 1e3:.1f} ms "
        f"({clo['warm'] / clo['cold']:.1%} / {cmed['warm'] / cmed['cold']:.1%} of cold)"
    )


def cpu_seconds() -> float:
    """CPU seconds used so far by this process (all its threads) and its waited-for children (the
    cpp runs); process time alone where resource usage is not available."""
    try:
        import resource
    except ImportError:  # not a Unix
        return time.process_time()
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


if __name__ == "__main__":
    main()
