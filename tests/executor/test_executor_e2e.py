"""End to end through tpb_isa.<gen>.Executor: words built with the generated struct classes,
decoded and validated by the generated code, executed by the engine."""

from __future__ import annotations

import dataclasses
import importlib
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tpbgen.isa import table

from .engine_loader import c_available, gen_module, load_package

GENS = ("sunda", "cayman", "mariana", "maverick")
F32 = np.float32
errors = importlib.import_module(f"{load_package().__name__}._runtime.executor.errors")


class Gen:
    """The generated modules of one generation plus word builders."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.mod: ModuleType = gen_module(name)
        self.S: ModuleType = gen_module(name, "structs")
        self.E: ModuleType = gen_module(name, "enums")
        self.C: ModuleType = gen_module(name, "constants")
        self.X: ModuleType = gen_module(name, "executor")
        self.mem3 = type(self.S.S3D3_TS().src_mem_pattern)

    def executor(self, **kw: Any) -> Any:
        backend = kw.pop("backend", "c" if c_available() else "numpy")
        return self.mod.Executor(backend=backend, **kw)

    def header(self, opcode: int) -> Any:
        return self.S.Header(opcode=opcode, inst_word_len=16)

    def t3(
        self, addr: int, steps: tuple[int, ...], nums: tuple[int, ...], reg: int | None = None
    ) -> Any:
        S = self.S
        a = (
            S.Addr4.of_addr_immediate(addr)
            if reg is None
            else S.Addr4.of_addr_reg(S.AddrReg4(regnum=reg, marker=0x80))
        )
        t = S.Tensor3D(a, steps, nums)
        return t if self.mem3 is S.Tensor3D else self.mem3.of_t(t)

    def t4(self, addr: int, steps: tuple[int, ...], nums: tuple[int, ...]) -> Any:
        return self.S.Tensor4D(self.S.Addr4.of_addr_immediate(addr), steps, nums)

    def t2(self, addr: int, steps: tuple[int, ...], nums: tuple[int, ...]) -> Any:
        return self.S.Tensor2D(self.S.Addr4.of_addr_immediate(addr), steps, nums)

    def f(self, v: float) -> Any:
        return self.S.ImmValInstField.of_imm_arith_fp32(v)

    def ptr(self, v: int) -> Any:
        return self.S.ImmValInstField.of_imm_ptr(v)

    def u(self, v: int) -> Any:
        return self.S.ImmValInstField.of_imm_bitvec_uint32(v)

    def ts(self, opcode: int, src: Any, dst: Any, *, n: int, op0: int, op1: int = 0, rev: int = 0,
           in_dt: int | None = None, out_dt: int | None = None, imm0: Any = None, imm1: Any = None,
           src0: int = 0, src1: int = 0, accum: int = 0) -> Any:  # fmt: skip
        E = self.E
        return self.S.S3D3_TS(
            header=self.header(opcode), accumulator_cmd=accum, src_mem_pattern=src, dst_mem_pattern=dst,
            in_dtype=E.Dtype.FP32 if in_dt is None else in_dt, out_dtype=E.Dtype.FP32 if out_dt is None else out_dt,
            num_active_channels=n, imm0_src=src0, op0=op0, op1=op1, reverse_operands=rev, imm1_src=src1,
            imm0=imm0 if imm0 is not None else self.f(0.0), imm1=imm1 if imm1 is not None else self.f(0.0),
        )  # fmt: skip

    def tsm(self, opcode: int, src: Any, dst: Any, *, n: int, op: int, rev: int = 0, in_dt: int | None = None,
            out_dt: int | None = None) -> Any:  # fmt: skip
        E = self.E
        return self.S.S4D4_TSM(
            header=self.header(opcode), src_mem_pattern=src, dst_mem_pattern=dst,
            in_dtype=E.Dtype.FP32 if in_dt is None else in_dt, out_dtype=E.Dtype.FP32 if out_dt is None else out_dt,
            num_active_channels=n, op=op, op_dim=E.TensorSubdim.XYZ, reverse_operands=rev,
        )  # fmt: skip

    def immld(self, opcode: int, src: Any, *, n: int, dtype: int) -> Any:
        return self.S.S2_BN(
            header=self.header(opcode), src_mem_pattern=src, dtype=dtype, num_active_channels=n
        )

    def valid(self, word: Any) -> Any:
        why = self.mod.explain(word)
        assert why == "", f"{self.name}: test word rejected: {why}"
        return word


@pytest.fixture(scope="module", params=GENS)
def g(request: pytest.FixtureRequest) -> Gen:
    return Gen(str(request.param))


def snapshot(ex: Any) -> tuple[bytes, ...]:
    return tuple(ex.engine.memory.snapshot())


# -- geometry and defaults --------------------------------------------------------------------


def test_geometry_and_numerics_come_from_the_generation(g: Gen) -> None:
    ex = g.executor()
    C = g.C
    assert ex.sbuf.shape == (C.STATE_BUF_NUM_PARTITIONS, C.STATE_BUF_PARTITION_ACTIVE_SIZE)
    psum_active = C.PSUM_BUF_PARTITION_ACTIVE_SIZE if C.PSUM_BUF_SZ else 0
    assert ex.psum.shape == (128, psum_active)
    assert ex.sbuf.dtype == np.uint8 and ex.registers.shape == (C.NUM_ADDR_REGISTERS,)
    assert ex.numerics.fp8_e4m3 == ("ieee" if g.name in ("sunda", "cayman") else "ocp")
    assert ex.backend in ("c", "numpy")


# -- 0x43 / 0x44 / 0x53 / 0x54 ------------------------------------------------------------------


def test_tensor_scalar_arith_nki_form(g: Gen) -> None:
    E = g.E
    ex = g.executor()
    a = np.random.default_rng(0).uniform(-4, 4, size=(128, 64)).astype(F32)
    f = np.random.default_rng(1).uniform(-2, 2, size=(128, 1)).astype(F32)
    ex.write(0, a)
    ex.write(16384, f)
    w = g.valid(g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (64, 1, 1)), g.t3(4096, (1, 0, 0), (64, 1, 1)),
                     n=128, op0=E.AluOp.MULT, op1=E.AluOp.ADD, imm0=g.ptr(16384), src0=E.ImmSrc.POINTER_IMMEDIATE,
                     imm1=g.f(2.5)))  # fmt: skip
    ex.run(w)
    assert np.array_equal(ex.read(4096, E.Dtype.FP32, (128, 64)), a * f + F32(2.5))
    # the same word as raw bytes, reversed first operand: 2.5 + (f - a)... here (f - a) * 1
    w2 = g.valid(g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (64, 1, 1)), g.t3(4096, (1, 0, 0), (64, 1, 1)),
                      n=128, op0=E.AluOp.SUBTRACT, op1=E.AluOp.ADD, rev=E.TensScalarRevOps.FIRST, imm0=g.ptr(16384),
                      src0=E.ImmSrc.POINTER_IMMEDIATE, imm1=g.f(2.5)))  # fmt: skip
    ex.run(w2.to_bytes())
    assert np.array_equal(ex.read(4096, F32, (128, 64)), (f - a) + F32(2.5))


def test_ptr_opcode_equals_pointer_sources(g: Gen) -> None:
    E = g.E
    a = np.random.default_rng(2).uniform(-4, 4, size=(32, 16)).astype(F32)
    s0 = np.random.default_rng(3).uniform(-4, 4, size=(32, 1)).astype(F32)
    s1 = np.random.default_rng(4).uniform(-4, 4, size=(32, 1)).astype(F32)
    outs = []
    for opcode, src in (
        (E.Opcode.TENSOR_SCALAR_PTR_ARITH_OP, 0),
        (E.Opcode.TENSOR_SCALAR_ARITH_OP, 1),
    ):
        ex = g.executor()
        ex.write(0, a)
        ex.write(1024, s0)
        ex.write(1028, s1)
        w = g.valid(g.ts(opcode, g.t3(0, (1, 0, 0), (16, 1, 1)), g.t3(2048, (1, 0, 0), (16, 1, 1)), n=32,
                         op0=E.AluOp.SUBTRACT, op1=E.AluOp.MULT, rev=E.TensScalarRevOps.SECOND, imm0=g.ptr(1024),
                         imm1=g.ptr(1028), src0=src, src1=src))  # fmt: skip
        ex.run(w)
        outs.append(ex.read(2048, F32, (32, 16)))
    assert np.array_equal(outs[0], outs[1])
    assert np.array_equal(outs[0], s1 * (a - s0))


def test_register_pointer_scalar_and_register_address(g: Gen) -> None:
    E = g.E
    ex = g.executor()
    a = np.arange(8 * 16, dtype=F32).reshape(8, 16)
    ex.write(512, a)
    ex.write(1024, np.full((8, 1), 3.0, dtype=F32))
    ex.set_register(2, 1024)
    ex.set_register(9, 512)
    w = g.valid(g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (16, 1, 1), reg=9), g.t3(4096, (1, 0, 0), (16, 1, 1)),
                     n=8, op0=E.AluOp.MULT, imm0=g.S.ImmValInstField.of_imm_reg(g.S.ImmReg(regnum=2)),
                     src0=E.ImmSrc.REG_PTR_IMMEDIATE))  # fmt: skip
    ex.run(w)
    assert np.array_equal(ex.read(4096, F32, (8, 16)), a * 3)


def test_tensor_scalar_bitvec(g: Gen) -> None:
    E = g.E
    ex = g.executor()
    ex.write(0, np.array([[0x0F0F0F0F, 0x12345678]] * 4, dtype=np.uint32))
    w = g.valid(g.ts(E.Opcode.TENSOR_SCALAR_BITVEC_OP, g.t3(0, (1, 0, 0), (2, 1, 1)), g.t3(64, (1, 0, 0), (2, 1, 1)),
                     n=4, op0=E.AluOp.LOGICAL_SHIFT_LEFT, op1=E.AluOp.BITWISE_XOR, imm0=g.u(4), imm1=g.u(0xFF),
                     in_dt=E.Dtype.UINT32, out_dt=E.Dtype.UINT32))  # fmt: skip
    ex.run(w)
    assert ex.read(64, np.uint32, (4, 2)).tolist() == [[0xF0F0F00F, 0x2345677F]] * 4


# -- cache reduce / cumulative, every admitted accumulator command -------------------------------


def test_cache_cumulative_and_reduce_commands(g: Gen) -> None:
    E = g.E
    ex = g.executor()
    a = np.array([[1.0, 2.0, 3.0, 4.0]] * 2, dtype=F32)
    ex.write(0, a)
    src, dst = g.t3(0, (1, 0, 0), (4, 1, 1)), g.t3(256, (1, 0, 0), (4, 1, 1))
    cum = E.Opcode.TENSOR_SCALAR_CACHE_CUMULATIVE
    red = E.Opcode.TENSOR_SCALAR_CACHE_REDUCE
    A = E.AccumCmd
    ex.run(
        g.valid(
            g.ts(
                cum,
                src,
                dst,
                n=2,
                op0=E.AluOp.ADD,
                op1=E.AluOp.ADD,
                imm0=g.f(1.0),
                accum=A.ZERO_ACCUMULATE,
            )
        )
    )
    assert ex.read(256, F32, (2, 4)).tolist() == [[2, 5, 9, 14]] * 2
    ex.run(
        g.valid(
            g.ts(
                cum,
                src,
                dst,
                n=2,
                op0=E.AluOp.ADD,
                op1=E.AluOp.ADD,
                imm0=g.f(1.0),
                accum=A.ACCUMULATE,
            )
        )
    )
    assert ex.read(256, F32, (2, 4)).tolist() == [[16, 19, 23, 28]] * 2
    ex.run(g.valid(g.ts(cum, src, dst, n=2, op0=E.AluOp.BYPASS, op1=E.AluOp.SUBTRACT, imm1=g.f(10.0),
                        accum=A.LOAD_ACCUMULATE)))  # fmt: skip
    assert ex.read(256, F32, (2, 4)).tolist() == [[-9, 11, -8, 12]] * 2  # tmp - reg
    ex.run(
        g.valid(
            g.ts(
                red,
                src,
                dst,
                n=2,
                op0=E.AluOp.MULT,
                op1=E.AluOp.MAX,
                imm0=g.f(-1.0),
                accum=A.ZERO_ACCUMULATE,
            )
        )
    )
    assert ex.read(256, F32, (2, 4)).tolist() == [[-1, -2, -3, -4]] * 2
    assert ex.accumulators[:2].tolist() == [-1.0, -1.0]
    before = snapshot(ex)
    for cmd in (A.IDLE, A.ZERO):  # the validators admit only the three accumulating commands
        w = g.ts(cum, src, dst, n=2, op0=E.AluOp.ADD, op1=E.AluOp.ADD, accum=cmd)
        with pytest.raises(errors.InvalidInstructionError):
            ex.run(w)
    assert snapshot(ex) == before


# -- ImmLd + PtrMulti; SUNDA Dual ------------------------------------------------------------


def test_immld_then_ptr_multi(g: Gen) -> None:
    E = g.E
    ex = g.executor()
    scal = np.array([[2.0, 3.0, 5.0]] * 4, dtype=F32)
    ex.write(0, scal)
    ex.run(
        g.valid(
            g.immld(
                E.Opcode.TENSOR_SCALAR_IMM_LD_ARITH,
                g.t2(0, (1, 1), (3, 1)),
                n=4,
                dtype=E.Dtype.FP32,
            )
        )
    )
    a = np.arange(4 * 6, dtype=F32).reshape(4, 6)
    ex.write(1024, a)
    w = g.valid(g.tsm(E.Opcode.TENSOR_SCALAR_PTR_MULTI_ARITH, g.t4(1024, (1, 2, 2, 2), (2, 1, 1, 3)),
                      g.t4(2048, (1, 2, 2, 2), (2, 1, 1, 3)), n=4, op=E.AluOp.MULT))  # fmt: skip
    ex.run(w)
    assert (
        ex.read(2048, F32, (4, 6)).tolist()
        == (a.reshape(4, 3, 2) * scal[:, :, None]).reshape(4, 6).tolist()
    )
    ex.write(0, np.array([[0xFF00], [0x00FF]], dtype=np.uint32))
    ex.run(
        g.valid(
            g.immld(
                E.Opcode.TENSOR_SCALAR_IMM_LD_BITVEC,
                g.t2(0, (1, 1), (1, 1)),
                n=2,
                dtype=E.Dtype.UINT32,
            )
        )
    )
    ex.write(1024, np.array([[0x1234, 0xFFFF]] * 2, dtype=np.uint32))
    w = g.valid(g.tsm(E.Opcode.TENSOR_SCALAR_PTR_MULTI_BITVEC, g.t4(1024, (1, 2, 2, 2), (2, 1, 1, 1)),
                      g.t4(2048, (1, 2, 2, 2), (2, 1, 1, 1)), n=2, op=E.AluOp.BITWISE_AND, in_dt=E.Dtype.UINT32,
                      out_dt=E.Dtype.UINT32))  # fmt: skip
    ex.run(w)
    assert ex.read(2048, np.uint32, (2, 2)).tolist() == [[0x1200, 0xFF00], [0x0034, 0x00FF]]


def test_dual_on_sunda_and_not_decodable_elsewhere(g: Gen) -> None:
    ex = g.executor()
    E, S = g.E, g.S
    if g.name != "sunda":
        word = bytearray(g.tsm(0x4F, g.t4(1024, (1, 2, 2, 2), (2, 1, 1, 2)), g.t4(2048, (1, 2, 2, 2), (2, 1, 1, 2)),
                               n=1, op=E.AluOp.ADD).to_bytes())  # fmt: skip
        word[0] = 0x87
        ex.write(0, np.ones((128, 64), dtype=F32))
        before = snapshot(ex)
        with pytest.raises(errors.InvalidInstructionError, match="not decodable") as ei:
            ex.run(bytes(word))
        assert ei.value.explanation == ""
        assert snapshot(ex) == before
        return
    ex.write(0, np.array([[1.0, 2.0, 10.0, 0.5]], dtype=F32))
    ex.run(
        g.valid(
            g.immld(
                E.Opcode.TENSOR_SCALAR_IMM_LD_ARITH,
                g.t2(0, (1, 1), (4, 1)),
                n=1,
                dtype=E.Dtype.FP32,
            )
        )
    )
    ex.write(1024, np.array([[1.0, 2.0, 3.0, 4.0]], dtype=F32))
    w = S.S4D4_TSM(header=g.header(E.Opcode.TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH),
                   src_mem_pattern=g.t4(1024, (1, 2, 2, 2), (2, 1, 1, 2)),
                   dst_mem_pattern=g.t4(2048, (1, 2, 2, 2), (2, 1, 1, 2)), in_dtype=E.Dtype.FP32,
                   out_dtype=E.Dtype.FP32, num_active_channels=1, op=E.AluOp.ADD, op_dim=E.TensorSubdim.XYZ)  # fmt: skip
    ex.run(g.valid(w))
    assert ex.read(2048, F32, (1, 4)).tolist() == [[4.0, 6.0, 6.5, 7.0]]  # (x + s0) * s1


# -- exponential where the generation binds it ----------------------------------------------------


def test_exponential_where_present(g: Gen) -> None:
    E = g.E
    ex = g.executor()
    a = np.linspace(-3, 3, 8 * 16, dtype=F32).reshape(8, 16)
    ex.write(0, a)
    w = g.ts(
        0x30,
        g.t3(0, (1, 0, 0), (16, 1, 1)),
        g.t3(1024, (1, 0, 0), (16, 1, 1)),
        n=8,
        op0=0,
        op1=0,
        imm0=g.f(1.0),
    )
    if not g.mod.opcode_decodable(0x30):
        assert g.name in ("sunda", "cayman")
        before = snapshot(ex)
        with pytest.raises(errors.InvalidInstructionError):
            ex.run(w)
        assert snapshot(ex) == before
        return
    ex.run(g.valid(w))
    assert np.allclose(
        ex.read(1024, F32, (8, 16)), np.exp((a - F32(1)).astype(np.float64)), rtol=3e-7
    )
    w = g.ts(0x30, g.t3(0, (1, 0, 0), (16, 1, 1)), g.t3(1024, (1, 0, 0), (16, 1, 1)), n=8, op0=0, op1=0,
             imm0=g.f(0.0), accum=E.AccumCmd.LOAD_ACCUMULATE, imm1=g.f(100.0))  # fmt: skip
    ex.run(g.valid(w))
    assert np.allclose(
        ex.accumulators[:8], 100 + np.exp(a.astype(np.float64)).sum(axis=1), rtol=1e-6
    )


# -- refused, invalid and out-of-range words leave the state untouched ---------------------------


def test_invalid_word_carries_explain_and_leaves_state(g: Gen) -> None:
    E = g.E
    ex = g.executor()
    ex.write(0, np.ones((128, 64), dtype=F32))
    before = snapshot(ex)
    w = g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (64, 1, 1)), g.t3(4096, (1, 0, 0), (64, 1, 1)),
             n=128, op0=E.AluOp.DIVIDE, imm0=g.f(2.0))  # fmt: skip
    with pytest.raises(errors.InvalidInstructionError) as ei:
        ex.run(w)
    assert ei.value.explanation == g.mod.explain(w) != ""
    assert g.mod.explain(w) in str(ei.value)
    assert snapshot(ex) == before
    with pytest.raises(errors.InvalidInstructionError, match="64 bytes"):
        ex.run(b"\x43" * 10)


def test_transpose_is_refused(g: Gen) -> None:
    E = g.E
    ex = g.executor()
    before = snapshot(ex)
    w = g.ts(E.Opcode.TRANSPOSE_TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (32, 1, 1)), g.t3(4096, (1, 0, 0), (32, 1, 1)),
             n=32, op0=E.AluOp.ADD, imm0=g.f(1.0))  # fmt: skip
    assert g.mod.validate(w), g.mod.explain(w)
    with pytest.raises(errors.UnsupportedError, match="transpose"):
        ex.run(w)
    assert snapshot(ex) == before
    assert 0x93 in g.X.REFUSED and 0x93 not in g.X.EXECUTABLE


def test_out_of_range_through_a_register_leaves_state(g: Gen) -> None:
    E = g.E
    ex = g.executor()
    ex.write(0, np.ones((4, 16), dtype=F32))
    ex.set_register(
        1, g.C.STATE_BUF_PARTITION_ACTIVE_SIZE - 8
    )  # 16 fp32 from here run past the active bytes
    before = snapshot(ex)
    w = g.valid(g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (16, 1, 1)), g.t3(0, (1, 0, 0), (16, 1, 1), reg=1),
                     n=4, op0=E.AluOp.ADD, imm0=g.f(1.0)))  # fmt: skip
    with pytest.raises(errors.AddressError):
        ex.run(w)
    assert snapshot(ex) == before


def test_run_program_checks_every_word_first(g: Gen) -> None:
    E = g.E
    ex = g.executor()
    ex.write(0, np.ones((4, 16), dtype=F32))
    good = g.valid(g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (16, 1, 1)), g.t3(0, (1, 0, 0), (16, 1, 1)),
                        n=4, op0=E.AluOp.ADD, imm0=g.f(1.0)))  # fmt: skip
    bad = g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (16, 1, 1)), g.t3(0, (1, 0, 0), (16, 1, 1)),
               n=0, op0=E.AluOp.ADD, imm0=g.f(1.0))  # fmt: skip
    before = snapshot(ex)
    with pytest.raises(errors.InvalidInstructionError):
        ex.run_program([good, good.to_bytes(), bad])
    assert snapshot(ex) == before
    assert ex.run_program([good, good.to_bytes(), good]) == 3
    assert ex.read(0, F32, (4, 16)).tolist() == [[4.0] * 16] * 4


def test_numpy_and_c_executors_agree(g: Gen) -> None:
    if not c_available():
        pytest.skip("C backend unavailable")
    E = g.E
    rng = np.random.default_rng(5)
    a = rng.standard_normal((128, 256)).astype(F32)
    words = [
        g.valid(g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (256, 1, 1)), g.t3(2048, (1, 0, 0), (256, 1, 1)),
                     n=128, op0=E.AluOp.MULT, op1=E.AluOp.MAX, imm0=g.f(1.7), imm1=g.f(-0.3), out_dt=E.Dtype.BFLOAT16)),
        g.valid(g.ts(E.Opcode.TENSOR_SCALAR_CACHE_CUMULATIVE, g.t3(0, (1, 0, 0), (256, 1, 1)),
                     g.t3(4096, (1, 0, 0), (256, 1, 1)), n=128, op0=E.AluOp.SUBTRACT, op1=E.AluOp.SUBTRACT,
                     imm0=g.f(0.1), accum=E.AccumCmd.ZERO_ACCUMULATE)),
    ]  # fmt: skip
    results = []
    for backend in ("numpy", "c"):
        ex = g.executor(backend=backend)
        ex.write(0, a)
        ex.run_program(words)
        results.append((ex.sbuf.tobytes(), ex.accumulators.tobytes()))
    assert results[0] == results[1]


def test_a_prepared_word_is_not_decoded_again_and_check_returns_a_fresh_struct() -> None:
    """run() admits a word once (decode, validation, refusal) and keeps it; check() still hands
    out a new struct each time, so a caller mutating it cannot change what runs."""
    import importlib

    m = importlib.import_module("tpb_isa.mariana")
    from headers import tpb_words as w

    ex = m.Executor(backend="numpy")
    word = w.s3d3_ts(op0=w.MULT)
    ex.run(word)
    calls = []
    real = ex._decoder.decode
    ex._decoder = type(
        "Spy",
        (),
        {"decode": lambda self, b: calls.append(b) or real(b), "structs": real.__self__.structs},
    )()
    ex.run(word)
    assert calls == []  # served from the prepared words
    a, b = ex.check(word), ex.check(word)
    assert a == b and a is not b and len(calls) == 2


@pytest.mark.parametrize("backend", ["numpy", "c"])
def test_a_prepared_word_sees_the_state_of_each_run(g: Gen, backend: str) -> None:
    """A word prepared once runs on whatever memory, registers and numerics hold at each run:
    the prepared call of an immediate word reads memory through a view (a later write shows), a
    register address is read again on every run, and numerics set after preparing are honoured
    (the prepared kernel steps aside for the full path)."""
    if backend == "c" and not c_available():
        pytest.skip("C backend unavailable")
    E = g.E
    ex = g.executor(backend=backend)
    imm = g.valid(g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (16, 1, 1)), g.t3(4096, (1, 0, 0), (16, 1, 1)),
                       n=4, op0=E.AluOp.MULT, op1=E.AluOp.ADD, imm0=g.f(2.0), imm1=g.f(1.0)))  # fmt: skip
    for k in range(3):  # same word, new data each time
        a = np.full((4, 16), k + 0.5, dtype=F32)
        ex.write(0, a)
        ex.run(imm)
        assert np.array_equal(ex.read(4096, F32, (4, 16)), a * 2 + 1)
    reg = g.valid(g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (16, 1, 1), reg=3), g.t3(8192, (1, 0, 0), (16, 1, 1)),
                       n=4, op0=E.AluOp.ADD, imm0=g.f(1.0)))  # fmt: skip
    for addr in (0, 4096):  # same word, the register moves the source
        ex.set_register(3, addr)
        ex.run(reg)
        want = ex.read(addr, F32, (4, 16)) + 1
        assert np.array_equal(ex.read(8192, F32, (4, 16)), want)
    # numerics changed after the word was prepared: float-to-int truncating instead of RNE
    cvt = g.valid(g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (16, 1, 1)), g.t3(12288, (1, 0, 0), (16, 1, 1)),
                       n=4, op0=E.AluOp.ADD, imm0=g.f(0.0), out_dt=E.Dtype.INT32))  # fmt: skip
    ex.write(0, np.full((4, 16), 2.75, dtype=F32))
    ex.run(cvt)
    rne = ex.read(12288, np.int32, (4, 16)).copy()
    ex.engine.numerics = dataclasses.replace(ex.engine.numerics, float_to_int="truncate")
    ex.run(cvt)
    trunc = ex.read(12288, np.int32, (4, 16))
    assert (rne == 3).all() and (trunc == 2).all()


def test_the_fields_an_executor_reads_are_the_decoded_fields(g: Gen) -> None:
    """The executor reads only the fields its handlers need, by precompiled offsets; on random
    words of every opcode it executes, they equal what the full decoder gives."""
    X = g.X.Executor
    rng = np.random.default_rng(11)
    for op in X.HANDLERS:
        paths = X.BINDINGS[op].paths
        read = X._binder(op).values
        W = rng.integers(0, 256, (50, 64), dtype=np.uint8)
        W[:, 0] = op
        columns = X._batch_binder(op).read(W)  # the same fields of all 50 words as columns
        for row in range(50):
            b = bytearray(W[row].tobytes())
            s = g.mod.decode(bytes(b))
            got = read(bytes(b))
            assert got == tuple(
                tuple(c[row].tolist()) if c.ndim > 1 else c[row].item() for c in columns
            ), (g.name, hex(op))
            for path, value in zip(paths, got, strict=True):
                assert _decoded(s, path) == value, (g.name, hex(op), path)


def _decoded(s: Any, path: str) -> Any:
    """The value of a `layout.flat_reader` path in a decoded struct: ints, an array's a tuple."""
    v: Any = s
    for part in path.split("."):
        name = part.rstrip("?")
        if part.endswith("?") and not hasattr(v, name):
            continue
        v = getattr(v, name)
    return tuple(int(x) for x in v) if isinstance(v, tuple) else int(v)


