"""Variant drops of the TensorTensor, ScalarTensorTensor, TensorTensorIntWide and TensorReduce
headers (issue 27): the same structs and predicates respelled the other ways C allows, on several
generations. Each must come out right: gcc accepts it, `generate` proves the layouts, and every
validator, validate() and validate_batch() equal the variant's own C on the harness's corpus (the
mutations walk each validator's own struct, found from the IR). One variant (the DTYPE_PAIR
nibbles declared as plain integers) also runs a TensorTensor word through the generated
executor: the nibbles bind their dtype by the role's declared enum."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .harness import Edit, assert_right, gcc_accepts, generate, make_variant, replace_in

COMMON = "aws_neuron_isa_tpb_common.h"
ASSERT = "aws_neuron_isa_tpb_assert.h"
STT = "aws_neuron_isa_tpb_s2s2d2_stt.h"


def tt_op_gate_as_if_ladder(tpb: Path) -> None:
    """s3s3d3_tt_valid_op as an if/else ladder over the opcode class."""
    replace_in(
        tpb / ASSERT,
        "STATIC inline bool s3s3d3_tt_valid_op(NEURON_ISA_TPB_INST_UNION i) {\n"
        "    return( (tensor_tensor_bitvec(i) && is_general_bitvec_op(i.s3s3d3_tt.op))\n"
        "            || (tensor_tensor_arith(i)\n"
        "                && (is_general_arith_op(i.s3s3d3_tt.op) || (i.s3s3d3_tt.op == "
        "NEURON_ISA_TPB_ALU_OP_POW) || is_valid_int_aluop(i.s3s3d3_tt.op))) );\n}",
        "STATIC inline bool s3s3d3_tt_valid_op(NEURON_ISA_TPB_INST_UNION i) {\n"
        "    const NEURON_ISA_TPB_ALU_OP op = i.s3s3d3_tt.op;\n"
        "    if (tensor_tensor_bitvec(i)) {\n        return is_general_bitvec_op(op);\n"
        "    } else if (!tensor_tensor_arith(i)) {\n        return false;\n"
        "    } else if (op == NEURON_ISA_TPB_ALU_OP_POW) {\n        return true;\n    }\n"
        "    return is_general_arith_op(op) || is_valid_int_aluop(op);\n}",
    )


def dtype_pair_as_plain_nibbles(tpb: Path) -> None:
    """DTYPE_PAIR's nibbles declared uint8_t (the enum reaches them through the validators'
    get_dtype_from_pair casts only)."""
    replace_in(
        tpb / COMMON,
        "    NEURON_ISA_TPB_DTYPE dtype_lo : 4;\n    NEURON_ISA_TPB_DTYPE dtype_hi : 4;",
        "    uint8_t dtype_lo : 4;  /* NEURON_ISA_TPB_DTYPE */\n"
        "    uint8_t dtype_hi : 4;  /* NEURON_ISA_TPB_DTYPE */",
    )


def stt_reserved_as_a_loop(tpb: Path) -> None:
    """has_s2s2d2_stt_reserved_zero as a loop, and the reserved bytes spelled with a size
    expression."""
    replace_in(
        tpb / ASSERT,
        "    return( (i.s2s2d2_stt.reserved[0] == 0U)\n"
        "            && (i.s2s2d2_stt.reserved[1] == 0U)\n"
        "            && (i.s2s2d2_stt.reserved[2] == 0U) );",
        "    for (unsigned k = 0U; k < 3U; k++) {\n"
        "        if (i.s2s2d2_stt.reserved[k] != 0U) {\n            return false;\n        }\n"
        "    }\n    return true;",
    )
    replace_in(tpb / STT, "reserved[3];", "reserved[4 - 1];")


def int_wide_op_as_a_switch(tpb: Path) -> None:
    """is_valid_tt_int_wide_op as a switch with fall-through cases."""
    replace_in(
        tpb / ASSERT,
        "    return( (op == NEURON_ISA_TPB_ALU_OP_ADD_INT)\n"
        "            || (op == NEURON_ISA_TPB_ALU_OP_SUBTRACT_INT)\n"
        "            || (op == NEURON_ISA_TPB_ALU_OP_MULT_INT)\n"
        "            || (op == NEURON_ISA_TPB_ALU_OP_MULT_UINT)\n"
        "            || (op == NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_LEFT)\n"
        "            || (op == NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_RIGHT)\n"
        "            || (op == NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_LEFT)\n"
        "            || (op == NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_RIGHT) );",
        "    switch (op) {\n"
        "    case NEURON_ISA_TPB_ALU_OP_ADD_INT:\n    case NEURON_ISA_TPB_ALU_OP_SUBTRACT_INT:\n"
        "    case NEURON_ISA_TPB_ALU_OP_MULT_INT:\n    case NEURON_ISA_TPB_ALU_OP_MULT_UINT:\n"
        "        return true;\n"
        "    case NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_LEFT:\n"
        "    case NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_RIGHT:\n"
        "    case NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_LEFT:\n"
        "    case NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_RIGHT:\n        return true;\n"
        "    default:\n        return false;\n    }",
    )


def reduce_op_dim_as_a_range(tpb: Path) -> None:
    """has_valid_tensor_reduce_op_dim as a range over the enumerator values."""
    replace_in(
        tpb / ASSERT,
        "    return( (i.s4d4_tr.op_dim == NEURON_ISA_TPB_TENSOR_SUBDIM_X)\n"
        "            || (i.s4d4_tr.op_dim == NEURON_ISA_TPB_TENSOR_SUBDIM_XY)\n"
        "            || (i.s4d4_tr.op_dim == NEURON_ISA_TPB_TENSOR_SUBDIM_XYZ)\n"
        "            || (i.s4d4_tr.op_dim == NEURON_ISA_TPB_TENSOR_SUBDIM_XYZW) );",
        "    return (i.s4d4_tr.op_dim >= NEURON_ISA_TPB_TENSOR_SUBDIM_X)\n"
        "           && (i.s4d4_tr.op_dim <= NEURON_ISA_TPB_TENSOR_SUBDIM_XYZW);",
    )


VARIANTS: dict[str, tuple[str, Edit]] = {
    "tt-op-gate-if-ladder (cayman)": ("cayman", tt_op_gate_as_if_ladder),
    "dtype-pair-plain-nibbles (sunda)": ("sunda", dtype_pair_as_plain_nibbles),
    "stt-reserved-loop (mariana)": ("mariana", stt_reserved_as_a_loop),
    "int-wide-op-switch (maverick)": ("maverick", int_wide_op_as_a_switch),
    "reduce-op-dim-range (cayman)": ("cayman", reduce_op_dim_as_a_range),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_tt_family_variant_is_right(
    name: str, tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    gen, edit = VARIANTS[name]
    root = make_variant(tmp_path, edit, gen)
    gcc_accepts(cc, root, gen)
    outcome = generate(root, tmp_path / "out", capsys)
    assert_right(cc, root, outcome, tmp_path, gen)
    assert "[executor]" not in outcome.err, outcome.err
    if edit is dtype_pair_as_plain_nibbles:
        _tensor_tensor_runs(tmp_path / "out")


_RUN = r"""
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
from tpb_isa import sunda
from tpb_isa.sunda import enums as E, structs as S
from tpb_isa.sunda.executor import ENUM_VALUES, Executor

