"""How long `tpbgen audit --all` takes with a warm IR cache, relative to ingesting one generation
cold (an empty TPBGEN_CACHE_DIR: preprocess, parse, build, write the cache).

    python benchmarks/audit.py [--headers vendor_headers] [--gen maverick] [--repeat 5]

Prints absolute times (median of --repeat runs) and the ratios, in one run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
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
    args = ap.parse_args()
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
