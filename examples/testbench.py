"""A constrained-random test bench on two generations: copy it and adapt it.

For each generation: a program of valid words the executor runs, about half of them reading
what an earlier word wrote (`random_program`); its coverage by opcode, by read-after-write pair
and by validator term (`coverage(..., program=True)`, as text and HTML); a trace of it on the
executor (JSON Lines, `tpb-isa-trace/1`); one numeric field of one word changed (the word still
valid) and the program traced again, `python -m tpb_isa trace-diff` naming where the two runs
part. Then what the two generations' programs have in common: the opcodes both hit, and those
only one does.

    PYTHONPATH=generated python examples/testbench.py --out tb [--gens mariana,maverick]
                                                      [--n 200] [--seed 1] [--dependent 0.5]

Writes into --out: <gen>.bin (the program's 64-byte words; `python -m tpb_isa disasm` lists
them, `python -m tpb_isa run` runs them), <gen>-coverage.txt and .html, <gen>-trace.jsonl,
<gen>-edited-trace.jsonl.
Exit 0 when every program ran; 1 when one raised on the executor; 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np


def run_bench(mod: ModuleType, out: Path, n: int, seed: int, dependent: float) -> Any:
    """One generation's bench: program, coverage, trace. Returns the coverage report."""
    gen = mod.NAME
    prog = mod.random_program(n, seed=seed, dependent=dependent)
    assert mod.validate_batch(prog.words).all()  # every word valid, by the headers' own C
    (out / f"{gen}.bin").write_bytes(prog.words.tobytes())

    report = mod.coverage(prog.words, program=True)
    (out / f"{gen}-coverage.txt").write_text(report.text(), encoding="utf-8")
    (out / f"{gen}-coverage.html").write_text(report.html(), encoding="utf-8")

    executor = mod.Executor(trace=str(out / f"{gen}-trace.jsonl"), trace_bytes="hash")
    executor.run_program(prog.words)
    found = one_field_edit(mod, prog.words, out)
    print(f"{gen}: one-field edit: {found or 'none changed what the program computes'}")

    deps = report.dependencies or {}
    hit = [op for op, h in report.opcodes.items() if h.valid]
    print(
        f"{gen}: {n} words, {prog.dependent:.0%} read an earlier word's writes "
        f"(asked {dependent:.0%}); {len(hit)} opcodes; {len(deps)} read-after-write opcode "
        f"pairs; trace {out / f'{gen}-trace.jsonl'}"
    )
    return report


def one_field_edit(mod: ModuleType, words: Any, out: Path) -> str | None:
    """Add one to one numeric field of one word (the first such edit that keeps the word valid
    and changes the run), trace the edited program, and return what trace-diff says."""
    gen = mod.NAME
    base, edited_trace = out / f"{gen}-trace.jsonl", out / f"{gen}-edited-trace.jsonl"
    for k, word in enumerate(words):
        d = mod.to_dict(bytes(word))
        d.pop("hex", None)
        for name, value in d["fields"].items():
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            e = copy.deepcopy(d)
            e["fields"][name] = value + 1
            try:
                new = mod.from_dict(e)
            except Exception:  # out of the field's range
                continue
            if not mod.validate(new):
                continue
            edited = words.copy()
            edited[k] = np.frombuffer(new, dtype=np.uint8)
            try:
                mod.Executor(trace=str(edited_trace), trace_bytes="hash").run_program(edited)
            except Exception:  # the executor refuses the edited program: try another edit
                continue
            diff = subprocess.run(
                [sys.executable, "-m", "tpb_isa", "trace-diff", str(base), str(edited_trace)],
                capture_output=True,
                text=True,
            )
            if diff.returncode == 1:
                return f"word {k} {name}: {value} -> {value + 1}; trace-diff: {diff.stdout.strip()}"
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, type=Path, help="directory for the outputs")
    ap.add_argument("--gens", default="mariana,maverick", help="two (or more) generations")
    ap.add_argument("--n", type=int, default=200, help="words per program")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dependent", type=float, default=0.5)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    reports = {}
    for gen in args.gens.split(","):
        mod = importlib.import_module(f"tpb_isa.{gen}")
        try:
            reports[gen] = run_bench(mod, args.out, args.n, args.seed, args.dependent)
        except Exception as e:  # an executor error names the instruction
            print(f"{gen}: {e}", file=sys.stderr)
            return 1
    # across the generations: the opcodes every program hit, and those only some did
    hits = {g: {op for op, h in r.opcodes.items() if h.valid} for g, r in reports.items()}
    both = set.intersection(*hits.values())
    print(f"opcodes hit on every generation: {', '.join(f'{op:#04x}' for op in sorted(both))}")
    for g, ops in hits.items():
        only = sorted(ops - both)
        print(f"  only on {g}: {', '.join(f'{op:#04x}' for op in only) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
