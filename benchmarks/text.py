"""The text form's speed per instruction, against capstone and llvm-mc measured in the same run.

    python benchmarks/text.py [--gen mariana] [--words 20000] [--rounds 5] [--corpus program|random]

Contestants, per instruction (one 64-byte word, or one x86-64 instruction for the anchors):
- `disasm`: the batch path the listing reads (`TextForm.disasm_rows`), and `disasm(word)`
  called a word at a time (what a trace printer calls; its memos of struct and union texts
  emptied before each round, so a round starts cold); anchor: capstone's Python binding
  disassembling the `.text` of /usr/bin/python3 (or /bin/bash) into `mnemonic op_str` strings
  (`Cs.disasm`, CsInsn objects, detail off).
- `to_dict(word)`; anchor: capstone in detail mode (each instruction's mnemonic, op_str and
  operands read).
- `asm(text)` over the listing's lines (`TextForm.asm_lines`: the batch path, its lines split
  by the C text scanner where it is built, as the line above the table says), the same with
  the lines split in Python (what `asm` does where the scanner is not built), `asm(line)`
  called a line at a time (its kept deltas emptied before each round), and the per-line
  parser alone on the same text (`TextForm._asm_scalar`, what `asm(line)` was before it took
  the batch reader's expressions) for reference; anchor: `llvm-mc` assembling the same x86-64 instructions as capstone
  printed them (Intel syntax), one process, its start-up (an empty file) subtracted; CPU
  time of the child process.

The corpus: `program` (default) is valid TensorScalar-family words with 0-3 random byte
mutations (benchmarks/validate.py's corpus), `random` is random bytes under every decodable
opcode (every field non-zero, every float distinct: the text form's worst case). Rounds are
interleaved; the table gives min and median wall time and CPU time (user+sys) per instruction
and the ratios to the anchors (CPU time is the figure to read on a loaded machine).
"""

from __future__ import annotations

import argparse
import importlib
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "generated"))
sys.path.insert(0, str(REPO / "benchmarks"))


def text_section() -> bytes:
    """The `.text` bytes of a real x86-64 executable (capstone's input; 200 KB at least)."""
    for exe in ("/usr/bin/python3", "/bin/bash", sys.executable):
        path = os.path.realpath(exe)
        if not os.path.exists(path):
            continue
        out = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if " .text" in line:
                fields = line.split("]")[1].split()
                off, size = int(fields[3], 16), int(fields[4], 16)
                if size < 200_000:
                    break
                with open(path, "rb") as f:
                    f.seek(off)
                    return f.read(size)
    raise SystemExit("no ELF .text section found for the capstone anchor")


