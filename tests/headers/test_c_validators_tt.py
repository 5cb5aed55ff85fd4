"""The C validators of the tensor-tensor, scalar-tensor-tensor, tensor-tensor-scan, int-wide and
tensor-reduce families (tt-stt-facts.md §3, §5, §7, §8, §9), compiled and called on documented
cases: accepted words, then one rejected word per term the shelf documents.

Words are built by tests/headers/tpb_words.py from the documented offsets, not by tpbgen."""

from __future__ import annotations

import pytest

from . import tpb_words as w
from .test_c_validators import CLib, lib  # noqa: F401  (the compiled-library fixture)

CM = ("mariana", "maverick")


def _only(gens: tuple[str, ...], gen: str) -> None:
    if gen not in gens:
        pytest.skip(f"not applicable on {gen}")


def test_new_validators_exist_per_gen(lib: CLib) -> None:  # noqa: F811
    for name in (
        "is_valid_s3s3d3_tt",
        "is_valid_scalar_tensor_tensor",
        "is_valid_tensor_tensor_scan",
        "is_valid_tensor_reduce",
    ):
        assert lib.has(name), name
    assert lib.has("is_valid_tensor_tensor_bf16") == (lib.gen == "sunda")
    assert lib.has("is_valid_tensor_reduce_bf16") == (lib.gen == "sunda")
    assert lib.has("is_valid_tensor_tensor_int_wide") == (lib.gen == "maverick")


# ---------------------------------------------------------------- TensorTensor 0x41 / 0x51 (+ users)


