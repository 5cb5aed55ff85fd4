"""Generate speed: `tpbgen generate` and `generate --check` with the cache warm, against a cold run.

    python benchmarks/generate.py [--headers vendor_headers] [--rounds 7]

Baseline: `tpbgen generate` with an empty TPBGEN_CACHE_DIR (every stage runs: ingest, the layout
proof with the C compiler, translation, the predicate proof, rendering) into an output directory
that is already current, so it writes nothing. Measured against it, in the same rounds:
`generate` and `generate --check` with the cache filled by an earlier run (IR, layout proof,
rendered package). And the floor the cold run is held to (issue 28: at most 3x): "the parse
alone", a fresh Python process that parses the same preprocessed text (the four generations',
written to files beforehand, as tpbgen's front end hands it to the parser) with stock pycparser,
a fresh CParser per generation. Each is a fresh process (start-up and imports included, as a
user pays them). Rounds are interleaved (parse, cold, warm, warm --check, parse, ...); min and
median of each are printed, wall time and the process's CPU time (user + sys, children such as
cpp and gcc included: on a loaded machine the steadier of the two), and the cold run against
the parse alone (min / min, median / median, and the median of each round's own ratio).

Bytecode (`--bytecode`, repeatable; default all three, each its own block of rounds): both
contestants start under the same conditions. `environment`: as this shell has it (with
PYTHONDONTWRITEBYTECODE=1 set, tpbgen's modules are compiled from source at every start while
installed packages such as pycparser load their bytecode: the floor's favour). `kept`: both with
every module's bytecode written beforehand (a warm-up run of each, PYTHONPYCACHEPREFIX a fresh
directory, PYTHONDONTWRITEBYTECODE unset), as an installed tpbgen runs. `none`: both compile
every module from source (PYTHONPYCACHEPREFIX an empty directory, nothing written), the
standard library's and numpy's included.

Two more rows in each round: `cold --no-verify-cc`, the cold run with both proofs (layouts and
predicates) off, against the parse alone (issue 38: at most 3x without the proof, 4.5x with it);
and `one-validator incremental`: `generate` on a copy of the drop whose mariana
`is_valid_tensor_scalar_op` lost one conjunct, with a copy of the cache an unchanged drop's run
filled (each round its own copy, made outside the timing), against the cold run (issue 38: at most
0.35x); its output directory was written by that drop's run beforehand, so it writes nothing.

Then the predicate proof's share of a cold generate (`--proof-rounds`, default 5): a fresh
process runs a cold `generate` with `tpbgen.checks.predicates.prove` timed (wall, and CPU time
with the compiler's processes), and prints its sum against the whole run's.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
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


def bytecode_env(condition: str, tmp: Path) -> dict[str, str]:
    """The environment both contestants run in under a bytecode `condition` (module docstring)."""
    env = dict(os.environ)
    if condition == "environment":
        return env
    prefix = tmp / f"pyc-{condition}"
    prefix.mkdir()
    env["PYTHONPYCACHEPREFIX"] = str(prefix)
    if condition == "kept":
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run(args: list[str], cache: Path, name: str = "", env: dict[str, str] | None = None) -> float:
    env = {**(os.environ if env is None else env), "TPBGEN_CACHE_DIR": str(cache)}
    c0, t0 = _children_cpu(), time.perf_counter()
    p = subprocess.run(
        [sys.executable, "-m", "tpbgen", *args], env=env, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"tpbgen {' '.join(args)} failed ({p.returncode}):\n{p.stderr}")
    CPU.setdefault(name, []).append(_children_cpu() - c0)
    return elapsed


# One cold generate in this process, the proof timed: prints "proof_wall proof_cpu all_wall all_cpu".
_PROOF_SHARE = r"""
import os, sys, time
from tpbgen.checks import predicates
from tpbgen.cli import main

def cpu():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system

spent = [0.0, 0.0]
real = predicates.prove

def timed(*args, **kwargs):
    w, c = time.perf_counter(), cpu()
    try:
        return real(*args, **kwargs)
    finally:
        spent[0] += time.perf_counter() - w
        spent[1] += cpu() - c

