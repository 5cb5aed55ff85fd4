"""Predicate coverage: counts against the chain matrix and the scalar validators, the valid and
near-miss stimulus reaching both ways every term a near miss can break, and `cover` from the
command line (text and HTML)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from emit.runtime_import import gen_module

from tpb_paths import REPO


def test_coverage_counts_terms_and_predicates_both_ways() -> None:
    mod = gen_module("mariana")
    stim = mod.bench.STIMULUS
    op = 0x43
    valid = mod.random_words(3000, opcode=op, seed=4)
    near, rules = stim.near_misses(1000, op, seed=4)
    cov = mod.coverage(np.vstack([valid, near]))
    name = stim.chain(op).validator
    rows = dict(cov.terms[name])
    assert cov.runs[name] == 4000
    for term, count in rows.items():
        assert count.true + count.false == 4000
        assert count.false == rules.count(term)  # each near miss fails its one rule only
    assert {t for t, c in rows.items() if c.both} == set(rules)
    # the C predicates, as the scalar validators evaluate them (short circuit included)
    top = cov.predicates[name]
    assert (top.true, top.false) == (3000, 1000)
    assert cov.predicates["is_valid_dtype"].both
    assert "both" in cov.text() and "<table>" in cov.html()


def test_valid_words_and_misses_reach_every_falsifiable_term_both_ways() -> None:
    """10^4 valid words and misses per opcode: every term a field change can make fail is seen
    both ways; the rest are true on every word (the opcode byte, checks of the other opcodes)."""
    mod = gen_module("cayman")
    stim = mod.bench.STIMULUS
    for op in stim.reached():
        chain = stim.chain(op)
        valid = mod.random_words(8000, opcode=op, seed=6)
        missed, _ = stim.misses(2000, op, seed=6)
        cov = mod.coverage(np.vstack([valid, missed]))
        # the terms of the alternatives this opcode reaches (the others' fail on its opcode byte)
        groups = dict(cov.groups(chain.validator))
        rows = [
            r
            for a in stim.alternatives(op)
            for r in groups[chain.alternatives[a][0] if chain.alternatives else ""]
        ]
        both = {t for t, c in rows if c.both}
        assert {chain.names[j] for j in stim.falsifiable(op)} <= both
        assert all(c.false == 0 for t, c in rows if t not in both)
        assert len(both) >= 0.8 * len(rows), f"{op:#04x}: {len(both)} of {len(rows)}"


def test_coverage_reports_each_alternative() -> None:
    """A validator whose body is a `||` of validators: its terms reported per alternative."""
    mod = gen_module("sunda")
    ops = [op for op in mod.bench.STIMULUS.reached() if op in (0x41, 0x65, 0x72)]
    cov = mod.coverage(np.vstack([mod.random_words(300, opcode=op, seed=1) for op in ops]))
    labels = [label for label, _ in cov.groups("is_valid_s3s3d3_tt")]
    assert labels[:3] == [
        "is_valid_tensor_tensor(i)",
        "is_valid_batchnorm_backprop(i)",
        "is_valid_copy_cast_predicated(i)",
    ]
    text = cov.text()
    assert " alternative is_valid_tensor_tensor(i): " in text
    assert "<h3>alternative <code>is_valid_tensor_tensor(i)</code></h3>" in cov.html()
    # each alternative's own opcode term holds on its words only: true and false both
    for _, group in cov.groups("is_valid_s3s3d3_tt")[:3]:
        assert any(c.both for _, c in group)


def test_cover_from_the_command_line(tmp_path: Path) -> None:
    mod = gen_module("sunda")
    stim = tmp_path / "stim.bin"
    stim.write_bytes(mod.random_words(200, seed=1).tobytes())
    page = tmp_path / "cover.html"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "tpb_isa",
            "cover",
            str(stim),
            "--gen",
            "sunda",
            "--html",
            str(page),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "generated")},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("coverage of 200 sunda words")
    assert page.read_text().startswith("<!DOCTYPE html>")
    bad = subprocess.run(
        [sys.executable, "-m", "tpb_isa", "cover", str(tmp_path / "none.bin"), "--gen", "sunda"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "generated")},
    )
    assert bad.returncode == 2 and "none.bin" in bad.stderr
