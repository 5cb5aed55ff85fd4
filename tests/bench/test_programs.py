"""Constrained-random programs (`random_program`, `_runtime/programs.py`): valid words the
executor runs, whose reads overlap earlier writes at the requested rate (measured here against
a byte-by-byte oracle of the executor's footprints), deterministic for a seed; their
dependency coverage; the hypothesis strategy and the `program` command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from emit.runtime_import import gen_module
from hypothesis import HealthCheck, given, settings

from tpb_paths import REPO


def _oracle(infos: Any) -> set[tuple[int, int]]:
    """(writer, reader) pairs from the footprints byte by byte: a reader reads a byte whose
    last writer (before it) is the writer."""
    last: dict[tuple[str, int], np.ndarray] = {}

    def arr(region: str, partition: int, stop: int) -> np.ndarray:
        a = last.setdefault((region, partition), np.full(0, -1, dtype=np.int64))
        if a.size < stop:
            a = last[(region, partition)] = np.concatenate(
                [a, np.full(stop - a.size, -1, dtype=np.int64)]
            )
        return a

    pairs: set[tuple[int, int]] = set()
    for i, inf in enumerate(infos):
        for s in inf.reads:
            a = arr(s.region, s.partition, s.stop)
            pairs |= {(int(w), i) for w in np.unique(a[s.start : s.stop]) if w >= 0}
        for s in inf.writes:
            arr(s.region, s.partition, s.stop)[s.start : s.stop] = i
    return pairs


@pytest.mark.parametrize(("gen", "dependent"), [("mariana", 0.0), ("mariana", 0.5), ("sunda", 0.8)])
def test_programs_run_and_depend_at_the_requested_rate(gen: str, dependent: float) -> None:
    mod = gen_module(gen)
    prog = mod.random_program(120, seed=11, dependent=dependent)
    W = prog.words
    assert W.shape == (120, 64) and W.dtype == np.uint8
    assert mod.validate_batch(W, backend="numpy").all()
    # the footprints are the executor's, recomputed here on a fresh machine, word after word
    ex = mod.Executor()
    for k, w in enumerate(W):
        inf = mod.info(w, ex)
        assert inf.footprint_known, f"word {k}: {inf.why}"
        assert (inf.reads, inf.writes) == (prog.infos[k].reads, prog.infos[k].writes)
        ex.run(w.tobytes())
    assert set(prog.dependencies) == _oracle(prog.infos)
    readers = {i for _, i in prog.dependencies}
    assert prog.dependent == len(readers) / 119
    assert abs(prog.dependent - dependent) <= 0.1, prog.dependent
    assert len(np.unique(W[:, 0])) >= 4  # several opcodes, not one


def test_programs_are_deterministic_and_keep_to_their_opcodes() -> None:
    mod = gen_module("mariana")
    a = mod.random_program(40, seed=5, opcodes=[0x41, 0x44], dependent=0.6)
    b = mod.random_program(40, seed=5, opcodes=[0x41, 0x44], dependent=0.6)
    c = mod.random_program(40, seed=6, opcodes=[0x41, 0x44], dependent=0.6)
    assert np.array_equal(a.words, b.words) and a.dependencies == b.dependencies
    assert not np.array_equal(a.words, c.words)
    assert set(np.unique(a.words[:, 0]).tolist()) <= {0x41, 0x44}
    with pytest.raises(ValueError, match="dependent"):
        mod.random_program(4, dependent=1.5)
    with pytest.raises(ValueError, match="0x64"):
        mod.random_program(4, opcodes=[0x64])


def test_dependency_coverage_by_opcode() -> None:
    mod = gen_module("mariana")
    prog = mod.random_program(80, seed=2, dependent=0.7)
    cov = mod.coverage(prog.words, program=True)
    expected: dict[tuple[int, int], int] = {}
    for j, i in _oracle(prog.infos):
        key = (int(prog.words[j, 0]), int(prog.words[i, 0]))
        expected[key] = expected.get(key, 0) + 1
    assert cov.dependencies == expected == prog.by_opcode()
    text = cov.text()
    assert f"read-after-write pairs by opcode: {len(expected)} pairs" in text
    (w, r), k = next(iter(sorted(expected.items())))
    assert f"{k:>9}  {cov.opcode_name(w)} -> {cov.opcode_name(r)}" in text
    assert "Read-after-write pairs by opcode" in cov.html()
    assert mod.coverage(prog.words).dependencies is None


def test_the_programs_strategy_draws_programs_the_executor_runs() -> None:
    mod = gen_module("maverick")
    strategies = gen_module("maverick", "strategies")

    @settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategies.programs(12, dependent=0.5))
    def check(prog: Any) -> None:
        assert prog.words.shape == (12, 64)
        assert mod.validate_batch(prog.words, backend="numpy").all()
        mod.Executor().run_program(prog.words)

    check()


def test_the_program_command(tmp_path: Path) -> None:
    out = tmp_path / "prog.bin"
    html = tmp_path / "cover.html"
    env = {**os.environ, "PYTHONPATH": str(REPO / "generated")}
    cmd = [sys.executable, "-m", "tpb_isa", "program", "-n", "30", "-o", str(out)]
    cmd += ["--gen", "mariana", "--seed", "4", "--dependent", "0.5", "--cover"]
    p = subprocess.run([*cmd, "--html", str(html)], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    mod = gen_module("mariana")
    prog = mod.random_program(30, seed=4, dependent=0.5)
    assert out.read_bytes() == prog.words.tobytes()
    assert p.stdout.startswith(f"program: 30 mariana words written to {out} (seed 4); ")
    assert "read-after-write pairs by opcode" in p.stdout and "<table>" in html.read_text()
    # runs from the command line too
    r = subprocess.run(
        [sys.executable, "-m", "tpb_isa", "run", str(out), "--gen", "mariana"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert r.returncode == 0 and "30 instructions executed" in r.stderr
    bad = subprocess.run([*cmd[:-1], "--dependent", "2"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
