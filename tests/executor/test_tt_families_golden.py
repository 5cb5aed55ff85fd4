"""Golden cases of the TensorTensor, ScalarTensorTensor, TensorTensorScan, TensorReduce and
TensorTensorIntWide instructions: NKI's documented examples (nki.isa.tensor_tensor,
scalar_tensor_tensor, tensor_tensor_scan, tensor_reduce and AWS's tests of them, cited in
vendor_headers/PROVENANCE.md) as real words, built with the generated structs, decoded, validated
and run by tpb_isa.<gen>.Executor on both backends, against the outputs NKI documents (computed
here in numpy from NKI's own formulas). Plus the refusals, each naming why."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

from .engine_loader import c_available, gen_module, load_package

errors = importlib.import_module(f"{load_package().__name__}._runtime.executor.errors")
BACKENDS = ["numpy", pytest.param("c", marks=pytest.mark.skipif(not c_available(), reason="no C"))]
F32 = np.float32
P = 128  # partitions of every NKI example


class G:
    """One generation's modules and word builders."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.mod = gen_module(name)
        self.S = gen_module(name, "structs")
        self.E = gen_module(name, "enums")

    def hdr(self, opcode: int) -> Any:
        return self.S.Header(opcode=opcode, inst_word_len=16)

    def addr(self, a: int) -> Any:
        return self.S.Addr4.of_addr_immediate(a)

    def pair(self, lo: int, hi: int) -> Any:
        return self.S.DtypePair(dtype_lo=int(lo), dtype_hi=int(hi))

    def word(self, w: Any) -> bytes:
        why = self.mod.explain(w)
        assert not why, why
        return bytes(w.to_bytes())

    def tt(self, opcode: int, op: int, n: int, a: int, b: int, d: int, dt: int, out: int) -> bytes:
        S = self.S

        def t3(x: int) -> Any:
            return S.Tensor3D(self.addr(x), (1, n, n), (n, 1, 1))

        return self.word(S.S3S3D3_TT(header=self.hdr(opcode), in0_in1_dtype=self.pair(dt, dt),
                                     out_dtype=out, op=op, num_active_channels=P,
                                     src0_mem_pattern=t3(a), src1_mem_pattern=t3(b),
                                     dst_mem_pattern=t3(d)))  # fmt: skip

    def stt(self, opcode: int, n: int, a: int, b: int, d: int, op0: int, op1: int, rev: int,
            imm: Any, imm_src: int = 0, accum: int = 0) -> bytes:  # fmt: skip
        S, E = self.S, self.E

        def t2(x: int) -> Any:
            return S.Tensor2D(self.addr(x), (1, n), (n, 1))

        return self.word(S.S2S2D2_STT(header=self.hdr(opcode), src0_mem_pattern=t2(a),
                                      src1_mem_pattern=t2(b), dst_mem_pattern=t2(d), op0=op0,
                                      op1=op1, reverse_operands=rev, imm0_src=imm_src,
                                      in0_in1_dtype=self.pair(E.Dtype.FP32, E.Dtype.FP32),
                                      out_dtype=E.Dtype.FP32, num_active_channels=P,
                                      imm0_dtype=E.Dtype.FP32, accumulator_cmd=accum,
                                      imm0=imm))  # fmt: skip

    def tr(self, opcode: int, op: int, nums: tuple[int, ...], op_dim: int, a: int, d: int,
           dt: int, dst_n: int, negated: int = 0) -> bytes:  # fmt: skip
        S = self.S
        steps, s = [], 1
        for k in nums:
            steps.append(s)
            s *= k
        src = S.Tensor4D(self.addr(a), tuple(steps), nums)
        dst = S.Tensor4D(self.addr(d), (1, dst_n, dst_n, dst_n), (dst_n, 1, 1, 1))
        mem4 = type(S.S4D4_TR().src_mem_pattern)
        if mem4 is not S.Tensor4D:
            src, dst = mem4.of_t(src), mem4.of_t(dst)
        return self.word(S.S4D4_TR(header=self.hdr(opcode), src_mem_pattern=src, in_dtype=dt,
                                   out_dtype=dt, num_active_channels=P, negated=negated, op=op,
                                   op_dim=op_dim, dst_mem_pattern=dst))  # fmt: skip


