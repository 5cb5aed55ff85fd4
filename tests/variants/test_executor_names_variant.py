"""A drop that renumbers the ALU ops and adds one: the executor binds by name (issue 24.4).

One variant of the mariana tree, through `tpbgen generate`: ADD and SUBTRACT swap values, and a
new op NEW_OP (0x25) that `is_arith_op` and `is_valid_enum_alu_op` accept. The generated package, on both executor
backends, adds where the drop says ADD (10 + 1 = 11, where binding by number computed 9), and
refuses a valid word using NEW_OP with an UnsupportedError naming it, memory untouched; generate
warns about NEW_OP where it is declared, and `inspect` lists it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tpbgen.cli import main

from .harness import gcc_accepts, generate, make_variant, replace_in

COMMON = "aws_neuron_isa_tpb_common.h"
ASSERT = "aws_neuron_isa_tpb_assert.h"
ENUMS = "aws_neuron_isa_tpb_enums.h"


def renumbered_alu(tpb: Path) -> None:
    replace_in(
        tpb / COMMON, "NEURON_ISA_TPB_ALU_OP_ADD = 0x04,", "NEURON_ISA_TPB_ALU_OP_ADD = 0x05,"
    )
    replace_in(
        tpb / COMMON,
        "NEURON_ISA_TPB_ALU_OP_SUBTRACT = 0x05,",
        "NEURON_ISA_TPB_ALU_OP_SUBTRACT = 0x04,\n    NEURON_ISA_TPB_ALU_OP_NEW_OP = 0x25,",
    )
    replace_in(
        tpb / ASSERT,
        "            || (op == NEURON_ISA_TPB_ALU_OP_ADD)\n",
        "            || (op == NEURON_ISA_TPB_ALU_OP_ADD)\n"
        "            || (op == NEURON_ISA_TPB_ALU_OP_NEW_OP)\n",
    )
    replace_in(
        tpb / ENUMS,
        "    case NEURON_ISA_TPB_ALU_OP_SQUARE:\n",
        "    case NEURON_ISA_TPB_ALU_OP_SQUARE:\n    case NEURON_ISA_TPB_ALU_OP_NEW_OP:\n",
    )


_RUN = r"""
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
from tpb_isa import mariana
from tpb_isa.mariana import enums as E, structs as S
from tpb_isa.mariana.executor import Executor, UnsupportedError
from tpb_isa._runtime.executor import cbackend

def pattern(addr):
    return S.MemPattern3D.of_t(S.Tensor3D(S.Addr4.of_addr_immediate(addr), (1, 1, 1), (4, 1, 1)))

def word(op0):
    w = S.S3D3_TS(header=S.Header(E.Opcode.TENSOR_SCALAR_ARITH_OP, 16), src_mem_pattern=pattern(0),
                  dst_mem_pattern=pattern(0x1000), in_dtype=E.Dtype.FP32, out_dtype=E.Dtype.FP32,
                  num_active_channels=1, op0=op0, op1=E.AluOp.BYPASS,
                  imm0=S.ImmValInstField.of_imm_arith_fp32(1.0)).to_bytes()
    assert mariana.validate(w), mariana.explain(w)
    return w

out = {"values": [int(E.AluOp.ADD), int(E.AluOp.SUBTRACT), int(E.AluOp.NEW_OP)]}
for backend in ("numpy", "c") if cbackend.load() is not None else ("numpy",):
    ex = Executor(backend=backend)
    ex.write(0, np.full((1, 4), 10.0, dtype=np.float32))
    ex.run(word(E.AluOp.ADD))
    add = ex.read(0x1000, E.Dtype.FP32, (1, 4)).tolist()
    ex.run(word(E.AluOp.SUBTRACT))
    sub = ex.read(0x1000, E.Dtype.FP32, (1, 4)).tolist()
    before = ex.sbuf.tobytes(), ex.accumulators.tobytes()
    try:
        ex.run(word(E.AluOp.NEW_OP))
        refused = ""
    except UnsupportedError as exc:
        refused = str(exc)
    untouched = (ex.sbuf.tobytes(), ex.accumulators.tobytes()) == before
    out[backend] = {"add": add, "sub": sub, "refused": refused, "untouched": untouched}
print(json.dumps(out))
"""


def test_renumbered_and_new_alu_ops_run_by_name(tmp_path: Path, cc: str, capsys: object) -> None:
    root = make_variant(tmp_path, renumbered_alu)
    gcc_accepts(cc, root)
    outcome = generate(root, tmp_path / "out", capsys)
    assert outcome.code == 0, outcome.err
    warned = [line for line in outcome.err.splitlines() if "[executor]" in line]
    assert len(warned) == 1 and f"{COMMON}:" in warned[0] and "ALU op NEW_OP" in warned[0], warned
    proc = subprocess.run(
        [sys.executable, "-c", _RUN, str(tmp_path / "out")], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["values"] == [0x05, 0x04, 0x25]
    for b in [b for b in ("numpy", "c") if b in got]:
        assert got[b]["add"] == [[11.0] * 4] and got[b]["sub"] == [[9.0] * 4], (b, got[b])
        assert "op0 = NEW_OP (0x25)" in got[b]["refused"] and got[b]["untouched"], (b, got[b])
    code = main(["inspect", "--gen", "mariana", "--headers", str(root), "--no-cache"])
    text, _ = capsys.readouterr()  # type: ignore[attr-defined]
    assert code == 0
    assert "refuses  alu_op NEW_OP (0x25): not in the executor's table" in text
    if "c" not in got:
        pytest.skip("C backend unavailable: the numpy backend alone was checked")