def t3(a):
    return S.Tensor3D(S.Addr4.of_addr_immediate(a), (1, 4, 4), (4, 1, 1))

w = S.S3S3D3_TT(header=S.Header(E.Opcode.TENSOR_TENSOR_ARITH_OP, 16),
                in0_in1_dtype=S.DtypePair(dtype_lo=int(E.Dtype.FP32), dtype_hi=int(E.Dtype.INT16)),
                out_dtype=E.Dtype.FP32, op=E.AluOp.SUBTRACT, num_active_channels=2,
                src0_mem_pattern=t3(0), src1_mem_pattern=t3(0x40), dst_mem_pattern=t3(0x80)).to_bytes()
assert sunda.validate(w), sunda.explain(w)
ex = Executor(backend="numpy")
ex.write(0, np.full((2, 4), 10.0, np.float32))
ex.write(0x40, np.full((2, 4), -3, np.int16))
ex.run(w)
print(json.dumps({"out": ex.read(0x80, np.float32, (2, 4)).tolist(),
                  "enum": ENUM_VALUES["dtype_pair"][0]}))
"""


def _tensor_tensor_runs(package: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _RUN, str(package)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got == {"out": [[13.0] * 4] * 2, "enum": "NEURON_ISA_TPB_DTYPE"}, got
