"""Variant drops the real tree may be, C-semantics classes: constructs whose value gcc fixes in a
way Python does not by itself (plain char's sign, float rounding, IEEE division, statements
without effect, do/while(0), deep expressions, nested switches). Each variant is one edit of a
real validator of the mariana tree; see harness.py for what right and refused mean. A variant
states each C fact it relies on inside the C itself (`&& ('\\377' < 0)`), so a translation that
gets one of them wrong rejects every word and fails the corpus."""

from __future__ import annotations

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

# Anchors in the mariana tree the variants edit.
S3D3_RESERVED = "    return( (i.s3d3_ts.reserved0[0] == 0U)\n"  # s3d3_ts_reserved_zero, under five top-level validators
S4D4_RESERVED = "    if (i.s4d4_tsm.reserved0[0] != 0U) {\n"  # s4d4_tsm_reserved_zero, under is_valid_tensor_scalar_ptr_multi
START_ADDR = "    uint32_t addr = addr_imm_mask(a.addr_immediate);\n"  # tensor_start_addr_valid, under every validator
TSM_SLICES = "    uint32_t w = (uint32_t)i.s4d4_tsm.src_mem_pattern.num_elem[3];\n"  # has_valid_src_slices_tsm_singular
S2_ZERO_IMM = "    return( (i.s2_bn.imm0_ptr.imm_arith_fp32 == 0.0f)\n"  # has_s2_bn_zero_immediates, under is_valid_tsm_immediates_load
CONSTS_ANCHOR = "static const uint32_t NEURON_ISA_TPB_POOLING_NUM_CHANNELS = 128U;"


# -- 1. character constants: plain char is signed on x86-64 -----------------------------------
def char_constants_signed(tpb: Path) -> None:
    """'\\377' is (char)0xFF = -1: in a comparison, in arithmetic with a field, against other
    escapes; 'ab' is gcc's multi-character constant 0x6162; L'\\377' is the wchar_t 255."""
    replace_in(
        tpb / ASSERT,
        S3D3_RESERVED,
        "    return( ((int32_t)i.s3d3_ts.reserved0[0] + '\\377' == -1)\n"
        "            && ('\\377' < 0) && ('\\200' == -128) && ('\\x7f' + 1 == 128) && ('\\0' == 0)\n"
        "            && ('ab' == 0x6162) && (L'\\377' == 255) && (u'\\377' == 255) && ('\\377' * '\\377' == 1)\n",
    )


def char_constants_in_static_consts(tpb: Path) -> None:
    """A `static const` and an enumerator initialised from character constants: the front end's
    constant evaluator gives them the same values as the translator."""
    replace_in(
        tpb / COMMON,
        CONSTS_ANCHOR,
        CONSTS_ANCHOR + "\nstatic const int32_t NEURON_ISA_TPB_CHAR_WRAP = '\\377' + 1;\n"
        "typedef enum NEURON_ISA_TPB_CHAR_MARK { NEURON_ISA_TPB_CHAR_MARK_A = '\\200' + 128, NEURON_ISA_TPB_CHAR_MARK_B = 'ab' } NEURON_ISA_TPB_CHAR_MARK;",
    )
    replace_in(
        tpb / ASSERT,
        S4D4_RESERVED,
        "    if ((i.s4d4_tsm.reserved0[0] != NEURON_ISA_TPB_CHAR_WRAP) || (NEURON_ISA_TPB_CHAR_MARK_A != 0) || (NEURON_ISA_TPB_CHAR_MARK_B != 0x6162)) {\n",
    )