def test_an_executors_operands_are_its_fields_decoded_and_converted(g: Gen) -> None:
    """The engine arguments an executor makes of a word (its emitted binder, each operand kind's
    expression as tpbgen's isa.lower wrote it) are, on words of every opcode it executes, each
    operand made on its own from the full decoder's struct: a Pattern, an Imm, an int, an enum
    value's semantic code. A word holding a value the executor does not implement raises the
    UnsupportedError of the first such operand in the handler's order. The words are random,
    their byte-aligned enum fields mostly set to values the executor implements."""
    X = g.X.Executor
    runtime = f"{load_package().__name__}._runtime"
    kernels = importlib.import_module(f"{runtime}.executor.kernels")
    layout = importlib.import_module(f"{runtime}.layout")
    rng = np.random.default_rng(12)
    made = refused = 0
    for op, name in X.HANDLERS.items():
        handler = table.HANDLERS[name]
        struct = X._decoder.structs[op]
        W = rng.integers(0, 256, (120, 64), dtype=np.uint8)
        W[:, 0] = op
        for o in handler.operands:
            role = "imm_src" if o.kind == "imm" else o.kind
            if role not in X.ENUMS:
                continue
            off, leaf = layout._leaf(struct, o.fields[0])
            if leaf.bit_width is None and leaf.size == 1:
                codes = sorted(X.ENUMS[role].codes)
                keep = rng.random(W.shape[0]) < 0.9
                W[keep, off] = rng.choice(codes, int(keep.sum()))
        binder = X._binder(op)
        for row in W:
            b = row.tobytes()
            s = g.mod.decode(b)
            want: dict[str, Any] = dict(handler.fixed)
            why = None
            try:
                for o in handler.operands:
                    v = [_decoded(s, p) for p in o.fields]
                    if o.kind == "pattern":
                        want[o.param] = kernels.Pattern(v[0], v[1], v[2])
                    elif o.kind == "int":
                        want[o.param] = v[0]
                    elif o.kind == "imm":
                        src = X.ENUMS["imm_src"].code(v[0], o.fields[0])
                        want[o.param] = kernels.Imm(src, v[1])
                    elif o.kind == "imm_ptr":
                        want[o.param] = kernels.Imm(kernels.IMM_POINTER, v[0])
                    else:
                        want[o.param] = X.ENUMS[o.kind].code(v[0], o.fields[0])
            except errors.UnsupportedError as exc:
                why = str(exc)
            if why is None:
                record = binder.operands(b)
                got = {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}
                assert got == want and list(got) == list(want), (g.name, hex(op), b.hex())
                made += 1
            else:
                with pytest.raises(errors.UnsupportedError) as info:
                    binder.operands(b)
                assert str(info.value) == why, (g.name, hex(op), b.hex())
                refused += 1
    assert made > 10 * len(X.HANDLERS) and refused > 10 * len(X.HANDLERS), (made, refused)


