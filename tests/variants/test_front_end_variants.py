"""Variant drops the real tree may be, front-end classes: other spellings of the same C (packing,
line ends, includes, GNU keywords, comments, markers, banners) and input that must be refused.
Each variant is one edit of the mariana tree; see harness.py for what right and refused mean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .harness import (
    Edit,
    assert_refused,
    assert_right,
    gcc_accepts,
    generate,
    make_variant,
    read_text,
    replace_in,
)

COMMON = "aws_neuron_isa_tpb_common.h"
ASSERT = "aws_neuron_isa_tpb_assert.h"
S3D3 = "aws_neuron_isa_tpb_s3d3_ts.h"
PACKED_DEF = "#ifndef NEURON_ISA_PACKED\n#define NEURON_ISA_PACKED __attribute__((__packed__))\n#endif"


def every_header(tpb: Path, fn: object) -> None:
    for h in sorted(tpb.glob("*.h")):
        text = read_text(h)
        h.write_text(fn(text), encoding="utf-8", newline="")  # type: ignore[operator]


def gnuc_guarded_packed(tpb: Path) -> None:
    replace_in(tpb / COMMON, PACKED_DEF, "#if defined(__GNUC__) || defined(__clang__)\n#define NEURON_ISA_PACKED __attribute__((__packed__))\n#else\n#define NEURON_ISA_PACKED\n#endif")


def packed_spelled_plainly(tpb: Path) -> None:
    replace_in(tpb / COMMON, "__attribute__((__packed__))", "__attribute__((packed))")


def packed_before_the_tag(tpb: Path) -> None:
    """`typedef enum __attribute__((packed)) TAG {...} NAME;`: ALU_OP is a one-byte field of every operand struct."""
    replace_in(tpb / COMMON, "typedef enum NEURON_ISA_TPB_ALU_OP {", "typedef enum __attribute__((packed)) NEURON_ISA_TPB_ALU_OP {")
    replace_in(tpb / COMMON, "} NEURON_ISA_PACKED NEURON_ISA_TPB_ALU_OP;", "} NEURON_ISA_TPB_ALU_OP;")


def enum_attribute_on_a_separate_typedef(tpb: Path) -> None:
    replace_in(tpb / COMMON, "typedef enum NEURON_ISA_TPB_DTYPE_ALLOW_FP32R {", "enum NEURON_ISA_TPB_DTYPE_ALLOW_FP32R {")
    replace_in(tpb / COMMON, "} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_ALLOW_FP32R;",
               "} __attribute__((packed));\ntypedef enum NEURON_ISA_TPB_DTYPE_ALLOW_FP32R NEURON_ISA_TPB_DTYPE_ALLOW_FP32R;")


def crlf_line_ends(tpb: Path) -> None:
    every_header(tpb, lambda t: t.replace("\n", "\r\n"))


def tabs_for_spaces(tpb: Path) -> None:
    every_header(tpb, lambda t: re.sub(r"(?m)^    ", "\t", t))


def pragma_once_instead_of_guards(tpb: Path) -> None:
    replace_in(tpb / ASSERT, "#ifndef AWS_NEURON_ISA_TPB_ASSERT_H\n#define AWS_NEURON_ISA_TPB_ASSERT_H\n", "#pragma once\n#if 1\n")


def libc_includes(tpb: Path) -> None:
    replace_in(tpb / ASSERT, '#include "aws_neuron_isa_tpb_util.h"\n',
               '#include "aws_neuron_isa_tpb_util.h"\n#include <string.h>\n#include <assert.h>\n#include <limits.h>\n#include <float.h>\n#include <stddef.h>\n')


def gnu_inline_spelling(tpb: Path) -> None:
    replace_in(tpb / ASSERT, "STATIC inline bool", "STATIC __inline__ bool", 0)


def gnu_inline_double_underscore(tpb: Path) -> None:
    replace_in(tpb / ASSERT, "STATIC inline bool", "static __inline bool", 0)


def always_inline_attribute(tpb: Path) -> None:
    replace_in(tpb / ASSERT, "STATIC inline bool", "STATIC inline __attribute__((always_inline)) bool", 0)


def always_inline_before_static(tpb: Path) -> None:
    replace_in(tpb / ASSERT, "STATIC inline bool", "__attribute__((always_inline)) static __inline__ bool", 0)


def inline_with_an_attribute_list(tpb: Path) -> None:
    replace_in(tpb / ASSERT, "STATIC inline bool", "static __inline__ __attribute__((__always_inline__, __unused__)) bool", 0)


def static_macro_carries_inline_and_attribute(tpb: Path) -> None:
    """`STATIC` itself expands to `static __inline__ __attribute__((always_inline))`, so every
    function reads `static __inline__ __attribute__((always_inline)) inline bool` (a repeated
    function specifier is allowed)."""
    replace_in(tpb / ASSERT, "#define STATIC static\n", "#define STATIC static __inline__ __attribute__((always_inline))\n")


def unsigned_char_for_uint8(tpb: Path) -> None:
    replace_in(tpb / S3D3, "uint8_t ", "unsigned char ", 0)


def block_comments_between_fields(tpb: Path) -> None:
    replace_in(tpb / S3D3, "    uint8_t                            num_active_channels;",
               "    /* how many partitions take part */\n    uint8_t                            num_active_channels;")


def block_comment_markers(tpb: Path) -> None:
    replace_in(tpb / COMMON, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP = 0x43, // Y", "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP = 0x43, /* Y */")


def form_feed_and_line_separator_in_comments(tpb: Path) -> None:
    replace_in(tpb / COMMON, "// Permission flags taken", "// Permission\f flags\u2028 taken\u0085")


def spdx_line_above_the_banner(tpb: Path) -> None:
    every_header(tpb, lambda t: "// SPDX-License-Identifier: Apache-2.0\n" + t)



RIGHT: dict[str, Edit] = {
    "gnuc-guarded-packed": gnuc_guarded_packed,
    "packed-spelled-plainly": packed_spelled_plainly,
    "packed-before-the-tag": packed_before_the_tag,
    "enum-attribute-on-separate-typedef": enum_attribute_on_a_separate_typedef,
    "crlf-line-ends": crlf_line_ends,
    "tabs": tabs_for_spaces,
    "pragma-once": pragma_once_instead_of_guards,
    "libc-includes": libc_includes,
    "gnu-inline": gnu_inline_spelling,
    "gnu-__inline": gnu_inline_double_underscore,
    "always-inline": always_inline_attribute,
    "always-inline-before-static": always_inline_before_static,
    "inline-attribute-list": inline_with_an_attribute_list,
    "static-macro-inline-attribute": static_macro_carries_inline_and_attribute,
    "unsigned-char": unsigned_char_for_uint8,
    "block-comments-in-struct": block_comments_between_fields,
    "block-comment-markers": block_comment_markers,
    "form-feed-u2028-u0085": form_feed_and_line_separator_in_comments,
    "spdx-line": spdx_line_above_the_banner,
}


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_variant_is_right(name: str, tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_variant(tmp_path, RIGHT[name])
    gcc_accepts(cc, root)
    assert_right(cc, root, generate(root, tmp_path / "out", capsys), tmp_path)


def nul_byte_in_a_comment(tpb: Path) -> None:
    replace_in(tpb / COMMON, "// Permission flags taken", "// Permission\0 flags taken")


def escape_byte_in_a_comment(tpb: Path) -> None:
    replace_in(tpb / COMMON, "// Permission flags taken", "// Permission\x1b[31m flags taken")


REFUSED: dict[str, tuple[Edit, str, str]] = {
    # (edit, where the message must point, why refusing is right)
    "nul-byte": (nul_byte_in_a_comment, f"{COMMON}:", "a NUL in C source is not text any tool agrees on"),
    "escape-byte": (escape_byte_in_a_comment, f"{COMMON}:", "terminal escapes would reach the package's docstrings"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_variant_is_refused(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit, where, _why = REFUSED[name]
    root = make_variant(tmp_path, edit)
    assert_refused(generate(root, tmp_path / "out", capsys), where)


# -- opcode gates the translator cannot read from the body: dispatched on the JSON binding ------
def gate_as_early_return(tpb: Path) -> None:
    replace_in(tpb / ASSERT, "STATIC inline bool is_valid_tensor_scalar_op(NEURON_ISA_TPB_INST_UNION i) {\n    return( has_valid_neuron_header(i)\n            && has_valid_neuron_events(i)\n            && has_tensor_scalar_opcode(i)",
               "STATIC inline bool is_valid_tensor_scalar_op(NEURON_ISA_TPB_INST_UNION i) {\n    if (!has_tensor_scalar_opcode(i)) return false;\n    return( has_valid_neuron_header(i)\n            && has_valid_neuron_events(i)")


@pytest.mark.parametrize("name", ["gate-as-early-return"])
def test_gate_variant_is_right_and_says_how_it_dispatched(name: str, tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_variant(tmp_path, {"gate-as-early-return": gate_as_early_return}[name])
    gcc_accepts(cc, root)
    outcome = generate(root, tmp_path / "out", capsys)
    assert "warning [gate]: top-level validator is_valid_tensor_scalar_op: no opcode gate recognised" in outcome.err
    assert_right(cc, root, outcome, tmp_path)
