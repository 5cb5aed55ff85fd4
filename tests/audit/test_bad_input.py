"""Unusable input exits 2 with file:line:col diagnostics and no traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tpb_paths import tpb_dir

from .helpers import copy_generation, edit, run


def assert_bad(r_rc: int, err: str) -> None:
    assert r_rc == 2, err
    assert "Traceback" not in err and "internal error" not in err
    assert err.strip()


def test_unknown_generation(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(capsys, "nosuch", "maverick")
    assert_bad(r.rc, r.err)
    assert "no generation 'nosuch'" in r.err and r.out == ""


@pytest.mark.parametrize(
    "argv", [(), ("maverick",), ("--all", "sunda"), ("./not/a/dir", "maverick")]
)
def test_usage(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    r = run(capsys, *argv)
    assert_bad(r.rc, r.err)


def test_not_a_tpb_tree(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "somewhere").mkdir()
    r = run(capsys, str(tmp_path / "somewhere"), "maverick")
    assert_bad(r.rc, r.err)


def test_bad_format_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        run(capsys, "sunda", "cayman", "--format", "pdf")
    assert exc.value.code == 2


def test_broken_header_names_file_line_col(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    new = copy_generation("maverick", tmp_path)
    edit(
        new / "aws_neuron_isa_tpb_s4d4_tsm.h",
        "    uint8_t                            num_active_channels;  // 1   (34     )\n",
        "    uint8_t                            num_active_channels  // 1   (34     )\n",
    )
    r = run(capsys, str(tpb_dir("maverick")), str(new))
    assert_bad(r.rc, r.err)
    assert re.search(r"aws_neuron_isa_tpb_s4d4_tsm\.h:\d+:\d+: error", r.err), r.err


def test_malformed_json_names_file_line_col(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    new = copy_generation("maverick", tmp_path)
    edit(new / "instruction_mapping.json", '"struct2opcode": {', '"struct2opcode": {,')
    r = run(capsys, str(tpb_dir("maverick")), str(new))
    assert_bad(r.rc, r.err)
    assert re.search(r"instruction_mapping\.json:\d+:\d+: error", r.err), r.err


def test_unwritable_out(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = run(capsys, "sunda", "cayman", "--out", str(blocker / "report.txt"))
    assert_bad(r.rc, r.err)