@pytest.mark.parametrize("backend", ["numpy", "c"])
def test_preparing_words_leaves_no_cyclic_garbage(g: Gen, backend: str) -> None:
    """`_prepare` pauses the cyclic collector while it admits and prepares a new word: right only
    if what it makes is freed by reference counting alone. Prepared here with the collector off,
    then collected: nothing unreachable was left (words of the prepared fast path, of the full
    path through a register address, bitvec and cache words, several of each)."""
    import gc

    if backend == "c" and not c_available():
        pytest.skip("C backend unavailable")
    E = g.E
    words = []
    for k in range(8):
        words.append(g.valid(g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(4 * k, (1, 0, 0), (16, 1, 1)),
                                  g.t3(4096 + 4 * k, (1, 0, 0), (16, 1, 1)), n=4, op0=E.AluOp.MULT,
                                  op1=E.AluOp.ADD, imm0=g.f(1.0 + k), imm1=g.f(0.5))))  # fmt: skip
        words.append(g.valid(g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (16, 1, 1), reg=3),
                                  g.t3(8192 + 4 * k, (1, 0, 0), (16, 1, 1)), n=4, op0=E.AluOp.ADD,
                                  imm0=g.f(float(k)))))  # fmt: skip
        words.append(g.valid(g.ts(E.Opcode.TENSOR_SCALAR_BITVEC_OP, g.t3(4 * k, (1, 0, 0), (16, 1, 1)),
                                  g.t3(12288 + 4 * k, (1, 0, 0), (16, 1, 1)), n=4, op0=E.AluOp.BITWISE_AND,
                                  in_dt=E.Dtype.UINT32, out_dt=E.Dtype.UINT32, imm0=g.u(0xF0F0 + k))))  # fmt: skip
        words.append(g.valid(g.ts(E.Opcode.TENSOR_SCALAR_CACHE_CUMULATIVE, g.t3(4 * k, (1, 0, 0), (16, 1, 1)),
                                  g.t3(16384 + 4 * k, (1, 0, 0), (16, 1, 1)), n=4, op0=E.AluOp.SUBTRACT,
                                  op1=E.AluOp.SUBTRACT, imm0=g.f(0.1 * k), accum=E.AccumCmd.ZERO_ACCUMULATE)))  # fmt: skip
    ex = g.executor(backend=backend)
    programs = [bytes(w.to_bytes()) for w in words]
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for b in programs:
            ex._prepare(b)
        left = gc.collect()
    finally:
        if was:
            gc.enable()
    assert len(ex._prepared) == len(programs)
    assert left == 0
