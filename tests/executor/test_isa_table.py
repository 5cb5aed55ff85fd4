"""tpbgen's table of executor semantics (`tpbgen.isa.table`), held to what it is emitted against:
the engine's methods it names, the operand kinds it declares, and a drop that lacks a field it
names (refused and warned about at generate time, never an error at run time)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from variants.harness import gcc_accepts, generate, make_variant

from tpbgen.isa import lower, table

from .engine_loader import REPO, sub


def test_every_handler_reads_declared_kinds() -> None:
    """Each handler gives each keyword once and reads each operand by a declared kind with that
    kind's number of fields. (That each Engine method takes the record emitted for it is checked
    by mypy --strict over the generated package: each record's `run` calls its method.)"""
    for name, h in table.HANDLERS.items():
        given = [o.param for o in h.operands] + [k for k, _ in h.fixed]
        assert len(given) == len(set(given)), name
        for o in h.operands:
            if o.kind in table.ENUMS:
                assert len(o.fields) == 1, (name, o)
            else:
                assert len(o.fields) == table.OPERAND_KINDS[o.kind].fields, (name, o)


def test_each_engine_method_has_one_emitted_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """The records `generate` emits (one an Engine method, its fixed arguments then its
    operands, typed by kind) are the package's, and handlers that would give one method two
    different signatures are the table's own error, found when it is lowered."""
    records = sub("operands")
    for m in lower.lower_methods():
        record = getattr(records, m.record)
        assert [f.name for f in dataclasses.fields(record)] == [f.name for f in m.fields]
        assert callable(getattr(sub("kernels").Engine, m.method)), m.method
    tensor_scalar = table.HANDLERS["TENSOR_SCALAR_ARITH_OP"]
    clash = dataclasses.replace(tensor_scalar, operands=tensor_scalar.operands[:-1])
    monkeypatch.setitem(table.HANDLERS, "TENSOR_SCALAR_BITVEC_OP", clash)
    with pytest.raises(lower.TableError, match=r"Engine\.tensor_scalar "):
        lower.lower_methods()


def test_readme_says_where_an_executor_instruction_goes() -> None:
    """The README's "where a change goes" row for an executor instruction names the table and
    the files the table is emitted into, and each path it names exists."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    row = next(
        line for line in text.splitlines() if line.startswith("| an instruction the executor runs")
    )
    for path in ("generator/tpbgen/isa/table.py", "runtime/executor/kernels.py"):
        assert f"`{path}`" in row and (REPO / path).exists(), path
    for emitted in ("_runtime/executor/operands.py", "_runtime/executor/codes.py"):
        assert f"`{emitted}`" in row, emitted
        assert (REPO / "generated" / "tpb_isa" / emitted).exists(), emitted


def renamed_imm_arm(tpb: Path) -> None:
    """The immediate union's `imm_bitvec_uint32` arm renamed `imm_bits` (and every use)."""
    changed = 0
    for h in sorted(tpb.glob("*.h")):
        text = h.read_text(encoding="utf-8")
        if "imm_bitvec_uint32" in text:
            h.write_text(text.replace("imm_bitvec_uint32", "imm_bits"), encoding="utf-8")
            changed += 1
    assert changed, "no header uses imm_bitvec_uint32"


_RUN = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from tpb_isa import mariana
from tpb_isa.mariana import enums as E, structs as S
from tpb_isa.mariana.executor import EXECUTABLE, REFUSED, Executor, UnsupportedError

def pattern(addr):
    return S.MemPattern3D.of_t(S.Tensor3D(S.Addr4.of_addr_immediate(addr), (1, 1, 1), (4, 1, 1)))

w = S.S3D3_TS(header=S.Header(E.Opcode.TENSOR_SCALAR_ARITH_OP, 16), src_mem_pattern=pattern(0),
              dst_mem_pattern=pattern(0x1000), in_dtype=E.Dtype.FP32, out_dtype=E.Dtype.FP32,
              num_active_channels=1, op0=E.AluOp.ADD, op1=E.AluOp.BYPASS,
              imm0=S.ImmValInstField.of_imm_arith_fp32(1.0)).to_bytes()
