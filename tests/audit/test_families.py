"""The audit of the vendored drop classifies the generation differences of the tensor-tensor,
scalar-tensor-tensor and tensor-reduce families (tt-stt-facts.md §1, §3h, §5, §9a): SUNDA's BF16
forms go away at CAYMAN (encoding-breaking, with their validators), MAVERICK's TENSOR_TENSOR_INT_WIDE
arrives with its own struct (additive), and nothing else about them moves."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tpb_paths import HEADER_ROOT

from .helpers import findings, of_kind, run_quiet

TRANSITIONS = ("sunda->cayman", "cayman->mariana", "mariana->maverick")
OPCODE = "NEURON_ISA_TPB_OPCODE_"
TT, TR = "NEURON_ISA_TPB_S3S3D3_TT_STRUCT", "NEURON_ISA_TPB_S4D4_TR_STRUCT"
WIDE = "NEURON_ISA_TPB_S2S2D2D2_TT_STRUCT"
BF16 = {
    OPCODE + "TENSOR_TENSOR_ADD_BF16": TT,
    OPCODE + "TENSOR_TENSOR_MULT_BF16": TT,
    OPCODE + "TENSOR_TENSOR_SUB_BF16": TT,
    OPCODE + "TENSOR_REDUCE_ADD_BF16": TR,
    OPCODE + "TENSOR_REDUCE_MAX_BF16": TR,
}


@pytest.fixture(scope="module")
def walk() -> dict[str, list[dict[str, Any]]]:
    r = run_quiet("--all", "--format", "json")
    assert r.rc == 1, r.err
    return {name: findings(r.json(), i) for i, name in enumerate(TRANSITIONS)}


def _mentions(fs: list[dict[str, Any]], needle: str) -> list[dict[str, Any]]:
    return [f for f in fs if needle in f["subject"].lower()]


def test_bf16_forms_leave_at_cayman(walk: dict[str, list[dict[str, Any]]]) -> None:
    gone = {f["subject"]: f for f in of_kind(walk["sunda->cayman"], "opcode.removed")}
    for name, struct in BF16.items():
        f = gone[name]
        assert f["class"] == "encoding-breaking", name
        assert f["detail"]["decodable_old"] == [struct] and f["detail"]["decodable_new"] == []
    removed = {f["subject"]: f["class"] for f in of_kind(walk["sunda->cayman"], "function.removed")}
    for fn in ("is_valid_tensor_tensor_bf16", "is_valid_tensor_reduce_bf16"):
        assert removed[fn] == "api-breaking"
    # the arith classifier loses the two BF16 reduce opcodes: fewer words pass
    changed = {f["subject"]: f for f in of_kind(walk["sunda->cayman"], "function.changed")}
    assert changed["tensor_reduce_arith"]["class"] == "encoding-breaking"
    assert changed["tensor_reduce_arith"]["detail"]["effect"] == "stricter"
    # and the 64-bit shift arm CAYMAN adds to the bitvec dtype rule is additive
    assert changed["s3s3d3_tt_src_dst_dtype"]["class"] == "additive"
    assert changed["s3s3d3_tt_src_dst_dtype"]["detail"]["effect"] == "looser"
    # nothing BF16 anywhere later
    for name in ("cayman->mariana", "mariana->maverick"):
        assert not _mentions(walk[name], "bf16"), name


def test_int_wide_arrives_at_maverick(walk: dict[str, list[dict[str, Any]]]) -> None:
    fs = walk["mariana->maverick"]
    added = {f["subject"]: f for f in of_kind(fs, "opcode.added")}
    f = added[OPCODE + "TENSOR_TENSOR_INT_WIDE"]
    assert f["class"] == "additive"
    assert f["detail"]["decodable_new"] == [WIDE] and f["detail"]["json_new"] == [WIDE]
    assert [g["class"] for g in of_kind(fs, "struct.added") if g["subject"] == WIDE] == ["additive"]
    arms = [
        g
        for g in of_kind(fs, "field.added")
        if g["subject"] == "NEURON_ISA_TPB_INST_UNION.s2s2d2d2_tt"
    ]
    assert [g["class"] for g in arms] == ["additive"]
    fn = {g["subject"]: g["class"] for g in of_kind(fs, "function.added")}
    assert fn["is_valid_tensor_tensor_int_wide"] == "additive"
    for name in ("sunda->cayman", "cayman->mariana"):
        assert not _mentions(walk[name], "int_wide"), name


def test_layouts_of_the_families(walk: dict[str, list[dict[str, Any]]]) -> None:
    """S4D4_TR's patterns become MEM_PATTERN4D at MARIANA (a retype, api-breaking, as S3D3_TS's);
    S3S3D3_TT and S2S2D2_STT keep their layouts on every generation (Q1: TENSOR3D kept)."""
    retyped = {f["subject"]: f["class"] for f in of_kind(walk["cayman->mariana"], "field.retyped")}
    assert retyped[TR + ".src_mem_pattern"] == "api-breaking"
    assert retyped[TR + ".dst_mem_pattern"] == "api-breaking"
    for fs in walk.values():
        for f in of_kind(fs, "field.retyped", "field.moved", "field.removed", "struct.size"):
            assert TT not in f["subject"] and "S2S2D2_STT" not in f["subject"], f["subject"]


def test_the_firmware_overlay_reaches_the_opcode_matrix(tmp_path: Path) -> None:
    """With the drop's firmware_status.json each matrix cell says what the firmware does; the
    same drop without it gives cells without the field (the report is what it was)."""
    r = run_quiet("--all", "--format", "json")
    rows = {row["value"]: row["cells"] for row in r.json()["opcode_matrix"]["rows"]}
    assert [c["firmware"] for c in rows[0x44]] == ["working"] * 4
    assert [c["firmware"] for c in rows[0x5F]] == ["stub"] * 4
    assert rows[0x87][0]["firmware"] == "absent" and not rows[0x87][1]["present"]
    assert [c["firmware"] for c in rows[0x43]] == [""] * 4
    drop = tmp_path / "drop"
    shutil.copytree(HEADER_ROOT, drop)
    (drop / "firmware_status.json").unlink()
    bare = run_quiet("--all", "--headers", str(drop), "--format", "json")
    cells = [c for row in bare.json()["opcode_matrix"]["rows"] for c in row["cells"]]
    assert cells and not any("firmware" in c for c in cells)
