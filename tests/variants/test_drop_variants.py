"""Variant drops over all four generations (issue 24): where the IR's inputs come from (an
include-root header, a `.def` included inside an enum), coordinates the preprocessor moves
(`#line` in both forms, wrapped enumerators, alias enumerators), the instruction union by type
identity, and C that gcc accepts in positions the vendored drop does not use. Each variant is one
edit of one generation's tree, applied to each generation whose tree holds its anchor; see
harness.py for what right and refused mean. Every right variant is also held to the metadata its
edit must not change (maintenance markers and names of the opcodes it moves)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tpb_scale import sweep

from .harness import (
    Edit,
    assert_right,
    gcc_accepts,
    generate,
    make_variant,
    read_text,
    replace_in,
)

GENS = ("sunda", "cayman", "mariana", "maverick")
COMMON = "aws_neuron_isa_tpb_common.h"
ASSERT = "aws_neuron_isa_tpb_assert.h"
UTIL = "aws_neuron_isa_tpb_util.h"
S3D3 = "aws_neuron_isa_tpb_s3d3_ts.h"

OPCODE_ENUM = "typedef enum NEURON_ISA_TPB_OPCODE {"
TS_ARITH = "    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP = 0x43, // Y\n"
TS_BITVEC = "    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_BITVEC_OP = 0x53, // Y\n"
TS_PTR = "    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_ARITH_OP = 0x44, // n, use TensorScalarArithOp instead\n"
RESERVED = (
    "    return( (i.s3d3_ts.reserved0[0] == 0U)\n"  # s3d3_ts_reserved_zero, in every generation
)
RESERVED_FN = "STATIC inline bool s3d3_ts_reserved_zero(NEURON_ISA_TPB_INST_UNION i) {\n"
CONSTS = "static const uint32_t NEURON_ISA_TPB_POOLING_NUM_CHANNELS = 128U;"
HEADER_STRUCT = "typedef struct NEURON_ISA_TPB_HEADER {"

# what every right variant must still say about the opcodes the edits move
STATUS_WANTED = {
    0x43: ("TENSOR_SCALAR_ARITH_OP", True, ""),
    0x44: ("TENSOR_SCALAR_PTR_ARITH_OP", False, "use TensorScalarArithOp instead"),
    0x53: ("TENSOR_SCALAR_BITVEC_OP", True, ""),
}


# -- where the inputs come from ---------------------------------------------------------------
def union_tag_then_typedef(tpb: Path) -> None:
    """`union tag {...}; typedef union tag NEURON_ISA_TPB_INST_UNION;`: the validators' parameter
    type resolves to the tag; the union is the same type."""
    replace_in(tpb / UTIL, "typedef union NEURON_ISA_TPB_INST_UNION {", "union tpb_inst_word {")
    replace_in(
        tpb / UTIL,
        "} NEURON_ISA_TPB_INST_UNION;",
        "};\ntypedef union tpb_inst_word NEURON_ISA_TPB_INST_UNION;",
    )


def include_root_header(tpb: Path) -> None:
    """A constant the validators read, defined in a header beside the generation directory (the
    include root), included by a path relative to the including header."""
    shared = tpb.parent.parent / "neuron_shared"
    shared.mkdir(exist_ok=True)
    (shared / "tpb_limits.h").write_text(
        "#ifndef NEURON_SHARED_TPB_LIMITS_H\n#define NEURON_SHARED_TPB_LIMITS_H\n"
        "#include <stdint.h>\n"
        "static const uint32_t NEURON_ISA_TPB_RESERVED_FILL = 0U; // what reserved bytes hold\n"
        "#endif\n",
        encoding="utf-8",
    )
    replace_in(
        tpb / COMMON,
        "#include <stdbool.h>\n",
        '#include <stdbool.h>\n#include "../../neuron_shared/tpb_limits.h"\n',
    )
    replace_in(
        tpb / ASSERT,
        RESERVED,
        "    return( (i.s3d3_ts.reserved0[0] == NEURON_ISA_TPB_RESERVED_FILL)\n",
    )


def def_file_inside_the_enum(tpb: Path) -> None:
    """The tensor-scalar opcodes, with their maintenance markers, in a `.def` file #included
    inside the OPCODE enum's braces."""
    text = read_text(tpb / COMMON)
    moved = TS_ARITH + TS_BITVEC
    if TS_ARITH + TS_BITVEC not in text:
        raise AssertionError("anchor not found")
    replace_in(tpb / COMMON, moved, '#include "tpb_tensor_scalar_opcodes.def"\n')
    replace_in(tpb / COMMON, TS_PTR, '#include "tpb_tensor_scalar_ptr_opcodes.def"\n')
    (tpb / "tpb_tensor_scalar_opcodes.def").write_text(moved, encoding="utf-8")
    (tpb / "tpb_tensor_scalar_ptr_opcodes.def").write_text(
        "// the pointer form, kept for old assemblers\n" + TS_PTR, encoding="utf-8"
    )


