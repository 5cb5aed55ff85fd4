"""A top-level validator that takes a core version after the word (R8's
`is_valid_range_select(i, nc)`): tpbgen binds it to the generation's own version, in the
translation (a function of the word alone, the version a constant) and in every C call (the
version's enumerator passed after the word); any other extra parameter leaves a function out of
the top level, as before."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from emit.runtime_import import gen_module

from tpb_paths import HEADER_ROOT
from tpbgen import resolve
from tpbgen.cli import main
from tpbgen.frontend.ingest import ingest_root
from tpbgen.ir.model import Generation, Param, TypeRef
from tpbgen.translate.validators import _unbound_warnings, top_names


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


def test_a_validator_left_out_for_its_parameters_is_a_located_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A drop whose Memset validator takes a count after the word generates (exit 0) with an
    `[unbound-parameter]` warning at the function's line, and its package has no Memset
    validator; a banner naming no core-version member is said the same way."""
    tpb = HEADER_ROOT / "neuron_mariana_arch_isa" / "tpb"
    drop = tmp_path / "drop" / "neuron_mariana_arch_isa"
    shutil.copytree(tpb.parent, drop)
    assert_h = drop / "tpb" / "aws_neuron_isa_tpb_assert.h"
    text = assert_h.read_text()
    old = "STATIC inline bool is_valid_memset(NEURON_ISA_TPB_INST_UNION i) {"
    assert text.count(old) == 1
    assert_h.write_text(text.replace(old, old.replace("i)", "i, uint32_t count)")))
    line = text[: text.index(old)].count("\n") + 1
    code = main(["generate", "--headers", str(tmp_path / "drop"), "--out", str(tmp_path / "out")])
    _, err = capsys.readouterr()
    assert code == 0, err
    assert (
        f"aws_neuron_isa_tpb_assert.h:{line}:" in err
        and "warning [unbound-parameter]: is_valid_memset takes uint32_t count after the word"
        in err
    ), err
    listed = (tmp_path / "out" / "tpb_isa" / "mariana" / "validators.py").read_text()
    assert '"is_valid_memset"' not in listed.split("TOP_LEVEL", 1)[1].split("}", 1)[0]

    unnamed = dataclasses.replace(_gen("mariana"), core_version="NC-v9")
    (found,) = [w for w in _unbound_warnings(unnamed) if "is_valid_range_select" in w.message]
    assert "NC-v9 names no member of NEURON_ISA_TPB_NEURON_CORE_VERSION" in found.message