# -- 2. floating constants: rounded to float where C has float ---------------------------------
def float_literals(tpb: Path) -> None:
    """`0.1f` is the float nearest 0.1 (not the double); 1e39f is +inf; 0.0f/0.0f is NaN; -0.0f
    equals 0.0f but divides to -inf; 16777217.0f is 16777216; a literal a hair above a float
    midpoint rounds up (rounding through double first would round it down); a float field divided
    by 0.0f at run time is NaN or an infinity, as in C (Python's `/` would raise)."""
    replace_in(
        tpb / ASSERT,
        S2_ZERO_IMM,
        "    return( ((i.s2_bn.imm0_ptr.imm_arith_fp32 == 0.0f) || (i.s2_bn.imm0_ptr.imm_arith_fp32 == -0.0f))\n"
        "            && (0.1f != 0.1) && (0.1f == (float)0.1) && ((double)0.1f == 0.100000001490116119384765625)\n"
        "            && (1e39f > 3.4e38f) && (1e39f == 1e39f / 2.0f) && (0.0f / 0.0f != 0.0f / 0.0f) && (1.0f / -0.0f < 0.0f)\n"
        "            && (16777217.0f == 16777216.0f) && (1.00000005960464477539062500000000001f > 1.0f) && (0x1.8p1f == 3.0f)\n"
        "            && !(i.s2_bn.imm1.imm_arith_fp32 / 0.0f == i.s2_bn.imm1.imm_arith_fp32 / 0.0f)\n",
    )


def float_static_consts(tpb: Path) -> None:
    """`static const float X = 0.1;` holds the float nearest 0.1, compared with a float field;
    a double initialised from 0.1f holds that float exactly; 1e39 in a float is +inf, 0.0f/0.0f
    NaN (the front end's evaluator used to raise ZeroDivisionError on it), -2.7 in an int32_t is
    -2; a float table holds rounded values and is indexed at run time."""
    replace_in(
        tpb / COMMON,
        CONSTS_ANCHOR,
        CONSTS_ANCHOR + "\nstatic const float NEURON_ISA_TPB_TENTH = 0.1;\n"
        "static const double NEURON_ISA_TPB_TENTH_D = 0.1f;\n"
        "static const float NEURON_ISA_TPB_HUGE_F = 1e39;\n"
        "static const float NEURON_ISA_TPB_NAN_F = 0.0f / 0.0f;\n"
        "static const float NEURON_ISA_TPB_NEG_ZERO = -0.0f;\n"
        "static const int32_t NEURON_ISA_TPB_TRUNC = -2.7;\n"
        "static const float NEURON_ISA_TPB_FTAB[3] = { 0.1, 1e39, -0.0 };",
    )
    replace_in(
        tpb / ASSERT,
        S2_ZERO_IMM,
        "    return( (i.s2_bn.imm0_ptr.imm_arith_fp32 != NEURON_ISA_TPB_TENTH)\n"
        "            && ((i.s2_bn.imm0_ptr.imm_arith_fp32 == 0.0f) || (i.s2_bn.imm0_ptr.imm_arith_fp32 * 10.0f == 1.0f))\n"
        "            && (NEURON_ISA_TPB_TENTH == 0.1f) && (NEURON_ISA_TPB_TENTH != 0.1) && (NEURON_ISA_TPB_TENTH_D == (double)0.1f)\n"
        "            && (NEURON_ISA_TPB_HUGE_F > 3.4e38f) && (NEURON_ISA_TPB_NAN_F != NEURON_ISA_TPB_NAN_F)\n"
        "            && (1.0f / NEURON_ISA_TPB_NEG_ZERO < 0.0f) && (NEURON_ISA_TPB_TRUNC == -2)\n"
        "            && (NEURON_ISA_TPB_FTAB[0] == 0.1f) && (NEURON_ISA_TPB_FTAB[1] > 3.4e38f)\n"
        "            && (NEURON_ISA_TPB_FTAB[i.s2_bn.num_active_channels % 3U] >= 0.1f || (i.s2_bn.num_active_channels % 3U) == 2U)\n",
    )


# -- 3. expression statements without effect are dropped -----------------------------------------
def void_statements(tpb: Path) -> None:
    """`(void)x;`, `(void)0;`, a double cast, a dropped call and comparison, a struct parameter cast
    to void; `(void)(w += 1U);` still assigns (the cast drops the value, not the effect: the
    tensor_scalar_ptr_multi slice count is then accepted from 0 to 7, not 1 to 8)."""
    replace_in(
        tpb / ASSERT,
        START_ADDR,
        START_ADDR
        + "    (void)addr;\n    (void)0;\n    (void)(void)write;\n    (void)a;\n    (void)addr_in_psum(addr);\n"
        "    addr == 0U;\n    (void)(0U), (void)allow_sbuf;\n",
    )
    replace_in(tpb / ASSERT, TSM_SLICES, TSM_SLICES + "    (void)(w += 1U);\n")