predicates.prove = timed
w, c = time.perf_counter(), cpu()
code = main(["generate", "--headers", sys.argv[1], "--out", sys.argv[2]])
w, c = time.perf_counter() - w, cpu() - c
print(code, spent[0], spent[1], w, c, file=sys.stderr)
"""


def proof_share(headers: Path, out: Path, cache: Path) -> tuple[float, float, float, float]:
    """(proof wall, proof CPU, generate wall, generate CPU) of one cold generate, in seconds."""
    env = {**os.environ, "TPBGEN_CACHE_DIR": str(cache)}
    p = subprocess.run(
        [sys.executable, "-c", _PROOF_SHARE, str(headers), str(out)],
        env=env,
        capture_output=True,
        text=True,
    )
    code, *times = p.stderr.strip().splitlines()[-1].split()
    if code != "0":
        raise SystemExit(f"generate failed:\n{p.stderr}")
    pw, pc, gw, gc = (float(t) for t in times)
    return pw, pc, gw, gc


# The floor: pycparser alone on the preprocessed text in the files named on the command line.
_PARSE_ALONE = r"""
import sys
from pathlib import Path
from pycparser import c_parser

for name in sys.argv[1:]:
    c_parser.CParser().parse(Path(name).read_text(encoding="utf-8"), "<tu>")
"""


def preprocessed(headers: Path, tmp: Path) -> list[str]:
    """Each generation's preprocessed text, as the parser sees it, in a file of its own."""
    from tpbgen.frontend.dialect import reduce_dialect
    from tpbgen.frontend.discover import discover
    from tpbgen.frontend.preprocess import preprocess

    names = []
    for k, src in enumerate(discover(headers)):
        f = tmp / f"tu{k}.i"
        f.write_text(reduce_dialect(preprocess(src).text)[0], encoding="utf-8")
        names.append(str(f))
    return names


def parse_alone(files: list[str], env: dict[str, str] | None = None) -> float:
    c0, t0 = _children_cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-c", _PARSE_ALONE, *files], check=True, env=env)
    elapsed = time.perf_counter() - t0
    CPU.setdefault("parse", []).append(_children_cpu() - c0)
    return elapsed


BYTECODE = ("environment", "kept", "none")

# The one-validator drop: one conjunct of mariana's is_valid_tensor_scalar_op dropped.
_EDITED = "neuron_mariana_arch_isa/tpb/aws_neuron_isa_tpb_assert.h"
_VALIDATOR = "STATIC inline bool is_valid_tensor_scalar_op("
_CONJUNCT = "            && is_valid_aluop(i.s3d3_ts.op1)\n"


def one_validator_drop(headers: Path, into: Path) -> Path | None:
    """A copy of the drop with one validator's body changed; None when the drop is not one
    this edit applies to."""
    h = headers / _EDITED
    text = h.read_text() if h.is_file() else ""
    at = text.find(_VALIDATOR)
    end = text.find("\n}\n", at)
    if at < 0 or text.count(_CONJUNCT, at, end) != 1:
        return None
    shutil.copytree(headers, into)
    edited = text[:at] + text[at:end].replace(_CONJUNCT, "") + text[end:]
    (into / _EDITED).write_text(edited)
    return into


