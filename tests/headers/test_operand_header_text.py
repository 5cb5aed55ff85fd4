"""Line-level facts the shelf gives about the operand headers (ts-tsm-facts.md §1, §2a, §2d, §5).

Line numbers are MARIANA's where the shelf gives only those; the reconstruction keeps them on every
generation (SUNDA's s4d4_tsm.h has its own documented layout)."""

from __future__ import annotations

import re

import pytest

from tpb_paths import GENERATIONS, tpb_dir

NC = {"sunda": "NC-v2", "cayman": "NC-v3", "mariana": "NC-v4", "maverick": "NC-v5"}
OWN = ("s3d3_ts", "s4d4_tsm", "s2_bn", "enums", "util", "assert")


def _lines(gen: str, stem: str) -> list[str]:
    return (tpb_dir(gen) / f"aws_neuron_isa_tpb_{stem}.h").read_text().splitlines()


def _fn_line(lines: list[str], name: str) -> int:
    for k, line in enumerate(lines, 1):
        if line.startswith(f"// fn {name}("):
            return k
    raise AssertionError(f"no spec comment for {name}")


@pytest.mark.parametrize("stem", OWN)
def test_banner_guard_and_extern_c(gen: str, stem: str) -> None:
    lines = _lines(gen, stem)
    assert lines[2] == f" * ISA header for {NC[gen]}."
    common = (tpb_dir(gen) / "aws_neuron_isa_tpb_common.h").read_text().splitlines()
    assert lines[:4] == common[:4], "same banner as common.h"
    text = "\n".join(lines)
    guard = f"AWS_NEURON_ISA_TPB_{stem.upper()}_H"
    assert f"#ifndef {guard}\n#define {guard}" in text
    assert 'extern "C" {' in text


def test_s3d3_ts_lines(gen: str) -> None:
    lines = _lines(gen, "s3d3_ts")
    assert lines[27] == "typedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {"
    assert lines[46] == (
        "ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S3D3_TS_STRUCT) == 64, "
        '"Error: NEURON_ISA_TPB_S3D3_TS_STRUCT is NOT 64B.");'
    )
    assert "TensorScalarPtrArithOp (deprecated, use TensorScalarArithOp instead)" in lines[19]
    assert "TensorScalarPtrBitvecOp (deprecated, use TensorScalarBitvecOp instead)" in lines[20]
    mem = (
        "NEURON_ISA_TPB_MEM_PATTERN3D"
        if gen in ("mariana", "maverick")
        else "NEURON_ISA_TPB_TENSOR3D"
    )
    assert re.match(rf"\s+{mem}\s+src_mem_pattern;\s+// 16  \(16 - 31\)", lines[32])
    expected = {
        "is_valid_tensor_scalar_op": 60,
        "is_valid_tensor_scalar_ptr_op": 86,
        "is_valid_tensor_scalar_cache_reduce": 110,
        "is_valid_tensor_scalar_cache_cumulative": 132,
        "has_valid_tensor_scalar_cache_reduce_accum_cmd": 214,
        "has_tensor_scalar_ptr_opcode": 230,
        "tensor_scalar_arith": 249,
        "tensor_scalar_valid_ops": 257,
        "tensor_scalar_cache_reduce_valid_ops": 282,
        "is_valid_cache_reduce_op": 289,
        "tensor_scalar_immediates_check": 297,
        "tensor_scalar_cache_reduce_immediates_check": 312,
        "tensor_scalar_ptr_immediates": 330,
        "ts_imm_chk": 335,
        "ts_ptr_imm_chk": 341,
        "tensor_scalar_cache_reduce_valid_types": 390,
        "tensor_scalar_cache_reduce_reverse_chk": 405,
        "tensor_scalar_tensor_chk": 410,
        "tensor_scalar_ptr_imm_src": 430,
        "s3d3_transpose_check": 440,
    }
    for name, line in expected.items():
        assert _fn_line(lines, name) == line, name
    ends = {
        95: "is_valid_tensor_scalar_ptr_op",
        130: "cache_reduce",
        151: "cumulative",
        218: "accum_cmd",
        233: "ptr_opcode",
        256: "arith",
        280: "valid_ops",
        287: "cr_valid_ops",
        295: "is_valid_cache_reduce_op",
        310: "immediates_check",
        328: "cr_immediates",
        333: "ptr_immediates",
        347: "ts_ptr_imm_chk",
        395: "cr_valid_types",
        408: "cr_reverse",
        415 if gen in ("mariana", "maverick") else 414: "tensor_chk",
        433: "ptr_imm_src",
        444: "transpose",
    }
    for line, what in ends.items():
        assert lines[line - 1] == "// }", what
    assert lines[277].strip().startswith("//     && ((i.s3d3_ts.op0 != AluOp::Bypass)")
    has_exp = any(line.startswith("// fn is_valid_exponential(") for line in lines)
    assert has_exp == (gen in ("mariana", "maverick"))