# -- coordinates ------------------------------------------------------------------------------
def line_directive_other_file(tpb: Path) -> None:
    """`#line 1 "other.h"` before the OPCODE enum (as a generator of the header may leave it)."""
    replace_in(tpb / COMMON, OPCODE_ENUM, '#line 1 "tpb_opcodes.in"\n' + OPCODE_ENUM)


def line_directive_renumbers(tpb: Path) -> None:
    """`#line N` inside the OPCODE enum, GNU's `# N "file"` before the ALU enum."""
    replace_in(tpb / COMMON, TS_PTR, "#line 4000\n" + TS_PTR)
    replace_in(
        tpb / COMMON,
        "typedef enum NEURON_ISA_TPB_ALU_OP {",
        '# 77 "alu_ops.in"\ntypedef enum NEURON_ISA_TPB_ALU_OP {',
    )


def line_directive_from_macros(tpb: Path) -> None:
    """`#line` whose arguments are macros (C11 6.10.4p4)."""
    replace_in(
        tpb / COMMON,
        OPCODE_ENUM,
        '#define TPB_OPCODES_LINE 9000\n#define TPB_OPCODES_FILE "opcodes.in"\n'
        "#line TPB_OPCODES_LINE TPB_OPCODES_FILE\n" + OPCODE_ENUM,
    )


def clang_format_wrapped_enumerators(tpb: Path) -> None:
    """`NAME =` on one line, `0x44, // n, ...` on the next, as clang-format wraps long names."""
    for line in (TS_ARITH, TS_PTR):
        name, rest = line.split(" = ", 1)
        replace_in(tpb / COMMON, line, f"{name} =\n        {rest}")


def alias_enumerator(tpb: Path) -> None:
    """A second name for 0x43, marked `// n`: the value stays maintained under its first name,
    the alias is listed, and the disagreement is a warning."""
    replace_in(
        tpb / COMMON,
        TS_ARITH,
        TS_ARITH
        + "    NEURON_ISA_TPB_OPCODE_TS_ARITH_OLD_NAME = NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP, // n, old name\n",
    )


FRONT_END: dict[str, Edit] = {
    "union-tag-then-typedef": union_tag_then_typedef,
    "include-root-header": include_root_header,
    "def-file-inside-enum": def_file_inside_the_enum,
    "line-directive-other-file": line_directive_other_file,
    "line-directive-renumbers": line_directive_renumbers,
    "line-directive-from-macros": line_directive_from_macros,
    "clang-format-wrapped-enumerators": clang_format_wrapped_enumerators,
    "alias-enumerator": alias_enumerator,
}

_STATUS = """
import json, sys
sys.path.insert(0, sys.argv[1])
import importlib
m = importlib.import_module("tpb_isa." + sys.argv[2])
print(json.dumps({op: [s.name, s.maintained, s.note, list(s.aliases)] for op in (0x43, 0x44, 0x53)
                  for s in [m.opcode_status(op)]}))
"""