# -- 4. loops: do { } while (0), and for loops whose trip count is proven ------------------------
TSM_SLICES_RETURN = "    return( (w >= 1U) && (w <= 8U) );\n"
TSM_RESERVED_LOOP = (
    "        if (i.s4d4_tsm.reserved1[k] != 0U) {\n            return( false );\n        }\n"
)
START_ADDR_REGISTER = (
    "    if (addr_from_register(a)) {\n        return( valid_addr_register(a) );\n    }\n"
)
S2_LOOPS = tuple(
    f"    for (uint32_t k = 0U; k < {n}U; k++) {{\n        zero = zero && (i.s2_bn.reserved{r}[k] == 0U);\n"
    for n, r in ((4, 0), (9, 2), (15, 3))
)


def do_while_zero_block(tpb: Path) -> None:
    """The macro-style block `do { ... } while (0)` with no jump in it: just its body."""
    replace_in(
        tpb / ASSERT, START_ADDR_REGISTER, "    do {\n" + START_ADDR_REGISTER + "    } while (0);\n"
    )


def do_while_zero_break(tpb: Path) -> None:
    """`break` and `continue` leave a do/while(0) (continue tests the false condition); nested in a
    for loop, the break leaves the do, not the for (so reserved1[1..4] are still checked)."""
    replace_in(
        tpb / ASSERT,
        TSM_SLICES_RETURN,
        "    bool ok = false;\n    do {\n        if (w < 1U) break;\n        if (w > 8U) {\n            break;\n        }\n"
        "        if (w == 5U) {\n            ok = true;\n            continue;\n        }\n        ok = true;\n    } while (0);\n"
        "    return( ok );\n",
    )
    replace_in(
        tpb / ASSERT,
        TSM_RESERVED_LOOP,
        "        do {\n            if (i.s4d4_tsm.reserved1[k] == 0U) break;\n            return( false );\n        } while (false);\n",
    )


def for_loop_forms(tpb: Path) -> None:
    """Counted loops in other spellings, each proven to end: down to `>= 0` with a signed counter,
    up to `<=` by `+= 1U`, `!=` from a constant start, a signed counter against an unsigned bound,
    a bound read from a field (its type bounds it) with a step of 3."""
    replace_in(
        tpb / ASSERT,
        S2_LOOPS[0],
        S2_LOOPS[0].replace("for (uint32_t k = 0U; k < 4U; k++)", "for (int k = 3; k >= 0; k--)"),
    )
    replace_in(
        tpb / ASSERT,
        S2_LOOPS[1],
        S2_LOOPS[1].replace(
            "for (uint32_t k = 0U; k < 9U; k++)", "for (uint32_t k = 0U; k <= 8U; k += 1U)"
        ),
    )
    replace_in(
        tpb / ASSERT,
        S2_LOOPS[2],
        S2_LOOPS[2].replace(
            "for (uint32_t k = 0U; k < 15U; k++)", "for (int32_t k = 0; k != 15; ++k)"
        ),
    )
    replace_in(
        tpb / ASSERT,
        "    return( zero );\n}\n",
        "    for (int k = 0; k < 2U; k++) {\n        zero = zero && (i.s2_bn.reserved0[k + 2] == 0U);\n    }\n"
        "    for (uint32_t k = 0U; k < (uint32_t)i.s2_bn.num_active_channels; k += 3U) {\n        zero = zero && (k < 250U);\n    }\n"
        "    return( zero );\n}\n",
    )


# -- 6. nested switches whose every path returns ----------------------------------------------------
ALIGN_CASES = (
    "    case 2U:\n        return( (addr & 1U) == 0U );\n    case 4U:\n        return( (addr & 3U) == 0U );\n"
    "    case 8U:\n        return( (addr & 7U) == 0U );\n"
)


