"""explain() into every alternative of a validator built from `||` (is_valid_s3s3d3_tt:
TensorTensor, BatchNorm backprop, predicated copy/cast, sunda's BF16 forms): the alternative the
word's opcode selects is named, then its failing term down the call tree, as for a `&&` chain.
The near misses come from the stimulus search (batch.CHAINS), which names the one rule each
word fails: explain must walk the same path."""

from __future__ import annotations

import re

import pytest
from emit.runtime_import import gen_module

VALIDATOR = "is_valid_s3s3d3_tt"


def _path(rule: str) -> list[str]:
    """The predicates a chain rule `f(i) > g(i) > h(args)` calls down to: each part that is one
    call (a last part that compares, `get(x) == Y`, is a term of the part before it)."""
    out = []
    for part in rule.split(" > "):
        call = re.fullmatch(r"(\w+)\((.*)\)", part.strip())
        if call is None or re.search(r"[=<>!|&]", call.group(2)):
            break
        out.append(call.group(1))
    return out


@pytest.mark.parametrize("gen", ["mariana", "sunda"])
def test_near_misses_of_every_alternative_are_explained_by_it(gen: str) -> None:
    m = gen_module(gen)
    opcodes = [op for op in range(256) if VALIDATOR in m.validators_for(op)]
    assert len(opcodes) >= 5  # 0x41, 0x51, 0x65, 0x72, 0x99 (+ sunda's 0x8a, 0x8b, 0x8f)
    alternatives = set()
    for op in opcodes:
        near, rules = m.bench.near_misses(6, op, seed=3)
        assert len(near) == 6
        for w, rule in zip(near, rules, strict=True):
            why = m.explain(w)
            path = _path(rule)
            alternatives.add(path[0])
            assert why.startswith(" -> ".join([VALIDATOR, *path])), (hex(op), rule, why)
            assert "||" not in why.split(":")[0]  # a term, not the whole disjunction
            # the alternative named is the one whose own validator the word's opcode is for
            assert getattr(m.validators, path[0])(w) is False
            assert why == f"{VALIDATOR} -> " + getattr(m.validators, f"_x_{path[0]}")(bytes(w), 0)
    assert {"is_valid_tensor_tensor", "is_valid_batchnorm_backprop"} <= alternatives


def test_a_word_no_alternative_is_for_gets_each_first_failing_term() -> None:
    """Called on an opcode none of its alternatives gates (a TensorScalar word; `explain` never
    sends one there), the twin gives each alternative's first failing term."""
    m = gen_module("mariana")
    word = bytes(m.random_words(1, opcode=0x43, seed=1)[0])
    why = getattr(m.validators, f"_x_{VALIDATOR}")(word, 0)
    head, _, rest = why.partition(": ")
    assert head == f"{VALIDATOR}" and rest.startswith("no alternative is for opcode 0x43: ")
    parts = rest.removeprefix("no alternative is for opcode 0x43: ").split("; ")
    names = [
        "is_valid_tensor_tensor",
        "is_valid_batchnorm_backprop",
        "is_valid_copy_cast_predicated",
    ]
    assert [p.split(" -> ")[1] for p in parts] == names
    for name, part in zip(names, parts, strict=True):
        assert part == f"{VALIDATOR} -> " + getattr(m.validators, f"_x_{name}")(word, 0)
        assert "opcode" in part  # each fails first on its opcode check
