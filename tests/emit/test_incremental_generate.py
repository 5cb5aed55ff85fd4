"""Incremental generate (driver.py, checks/predicates.py, render_cache.validator_keys): a drop
that changes one validator's body proves that validator again and no other, and generates exactly
what a cold run of the same drop with an empty cache generates. Real headers, the real C
compiler; behaviour only (speed is benchmarks/generate.py's)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tpbgen import driver
from tpbgen.checks.verify_cc import compiler
from tpbgen.frontend.ingest import ingest_root
from tpbgen.render_cache import validator_keys
from tpbgen.translate.validators import translate

VENDOR = Path(__file__).resolve().parents[2] / "vendor_headers"
ASSERT_H = "neuron_mariana_arch_isa/tpb/aws_neuron_isa_tpb_assert.h"
# one conjunct of mariana's is_valid_tensor_scalar_op (and of no other validator: the line that
# follows it is the validator's own)
DROPPED = "            && is_valid_aluop(i.s3d3_ts.op1)\n"
CONTEXT = DROPPED + "            && has_zero_accum_cmd_field(i)\n"

pytestmark = pytest.mark.skipif(compiler() is None, reason="needs a C compiler")


def _drop_one_conjunct(root: Path) -> None:
    h = root / ASSERT_H
    text = h.read_text()
    at = text.index("STATIC inline bool is_valid_tensor_scalar_op(")
    body_end = text.index("\n}\n", at)
    assert text.count(CONTEXT, at, body_end) == 1
    h.write_text(text[:at] + text[at:body_end].replace(DROPPED, "") + text[body_end:])


def test_one_changed_validator_is_proven_again_alone_and_matches_a_cold_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drop = tmp_path / "drop"
    shutil.copytree(VENDOR, drop)
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    first = driver.generate(drop)
    assert not first.failed
    assert len(first.proven) == sum(s.top_validators for s in first.summaries)

    _drop_one_conjunct(drop)
    again = driver.generate(drop)
    assert again.proven == [("mariana", "is_valid_tensor_scalar_op")]

    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "empty"))
    cold = driver.generate(drop)
    assert len(cold.proven) == len(first.proven)
    assert again.files == cold.files and again.files != first.files
    assert again.diagnostics == cold.diagnostics
    assert again.summaries == cold.summaries


def test_a_validator_key_holds_its_code_and_not_where_it_is_written(tmp_path: Path) -> None:
    """Moving code (lines added above it) keeps every key; a changed body changes its
    validator's key alone; the compiler's identity changes every key."""
    drop = tmp_path / "drop"
    shutil.copytree(VENDOR / "neuron_mariana_arch_isa", drop / "neuron_mariana_arch_isa")

    def keys(proof: str = "cc 1") -> dict[str, str]:
        (gen,) = [r.gen for r in ingest_root(drop, use_cache=False)]
        return validator_keys(gen, translate(gen), proof, "code")

    before = keys()
    h = drop / ASSERT_H
    text = h.read_text()
    at = text.index("STATIC inline bool is_valid_tensor_scalar_op(")
    h.write_text(text[:at] + "// moved\n\n\n" + text[at:])
    assert keys() == before
    _drop_one_conjunct(drop)
    after = keys()
    assert {n for n in before if before[n] != after[n]} == {"is_valid_tensor_scalar_op"}
    other = keys("cc 2")
    assert all(other[n] != after[n] for n in after)
