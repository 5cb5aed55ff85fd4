"""Every word the drop's validators accept is executed, or refused with UnsupportedError naming
what is not modelled (or AddressError, when its walk leaves the executor's active bytes): never a
bare ExecutorError. And `random_words(n, executable=True)` gives valid words the executor runs,
spread over the opcodes it executes, the new families among them."""

from __future__ import annotations

import importlib
from collections import Counter

import numpy as np
import pytest

from .engine_loader import c_available, gen_module, load_package

errors = importlib.import_module(f"{load_package().__name__}._runtime.executor.errors")
GENS = ["sunda", "cayman", "mariana", "maverick"]
ALLOWED = (errors.UnsupportedError, errors.AddressError)


@pytest.mark.parametrize("gen", GENS)
def test_every_valid_word_runs_or_is_refused_naming_why(gen: str) -> None:
    bench = gen_module(gen, "bench")
    mod = gen_module(gen)
    W = bench.random_words(400, seed=11)
    outcome: Counter[str] = Counter()
    for w in W:
        try:
            mod.Executor(backend="numpy").run(w.tobytes())
            outcome["ran"] += 1
        except ALLOWED as e:
            assert str(e), "a refusal names why"
            outcome[type(e).__name__] += 1
        except errors.ExecutorError as e:  # pragma: no cover - the defect this guards
            pytest.fail(f"{gen}: opcode {int(w[0]):#04x}: bare {type(e).__name__}: {e}")
    assert outcome["ran"] > 0 and outcome["UnsupportedError"] > 0, outcome


@pytest.mark.parametrize("gen", GENS)
def test_executable_words_run_and_spread_over_the_new_families(gen: str) -> None:
    bench = gen_module(gen, "bench")
    mod = gen_module(gen)
    W = bench.random_words(120, executable=True, seed=5)
    assert W.shape == (120, 64) and W.dtype == np.uint8
    assert bench.STIMULUS.accepts(W).all()
    ops = Counter(int(x) for x in W[:, 0])
    assert set(ops) <= set(mod.executor.EXECUTABLE)
    assert {0x46, 0x47, 0x48, 0x49, 0x72, 0x99} <= set(ops), sorted(ops)
    # spread: no opcode takes much more than an even share (the few rare of whose valid words
    # run, Iota's mostly refused over Q8 and ImmLd's loading counts not modelled, give what
    # they found and the others make up their shares)
    assert len(ops) >= 15 and max(ops.values()) <= 2 * (len(W) // len(ops)) + 2, ops
    backends = ["numpy", "c"] if c_available() else ["numpy"]
    for backend in backends:
        for w in W:
            mod.Executor(backend=backend).run(w.tobytes())  # raises if it does not run
    again = bench.random_words(120, executable=True, seed=5)
    assert np.array_equal(W, again)  # deterministic


def test_executable_words_of_one_opcode_and_the_errors() -> None:
    bench = gen_module("cayman", "bench")
    W = bench.random_words(20, opcode=0x48, executable=True)
    assert (W[:, 0] == 0x48).all()
    with pytest.raises(ValueError, match="does not run opcode 0x4e"):
        bench.random_words(4, opcode=0x4E, executable=True)
