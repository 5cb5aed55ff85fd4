"""Unusable input: a clear `file:line:col` (or JSON pointer) message, exit code 2, no traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tpbgen.cli import main

from .synth import COMMON, OPS, make_tree


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


def test_root_without_generations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "reconcile", "--headers", str(tmp_path), "--no-cache")
    assert code == 2 and "no generations found" in err


def test_missing_root(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "reconcile", "--headers", str(tmp_path / "nope"), "--no-cache")
    assert code == 2 and "does not exist" in err


def test_missing_mapping_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(tmp_path, mapping=None)
    code, err = run(capsys, "reconcile", "--headers", str(tmp_path), "--no-cache")
    assert code == 2
    assert "neuron_synth_arch_isa/tpb/instruction_mapping.json: error [missing-file]" in err


def test_missing_include(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(
        tmp_path, ops=OPS.replace('"aws_neuron_isa_tpb_common.h"', '"aws_neuron_isa_tpb_nothere.h"')
    )
    code, err = run(capsys, "inspect", "--gen", "synth", "--headers", str(tmp_path), "--no-cache")
    assert code == 2
    assert "neuron_synth_arch_isa/tpb/aws_neuron_isa_tpb_ops.h:3" in err and "nothere" in err


def test_truncated_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cut = COMMON[: COMMON.index("} NEURON_ISA_TPB_HEADER;")]
    make_tree(tmp_path, common=cut)
    code, err = run(capsys, "inspect", "--gen", "synth", "--headers", str(tmp_path), "--no-cache")
    assert code == 2
    # pycparser reports the end of the translation unit; the message names the file that was cut
    assert "error [" in err and ("aws_neuron_isa_tpb_common.h" in err or "unterminated" in err)


def test_unknown_type(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(
        tmp_path, common=COMMON.replace("uint8_t               len;", "NEURON_ISA_TPB_NOPE   len;")
    )
    code, err = run(capsys, "inspect", "--gen", "synth", "--headers", str(tmp_path), "--no-cache")
    assert code == 2
    assert (
        "neuron_synth_arch_isa/tpb/aws_neuron_isa_tpb_common.h:31:5:" in err
        and "unknown type name 'NEURON_ISA_TPB_NOPE'" in err
    )


def test_syntax_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(tmp_path, ops=OPS.replace("(h.len == 16)", "(h.len == == 16)"))
    code, err = run(capsys, "inspect", "--gen", "synth", "--headers", str(tmp_path), "--no-cache")
    assert code == 2
    assert "neuron_synth_arch_isa/tpb/aws_neuron_isa_tpb_ops.h:12:38:" in err and "syntax" in err


def test_contradicted_static_assert(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(
        tmp_path,
        common=COMMON.replace(
            "sizeof(NEURON_ISA_TPB_HEADER) == 4", "sizeof(NEURON_ISA_TPB_HEADER) == 5"
        ),
    )
    code, err = run(capsys, "inspect", "--gen", "synth", "--headers", str(tmp_path), "--no-cache")
    assert code == 2
    assert "aws_neuron_isa_tpb_common.h:61:1: error [static-assert]" in err


def test_malformed_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(tmp_path, mapping='{\n    "struct2opcode": {\n        "A": [1,]\n    }\n}\n')
    code, err = run(capsys, "reconcile", "--headers", str(tmp_path), "--no-cache")
    assert code == 2
    assert (
        "neuron_synth_arch_isa/tpb/instruction_mapping.json:3:" in err and "malformed JSON" in err
    )


def test_schema_violation_names_the_pointer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(
        tmp_path,
        mapping={
            "struct2opcode": {"NEURON_ISA_TPB_X_STRUCT": ["NEURON_ISA_TPB_OPCODE_ALPHA", 7]},
            "struct2pseudo_opcode": {},
        },
    )
    code, err = run(capsys, "reconcile", "--headers", str(tmp_path), "--no-cache")
    assert code == 2
    assert (
        "instruction_mapping.json#/struct2opcode/NEURON_ISA_TPB_X_STRUCT/1: error [json-schema]"
        in err
    )


def test_unknown_generation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(tmp_path)
    code, err = run(capsys, "inspect", "--gen", "tonga", "--headers", str(tmp_path), "--no-cache")
    assert code == 2 and "no generation 'tonga'" in err


def test_every_error_of_every_generation_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(tmp_path, gen="one", mapping=None)
    make_tree(tmp_path, gen="two", mapping="{")
    code, err = run(capsys, "reconcile", "--headers", str(tmp_path), "--no-cache")
    assert code == 2 and "neuron_one_arch_isa" in err and "neuron_two_arch_isa" in err


def test_error_formats_for_ci(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    make_tree(tmp_path, ops=OPS.replace("(h.len == 16)", "(h.len == == 16)"))
    monkeypatch.chdir(tmp_path)  # paths are shown as they open from the current directory
    code = main(
        [
            "--error-format",
            "github",
            "inspect",
            "--gen",
            "synth",
            "--headers",
            str(tmp_path),
            "--no-cache",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(
        "::error file=neuron_synth_arch_isa/tpb/aws_neuron_isa_tpb_ops.h,line=12,col=38::syntax: "
    )
    code = main(
        [
            "--error-format",
            "json",
            "inspect",
            "--gen",
            "synth",
            "--headers",
            str(tmp_path),
            "--no-cache",
        ]
    )
    doc = json.loads(capsys.readouterr().err.splitlines()[0])
    assert (
        code == 2
        and doc["line"] == 12
        and doc["col"] == 38
        and doc["severity"] == "error"
        and doc["code"] == "syntax"
    )


def no_temporary_file(*args: object, **kwargs: object) -> object:
    raise OSError(30, "Read-only file system")


@pytest.mark.skipif(shutil.which("cpp") is None, reason="the time limit is the system cpp's")
@pytest.mark.parametrize("output", ["temporary files", "pipes"])
def test_preprocessor_over_its_time_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, output: str
) -> None:
    """cpp runs with a time limit (it is killed there), refused with the flag that raises it;
    also where its output comes through pipes (no temporary file could be made)."""
    import tempfile

    monkeypatch.delenv("TPBGEN_PREPROCESSOR", raising=False)
    if output == "pipes":
        monkeypatch.setattr(tempfile, "TemporaryFile", no_temporary_file)
    make_tree(tmp_path / "h")
    code, err = run(
        capsys,
        "generate",
        "--headers",
        str(tmp_path / "h"),
        "--out",
        str(tmp_path / "out"),
        "--no-cache",
        "--max-preprocess-seconds",
        "0.000001",
    )
    assert code == 2 and "neuron_synth_arch_isa/tpb: error [limit]" in err, err
    assert "--max-preprocess-seconds" in err and not (tmp_path / "out").exists()


@pytest.mark.parametrize("where", ["string", "comment"])
def test_a_byte_that_is_not_utf8_is_refused_outside_comments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """C text is read as UTF-8. In a comment another byte is only documentation (read with a
    replacement character); in the code it would change a value (a character constant spelled
    with it), so it is refused where it stands."""
    tpb = make_tree(tmp_path)
    common = tpb / "aws_neuron_isa_tpb_common.h"
    line = common.read_bytes().count(b"\n") + 1
    tail = b'_Static_assert(1, "caf\xe9");\n' if where == "string" else b"// caf\xe9\n"
    common.write_bytes(common.read_bytes() + tail)
    code, err = run(capsys, "inspect", "--gen", "synth", "--headers", str(tmp_path), "--no-cache")
    if where == "comment":
        assert code == 0, err
        return
    assert code == 2
    assert (
        f"neuron_synth_arch_isa/tpb/aws_neuron_isa_tpb_common.h:{line}:23: error [not-utf8]" in err
    ), err


@pytest.mark.skipif(shutil.which("cpp") is None, reason="the temporary files are the system cpp's")
def test_without_a_usable_temporary_directory_cpp_runs_through_pipes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """cpp's output goes to unnamed temporary files; where none can be made (a read-only or full
    temporary directory) it is read through pipes instead, to the same IR."""
    import tempfile

    monkeypatch.delenv("TPBGEN_PREPROCESSOR", raising=False)
    make_tree(tmp_path / "h")
    argv = ["inspect", "--gen", "synth", "--headers", str(tmp_path / "h"), "--no-cache"]
    assert main(argv) == 0
    expected = capsys.readouterr().out
    monkeypatch.setattr(tempfile, "TemporaryFile", no_temporary_file)
    assert main(argv) == 0
    assert capsys.readouterr().out == expected