def rounds(headers: Path, n: int, condition: str) -> None:
    """`n` interleaved rounds (parse alone, cold, warm, warm --check) under a bytecode condition."""
    with tempfile.TemporaryDirectory() as tmp:
        out, warm = Path(tmp) / "out", Path(tmp) / "warm"
        gen = ["generate", "--headers", str(headers), "--out", str(out)]
        env = bytecode_env(condition, Path(tmp))
        # the output directory and the warm cache; under `kept`, with the parse's and a warm
        # --check's runs, every module's bytecode (a cold run imports what the warm ones do)
        run(gen, warm, env=env)
        variant = one_validator_drop(headers, Path(tmp) / "variant")
        vgen = ["generate", "--headers", str(variant), "--out", str(Path(tmp) / "vout")]
        if variant is not None:  # its output directory, current before the rounds
            run(vgen, Path(tmp) / "vcache", env=env)
        files = preprocessed(headers, Path(tmp))
        parse_alone(files, env)
        run([*gen, "--check"], warm, env=env)
        CPU.clear()
        times: dict[str, list[float]] = {"cold": [], "warm": [], "warm --check": []}
        times["cold --no-verify-cc"] = []
        if variant is not None:
            times["incremental"] = []
        floor: list[float] = []
        for i in range(n):
            floor.append(parse_alone(files, env))
            # a new, empty cache dir
            times["cold"].append(run(gen, Path(tmp) / f"cold{i}", "cold", env))
            times["warm"].append(run(gen, warm, "warm", env))
            times["warm --check"].append(run([*gen, "--check"], warm, "warm --check", env))
            nv = [*gen, "--no-verify-cc"]
            times["cold --no-verify-cc"].append(
                run(nv, Path(tmp) / f"nv{i}", "cold --no-verify-cc", env)
            )
            if variant is not None:
                shutil.copytree(warm, Path(tmp) / f"inc{i}")  # the unchanged drop's cache
                times["incremental"].append(run(vgen, Path(tmp) / f"inc{i}", "incremental", env))
    cold_min, cold_med = min(times["cold"]), statistics.median(times["cold"])
    cpu_min, cpu_med = min(CPU["cold"]), statistics.median(CPU["cold"])
    print(f"bytecode {condition}: {n} interleaved rounds, each a fresh process")
    plo, pmed = min(floor), statistics.median(floor)
    pclo, pcmed = min(CPU["parse"]), statistics.median(CPU["parse"])
    print(
        f"{'floor: pycparser alone, same text':44s} min {plo * 1e3:7.0f} ms  median "
        f"{pmed * 1e3:7.0f} ms  CPU min {pclo * 1e3:7.0f} ms  median {pcmed * 1e3:7.0f} ms"
    )
    own = statistics.median(c / p for c, p in zip(times["cold"], floor, strict=True))
    cown = statistics.median(c / p for c, p in zip(CPU["cold"], CPU["parse"], strict=True))
    print(
        f"{'cold generate / the parse alone':44s} wall {cold_min / plo:.2f}x / "
        f"{cold_med / pmed:.2f}x (rounds' own {own:.2f}x)  CPU {cpu_min / pclo:.2f}x / "
        f"{cpu_med / pcmed:.2f}x (rounds' own {cown:.2f}x)  (goal <= 3x)"
    )
    nv, nvp = CPU["cold --no-verify-cc"], CPU["parse"]
    nown = statistics.median(c / p for c, p in zip(nv, nvp, strict=True))
    print(
        f"{'cold --no-verify-cc / the parse alone':44s} CPU {min(nv) / pclo:.2f}x / "
        f"{statistics.median(nv) / pcmed:.2f}x (rounds' own {nown:.2f}x)  (goal <= 3x; "
        f"with the proof {cpu_min / pclo:.2f}x / {cpu_med / pcmed:.2f}x, goal <= 4.5x)"
    )
    for name, ts in times.items():
        lo, med = min(ts), statistics.median(ts)
        what = {
            "cold": "generate, empty TPBGEN_CACHE_DIR (baseline)",
            "warm": "generate, warm cache",
            "warm --check": "generate --check, warm cache",
            "cold --no-verify-cc": "generate --no-verify-cc, empty cache",
            "incremental": "one-validator drop, the old drop's cache",
        }[name]
        clo, cmed = min(CPU[name]), statistics.median(CPU[name])
        print(
            f"{what:44s} min {lo * 1e3:7.0f} ms  median {med * 1e3:7.0f} ms"
            f"  ({lo / cold_min:.2f}x / {med / cold_med:.2f}x the baseline)"
            f"  CPU min {clo * 1e3:7.0f} ms  median {cmed * 1e3:7.0f} ms"
            f"  ({clo / cpu_min:.2f}x / {cmed / cpu_med:.2f}x)"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--headers", type=Path, default=Path("vendor_headers"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--proof-rounds", type=int, default=5)
    ap.add_argument("--bytecode", action="append", choices=BYTECODE, help="default: all three")
    a = ap.parse_args()
    conditions = a.bytecode or list(BYTECODE)
    if a.rounds:
        for condition in conditions:
            rounds(a.headers, a.rounds, condition)
    if a.proof_rounds:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            shares = [
                proof_share(a.headers, out, Path(tmp) / f"proof{i}") for i in range(a.proof_rounds)
            ]
        wall = sorted(pw / gw for pw, _, gw, _ in shares)
        cpu = sorted(pc / gc for _, pc, _, gc in shares)
        best = min(shares, key=lambda s: s[2])
        print(
            f"predicate proof in a cold generate ({a.proof_rounds} fresh processes): "
            f"{wall[0]:.0%} / {statistics.median(wall):.0%} of the wall time (min / median), "
            f"{cpu[0]:.0%} / {statistics.median(cpu):.0%} of the CPU time with the compiler's; "
            f"fastest run {best[0] * 1e3:.0f} of {best[2] * 1e3:.0f} ms"
        )


if __name__ == "__main__":
    main()