def _run(g: G, backend: str, words: list[bytes], data: dict[int, np.ndarray]) -> Any:
    ex = g.mod.Executor(backend=backend)
    for addr, arr in data.items():
        ex.write(addr, arr)
    ex.run_program(words)
    return ex


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("gen", ["sunda", "cayman", "mariana", "maverick"])
def test_tensor_tensor_add_is_nkis_example(gen: str, backend: str) -> None:
    """nki.isa.tensor_tensor's example and AWS's test: c = tensor_tensor(a, b, op=add) on fp32
    (128, 512) tiles equals np.add(a, b) (exactly: one fp32 add per element)."""
    g = G(gen)
    rng = np.random.default_rng(3)
    a = rng.random((P, 512), dtype=F32)
    b = rng.random((P, 512), dtype=F32)
    E = g.E
    w = g.tt(E.Opcode.TENSOR_TENSOR_ARITH_OP, E.AluOp.ADD, 512, 0, 0x800, 0x1000, E.Dtype.FP32,
             E.Dtype.FP32)  # fmt: skip
    ex = _run(g, backend, [w], {0: a, 0x800: b})
    np.testing.assert_array_equal(ex.read(0x1000, F32, (P, 512)), np.add(a, b))


@pytest.mark.parametrize("backend", BACKENDS)
def test_tensor_tensor_operand_order_and_bitvec(backend: str) -> None:
    """src0 is the left operand (data1 of NKI's tensor_tensor): subtract and is_gt are a - b and
    a > b; the bitvec form works on the raw bits (xor, and a shift by src1)."""
    g = G("cayman")
    E = g.E
    a = np.arange(P * 8, dtype=F32).reshape(P, 8)
    b = np.full((P, 8), 5.0, F32)
    sub = g.tt(E.Opcode.TENSOR_TENSOR_ARITH_OP, E.AluOp.SUBTRACT, 8, 0, 0x100, 0x200,
               E.Dtype.FP32, E.Dtype.FP32)  # fmt: skip
    gt = g.tt(E.Opcode.TENSOR_TENSOR_ARITH_OP, E.AluOp.IS_GT, 8, 0, 0x100, 0x300, E.Dtype.FP32,
              E.Dtype.BFLOAT16)  # fmt: skip
    ex = _run(g, backend, [sub, gt], {0: a, 0x100: b})
    np.testing.assert_array_equal(ex.read(0x200, F32, (P, 8)), a - b)
    got = ex.read(0x300, np.uint16, (P, 8))
    np.testing.assert_array_equal(got, np.where(a > b, 0x3F80, 0).astype(np.uint16))
    x = np.arange(P * 8, dtype=np.uint32).reshape(P, 8) * np.uint32(0x01010101)
    y = np.full((P, 8), 3, np.uint32)
    xor = g.tt(E.Opcode.TENSOR_TENSOR_BITVEC_OP, E.AluOp.BITWISE_XOR, 8, 0x400, 0x500, 0x600,
               E.Dtype.UINT32, E.Dtype.UINT32)  # fmt: skip
    shl = g.tt(E.Opcode.TENSOR_TENSOR_BITVEC_OP, E.AluOp.LOGICAL_SHIFT_LEFT, 8, 0x400, 0x500,
               0x700, E.Dtype.UINT32, E.Dtype.UINT32)  # fmt: skip
    ex = _run(g, backend, [xor, shl], {0x400: x, 0x500: y})
    np.testing.assert_array_equal(ex.read(0x600, np.uint32, (P, 8)), x ^ y)
    np.testing.assert_array_equal(ex.read(0x700, np.uint32, (P, 8)), x << y)