def corpus(m: Any, kind: str, n: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
    rng = np.random.default_rng(7)
    if kind == "random":
        form = sys.modules[f"{m.__name__}.decode"].TEXT
        W = rng.integers(0, 256, (n, 64), dtype=np.uint8)
        W[:, 0] = rng.choice(sorted(form.decoder.structs), n)
        return W
    from validate import seed_words  # type: ignore[import-not-found]

    seeds = np.frombuffer(b"".join(seed_words(m)), dtype=np.uint8).reshape(-1, 64)
    W = seeds[rng.integers(0, len(seeds), size=n)].copy()
    for _ in range(3):  # up to three random byte mutations per word, as validate.py does
        rows = np.flatnonzero(rng.random(n) < 0.5)
        W[rows, rng.integers(1, 64, size=rows.size)] = rng.integers(0, 256, rows.size, np.uint8)
    return W


def timed(fn: Callable[[], int]) -> tuple[float, float, int]:
    """(wall, cpu, count) of one call; cpu is this process's user+sys plus its children's."""
    r0, c0 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    count = fn()
    wall = time.perf_counter() - t0
    r1, c1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(
        b - a
        for a, b in (
            (r0.ru_utime, r1.ru_utime),
            (r0.ru_stime, r1.ru_stime),
            (c0.ru_utime, c1.ru_utime),
            (c0.ru_stime, c1.ru_stime),
        )
    )
    return wall, cpu, count


def disasm_per_word(form: Any, words: list[bytes]) -> Callable[[], int]:
    """`disasm(word)` a word at a time, its memos of struct and union texts emptied first
    (each round starts cold; the plans made once per opcode are kept)."""

    def run() -> int:
        form._forget()
        return len([form.disasm(w) for w in words])

    return run


def asm_per_line(form: Any, lines: list[str]) -> Callable[[], int]:
    """`asm(line)` a line at a time (what a trace reader calls), the deltas the line reader
    keeps emptied first (the statements' expressions, made once, are kept)."""

    def run() -> int:
        if form._fast is not None:
            for st in form._fast.statements.values():
                st.lines.clear()
            form._fast.epoch += 1
        return len([form.asm(line) for line in lines])

    return run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gen", default="mariana")
    ap.add_argument("--words", type=int, default=20000)
    ap.add_argument("--scalar-words", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--corpus", choices=("program", "random"), default="program")
    args = ap.parse_args()
    try:
        import capstone
    except ImportError:
        raise SystemExit("pip install capstone (the `bench` extra) for the anchors") from None
    m = importlib.import_module(f"tpb_isa.{args.gen}")
    form = sys.modules[f"tpb_isa.{args.gen}.decode"].TEXT
    W = corpus(m, args.corpus, args.words)
    S = W[: args.scalar_words]
    listing = "\n".join(form.disasm_rows(S))
    code = text_section()
    cs = capstone.Cs(capstone.CS_ARCH_X86, capstone.CS_MODE_64)
    cs.skipdata = True
    csd = capstone.Cs(capstone.CS_ARCH_X86, capstone.CS_MODE_64)
    csd.detail = True
    csd.skipdata = True
    x86_lines = [f"{i.mnemonic} {i.op_str}" for i in cs.disasm(code[:400_000], 0)]
    x86_lines = [s for s in x86_lines if not s.startswith(".byte")][:20000]
    llvm_mc = shutil.which("llvm-mc")
    tmp = Path(tempfile.mkdtemp(prefix="tpb_text_bench_"))
    asm_file, empty = tmp / "x86.s", tmp / "empty.s"
    empty.write_text(".intel_syntax noprefix\n")
    for _ in range(3):  # leave out what llvm-mc does not read back (branches to absolute targets)
        asm_file.write_text(".intel_syntax noprefix\n" + "\n".join(x86_lines) + "\n")
        if llvm_mc is None:
            break
        err = subprocess.run(
            [llvm_mc, "-triple=x86_64", "-filetype=obj", "-o", os.devnull, str(asm_file)],
            capture_output=True,
            text=True,
        ).stderr
        bad = {int(x.split(":")[1]) - 2 for x in err.splitlines() if x.startswith(str(asm_file))}
        if not bad:
            break
        x86_lines = [s for k, s in enumerate(x86_lines) if k not in bad]

    def mc(path: Path) -> int:
        assert llvm_mc is not None
        subprocess.run(
            [llvm_mc, "-triple=x86_64", "-filetype=obj", "-o", os.devnull, str(path)], check=True
        )
        return 1

    def asm_split_in_python() -> int:
        """`asm_lines` with the text scanner left out (the batch path's Python split)."""
        if form._fast is None:
            form.asm_lines(listing)
        form._fast.scanner = "never"
        try:
            return len(form.asm_lines(listing))
        finally:
            form._fast.scanner = "auto"

    textscan = importlib.import_module("tpb_isa._runtime.textscan")
    if textscan.load() is not None:
        print("asm: the lines split by the C text scanner")
    else:
        print(
            f"asm: the C text scanner is not built ({textscan.error()}): both asm rows split in Python"
        )
    contestants: dict[str, Callable[[], int]] = {
        "disasm batch (disasm_rows)": lambda: len(list(form.disasm_rows(W))),
        "disasm(word) per word": disasm_per_word(form, [S[i].tobytes() for i in range(len(S))]),
        "capstone text": lambda: len([f"{i.mnemonic} {i.op_str}" for i in cs.disasm(code, 0)]),
        "to_dict": lambda: len([form.to_dict(S[i].tobytes()) for i in range(S.shape[0])]),
        "capstone detail": lambda: len(
            [(i.mnemonic, i.op_str, i.operands) for i in csd.disasm(code, 0)]
        ),
        "asm": lambda: len(form.asm_lines(listing)),
        "asm, split in Python": asm_split_in_python,
        "asm(line) per line": asm_per_line(form, listing.split("\n")),
        "asm per-line parser": lambda: len(form._asm_scalar(listing)),
    }
    if llvm_mc:
        contestants["llvm-mc (per line)"] = lambda: mc(asm_file) * len(x86_lines)
        contestants["llvm-mc start-up"] = lambda: mc(empty)
    else:
        print("llvm-mc is not on PATH: no asm anchor")
    walls: dict[str, list[float]] = {k: [] for k in contestants}
    cpus: dict[str, list[float]] = {k: [] for k in contestants}
    for _ in range(args.rounds):
        for name, fn in contestants.items():
            wall, cpu, count = timed(fn)
            walls[name].append(wall / count)
            cpus[name].append(cpu / count)
    if llvm_mc:  # the start-up is paid once per file, not per line: take its fastest off
        n = len(x86_lines)
        for d in (walls, cpus):
            start = min(d.pop("llvm-mc start-up"))
            d["llvm-mc (per line)"] = [max(t - start / n, 1e-9) for t in d["llvm-mc (per line)"]]
    anchors = {
        "disasm batch (disasm_rows)": "capstone text",
        "disasm(word) per word": "capstone text",
        "to_dict": "capstone detail",
        "asm": "llvm-mc (per line)",
        "asm, split in Python": "llvm-mc (per line)",
        "asm(line) per line": "llvm-mc (per line)",
        "asm per-line parser": "llvm-mc (per line)",
    }
    print(
        f"{args.gen}, {args.corpus} corpus, {W.shape[0]} words ({S.shape[0]} for the scalar paths),"
        f" {args.rounds} interleaved rounds; per instruction, min / median"
    )
    print(f"{'':28} {'wall us':>17} {'cpu us':>17} {'x anchor (wall)':>17} {'x anchor (cpu)':>17}")
    for name in walls:
        w, c = walls[name], cpus[name]
        row = f"{name:28} {min(w) * 1e6:8.2f} {statistics.median(w) * 1e6:8.2f}"
        row += f" {min(c) * 1e6:8.2f} {statistics.median(c) * 1e6:8.2f}"
        a = anchors.get(name)
        if a in walls:
            for d in (walls, cpus):
                row += f" {min(d[name]) / min(d[a]):8.2f} "
                row += f"{statistics.median(d[name]) / statistics.median(d[a]):8.2f}"
        print(row)
    shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