assert mariana.validate(w), mariana.explain(w)
try:
    Executor(backend="numpy").run(w)
    raised = ""
except UnsupportedError as exc:
    raised = str(exc)
print(json.dumps({"executable": list(EXECUTABLE), "refused": {hex(k): v for k, v in REFUSED.items()},
                  "raised": raised}))
"""


def test_a_drop_renaming_the_immediate_arm_refuses_its_opcodes_at_generate_time(
    tmp_path: Path, cc: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A drop whose immediate union names its raw arm differently: `generate` succeeds, warns
    (located at the union) for each opcode that reads the arm and refuses those opcodes; the
    package runs the others and refuses a valid word of one of them with UnsupportedError
    naming the missing arm, not a KeyError."""
    root = make_variant(tmp_path, renamed_imm_arm)
    gcc_accepts(cc, root)
    outcome = generate(root, tmp_path / "out", capsys)
    assert outcome.code == 0, outcome.err
    warned = [line for line in outcome.err.splitlines() if "[executor]" in line]
    arm = [w for w in warned if "has no arm imm_bitvec_uint32" in w]
    assert arm and all("aws_neuron_isa_tpb_common.h:" in w for w in arm), warned
    assert any("TENSOR_SCALAR_ARITH_OP:" in w for w in arm), arm
    proc = subprocess.run(
        [sys.executable, "-c", _RUN, str(tmp_path / "out")], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert 0x43 not in got["executable"] and "imm_bitvec_uint32" in got["refused"]["0x43"]
    assert 0x41 in got["executable"]  # TensorTensor reads no immediate: still runs
    assert "opcode 0x43" in got["raised"] and "imm_bitvec_uint32" in got["raised"], got["raised"]


def test_each_declared_check_s_two_forms_agree() -> None:
    """Every admission check the table declares, emitted as the Engine's scalar check and as
    info_batch's column refusal: over values inside and around its bounds (each argument its
    own sweep, so a check between two arguments meets both sides), a row is refused exactly
    where the scalar check raises, keyed by the values its message names."""
    admission, program = sub("admission"), sub("program")
    values = np.arange(-2, 12, dtype=np.int64)
    for c in table.CHECKS:
        check = getattr(admission, f"check_{c.name}")
        refuse = getattr(admission, f"refuse_{c.name}")
        # the first argument sweeps the values; the others the same on even rows, shifted on
        # odd ones (a check between two arguments meets both sides)
        odd = np.arange(values.size) % 2 == 1
        columns = [np.where(odd, np.roll(values, 5 * k), values) for k in range(len(c.args))]
        r = program._Refusals(values.size)
        refuse(r, *columns)
        raised = []
        for row in zip(*(col.tolist() for col in columns), strict=True):
            try:
                check(*row)
                raised.append(False)
            except (sub("errors").ExecutorError, sub("errors").UnsupportedError) as exc:
                assert type(exc).__name__ == c.error, c.name
                raised.append(True)
        assert (r.keys[:, 0] == 0).tolist() == raised, c.name
        assert any(raised) and not all(raised), c.name  # the values reach both sides
        hit = np.array(raised)
        keyed = [k for k, a in enumerate(c.args) if "{" + a + "}" in c.message]
        for j, k in enumerate(keyed):
            assert (r.keys[hit, 1 + j] == columns[k][hit]).all(), (c.name, c.args[k])


def test_the_runtime_library_builds_no_code_from_strings() -> None:
    """No call of eval, exec or the builtin compile anywhere in the runtime library (the
    executor's binders are emitted as code by generate, not compiled from strings at run
    time)."""
    import ast

    calls = []
    sources = sorted((REPO / "runtime").rglob("*.py"))
    assert len(sources) > 40, "the runtime library was not found: the scan would prove nothing"
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("eval", "exec", "compile")
            ):
                calls.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not calls, calls