def opcode_statuses(package: Path, gen: str) -> dict[int, list[object]]:
    run = subprocess.run(
        [sys.executable, "-c", _STATUS, str(package), gen], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    return {int(k): v for k, v in json.loads(run.stdout).items()}


def _cases(table: dict[str, Edit]) -> list[tuple[str, str]]:
    """Every variant on every generation at the full scale (tpb_scale); by default each variant
    on one generation, taken in turn, so every generation still gets its share of variants."""
    every = [(name, gen) for name in sorted(table) for gen in GENS]
    return list(sweep(every, [(n, GENS[k % len(GENS)]) for k, n in enumerate(sorted(table))]))


@pytest.mark.parametrize(("name", "gen"), _cases(FRONT_END))
def test_front_end_variant_is_right(
    name: str, gen: str, tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_variant(tmp_path, FRONT_END[name], gen)
    gcc_accepts(cc, root, gen)
    outcome = generate(root, tmp_path / "out", capsys)
    assert_right(cc, root, outcome, tmp_path, gen)
    got = opcode_statuses(outcome.package, gen)
    for op, (member, maintained, note) in STATUS_WANTED.items():
        assert got[op][:3] == [member, maintained, note], (hex(op), got[op])
    if name == "alias-enumerator":
        assert got[0x43][3] == ["NEURON_ISA_TPB_OPCODE_TS_ARITH_OLD_NAME"], got[0x43]
        assert "warning [alias-marker]: NEURON_ISA_TPB_OPCODE_TS_ARITH_OLD_NAME" in outcome.err
    manifest = json.loads((outcome.package / "MANIFEST.json").read_text())
    inputs = {i["path"] for i in manifest["inputs"]}
    if name == "include-root-header":
        assert "neuron_shared/tpb_limits.h" in inputs, inputs
    if name == "def-file-inside-enum":
        assert f"neuron_{gen}_arch_isa/tpb/tpb_tensor_scalar_opcodes.def" in inputs, inputs
    if name in ("include-root-header", "def-file-inside-enum"):
        # the package ships the file beside its headers: its C backend compiles and agrees
        assert c_backend_agrees(outcome.package, gen)


_C_BACKEND = """
import sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import importlib
m = importlib.import_module("tpb_isa." + sys.argv[2])
rng = np.random.default_rng(3)
words = rng.integers(0, 256, size=(2000, 64), dtype=np.uint8)
words[:, 0] = rng.choice([op for ops in m.TOP_LEVEL.values() for op in ops], size=2000)
print(bool((m.validate_batch(words, backend="c") == m.validate_batch(words, backend="numpy")).all()))
"""


def c_backend_agrees(package: Path, gen: str) -> bool:
    run = subprocess.run(
        [sys.executable, "-c", _C_BACKEND, str(package), gen], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip() == "True"


# -- C in positions the vendored drop does not use --------------------------------------------
def static_assert_in_a_struct_body(tpb: Path) -> None:
    """C11 6.7.2.1: a static_assert-declaration is a struct-declaration."""
    replace_in(
        tpb / COMMON,
        HEADER_STRUCT + "\n",
        HEADER_STRUCT + '\n    _Static_assert(sizeof(uint8_t) == 1, "one byte per field");\n',
    )


def static_assert_in_a_function_body(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        RESERVED_FN,
        RESERVED_FN + '    _Static_assert(sizeof(i) == 64, "one word");\n'
        '    _Static_assert(NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP == 0x43, "arith");\n',
    )


def pragma_unroll_in_a_function_body(tpb: Path) -> None:
    """`#pragma GCC unroll` before a loop (a hint with no meaning to the result)."""
    replace_in(
        tpb / ASSERT,
        RESERVED_FN + RESERVED,
        RESERVED_FN + "    #pragma GCC unroll 3\n    for (int k = 0; k < 3; k++) {\n"
        "        if (i.s3d3_ts.reserved0[k] != 0U) { return false; }\n    }\n" + RESERVED,
    )


def default_in_the_middle_of_a_switch(tpb: Path) -> None:
    """`default:` between case labels, all sharing one body; a case after it."""
    replace_in(
        tpb / ASSERT,
        RESERVED_FN + RESERVED,
        RESERVED_FN + "    switch (i.s3d3_ts.reserved0[1]) {\n    case 0U:\n        break;\n"
        "    case 5U:\n    default:\n    case 7U:\n        return false;\n    }\n" + RESERVED,
    )


def stdint_limit_macros(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        RESERVED,
        "    return( (i.s3d3_ts.reserved0[0] <= UINT8_MAX) && (INT16_MIN < INT8_MIN) && (UINT32_C(7) == 7U)\n"
        "            && (INT64_MAX > (int64_t)UINT32_MAX) && (SIZE_MAX == UINT64_MAX) && (INT8_C(-3) == -3)\n"
        "            && (i.s3d3_ts.reserved0[0] == 0U)\n",
    )


def designated_initializer_table(tpb: Path) -> None:
    """File-scope tables spelled with designators (an index, an enumerator; the size of one
    without a declared size is its largest index + 1), read by a validator."""
    replace_in(
        tpb / COMMON,
        CONSTS,
        CONSTS
        + "\nstatic const uint8_t NEURON_ISA_TPB_RESERVED_VALUE[4] = { [3] = 0U, [1] = 9U, [0] = 0U };",
    )
    replace_in(
        tpb / COMMON,
        HEADER_STRUCT,
        "static const uint8_t NEURON_ISA_TPB_OPCODE_CLASS[] = { [NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP] = 1U, 2U };\n"
        + HEADER_STRUCT,
    )
    replace_in(
        tpb / ASSERT,
        RESERVED,
        "    return( (i.s3d3_ts.reserved0[0] == NEURON_ISA_TPB_RESERVED_VALUE[3])\n"
        "            && (NEURON_ISA_TPB_RESERVED_VALUE[1] == 9U) && (NEURON_ISA_TPB_RESERVED_VALUE[2] == 0U)\n"
        "            && (NEURON_ISA_TPB_OPCODE_CLASS[0x44] == 2U) && (NEURON_ISA_TPB_OPCODE_CLASS[0x42] == 0U)\n",
    )


def string_tables_no_validator_reads(tpb: Path) -> None:
    replace_in(
        tpb / COMMON,
        CONSTS,
        CONSTS + '\nstatic const char NEURON_ISA_TPB_CORE_NAME[] = "TPB";\n'
        'static const char *const NEURON_ISA_TPB_ACCUM_NAMES[] = { "idle", "zero", "accumulate" };',
    )


def member_attributes(tpb: Path) -> None:
    """`packed` and `aligned(N)` on members of a struct the validators do not read (its layout
    is proven against gcc like every other)."""
    replace_in(
        tpb / COMMON,
        CONSTS,
        CONSTS + "\ntypedef struct NEURON_ISA_TPB_DEBUG_RECORD {\n    uint8_t tag;\n"
        "    uint32_t value __attribute__((packed));\n    uint16_t seq __attribute__((aligned(8)));\n"
        "    uint8_t flags;\n} NEURON_ISA_TPB_DEBUG_RECORD;",
    )


def packed_anonymous_struct_typedef(tpb: Path) -> None:
    replace_in(
        tpb / COMMON,
        CONSTS,
        CONSTS
        + "\ntypedef struct __attribute__((packed)) {\n    uint8_t tag;\n    uint32_t value;\n"
        "} NEURON_ISA_TPB_DEBUG_PAIR;\ntypedef struct {\n    uint8_t tag;\n    uint16_t value;\n"
        "} __attribute__((packed)) NEURON_ISA_TPB_DEBUG_HALF;",
    )


def attribute_arguments_with_parentheses(tpb: Path) -> None:
    replace_in(
        tpb / COMMON,
        CONSTS,
        CONSTS + "\ntypedef struct NEURON_ISA_TPB_DEBUG_SLOT {\n    uint8_t tag;\n"
        "    uint32_t value __attribute__((aligned(sizeof(uint32_t) * (1 + 1))));\n"
        '} __attribute__((deprecated("use (NEURON_ISA_TPB_DEBUG_RECORD) instead"))) NEURON_ISA_TPB_DEBUG_SLOT;',
    )
    replace_in(
        tpb / ASSERT,
        RESERVED_FN,
        '__attribute__((deprecated("use (s3d3_ts_reserved_zero_v2) instead")))\n' + RESERVED_FN,
    )


def packed_enum_separate_typedef(tpb: Path) -> None:
    """`enum TAG {...} __attribute__((packed)); typedef enum TAG X;` for the one-byte ALU_OP
    field of every operand struct."""
    replace_in(tpb / COMMON, "typedef enum NEURON_ISA_TPB_ALU_OP {", "enum NEURON_ISA_TPB_ALU_OP {")
    replace_in(
        tpb / COMMON,
        "} NEURON_ISA_PACKED NEURON_ISA_TPB_ALU_OP;",
        "} __attribute__((packed));\ntypedef enum NEURON_ISA_TPB_ALU_OP NEURON_ISA_TPB_ALU_OP;",
    )


def constants_too_large_for_their_type(tpb: Path) -> None:
    """Constants C converts (a `static const uint8_t` initialised with 0x1FF is 0xFF), a
    literal too large for any type (gcc warns and keeps its low 64 bits, an unsigned long long)
    and comparisons of narrow fields with constants out of their range (always false or true in
    C, after the integer promotions)."""
    replace_in(
        tpb / COMMON,
        CONSTS,
        CONSTS + "\nstatic const uint8_t NEURON_ISA_TPB_WRAPPED_FILL = 0x1FF;\n"
        "static const int8_t NEURON_ISA_TPB_WRAPPED_NEG = 0x80;",
    )
    replace_in(
        tpb / ASSERT,
        RESERVED,
        "    return( (i.s3d3_ts.reserved0[0] != 0x1FFU) && (i.s3d3_ts.reserved0[0] != 300)\n"
        "            && (i.s3d3_ts.reserved0[0] != 0x1FFFFFFFFFFFFFFFF) && (0x1FFFFFFFFFFFFFFFF == 0xFFFFFFFFFFFFFFFFULL)\n"
        "            && (i.s3d3_ts.reserved0[2] - 0x1FFFFFFFFFFFFFFFF != 0U)\n"
        "            && (i.s3d3_ts.reserved0[1] + 0x100000000 > 0xFFFFFFFFU)\n"
        "            && (NEURON_ISA_TPB_WRAPPED_FILL == 0xFFU) && (NEURON_ISA_TPB_WRAPPED_NEG == -128)\n"
        "            && ((uint8_t)(i.s3d3_ts.reserved0[0] + 0x1FF) == (uint8_t)(i.s3d3_ts.reserved0[0] - 1))\n"
        "            && (i.s3d3_ts.reserved0[0] == 0U)\n",
    )


def bounded_recursive_helper(tpb: Path) -> None:
    """A helper that calls itself on the next index, bounded by its argument."""
    replace_in(
        tpb / ASSERT,
        RESERVED_FN,
        "STATIC inline bool reserved_zero_from(NEURON_ISA_TPB_INST_UNION i, uint32_t k) {\n"
        "    return( (k >= 3U) || ((i.s3d3_ts.reserved0[k] == 0U) && reserved_zero_from(i, k + 1U)) );\n"
        "}\n\n" + RESERVED_FN,
    )
    replace_in(tpb / ASSERT, RESERVED, "    return( reserved_zero_from(i, 0U)\n")


C_VARIANTS: dict[str, Edit] = {
    "static-assert-in-struct": static_assert_in_a_struct_body,
    "static-assert-in-function": static_assert_in_a_function_body,
    "pragma-unroll-in-function": pragma_unroll_in_a_function_body,
    "default-in-the-middle": default_in_the_middle_of_a_switch,
    "stdint-limit-macros": stdint_limit_macros,
    "designated-initializer-table": designated_initializer_table,
    "string-tables-unread": string_tables_no_validator_reads,
    "member-attributes": member_attributes,
    "packed-anonymous-struct-typedef": packed_anonymous_struct_typedef,
    "attribute-arguments-with-parentheses": attribute_arguments_with_parentheses,
    "packed-enum-separate-typedef": packed_enum_separate_typedef,
    "constants-too-large-for-their-type": constants_too_large_for_their_type,
    "bounded-recursive-helper": bounded_recursive_helper,
}


@pytest.mark.parametrize(("name", "gen"), _cases(C_VARIANTS))
def test_c_variant_is_right(
    name: str, gen: str, tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_variant(tmp_path, C_VARIANTS[name], gen)
    gcc_accepts(cc, root, gen)
    assert_right(cc, root, generate(root, tmp_path / "out", capsys), tmp_path, gen)


# -- other ways a real tree may be written ----------------------------------------------------
def utf8_byte_order_marks(tpb: Path) -> None:
    """Every header saved with a UTF-8 byte-order mark (gcc skips it)."""
    for h in sorted(tpb.glob("*.h")):
        h.write_text("\ufeff" + read_text(h), encoding="utf-8", newline="")


def identity_line_directives(tpb: Path) -> None:
    """A header generator's `#line N "its own name"` after each block, numbering as it is."""
    text = read_text(tpb / COMMON)
    lines = text.split("\n")
    at = next(k for k, ln in enumerate(lines) if ln.startswith(OPCODE_ENUM))
    # the directive stands on line at + 1 and names the line after it, at + 2
    lines.insert(at, f'#line {at + 2} "{COMMON}"')
    (tpb / COMMON).write_text("\n".join(lines), encoding="utf-8", newline="")
    replace_in(tpb / COMMON, TS_PTR, f'#line 1 "{COMMON}"\n#line 9000\n' + TS_PTR)


def conditional_blocks_inside_the_enum(tpb: Path) -> None:
    """Enumerators under `#if`/`#else` inside the OPCODE enum (a feature switch of the tree)."""
    replace_in(
        tpb / COMMON,
        TS_ARITH,
        "#if defined(__GNUC__) && !defined(TPB_WITHOUT_TENSOR_SCALAR)\n"
        + TS_ARITH
        + "#else\n    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_UNUSED = 0x43, // n, unused\n#endif\n",
    )


def prototypes_before_definitions(tpb: Path) -> None:
    """A prototype of a helper ahead of its definition (and a second, redundant one)."""
    proto = "STATIC inline bool s3d3_ts_reserved_zero(NEURON_ISA_TPB_INST_UNION i);\n"
    replace_in(tpb / ASSERT, RESERVED_FN, proto + proto + "\n" + RESERVED_FN)


def anonymous_members_and_bitfields(tpb: Path) -> None:
    """A record with anonymous struct and union members and bitfields beside them (its layout
    is proven against gcc); no validator reads it."""
    replace_in(
        tpb / COMMON,
        CONSTS,
        CONSTS + "\ntypedef struct NEURON_ISA_TPB_TRACE_ENTRY {\n    uint8_t kind : 3;\n"
        "    uint8_t hint : 5;\n    union {\n        uint32_t word;\n        struct { uint16_t lo; uint16_t hi; };\n"
        "    };\n    uint64_t stamp : 40;\n    uint8_t tail;\n} NEURON_ISA_TPB_TRACE_ENTRY;",
    )


OTHER: dict[str, Edit] = {
    "utf8-byte-order-marks": utf8_byte_order_marks,
    "identity-line-directives": identity_line_directives,
    "conditional-blocks-inside-enum": conditional_blocks_inside_the_enum,
    "prototypes-before-definitions": prototypes_before_definitions,
    "anonymous-members-and-bitfields": anonymous_members_and_bitfields,
}


@pytest.mark.parametrize(("name", "gen"), [(n, GENS[k % 4]) for k, n in enumerate(sorted(OTHER))])
def test_other_variant_is_right(
    name: str, gen: str, tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_variant(tmp_path, OTHER[name], gen)
    gcc_accepts(cc, root, gen)
    outcome = generate(root, tmp_path / "out", capsys)
    assert_right(cc, root, outcome, tmp_path, gen)
    got = opcode_statuses(outcome.package, gen)
    for op, (member, maintained, note) in STATUS_WANTED.items():
        assert got[op][:3] == [member, maintained, note], (hex(op), got[op])
