"""The four-generation audit of the vendored drop finds the shelf's documented transitions
(common-h-facts.md §2-§3, ts-tsm-facts.md §1c, §2c, §4) and nothing spurious."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import Run, findings, of_kind, run, run_quiet

TRANSITIONS = ("sunda->cayman", "cayman->mariana", "mariana->maverick")
OPCODE = "NEURON_ISA_TPB_OPCODE_"
TS = "NEURON_ISA_TPB_S3D3_TS_STRUCT"
TSM = "NEURON_ISA_TPB_S4D4_TSM_STRUCT"
DUAL = (
    OPCODE + "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH",
    OPCODE + "TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC",
)


@pytest.fixture(scope="module")
def walk() -> dict[str, Any]:
    r = run_quiet("--all", "--format", "json")
    assert r.rc == 1, r.err  # sunda -> cayman removes opcodes: breaking
    doc = r.json()
    got = [f"{t['old']['generation']}->{t['new']['generation']}" for t in doc["transitions"]]
    assert tuple(got) == TRANSITIONS
    return doc


def by_transition(doc: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {name: findings(doc, i) for i, name in enumerate(TRANSITIONS)}


def test_opcode_removals_and_additions(walk: dict[str, Any]) -> None:
    t = by_transition(walk)
    removed = {
        k: sorted(f["detail"]["value"] for f in of_kind(fs, "opcode.removed"))
        for k, fs in t.items()
    }
    added = {k: len(of_kind(fs, "opcode.added")) for k, fs in t.items()}
    assert removed == {
        "sunda->cayman": [0x87, 0x88, 0x8A, 0x8B, 0x8C, 0x8D, 0x8F],
        "cayman->mariana": [],
        "mariana->maverick": [],
    }
    assert added == {"sunda->cayman": 12, "cayman->mariana": 9, "mariana->maverick": 6}
    for fs in t.values():
        assert not of_kind(
            fs, "opcode.renumbered", "opcode.renamed"
        )  # values never change between gens
        assert {f["class"] for f in of_kind(fs, "opcode.removed")} <= {"encoding-breaking"}
        assert {f["class"] for f in of_kind(fs, "opcode.added")} <= {"additive"}
        for f in of_kind(fs, "opcode.removed", "opcode.added"):
            assert f["old"]["file"].endswith("aws_neuron_isa_tpb_common.h") and f["old"]["line"] > 0
            assert f["new"]["file"].endswith("aws_neuron_isa_tpb_common.h") and f["new"]["line"] > 0
            assert f["old"]["present"] != f["new"]["present"]


def test_alu_op_grows_33_60_64_65(walk: dict[str, Any]) -> None:
    t = by_transition(walk)
    alu = "NEURON_ISA_TPB_ALU_OP"
    grown = [
        len([f for f in of_kind(fs, "enum.member.added") if f["detail"]["enum"] == alu])
        for fs in t.values()
    ]
    assert [33 + sum(grown[:i]) for i in range(4)] == [33, 60, 64, 65]
    for fs in t.values():
        assert not [
            f
            for f in fs
            if f["kind"].startswith("enum.member.")
            and f["kind"] != "enum.member.added"
            and f["detail"]["enum"] == alu
        ]
    rows = {r["value"]: r for r in walk["opcode_matrix"]["rows"]}
    assert (
        sum(1 for r in rows.values() if r["cells"][0]["present"]) == 145
    )  # the matrix agrees: S has 145 opcodes
    assert [sum(1 for r in rows.values() if r["cells"][i]["present"]) for i in range(4)] == [
        145,
        150,
        159,
        165,
    ]


def test_dual_validators_disappear_after_sunda(walk: dict[str, Any]) -> None:
    t = by_transition(walk)
    gone = {f["subject"] for f in of_kind(t["sunda->cayman"], "function.removed")}
    assert {
        "is_valid_tensor_scalar_ptr_multi_dual",
        "has_tensor_scalar_ptr_multi_dual_opcode",
        "has_valid_src_slices_tsm_dual",
    } <= gone
    assert all(
        f["class"] == "api-breaking" for f in of_kind(t["sunda->cayman"], "function.removed")
    )
    for name in ("cayman->mariana", "mariana->maverick"):
        assert not [f for f in t[name] if "dual" in f["subject"].lower()]


def test_is_valid_exponential_appears_at_mariana(walk: dict[str, Any]) -> None:
    t = by_transition(walk)
    appear = {
        k: [f for f in of_kind(fs, "function.added") if f["subject"] == "is_valid_exponential"]
        for k, fs in t.items()
    }
    assert [len(v) for v in appear.values()] == [0, 1, 0]
    f = appear["cayman->mariana"][0]
    assert f["class"] == "additive" and f["new"]["present"] and not f["old"]["present"]
    # the JSON starts binding EXPONENTIAL to S3D3_TS at the same step, and it becomes decodable
    bound = [
        f
        for f in of_kind(t["cayman->mariana"], "binding.bound")
        if f["subject"] == OPCODE + "EXPONENTIAL"
    ]
    assert (
        len(bound) == 1
        and bound[0]["detail"]["decodable_new"] == [TS]
        and bound[0]["class"] == "additive"
    )


def test_s3d3_ts_mem_pattern_retype_at_mariana(walk: dict[str, Any]) -> None:
    t = by_transition(walk)
    for name, fs in t.items():
        operand = [
            f
            for f in fs
            if f["category"] == "structs"
            and f["detail"].get("struct") in (TS, TSM, "NEURON_ISA_TPB_S2_BN_STRUCT")
        ]
        if name != "cayman->mariana":
            assert operand == [], name  # offsets are identical on all four gens
            continue
        assert sorted((f["kind"], f["subject"]) for f in operand) == [
            ("field.retyped", f"{TS}.dst_mem_pattern"),
            ("field.retyped", f"{TS}.src_mem_pattern"),
        ]
        for f in operand:
            assert f["detail"]["old_type"]["name"] == "NEURON_ISA_TPB_TENSOR3D"
            assert f["detail"]["new_type"]["name"] == "NEURON_ISA_TPB_MEM_PATTERN3D"
            assert f["detail"]["via_arm"] == "t"
            assert f["class"] == "api-breaking"
            assert f["old"]["file"].endswith("aws_neuron_isa_tpb_s3d3_ts.h") and f["new"][
                "file"
            ].endswith("aws_neuron_isa_tpb_s3d3_ts.h")


def _terms(f: dict[str, Any]) -> list[tuple[str, str]]:
    return [(t["op"], t["text"]) for t in f["detail"]["terms"]]


def test_maverick_tile_aware_channel_check_is_a_term_change(walk: dict[str, Any]) -> None:
    fs = by_transition(walk)["mariana->maverick"]
    changed = {f["subject"]: f for f in of_kind(fs, "function.changed")}
    for name in (
        "is_valid_tensor_scalar_op",
        "is_valid_tensor_scalar_cache_reduce",
        "is_valid_tensor_scalar_cache_cumulative",
        "is_valid_exponential",
        "is_valid_tensor_scalar_ptr_multi_common",
    ):
        terms = _terms(changed[name])
        assert [op for op, _ in terms] == ["-", "+"], (name, terms)
        assert terms[0][1].startswith("has_valid_active_channel_range(")
        assert terms[1][1].startswith("has_valid_active_channel_range_with_tile(")
        assert "inst_flags" in terms[1][1]
        assert changed[name]["class"] == "encoding-breaking"
    assert "DVE_NUM_CHANNELS" in _terms(changed["is_valid_tensor_scalar_op"])[1][1]
    assert (
        "POOLING_NUM_CHANNELS" in _terms(changed["is_valid_tensor_scalar_ptr_multi_common"])[1][1]
    )


def test_maverick_int_op_arm_is_an_arm_added(walk: dict[str, Any]) -> None:
    fs = by_transition(walk)["mariana->maverick"]
    f = next(
        f for f in of_kind(fs, "function.changed") if f["subject"] == "tensor_scalar_valid_ops"
    )
    (term,) = f["detail"]["terms"]
    assert term["op"] == "~"
    assert [a["op"] for a in term["arms"]] == ["+"]
    assert "is_valid_int_aluop_dve" in term["arms"][0]["text"]
    assert f["class"] == "additive"  # an arm added to a disjunction accepts more, rejects nothing
    for other in ("sunda->cayman", "cayman->mariana"):
        assert not [
            f for f in by_transition(walk)[other] if f["subject"] == "tensor_scalar_valid_ops"
        ]


def test_tsm_dual_json_names_become_stale_at_cayman(walk: dict[str, Any]) -> None:
    t = by_transition(walk)
    stale = {
        k: sorted(
            (f["detail"]["struct"], f["subject"]) for f in of_kind(fs, "binding.stale-appeared")
        )
        for k, fs in t.items()
    }
    assert stale["sunda->cayman"] == sorted((TSM, n) for n in DUAL)
    assert stale["cayman->mariana"] == [] and stale["mariana->maverick"] == []
    assert not any(of_kind(fs, "binding.stale-disappeared") for fs in t.values())
    for f in of_kind(t["sunda->cayman"], "binding.stale-appeared"):
        assert f["class"] == "informational"
        assert f["new"]["file"].endswith("instruction_mapping.json") and f["new"]["present"]


def test_nothing_spurious(walk: dict[str, Any]) -> None:
    t = by_transition(walk)
    for fs in t.values():
        # no layout breaks anywhere in the shared and operand structs: only retypes, renames and arms
        assert not of_kind(
            fs,
            "field.moved",
            "struct.size",
            "struct.kind",
            "enum.size",
            "enum.member.renumbered",
            "field.removed",
        )
        # decoding only changes where the shelf says it does
        for f in of_kind(fs, "binding.unbound", "binding.rebound", "opcode.undecodable"):
            assert f["class"] != "encoding-breaking", f
        ids = [f["id"] for f in fs]
        assert len(ids) == len(set(ids))
        for f in fs:
            for side in (f["old"], f["new"]):
                assert side["line"] >= 1 and not side["file"].startswith("/")
    # the DUAL opcodes and SUNDA's BF16 forms are the only removed opcodes that were decodable
    dec = [
        f["subject"]
        for f in of_kind(t["sunda->cayman"], "opcode.removed")
        if f["detail"]["decodable_old"]
    ]
    bf16 = ("TENSOR_TENSOR_ADD_BF16", "TENSOR_TENSOR_MULT_BF16", "TENSOR_TENSOR_SUB_BF16")
    bf16 += ("TENSOR_REDUCE_ADD_BF16", "TENSOR_REDUCE_MAX_BF16")
    assert sorted(dec) == sorted(DUAL + tuple(OPCODE + n for n in bf16))


def test_pairwise_equals_the_walk(capsys: pytest.CaptureFixture[str], walk: dict[str, Any]) -> None:
    r: Run = run(capsys, "cayman", "mariana", "--format", "json")
    assert r.rc == 1
    assert findings(r.json()) == findings(walk, 1)


def test_same_drop_has_no_findings(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(capsys, "maverick", "maverick", "--fail-on", "any")
    assert r.rc == 0, r.out
    assert "0 encoding-breaking, 0 api-breaking, 0 additive, 0 informational" in r.out
