"""Variant drops, body and layout spellings: the same predicates and structs written the other
ways C allows (if/else ladders, ternaries, loops, accumulators, macros, const parameters, _Bool,
typedef chains, several declarators per line, literal suffixes, attribute positions, #if 0
blocks, C++ guards, no final newline). Each must come out right: layouts proven against the
compiler, every validator, validate() and validate_batch() equal to the variant's own C."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .harness import Edit, assert_right, gcc_accepts, generate, make_variant, read_text, replace_in

COMMON = "aws_neuron_isa_tpb_common.h"
ASSERT = "aws_neuron_isa_tpb_assert.h"
S3D3 = "aws_neuron_isa_tpb_s3d3_ts.h"

RANGE = (
    "STATIC inline bool has_valid_active_channel_range(uint8_t n, uint32_t max_channels) {\n"
    "    return( ((uint32_t)n >= 1U)\n            && ((uint32_t)n <= max_channels) );\n}"
)
ALIGNED = "STATIC inline bool four_byte_aligned(NEURON_ISA_TPB_PARTITION_OFFSET addr) {\n    return( (addr & 3U) == 0U );\n}"
RESERVED = (
    "STATIC inline bool s3d3_ts_reserved_zero(NEURON_ISA_TPB_INST_UNION i) {\n"
    "    return( (i.s3d3_ts.reserved0[0] == 0U)\n            && (i.s3d3_ts.reserved0[1] == 0U)\n"
    "            && (i.s3d3_ts.reserved0[2] == 0U) );\n}"
)
ACCUM = "STATIC inline bool has_zero_accum_cmd_field(NEURON_ISA_TPB_INST_UNION i) {\n    return( i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE );\n}"
INST_LEN = "    return( (uint32_t)h.inst_word_len == NEURON_ISA_TPB_INST_NBYTES / 4U );"


def if_else_ladder(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        RANGE,
        "STATIC inline bool has_valid_active_channel_range(uint8_t n, uint32_t max_channels) {\n"
        "    if ((uint32_t)n < 1U) {\n        return false;\n    } else if ((uint32_t)n > max_channels) {\n"
        "        return false;\n    } else {\n        return true;\n    }\n}",
    )


def ternary(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        ALIGNED,
        "STATIC inline bool four_byte_aligned(NEURON_ISA_TPB_PARTITION_OFFSET addr) {\n"
        "    return ((addr & 3U) != 0U) ? false : true;\n}",
    )


def modulo_for_mask(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        ALIGNED,
        "STATIC inline bool four_byte_aligned(NEURON_ISA_TPB_PARTITION_OFFSET addr) {\n"
        "    return (addr % 4U) == 0U;\n}",
    )


def function_like_macro(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        ALIGNED,
        "#define TPB_IS_ALIGNED4(a) ((((a)) & 3U) == 0U)\n"
        "STATIC inline bool four_byte_aligned(NEURON_ISA_TPB_PARTITION_OFFSET addr) {\n    return TPB_IS_ALIGNED4(addr);\n}",
    )


def loop_over_an_array(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        RESERVED,
        "STATIC inline bool s3d3_ts_reserved_zero(NEURON_ISA_TPB_INST_UNION i) {\n"
        "    for (int k = 0; k < 3; k++) {\n        if (i.s3d3_ts.reserved0[k] != 0U) {\n            return false;\n        }\n    }\n"
        "    return true;\n}",
    )


def bool_accumulator(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        RESERVED,
        "STATIC inline bool s3d3_ts_reserved_zero(NEURON_ISA_TPB_INST_UNION i) {\n"
        "    bool ok = true;\n    ok = ok && (i.s3d3_ts.reserved0[0] == 0U);\n    ok &= (i.s3d3_ts.reserved0[1] == 0U);\n"
        "    if (i.s3d3_ts.reserved0[2] != 0U) ok = false;\n    return ok;\n}",
    )


def demorgan(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        ACCUM,
        "STATIC inline bool has_zero_accum_cmd_field(NEURON_ISA_TPB_INST_UNION i) {\n"
        "    return !(i.s3d3_ts.accumulator_cmd != NEURON_ISA_TPB_ACCUM_CMD_IDLE);\n}",
    )


def const_parameter(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        "STATIC inline bool has_zero_accum_cmd_field(NEURON_ISA_TPB_INST_UNION i) {",
        "STATIC inline bool has_zero_accum_cmd_field(const NEURON_ISA_TPB_INST_UNION i) {",
    )


def c11_bool_keyword(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        "STATIC inline bool s3d3_ts_reserved_zero(",
        "STATIC inline _Bool s3d3_ts_reserved_zero(",
    )


def compare_to_true(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        "            && has_zero_accum_cmd_field(i)\n",
        "            && (has_zero_accum_cmd_field(i) == true)\n",
    )


def static_const_for_an_expression(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        "STATIC inline bool has_valid_inst_len(",
        "static const uint32_t TPB_INST_WORDS = NEURON_ISA_TPB_INST_NBYTES / 4U;\n\n"
        "STATIC inline bool has_valid_inst_len(",
    )
    replace_in(tpb / ASSERT, INST_LEN, "    return( (uint32_t)h.inst_word_len == TPB_INST_WORDS );")


def literal_suffixes(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        INST_LEN,
        "    return( (uint32_t)h.inst_word_len == NEURON_ISA_TPB_INST_NBYTES / 4UL );",
    )
    replace_in(
        tpb / ASSERT, "    return( (addr & 3U) == 0U );", "    return( (addr & 0X3u) == 0x0ULL );"
    )


def enum_values_in_other_notations(tpb: Path) -> None:
    replace_in(
        tpb / COMMON,
        "    NEURON_ISA_TPB_ACCUM_CMD_ZERO_ACCUMULATE = 3,\n    NEURON_ISA_TPB_ACCUM_CMD_LOAD_ACCUMULATE = 4,",
        "    NEURON_ISA_TPB_ACCUM_CMD_ZERO_ACCUMULATE = 0x3,\n    NEURON_ISA_TPB_ACCUM_CMD_LOAD_ACCUMULATE = (1 << 2),",
    )


def implicit_enum_values(tpb: Path) -> None:
    replace_in(
        tpb / COMMON,
        "    NEURON_ISA_TPB_ACCUM_CMD_ZERO = 1,\n    NEURON_ISA_TPB_ACCUM_CMD_ACCUMULATE = 2,",
        "    NEURON_ISA_TPB_ACCUM_CMD_ZERO,\n    NEURON_ISA_TPB_ACCUM_CMD_ACCUMULATE,",
    )


def typedef_chain(tpb: Path) -> None:
    replace_in(
        tpb / S3D3,
        "typedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {",
        "typedef uint8_t tpb_byte_t;\ntypedef tpb_byte_t tpb_count_t;\n\n"
        "typedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {",
    )
    replace_in(
        tpb / S3D3,
        "    uint8_t                            num_active_channels;",
        "    tpb_count_t                        num_active_channels;",
    )


def two_declarators_on_a_line(tpb: Path) -> None:
    replace_in(
        tpb / S3D3,
        "    NEURON_ISA_TPB_ALU_OP              op0;                  // 1   (36     )\n"
        "    NEURON_ISA_TPB_ALU_OP              op1;                  // 1   (37     )",
        "    NEURON_ISA_TPB_ALU_OP              op0, op1;             // 1+1 (36 - 37)",
    )


def combined_attributes(tpb: Path) -> None:
    replace_in(
        tpb / COMMON,
        "#define NEURON_ISA_PACKED __attribute__((__packed__))",
        "#define NEURON_ISA_PACKED __attribute__((__packed__, __aligned__(1)))",
    )


def attribute_after_the_struct_keyword(tpb: Path) -> None:
    replace_in(
        tpb / S3D3,
        "typedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {",
        "typedef struct __attribute__((__packed__)) NEURON_ISA_TPB_S3D3_TS_STRUCT {",
    )


def if_zero_block(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        "STATIC inline bool has_valid_inst_len(",
        "#if 0\nthis is not C @@ and never compiled\n#endif\n\n"
        "STATIC inline bool has_valid_inst_len(",
    )


def cplusplus_guards_in_the_struct_header(tpb: Path) -> None:
    replace_in(
        tpb / S3D3,
        "typedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {",
        '#ifdef __cplusplus\nextern "C" {\n#endif\n\n'
        "typedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {",
    )
    replace_in(
        tpb / S3D3,
        "} NEURON_ISA_TPB_S3D3_TS_STRUCT;\n",
        "} NEURON_ISA_TPB_S3D3_TS_STRUCT;\n\n#ifdef __cplusplus\n}\n#endif\n",
    )


def no_final_newline(tpb: Path) -> None:
    for h in sorted(tpb.glob("*.h")):
        text = read_text(h)
        h.write_text(text.rstrip("\n"), encoding="utf-8", newline="")


def cast_spellings(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        "    return( i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE );",
        "    return( (int)(unsigned char)i.s3d3_ts.accumulator_cmd == (int)NEURON_ISA_TPB_ACCUM_CMD_IDLE );",
    )


def pragma_pack_for_structs(tpb: Path) -> None:
    """Structs packed by `#pragma pack(push, 1)` ... `pack(pop)` around common.h instead of the
    attribute (enums keep it: #pragma pack does not shrink an enum)."""
    text = read_text(tpb / COMMON)
    new, n = re.subn(
        r"(typedef (?:struct|union) (\w+) \{.*?\}) NEURON_ISA_PACKED (\2;)",
        r"\1 \3",
        text,
        flags=re.S,
    )
    assert n >= 3, n
    new = new.replace(
        "#ifndef NEURON_ISA_PACKED", "#pragma pack(push, 1)\n#ifndef NEURON_ISA_PACKED", 1
    )
    cut = new.rstrip().rfind("#endif")
    new = new[:cut] + "#pragma pack(pop)\n" + new[cut:]
    (tpb / COMMON).write_text(new, encoding="utf-8", newline="")


PROBE = (
    "typedef struct NEURON_ISA_TPB_PACK_PROBE {\n    uint8_t a;\n    uint32_t b;\n    uint16_t c;\n    uint8_t bits : 4;\n"
    "    uint32_t wide : 20;\n} NEURON_ISA_TPB_PACK_PROBE;\n\n"
)


def pragma_pack_plain_n(tpb: Path) -> None:
    """`#pragma pack(1)` / `#pragma pack()` (no push/pop) around one struct header, which also
    declares a struct whose layout the cap changes (a u32 after a u8, bitfields across bytes)."""
    replace_in(
        tpb / S3D3,
        "typedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {",
        "#pragma pack(1)\n" + PROBE + "typedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {",
    )
    replace_in(
        tpb / S3D3,
        "} NEURON_ISA_TPB_S3D3_TS_STRUCT;\n",
        "} NEURON_ISA_TPB_S3D3_TS_STRUCT;\n#pragma pack()\n",
    )


def pragma_pack_2(tpb: Path) -> None:
    """pack(push, 2) ... pack(pop): a 2-byte cap on the probe struct, followed as GCC follows it."""
    replace_in(
        tpb / S3D3,
        "typedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {",
        "#pragma pack(push, 2)\n" + PROBE + "#pragma pack(pop)\n"
        "typedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {",
    )


VARIANTS: dict[str, Edit] = {
    "pragma-pack-2": pragma_pack_2,
    "pragma-pack-push-pop": pragma_pack_for_structs,
    "pragma-pack-n": pragma_pack_plain_n,
    "if-else-ladder": if_else_ladder,
    "ternary": ternary,
    "modulo-for-mask": modulo_for_mask,
    "function-like-macro": function_like_macro,
    "loop-over-an-array": loop_over_an_array,
    "bool-accumulator": bool_accumulator,
    "demorgan": demorgan,
    "const-parameter": const_parameter,
    "_Bool": c11_bool_keyword,
    "compare-to-true": compare_to_true,
    "static-const-expression": static_const_for_an_expression,
    "literal-suffixes": literal_suffixes,
    "enum-value-notations": enum_values_in_other_notations,
    "implicit-enum-values": implicit_enum_values,
    "typedef-chain": typedef_chain,
    "two-declarators": two_declarators_on_a_line,
    "combined-attributes": combined_attributes,
    "attribute-after-struct": attribute_after_the_struct_keyword,
    "if-0-block": if_zero_block,
    "cplusplus-guards": cplusplus_guards_in_the_struct_header,
    "no-final-newline": no_final_newline,
    "cast-spellings": cast_spellings,
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_spelling_variant_is_right(
    name: str, tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_variant(tmp_path, VARIANTS[name])
    gcc_accepts(cc, root)
    assert_right(cc, root, generate(root, tmp_path / "out", capsys), tmp_path)


def pragma_pack_3(tpb: Path) -> None:
    replace_in(
        tpb / S3D3,
        "typedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {",
        "#pragma pack(3)\ntypedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {",
    )


def test_pragma_pack_with_a_bad_value_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """gcc itself only warns about pack(3) and ignores it; tpbgen refuses to guess, located."""
    root = make_variant(tmp_path, pragma_pack_3)
    outcome = generate(root, tmp_path / "out", capsys)
    assert (
        outcome.code == 2
        and f"{S3D3}:" in outcome.err
        and "must be 1, 2, 4, 8 or 16" in outcome.err
    ), outcome.err


@pytest.mark.parametrize(("edit", "size"), [(pragma_pack_plain_n, 10), (pragma_pack_2, 12)])
def test_pragma_pack_changes_the_layout_as_gcc_does(
    edit: Edit, size: int, tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The probe struct is 16 bytes unpacked; under pack(1) and pack(2) tpbgen computes GCC's
    size and offsets (its verify-cc step proves every one of them against the compiler)."""
    root = make_variant(tmp_path, edit)
    outcome = generate(root, tmp_path / "out", capsys)
    assert outcome.code == 0, outcome.err
    text = (outcome.package / "tpb_isa" / "mariana" / "structs.py").read_text()
    probe = text[text.index("class PackProbe(Struct)") :]
    assert f"SIZE = {size}" in probe[:400], probe[:400]


GEOMETRY_LINES = (
    "static const uint32_t NEURON_ISA_TPB_STATE_BUF_NUM_PARTITIONS = 128U;",
    "static const uint32_t NEURON_ISA_TPB_STATE_BUF_PARTITION_SIZE = 262144U;",
    "static const uint32_t NEURON_ISA_TPB_PSUM_BUF_OFFSET = 0x2000000U;",
    "static const uint32_t NEURON_ISA_TPB_STATE_BUF_SZ = 0x2000000U;",
    "static const uint32_t NEURON_ISA_TPB_POOLING_NUM_CHANNELS = 128U; // const POOLING_NUM_CHANNELS = 128",
)


def constants_as_defines(tpb: Path) -> None:
    """The executor's geometry and a limit the validators read as `#define`s: one plain, one
    parenthesised with a cast, one an expression of another macro, one with a comment."""
    new = (
        "#define NEURON_ISA_TPB_STATE_BUF_NUM_PARTITIONS 128U",
        "#define NEURON_ISA_TPB_STATE_BUF_PARTITION_SIZE ((uint32_t)(256U * 1024U))",
        "#define NEURON_ISA_TPB_PSUM_BUF_OFFSET (NEURON_ISA_TPB_STATE_BUF_SZ)",
        "#define NEURON_ISA_TPB_STATE_BUF_SZ \\\n    0x2000000U",
        "#define NEURON_ISA_TPB_POOLING_NUM_CHANNELS 128U // const POOLING_NUM_CHANNELS = 128",
    )
    for old, repl in zip(GEOMETRY_LINES, new, strict=True):
        replace_in(tpb / COMMON, old, repl)


def test_defines_are_constants_like_static_consts(
    tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Object-like macros with integer values land in constants.py (with their header line) and
    the executor finds its geometry in them; the validators that read them stay right."""
    root = make_variant(tmp_path, constants_as_defines)
    gcc_accepts(cc, root)
    outcome = generate(root, tmp_path / "out", capsys)
    assert_right(cc, root, outcome, tmp_path)
    probe = f"""
import sys
sys.path.insert(0, {str(outcome.package)!r})
from tpb_isa.mariana import constants as C, Executor
print(C.STATE_BUF_NUM_PARTITIONS, C.STATE_BUF_PARTITION_SIZE, hex(C.PSUM_BUF_OFFSET), hex(C.STATE_BUF_SZ), C.POOLING_NUM_CHANNELS)
ex = Executor(backend="numpy")
print(ex.sbuf.shape[0], hex(ex.psum_addr(0)))
"""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [
        "128",
        "262144",
        "0x2000000",
        "0x2000000",
        "128",
        "128",
        "0x2000000",
    ]


def macro_bomb(levels: int) -> Edit:
    def edit(tpb: Path) -> None:
        defs = "#define TPB_BOMB0 1U\n" + "".join(
            f"#define TPB_BOMB{k} (TPB_BOMB{k - 1} + TPB_BOMB{k - 1})\n"
            for k in range(1, levels + 1)
        )
        replace_in(
            tpb / S3D3,
            "typedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {",
            defs
            + f"static const uint32_t NEURON_ISA_TPB_BOMB = TPB_BOMB{levels};\n\ntypedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {{",
        )

    return edit


def test_a_macro_bomb_is_refused_where_it_is_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """2^20 terms on one line: refused before parsing (which would take minutes and gigabytes), at
    the line that expands it; a small one passes, and is refused only under a lowered --max-line-kb."""
    from tpbgen.cli import main

    root = make_variant(tmp_path, macro_bomb(20))
    text = read_text(root / "neuron_mariana_arch_isa" / "tpb" / S3D3)
    line = text[: text.index("static const uint32_t NEURON_ISA_TPB_BOMB")].count("\n") + 1
    outcome = generate(root, tmp_path / "out", capsys)
    assert outcome.code == 2, outcome.err
    assert (
        f"{S3D3}:{line}: error [limit]: one preprocessed line is" in outcome.err
        and "--max-line-kb" in outcome.err
    ), outcome.err
    small = make_variant(tmp_path / "small", macro_bomb(8))
    assert generate(small, tmp_path / "small-out", capsys).code == 0
    code = main(
        [
            "generate",
            "--headers",
            str(small),
            "--out",
            str(tmp_path / "tight"),
            "--no-cache",
            "--max-line-kb",
            "1",
        ]
    )
    assert code == 2 and "error [limit]" in capsys.readouterr().err


def int_returning_validators(tpb: Path) -> None:
    """Top-level validators returning `int` and `uint8_t` (C treats any of them as truth)."""
    replace_in(
        tpb / ASSERT,
        "STATIC inline bool is_valid_tensor_scalar_cache_reduce(",
        "STATIC inline int is_valid_tensor_scalar_cache_reduce(",
    )
    replace_in(
        tpb / ASSERT,
        "STATIC inline bool is_valid_exponential(",
        "STATIC inline uint8_t is_valid_exponential(",
    )


def test_int_returning_validators_are_top_level(
    tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_variant(tmp_path, int_returning_validators)
    gcc_accepts(cc, root)
    outcome = generate(root, tmp_path / "out", capsys)
    text = (outcome.package / "tpb_isa" / "mariana" / "validators.py").read_text()
    assert (
        "'is_valid_tensor_scalar_cache_reduce': (0x9a,)" in text
        and "'is_valid_exponential': (0x30,)" in text
    )
    assert "def _x_is_valid_exponential(" in text
    assert_right(cc, root, outcome, tmp_path)