@pytest.mark.parametrize("backend", BACKENDS)
def test_sunda_bf16_forms_add_mult_subtract(backend: str) -> None:
    """SUNDA's TensorTensorAdd/Mult/SubBf16 (0x8a/0x8b/0x8f): both sources BF16, op fixed by the
    opcode, computed in fp32 and rounded once (here to fp32, so exactly a op b)."""
    g = G("sunda")
    E = g.E
    rng = np.random.default_rng(5)
    a32 = (rng.standard_normal((P, 16)) * 8).astype(F32)
    b32 = (rng.standard_normal((P, 16)) * 8).astype(F32)
    a = (a32.view(np.uint32) >> 16).astype(np.uint16)  # truncated to bf16 bits
    b = (b32.view(np.uint32) >> 16).astype(np.uint16)
    af = (a.astype(np.uint32) << 16).view(F32)
    bf = (b.astype(np.uint32) << 16).view(F32)
    words, want = [], []
    for k, (opc, op, f) in enumerate([
        (E.Opcode.TENSOR_TENSOR_ADD_BF16, E.AluOp.ADD, np.add),
        (E.Opcode.TENSOR_TENSOR_MULT_BF16, E.AluOp.MULT, np.multiply),
        (E.Opcode.TENSOR_TENSOR_SUB_BF16, E.AluOp.SUBTRACT, np.subtract),
    ]):  # fmt: skip
        words.append(g.tt(opc, op, 16, 0, 0x40, 0x100 + 0x40 * k, E.Dtype.BFLOAT16, E.Dtype.FP32))
        want.append(f(af, bf))
    ex = _run(g, backend, words, {0: a, 0x40: b})
    for k, w in enumerate(want):
        np.testing.assert_array_equal(ex.read(0x100 + 0x40 * k, F32, (P, 16)), w)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("rev", [0, 1, 2, 3])
def test_scalar_tensor_tensor_reverse_forms(backend: str, rev: int) -> None:
    """nki.isa.scalar_tensor_tensor: (data op0 operand0) op1 operand1; reverse0 makes operand0
    the lhs of op0, reverse1 makes operand1 the lhs of op1. data = src0, operand0 = imm0 (an
    inline fp32, and per partition through a pointer), operand1 = src1."""
    g = G("mariana")
    E, S = g.E, g.S
    rng = np.random.default_rng(rev)
    data = rng.standard_normal((P, 32)).astype(F32)
    op1t = rng.standard_normal((P, 32)).astype(F32)
    col = rng.standard_normal((P, 1)).astype(F32)
    s = F32(1.5)
    inline = g.stt(E.Opcode.SCALAR_TENSOR_TENSOR_ARITH, 32, 0, 0x100, 0x200, E.AluOp.SUBTRACT,
                   E.AluOp.MULT, rev, S.ImmValInstField.of_imm_arith_fp32(1.5))  # fmt: skip
    ptr = g.stt(E.Opcode.SCALAR_TENSOR_TENSOR_ARITH, 32, 0, 0x100, 0x300, E.AluOp.SUBTRACT,
                E.AluOp.DIVIDE if False else E.AluOp.ADD, rev,
                S.ImmValInstField.of_imm_ptr(0x400), imm_src=E.ImmSrc.POINTER_IMMEDIATE)  # fmt: skip
    ex = _run(g, backend, [inline, ptr], {0: data, 0x100: op1t, 0x400: col})
    t = (s - data) if rev & 1 else (data - s)
    np.testing.assert_array_equal(
        ex.read(0x200, F32, (P, 32)), (op1t * t) if rev & 2 else (t * op1t)
    )
    t = (col - data) if rev & 1 else (data - col)
    np.testing.assert_array_equal(
        ex.read(0x300, F32, (P, 32)), (op1t + t) if rev & 2 else (t + op1t)
    )


