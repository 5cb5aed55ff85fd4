"""The differ and the term folding on small, hand-made IR edits: what the vendored drop and the
synthetic drop do not exercise (decodability lost, a binding moved, renames, retypes, the
if/return and switch forms, negative polarity)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from pycparser import c_ast, c_parser

from tpb_paths import HEADER_ROOT
from tpbgen.audit import terms as T
from tpbgen.audit.classify import Finding, classify_all
from tpbgen.audit.diff import diff
from tpbgen.frontend.ingest import ingest_root
from tpbgen.ir.cast import to_dict
from tpbgen.ir.model import Function, Generation, Loc, MappingEntry, Param, TypeRef

BOOL = TypeRef("bool", "bool", "bool", 1)
U8 = TypeRef("int", "uint8", "uint8_t", 1)
S2_BN = "NEURON_ISA_TPB_S2_BN_STRUCT"
TS = "NEURON_ISA_TPB_S3D3_TS_STRUCT"
TSM = "NEURON_ISA_TPB_S4D4_TSM_STRUCT"


@pytest.fixture(scope="module")
def maverick() -> Generation:
    return ingest_root(HEADER_ROOT, ["maverick"])[0].gen


def audit(old: Generation, new: Generation) -> dict[str, list[Finding]]:
    out: dict[str, list[Finding]] = {}
    for f in classify_all(diff(old, new)):
        out.setdefault(f.kind, []).append(f)
    return out


def fn(src: str, name: str | None = None) -> Function:
    """A Function IR from C source (the parameters are all uint8_t)."""
    ast = c_parser.CParser().parse("typedef unsigned char uint8_t;\n" + src, "<t>")
    fd = next(n for n in ast.ext if isinstance(n, c_ast.FuncDef))
    calls: list[str] = []

    class V(c_ast.NodeVisitor):  # type: ignore[misc]
        def visit_FuncCall(self, n: Any) -> None:
            if n.name.name not in calls:
                calls.append(n.name.name)
            self.generic_visit(n)

    V().visit(fd.body)
    params = tuple(
        Param(p.name, U8) for p in (fd.decl.type.args.params if fd.decl.type.args else [])
    )
    return Function(
        name or fd.decl.name,
        BOOL,
        params,
        Loc("t.h", fd.coord.line),
        fd.coord.line + 3,
        tuple(calls),
        to_dict(fd, lambda s: s),
        "",
    )


def test_struct_gone_makes_its_opcodes_undecodable(maverick: Generation) -> None:
    new = dataclasses.replace(
        maverick, structs=tuple(s for s in maverick.structs if s.name != S2_BN)
    )
    got = audit(maverick, new)
    assert [f.subject for f in got["struct.removed"]] == [S2_BN] and got["struct.removed"][
        0
    ].cls == "api-breaking"
    lost = got["opcode.undecodable"]
    assert sorted(f.subject.removeprefix("NEURON_ISA_TPB_OPCODE_") for f in lost) == [
        "BATCH_NORM_PARAM_LOAD",
        "MATCH_VALUE_LOAD",
        "TENSOR_SCALAR_IMM_LD_ARITH",
        "TENSOR_SCALAR_IMM_LD_BITVEC",
    ]
    assert {f.cls for f in lost} == {"encoding-breaking"}
    assert set(got) == {"struct.removed", "opcode.undecodable"}


def test_binding_moved_to_another_struct(maverick: Generation) -> None:
    assert maverick.mapping is not None
    name = "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_REDUCE"
    entries = []
    for e in maverick.mapping.struct2opcode:
        if e.struct == TS:
            e = MappingEntry(e.struct, tuple(o for o in e.opcodes if o != name), e.pointer, e.line)
        elif e.struct == TSM:
            e = MappingEntry(e.struct, (*e.opcodes, name), e.pointer, e.line)
        entries.append(e)
    new = dataclasses.replace(
        maverick, mapping=dataclasses.replace(maverick.mapping, struct2opcode=tuple(entries))
    )
    got = audit(maverick, new)
    assert set(got) == {"binding.rebound"}
    (f,) = got["binding.rebound"]
    assert f.subject == name and f.cls == "encoding-breaking"
    assert f.detail["decodable_old"] == [TS] and f.detail["decodable_new"] == [TSM]
    assert f.old.file.endswith("instruction_mapping.json") and f.new.file.endswith(
        "instruction_mapping.json"
    )


def test_enumerator_renamed_same_value(maverick: Generation) -> None:
    e = maverick.enum("NEURON_ISA_TPB_ACCUM_CMD")
    members = tuple(
        dataclasses.replace(m, name="NEURON_ISA_TPB_ACCUM_CMD_RESET")
        if m.name.endswith("_ZERO")
        else m
        for m in e.members
    )
    new = dataclasses.replace(
        maverick,
        enums=tuple(
            dataclasses.replace(x, members=members) if x.name == e.name else x
            for x in maverick.enums
        ),
    )
    got = audit(maverick, new)
    assert set(got) == {"enum.member.renamed"}
    (f,) = got["enum.member.renamed"]
    assert (
        f.cls == "api-breaking"
        and f.detail["old_name"] == "NEURON_ISA_TPB_ACCUM_CMD_ZERO"
        and f.detail["value"] == 1
    )


def test_field_rename_remove_and_signedness(maverick: Generation) -> None:
    s = maverick.struct(TS)
    fields = []
    for f in s.fields:
        if f.name == "op1":
            f = dataclasses.replace(f, name="second_op")  # renamed
        elif f.name == "imm1_src":
            f = dataclasses.replace(f, name="reserved9")  # a named field becomes reserved
        elif f.name == "num_active_channels":
            f = dataclasses.replace(f, type=TypeRef("int", "int8", "int8_t", 1, True))  # signedness
        fields.append(f)
    new = dataclasses.replace(
        maverick,
        structs=tuple(
            dataclasses.replace(x, fields=tuple(fields)) if x.name == TS else x
            for x in maverick.structs
        ),
    )
    got = audit(maverick, new)
    assert set(got) == {"field.renamed", "field.removed", "field.retyped"}
    assert (
        got["field.renamed"][0].cls == "api-breaking"
        and got["field.renamed"][0].detail["old_name"] == "op1"
    )
    assert (
        got["field.removed"][0].cls == "encoding-breaking"
        and got["field.removed"][0].detail["bytes_now_reserved"]
    )
    assert got["field.retyped"][0].cls == "encoding-breaking"


def test_if_return_forms_fold_to_terms() -> None:
    f = fn("""_Bool v(uint8_t a, uint8_t b) {
        uint8_t w = a + b;
        if (a == 0) return 0;
        if (!(b < 4)) { return 0; }
        if (a == 7) return 1;
        return w != 3 && (a == 1 || b == 2);
    }""")
    got = [(t.kind, t.text, t.arms) for t in T.function_terms(f)]
    assert got == [
        ("let", "uint8_t w = a + b", ()),
        ("cond", "a != 0", ()),
        ("cond", "b < 4", ()),
        (
            "cond",
            "a == 7 || w != 3 && (a == 1 || b == 2)",
            ("a == 7", "w != 3 && (a == 1 || b == 2)"),
        ),
    ]


def test_switch_folds_to_arms() -> None:
    f = fn("""_Bool v(uint8_t x) {
        switch (x) { case 1: case 2: return 1; case 5: return x > 0; default: return 0; }
    }""")
    (t,) = T.function_terms(f)
    assert t.arms == ("x == 1", "x == 2", "x == 5 && x > 0")


def test_arm_added_to_a_negated_helper_is_stricter() -> None:
    old_h = fn("_Bool is_int(uint8_t op) { return op == 1 || op == 2; }")
    new_h = fn("_Bool is_int(uint8_t op) { return op == 1 || op == 2 || op == 3; }")
    caller = fn("_Bool general(uint8_t op) { return op < 9 && !is_int(op); }")
    mixed = fn("_Bool other(uint8_t op) { return is_int(op) || op == 0; }")
    pol = T.Polarity([old_h, caller])
    assert pol("is_int") == -1 and pol("general") == 1
    assert T.Polarity([old_h, caller, mixed])("is_int") == 0
    tc = T.diff_terms(T.function_terms(old_h), T.function_terms(new_h))
    assert [(c.op, c.arms) for c in tc] == [("~", (("+", "op == 3"),))]
    assert T.effect(tc, 1, True) == "looser"
    assert T.effect(tc, -1, True) == "stricter"
    assert T.effect(tc, 0, True) == "both"


def test_reordered_terms_are_not_a_change() -> None:
    a = fn("_Bool v(uint8_t x, uint8_t y) { return (x > 1) && (y > 2) && (x < 9 || y < 9); }")
    b = fn("_Bool v(uint8_t x, uint8_t y) {\n  return y > 2\n && (x < 9 || y < 9) && x > 1;\n}")
    assert T.diff_terms(T.function_terms(a), T.function_terms(b)) == []


def test_simple_term_widened_to_a_disjunction() -> None:
    a = fn("_Bool v(uint8_t x) { return x == 2; }")
    b = fn("_Bool v(uint8_t x) { return x == 2 || x == 3; }")
    (c,) = T.diff_terms(T.function_terms(a), T.function_terms(b))
    assert c.op == "~" and c.arms == (("+", "x == 3"),)
