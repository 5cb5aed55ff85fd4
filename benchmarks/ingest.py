"""Ingest speed: all four generations cold, then with the IR cache warm, against pycparser alone.

    python benchmarks/ingest.py [--headers vendor_headers] [--repeat 3]

Prints, in one run, seconds and ratios against the baseline "pycparser alone on the same
preprocessed text" (the part of ingest no implementation can skip).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from pycparser import c_parser

from tpbgen.frontend.dialect import reduce_dialect
from tpbgen.frontend.discover import discover
from tpbgen.frontend.ingest import ingest_root
from tpbgen.frontend.preprocess import preprocess


def best(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--headers", type=Path, default=Path("vendor_headers"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sources = discover(args.headers)
    texts = [reduce_dialect(preprocess(s).text)[0] for s in sources]

    def parse_only() -> None:
        for t in texts:
            c_parser.CParser().parse(t, "<tu>")

    def cold() -> None:
        with tempfile.TemporaryDirectory() as cache:
            os.environ["TPBGEN_CACHE_DIR"] = cache
            ingest_root(args.headers)

    with tempfile.TemporaryDirectory() as cache:
        os.environ["TPBGEN_CACHE_DIR"] = cache
        ingest_root(args.headers)  # fill the cache

        def warm() -> None:
            results = ingest_root(args.headers)
            assert all(r.from_cache for r in results)

        t_warm = best(warm, args.repeat)
    t_parse = best(parse_only, args.repeat)
    t_cold = best(cold, args.repeat)
    lines = sum(t.count("\n") for t in texts)
    print(f"generations: {', '.join(s.name for s in sources)} ({lines} preprocessed lines)")
    print(f"baseline  pycparser alone, same text : {t_parse * 1e3:8.1f} ms  1.00x")
    print(
        f"ingest    all four, cold (no cache)  : {t_cold * 1e3:8.1f} ms  {t_cold / t_parse:5.2f}x the baseline"
    )
    print(
        f"ingest    all four, warm IR cache    : {t_warm * 1e3:8.1f} ms  {t_warm / t_parse:5.2f}x the baseline ({t_cold / t_warm:.1f}x faster than cold)"
    )


if __name__ == "__main__":
    main()
