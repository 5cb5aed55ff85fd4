"""compat(word, other_gen): same opcode, struct, fields and verdict across generations, the
first difference named."""

from __future__ import annotations

import numpy as np
from emit.runtime_import import gen_module


def test_compat_names_the_first_difference() -> None:
    mariana, cayman = gen_module("mariana"), gen_module("cayman")
    words = mariana.random_words(200, seed=2)
    results = [mariana.compat(w, "cayman") for w in words]
    same = [r for r in results if r.same]
    assert same and len(same) < len(results)  # both answers occur on real stimulus
    for w, r in zip(words, results, strict=True):
        b = bytes(w)
        assert r.this_valid == mariana.validate(b) and r.other_valid == cayman.validate(b)
        if r.same:
            assert (
                r.difference == "" and mariana.to_dict(b)["fields"] == cayman.to_dict(b)["fields"]
            )
        else:
            assert r.difference
    # a planted difference: an opcode only SUNDA decodes (the Dual pair, 0x87)
    sunda = gen_module("sunda")
    dual = bytes(sunda.random_words(1, opcode=0x87, seed=1)[0])
    r = sunda.compat(dual, "mariana")
    assert not r.same and r.difference.startswith("decode: mariana does not decode opcode 0x87")
    # a field value one generation's enum names and the other's does not, named by its path
    odd = next(r for r in results if r.difference.startswith(("in_dtype", "out_dtype", "op0")))
    assert "here" in odd.difference and "there" in odd.difference
    assert sunda.compat(np.frombuffer(dual, dtype=np.uint8), sunda).same
