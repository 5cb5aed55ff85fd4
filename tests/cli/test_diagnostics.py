"""One printer, diagnostics that attach: every command honours --error-format, paths open from the
current directory whatever --headers spelling was given, each message is printed once, and
`generate` reports what `reconcile` and `inspect` report, at the same severity."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from ingest.synth import COMMON, MAPPING, make_tree
from tpb_paths import HEADER_ROOT
from tpbgen.cli import main
from tpbgen.errors import ExitCode


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err
    return code, out, err


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / ".cache"))
    return tmp_path


def paths_in(text: str) -> list[str]:
    return re.findall(r"^(?:::\w+ file=)?([^\s:,#]+\.(?:h|json))", text, flags=re.M)


def test_paths_open_from_the_current_directory(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(in_tmp / "drop")
    for spelling in ("drop", "./drop", "drop/", str(in_tmp / "drop")):
        code, out, _ = run(capsys, "reconcile", "--headers", spelling, "--strict")
        assert code == ExitCode.FINDINGS
        where = paths_in(out)
        assert where and all(
            p.startswith("drop/neuron_synth_arch_isa/tpb/") and os.path.exists(p) for p in where
        ), (spelling, where)


def test_generate_honours_error_format_github(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(HEADER_ROOT, in_tmp / "vendor_headers")
    code, _, err = run(capsys, "--error-format", "github", "generate", "--out", "gen")
    assert code == 0
    lines = err.splitlines()
    assert lines and all(
        line.startswith("::warning file=vendor_headers/neuron_") for line in lines
    ), lines[:3]
    for line in lines:
        path = line.split("file=", 1)[1].split(",", 1)[0].split("::", 1)[0]
        assert os.path.exists(path), path
    assert any(
        "aws_neuron_isa_tpb_s4d4_tsm.h,line=121,col=40::annotation" in line for line in lines
    )
    code, _, err = run(capsys, "--error-format", "json", "generate", "--out", "gen", "--check")
    assert code == 0 and all(json.loads(line)["severity"] == "warning" for line in err.splitlines())


def test_audit_honours_error_format_and_says_which_drop(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = in_tmp / "old"
    bad = in_tmp / "new"
    make_tree(good)
    make_tree(
        bad, common=COMMON.replace("uint8_t               len;", "NEURON_ISA_TPB_NOPE   len;")
    )
    code, _, err = run(
        capsys,
        "--error-format",
        "github",
        "audit",
        "old/neuron_synth_arch_isa/tpb",
        "new/neuron_synth_arch_isa/tpb",
    )
    assert code == ExitCode.BAD_INPUT
    assert err.startswith(
        "::error file=new/neuron_synth_arch_isa/tpb/aws_neuron_isa_tpb_common.h,line=31,col=5::"
    )
    code, _, err = run(
        capsys, "audit", "old/neuron_synth_arch_isa/tpb", "new/neuron_synth_arch_isa/tpb"
    )
    assert "new/neuron_synth_arch_isa/tpb/aws_neuron_isa_tpb_common.h:31:5: error" in err


def test_each_diagnostic_is_printed_once(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cut = COMMON[: COMMON.index("} NEURON_ISA_TPB_HEADER;")]
    make_tree(in_tmp / "drop", common=cut)
    code, _, err = run(capsys, "generate", "--headers", "drop", "--out", "gen")
    assert code == ExitCode.BAD_INPUT
    lines = err.splitlines()
    assert lines and len(lines) == len(set(lines))


def test_dialect_warnings_name_the_header_line(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = COMMON.replace(
        "static const uint32_t NEURON_ISA_TPB_MASK",
        "__attribute__((deprecated)) static const uint32_t NEURON_ISA_TPB_MASK",
    )
    make_tree(in_tmp / "drop", common=common)
    line = common[: common.index("__attribute__((deprecated))")].count("\n") + 1
    code, _, err = run(capsys, "inspect", "--headers", "drop", "--gen", "synth")
    assert code == 0
    assert (
        f"drop/neuron_synth_arch_isa/tpb/aws_neuron_isa_tpb_common.h:{line}: warning [attribute]: attribute 'deprecated' ignored"
        in err
    )
    assert "<preprocessed>" not in err


def test_a_missing_waivers_directory_is_an_error(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(in_tmp / "drop")
    for cmd in ("reconcile", "generate"):
        code, _, err = run(capsys, cmd, "--headers", "drop", "--waivers", "nope")
        assert code == ExitCode.BAD_INPUT and "nope: error [waivers-dir]" in err, cmd
    assert not (in_tmp / "generated").exists()


def test_generate_fails_on_a_double_binding_as_reconcile_does(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mapping = json.loads(json.dumps(MAPPING))
    mapping["struct2opcode"]["NEURON_ISA_TPB_ELSEWHERE_STRUCT"].append(
        "NEURON_ISA_TPB_OPCODE_ALPHA"
    )
    make_tree(in_tmp / "drop", mapping=mapping)
    assert run(capsys, "reconcile", "--headers", "drop")[0] == ExitCode.FINDINGS
    code, _, gen_err = run(capsys, "generate", "--headers", "drop", "--out", "gen")
    assert code == ExitCode.FINDINGS
    assert (
        "error [double-bound]: NEURON_ISA_TPB_OPCODE_ALPHA is bound to more than one struct"
        in gen_err
    )
    assert not (in_tmp / "gen").exists()


def test_duplicate_json_keys_are_detected(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(MAPPING, indent=4)
    dup = text.replace(
        '"NEURON_ISA_TPB_ELSEWHERE_STRUCT": [',
        '"NEURON_ISA_TPB_HEADER": ["NEURON_ISA_TPB_OPCODE_GAMMA"],\n        "NEURON_ISA_TPB_ELSEWHERE_STRUCT": [',
        1,
    )
    make_tree(in_tmp / "drop", mapping=dup)
    for cmd in ("reconcile", "generate"):
        code, out, err = run(capsys, cmd, "--headers", "drop")
        assert code == ExitCode.FINDINGS, cmd
        assert (
            "instruction_mapping.json#/struct2opcode/NEURON_ISA_TPB_HEADER: error [duplicate-key]"
            in out + err
        ), cmd
    # a duplicated key elsewhere in the document is unusable input
    make_tree(
        in_tmp / "drop2",
        mapping=text.replace(
            '"struct2pseudo_opcode": {}', '"struct2pseudo_opcode": {}, "struct2pseudo_opcode": {}'
        ),
    )
    code, _, err = run(capsys, "reconcile", "--headers", "drop2")
    assert (
        code == ExitCode.BAD_INPUT
        and "instruction_mapping.json#/struct2pseudo_opcode: error [json-duplicate-key]" in err
    )


def test_generate_names_stale_names_and_prints_annotation_warnings(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(HEADER_ROOT, in_tmp / "vendor_headers")
    code, out, err = run(capsys, "generate", "--out", "gen")
    assert code == 0
    assert (
        "stale JSON names 3: NEURON_ISA_TPB_OPCODE_PSEUDO_DMA_BARRIER, NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH"
        in out
    )
    assert "(details: tpbgen reconcile)" in out
    # per gen: S4D4_TSM's documented `// 6` typo and S2S2D2_STT's documented `(48 - 60)` quirk
    assert err.count("warning [annotation]") == 8 and err.count("warning [stale]") == 10
    code, _, err = run(capsys, "generate", "--out", "gen2", "--strict")
    assert (
        code == ExitCode.FINDINGS
        and err.count("error [stale]") == 10
        and not (in_tmp / "gen2").exists()
    )


def test_an_unreadable_input_is_a_user_error(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tpb = make_tree(in_tmp / "drop")
    (tpb / "aws_neuron_isa_tpb_zz.h").mkdir()  # a directory where a header should be
    code, _, err = run(capsys, "generate", "--headers", "drop", "--out", "gen")
    assert code == ExitCode.BAD_INPUT and "aws_neuron_isa_tpb_zz.h" in err


def test_generate_proves_layouts_against_the_compiler_and_refuses_a_wrong_one(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, cc: str
) -> None:
    """A layout bug in tpbgen that no static assert covers is caught by the compiler probe."""
    from tpbgen.frontend import build, layout

    tpb = make_tree(in_tmp / "drop")
    (tpb / "aws_neuron_isa_tpb_extra.h").write_text(
        "#include <stdint.h>\ntypedef struct NEURON_ISA_TPB_EXTRA { uint8_t xa; uint16_t xb; uint32_t xc; } NEURON_ISA_TPB_EXTRA;\n"
    )
    code, out, _ = run(capsys, "generate", "--headers", "drop", "--out", "gen", "--no-cache")
    assert code == 0 and "layouts verified with" in out
    real = layout.layout_struct

    def packed_by_mistake(
        members: list[layout.MemberIn],
        packed: bool,
        min_align: int = 1,
        max_align: int | None = None,
    ) -> layout.Layout:
        return real(
            members, packed or [m.name for m in members] == ["xa", "xb", "xc"], min_align, max_align
        )

    monkeypatch.setattr(build, "layout_struct", packed_by_mistake)
    code, out, err = run(capsys, "generate", "--headers", "drop", "--out", "gen", "--no-cache")
    assert code == ExitCode.BAD_INPUT, err
    assert "error [verify-cc]" in err and "NEURON_ISA_TPB_EXTRA" in err and "DISAGREE" in out
    assert (in_tmp / "gen" / "MANIFEST.json").is_file()  # the earlier, right package is still there
    code, out, _ = run(
        capsys, "generate", "--headers", "drop", "--out", "gen", "--no-cache", "--no-verify-cc"
    )
    assert code == 0 and "layouts not verified (--no-verify-cc)" in out