def test_tensor_tensor_accepts(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_s3s3d3_tt"
    assert lib(v, w.s3s3d3_tt())
    assert lib(v, w.s3s3d3_tt(op=w.POW))  # Pow comes back in on the arith opcode
    assert lib(v, w.s3s3d3_tt(lo=w.BF16, hi=w.FP16, out_dtype=w.FP32R))
    # only the element-count products must match
    assert lib(v, w.s3s3d3_tt(src1_nums=(32, 2, 1), dst_nums=(16, 2, 2)))
    bv = {"lo": w.INT32, "hi": w.INT32, "out_dtype": w.INT32, "op": w.BITWISE_XOR}
    assert lib(v, w.s3s3d3_tt(w.TT_BITVEC, **bv))  # type: ignore[arg-type]
    # a PSUM source beside an SBUF one (MAVERICK has no PSUM range)
    if lib.gen != "maverick":
        assert lib(v, w.s3s3d3_tt(src1_addr=w.PSUM_BASE))
    # the Bypass-only users of the struct
    assert lib(v, w.s3s3d3_tt(w.COPY_PREDICATED, op=w.BYPASS, lo=w.UINT8))
    assert lib(v, w.s3s3d3_tt(w.CAST_PREDICATED, op=w.BYPASS, lo=w.INT16, hi=w.BF16))
    assert lib(v, w.s3s3d3_tt(w.BN_BACK_PROP, op=w.BYPASS, out_dtype=w.FP32R))


@pytest.mark.parametrize(
    ("why", "kwargs"),
    [
        ("Divide is not a tensor-tensor arith op", {"op": w.DIVIDE}),
        ("Rsqrt is not a tensor-tensor arith op", {"op": w.RSQRT}),
        ("bitvec op on the arith opcode", {"op": w.BITWISE_XOR}),
        ("op not an AluOp", {"op": 0x80}),
        ("src0 FP32R", {"lo": w.FP32R}),
        ("src1 INVALID", {"hi": w.INVALID}),
        ("no active channel", {"n": 0}),
        ("129 channels", {"n": 129}),
        ("element-count products differ (src1)", {"src1_nums": (63, 1, 1)}),
        ("element-count products differ (dst)", {"dst_nums": (65, 1, 1)}),
        ("two sources in different SBUF quadrants", {"src1_addr": "quadrant1", "n": 32}),
        ("misaligned fp32 dst", {"dst_addr": 0x2002}),
        (
            "signed int op on unsigned dtypes",
            {"op": w.ADD_INT, "lo": w.UINT32, "hi": w.INT32, "out_dtype": w.INT32},
        ),
    ],
)
def test_tensor_tensor_rejects(lib: CLib, why: str, kwargs: dict[str, object]) -> None:  # noqa: F811
    if kwargs.get("src1_addr") == "quadrant1":
        kwargs = dict(kwargs, src1_addr=32 * w.SBUF_PARTITION_SIZE[lib.gen])
    assert not lib("is_valid_s3s3d3_tt", w.s3s3d3_tt(**kwargs)), why  # type: ignore[arg-type]


def test_tensor_tensor_two_psum_sources(lib: CLib) -> None:  # noqa: F811
    _only(("sunda", "cayman", "mariana"), lib.gen)
    assert not lib(
        "is_valid_s3s3d3_tt", w.s3s3d3_tt(src0_addr=w.PSUM_BASE, src1_addr=w.PSUM_BASE + 0x100)
    )


def test_tensor_tensor_int_ops_and_64_bit(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_s3s3d3_tt"
    ints = {"lo": w.INT32, "hi": w.INT32, "out_dtype": w.INT32}
    assert lib(v, w.s3s3d3_tt(op=w.ADD_INT, **ints))  # type: ignore[arg-type]
    # MultUint needs unsigned dtypes; it does not exist on SUNDA
    uints = {"lo": w.UINT32, "hi": w.UINT32, "out_dtype": w.UINT32}
    assert lib(v, w.s3s3d3_tt(op=w.MULT_UINT, **uints)) == (lib.gen != "sunda")  # type: ignore[arg-type]
    assert not lib(v, w.s3s3d3_tt(op=w.MULT_UINT, **ints))  # type: ignore[arg-type]
    # 64-bit integers from NC-v3 on (is_valid_dtype_64), rejected on SUNDA (plain is_valid_dtype)
    i64 = {"lo": w.INT64, "hi": w.INT64, "out_dtype": w.INT64}
    aligned = {"src1_addr": 0x1000, "dst_addr": 0x2000}
    assert lib(v, w.s3s3d3_tt(op=w.ADD_INT, **i64, **aligned)) == (lib.gen != "sunda")  # type: ignore[arg-type]
    # the 64-bit shift arm: value INT64, count UINT32, bitvec opcode (absent on SUNDA)
    shift = w.s3s3d3_tt(w.TT_BITVEC, op=w.LSL, lo=w.INT64, hi=w.UINT32, out_dtype=w.INT64)
    assert lib(v, shift) == (lib.gen != "sunda")
    # bitvec: identity dtypes otherwise, integer output only
    assert not lib(
        v, w.s3s3d3_tt(w.TT_BITVEC, op=w.LSL, lo=w.INT32, hi=w.UINT32, out_dtype=w.INT32)
    )
    assert not lib(v, w.s3s3d3_tt(w.TT_BITVEC, op=w.BITWISE_XOR))  # fp32 output


def test_tensor_tensor_bypass_users(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_s3s3d3_tt"
    assert not lib(v, w.s3s3d3_tt(w.COPY_PREDICATED, op=w.ADD, lo=w.UINT8))  # op must be Bypass
    assert not lib(
        v, w.s3s3d3_tt(w.COPY_PREDICATED, op=w.BYPASS, lo=w.UINT8, hi=w.BF16)
    )  # copy keeps the type
    assert not lib(v, w.s3s3d3_tt(w.CAST_PREDICATED, op=w.BYPASS, lo=w.UINT8, out_dtype=w.FP32R))
    assert not lib(v, w.s3s3d3_tt(w.BN_BACK_PROP, op=w.BYPASS, lo=w.INT64, hi=w.INT64))


def test_tensor_tensor_bf16_sunda(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_s3s3d3_tt"
    even = (1, 2, 2)
    base = {"lo": w.BF16, "hi": w.BF16, "out_dtype": w.FP32, "src0_steps": even, "src1_steps": even}
    for opcode, op in (
        (w.TT_ADD_BF16, w.ADD),
        (w.TT_MULT_BF16, w.MULT),
        (w.TT_SUB_BF16, w.SUBTRACT),
    ):
        word = w.s3s3d3_tt(opcode, op=op, **base)  # type: ignore[arg-type]
        assert lib(v, word) == (lib.gen == "sunda"), hex(opcode)
    if lib.gen != "sunda":
        return
    assert lib(v, w.s3s3d3_tt(w.TT_ADD_BF16, op=w.ADD, **dict(base, out_dtype=w.FP32R)))  # type: ignore[arg-type]
    assert not lib(v, w.s3s3d3_tt(w.TT_ADD_BF16, op=w.MULT, **base))  # type: ignore[arg-type]
    assert not lib(v, w.s3s3d3_tt(w.TT_ADD_BF16, op=w.ADD, **dict(base, lo=w.FP16)))  # type: ignore[arg-type]
    assert not lib(
        v,
        w.s3s3d3_tt(
            w.TT_ADD_BF16,
            op=w.ADD,
            src0_nums=(63, 1, 1),
            src1_nums=(63, 1, 1),
            dst_nums=(63, 1, 1),
            **base,
        ),
    )  # type: ignore[arg-type]
    assert not lib(v, w.s3s3d3_tt(w.TT_ADD_BF16, op=w.ADD, **dict(base, src1_steps=(2, 2, 2))))  # type: ignore[arg-type]
    assert not lib(v, w.s3s3d3_tt(w.TT_ADD_BF16, op=w.ADD, **dict(base, src0_steps=(1, 3, 2))))  # type: ignore[arg-type]
    assert not lib(v, w.s3s3d3_tt(w.TT_ADD_BF16, op=w.ADD, src0_addr=0x2, **base))  # type: ignore[arg-type]


# ---------------------------------------------------------------- ScalarTensorTensor 0x9d / 0x9e


def test_scalar_tensor_tensor(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_scalar_tensor_tensor"
    assert lib(v, w.s2s2d2_stt())
    assert lib(v, w.s2s2d2_stt(op0=w.BYPASS, rev=w.BOTH, accum=w.ZERO_ACCUMULATE))
    assert lib(v, w.s2s2d2_stt(imm0_src=w.PTR_IMM, imm0=0x100, imm0_dtype=w.BF16))
    bv = {"lo": w.INT32, "hi": w.INT32, "out_dtype": w.INT32, "imm0_dtype": w.INT32}
    assert lib(v, w.s2s2d2_stt(w.STT_BITVEC, op0=w.BITWISE_AND, op1=w.BITWISE_XOR, imm0=0xFF, **bv))  # type: ignore[arg-type]
    rejects = [
        ("Divide", {"op0": w.DIVIDE}),
        ("bitvec op1 on arith", {"op1": w.BITWISE_AND}),
        ("accumulator Zero", {"accum": w.ZERO}),
        ("accumulator LoadAccumulate", {"accum": w.LOAD_ACCUMULATE}),
        ("inline bf16 scalar", {"imm0_dtype": w.BF16}),
        ("reserved byte", {"reserved": (0, 0, 1)}),
        ("reverse_operands 4", {"rev": 4}),
        ("imm0_src 3", {"imm0_src": 3}),
        ("element count differs", {"src1_nums": (32, 3)}),
        ("dst outside src0's SBUF quadrant", {"dst_addr": "quadrant1", "n": 32}),
    ]
    for why, kw in rejects:
        if kw.get("dst_addr") == "quadrant1":
            kw = dict(kw, dst_addr=32 * w.SBUF_PARTITION_SIZE[lib.gen])
        assert not lib(v, w.s2s2d2_stt(**kw)), why  # type: ignore[arg-type]
    # bitvec: int datapath and identity dtypes, no accumulation
    assert not lib(
        v,
        w.s2s2d2_stt(
            w.STT_BITVEC,
            op0=w.BITWISE_AND,
            op1=w.BITWISE_XOR,
            imm0=1,
            **dict(bv, out_dtype=w.UINT32),
        ),
    )  # type: ignore[arg-type]
    assert not lib(
        v,
        w.s2s2d2_stt(
            w.STT_BITVEC, op0=w.BITWISE_AND, op1=w.BITWISE_XOR, imm0=1, accum=w.ACCUMULATE, **bv
        ),
    )  # type: ignore[arg-type]
    assert not lib(
        v, w.s2s2d2_stt(w.STT_BITVEC, op0=w.BITWISE_AND, op1=w.BITWISE_XOR, imm0=1)
    )  # fp32


# ---------------------------------------------------------------- TensorTensorScan 0xe5


def test_tensor_tensor_scan(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_tensor_tensor_scan"
    assert lib(v, w.s2s2d2_stt(w.TT_SCAN, imm0=0.0))
    assert lib(v, w.s2s2d2_stt(w.TT_SCAN, imm0_src=w.PTR_IMM, imm0=0x100, rev=w.FIRST))
    assert not lib(v, w.s2s2d2_stt())  # the STT opcode is not the scan's
    assert not lib("is_valid_scalar_tensor_tensor", w.s2s2d2_stt(w.TT_SCAN))
    assert not lib(v, w.s2s2d2_stt(w.TT_SCAN, accum=w.ACCUMULATE))  # accumulator forced idle
    assert not lib(v, w.s2s2d2_stt(w.TT_SCAN, op0=w.BITWISE_AND))
    assert not lib(v, w.s2s2d2_stt(w.TT_SCAN, lo=w.INT64, hi=w.INT64, out_dtype=w.INT64))  # C9
    # no quadrant-erratum term in the scan body
    q1 = 32 * w.SBUF_PARTITION_SIZE[lib.gen]
    assert lib(v, w.s2s2d2_stt(w.TT_SCAN, dst_addr=q1, n=32))


# ---------------------------------------------------------------- TensorTensorIntWide 0xf3 (MAVERICK)


def test_tensor_tensor_int_wide(lib: CLib) -> None:  # noqa: F811
    _only(("maverick",), lib.gen)
    v = "is_valid_tensor_tensor_int_wide"
    assert lib(v, w.s2s2d2d2_tt())
    assert lib(v, w.s2s2d2d2_tt(op=w.MULT_INT, lo=w.INT32, hi=w.INT32, out0=w.UINT32, out1=w.INT32))
    assert lib(v, w.s2s2d2d2_tt(op=w.LSL, lo=w.INT16, hi=w.UINT8, out0=w.INT16, out1=w.INT16))
    assert lib(v, w.s2s2d2d2_tt(n=64, inst_flags=1))
    rejects = [
        ("signed add", {"lo": w.INT32, "hi": w.INT32, "out1": w.INT32}),
        ("signed MultUint", {"op": w.MULT_UINT, "lo": w.INT32, "hi": w.INT32}),
        ("Divide not an int-wide op", {"op": w.DIVIDE}),
        ("signed shift count", {"op": w.LSL, "hi": w.INT32}),
        ("16-bit low destination", {"out0": w.UINT16}),
        ("high destination signedness", {"out1": w.INT32}),
        ("64-bit dtype", {"lo": w.UINT64}),
        ("PSUM", {"addrs": (w.PSUM_BASE, 0x1000, 0x2000, 0x3000)}),
        (
            "indirect pattern",
            {"addrs": (w.marker_addr(w.MARKER_INDIRECT_IMM, 0x0), 0x1000, 0x2000, 0x3000)},
        ),
        ("element counts", {"nums": ((32, 2), (32, 2), (32, 2), (32, 1))}),
        ("half tile over 64 channels", {"inst_flags": 1}),
    ]
    for why, kw in rejects:
        assert not lib(v, w.s2s2d2d2_tt(**kw)), why  # type: ignore[arg-type]


# ---------------------------------------------------------------- TensorReduce 0x42 / 0x52 / 0x83 / 0x84


def test_tensor_reduce(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_tensor_reduce"
    assert lib(v, w.s4d4_tr())
    assert lib(v, w.s4d4_tr(negated=1, op=w.MAX))
    assert lib(v, w.s4d4_tr(op_dim=w.SUBDIM_XYZW, dst_nums=(1, 1, 1, 1)))
    assert lib(v, w.s4d4_tr(op_dim=w.SUBDIM_XY, dst_nums=(1, 1, 1, 1)))
    bv = {"in_dtype": w.UINT32, "out_dtype": w.UINT32, "op": w.BITWISE_XOR}
    assert lib(v, w.s4d4_tr(w.TR_BITVEC, **bv))  # type: ignore[arg-type]
    assert lib(v, w.s4d4_tr(w.TR_T_ARITH, n=32))  # 32 x 32 blocks
    rejects = [
        ("negated 2", {"negated": 2}),
        ("op_dim UNUSED", {"op_dim": w.SUBDIM_UNUSED}),
        ("op_dim 1", {"op_dim": 1}),
        ("dst count does not match the fold", {"dst_nums": (4, 1, 1, 1)}),
        ("mask_enable", {"mask_enable": 1}),
        ("reserved1", {"reserved1": (0, 0, 0, 0, 1)}),
        ("Divide", {"op": w.DIVIDE}),
        ("bitvec op on arith", {"op": w.BITWISE_XOR}),
        ("FP32R input", {"in_dtype": w.FP32R}),
        ("no channel", {"n": 0}),
    ]
    for why, kw in rejects:
        assert not lib(v, w.s4d4_tr(**kw)), why  # type: ignore[arg-type]
    assert not lib(v, w.s4d4_tr(w.TR_BITVEC, negated=1, **bv))  # type: ignore[arg-type]
    assert not lib(v, w.s4d4_tr(w.TR_BITVEC, **dict(bv, out_dtype=w.INT32)))  # type: ignore[arg-type]
    assert not lib(v, w.s4d4_tr(w.TR_BITVEC, **dict(bv, op=w.LSR)))  # type: ignore[arg-type]
    assert not lib(v, w.s4d4_tr(w.TR_T_ARITH, n=100))
    # 64-bit integer reduce from NC-v3 on (C11 resolution)
    i64 = {"in_dtype": w.INT64, "out_dtype": w.INT64, "op": w.ADD_INT}
    assert lib(v, w.s4d4_tr(**i64)) == (lib.gen != "sunda")  # type: ignore[arg-type]


def test_tensor_reduce_bf16_sunda(lib: CLib) -> None:  # noqa: F811
    _only(("sunda",), lib.gen)
    v = "is_valid_tensor_reduce_bf16"
    assert lib(v, w.s4d4_tr(w.TR_ADD_BF16, in_dtype=w.BF16))
    assert lib(v, w.s4d4_tr(w.TR_MAX_BF16, in_dtype=w.BF16, op=w.MAX, negated=1))
    assert not lib(v, w.s4d4_tr(w.TR_MAX_BF16, in_dtype=w.BF16, op=w.ADD))
    assert not lib(v, w.s4d4_tr(w.TR_ADD_BF16, in_dtype=w.FP16))
    assert not lib(v, w.s4d4_tr(w.TR_ADD_BF16, in_dtype=w.BF16, src_addr=0x2))
    assert not lib(
        v, w.s4d4_tr(w.TR_ADD_BF16, in_dtype=w.BF16, src_nums=(63, 2, 1, 1), dst_nums=(2, 1, 1, 1))
    )
    assert not lib("is_valid_tensor_reduce", w.s4d4_tr(w.TR_ADD_BF16, in_dtype=w.BF16))