def nested_switch(tpb: Path) -> None:
    """In addr_aligned_dtype's switch: a case that is a switch whose every path returns (its default
    another switch with a default), a case that is an if/else returning on both arms, and a case
    whose inner switch breaks out to a return after it."""
    replace_in(
        tpb / ASSERT,
        ALIGN_CASES,
        "    case 2U:\n        switch (addr & 1U) {\n        case 1U:\n            return( false );\n        default:\n            break;\n        }\n"
        "        return( true );\n"
        "    case 4U:\n        switch (addr & 3U) {\n        case 0U:\n            return( true );\n        case 1U:\n        case 2U:\n"
        "            return( false );\n        default:\n            switch (dtype) {\n            case NEURON_ISA_TPB_DTYPE_FP32:\n"
        "                return( false );\n            default:\n                return( (addr & 3U) == 0U );\n            }\n        }\n"
        "    case 8U:\n        if ((addr & 7U) == 0U) {\n            return( true );\n        } else {\n            return( false );\n        }\n",
    )


# -- 5. deep expressions: long chains and deep nesting translate, and the Python imports -------------
W_TERM = "i.s4d4_tsm.src_mem_pattern.num_elem[3]"  # the field w is read from


def _and_term(k: int) -> str:
    """A term true for w in 1..8 and false for w == 9 + k, in one of four spellings."""
    key = 9 + k
    return (
        f"(w != {key}U)",
        f"((w ^ {key}U) != 0U)",
        f"(w + {key}U != {2 * key}U)",
        f"({W_TERM} != {key}U)",
    )[k % 4]


def chain_10000_and(tpb: Path) -> None:
    """A 10,000-term && chain (two original terms and 9,998 more, in mixed spellings)."""
    terms = ["(w >= 1U)", "(w <= 8U)", *(_and_term(k) for k in range(9998))]
    replace_in(
        tpb / ASSERT, TSM_SLICES_RETURN, "    return( " + "\n            && ".join(terms) + " );\n"
    )


def chain_10000_or(tpb: Path) -> None:
    """A 10,000-term || chain: w equal to one of 1..8 (in two spellings), between terms that are
    never true for a 16-bit count."""
    terms = [
        f"((w ^ {1 + k // 1250}U) == 0U)"
        if k % 1250 == 0
        else (f"(w == {70000 + k}U)" if k % 2 else "((w & 0x10000U) != 0U)")
        for k in range(10000)
    ]
    replace_in(
        tpb / ASSERT,
        TSM_SLICES_RETURN,
        "    return( (w >= 1U) && (" + " || ".join(terms) + ") );\n",
    )


def parens_1000(tpb: Path) -> None:
    """1,000 redundant parentheses around the condition (pycparser recurses 8 frames a level)."""
    replace_in(
        tpb / ASSERT,
        TSM_SLICES_RETURN,
        "    return" + "(" * 1000 + "(w >= 1U) && (w <= 8U)" + ")" * 1000 + ";\n",
    )


def nested_1000_same_operator(tpb: Path) -> None:
    """A right-nested && chain 1,000 levels deep: (t0 && (t1 && (t2 && ...)))."""
    inner = "(w <= 8U)"
    for k in range(999):
        inner = f"({_and_term(k)} && {inner})"
    replace_in(tpb / ASSERT, TSM_SLICES_RETURN, f"    return( (w >= 1U) && {inner} );\n")


def nested_1000_alternating(tpb: Path) -> None:
    """&& and || alternating 1,000 levels deep, which no regrouping flattens: the Python back
    ends move every 32 levels into a local function of their own."""
    inner = "(w <= 8U)"
    for k in range(1000):
        inner = (
            f"({_and_term(k)} && {inner})" if k % 2 == 0 else f"((w == {20000 + k}U) || {inner})"
        )
    replace_in(tpb / ASSERT, TSM_SLICES_RETURN, f"    return( (w >= 1U) && {inner} );\n")


def arithmetic_1000_nested(tpb: Path) -> None:
    """A sum nested 1,000 levels deep, (1U + (1U + ... (w - 1000U))), unsigned wrap-around kept."""
    inner = "(w - 1000U)"
    for _ in range(1000):
        inner = f"(1U + {inner})"
    replace_in(tpb / ASSERT, TSM_SLICES_RETURN, f"    return( ({inner} >= 1U) && (w <= 8U) );\n")


