"""The numpy backend of `validate_batch` against the C loop of the compiled headers, with its
temporaries and its fixed cost (issue 28).

    python benchmarks/validate_numpy.py [--gen mariana] [--sizes 1,100,10000,1000000] [--rounds 5]
        [--chunk N] [--scalar-below N] [--temporaries X] [--uniform]

The corpus is benchmarks/validate.py's (valid words of every top-level validator with random
byte mutations; `--uniform`: of the first seed's validator alone, the largest working set). For each size: the time of the numpy backend and of the C backend
(`backend="c"`, the generation's compiled validators: the C loop), min and median of interleaved
rounds, their ratios, and the peak of the numpy call's allocations (tracemalloc, which numpy
reports to) as a multiple of the words' bytes. The 1-word size is the call's fixed cost.
`--chunk N` sets the numpy backend's chunk (BatchValidators.CHUNK; a huge N is the unchunked
backend of before); `--scalar-below N` BatchValidators.SCALAR_BELOW (0: every word through the
array code, as before it); `--temporaries X` BatchValidators.TEMPORARIES (the share of the
batch's bytes a validator's piece may hold: a large X is one piece of up to ROWS rows, as
before the read plans).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "generated"))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "benchmarks"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gen", default="mariana")
    ap.add_argument("--sizes", default="1,100,10000,1000000")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--chunk", type=int, default=0)
    ap.add_argument("--scalar-below", type=int, default=-1)
    ap.add_argument("--temporaries", type=float, default=-1.0)
    ap.add_argument("--uniform", action="store_true")
    args = ap.parse_args(argv)
    import validate

    m = importlib.import_module(f"tpb_isa.{args.gen}")
    vector = importlib.import_module("tpb_isa._runtime.vector")
    if args.chunk:
        vector.BatchValidators.CHUNK = args.chunk
    if args.scalar_below >= 0:
        vector.BatchValidators.SCALAR_BELOW = args.scalar_below
    if args.temporaries >= 0:
        vector.BatchValidators.TEMPORARIES = args.temporaries
    rng = np.random.default_rng(0)
    seeds = np.frombuffer(b"".join(validate.seed_words(m)), np.uint8).reshape(-1, 64)
    f = m.validate_batch
    print(
        f"tpb_isa.{args.gen}: numpy validate_batch, chunk {vector.BatchValidators.CHUNK}, "
        f"scalar below {vector.BatchValidators.SCALAR_BELOW} words an opcode, "
        f"pieces within {getattr(vector.BatchValidators, 'TEMPORARIES', 'no share')} of the words; "
        f"{'one validator' if args.uniform else 'mixed'} words; min / median of interleaved rounds"
    )
    for n in (int(x) for x in args.sizes.split(",")):
        W = seeds[rng.integers(0, 1 if args.uniform else len(seeds), n)].copy()
        for _ in range(2):
            r, c = rng.integers(0, n, n // 2), rng.integers(1, 64, n // 2)
            W[r, c] = rng.integers(0, 256, n // 2)
        want = f(W, backend="c")
        ts, tc = [], []
        for _ in range(args.rounds):  # interleaved
            t0 = time.perf_counter()
            got = f(W, backend="numpy")
            ts.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            f(W, backend="c")
            tc.append(time.perf_counter() - t0)
            assert (got == want).all()
        tracemalloc.start()
        f(W, backend="numpy")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        ms, mc = statistics.median(ts), statistics.median(tc)
        print(
            f"{n:>9} words: numpy {min(ts) * 1e3:9.3f} / {ms * 1e3:9.3f} ms, "
            f"C {min(tc) * 1e3:8.3f} / {mc * 1e3:8.3f} ms, "
            f"{min(ts) / min(tc):6.1f}x / {ms / mc:6.1f}x; "
            f"temporaries {peak / W.nbytes:5.2f}x the words ({peak / 2**20:.1f} MiB)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
