"""The executor binds enum values by name: a drop's values are mapped to the enumerator names its
headers give them, and the names to the executor's semantic codes (tpbgen's isa.table, emitted
as _runtime/executor/codes.py). Here on the
committed mariana package, with its ENUM_VALUES rebound as another drop would declare them (the
whole drop, through `tpbgen generate`, is tests/variants/test_executor_names_variant.py)."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tpbgen.isa import table

from .engine_loader import c_available, gen_module, load_package

GEN = "mariana"
F32 = np.float32


def _runtime(name: str) -> ModuleType:
    return importlib.import_module(f"{load_package().__name__}._runtime.{name}")


def _executor_for(enums: dict[str, tuple[str, dict[str, int]]]) -> Any:
    """mariana's Executor, its enums bound to `enums` instead of the headers' values."""
    machine = _runtime("executor.machine")
    x = gen_module(GEN, "executor")

    class Rebound(
        machine.Executor,
        generation=GEN,
        decoder=x.Executor._decoder,
        validators=x.Executor._validators,
        constants=gen_module(GEN, "constants"),
        enums=enums,
        handlers=gen_module(GEN, "executor_binding").HANDLERS,
        refused=gen_module(GEN, "executor_binding").REFUSED,
        numerics=x.NUMERICS,
    ):
        pass

    return Rebound


def _enums(**alu: int) -> dict[str, tuple[str, dict[str, int]]]:
    x = gen_module(GEN, "executor")
    out = {role: (c, dict(values)) for role, (c, values) in x.ENUM_VALUES.items()}
    out["alu_op"][1].update(alu)
    return out


def _word(op0: int) -> bytes:
    """TENSOR_SCALAR_ARITH_OP: 4 fp32 elements on one partition, `op0` with imm0 = 1.0, op1
    BYPASS, from 0x0 to 0x1000."""
    S, E = gen_module(GEN, "structs"), gen_module(GEN, "enums")

    def pattern(addr: int) -> Any:
        return S.MemPattern3D.of_t(
            S.Tensor3D(S.Addr4.of_addr_immediate(addr), (1, 1, 1), (4, 1, 1))
        )

    w = S.S3D3_TS(header=S.Header(E.Opcode.TENSOR_SCALAR_ARITH_OP, 16), src_mem_pattern=pattern(0),
                  dst_mem_pattern=pattern(0x1000), in_dtype=E.Dtype.FP32, out_dtype=E.Dtype.FP32,
                  num_active_channels=1, op0=op0, op1=E.AluOp.BYPASS,
                  imm0=S.ImmValInstField.of_imm_arith_fp32(1.0))  # fmt: skip
    b = bytes(w.to_bytes())
    assert gen_module(GEN).validate(b)
    return b


def _state(ex: Any) -> tuple[bytes, bytes, bytes, bytes, int]:
    arrays = (ex.sbuf, ex.psum, ex.accumulators, ex.imm_flops)
    return (*(a.tobytes() for a in arrays), ex.engine.instructions_executed)


BACKENDS = ["numpy", pytest.param("c", marks=pytest.mark.skipif(not c_available(), reason="no C"))]


@pytest.mark.parametrize("backend", BACKENDS)
def test_swapped_add_and_subtract_compute_by_name(backend: str) -> None:
    """A drop where ADD is 0x05 and SUBTRACT 0x04: the word holding 0x05 adds."""
    E = gen_module(GEN, "enums")
    ex = _executor_for(_enums(ADD=int(E.AluOp.SUBTRACT), SUBTRACT=int(E.AluOp.ADD)))(
        backend=backend
    )
    ex.write(0, np.full((1, 4), 10.0, F32))
    ex.run(_word(int(E.AluOp.SUBTRACT)))  # the value this drop names ADD
    assert (ex.read(0x1000, E.Dtype.FP32, (1, 4)) == 11.0).all()
    ex.run(_word(int(E.AluOp.ADD)))  # the value this drop names SUBTRACT
    assert (ex.read(0x1000, E.Dtype.FP32, (1, 4)) == 9.0).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_name_the_executor_does_not_implement_is_refused_by_name(backend: str) -> None:
    """MULT's value named NEW_OP (an op the validators accept, the executor does not know), and
    a value no enumerator names: refused naming it, nothing changed; other words still run."""
    errors = _runtime("executor.errors")
    E = gen_module(GEN, "enums")
    enums = _enums()
    alu = enums["alu_op"][1]
    alu["NEW_OP"] = alu.pop("MULT")
    ex = _executor_for(enums)(backend=backend)
    ex.write(0, np.full((1, 4), 10.0, F32))
    before = _state(ex)
    with pytest.raises(errors.UnsupportedError, match=r"op0 = NEW_OP \(0x06\): ALU op NEW_OP"):
        ex.run(_word(int(E.AluOp.MULT)))
    assert _state(ex) == before
    del alu["NEW_OP"]
    ex = _executor_for(enums)(backend=backend)
    with pytest.raises(errors.UnsupportedError, match="op0 = 0x06 is not a NEURON_ISA_TPB_ALU_OP"):
        ex.run(_word(int(E.AluOp.MULT)))
    ex.run(_word(int(E.AluOp.ADD)))


def test_a_value_with_two_names_runs_only_when_they_agree() -> None:
    """An alias the executor does not know runs as the name it knows; two names it knows as
    different operations are refused, naming both."""
    errors = _runtime("executor.errors")
    E = gen_module(GEN, "enums")
    ex = _executor_for(_enums(ADD_ALIAS=int(E.AluOp.ADD)))(backend="numpy")
    ex.write(0, np.full((1, 4), 10.0, F32))
    ex.run(_word(int(E.AluOp.ADD)))
    assert (ex.read(0x1000, E.Dtype.FP32, (1, 4)) == 11.0).all()
    ex = _executor_for(_enums(MULT=int(E.AluOp.ADD)))(backend="numpy")
    with pytest.raises(errors.UnsupportedError, match=r"ADD/MULT .*are different operations"):
        ex.run(_word(int(E.AluOp.ADD)))


def test_read_takes_the_generation_s_dtype_by_name() -> None:
    """`Executor.read(addr, Dtype member)` binds the dtype by name as an instruction does."""
    E = gen_module(GEN, "enums")
    enums = _enums()
    dtypes = enums["dtype"][1]
    dtypes["FP32"], dtypes["INT32"] = dtypes["INT32"], dtypes["FP32"]
    ex = _executor_for(enums)(backend="numpy")
    ex.write(0, np.full((1, 4), 3, np.int32))
    assert ex.read(0, int(E.Dtype.FP32), (1, 4)).dtype == np.int32  # this drop's INT32 value


def test_every_enumerator_of_the_vendored_drop_is_declared() -> None:
    """Every enumerator an operand reads on the vendored drop is implemented or refused with a
    reason in the table, so `generate` warns about none of them (a new one is warned about)."""
    for gen in ("sunda", "cayman", "mariana", "maverick"):
        x = gen_module(gen, "executor")
        read = {role for h in x.Executor.BINDINGS.values() for role in h.roles}
        assert set(x.ENUM_VALUES) == read, gen
        for role, (_c_enum, values) in x.ENUM_VALUES.items():
            spec = table.ENUMS[role]
            unknown = [n for n in values if n not in spec.codes and n not in spec.refused]
            assert not unknown, (gen, role, unknown)
