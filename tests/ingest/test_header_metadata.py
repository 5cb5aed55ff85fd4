"""Metadata read from header text is as robust as the code: comments are matched to the lines the
preprocessor counts, markers come from `//` and `/* */` comments alike, the core version is found
anywhere in the leading comment block, and control bytes are refused where they stand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tpbgen.cli import main
from tpbgen.frontend.comments import split_lines
from tpbgen.frontend.ingest import ingest_root

from .synth import COMMON, make_tree


def markers(root: Path) -> dict[str, tuple[bool, str] | None]:
    gen = ingest_root(root, use_cache=False)[0].gen
    e = gen.find_enum("NEURON_ISA_TPB_OPCODE")
    assert e is not None
    return {
        m.name: (None if m.maintenance is None else (m.maintenance.maintained, m.maintenance.note))
        for m in e.members
    }


BASE = {
    "NEURON_ISA_TPB_OPCODE_ALPHA": (True, ""),
    "NEURON_ISA_TPB_OPCODE_BETA": (False, "use Alpha instead"),
    "NEURON_ISA_TPB_OPCODE_GAMMA": (True, ""),
    "NEURON_ISA_TPB_OPCODE_INVALID": None,
}


def test_the_synthetic_markers(tmp_path: Path) -> None:
    make_tree(tmp_path)
    assert markers(tmp_path) == BASE


@pytest.mark.parametrize("char", ["\f", "\v", "\u2028", "\u0085", "\u2029"])
def test_characters_that_are_not_line_ends_to_cpp_shift_nothing(tmp_path: Path, char: str) -> None:
    common = COMMON.replace(
        "typedef enum NEURON_ISA_TPB_OPCODE {",
        f"// a comment with a {char} inside\ntypedef enum NEURON_ISA_TPB_OPCODE {{",
    )
    make_tree(tmp_path, common=common)
    assert markers(tmp_path) == BASE


@given(st.lists(st.sampled_from(["a", " ", "\n", "\r", "\r\n", "\f", "\v", "\x85", "\u2028"])))
def test_split_lines_counts_only_cpps_line_ends(pieces: list[str]) -> None:
    text = "".join(pieces)
    expected = re.split(r"\r\n|\r|\n", text)
    if expected and expected[-1] == "":
        expected.pop()
    assert split_lines(text) == expected


def test_crlf_and_lone_cr_line_ends(tmp_path: Path) -> None:
    for i, eol in enumerate(("\r\n", "\r")):
        root = tmp_path / str(i)
        make_tree(root, common=COMMON.replace("\n", eol))
        assert markers(root) == BASE, repr(eol)


def test_block_comment_markers(tmp_path: Path) -> None:
    common = COMMON.replace("= 0x43, // Y", "= 0x43, /* Y */").replace(
        "= 0x44, // n, use Alpha instead", "= 0x44, /* n, use Alpha instead */"
    )
    make_tree(tmp_path, common=common)
    assert markers(tmp_path) == BASE


def test_the_core_version_is_found_below_an_spdx_line(tmp_path: Path) -> None:
    common = (
        "// SPDX-License-Identifier: Apache-2.0\n// Copyright Amazon.com, Inc. or its affiliates.\n"
        + COMMON
    )
    make_tree(tmp_path, common=common)
    assert ingest_root(tmp_path, use_cache=False)[0].gen.core_version == "NC-v9"


def test_the_core_version_is_a_name_not_text(tmp_path: Path) -> None:
    common = COMMON.replace(
        "ISA header for NC-v9.", 'ISA header for NC-v9"""+__import__(\'os\').system(\'id\')+"""'
    )
    make_tree(tmp_path, common=common)
    assert ingest_root(tmp_path, use_cache=False)[0].gen.core_version == "NC-v9"


@pytest.mark.parametrize("byte", ["\x00", "\x01", "\x1b", "\x7f"])
def test_control_bytes_are_refused_where_they_stand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], byte: str
) -> None:
    common = COMMON.replace("// A header-like struct.", f"// A header-like{byte} struct.")
    make_tree(tmp_path, common=common)
    line = common[: common.index(byte)].count("\n") + 1
    col = common.index(byte) - common.rfind("\n", 0, common.index(byte))
    code = main(["inspect", "--gen", "synth", "--headers", str(tmp_path), "--no-cache"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert (
        f"aws_neuron_isa_tpb_common.h:{line}:{col}: error [control-byte]: control byte 0x{ord(byte):02x}"
        in err
    )


def test_every_byte_value_is_judged_as_documented() -> None:
    """The control-byte check's fast pass (a translation table) and the located search agree on
    every byte value: refused are 0x00-0x08, 0x0e-0x1f and 0x7f; tab, the line ends, vertical
    tab, form feed and every byte from 0x20 (UTF-8 included) pass."""
    from tpbgen.errors import TpbgenError
    from tpbgen.frontend.ingest import _refuse_control_bytes

    refused = set(range(0x00, 0x09)) | set(range(0x0E, 0x20)) | {0x7F}
    for b in range(256):
        data = b"int x;\n// a" + bytes([b]) + b"b\n"
        try:
            _refuse_control_bytes(data, "h.h")
        except TpbgenError as exc:
            assert b in refused, hex(b)
            (d,) = exc.diagnostics
            assert (d.line, d.col, d.code) == (2, 5, "control-byte")
        else:
            assert b not in refused, hex(b)
