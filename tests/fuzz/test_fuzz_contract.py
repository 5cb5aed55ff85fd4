"""A bounded, seeded fuzz of tpbgen's inputs: each case mutates a copy of the mariana drop (a
header, instruction_mapping.json, the firmware overlay, a waivers file, a file replaced by a
FIFO, a directory or a symlink) or the command line, runs the real `tpbgen` process, and holds
it to the contract of issue 39:
- it ends (within TIMEOUT seconds: no hang);
- its exit code is 0, 1 or 2 (never 3, never a signal), with no traceback on standard error;
- exit 1 or 2 comes with a located message (on standard error, or as the findings a command
  prints): `file:line:col`, `file#/json/pointer`, a path, or the argument it is about
  (argparse's `argument --x:`), or audit's reason for exiting 1;
- the output directory is untouched (byte for byte) unless the run exited 0 writing it, and
  then it is complete: every file its MANIFEST.json lists, with that sha256, and no staging
  tree or lock left beside it.

Scale: TPBGEN_FUZZ_CASES cases (default 12, 24 at the full scale (tpb_scale)), seed TPBGEN_FUZZ_SEED (default
39); TPBGEN_FUZZ_REPORT=PATH writes the counts (cases tried, outcomes by class) as JSON. Every
case that breaks the contract is reported with its seed, mutation and command line, all at once.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tpb_paths import HEADER_ROOT
from tpb_scale import env_int

from .mutate import GEN, MUTATORS

CASES = env_int("TPBGEN_FUZZ_CASES", 12, 24)
SEED = int(os.environ.get("TPBGEN_FUZZ_SEED", "39"))
TIMEOUT = 120

LOCATED = re.compile(
    r"^(?:"
    r"(?!<input>)[^\s:#][^:#\n]*(?::\d+(?::\d+)?)?(?:#/?\S*)?: (?:error|warning) \["  # file, file:line:col, file#/ptr
    r"|tpbgen(?: \w+)?: error: "  # argparse: names the argument or what is missing
    r"|audit: exit 1: "  # audit's reason for failing (findings are in its report)
    r")",
    re.M,
)


def snapshot(tree: Path) -> dict[str, bytes] | None:
    """Every file below `tree` and its bytes (None: no such directory)."""
    if not tree.is_dir() or tree.is_symlink():
        return None
    return {
        p.relative_to(tree).as_posix(): p.read_bytes()
        for p in sorted(tree.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def complete(tree: Path) -> str:
    """Why `tree` is not a complete output ("" when it is)."""
    manifest = tree / "MANIFEST.json"
    if not manifest.is_file():
        return "no MANIFEST.json"
    files = json.loads(manifest.read_text(encoding="utf-8"))["files"]
    for rel, sha in files.items():
        p = tree / rel
        if not p.is_file() or hashlib.sha256(p.read_bytes()).hexdigest() != sha:
            return f"{rel} missing or not as MANIFEST.json says"
    leftovers = [p.name for p in tree.parent.iterdir() if ".tpbgen-" in p.name]
    return f"left beside it: {leftovers}" if leftovers else ""


def base_case(root: Path) -> Path:
    """The unmutated case: the mariana drop, its part of the overlay, a waivers dir, a generated
    output (made once, copied into each case)."""
    base = root / "base"
    shutil.copytree(HEADER_ROOT / GEN, base / "d" / GEN)
    doc = json.loads((HEADER_ROOT / "firmware_status.json").read_text(encoding="utf-8"))
    doc["generations"] = {"mariana": doc["generations"]["mariana"]}
    (base / "d" / "firmware_status.json").write_text(json.dumps(doc, indent=1), encoding="utf-8")
    (base / "w").mkdir()
    done = run(base, ["generate", "--headers", "d", "--out", "out", "--no-verify-cc"], root)
    assert done.returncode == 0, done.stderr
    return base


def run(case: Path, argv: list[str], root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tpbgen", *argv],
        cwd=case,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "TPBGEN_CACHE_DIR": str(root / "cache"), "NO_COLOR": "1"},
    )


def judge(case: Path, argv: list[str], before: dict[str, bytes] | None, root: Path) -> str:
    """The outcome class of one case ("exit-0", "exit-1-located", ...) or a contract breach
    ("BREACH: ...")."""
    try:
        proc = run(case, argv, root)
    except subprocess.TimeoutExpired:
        return f"BREACH: no end within {TIMEOUT} s"
    err = proc.stderr
    if proc.returncode not in (0, 1, 2):
        return f"BREACH: exit {proc.returncode}: {err[-600:]}"
    if "Traceback" in err or "internal error" in err:
        return f"BREACH: traceback: {err[-600:]}"
    if proc.returncode and not (LOCATED.search(err) or LOCATED.search(proc.stdout)):
        # (reconcile and --check print their findings as their output)
        return f"BREACH: exit {proc.returncode} without a located message: {err[-600:]}"
    out = case / "out"
    writes = argv[:1] == ["generate"] and "--check" not in argv and "out" in argv
    if proc.returncode == 0 and writes:
        why = complete(out)
        if why:
            return f"BREACH: exit 0 and the output is not complete: {why}"
    elif snapshot(out) != before:
        return f"BREACH: exit {proc.returncode} and the output changed"
    return f"exit-{proc.returncode}"


def test_fuzz_contract(tmp_path: Path) -> None:
    base = base_case(tmp_path)
    rng = random.Random(SEED)
    outcomes: Counter[str] = Counter()
    by_mutation: Counter[str] = Counter()
    breaches: list[str] = []
    for k in range(CASES):
        case = tmp_path / f"case{k}"
        shutil.copytree(base, case, symlinks=True)
        mutator = MUTATORS[rng.randrange(len(MUTATORS))]
        what, argv = mutator(rng, case)
        verdict = judge(case, argv, snapshot(case / "out"), tmp_path)
        by_mutation[what] += 1
        if verdict.startswith("BREACH"):
            breaches.append(f"case {k} (seed {SEED}) {what} `tpbgen {' '.join(argv)}`: {verdict}")
            outcomes["breach"] += 1
        else:
            outcomes[verdict] += 1
        shutil.rmtree(case, ignore_errors=True)
    report = {
        "seed": SEED,
        "cases": CASES,
        "outcomes": dict(sorted(outcomes.items())),
        "mutations": dict(sorted(by_mutation.items())),
    }
    if os.environ.get("TPBGEN_FUZZ_REPORT"):
        Path(os.environ["TPBGEN_FUZZ_REPORT"]).write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report))
    assert sum(outcomes.values()) == CASES
    assert not breaches, "\n".join(breaches)