RIGHT: dict[str, Edit] = {
    "char-constants-signed": char_constants_signed,
    "char-constants-in-static-consts": char_constants_in_static_consts,
    "float-literals": float_literals,
    "float-static-consts": float_static_consts,
    "void-statements": void_statements,
    "do-while-zero-block": do_while_zero_block,
    "do-while-zero-break": do_while_zero_break,
    "for-loop-forms": for_loop_forms,
    "nested-switch": nested_switch,
    "chain-10000-and": chain_10000_and,
    "chain-10000-or": chain_10000_or,
    "parens-1000": parens_1000,
    "nested-1000-same-operator": nested_1000_same_operator,
    "nested-1000-alternating": nested_1000_alternating,
    "arithmetic-1000-nested": arithmetic_1000_nested,
}


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_variant_is_right(
    name: str, tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_variant(tmp_path, RIGHT[name])
    gcc_accepts(cc, root)
    assert_right(cc, root, generate(root, tmp_path / "out", capsys), tmp_path)


def long_double_literal(tpb: Path) -> None:
    replace_in(tpb / ASSERT, S2_ZERO_IMM, "    return( (i.s2_bn.imm0_ptr.imm_arith_fp32 == 0.0L)\n")


def float_to_int_out_of_range(tpb: Path) -> None:
    replace_in(
        tpb / COMMON,
        CONSTS_ANCHOR,
        CONSTS_ANCHOR + "\nstatic const int32_t NEURON_ISA_TPB_TOO_BIG = 1e10;",
    )


def float_to_int_out_of_range_in_a_body(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        S2_ZERO_IMM,
        "    return( (i.s2_bn.imm0_ptr.imm_bitvec_int32 != (int32_t)1e10f)\n",
    )


def void_cast_of_a_division_by_zero(tpb: Path) -> None:
    replace_in(tpb / ASSERT, START_ADDR, START_ADDR + "    (void)(addr / 0U);\n")


def while_loop(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        TSM_SLICES_RETURN,
        "    while (w > 8U) {\n        w = w - 1U;\n    }\n" + TSM_SLICES_RETURN,
    )


def do_while_with_a_condition(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        TSM_SLICES_RETURN,
        "    do {\n        w = w + 1U;\n    } while (w < 3U);\n" + TSM_SLICES_RETURN,
    )


def for_without_condition(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        TSM_SLICES_RETURN,
        "    for (;;) {\n        break;\n    }\n" + TSM_SLICES_RETURN,
    )


def for_counter_wraps(tpb: Path) -> None:
    """uint8_t k < 300 is always true: in C this loop never ends."""
    replace_in(
        tpb / ASSERT,
        S2_LOOPS[0],
        S2_LOOPS[0].replace(
            "for (uint32_t k = 0U; k < 4U; k++) {",
            "for (uint8_t k = 0U; k < 300U; k++) {\n        if (k > 3U) break;",
        ),
    )


def for_body_assigns_counter(tpb: Path) -> None:
    replace_in(tpb / ASSERT, S2_LOOPS[1], S2_LOOPS[1] + "        k = k + 0U;\n")


def for_bound_moves(tpb: Path) -> None:
    # the bound halves as the counter climbs: the loop ends within 32 passes on any word (a
    # bound that grew with the counter would run ~2^32 passes a word in the proof's -O0 C)
    replace_in(
        tpb / ASSERT,
        TSM_SLICES_RETURN,
        "    for (uint32_t k = 0U; k < w; k++) {\n        w = w >> 1U;\n    }\n"
        + TSM_SLICES_RETURN,
    )


def nested_switch_falls_through(tpb: Path) -> None:
    """A case whose inner switch has no default: when no inner label matches, C falls through into
    the next outer case, which tpbgen does not model."""
    replace_in(
        tpb / ASSERT,
        ALIGN_CASES,
        ALIGN_CASES.replace(
            "    case 4U:\n        return( (addr & 3U) == 0U );\n",
            "    case 4U:\n        switch (addr & 3U) {\n        case 0U:\n            return( true );\n        }\n",
        ),
    )


def parens_past_the_bound(tpb: Path) -> None:
    replace_in(
        tpb / ASSERT,
        TSM_SLICES_RETURN,
        "    return" + "(" * 20000 + "(w >= 1U) && (w <= 8U)" + ")" * 20000 + ";\n",
    )


def tree_past_the_bound(tpb: Path) -> None:
    """A 20,000-term sum: no brackets, but a syntax tree 20,000 levels deep (+ is not regrouped:
    with C's conversions it is not associative in general)."""
    replace_in(
        tpb / ASSERT,
        TSM_SLICES_RETURN,
        "    return( (w" + " + 0U" * 20000 + " >= 1U) && (w <= 8U) );\n",
    )


# Constructs the translator cannot express stop only the function that holds them (the project's
# rule: one construct never blocks a drop): it becomes a stub raising UntranslatedPredicate, with a
# located [untranslated] warning naming it and why; --strict makes that an error (exit 1).
UNTRANSLATED: dict[str, tuple[Edit, str, str, str, str, str]] = {
    # (edit, file, the text on the line the message must name, the token whose column it must name
    # ("" for the line alone), the function, words the reason must hold); why refusing is right:
    # long double (80-bit x87) is not modelled
    "long-double-literal": (
        long_double_literal,
        ASSERT,
        "== 0.0L",
        "0.0L",
        "has_s2_bn_zero_immediates",
        "long double",
    ),
    # undefined behaviour: 1e10f does not fit int32_t
    "float-to-int-out-of-range-body": (
        float_to_int_out_of_range_in_a_body,
        ASSERT,
        "(int32_t)1e10f",
        "",
        "has_s2_bn_zero_immediates",
        "undefined",
    ),
    # dropping the statement would hide undefined behaviour
    "void-cast-of-division-by-zero": (
        void_cast_of_a_division_by_zero,
        ASSERT,
        "(void)(addr / 0U)",
        "",
        "tensor_start_addr_valid",
        "division by zero",
    ),
    # a while loop's trip count is not proven
    "while-loop": (
        while_loop,
        ASSERT,
        "while (w > 8U)",
        "while",
        "has_valid_src_slices_tsm_singular",
        "while loop",
    ),
    # only do/while(0) is a block
    "do-while-with-a-condition": (
        do_while_with_a_condition,
        ASSERT,
        "    do {",
        "do",
        "has_valid_src_slices_tsm_singular",
        "other than 0",
    ),
    # for (;;) only ends by a jump tpbgen does not reason about
    "for-without-condition": (
        for_without_condition,
        ASSERT,
        "for (;;)",
        "for",
        "has_valid_src_slices_tsm_singular",
        "without a condition",
    ),
    # a uint8_t never reaches 300: in C this loop never ends
    "for-counter-wraps": (
        for_counter_wraps,
        ASSERT,
        "k < 300U",
        "for",
        "s2_bn_reserved_zero",
        "counts up by 1 while k < a bound in [300, 300]",
    ),
    # the body moves the counter
    "for-body-assigns-counter": (
        for_body_assigns_counter,
        ASSERT,
        "k < 9U",
        "for",
        "s2_bn_reserved_zero",
        "the body assigns the loop variable k",
    ),
    # the bound moves with the counter
    "for-bound-moves": (
        for_bound_moves,
        ASSERT,
        "k < w",
        "for",
        "has_valid_src_slices_tsm_singular",
        "bound reads a local the loop assigns",
    ),
    # fall-through between cases is not modelled
    "nested-switch-falls-through": (
        nested_switch_falls_through,
        ASSERT,
        "    case 4U:",
        "case",
        "addr_aligned_dtype",
        "falls through",
    ),
}

REFUSED: dict[str, tuple[Edit, str, str, str]] = {
    # (edit, file, the text on the line the message must name, why refusing the drop is right)
    "float-to-int-out-of-range-const": (
        float_to_int_out_of_range,
        COMMON,
        "NEURON_ISA_TPB_TOO_BIG",
        "undefined behaviour: 1e10 does not fit int32_t",
    ),
    "parens-past-the-bound": (
        parens_past_the_bound,
        ASSERT,
        "(" * 20000,
        "deeper than tpbgen's documented bound (deep.py)",
    ),
    "tree-past-the-bound": (
        tree_past_the_bound,
        ASSERT,
        " + 0U + 0U",
        "deeper than tpbgen's documented bound (deep.py)",
    ),
}


def line_of(root: Path, file: str, text: str) -> tuple[int, str]:
    """The line of the edited header `file` holding `text` (1-based), and that line."""
    lines = (
        (root / "neuron_mariana_arch_isa" / "tpb" / file).read_text(encoding="utf-8").splitlines()
    )
    return next((k, line) for k, line in enumerate(lines, 1) if text in line)


@pytest.mark.parametrize("name", sorted(UNTRANSLATED))
def test_variant_is_untranslated_where_it_stands(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit, file, text, token, function, reason = UNTRANSLATED[name]
    root = make_variant(tmp_path, edit)
    line, source = line_of(root, file, text)
    where = f"{file}:{line}:" + (f"{source.index(token) + 1}:" if token else "")
    outcome = generate(root, tmp_path / "out", capsys)
    assert outcome.code == 0, outcome.err
    warning = next((ln for ln in outcome.err.splitlines() if "warning [untranslated]" in ln), "")
    assert (
        f"{where} warning [untranslated]: {function} is outside the translator's subset" in warning
    ), outcome.err
    assert reason in warning, warning
    code = main(
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
    assert code == 1 and f"{where} error [untranslated]: {function}" in err, err


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_variant_is_refused(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit, file, text, _why = REFUSED[name]
    root = make_variant(tmp_path, edit)
    line, _ = line_of(root, file, text)
    assert_refused(generate(root, tmp_path / "out", capsys), f"{file}:{line}:")


def pointer_parameters(tpb: Path) -> None:
    """is_valid_tensor_scalar_op takes the instruction by `const` pointer and reads it with `->`
    and `*i`; one helper takes a pointer too and is handed it; another gets `*i` by value."""
    text = read_text(tpb / "aws_neuron_isa_tpb_assert.h")
    head = "STATIC inline bool is_valid_tensor_scalar_op(NEURON_ISA_TPB_INST_UNION i) {"
    start = text.index(head)
    end = text.index("\n}\n", start)
    body = text[start + len(head) : end]
    body = body.replace("(i)", "(*i)").replace("i.s3d3_ts.", "i->s3d3_ts.")
    body = body.replace("has_tensor_scalar_opcode(*i)", "has_tensor_scalar_opcode(i)")
    new = (
        "STATIC inline bool is_valid_tensor_scalar_op(const NEURON_ISA_TPB_INST_UNION *i) {" + body
    )
    text = text[:start] + new + text[end:]
    old_helper = "STATIC inline bool has_tensor_scalar_opcode(NEURON_ISA_TPB_INST_UNION i) {\n    return( (i.s3d3_ts.header.opcode"
    assert old_helper in text
    text = text.replace(
        old_helper,
        "STATIC inline bool has_tensor_scalar_opcode(const NEURON_ISA_TPB_INST_UNION *i) {\n    return( ((*i).s3d3_ts.header.opcode",
    )
    text = text.replace(
        "            || (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_BITVEC_OP)\n"
        "            || (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_SCALAR_ARITH_OP) );",
        "            || (i->s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_BITVEC_OP)\n"
        "            || (i->s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_SCALAR_ARITH_OP) );",
        1,
    )
    (tpb / "aws_neuron_isa_tpb_assert.h").write_text(text, encoding="utf-8", newline="")


def test_pointer_parameters(tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_variant(tmp_path, pointer_parameters)
    gcc_accepts(cc, root)
    outcome = generate(root, tmp_path / "out", capsys)
    assert "[untranslated]" not in outcome.err, outcome.err
    text = (outcome.package / "tpb_isa" / "mariana" / "validators.py").read_text()
    assert "'is_valid_tensor_scalar_op': (0x43, 0x53, 0x93)" in text
    assert (
        "is_valid_tensor_scalar_op(&u)"
        in (outcome.package / "tpb_isa" / "mariana" / "validators_c.c").read_text()
    )
    assert_right(cc, root, outcome, tmp_path)