def test_s4d4_tsm_lines(gen: str) -> None:
    lines = _lines(gen, "s4d4_tsm")
    text = "\n".join(lines)
    assert re.search(r"uint8_t\s+reserved1\[5\];\s+// 6   \(39 - 43\)", text), "documented typo"
    if gen == "sunda":
        assert len(lines) == 303
        assert lines[157] == "typedef struct NEURON_ISA_TPB_S4D4_TSM_STRUCT {"
        assert lines[172].startswith(
            "ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S4D4_TSM_STRUCT) == 64"
        )
        assert "TensorScalarPtrMultiDual" in lines[27]
        assert "multiply" in lines[51]
        assert "bitvec Dual" in lines[288]
        expected = {
            "is_valid_tensor_scalar_ptr_multi_dual": 183,
            "is_valid_tensor_scalar_ptr_multi_common": 199,
            "has_tensor_scalar_ptr_multi_dual_opcode": 221,
            "tensor_scalar_ptr_multi_bitvec": 225,
            "tensor_scalar_ptr_multi_arith": 230,
            "tensor_scalar_ptr_multi_valid_types": 246,
            "has_valid_src_slices_tsm_dual": 260,
            "has_valid_src_slices_tsm_singular": 265,
            "tensor_scalar_ptr_multi_reverse_chk": 270,
        }
        assert "is_valid_dtype(i.s4d4_tsm.in_dtype" in lines[203]
        assert "is_valid_dtype(i.s4d4_tsm.out_dtype" in lines[204]
        for line in (189, 214, 223, 228, 233, 254, 263, 268, 276, 285):
            assert lines[line - 1] == "// }", line
    else:
        assert len(lines) == 231
        assert lines[109] == "typedef struct NEURON_ISA_TPB_S4D4_TSM_STRUCT {"
        assert "has_tensor_scalar_ptr_multi_dual_opcode" not in text
        assert "has_valid_src_slices_tsm_dual" not in text
        expected = {
            "is_valid_tensor_scalar_ptr_multi": 134,
            "tensor_scalar_ptr_multi_valid_ops": 172,
            "tensor_scalar_ptr_multi_valid_types": 183,
            "is_valid_tsm_subdim": 193,
            "has_valid_src_slices_tsm_singular": 197,
            "tensor_scalar_ptr_multi_reverse_chk": 202,
            "s4d4_tsm_reserved_zero": 209,
        }
        assert "tensor4d_valid(i.s4d4_tsm.src_mem_pattern" in lines[153]
        assert "tensor4d_valid(i.s4d4_tsm.dst_mem_pattern" in lines[154]
    for name, line in expected.items():
        assert _fn_line(lines, name) == line, name


def test_s2_bn_lines(gen: str) -> None:
    lines = _lines(gen, "s2_bn")
    assert "S2_BN" in lines[10] and "ImmLd" in lines[15]
    assert lines[71].startswith("// TensorScalarImmLd")
    assert "fp32" in lines[83]
    assert _fn_line(lines, "tsm_immld_dtypes") == 215
    assert lines[233] == "// }"
    cnt = "\n".join(lines[_fn_line(lines, "has_tsm_immediates_load_src_element_cnt") - 1 :][:6])
    assert ("shape_from_register" in cnt) == (gen != "sunda")


@pytest.mark.parametrize("gen_", GENERATIONS)
def test_assert_sections_and_static_macro(gen_: str) -> None:
    text = (tpb_dir(gen_) / "aws_neuron_isa_tpb_assert.h").read_text()
    for section in (
        "//* common_assert.h",
        "//* s3d3_ts_assert.h",
        "//* s4d4_tsm_assert.h",
        "//* s2_bn_assert.h",
    ):
        assert section in text
    assert "#ifndef STATIC\n#define STATIC static\n#endif" in text
    # C bodies must not use constructs the translator rejects.
    for bad in ("->", "while", "goto", "do {", "#define", '"'):
        body = text.split("//* common_assert.h", 1)[1]
        body = "\n".join(line.split("//")[0] for line in body.splitlines())
        assert bad not in body, bad
