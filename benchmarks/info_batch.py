"""`info_batch(words)` against the loop `[info(w) for w in words]` on distinct random valid words.

    python benchmarks/info_batch.py [--gen mariana] [--n 10000] [--rounds 5] [--all-opcodes]

The words are `random_words` of every opcode the executor runs (`--all-opcodes`: of every
opcode the generation decodes, refused ones included), about n in all, duplicates dropped so
that every word is distinct (a repeated word costs `info_batch` nothing). The two are timed in
interleaved rounds (loop, batch, loop, batch, ...), CPU time of this process (the machine is
shared), and the report gives min and median per word, overall and per Engine method (the
loop's per-word cost of that group against the batch of that group alone). Both must give
equal results (checked once, on every word). Each timing includes one collection of the
collector's youngest generation with the result held (`cpu`). `info_batch` makes its Spans when
the first word's `reads` or `writes` is read (all of them at once): the line "every span read"
times `info_batch` and then reading every word's reads and writes (interleaved with the others).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "generated"))


def cpu(fn: Callable[[], Any]) -> float:
    """CPU time of fn() and of a collection of the cyclic collector's youngest generation with
    its result still held (then dropped, untimed): the one scan of every object a contender
    makes and hands back. The loop pays it as it goes; `info_batch` pauses the collector while
    it makes its objects, whose scan would otherwise fall on whatever is timed next, or on
    nothing when the result is dropped at once."""
    c0 = time.process_time()
    result = fn()
    gc.collect(0)
    t = time.process_time() - c0
    del result
    return t


def read_all(infos: list[Any]) -> list[Any]:
    """`infos` with every word's reads and writes read (info_batch makes its Spans then)."""
    for i in infos:
        i.reads, i.writes  # noqa: B018
    return infos


def rounds(fns: dict[str, Callable[[], Any]], n: int) -> dict[str, list[float]]:
    """Each of `fns` timed `n` times, interleaved."""
    out: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(n):
        for k, fn in fns.items():
            out[k].append(cpu(fn))
    return out


def line(name: str, words: int, t: dict[str, list[float]], batch_key: str = "batch") -> str:
    loop, batch = t["loop"], t[batch_key]
    us = lambda xs, f: f(xs) / words * 1e6  # noqa: E731
    return (
        f"  {name:<22} {words:>6} words: loop {us(loop, min):7.1f} us/word (median "
        f"{us(loop, statistics.median):7.1f}), info_batch {us(batch, min):6.1f} (median "
        f"{us(batch, statistics.median):6.1f}): {min(loop) / min(batch):5.1f}x min, "
        f"{statistics.median(loop) / statistics.median(batch):5.1f}x median"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", default="mariana")
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--all-opcodes", action="store_true")
    ap.add_argument("--by-method", action="store_true", help="also time each Engine method")
    a = ap.parse_args()
    mod = importlib.import_module(f"tpb_isa.{a.gen}")
    ex_cls = mod.Executor
    ops = sorted(mod.bench.STIMULUS.opcodes()) if a.all_opcodes else list(ex_cls.executable())
    per = -(-a.n // len(ops))
    W = np.vstack([mod.random_words(per, opcode=op, seed=op) for op in ops])
    W = W[np.sort(np.unique(W, axis=0, return_index=True)[1])]  # distinct, in their order
    assert mod.info_batch(W) == [mod.info(w) for w in W], "info_batch differs from info"
    what = "every decodable opcode" if a.all_opcodes else "the executable opcodes"
    print(
        f"{a.gen}: {len(W)} distinct random valid words of {what} ({len(ops)}), "
        f"CPU time, {a.rounds} interleaved rounds"
    )
    t = rounds(
        {
            "loop": lambda: [mod.info(w) for w in W],
            "batch": lambda: mod.info_batch(W),
            "read": lambda: read_all(mod.info_batch(W)),
        },
        a.rounds,
    )
    print(line("all", len(W), t))
    print(line("all, every span read", len(W), t, "read"))
    if a.by_method:
        methods: dict[str, list[int]] = {}
        for op in ops:
            handler = ex_cls.BINDINGS.get(op)
            key = handler.record.__name__ if handler else "refused"
            methods.setdefault(key, []).append(op)
        for key, group in sorted(methods.items()):
            G = W[np.isin(W[:, 0], group)]
            t = rounds(
                {
                    "loop": lambda G=G: [mod.info(w) for w in G],
                    "batch": lambda G=G: mod.info_batch(G),
                },
                a.rounds,
            )
            print(line(key, len(G), t))


if __name__ == "__main__":
    main()
