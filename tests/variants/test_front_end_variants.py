"""Variant drops the real tree may be, front-end classes: other spellings of the same C (packing,
line ends, includes, GNU keywords, comments, markers, banners) and input that must be refused.
Each variant is one edit of the mariana tree; see harness.py for what right and refused mean."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tpbgen.cli import main

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
PACKED_DEF = (
    "#ifndef NEURON_ISA_PACKED\n#define NEURON_ISA_PACKED __attribute__((__packed__))\n#endif"
)


def every_header(tpb: Path, fn: object) -> None:
    for h in sorted(tpb.glob("*.h")):
        text = read_text(h)
        h.write_text(fn(text), encoding="utf-8", newline="")  # type: ignore[operator]


def gnuc_guarded_packed(tpb: Path) -> None:
    replace_in(
        tpb / COMMON,
        PACKED_DEF,
        "#if defined(__GNUC__) || defined(__clang__)\n#define NEURON_ISA_PACKED __attribute__((__packed__))\n#else\n#define NEURON_ISA_PACKED\n#endif",
    )


def packed_spelled_plainly(tpb: Path) -> None:
    replace_in(tpb / COMMON, "__attribute__((__packed__))", "__attribute__((packed))")


def packed_before_the_tag(tpb: Path) -> None:
    """`typedef enum __attribute__((packed)) TAG {...} NAME;`: ALU_OP is a one-byte field of every operand struct."""
    replace_in(
        tpb / COMMON,
        "typedef enum NEURON_ISA_TPB_ALU_OP {",
        "typedef enum __attribute__((packed)) NEURON_ISA_TPB_ALU_OP {",
    )
    replace_in(
        tpb / COMMON, "} NEURON_ISA_PACKED NEURON_ISA_TPB_ALU_OP;", "} NEURON_ISA_TPB_ALU_OP;"
    )


def enum_attribute_on_a_separate_typedef(tpb: Path) -> None:
    replace_in(
        tpb / COMMON,
        "typedef enum NEURON_ISA_TPB_DTYPE_ALLOW_FP32R {",
        "enum NEURON_ISA_TPB_DTYPE_ALLOW_FP32R {",
    )
    replace_in(
        tpb / COMMON,
        "} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_ALLOW_FP32R;",
        "} __attribute__((packed));\ntypedef enum NEURON_ISA_TPB_DTYPE_ALLOW_FP32R NEURON_ISA_TPB_DTYPE_ALLOW_FP32R;",
    )


def crlf_line_ends(tpb: Path) -> None:
    every_header(tpb, lambda t: t.replace("\n", "\r\n"))


def tabs_for_spaces(tpb: Path) -> None:
    every_header(tpb, lambda t: re.sub(r"(?m)^    ", "\t", t))


def pragma_once_instead_of_guards(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        "#ifndef AWS_NEURON_ISA_TPB_ASSERT_H\n#define AWS_NEURON_ISA_TPB_ASSERT_H\n",
        "#pragma once\n#if 1\n",
    )


def libc_includes(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        '#include "aws_neuron_isa_tpb_util.h"\n',
        '#include "aws_neuron_isa_tpb_util.h"\n#include <string.h>\n#include <assert.h>\n#include <limits.h>\n#include <float.h>\n#include <stddef.h>\n',
    )


def gnu_inline_spelling(tpb: Path) -> None:
    replace_in(tpb / ASSERT, "STATIC inline bool", "STATIC __inline__ bool", 0)


def gnu_inline_double_underscore(tpb: Path) -> None:
    replace_in(tpb / ASSERT, "STATIC inline bool", "static __inline bool", 0)


def always_inline_attribute(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT, "STATIC inline bool", "STATIC inline __attribute__((always_inline)) bool", 0
    )


def always_inline_before_static(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        "STATIC inline bool",
        "__attribute__((always_inline)) static __inline__ bool",
        0,
    )


def inline_with_an_attribute_list(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        "STATIC inline bool",
        "static __inline__ __attribute__((__always_inline__, __unused__)) bool",
        0,
    )


def static_macro_carries_inline_and_attribute(tpb: Path) -> None:
    """`STATIC` itself expands to `static __inline__ __attribute__((always_inline))`, so every
    function reads `static __inline__ __attribute__((always_inline)) inline bool` (a repeated
    function specifier is allowed)."""
    replace_in(
        tpb / ASSERT,
        "#define STATIC static\n",
        "#define STATIC static __inline__ __attribute__((always_inline))\n",
    )


def unsigned_char_for_uint8(tpb: Path) -> None:
    replace_in(tpb / S3D3, "uint8_t ", "unsigned char ", 0)


def block_comments_between_fields(tpb: Path) -> None:
    replace_in(
        tpb / S3D3,
        "    uint8_t                            num_active_channels;",
        "    /* how many partitions take part */\n    uint8_t                            num_active_channels;",
    )


def block_comment_markers(tpb: Path) -> None:
    replace_in(
        tpb / COMMON,
        "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP = 0x43, // Y",
        "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP = 0x43, /* Y */",
    )


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
def test_variant_is_right(
    name: str, tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_variant(tmp_path, RIGHT[name])
    gcc_accepts(cc, root)
    assert_right(cc, root, generate(root, tmp_path / "out", capsys), tmp_path)


def nul_byte_in_a_comment(tpb: Path) -> None:
    replace_in(tpb / COMMON, "// Permission flags taken", "// Permission\0 flags taken")


def escape_byte_in_a_comment(tpb: Path) -> None:
    replace_in(tpb / COMMON, "// Permission flags taken", "// Permission\x1b[31m flags taken")


REFUSED: dict[str, tuple[Edit, str, str]] = {
    # (edit, where the message must point, why refusing is right)
    "nul-byte": (
        nul_byte_in_a_comment,
        f"{COMMON}:",
        "a NUL in C source is not text any tool agrees on",
    ),
    "escape-byte": (
        escape_byte_in_a_comment,
        f"{COMMON}:",
        "terminal escapes would reach the package's docstrings",
    ),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_variant_is_refused(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit, where, _why = REFUSED[name]
    root = make_variant(tmp_path, edit)
    assert_refused(generate(root, tmp_path / "out", capsys), where)


# -- opcode gates the translator cannot read from the body: dispatched on the JSON binding ------
def gate_as_early_return(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        "STATIC inline bool is_valid_tensor_scalar_op(NEURON_ISA_TPB_INST_UNION i) {\n    return( has_valid_neuron_header(i)\n            && has_valid_neuron_events(i)\n            && has_tensor_scalar_opcode(i)",
        "STATIC inline bool is_valid_tensor_scalar_op(NEURON_ISA_TPB_INST_UNION i) {\n    if (!has_tensor_scalar_opcode(i)) return false;\n    return( has_valid_neuron_header(i)\n            && has_valid_neuron_events(i)",
    )


TS_HEAD = "STATIC inline bool is_valid_tensor_scalar_op(NEURON_ISA_TPB_INST_UNION i) {\n    return( has_valid_neuron_header(i)\n            && has_valid_neuron_events(i)\n            && has_tensor_scalar_opcode(i)"
TS_OPCODES = (
    "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP",
    "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_BITVEC_OP",
    "NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_SCALAR_ARITH_OP",
)


HAS_TS_OPCODE = (
    "STATIC inline bool has_tensor_scalar_opcode(NEURON_ISA_TPB_INST_UNION i) {\n"
    "    return( (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP)\n"
    "            || (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_BITVEC_OP)\n"
    "            || (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_SCALAR_ARITH_OP) );\n}\n"
)


def gate_as_switch(tpb: Path) -> None:
    """The opcode test as a switch on the header's opcode byte; the other cases fall to `default`
    (the helper that tested it goes, or it would be a top-level validator of its own)."""
    replace_in(tpb / ASSERT, HAS_TS_OPCODE, "")
    cases = "".join(f"        case {op}:\n" for op in TS_OPCODES)
    replace_in(
        tpb / ASSERT,
        TS_HEAD,
        "STATIC inline bool is_valid_tensor_scalar_op(NEURON_ISA_TPB_INST_UNION i) {\n"
        f"    switch (i.s3d3_ts.header.opcode) {{\n{cases}            break;\n        default:\n            return false;\n    }}\n"
        "    return( has_valid_neuron_header(i)\n            && has_valid_neuron_events(i)",
    )


def gate_as_accumulator(tpb: Path) -> None:
    """`bool ok = ...; if (...) ok = false; return ok && ...`: the gate is in a local."""
    replace_in(
        tpb / ASSERT,
        TS_HEAD,
        "STATIC inline bool is_valid_tensor_scalar_op(NEURON_ISA_TPB_INST_UNION i) {\n"
        "    bool ok = has_tensor_scalar_opcode(i);\n    if (!has_valid_neuron_header(i)) {\n        ok = false;\n    }\n"
        "    return( ok\n            && has_valid_neuron_events(i)",
    )


def gate_through_a_header_helper(tpb: Path) -> None:
    """The opcode read two calls down, through a NEURON_ISA_TPB_HEADER passed by value."""
    tests = " || ".join(f"h.opcode == {op}" for op in TS_OPCODES)
    replace_in(
        tpb / ASSERT,
        HAS_TS_OPCODE,
        f"STATIC inline bool ts_opcode_of(NEURON_ISA_TPB_HEADER h) {{\n    switch (h.opcode) {{\n    default:\n        return {tests};\n    }}\n}}\n\n"
        "STATIC inline bool has_tensor_scalar_opcode(NEURON_ISA_TPB_INST_UNION i) {\n    return ts_opcode_of(i.s3d3_ts.header);\n}\n",
    )


def gate_missing(tpb: Path) -> None:
    """No opcode test at all: the validator can return true for any opcode byte."""
    replace_in(tpb / ASSERT, HAS_TS_OPCODE, "")
    replace_in(
        tpb / ASSERT,
        TS_HEAD,
        "STATIC inline bool is_valid_tensor_scalar_op(NEURON_ISA_TPB_INST_UNION i) {\n"
        "    return( has_valid_neuron_header(i)\n            && has_valid_neuron_events(i)",
    )


GATE_VARIANTS = {
    "gate-as-early-return": gate_as_early_return,
    "gate-as-switch": gate_as_switch,
    "gate-as-accumulator": gate_as_accumulator,
    "gate-through-a-header-helper": gate_through_a_header_helper,
}


@pytest.mark.parametrize("name", sorted(GATE_VARIANTS))
def test_gate_computed_from_the_body(
    name: str, tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The opcode gate is the set of opcode bytes for which the body can return true, whatever
    shape the test takes: no fallback, no warning, the same three opcodes as our drop."""
    root = make_variant(tmp_path, GATE_VARIANTS[name])
    gcc_accepts(cc, root)
    outcome = generate(root, tmp_path / "out", capsys)
    assert "[gate]" not in outcome.err, outcome.err
    text = (outcome.package / "tpb_isa" / "mariana" / "validators.py").read_text()
    assert "'is_valid_tensor_scalar_op': (0x43, 0x53, 0x93)" in text.replace('"', "'"), re.findall(
        r".*is_valid_tensor_scalar_op.: .*", text
    )
    assert_right(cc, root, outcome, tmp_path)


