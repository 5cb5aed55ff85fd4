"""The kernels of ``tpb_isa.<gen>.kernels`` (softmax, rmsnorm, layernorm, cumsum, cummax) run as
programs on the executor's C backend, against the sum of their instructions' memcpy floors.

    python benchmarks/kernels.py [--gen mariana] [--elements 8192] [--rounds 7]
                                 [--cache cold,warm] [--kernels softmax,...] [--json] [--generated]

For each kernel on (128, ``--elements``) fp32 tensors: the time of one ``run_program`` of its
words (min and median of ``--rounds`` interleaved rounds), and the floor: for each instruction a
memcpy of (bytes it reads + bytes it writes) / 2 from buffers of its own (as many bytes read and
written as the instruction moves; ``info`` gives its spans), timed in the same rounds, summed per
round. The ratio (kernel over floor) is what the issue's "each kernel's time against the sum of
its instructions' memcpy floors" asks; the per-instruction goal of benchmarks/execute.py
(``--instr``) is <= 1.5x. Timing and cache states are execute.py's (``interleaved``): "cold"
writes a buffer four times the last-level cache before each timed call, "warm" runs the same call
just before. 16,384 elements do not fit: layernorm's four full-row tensors (input, output,
centred, square) need 256 KiB a partition, more than any generation's active SBUF but maverick's.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from execute import interleaved, load_generation  # the sibling script's timing and loading

PARTITIONS = 128
KERNELS = ("softmax", "rmsnorm", "layernorm", "cumsum", "cummax")


def moved_bytes(mod: Any, word: bytes) -> tuple[int, int]:
    """(bytes read, bytes written) by one word, from its footprint."""
    inf = mod.info(word)
    if not inf.footprint_known:
        raise SystemExit(f"{inf.mnemonic}: footprint unknown ({inf.why})")
    return (
        sum(s.stop - s.start for s in inf.reads),
        sum(s.stop - s.start for s in inf.writes),
    )


def run_kernel(
    mod: Any, kernels: Any, name: str, elements: int, rounds: int, caches: list[str]
) -> dict[str, Any]:
    k = getattr(kernels, name)(shape=(PARTITIONS, elements), dtype="fp32")
    x = np.random.default_rng(0).standard_normal((PARTITIONS, elements)).astype(np.float32)
    results = {b: k(x, backend=b) for b in ("c", "numpy")}
    if not np.array_equal(results["c"], results["numpy"]):
        raise SystemExit(f"{name}: the backends' bits differ")
    ex = mod.Executor(backend="c")
    k.write_inputs(ex, x)
    fns: dict[str, Any] = {"kernel_c": lambda: ex.run_program(k.words)}
    steps = []
    for i, word in enumerate(k.words):
        read, written = moved_bytes(mod, bytes(word))
        half = max((read + written) // 2, 1)
        src, dst = np.ones(half, np.uint8), np.empty(half, np.uint8)
        fns[f"memcpy_{i}"] = lambda src=src, dst=dst: np.copyto(dst, src)
        steps.append({"mnemonic": mod.info(bytes(word)).mnemonic, "read": read, "written": written})
    out: dict[str, Any] = {"instructions": steps}
    for cache in caches:
        times = interleaved(fns, rounds, cache)
        floor = [sum(times[f"memcpy_{i}"][r] for i in range(len(steps))) for r in range(rounds)]
        kern = times["kernel_c"]
        out[cache] = {
            "kernel_min": min(kern),
            "kernel_median": statistics.median(kern),
            "floor_min": min(floor),
            "floor_median": statistics.median(floor),
            "over_floor_min": min(kern) / min(floor),
            "over_floor_median": statistics.median(kern) / statistics.median(floor),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gen", default="mariana")
    ap.add_argument("--elements", type=int, default=8192)
    ap.add_argument("--rounds", type=int, default=7, help="interleaved rounds (>= 7)")
    ap.add_argument("--cache", default="cold,warm", help="comma-separated: cold, warm")
    ap.add_argument("--kernels", default=",".join(KERNELS), help="comma-separated kernel names")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--generated", action="store_true", help="benchmark generated/")
    args = ap.parse_args(argv)
    caches = [c for c in args.cache.split(",") if c]
    for c in caches:
        if c not in ("cold", "warm"):
            raise SystemExit(f"unknown cache state {c!r}; expected cold and/or warm")
    mod, origin = load_generation(args.gen, args.generated)
    kernels = importlib.import_module(f"{mod.__name__}.kernels")
    unsupported = importlib.import_module(f"{mod.__name__}.executor").UnsupportedError
    results: dict[str, Any] = {"generation": args.gen, "from": origin, "rounds": args.rounds,
                               "elements": args.elements}  # fmt: skip
    for name in [n for n in args.kernels.split(",") if n]:
        try:
            results[name] = run_kernel(mod, kernels, name, args.elements, args.rounds, caches)
        except unsupported as e:
            results[name] = {"unsupported": str(e)}
    if args.json:
        print(json.dumps(results, indent=2, sort_keys=True))
        return 0
    print(f"kernels on {PARTITIONS} x {args.elements} fp32, tpb_isa.{args.gen} from {origin}, C "
          f"backend; min / median of {args.rounds} interleaved rounds")  # fmt: skip
    for name, r in results.items():
        if not isinstance(r, dict):
            continue
        if "unsupported" in r:
            print(f"\n{name}: {r['unsupported']}")
            continue
        ops = ", ".join(s["mnemonic"] for s in r["instructions"])
        print(f"\n{name}: {len(r['instructions'])} instructions ({ops})")
        for cache in caches:
            m = r[cache]
            print(f"  {cache:5s} kernel {m['kernel_min'] * 1e3:7.3f} / {m['kernel_median'] * 1e3:7.3f} ms"
                  f"   floor {m['floor_min'] * 1e3:7.3f} / {m['floor_median'] * 1e3:7.3f} ms"
                  f"   x floor {m['over_floor_min']:5.2f} / {m['over_floor_median']:5.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
