"""Ingest on small synthetic trees: every construct of the dialect, both preprocessors, the IR schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tpbgen.checks.verify_cc import verify_cc
from tpbgen.frontend.ingest import ingest_root
from tpbgen.ir import io as ir_io
from tpbgen.ir.schema_gen import render as render_schema

from .synth import OPS, make_tree


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    make_tree(tmp_path)
    return tmp_path


def ir_of(root: Path, preprocessor: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("TPBGEN_PREPROCESSOR", preprocessor)
    return ir_io.dumps(ingest_root(root, use_cache=False)[0].gen)


def test_enums_constants_typedefs(tree: Path) -> None:
    g = ingest_root(tree, use_cache=False)[0].gen
    assert g.name == "synth" and g.core_version == "NC-v9"
    op = g.enum("NEURON_ISA_TPB_OPCODE")
    assert op.size == 1 and op.packed
    assert [(m.name[-5:], m.value) for m in op.members] == [
        ("ALPHA", 0x43),
        ("_BETA", 0x44),
        ("GAMMA", 0x46),
        ("VALID", 0xFF),
    ]
    alpha, beta, gamma, invalid = op.members
    assert alpha.comment == "Y" and alpha.maintenance is not None and alpha.maintenance.maintained
    assert (
        beta.maintenance is not None
        and not beta.maintenance.maintained
        and beta.maintenance.note == "use Alpha instead"
    )
    assert (
        gamma.comment == "note // Y"
        and gamma.maintenance is not None
        and gamma.maintenance.maintained
    )
    assert invalid.maintenance is None
    assert (
        alpha.loc.file == "neuron_synth_arch_isa/tpb/aws_neuron_isa_tpb_common.h"
        and alpha.loc.line == 20
    )
    assert g.enum("NEURON_ISA_TPB_WIDE").size == 4 and not g.enum("NEURON_ISA_TPB_WIDE").packed
    assert {c.name: c.value for c in g.constants} == {
        "NEURON_ISA_TPB_INST_NBYTES": 64,
        "NEURON_ISA_TPB_MASK": 0x1FFFFFFF,
    }
    ptr = next(t for t in g.typedefs if t.name == "NEURON_ISA_TPB_PTR")
    assert ptr.chain == (
        "NEURON_ISA_TPB_PTR",
        "NEURON_ISA_TPB_PARTITION_OFFSET",
        "uint32_t",
        "uint32",
    )


def test_layouts(tree: Path) -> None:
    g = ingest_root(tree, use_cache=False)[0].gen
    bits = g.struct("NEURON_ISA_TPB_BITS")
    assert [(f.name, f.offset, f.bit_offset, f.bit_width) for f in bits.fields] == [
        ("a", 0, 0, 3),
        ("b", 1, 0, 6),
        ("c", 2, 0, 9),
        ("d", 4, 0, 2),
        ("e", 8, None, None),
    ]
    assert bits.size == 12
    pbits = g.struct("NEURON_ISA_TPB_PBITS")
    assert pbits.packed and pbits.size == 7
    assert [(f.offset, f.bit_offset) for f in pbits.fields] == [(0, 0), (0, 3), (1, 1), (3, None)]
    mixed = g.struct("NEURON_ISA_TPB_MIXED")
    assert mixed.size == 40 and mixed.align == 8
    assert [(f.name, f.offset, f.dims, f.anonymous) for f in mixed.fields] == [
        ("x", 0, (), False),
        ("y", 8, (), False),
        ("z", 16, (3,), False),
        ("__anon3", 24, (), True),
        ("inner", 28, (), False),
        ("imm", 32, (), False),
    ]
    imm = g.struct("NEURON_ISA_TPB_IMM")
    assert imm.kind == "union" and imm.size == 4 and all(f.offset == 0 for f in imm.fields)
    assert all(a.value for a in g.static_asserts) and len(g.static_asserts) == 2


def test_layouts_match_the_c_compiler(tree: Path, cc: str) -> None:
    g = ingest_root(tree, use_cache=False)[0].gen
    mismatches, compared = verify_cc(g, tree, cc)
    assert mismatches == [] and compared > 30


def test_functions_and_call_graph(tree: Path) -> None:
    g = ingest_root(tree, use_cache=False)[0].gen
    f = g.function("is_valid_header")
    assert f.calls == ("is_alpha",) and f.section == "ops_assert.h"
    assert [p.name for p in f.params] == ["h"] and f.params[0].type.name == "NEURON_ISA_TPB_HEADER"
    assert f.returns.name == "bool" and f.body["_t"] == "FuncDef"


def test_cpp_and_pcpp_give_the_same_ir(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    if not shutil.which("cpp"):
        pytest.skip("no system cpp on PATH")
    assert ir_of(tree, "cpp", monkeypatch) == ir_of(tree, "pcpp", monkeypatch)


def test_ir_json_validates_and_round_trips(tree: Path) -> None:
    g = ingest_root(tree, use_cache=False)[0].gen
    doc = json.loads(ir_io.dumps(g))
    assert ir_io.validate(doc) == []
    assert ir_io.generation_from_json(ir_io.dumps(g)) == g


def test_committed_schema_matches_the_model() -> None:
    committed = (
        Path(__file__).parents[2] / "generator" / "tpbgen" / "ir" / "schema.json"
    ).read_text()
    assert committed == render_schema(), (
        "run: python -m tpbgen.ir.schema_gen > generator/tpbgen/ir/schema.json"
    )


def test_cache_hit_and_invalidation(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    first = ingest_root(tree)[0]
    second = ingest_root(tree)[0]
    assert not first.from_cache and second.from_cache and first.gen == second.gen
    ops = tree / "neuron_synth_arch_isa" / "tpb" / "aws_neuron_isa_tpb_ops.h"
    ops.write_text(ops.read_text().replace("h.len == 16", "h.len == 17"))
    third = ingest_root(tree)[0]
    assert not third.from_cache and third.gen != first.gen


def test_attribute_placements_match_the_compiler(tmp_path: Path, cc: str) -> None:
    """`packed` and `aligned` wherever GCC accepts them, `#pragma once`, C++ guards: the layout
    tpbgen computes is the compiler's."""
    from .synth import COMMON

    extra = """\
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
struct __attribute__((packed)) NEURON_ISA_TPB_TAGGED { uint8_t a; uint32_t b; };
typedef struct NEURON_ISA_TPB_TAGGED NEURON_ISA_TPB_TAGGED_T;
typedef struct __attribute__((__packed__)) NEURON_ISA_TPB_LEAD { uint16_t a; uint32_t b; } NEURON_ISA_TPB_LEAD;
typedef struct NEURON_ISA_TPB_ALIGNED { uint8_t a; } __attribute__((aligned(8))) NEURON_ISA_TPB_ALIGNED;
typedef struct NEURON_ISA_TPB_HOLDER { uint8_t x; NEURON_ISA_TPB_ALIGNED al; NEURON_ISA_TPB_TAGGED_T t; } NEURON_ISA_TPB_HOLDER;
#ifdef __cplusplus
}
#endif
"""
    make_tree(tmp_path, common=COMMON, ops=extra)
    g = ingest_root(tmp_path, use_cache=False)[0].gen
    assert g.struct("NEURON_ISA_TPB_TAGGED").size == 5 and g.struct("NEURON_ISA_TPB_LEAD").size == 6
    assert g.struct("NEURON_ISA_TPB_ALIGNED").align == 8
    holder = g.struct("NEURON_ISA_TPB_HOLDER")
    assert [f.offset for f in holder.fields] == [0, 8, 16] and holder.size == 24
    mismatches, compared = verify_cc(g, tmp_path, cc)
    assert mismatches == [] and compared > 40


