"""examples/testbench.py, the test bench a user copies, runs as its doc says: a program per
generation (valid words, the executor runs them), its coverage by opcode and by dependency, a
trace with one record per word, a one-field edit trace-diff finds, and the opcodes the
generations share."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from emit.runtime_import import gen_module

from tpb_paths import REPO


def test_the_example_test_bench_runs(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO / "generated")}
    out = tmp_path / "tb"
    cmd = [sys.executable, str(REPO / "examples" / "testbench.py"), "--out", str(out)]
    p = subprocess.run(
        [*cmd, "--gens", "mariana,maverick", "--n", "25", "--seed", "3"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    for gen in ("mariana", "maverick"):
        mod = gen_module(gen)
        prog = mod.random_program(25, seed=3, dependent=0.5)
        words = np.frombuffer((out / f"{gen}.bin").read_bytes(), dtype=np.uint8).reshape(-1, 64)
        assert np.array_equal(words, prog.words)
        text = (out / f"{gen}-coverage.txt").read_text()
        assert text == mod.coverage(prog.words, program=True).text()
        assert "read-after-write pairs by opcode" in text and "opcodes:" in text
        assert "<table>" in (out / f"{gen}-coverage.html").read_text()
        trace = (out / f"{gen}-trace.jsonl").read_text().splitlines()
        assert [json.loads(r)["word"] for r in trace] == [w.tobytes().hex() for w in words]
        assert any(line.startswith(f"{gen}: 25 words, ") for line in lines)
        # the one-field edit: found, and trace-diff names where the runs part
        (edit,) = [line for line in lines if line.startswith(f"{gen}: one-field edit: word ")]
        assert "; trace-diff: " in edit and edit.split("; trace-diff: ")[1]
        assert (out / f"{gen}-edited-trace.jsonl").read_text() != "\n".join(trace) + "\n"
    assert any(line.startswith("opcodes hit on every generation: 0x") for line in lines)
    bad = subprocess.run([*cmd, "--n", "x"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2
