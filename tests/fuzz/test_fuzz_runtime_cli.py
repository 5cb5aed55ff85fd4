"""A bounded, seeded fuzz of the generated runtime's command line, `python -m tpb_isa`: each case
mutates a copy of real inputs (an example kernel's assembly and words, a `disasm --explain`
listing of random words, the kernel's `run --trace` JSON Lines and `--save-state` archive) or
the argument vector, runs the real process (PYTHONPATH=generated), and holds it to the
contract of issue 39:
- it ends (within TIMEOUT seconds: no hang);
- its exit code is 0, 1 or 2 (never 3, never a signal), with no traceback on standard error;
- exit 2 comes with a message that names the file it is about (with `:LINE` for a listing or
  a trace), or, for a bad command line, the argument;
- each output file is unchanged (or still absent) unless the run wrote it whole: a word file of
  whole 64-byte words, a trace of whole JSON objects one per line, a loadable .npz, an HTML
  page with its end.

Scale: TPBGEN_FUZZ_CASES cases (default 12, 24 at the full scale (tpb_scale)), seed TPBGEN_FUZZ_SEED (default
39); TPBGEN_FUZZ_REPORT=PATH writes the counts (cases tried, outcomes by exit code, mutations)
as JSON (next to the generator fuzz's report: PATH with `.runtime` before its suffix). Every
case that breaks the contract is reported with its seed, mutation and command line, all at once.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

import numpy as np

from tpb_paths import REPO
from tpb_scale import env_int

from .mutate_runtime import GEN, MUTATORS, Case

CASES = env_int("TPBGEN_FUZZ_CASES", 12, 24)
SEED = int(os.environ.get("TPBGEN_FUZZ_SEED", "39"))
TIMEOUT = 60
ENV = {
    **os.environ,
    "PYTHONPATH": str(REPO / "generated"),
    "NO_COLOR": "1",
}


def run(case: Path, argv: list[str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "tpb_isa", *argv],
        cwd=case,
        capture_output=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
        env=ENV,
    )


def base_case(root: Path) -> Path:
    """The unmutated inputs, made once by the real CLI and copied into each case."""
    base = root / "base"
    base.mkdir()
    shutil.copy(REPO / "examples" / "kernels" / f"{GEN}_softmax.s", base / "k.s")
    rng = random.Random(SEED)
    (base / "r.bin").write_bytes(bytes(rng.randrange(256) for _ in range(64 * 6)))
    for argv in (
        ["asm", "k.s", "-o", "k.bin", "--gen", GEN],
        ["run", "k.bin", "--gen", GEN, "--trace", "t.jsonl", "--save-state", "s.npz"],
    ):
        done = run(base, argv)
        assert done.returncode == 0, done.stderr.decode(errors="replace")
    listing = run(base, ["disasm", "r.bin", "--explain", "--gen", GEN])
    assert listing.returncode in (0, 1), listing.stderr.decode(errors="replace")
    (base / "l.s").write_bytes(listing.stdout)
    return base


def read(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


def complete(path: Path) -> str:
    """Why an output file is not whole ("" when it is)."""
    data = path.read_bytes()
    if path.suffix == ".bin":
        return f"{len(data)} bytes, not whole words" if len(data) % 64 else ""
    if path.suffix == ".jsonl":
        if data and not data.endswith(b"\n"):
            return "the last line has no end"
        for n, line in enumerate(data.splitlines(), 1):
            try:
                if not isinstance(json.loads(line), dict):
                    return f"line {n} is no object"
            except ValueError:
                return f"line {n} is not JSON"
        return ""
    if path.suffix == ".npz":
        try:
            with np.load(path) as z:
                for k in z.files:
                    z[k]
        except (OSError, ValueError, zipfile.BadZipFile) as e:
            return f"not a loadable .npz ({e})"
        return ""
    if path.suffix == ".html":
        return "" if data.rstrip().endswith(b"</html>") else "the page has no end"
    return ""


def named(c: Case, err: str) -> bool:
    """Whether an exit-2 message says what it is about."""
    if not err.strip():
        return False
    if c.names:
        return re.search(re.escape(c.names) + (r":\d+" if c.lined else ""), err) is not None
    return "error: " in err


def judge(case: Path, c: Case) -> str:
    """The outcome class of one case ("exit-0", ...) or a contract breach ("BREACH: ...")."""
    before = {o: read(case / o) for o in c.outputs}
    try:
        proc = run(case, c.argv)
    except subprocess.TimeoutExpired:
        return f"BREACH: no end within {TIMEOUT} s"
    err = proc.stderr.decode("utf-8", "replace")
    if proc.returncode not in (0, 1, 2):
        return f"BREACH: exit {proc.returncode}: {err[-600:]}"
    if "Traceback" in err or "Exception ignored" in err:
        return f"BREACH: traceback: {err[-600:]}"
    if proc.returncode == 2 and not named(c, err):
        return f"BREACH: exit 2 without a message naming {c.names or 'the argument'}: {err[-600:]}"
    for o, was in before.items():
        now = read(case / o)
        if now == was:
            continue
        if proc.returncode == 2:
            return f"BREACH: exit 2 and {o} changed"
        why = complete(case / o)
        if why:
            return f"BREACH: exit {proc.returncode} and {o} is not whole: {why}"
    return f"exit-{proc.returncode}"


def test_fuzz_runtime_cli(tmp_path: Path) -> None:
    base = base_case(tmp_path)
    rng = random.Random(SEED)
    outcomes: Counter[str] = Counter()
    by_mutation: Counter[str] = Counter()
    by_class: Counter[str] = Counter()  # mutation and outcome
    breaches: list[str] = []
    for k in range(CASES):
        case = tmp_path / f"case{k}"
        shutil.copytree(base, case)
        c = MUTATORS[rng.randrange(len(MUTATORS))](rng, case)
        verdict = judge(case, c)
        kind = c.what.split("-")[0]
        by_mutation[kind] += 1
        if verdict.startswith("BREACH"):
            shown = " ".join(a if len(a) < 60 else a[:20] + f"...({len(a)})" for a in c.argv)
            breaches.append(f"case {k} (seed {SEED}) {c.what} `tpb_isa {shown}`: {verdict}")
            verdict = "breach"
        outcomes[verdict] += 1
        by_class[f"{kind} {verdict}"] += 1
        shutil.rmtree(case, ignore_errors=True)
    report = {
        "seed": SEED,
        "cases": CASES,
        "outcomes": dict(sorted(outcomes.items())),
        "mutations": dict(sorted(by_mutation.items())),
        "outcomes_by_mutation": dict(sorted(by_class.items())),
    }
    if os.environ.get("TPBGEN_FUZZ_REPORT"):
        target = Path(os.environ["TPBGEN_FUZZ_REPORT"])
        target.with_name(f"{target.stem}.runtime{target.suffix}").write_text(
            json.dumps(report, indent=1) + "\n"
        )
    print(json.dumps(report))
    assert sum(outcomes.values()) == CASES
    assert not breaches, "\n".join(breaches)
