"""Ingest and reconcile on the vendored four-generation drop, through the CLI, against the shelf."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tpb_paths import GENERATIONS, HEADER_ROOT
from tpbgen.checks.annotations import check_annotations
from tpbgen.cli import main
from tpbgen.frontend.ingest import ingest_root
from tpbgen.ir import io as ir_io

# founding doc §4/§5 and ts-tsm-facts §5: compile-verified offsets, identical on all four gens
S3D3_TS = {
    "header": 0,
    "events": 4,
    "accumulator_cmd": 12,
    "src_mem_pattern": 16,
    "in_dtype": 32,
    "out_dtype": 33,
    "num_active_channels": 34,
    "imm0_src": 35,
    "op0": 36,
    "op1": 37,
    "reverse_operands": 38,
    "imm1_src": 39,
    "imm0": 40,
    "imm1": 44,
    "dst_mem_pattern": 48,
}
S4D4_TSM = {
    "header": 0,
    "events": 4,
    "src_mem_pattern": 12,
    "in_dtype": 32,
    "out_dtype": 33,
    "num_active_channels": 34,
    "reserved0": 35,
    "op": 36,
    "op_dim": 37,
    "reverse_operands": 38,
    "reserved1": 39,
    "dst_mem_pattern": 44,
}
S2_BN = {
    "src_mem_pattern": 16,
    "imm1": 28,
    "dtype": 32,
    "num_active_channels": 34,
    "imm0_ptr": 44,
    "imm0_src": 48,
}
SIZES = {
    "NEURON_ISA_TPB_HEADER": 4,
    "NEURON_ISA_TPB_EVENTS": 8,
    "NEURON_ISA_TPB_TENSOR2D": 12,
    "NEURON_ISA_TPB_TENSOR3D": 16,
    "NEURON_ISA_TPB_TENSOR4D": 20,
    "NEURON_ISA_TPB_S3D3_TS_STRUCT": 64,
    "NEURON_ISA_TPB_S4D4_TSM_STRUCT": 64,
    "NEURON_ISA_TPB_S2_BN_STRUCT": 64,
    "NEURON_ISA_TPB_IMM_VAL_INST_FIELD": 4,
}


def inspect_json(gen: str, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["inspect", "--gen", gen, "--headers", str(HEADER_ROOT), "--format", "json"]) == 0
    doc: dict[str, object] = json.loads(capsys.readouterr().out)
    assert ir_io.validate(doc) == []
    return doc


@pytest.mark.parametrize("gen", GENERATIONS)
def test_inspect_json_reproduces_the_shelf(gen: str, capsys: pytest.CaptureFixture[str]) -> None:
    doc = inspect_json(gen, capsys)
    structs = {s["name"]: s for s in doc["structs"]}  # type: ignore[attr-defined,index]
    for name, size in SIZES.items():
        assert structs[name]["size"] == size, name
    for name, table in (
        ("NEURON_ISA_TPB_S3D3_TS_STRUCT", S3D3_TS),
        ("NEURON_ISA_TPB_S4D4_TSM_STRUCT", S4D4_TSM),
        ("NEURON_ISA_TPB_S2_BN_STRUCT", S2_BN),
    ):
        got = {f["name"]: f["offset"] for f in structs[name]["fields"]}
        assert {k: got[k] for k in table} == table, name
    mem = {
        f["name"]: f["type"]["name"] for f in structs["NEURON_ISA_TPB_S3D3_TS_STRUCT"]["fields"]
    }["src_mem_pattern"]
    assert mem == (
        "NEURON_ISA_TPB_TENSOR3D" if gen in ("sunda", "cayman") else "NEURON_ISA_TPB_MEM_PATTERN3D"
    )
    enums = {e["name"]: e for e in doc["enums"]}  # type: ignore[attr-defined,index]
    assert all(e["size"] == 1 for e in enums.values())
    ops = {m["name"]: m for m in enums["NEURON_ISA_TPB_OPCODE"]["members"]}
    counts = {"sunda": 145, "cayman": 150, "mariana": 159, "maverick": 165}
    assert len(ops) == counts[gen]
    ptr = ops["NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_ARITH_OP"]
    assert ptr["value"] == 0x44 and ptr["comment"] == "n, use TensorScalarArithOp instead"
    assert ptr["maintenance"] == {
        "maintained": False,
        "marker": "n",
        "note": "use TensorScalarArithOp instead",
    }
    assert ptr["loc"]["line"] == {"sunda": 169, "cayman": 172, "mariana": 177, "maverick": 180}[gen]
    cache = ops["NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_REDUCE"]
    assert (
        cache["loc"]["line"] == {"sunda": 236, "cayman": 233, "mariana": 238, "maverick": 241}[gen]
    )
    dual = "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH"
    if gen == "sunda":
        assert ops[dual]["value"] == 0x87 and ops[dual]["loc"]["line"] == 221
        assert ops[dual]["comment"] == "n, ucode/kaenadve exists, not maintained/used"
    else:
        assert dual not in ops
    update = {m["name"]: m for m in enums["NEURON_ISA_TPB_UPDATE_MODE"]["members"]}
    sem = update["NEURON_ISA_TPB_UPDATE_MODE_SEM_SUB_REG_READ"]
    assert (
        sem["value"] == 0x87
        and sem["loc"]["line"]
        == {"sunda": 350, "cayman": 356, "mariana": 366, "maverick": 374}[gen]
    )
    alu = {"sunda": 33, "cayman": 60, "mariana": 64, "maverick": 65}[gen]
    assert len(enums["NEURON_ISA_TPB_ALU_OP"]["members"]) == alu
    assert all(a["value"] for a in doc["static_asserts"])  # type: ignore[attr-defined,index]
    banner = next(f["banner"] for f in doc["files"] if f["path"].endswith("common.h"))  # type: ignore[attr-defined,index]
    assert banner.endswith(f"ISA header for NC-v{GENERATIONS.index(gen) + 2}.")


def test_reconcile_reports_exactly_the_documented_stale_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(["reconcile", "--headers", str(HEADER_ROOT), "--format", "json"]) == 0
    )  # stale names warn by default
    findings = json.loads(capsys.readouterr().out)
    stale = sorted(
        (f["gen"], f["struct"], f["name"], f["suggestion"], f["pointer"])
        for f in findings
        if f["kind"] == "stale"
    )
    dual = [
        (
            g,
            "NEURON_ISA_TPB_S4D4_TSM_STRUCT",
            f"NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_{k}",
            f"NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_{k}",
            f"/struct2opcode/NEURON_ISA_TPB_S4D4_TSM_STRUCT/{i}",
        )
        for g in ("cayman", "mariana", "maverick")
        for i, k in ((2, "ARITH"), (3, "BITVEC"))
    ]
    barrier = [
        (
            g,
            "NEURON_ISA_TPB_PSEUDO_DMA_BARRIER_STRUCT",
            "NEURON_ISA_TPB_OPCODE_PSEUDO_DMA_BARRIER",
            "NEURON_ISA_TPB_OPCODE_PSEUDO_DMABARRIER",
            "/struct2opcode/NEURON_ISA_TPB_PSEUDO_DMA_BARRIER_STRUCT/0",
        )
        for g in GENERATIONS
    ]
    assert stale == sorted(dual + barrier)
    assert all(f["severity"] == "warning" for f in findings if f["kind"] == "stale")
    assert not [f for f in findings if f["kind"] in ("duplicate", "double-bound")]
    # --strict turns the expected stale names into errors: exit 1
    assert main(["reconcile", "--headers", str(HEADER_ROOT), "--strict"]) == 1
    capsys.readouterr()


def test_waivers_accept_named_findings_and_report_unused_ones(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from pathlib import Path

    d = Path(str(tmp_path))
    (d / "cayman.waivers").write_text(
        "stale NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH NEURON_ISA_TPB_S4D4_TSM_STRUCT # retired with NC-v2\n"
        "stale NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC  # any struct\n"
        "stale NEURON_ISA_TPB_OPCODE_PSEUDO_DMA_BARRIER # spelling\n"
        "stale NEURON_ISA_TPB_OPCODE_NOT_THERE # matches nothing\n"
    )
    assert (
        main(
            [
                "reconcile",
                "--headers",
                str(HEADER_ROOT),
                "--gen",
                "cayman",
                "--strict",
                "--waivers",
                str(d),
                "--format",
                "json",
            ]
        )
        == 0
    )
    findings = json.loads(capsys.readouterr().out)
    kinds = sorted(f["kind"] for f in findings if f["kind"] in ("stale", "waived", "waiver-unused"))
    assert kinds == ["waived", "waived", "waived", "waiver-unused"]
    unused = next(f for f in findings if f["kind"] == "waiver-unused")
    assert unused["line"] == 4 and unused["name"] == "NEURON_ISA_TPB_OPCODE_NOT_THERE"


@pytest.mark.parametrize("gen", GENERATIONS)
def test_verify_cc(gen: str, cc: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", "--gen", gen, "--headers", str(HEADER_ROOT), "--verify-cc"]) == 0
    err = capsys.readouterr().err
    assert "0 mismatches" in err


def test_annotation_warnings_flag_exactly_the_documented_typo() -> None:
    """The two documented annotation quirks: S4D4_TSM's `// 6 (39 - 43)` and S2S2D2_STT's
    `// 12 (48 - 60)` (tt-stt-facts.md §6a)."""
    for r in ingest_root(HEADER_ROOT):
        warnings = check_annotations(r.gen)
        assert [(w.code, w.message.split(":")[0]) for w in warnings] == [
            ("annotation", "NEURON_ISA_TPB_S4D4_TSM_STRUCT.reserved1"),
            ("annotation", "NEURON_ISA_TPB_S2S2D2_STT_STRUCT.dst_mem_pattern"),
        ], r.gen.name
        assert "says size 6 (computed 5)" in warnings[0].message
        assert "says last byte 60 (computed 59)" in warnings[1].message


def test_cpp_and_pcpp_agree_on_the_drop(monkeypatch: pytest.MonkeyPatch) -> None:
    if not shutil.which("cpp"):
        pytest.skip("no system cpp on PATH")
    monkeypatch.setenv("TPBGEN_PREPROCESSOR", "cpp")
    with_cpp = [ir_io.dumps(r.gen) for r in ingest_root(HEADER_ROOT, use_cache=False)]
    monkeypatch.setenv("TPBGEN_PREPROCESSOR", "pcpp")
    with_pcpp = [ir_io.dumps(r.gen) for r in ingest_root(HEADER_ROOT, use_cache=False)]
    assert with_cpp == with_pcpp


def test_verify_cc_names_a_compiler_whose_char_is_unsigned(cc: str, tmp_path: Path) -> None:
    """tpbgen models signed plain char ('\\377' is -1); a compiler with unsigned char (AArch64
    Linux, or -funsigned-char) would disagree with every char constant: verify-cc says so."""
    from tpbgen.checks.verify_cc import verify_cc

    wrapper = tmp_path / "cc-unsigned-char"
    wrapper.write_text(f'#!/bin/sh\nexec {shutil.which(cc)} -funsigned-char "$@"\n')
    wrapper.chmod(0o755)
    gen = next(r.gen for r in ingest_root(HEADER_ROOT) if r.gen.name == "mariana")
    ok, _ = verify_cc(gen, HEADER_ROOT, cc)
    assert ok == []
    bad, _ = verify_cc(gen, HEADER_ROOT, str(wrapper))
    assert [d.message.split(":")[0] for d in bad] == ["plain char"], bad
    assert "char is unsigned" in bad[0].message
