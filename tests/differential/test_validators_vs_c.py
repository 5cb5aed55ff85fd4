"""Differential test: the generated validators on all three backends (scalar Python, numpy batch,
and the runtime's C backend, which compiles the headers the package ships) against the C
predicates compiled here from the vendored assert.h, for every top-level validator of every
generation.

At least 100,000 words per generation: one-field mutations of valid seeds across enum boundaries
and limits, random multi-field mutations, random bytes, and hand edge cases (zero and all-ones
words, each seed under every opcode of the generation, header lengths off by one). Zero disagreements allowed; the
corpus must also reach both verdicts for every validator (a corpus the C rejects wholesale
would prove nothing).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from support import cpredicates
from tpb_paths import REPO, tpb_dir
from tpb_scale import scale
from tpbgen.resolve import c_call_arguments, decode_table

from .corpus import edge_words, mutations, random_words, seeds

sys.path.insert(0, str(REPO / "generated"))

WORDS_PER_GEN = scale(20_000, 100_000)  # tpb_scale: 10^5 in CI


@pytest.fixture(scope="module")
def ir() -> dict[str, object]:
    from tpbgen.frontend.ingest import ingest_root

    return {r.gen.name: r.gen for r in ingest_root(REPO / "vendor_headers")}


@pytest.mark.parametrize("gen", ["sunda", "cayman", "mariana", "maverick"])
def test_python_and_batch_agree_with_c(
    gen: str, cc: str, tmp_path: Path, ir: dict[str, object]
) -> None:
    g = ir[gen]
    mod = importlib.import_module(f"tpb_isa.{gen}")
    validators = importlib.import_module(f"tpb_isa.{gen}.validators")
    batch = importlib.import_module(f"tpb_isa.{gen}.batch")
    tops = dict(mod.TOP_LEVEL)
    clib = cpredicates.build(
        cc,
        tpb_dir(gen),
        tuple(tops),
        tmp_path,
        opt="-O1",
        args=c_call_arguments(g),  # type: ignore[arg-type]
    )
    rng = np.random.default_rng(0x7B6 + len(gen))
    # the struct each validator's words decode to, from the IR (its opcodes' JSON binding)
    struct_of = {d.value: d.struct for d in decode_table(g) if d.defined}  # type: ignore[arg-type]
    per_validator = -(-WORDS_PER_GEN // len(tops)) + 4
    total = 0
    for name, opcodes in tops.items():
        arm_struct = g.struct(struct_of[opcodes[0]])  # type: ignore[attr-defined]
        seed_words = seeds(gen, name)
        assert seed_words, f"no seeds for {name}"
        sw = np.frombuffer(b"".join(seed_words), dtype=np.uint8).reshape(-1, 64)
        assert clib.run(name, sw).all(), (
            f"{gen}: a seed word of {name} is rejected by the C validator"
        )
        words = np.vstack(
            [
                np.frombuffer(
                    b"".join(mutations(g, arm_struct, seed_words, rng, per_validator * 3 // 4)),
                    dtype=np.uint8,
                ).reshape(-1, 64),
                random_words(opcodes, rng, per_validator // 4),
                np.frombuffer(b"".join(edge_words(g, seed_words)), dtype=np.uint8).reshape(-1, 64),
            ]
        )
        total += len(words)
        want = clib.run(name, words)
        got_batch = batch.run_validator_batch(name, words)
        scalar = getattr(validators, f"_{name}")
        got_scalar = np.array([scalar(bytes(row), 0) for row in words], dtype=bool)
        bad_s = np.flatnonzero(got_scalar != want)
        bad_b = np.flatnonzero(got_batch != want)
        assert bad_s.size == 0, (
            f"{gen} {name}: scalar disagrees with C on {bad_s.size} words, first {bytes(words[bad_s[0]]).hex()} (C says {want[bad_s[0]]})"
        )
        assert bad_b.size == 0, (
            f"{gen} {name}: batch disagrees with C on {bad_b.size} words, first {bytes(words[bad_b[0]]).hex()} (C says {want[bad_b[0]]})"
        )
        # the runtime's own C backend (the shipped headers, compiled by the package) agrees too
        got_c = validators.C_VALIDATORS.run(name, words)
        bad_c = np.flatnonzero(got_c != want)
        assert bad_c.size == 0, (
            f"{gen} {name}: the C backend disagrees on {bad_c.size} words, first {bytes(words[bad_c[0]]).hex()}"
        )
        accepted = int(want.sum())
        print(f"{gen} {name}: {len(words)} words, {accepted} accepted by C")
        assert 0.01 * len(words) < accepted < 0.99 * len(words), (
            f"{gen} {name}: corpus not discriminating ({accepted}/{len(words)} accepted)"
        )
        # the dispatching entry points agree with the validator on words of its opcodes
        mine = np.isin(words[:, 0], opcodes)
        for backend in ("c", "numpy", "python"):
            assert (batch.validate_batch(words[mine], backend=backend) == want[mine]).all(), backend
        # and the three backends give one verdict per word on everything, dispatch included
        every = batch.validate_batch(words, backend="c")
        assert (batch.validate_batch(words, backend="numpy") == every).all()
        # in chunks of a few words (a large batch's path: chunk boundaries anywhere), every
        # word through the translated array code, then with the opcodes a chunk holds few words
        # of word by word through the scalar translation (BatchValidators.SCALAR_BELOW)
        batch._BATCH.CHUNK = 97
        try:
            batch._BATCH.SCALAR_BELOW = 0
            assert (batch.validate_batch(words, backend="numpy") == every).all()
            del batch._BATCH.SCALAR_BELOW
            # a validator's rows of a chunk in pieces (BatchValidators.ROWS)
            del batch._BATCH.CHUNK
            batch._BATCH.ROWS = 997
            assert (batch.validate_batch(words, backend="numpy") == every).all()
            del batch._BATCH.ROWS
            batch._BATCH.CHUNK = 97
            assert (batch.validate_batch(words, backend="numpy") == every).all()
        finally:
            for knob in ("CHUNK", "SCALAR_BELOW", "ROWS"):
                vars(batch._BATCH).pop(knob, None)
        # batches smaller than SCALAR_BELOW: every word through the scalar translation at once
        small = batch._BATCH.SCALAR_BELOW - 1
        for lo in range(0, min(len(words), 20 * small), small):
            got = batch.validate_batch(words[lo : lo + small], backend="numpy")
            assert (got == every[lo : lo + small]).all(), lo
        sample = words[:: max(1, len(words) // 3000)]
        assert (
            batch.validate_batch(sample, backend="python")
            == batch.validate_batch(sample, backend="c")
        ).all()
        assert [mod.validate(r, backend="c") for r in sample[:500]] == [
            mod.validate(r) for r in sample[:500]
        ]
    assert total >= WORDS_PER_GEN
