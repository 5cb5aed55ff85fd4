"""A top-level validator that takes a core version after the word (R8's
`is_valid_range_select(i, nc)`): tpbgen binds it to the generation's own version, in the
translation (a function of the word alone, the version a constant) and in every C call (the
version's enumerator passed after the word); any other extra parameter leaves a function out of
the top level, as before."""

from __future__ import annotations

import dataclasses

import pytest
from emit.runtime_import import gen_module

from tpb_paths import HEADER_ROOT
from tpbgen import resolve
from tpbgen.frontend.ingest import ingest_root
from tpbgen.ir.model import Generation, Param, TypeRef
from tpbgen.translate.validators import top_names


def _gen(name: str) -> Generation:
    return ingest_root(HEADER_ROOT, [name])[0].gen


@pytest.mark.parametrize(
    ("gen", "member"), [("cayman", "V3"), ("mariana", "V4"), ("maverick", "V5")]
)
def test_range_select_is_bound_to_the_generations_own_core_version(gen: str, member: str) -> None:
    g = _gen(gen)
    fn = next(f for f in g.functions if f.name == "is_valid_range_select")
    assert [p.type.name for p in fn.params] == [
        resolve.instruction_union(g).name,
        resolve.CORE_VERSION_ENUM,
    ]  # type: ignore[union-attr]
    bound = resolve.bound_parameters(g, fn)
    assert bound is not None and [m.name for m in bound] == [
        f"{resolve.CORE_VERSION_ENUM}_{member}"
    ]
    args = resolve.c_call_arguments(g)
    assert args["is_valid_range_select"] == f"u, {resolve.CORE_VERSION_ENUM}_{member}"
    assert args["is_valid_memset"] == "u"  # a validator of the word alone
    assert "is_valid_range_select" in top_names(g)
    # the translation is a function of the word: what validate() dispatches to
    assert "is_valid_range_select" in dict(gen_module(gen).TOP_LEVEL)
    validator = gen_module(gen, "validators")._is_valid_range_select
    assert validator.__code__.co_argcount == 2  # (the word's bytes, its offset)


def test_a_version_the_banner_does_not_name_or_another_parameter_is_not_bound() -> None:
    g = _gen("mariana")
    fn = next(f for f in g.functions if f.name == "is_valid_range_select")
    # a banner whose version the enum lacks: nothing to bind, so not a top-level validator
    unnamed = dataclasses.replace(g, core_version="NC-v9")
    assert resolve.bound_parameters(unnamed, fn) is None
    assert "is_valid_range_select" not in top_names(unnamed)
    # a second parameter of any other type: not bound either
    other = dataclasses.replace(
        fn, params=(fn.params[0], Param("n", TypeRef("int", "uint32", "uint32_t", 4)))
    )
    assert resolve.bound_parameters(g, other) is None
