"""A synthetic next drop, built from maverick with a known list of edits, yields exactly those
findings, with the right classes, the file:line of both sides and the right exit codes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tpb_paths import tpb_dir

from .helpers import copy_generation, edit, edit_json, findings, line_of, run

OP = "NEURON_ISA_TPB_OPCODE_"
TS = "NEURON_ISA_TPB_S3D3_TS_STRUCT"
TSM = "NEURON_ISA_TPB_S4D4_TSM_STRUCT"
COMMON = "aws_neuron_isa_tpb_common.h"
ASSERT = "aws_neuron_isa_tpb_assert.h"

# (kind, subject, class): the findings each edit must produce, and nothing else
EXPECTED = {
    ("enum.member.added", "NEURON_ISA_TPB_TENSOR_SUBDIM_XYZWV", "additive"),
    ("enum.member.renumbered", "NEURON_ISA_TPB_DEQUANT_FMT_E2M3TO_E4M3", "encoding-breaking"),
    ("opcode.marker", OP + "RAND2", "informational"),
    ("field.moved", f"{TSM}.num_active_channels", "encoding-breaking"),
    ("field.reserved-repurposed", f"{TS}.tile_hint", "additive"),
    ("function.changed", "has_zero_accum_cmd_field", "encoding-breaking"),
    ("binding.unbound", OP + "TENSOR_SCALAR_CACHE_CUMULATIVE", "encoding-breaking"),
    ("binding.stale-appeared", OP + "TENSOR_SCALAR_PTR_MULTI_TRIPLE_ARITH", "informational"),
}


def next_drop(root: Path) -> Path:
    new = copy_generation("maverick", root)
    common = new / COMMON
    # an enumerator added
    edit(
        common,
        "    NEURON_ISA_TPB_TENSOR_SUBDIM_XYZW = 0x05,\n",
        "    NEURON_ISA_TPB_TENSOR_SUBDIM_XYZW = 0x05,\n    NEURON_ISA_TPB_TENSOR_SUBDIM_XYZWV = 0x06,\n",
    )
    # one renumbered
    edit(
        common,
        "NEURON_ISA_TPB_DEQUANT_FMT_E2M3TO_E4M3 = 4,",
        "NEURON_ISA_TPB_DEQUANT_FMT_E2M3TO_E4M3 = 6,",
    )
    # a maintenance marker flipped
    edit(
        common,
        "NEURON_ISA_TPB_OPCODE_RAND2 = 0xe2, // Y",
        "NEURON_ISA_TPB_OPCODE_RAND2 = 0xe2, // n, use Rand3 instead",
    )
    # a field moved: num_active_channels and the reserved byte after it swap places
    tsm = new / "aws_neuron_isa_tpb_s4d4_tsm.h"
    edit(
        tsm,
        "    uint8_t                            num_active_channels;  // 1   (34     )\n"
        "    uint8_t                            reserved0[1];         // 1   (35     )\n",
        "    uint8_t                            reserved0[1];         // 1   (34     )\n"
        "    uint8_t                            num_active_channels;  // 1   (35     )\n",
    )
    # a reserved byte given a meaning
    edit(
        new / "aws_neuron_isa_tpb_s3d3_ts.h",
        "    uint8_t                            reserved0[3];         // 3   (13 - 15)\n",
        "    uint8_t                            reserved0[2];         // 2   (13 - 14)\n"
        "    uint8_t                            tile_hint;            // 1   (15     )\n",
    )
    # a validator term added
    edit(
        new / ASSERT,
        "    return( i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE );\n",
        "    return( i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE\n"
        "            && i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE );\n",
    )

    # a JSON binding removed, and a stale name introduced
    def json_edits(doc: dict[str, Any]) -> None:
        doc["struct2opcode"][TS].remove(OP + "TENSOR_SCALAR_CACHE_CUMULATIVE")
        doc["struct2opcode"][TSM].append(OP + "TENSOR_SCALAR_PTR_MULTI_TRIPLE_ARITH")

    edit_json(new / "instruction_mapping.json", json_edits)
    return new


@pytest.fixture(scope="module")
def drop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return next_drop(tmp_path_factory.mktemp("next"))


def test_exactly_the_edits(capsys: pytest.CaptureFixture[str], drop: Path) -> None:
    r = run(capsys, str(tpb_dir("maverick")), str(drop), "--format", "json")
    assert r.rc == 1, r.err
    fs = findings(r.json())
    got = {(f["kind"], f["subject"], f["class"]) for f in fs}
    assert got == EXPECTED
    assert len(fs) == len(EXPECTED)


def test_both_sides_are_located(capsys: pytest.CaptureFixture[str], drop: Path) -> None:
    old = tpb_dir("maverick")
    fs = {
        f["kind"]: f for f in findings(run(capsys, str(old), str(drop), "--format", "json").json())
    }

    def at(f: dict[str, Any], side: str, path: Path, needle: str) -> None:
        assert f[side]["file"].endswith(path.name)
        assert f[side]["line"] == line_of(path, needle), (f["kind"], side)

    tsm = "aws_neuron_isa_tpb_s4d4_tsm.h"
    at(fs["field.moved"], "old", old / tsm, "num_active_channels;")
    at(fs["field.moved"], "new", drop / tsm, "num_active_channels;")
    assert (
        fs["field.moved"]["detail"]["old_offset"] == 34
        and fs["field.moved"]["detail"]["new_offset"] == 35
    )
    at(fs["enum.member.renumbered"], "old", old / COMMON, "DEQUANT_FMT_E2M3TO_E4M3 =")
    at(fs["enum.member.renumbered"], "new", drop / COMMON, "DEQUANT_FMT_E2M3TO_E4M3 =")
    added = fs["enum.member.added"]
    at(added, "new", drop / COMMON, "TENSOR_SUBDIM_XYZWV")
    assert (
        not added["old"]["present"]
        and added["old"]["near"] == "after NEURON_ISA_TPB_TENSOR_SUBDIM_XYZW"
    )
    at(added, "old", old / COMMON, "NEURON_ISA_TPB_TENSOR_SUBDIM_XYZW = 0x05")
    rep = fs["field.reserved-repurposed"]
    at(rep, "new", drop / "aws_neuron_isa_tpb_s3d3_ts.h", "tile_hint;")
    assert rep["detail"]["offset"] == 15 and rep["detail"]["old_owners"] == ["reserved0"]
    at(fs["opcode.marker"], "old", old / COMMON, "OPCODE_RAND2 =")
    assert fs["opcode.marker"]["detail"]["new_marker"] == {
        "maintained": False,
        "marker": "n",
        "note": "use Rand3 instead",
    }
    fn = fs["function.changed"]
    at(fn, "old", old / ASSERT, "bool has_zero_accum_cmd_field(")
    at(fn, "new", drop / ASSERT, "bool has_zero_accum_cmd_field(")
    assert [(t["op"], t["text"]) for t in fn["detail"]["terms"]] == [
        ("+", "i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE")
    ]
    unbound = fs["binding.unbound"]
    at(unbound, "old", old / "instruction_mapping.json", f'"{TS}"')
    at(unbound, "new", drop / "instruction_mapping.json", f'"{TS}"')
    assert unbound["detail"]["decodable_old"] == [TS] and unbound["detail"]["decodable_new"] == []
    stale = fs["binding.stale-appeared"]
    at(stale, "new", drop / "instruction_mapping.json", f'"{TSM}"')
    assert stale["detail"]["struct"] == TSM


@pytest.mark.parametrize(("fail_on", "rc"), [("breaking", 1), ("any", 1), ("none", 0)])
def test_exit_codes(capsys: pytest.CaptureFixture[str], drop: Path, fail_on: str, rc: int) -> None:
    assert run(capsys, str(tpb_dir("maverick")), str(drop), "--fail-on", fail_on).rc == rc


def test_additive_only_drop_passes_by_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    new = copy_generation("maverick", tmp_path)
    edit(
        new / COMMON,
        "NEURON_ISA_TPB_OPCODE_RAND2 = 0xe2, // Y",
        "NEURON_ISA_TPB_OPCODE_RAND2 = 0xe2, // n, retired",
    )
    edit(
        new / COMMON,
        "    NEURON_ISA_TPB_TENSOR_SUBDIM_XYZW = 0x05,\n",
        "    NEURON_ISA_TPB_TENSOR_SUBDIM_XYZW = 0x05,\n    NEURON_ISA_TPB_TENSOR_SUBDIM_XYZWV = 0x06,\n",
    )
    old = str(tpb_dir("maverick"))
    r = run(capsys, old, str(new))
    assert r.rc == 0, r.out
    assert "1 additive, 1 informational" in r.out
    assert run(capsys, old, str(new), "--fail-on", "any").rc == 1
    # the same drop compared with itself, given by two paths: nothing at all
    assert run(capsys, str(new), str(new), "--fail-on", "any").rc == 0
