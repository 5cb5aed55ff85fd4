"""The tensor-tensor, scalar-tensor-tensor, int-wide and tensor-reduce structs against the shelf's
compile-checked tables (tt-stt-facts.md §2a, §5a, §6a, §9a), through the C compiler, and the line
facts the shelf gives about their headers (§1a, §3a, §5, §6b, §9a)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tpb_paths import run_checked, tpb_dir

# struct -> (gens, "field=offset ..." as the shelf prints gcc's output)
LAYOUTS = {
    "S3S3D3_TT": (
        ("sunda", "cayman", "mariana", "maverick"),
        "header=0 events=4 in0_in1_dtype=12 out_dtype=13 op=14 num_active_channels=15 "
        "src0_mem_pattern=16 src1_mem_pattern=32 dst_mem_pattern=48",
    ),
    "S2S2D2_STT": (
        ("sunda", "cayman", "mariana", "maverick"),
        "header=0 events=4 src0_mem_pattern=12 src1_mem_pattern=24 op0=36 op1=37 "
        "reverse_operands=38 imm0_src=39 in0_in1_dtype=40 out_dtype=41 num_active_channels=42 "
        "imm0_dtype=43 accumulator_cmd=44 reserved=45 dst_mem_pattern=48 imm0=60",
    ),
    "S2S2D2D2_TT": (
        ("maverick",),
        "header=0 events=4 in0_in1_dtype=12 out0_out1_dtype=13 op=14 num_active_channels=15 "
        "src0_mem_pattern=16 src1_mem_pattern=28 dst0_mem_pattern=40 dst1_mem_pattern=52",
    ),
    "S4D4_TR": (
        ("sunda", "cayman", "mariana", "maverick"),
        "header=0 events=4 src_mem_pattern=12 in_dtype=32 out_dtype=33 num_active_channels=34 "
        "negated=35 op=36 op_dim=37 mask_enable=38 reserved1=39 dst_mem_pattern=44",
    ),
    # next-families-facts.md §6d (R8: gcc, CAYMAN; "identical on C/M/V")
    "S2D2_RS": (
        ("cayman", "mariana", "maverick"),
        "header=0 events=4 num_active_channels=12 in_out_dtype=13 reduce_cmd=14 reduce_op=15 base=16 "
        "fill_val=20 src_mem_pattern=24 comp_op0=36 comp_op1=37 bound0_src=38 bound1_src=39 bound0=40 "
        "bound1=44 dst_mem_pattern=48 reserved1=60",
    ),
    # next-families-facts.md §6b (R2 §5: gcc offsets of the named fields; 33, 35, 37-39 ours)
    "D4_MR": (
        ("sunda", "cayman", "mariana", "maverick"),
        "header=0 events=4 reserved0=12 dst_element_count=28 dtype=32 reserved1=33 "
        "num_active_channels=34 reserved2=35 serialization_mode=36 reserved3=37 set_value=40 "
        "dst_mem_pattern=44",
    ),
    # next-families-facts.md §6c (R7: gcc, identical on all four gens)
    "S2D2_TS_AS": (
        ("sunda", "cayman", "mariana", "maverick"),
        "header=0 events=4 num_active_channels=12 in_out_dtype=13 fill_mode=14 fill_reg=15 "
        "mask_pattern=16 src_mem_pattern=36 dst_mem_pattern=48 channel_multiplier=60",
    ),
    # next-families-facts.md §7a, §7d (R9 §2 verbatim C, R5 §5.2/§5.3)
    "S4D2_BN": (
        ("sunda", "cayman", "mariana", "maverick"),
        "header=0 events=4 src_mem_pattern=12 in_dtype=32 out_dtype=33 num_active_channels=34 "
        "reserved0=35 even_count=40 odd_count=44 dst_mem_pattern=48 reserved1=60",
    ),
    "S4D4_MR": (
        ("sunda", "cayman", "mariana", "maverick"),
        "header=0 events=4 src_mem_pattern=12 in_dtype=32 out_dtype=33 num_active_channels=34 "
        "reserved0=35 immediate=40 dst_mem_pattern=44",
    ),
    # next-families-facts.md §6a (R6: gcc, identical on all four gens)
    "D4_IOTA": (
        ("sunda", "cayman", "mariana", "maverick"),
        "header=0 events=4 src_data_pattern=12 reserved0=32 out_dtype=33 num_active_channels=34 "
        "reserved1=35 channel_multiplier=36 reserved2=40 dst_mem_pattern=44",
    ),
}


def test_family_layouts(cc: str, tmp_path: Path, gen: str) -> None:
    body = []
    mine = {k: v for k, (gens, v) in LAYOUTS.items() if gen in gens}
    for name, fields in mine.items():
        t = f"NEURON_ISA_TPB_{name}_STRUCT"
        body.append(f'    printf("{name} sizeof=%u", (unsigned)sizeof({t}));')
        for f in (kv.split("=")[0] for kv in fields.split()):
            body.append(f'    printf(" {f}=%u", (unsigned)offsetof({t}, {f}));')
        body.append('    printf("\\n");')
    # the nibble order of DTYPE_PAIR: dtype_lo in bits 3..0 (src0), dtype_hi in bits 7..4 (src1)
    body.append(
        "    { NEURON_ISA_TPB_INST_UNION u; memset(&u, 0, sizeof u); u.raw[12] = 0x9A;"
        ' printf("pair %u %u\\n", (unsigned)u.s3s3d3_tt.in0_in1_dtype.dtype_lo,'
        " (unsigned)u.s3s3d3_tt.in0_in1_dtype.dtype_hi); }"
    )
    src = tmp_path / "p.c"
    src.write_text(
        '#include <stdio.h>\n#include <string.h>\n#include <stddef.h>\n#include "aws_neuron_isa_tpb_util.h"\n'
        "int main(void) {\n" + "\n".join(body) + "\n    return 0;\n}\n"
    )
    exe = tmp_path / "p"
    run_checked(
        [
            cc,
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-I",
            str(tpb_dir(gen)),
            str(src),
            "-o",
            str(exe),
        ]
    )
    lines = run_checked([str(exe)]).splitlines()
    want = [f"{k} sizeof=64 {v}" for k, v in mine.items()] + ["pair 10 9"]
    assert lines == want


def _lines(gen: str, stem: str) -> list[str]:
    return (tpb_dir(gen) / f"aws_neuron_isa_tpb_{stem}.h").read_text().splitlines()


def _fn(lines: list[str], name: str) -> int:
    return next(k for k, x in enumerate(lines, 1) if x.startswith(f"// fn {name}("))


def _enum_line(gen: str, name: str) -> int:
    lines = _lines(gen, "common")
    return next(k for k, x in enumerate(lines, 1) if f"NEURON_ISA_TPB_OPCODE_{name} =" in x)


@pytest.mark.parametrize(
    ("name", "where"),
    [
        ("TENSOR_TENSOR_ARITH_OP", (163, 166, 171, 174)),
        ("TENSOR_TENSOR_BITVEC_OP", (164, 167, 172, 175)),
        ("TENSOR_REDUCE_ARITH_OP", (165, 168, 173, 176)),
        ("TRANSPOSE_TENSOR_REDUCE_BITVEC_OP", (218, 222, 227, 230)),
        ("TENSOR_REDUCE_RANGE_CHECK", (238, 235, 240, 243)),
        ("SCALAR_TENSOR_TENSOR_ARITH", (239, 236, 241, 244)),
        ("SCALAR_TENSOR_TENSOR_BITVEC", (240, 237, 242, 245)),
        ("TENSOR_TENSOR_SCAN_ARITH", (292, 295, 305, 311)),
    ],
)
def test_common_opcode_lines(gen: str, name: str, where: tuple[int, ...]) -> None:
    k = ("sunda", "cayman", "mariana", "maverick").index(gen)
    assert _enum_line(gen, name) == where[k]


def test_gen_only_opcodes(gen: str) -> None:
    text = "\n".join(_lines(gen, "common"))
    bf16 = {"TENSOR_TENSOR_ADD_BF16": 223, "TENSOR_TENSOR_MULT_BF16": 224, "TENSOR_REDUCE_ADD_BF16": 225,
            "TENSOR_REDUCE_MAX_BF16": 226, "TENSOR_TENSOR_SUB_BF16": 228}  # fmt: skip
    for name, line in bf16.items():
        assert (f"OPCODE_{name} =" in text) == (gen == "sunda")
        if gen == "sunda":
            assert _enum_line(gen, name) == line
    assert ("OPCODE_TENSOR_TENSOR_INT_WIDE = 0xf3" in text) == (gen == "maverick")
    if gen == "maverick":
        assert _enum_line(gen, "TENSOR_TENSOR_INT_WIDE") == 320
    rc = next(x for x in text.splitlines() if "TENSOR_REDUCE_RANGE_CHECK =" in x)
    assert rc.endswith("= 0x9c, // n, workaround with other instructions, to be removed")
    assert (tpb_dir(gen) / "aws_neuron_isa_tpb_s2s2d2d2_tt.h").exists() == (gen == "maverick")


def test_s3s3d3_tt_lines(gen: str) -> None:
    lines = _lines(gen, "s3s3d3_tt")
    assert lines[26] == "typedef struct NEURON_ISA_TPB_S3S3D3_TT_STRUCT {"
    assert lines[38] == (
        "ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S3S3D3_TT_STRUCT) == 64, "
        '"Error: NEURON_ISA_TPB_S3S3D3_TT_STRUCT is NOT 64B.");'
    )
    assert "// src0 low, src1 high" in lines[29]
    if gen == "sunda":
        want = {"is_valid_copy_cast_predicated": 94, "is_valid_tensor_tensor_bf16": 116,
                "has_valid_tensor_tensor_bf16_op": 180, "tensor_tensor_bf16_access_pattern_check": 214,
                "s3s3d3_tt_src_dst_dtype": 229, "has_valid_tensor_tensor_bf16_in_dtype": 244}  # fmt: skip
        assert [x.split("(")[0] for x in lines[54:57]] == ["//     && is_valid_dtype"] * 3
        assert lines[133] == "// }" and lines[185] == "// }" and lines[232] == "// }"
        assert lines[246] == "// }"
        assert "NC_v2 only" in lines[19] or "NC_v2 only" in lines[20]
        assert "64-bit" in lines[255] and "Cayman" in lines[255]
    else:
        want = {"is_valid_s3s3d3_tt": 50, "is_valid_copy_cast_predicated": 93,
                "s3s3d3_tt_src_element_cnt_check": 116, "s3s3d3_tt_dst_element_cnt_check": 123,
                "has_copy_cast_predicated_opcode": 142, "s3s3d3_tt_valid_int_signness": 170,
                "s3s3d3_tt_src_dst_dtype": 182, "s3s3d3_copy_cast_pred_src1_dst_dtype": 195}  # fmt: skip
        assert lines[111] == "// }" and lines[179] == "// }" and lines[188] == "// }"
        assert "is_shift_op" in lines[185]
        c64 = 237 if gen in ("mariana", "maverick") else 207
        assert "64-bit" in lines[c64 - 1] and "Cast" in lines[c64]
    for name, line in want.items():
        assert _fn(lines, name) == line, name


def test_s2s2d2_stt_lines(gen: str) -> None:
    lines = _lines(gen, "s2s2d2_stt")
    assert lines[23] == "typedef struct NEURON_ISA_TPB_S2S2D2_STT_STRUCT {"
    assert lines[42].startswith("ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S2S2D2_STT_STRUCT) == 64,")
    assert re.search(r"reserved\[3\];", "\n".join(lines[24:42]))
    assert any(x.rstrip().endswith("// 12  (48 - 60)") for x in lines[24:42])  # the quoted quirk
    if gen in ("mariana", "maverick"):
        want = {"is_valid_scalar_tensor_tensor": 54, "is_valid_tensor_tensor_scan": 85,
                "s2s2d2_stt_src_element_cnt_check": 153, "s2s2d2_stt_dst_element_cnt_check": 160,
                "has_tensor_tensor_scan_opcode": 172, "has_valid_tensor_tensor_scan_op": 211,
                "s2s2d2_stt_imm0_dtype": 230, "has_zero_accum_cmd": 251}  # fmt: skip
        assert lines[82] == "// }" and lines[110] == "// }" and lines[213] == "// }"
        assert all("is_valid_dtype(" in x for x in lines[88:92])  # dtype gates 89-92(+93)
    else:
        want = {"is_valid_scalar_tensor_tensor": 54, "has_valid_s2s2d2_stt_immediate": 142,
                "has_valid_scalar_tensor_tensor_op": 200, "s2s2d2_stt_src_dst_dtype": 221,
                "s2s2d2_stt_imm0_dtype": 228, "has_valid_s2s2d2_stt_accum_cmd": 234}  # fmt: skip
        assert lines[81] == "// }"
    for name, line in want.items():
        assert _fn(lines, name) == line, name


def test_s2s2d2d2_tt_lines(gen: str) -> None:
    if gen != "maverick":
        pytest.skip("MAVERICK only")
    lines = _lines(gen, "s2s2d2d2_tt")
    assert [x.split()[1] for x in lines[34:38]] == [
        "src0_mem_pattern;", "src1_mem_pattern;", "dst0_mem_pattern;", "dst1_mem_pattern;"
    ]  # fmt: skip
    assert "NOT" in lines[22] and "indirect" in lines[22]
    assert _fn(lines, "is_valid_tensor_tensor_int_wide") == 50 and lines[78] == "// }"
    assert _fn(lines, "is_valid_tt_int_wide_op") == 81 and lines[89] == "// }"
    assert _fn(lines, "tt_int_wide_op_dtype_constraints") == 92 and lines[116] == "// }"


def test_s4d4_tr_lines(gen: str) -> None:
    lines = _lines(gen, "s4d4_tr")
    assert lines[27] == "typedef struct NEURON_ISA_TPB_S4D4_TR_STRUCT {"
    assert lines[40] == "} NEURON_ISA_TPB_S4D4_TR_STRUCT;"
    assert lines[42].startswith("ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S4D4_TR_STRUCT) == 64,")
    assert lines[12].startswith("// NEURON_ISA_TPB_S4D4_TR_STRUCT") and lines[23].startswith("//")
    assert _fn(lines, "has_valid_reduce_negated") == 96 and lines[104] == "// }"
    if gen == "sunda":
        assert "Bf16" in lines[16] and "Bf16" in lines[17]
        assert _fn(lines, "is_valid_tensor_reduce_bf16") == 79 and lines[85] == "// }"
        assert _fn(lines, "tensor_reduce_arith") == 129 and lines[133] == "// }"
        assert _fn(lines, "has_valid_tensor_reduce_bf16_in_dtype") == 172 and lines[173] == "// }"
        assert _fn(lines, "tensor_reduce_bf16_access_pattern_check") == 176 and lines[178] == "// }"
    else:
        assert all("is_valid_dtype_64(" in x for x in lines[78:80])


def test_s4d4_tr_user_lines(gen: str) -> None:
    """next-families-facts.md §2: the CAYMAN Copy/Cast span 238-277, the Reciprocal span 288-308
    (R2, gen not stated; its MAVERICK tile rule puts it on M/V at full length), MARIANA's
    TensorCumulative lines 190-237 and 367 (kept on C/V; SUNDA's 128-134 hold its BF16 reduce)."""
    lines = _lines(gen, "s4d4_tr")
    mv = gen in ("mariana", "maverick")
    assert _fn(lines, "is_valid_tensor_cumulative") == 190
    assert lines[(211 if mv else 209) - 1] == "// }"
    assert [x.split("(")[0] for x in lines[195:197]] == ["//     && is_valid_dtype"] * 2
    assert _fn(lines, "tensor_cumulative_valid_alu_op") == 213 and lines[221] == "// }"
    assert _fn(lines, "tensor_cumulative_valid_dtype") == 224 and lines[232] == "// }"
    assert _fn(lines, "s4d4_tr_same_src_dst_count") == 235 and lines[236] == "// }"
    assert _fn(lines, "is_valid_copy") == 238
    assert _fn(lines, "is_valid_cast") < 277 and lines[276] == "// }"
    assert _fn(lines, "is_valid_reciprocal") == 288
    assert lines[(308 if mv else 306) - 1] == "// }"
    assert _fn(lines, "has_tensor_cumulative_opcode") == 367
    if gen != "sunda":
        assert _fn(lines, "tensor_cumulative_bitvec") == 128 and lines[129] == "// }"
        assert _fn(lines, "tensor_cumulative_arith") == 132 and lines[133] == "// }"


def test_data4d_layout(cc: str, tmp_path: Path, gen: str) -> None:
    """next-families-facts.md §6a: DATA4D is 20 bytes, base@0 step_elem@4 num_elem@12, no start_addr."""
    src = tmp_path / "d.c"
    src.write_text(
        '#include <stdio.h>\n#include <stddef.h>\n#include "aws_neuron_isa_tpb_common.h"\n'
        "int main(void) {\n"
        '    printf("%u %u %u %u\\n", (unsigned)sizeof(NEURON_ISA_TPB_DATA4D),'
        " (unsigned)offsetof(NEURON_ISA_TPB_DATA4D, base),"
        " (unsigned)offsetof(NEURON_ISA_TPB_DATA4D, step_elem),"
        " (unsigned)offsetof(NEURON_ISA_TPB_DATA4D, num_elem));\n"
        "    return 0;\n}\n"
    )
    exe = tmp_path / "d"
    run_checked(
        [
            cc,
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-I",
            str(tpb_dir(gen)),
            str(src),
            "-o",
            str(exe),
        ]
    )
    assert run_checked([str(exe)]).split() == ["20", "0", "4", "12"]
    common = _lines(gen, "common")
    line = next(k for k, x in enumerate(common, 1) if x == "typedef struct NEURON_ISA_TPB_DATA4D {")
    if gen == "mariana":  # common.h:649 (gen not stated; the only gen where 649 is free)
        assert line == 649


def test_select_reduce_lines(gen: str) -> None:
    """next-families-facts.md §4: CAYMAN's `s2s2d2_stt.h` lines for SelectReduce (kept on SUNDA, whose
    file follows CAYMAN's numbers; MARIANA/MAVERICK's own numbers hold other functions there, C10)."""
    lines = _lines(gen, "s2s2d2_stt")
    if gen in ("mariana", "maverick"):
        assert _fn(lines, "is_valid_select_reduce") > 111
        return
    want = {"is_valid_select_reduce": (112, 140), "has_valid_select_reduce_dtypes": (195, 198),
            "has_valid_select_reduce_op": (214, 219), "has_valid_s2s2d2_cpr_accum_cmd": (243, 247),
            "has_valid_select_reduce_rev_ops": (259, 262)}  # fmt: skip
    for name, (first, last) in want.items():
        assert _fn(lines, name) == first and lines[last - 1] == "// }", name


def test_d4_mr_lines(gen: str) -> None:
    """next-families-facts.md §6b: the Memset text on lines 24-25, `memset_set_value_type` on 124-140
    with the header's doubled UINT32."""
    lines = _lines(gen, "d4_mr")
    assert lines[23].startswith("// Memset:") and lines[24].startswith("//")
    assert _fn(lines, "memset_set_value_type") == 124 and lines[139] == "// }"
    assert "Dtype::UINT32 | Dtype::INT32 | Dtype::UINT32" in "\n".join(lines[123:140])


def test_s2d2_ts_as_lines(gen: str) -> None:
    """next-families-facts.md §6c: the compare enum on 46, struct on 53, static assert on 66,
    validator 71-84, dtypes 99-102, the semantics comment within 24-38."""
    lines = _lines(gen, "s2d2_ts_as")
    assert lines[45] == "typedef enum NEURON_ISA_TPB_AFFINE_SELECT_CMP {"
    assert lines[52] == "typedef struct NEURON_ISA_TPB_S2D2_TS_AS_STRUCT {"
    assert lines[65].startswith("ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S2D2_TS_AS_STRUCT) == 64,")
    assert _fn(lines, "is_valid_s2d2_ts_as") == 71 and lines[83] == "// }"
    assert _fn(lines, "s2d2_ts_as_valid_dtypes") == 99 and lines[101] == "// }"
    assert all(x.startswith("//") for x in lines[23:38])


def test_search_cluster_lines(gen: str) -> None:
    """next-families-facts.md §7: R5's `s4d2_bn.h` / `s4d4_mr.h` line numbers (gen not stated; kept on
    all four gens)."""
    bn = _lines(gen, "s4d2_bn")
    assert _fn(bn, "is_valid_max8") == 336 and bn[351] == "// }"
    assert _fn(bn, "is_valid_find_index8") == 354 and bn[370] == "// }"
    assert _fn(bn, "s4d2_bn_zero_counts") == 424 and bn[426] == "// }"
    assert _fn(bn, "has_find_index8_dst_type") == 469 and bn[471] == "// }"
    assert all(x.startswith("//") for x in bn[156:167] + bn[182:183] + bn[189:191] + bn[206:222])
    mr = _lines(gen, "s4d4_mr")
    assert mr[83] == "typedef struct NEURON_ISA_TPB_S4D4_MR_STRUCT {"
    assert mr[93] == "} NEURON_ISA_TPB_S4D4_MR_STRUCT;"
    assert _fn(mr, "is_valid_match_replace8") == 105 and mr[119] == "// }"
    assert _fn(mr, "match_replace_dtypes") == 134 and mr[148] == "// }"
    assert all(x.startswith("//") for x in mr[22:43])