def _scan_golden(a: np.ndarray, b: np.ndarray, initial: np.ndarray) -> np.ndarray:
    """AWS's test_nki_isa_tensor_tensor_scan golden loop, in fp32 step by step."""
    g = np.zeros(a.shape, F32)
    g[:, 0] = a[:, 0] * initial + b[:, 0]
    for i in range(1, a.shape[1]):
        g[:, i] = a[:, i] * g[:, i - 1] + b[:, i]
    return g


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("gen", ["sunda", "maverick"])
def test_tensor_tensor_scan_is_nkis_example(gen: str, backend: str) -> None:
    """nki.isa.tensor_tensor_scan's example: a (128, 1024) multiply/add scan in two 512-column
    instructions, the second seeded (initial = c[:, 511], a per-partition pointer immediate) from
    the first; AWS's golden: g[:, 0] = a[:, 0] * 0 + b[:, 0], g[:, i] = a[:, i] * g[:, i-1] +
    b[:, i]."""
    g = G(gen)
    E, S = g.E, g.S
    rng = np.random.default_rng(11)
    a = rng.random((P, 1024), dtype=F32)
    b = rng.random((P, 1024), dtype=F32)
    A, B, C = 0, 0x1000, 0x2000
    first = g.stt(E.Opcode.TENSOR_TENSOR_SCAN_ARITH, 512, A, B, C, E.AluOp.MULT, E.AluOp.ADD, 0,
                  S.ImmValInstField.of_imm_arith_fp32(0.0))  # fmt: skip
    second = g.stt(E.Opcode.TENSOR_TENSOR_SCAN_ARITH, 512, A + 2048, B + 2048, C + 2048,
                   E.AluOp.MULT, E.AluOp.ADD, 0, S.ImmValInstField.of_imm_ptr(C + 511 * 4),
                   imm_src=E.ImmSrc.POINTER_IMMEDIATE)  # fmt: skip
    ex = _run(g, backend, [first, second], {A: a, B: b})
    np.testing.assert_array_equal(ex.read(C, F32, (P, 1024)), _scan_golden(a, b, np.zeros(P, F32)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_tensor_tensor_scan_reverse_bits(backend: str) -> None:
    """NKI: reverse0 makes data0 the rhs of op0 (state op0 data0), reverse1 makes data1 the lhs
    of op1 (data1 op1 t): with subtract, out[i] = b[i] - (prev - a[i])."""
    g = G("cayman")
    E, S = g.E, g.S
    a = np.arange(P * 6, dtype=F32).reshape(P, 6) % 7
    b = np.full((P, 6), 2.0, F32)
    w = g.stt(E.Opcode.TENSOR_TENSOR_SCAN_ARITH, 6, 0, 0x40, 0x80, E.AluOp.SUBTRACT,
              E.AluOp.SUBTRACT, 3, S.ImmValInstField.of_imm_arith_fp32(10.0))  # fmt: skip
    ex = _run(g, backend, [w], {0: a, 0x40: b})
    want = np.zeros_like(a)
    prev = np.full(P, 10.0, F32)
    for i in range(6):
        prev = b[:, i] - (prev - a[:, i])
        want[:, i] = prev
    np.testing.assert_array_equal(ex.read(0x80, F32, (P, 6)), want)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("gen", ["sunda", "mariana"])
def test_tensor_reduce_add_is_nkis_example(gen: str, backend: str) -> None:
    """nki.isa.tensor_reduce's example and AWS's test: reduce add over axis [1] of a (128, 512)
    fp32 tile equals np.sum(a, axis=1, keepdims=True) (to a tolerance: the device's order of
    additions is not documented; the executor adds in element order, checked exactly)."""
    g = G(gen)
    E = g.E
    rng = np.random.default_rng(17)
    a = rng.random((P, 512), dtype=F32)
    w = g.tr(E.Opcode.TENSOR_REDUCE_ARITH_OP, E.AluOp.ADD, (512, 1, 1, 1), E.TensorSubdim.X, 0,
             0x1000, E.Dtype.FP32, 1)  # fmt: skip
    ex = _run(g, backend, [w], {0: a})
    got = ex.read(0x1000, F32, (P, 1))
    np.testing.assert_allclose(got, np.sum(a, axis=1, keepdims=True), rtol=1e-5)
    np.testing.assert_array_equal(got[:, 0], np.add.accumulate(a, axis=1, dtype=F32)[:, -1])


@pytest.mark.parametrize("backend", BACKENDS)
def test_tensor_reduce_axes_negate_and_bitvec(backend: str) -> None:
    """The documented axes: X folds dim 0, XY dims 0-1, XYZW all four (the reduced axes are the
    innermost, NKI's last free axes); negate multiplies an arith result by -1; max/min/mult; a
    bitvec and/or/xor folds the raw bits."""
    g = G("cayman")
    E = g.E
    x = np.arange(1, P * 24 + 1, dtype=F32).reshape(P, 24) / 8
    nums = (2, 3, 2, 2)
    cube = x.reshape(P, 2, 2, 3, 2)  # numpy order: W, Z, Y, X
    cases = [
        (E.AluOp.ADD, E.TensorSubdim.XY, 4, 1, -cube.reshape(P, 4, 6).sum(axis=2)),
        (E.AluOp.MAX, E.TensorSubdim.X, 12, 0, cube.max(axis=4).reshape(P, 12)),
        (E.AluOp.MIN, E.TensorSubdim.XYZW, 1, 0, x.min(axis=1, keepdims=True)),
        (E.AluOp.MULT, E.TensorSubdim.XYZ, 2, 0, np.prod(cube.reshape(P, 2, 12), axis=2)),
    ]
    words = [g.tr(E.Opcode.TENSOR_REDUCE_ARITH_OP, op, nums, dim, 0, 0x400 + 0x100 * k,
                  E.Dtype.FP32, n, neg) for k, (op, dim, n, neg, _) in enumerate(cases)]  # fmt: skip
    ex = _run(g, backend, words, {0: x})
    for k, (_, _, n, _, want) in enumerate(cases):
        np.testing.assert_allclose(ex.read(0x400 + 0x100 * k, F32, (P, n)), want, rtol=1e-6)
    bits = np.arange(P * 8, dtype=np.uint32).reshape(P, 8) * np.uint32(0x9E3779B1)
    bw = [g.tr(E.Opcode.TENSOR_REDUCE_BITVEC_OP, op, (8, 1, 1, 1), E.TensorSubdim.X, 0x1000,
               0x1100 + 0x40 * k, E.Dtype.UINT32, 1)
          for k, op in enumerate([E.AluOp.BITWISE_AND, E.AluOp.BITWISE_OR, E.AluOp.BITWISE_XOR])]  # fmt: skip
    ex = _run(g, backend, bw, {0x1000: bits})
    for k, f in enumerate([np.bitwise_and, np.bitwise_or, np.bitwise_xor]):
        np.testing.assert_array_equal(ex.read(0x1100 + 0x40 * k, np.uint32, (P, 1))[:, 0],
                                      f.reduce(bits, axis=1))  # fmt: skip


@pytest.mark.parametrize("backend", BACKENDS)
def test_sunda_bf16_reduces(backend: str) -> None:
    """SUNDA's TensorReduceAdd/MaxBf16 (0x8c/0x8d): a BF16 source, add / max, fp32 result."""
    g = G("sunda")
    E = g.E
    v = (np.arange(P * 16, dtype=F32).reshape(P, 16) % 13) - 6
    bf = (v.view(np.uint32) >> 16).astype(np.uint16)  # small integers: exact in bf16
    words = [
        g.tr(E.Opcode.TENSOR_REDUCE_ADD_BF16, E.AluOp.ADD, (16, 1, 1, 1), E.TensorSubdim.X, 0,
             0x100, E.Dtype.BFLOAT16, 1),
        g.tr(E.Opcode.TENSOR_REDUCE_MAX_BF16, E.AluOp.MAX, (16, 1, 1, 1), E.TensorSubdim.X, 0,
             0x140, E.Dtype.BFLOAT16, 1),
    ]  # fmt: skip
    ex = _run(g, backend, words, {0: bf})
    f = lambda addr: (ex.read(addr, np.uint16, (P, 1)).astype(np.uint32) << 16).view(F32)  # noqa: E731
    np.testing.assert_array_equal(f(0x100)[:, 0], v.sum(axis=1))
    np.testing.assert_array_equal(f(0x140)[:, 0], v.max(axis=1))


def _wide(g: G, op: int, in0: int, in1: int, out0: int, out1: int) -> bytes:
    S = g.S

    def m2(x: int) -> Any:
        return S.MemPattern2D.of_t(S.Tensor2D(g.addr(x), (1, 8), (8, 1)))

    return g.word(S.S2S2D2D2_TT(header=g.hdr(g.E.Opcode.TENSOR_TENSOR_INT_WIDE),
                                in0_in1_dtype=g.pair(in0, in1), out0_out1_dtype=g.pair(out0, out1),
                                op=op, num_active_channels=P, src0_mem_pattern=m2(0),
                                src1_mem_pattern=m2(0x100), dst0_mem_pattern=m2(0x200),
                                dst1_mem_pattern=m2(0x300)))  # fmt: skip


@pytest.mark.parametrize("backend", BACKENDS)
def test_int_wide_splits_the_64_bit_result(backend: str) -> None:
    """MAVERICK's TensorTensorIntWide (0xf3), the header banner: dst0 gets bits 31..0, dst1 bits
    63..32: the carry of an unsigned add, the borrow of a subtract, the high half of a product
    (signed MultInt, unsigned MultUint), the bits a left shift moves out."""
    g = G("maverick")
    E, D = g.E, g.E.Dtype
    rng = np.random.default_rng(23)
    a = rng.integers(0, 2**32, (P, 8), dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2**32, (P, 8), dtype=np.uint64).astype(np.uint32)
    sh = (b % 32).astype(np.uint32)
    A, B = a.astype(np.int64), b.astype(np.int64)
    sa, sb = a.view(np.int32).astype(np.int64), b.view(np.int32).astype(np.int64)
    cases = [
        (E.AluOp.ADD_INT, D.UINT32, D.UINT32, D.UINT32, b, A + B),
        (E.AluOp.SUBTRACT_INT, D.UINT32, D.UINT32, D.UINT32, b, A - B),
        (E.AluOp.MULT_INT, D.INT32, D.INT32, D.INT32, b, sa * sb),
        (E.AluOp.MULT_UINT, D.UINT32, D.UINT32, D.UINT32, b, None),
        (E.AluOp.LOGICAL_SHIFT_LEFT, D.UINT32, D.UINT32, D.UINT32, sh, A << sh.astype(np.int64)),
    ]
    for op, src, cnt, hi_t, second, want in cases:
        ex = _run(g, backend, [_wide(g, op, src, cnt, D.UINT32, hi_t)], {0: a, 0x100: second})
        r = (a.astype(np.uint64) * b.astype(np.uint64)) if want is None else want.astype(np.uint64)
        np.testing.assert_array_equal(
            ex.read(0x200, np.uint32, (P, 8)), (r & 0xFFFFFFFF).astype(np.uint32)
        )
        np.testing.assert_array_equal(
            ex.read(0x300, np.uint32, (P, 8)), (r >> 32).astype(np.uint32)
        )


def _wide_at(g: G, op: int, src0: int, src1: int, dst0: int, dst1: int) -> bytes:
    """An all-UINT32 TensorTensorIntWide word, 8 elements a partition, at these offsets."""
    S, D = g.S, g.E.Dtype

    def m2(x: int) -> Any:
        return S.MemPattern2D.of_t(S.Tensor2D(g.addr(x), (1, 8), (8, 1)))

    u32 = g.pair(D.UINT32, D.UINT32)
    return g.word(S.S2S2D2D2_TT(header=g.hdr(g.E.Opcode.TENSOR_TENSOR_INT_WIDE),
                                in0_in1_dtype=u32, out0_out1_dtype=u32, op=op,
                                num_active_channels=P, src0_mem_pattern=m2(src0),
                                src1_mem_pattern=m2(src1), dst0_mem_pattern=m2(dst0),
                                dst1_mem_pattern=m2(dst1)))  # fmt: skip


@pytest.mark.parametrize("backend", BACKENDS)
def test_int_wide_aliased_outputs_are_written_in_order(backend: str) -> None:
    """TensorTensorIntWide's outputs may overlap each other and its sources: both results come
    from the sources as they were before the instruction, then dst0 is written, then dst1 (its
    bytes are what an overlap holds). Here dst0 is src0 and dst1 starts one element on (so
    src0's first word ends as lo[0], the next eight as hi), and dst0 is src1, dst1 src0."""
    g = G("maverick")
    Op = g.E.AluOp
    rng = np.random.default_rng(29)
    a = rng.integers(0, 2**32, (P, 8), dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2**32, (P, 8), dtype=np.uint64).astype(np.uint32)
    tail = rng.integers(0, 2**32, (P, 1), dtype=np.uint64).astype(np.uint32)
    r = a.astype(np.uint64) + b.astype(np.uint64)
    lo, hi = (r & 0xFFFFFFFF).astype(np.uint32), (r >> 32).astype(np.uint32)
    ex = _run(g, backend, [_wide_at(g, Op.ADD_INT, 0, 0x100, 0, 4)],
              {0: np.hstack([a, tail]), 0x100: b})  # fmt: skip
    np.testing.assert_array_equal(ex.read(0, np.uint32, (P, 9)), np.hstack([lo[:, :1], hi]))
    np.testing.assert_array_equal(ex.read(0x100, np.uint32, (P, 8)), b)
    m = a.astype(np.uint64) * b.astype(np.uint64)
    ex = _run(g, backend, [_wide_at(g, Op.MULT_UINT, 0, 0x100, 0x100, 0)], {0: a, 0x100: b})
    np.testing.assert_array_equal(
        ex.read(0x100, np.uint32, (P, 8)), (m & 0xFFFFFFFF).astype(np.uint32)
    )
    np.testing.assert_array_equal(ex.read(0, np.uint32, (P, 8)), (m >> 32).astype(np.uint32))


@pytest.mark.parametrize(
    ("gen", "build", "why"),
    [
        ("cayman", lambda g: g.tr(g.E.Opcode.TRANSPOSE_TENSOR_REDUCE_ARITH_OP, g.E.AluOp.ADD,
                                  (32, 1, 1, 1), g.E.TensorSubdim.X, 0, 0x400, g.E.Dtype.FP32, 1),
         "transpose"),
        ("cayman", lambda g: g.tr(g.E.Opcode.TENSOR_REDUCE_ARITH_OP, g.E.AluOp.SUBTRACT,
                                  (8, 1, 1, 1), g.E.TensorSubdim.X, 0, 0x400, g.E.Dtype.FP32, 1),
         "documented fold"),
        ("cayman", lambda g: g.tt(g.E.Opcode.TENSOR_TENSOR_ARITH_OP, g.E.AluOp.POW, 8, 0, 0x40,
                                  0x80, g.E.Dtype.FP32, g.E.Dtype.FP32), "POW"),
        ("mariana", lambda g: g.stt(g.E.Opcode.SCALAR_TENSOR_TENSOR_ARITH, 8, 0, 0x40, 0x80,
                                    g.E.AluOp.ADD, g.E.AluOp.ADD, 0,
                                    g.S.ImmValInstField.of_imm_arith_fp32(1.0), accum=3), "C16"),
        ("maverick", lambda g: _wide(g, g.E.AluOp.LOGICAL_SHIFT_RIGHT, g.E.Dtype.UINT32,
                                     g.E.Dtype.UINT32, g.E.Dtype.UINT32, g.E.Dtype.UINT32), "Q5"),
        ("maverick", lambda g: _wide(g, g.E.AluOp.ADD_INT, g.E.Dtype.UINT32, g.E.Dtype.UINT32,
                                     g.E.Dtype.UINT32, g.E.Dtype.UINT16), "narrower"),
    ],
)  # fmt: skip
def test_what_the_facts_do_not_pin_is_refused(gen: str, build: Any, why: str) -> None:
    """Valid words whose semantics the shelf leaves open raise UnsupportedError saying why, and
    change nothing."""
    g = G(gen)
    ex = g.mod.Executor(backend="numpy")
    ex.write(0, np.ones((P, 64), F32))
    before = ex.sbuf.tobytes()
    with pytest.raises(errors.UnsupportedError, match=why):
        ex.run(build(g))
    assert ex.sbuf.tobytes() == before