def test_validator_without_an_opcode_test_runs_where_its_c_can_accept(
    tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without its opcode helper, is_valid_tensor_scalar_op still tests the opcode deeper down (its
    other checks hold only for S3D3_TS opcodes): the computed gate is exactly those, and
    validate() runs it on each of them, as its C says."""
    root = make_variant(tmp_path, gate_missing)
    gcc_accepts(cc, root)
    outcome = generate(root, tmp_path / "out", capsys)
    assert "[gate]" not in outcome.err, outcome.err
    text = (outcome.package / "tpb_isa" / "mariana" / "validators.py").read_text()
    assert "'is_valid_tensor_scalar_op': (0x30, 0x43, 0x44, 0x53, 0x54, 0x93, 0x9a, 0xe6)" in text
    assert_right(cc, root, outcome, tmp_path)


GOTO_HELPER = "STATIC inline bool odd_op_check(uint8_t x) {\n    if (x == 0xEE) goto bad;\n    return true;\nbad:\n    return false;\n}\n\n"


def untranslatable_unused_helper(tpb: Path) -> None:
    """A helper outside the subset (a goto) that no validator calls."""
    replace_in(
        tpb / ASSERT,
        "STATIC inline bool has_tensor_scalar_opcode(",
        GOTO_HELPER + "STATIC inline bool has_tensor_scalar_opcode(",
    )


def untranslatable_reached_helper(tpb: Path) -> None:
    """The same helper, called by is_valid_tensor_scalar_op after its other checks."""
    untranslatable_unused_helper(tpb)
    replace_in(
        tpb / ASSERT,
        "            && has_tensor_scalar_opcode(i)\n            && tensor_scalar_valid_ops(i)",
        "            && has_tensor_scalar_opcode(i)\n            && tensor_scalar_valid_ops(i)\n            && odd_op_check(i.s3d3_ts.op1)",
    )


def test_one_construct_never_blocks_a_drop(
    tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A function outside the subset that no top-level validator reaches is skipped with a located
    warning, and the package is right."""
    root = make_variant(tmp_path, untranslatable_unused_helper)
    gcc_accepts(cc, root)
    outcome = generate(root, tmp_path / "out", capsys)
    assert re.search(
        r"aws_neuron_isa_tpb_assert\.h:\d+(:\d+)?: warning \[untranslated\]: odd_op_check is outside the translator's subset "
        r"\(.*Goto.*\) and no top-level validator reaches it: skipped",
        outcome.err,
    ), outcome.err
    assert_right(cc, root, outcome, tmp_path)


def test_a_validator_that_needs_an_untranslated_helper_reports_it(
    tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The validator that reaches the helper is decided by the header's own C on every backend
    (validate, explain, validate_batch), so its words get the C's verdict; where the C backend
    cannot be built (no compiler), a word that reaches it raises UntranslatedPredicate naming the
    helper, its place and why, and words of other validators are unaffected; --strict refuses the
    drop."""
    root = make_variant(tmp_path, untranslatable_reached_helper)
    gcc_accepts(cc, root)
    outcome = generate(root, tmp_path / "out", capsys)
    assert outcome.code == 0, outcome.err
    assert "warning [untranslated]: odd_op_check is outside the translator's subset" in outcome.err
    assert "is_valid_tensor_scalar_op are decided by the headers' C" in outcome.err
    assert_right(cc, root, outcome, tmp_path)
    probe = f"""
import sys
sys.path[:0] = [{str(outcome.package)!r}, {str(Path(__file__).parent.parent)!r}]
import numpy as np
from tpb_isa import mariana as m
from headers import tpb_words as w
good, other, bad_ops = w.s3d3_ts(op0=w.MULT), w.s4d4_tsm(), w.s3d3_ts(op0=w.DIVIDE)
print(m.validate(other), m.validate(bad_ops), m.explain(bad_ops) != "")
print(m.validate(good), repr(m.explain(good)), m.validate_batch([good, other, bad_ops], backend="numpy").tolist())
print(m.validate(good, backend="c"), m.validate_batch([good, other], backend="c").tolist())
"""
    import subprocess
    import sys

    env = {**os.environ, "TPB_ISA_CACHE_DIR": str(tmp_path / "rt-cache")}
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "True False True",  # the PTR_MULTI validator runs its translation; the C rejects DIVIDE
        "True '' [True, True, False]",  # the C decides the validator that needs the helper
        "True [True, True]",
    ], run.stdout
    no_cc = probe.split("print(")[0] + (
        "print(m.validate(other))\n"
        "for call in (lambda: m.validate(good), lambda: m.explain(good),"
        " lambda: m.validate_batch([good, other], backend='numpy')):\n"
        "    try:\n"
        "        call()\n"
        "        print('no error')\n"
        "    except m.UntranslatedPredicate as e:\n"
        "        print(e.function, e.where.rsplit('/', 1)[-1].split(':')[0], 'odd_op_check' in e.reason)\n"
    )
    env = {**env, "CC": "false", "TPB_ISA_CACHE_DIR": str(tmp_path / "rt-cache-none")}
    run = subprocess.run([sys.executable, "-c", no_cc], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    want = ["True"] + ["is_valid_tensor_scalar_op aws_neuron_isa_tpb_assert.h True"] * 3
    assert run.stdout.splitlines() == want, run.stdout
    strict = main(
        [
            "generate",
            "--headers",
            str(root),
            "--out",
            str(tmp_path / "strict"),
            "--no-cache",
            "--strict",
        ]
    )
    err = capsys.readouterr().err
    assert (
        strict == 1
        and "error [untranslated]: odd_op_check" in err
        and not (tmp_path / "strict").exists()
    )