def test_sibling_trees_of_a_generation_are_ingested(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tpb/ header that includes `../common/x.h` (the real package has such a tree): the types
    there are part of the generation's IR, and editing that file invalidates the cache."""
    from .synth import COMMON

    make_tree(
        tmp_path,
        common=COMMON.replace(
            "#include <stdbool.h>\n", '#include <stdbool.h>\n#include "../common/shared.h"\n'
        ),
        ops=OPS.replace("h.len == 16", "h.len == NEURON_ISA_TPB_SHARED_LEN"),
    )
    common_dir = tmp_path / "neuron_synth_arch_isa" / "common"
    common_dir.mkdir()
    shared = common_dir / "shared.h"
    shared.write_text(
        "typedef struct NEURON_ISA_TPB_SHARED { unsigned char a; unsigned short b; } NEURON_ISA_TPB_SHARED;\n"
        "static const unsigned char NEURON_ISA_TPB_SHARED_LEN = 16;\n"
    )
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    g = ingest_root(tmp_path)[0].gen
    assert g.struct("NEURON_ISA_TPB_SHARED").size == 4
    assert "neuron_synth_arch_isa/common/shared.h" in {f.path for f in g.files}
    assert g.constant("NEURON_ISA_TPB_SHARED_LEN").value == 16
    shared.write_text(shared.read_text().replace("= 16;", "= 17;"))
    again = ingest_root(tmp_path)[0]
    assert not again.from_cache and again.gen.constant("NEURON_ISA_TPB_SHARED_LEN").value == 17
