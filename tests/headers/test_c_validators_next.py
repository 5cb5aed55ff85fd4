"""The C validators of the next families (next-families-facts.md §2-§7), compiled and called on
the words the digest describes (the shapes of AWS's NKI golden tests where it names them): each
accepted, then one rejected word per term the digest documents.

Words are built by tests/headers/tpb_words.py from the documented offsets, not by tpbgen."""

from __future__ import annotations

from . import tpb_words as w
from .test_c_validators import CLib, lib  # noqa: F401  (the compiled-library fixture)

MV = ("mariana", "maverick")


# ---------------------------------------------------------------- S4D4_TR: Copy, Cast, Reciprocal


def test_s4d4_tr_users_exist_per_gen(lib: CLib) -> None:  # noqa: F811
    for name in (
        "is_valid_copy",
        "is_valid_cast",
        "is_valid_reciprocal",
        "is_valid_tensor_cumulative",
    ):
        assert lib.has(name), name


def test_copy(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_copy"
    # test_nki_isa_tensor_copy.py: an fp32 [8, 8] tile copied as it is
    assert lib(v, w.s4d4_tr_move())
    assert lib(v, w.s4d4_tr_move(op_dim=w.SUBDIM_UNUSED))  # UNUSED or X
    # "optional reshape": only the totals are compared
    assert lib(v, w.s4d4_tr_move(src_nums=(4, 2, 1, 1), src_steps=(1, 4, 8, 8)))
    assert lib(v, w.s4d4_tr_move(n=128))  # 1..128 channels, no multiple-of-32 rule
    assert lib(v, w.s4d4_tr_move(in_dtype=w.INT8, out_dtype=w.INT8))
    if lib.gen != "maverick":  # MAVERICK has no PSUM range in this drop
        assert lib(v, w.s4d4_tr_move(dst_addr=w.PSUM_BASE))  # PSUM allowed both sides
    rejects = [
        ("dtypes differ (that is Cast)", {"out_dtype": w.BF16}),
        ("op not Bypass", {"op": w.ADD}),
        ("op_dim XY", {"op_dim": w.SUBDIM_XY}),
        ("negated", {"negated": 1}),
        ("mask_enable", {"mask_enable": 1}),
        ("reserved1", {"reserved1": (1, 0, 0, 0, 0)}),
        ("FP32R input", {"in_dtype": w.FP32R, "out_dtype": w.FP32R}),
        ("64-bit dtype", {"in_dtype": w.INT64, "out_dtype": w.INT64}),
        ("no channel", {"n": 0}),
        ("129 channels", {"n": 129}),
        ("element counts differ", {"dst_nums": (9, 1, 1, 1)}),
    ]
    for why, kw in rejects:
        assert not lib(v, w.s4d4_tr_move(**kw)), why  # type: ignore[arg-type]
    assert not lib(v, w.s4d4_tr_move(w.CAST))  # the other opcode


def test_cast(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_cast"
    assert lib(v, w.s4d4_tr_move(w.CAST, out_dtype=w.BF16))
    assert lib(v, w.s4d4_tr_move(w.CAST, in_dtype=w.INT32, out_dtype=w.FP32R))  # FP32R out only
    assert lib(v, w.s4d4_tr_move(w.CAST))  # equal dtypes are allowed too
    rejects = [
        ("FP32R input", {"in_dtype": w.FP32R}),
        ("op not Bypass", {"op": w.MULT}),
        ("element counts differ", {"dst_nums": (7, 1, 1, 1)}),
        ("misaligned fp32 destination", {"dst_addr": 0x1002}),
    ]
    for why, kw in rejects:
        assert not lib(v, w.s4d4_tr_move(w.CAST, **kw)), why  # type: ignore[arg-type]


def test_reciprocal(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_reciprocal"
    # test_nki_isa_reciprocal.py: fp32 [128, 512]
    big = {"n": 128, "src_nums": (512, 1, 1, 1), "dst_nums": (512, 1, 1, 1)}
    assert lib(v, w.s4d4_tr_move(w.RECIPROCAL, **big))  # type: ignore[arg-type]
    assert lib(v, w.s4d4_tr_move(w.RECIPROCAL, out_dtype=w.BF16))  # the output may convert
    rejects = [
        ("op not Bypass", {"op": w.DIVIDE}),
        ("op_dim XYZW", {"op_dim": w.SUBDIM_XYZW}),
        ("negated", {"negated": 1}),
        ("element counts differ", {"dst_nums": (4, 1, 1, 1)}),
        ("FP32R input", {"in_dtype": w.FP32R}),
    ]
    for why, kw in rejects:
        assert not lib(v, w.s4d4_tr_move(w.RECIPROCAL, **kw)), why  # type: ignore[arg-type]


def test_channel_tile_rule_maverick(lib: CLib) -> None:  # noqa: F811
    # the half-tile bit of inst_flags holds every S4D4_TR user to 64 channels on MAVERICK (C2)
    for opcode, v in ((w.COPY, "is_valid_copy"), (w.RECIPROCAL, "is_valid_reciprocal")):
        assert lib(v, w.s4d4_tr_move(opcode, n=64, inst_flags=1))
        assert lib(v, w.s4d4_tr_move(opcode, n=96, inst_flags=1)) == (lib.gen != "maverick")


# ---------------------------------------------------------------- S4D4_TR: TensorCumulative


def test_tensor_cumulative(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_tensor_cumulative"
    arith = {"op": w.ADD}
    assert lib(v, w.s4d4_tr_move(w.CUMULATIVE_ARITH, **arith))  # type: ignore[arg-type]
    for dim in (w.SUBDIM_X, w.SUBDIM_XY, w.SUBDIM_XYZ, w.SUBDIM_XYZW):
        assert lib(v, w.s4d4_tr_move(w.CUMULATIVE_ARITH, op_dim=dim, **arith)), dim  # type: ignore[arg-type]
    assert lib(v, w.s4d4_tr_move(w.CUMULATIVE_ARITH, op=w.RSQRT))  # the arith set includes Rsqrt
    bv = {"in_dtype": w.UINT32, "out_dtype": w.UINT32, "op": w.BITWISE_XOR}
    assert lib(v, w.s4d4_tr_move(w.CUMULATIVE_BITVEC, **bv))  # type: ignore[arg-type]
    lsr = dict(bv, op=w.LOGICAL_SHIFT_RIGHT)
    assert not lib(v, w.s4d4_tr_move(w.CUMULATIVE_BITVEC, **lsr))  # type: ignore[arg-type]
    lsr_i32 = dict(lsr, in_dtype=w.INT32, out_dtype=w.INT32)
    assert lib(v, w.s4d4_tr_move(w.CUMULATIVE_BITVEC, **lsr_i32))  # type: ignore[arg-type]
    rejects = [
        ("Divide", {"op": w.DIVIDE}),
        ("Pow", {"op": w.POW}),
        ("Mod", {"op": w.MOD}),
        ("bitvec op on the arith opcode", {"op": w.BITWISE_XOR}),
        ("op_dim UNUSED", {"op_dim": w.SUBDIM_UNUSED}),
        ("negated", {"negated": 1}),
        ("one output per input", {"dst_nums": (4, 1, 1, 1)}),
        ("64-bit dtype", {"in_dtype": w.INT64, "out_dtype": w.INT64}),
    ]
    for why, kw in rejects:
        kw = dict(arith, **kw)
        assert not lib(v, w.s4d4_tr_move(w.CUMULATIVE_ARITH, **kw)), why  # type: ignore[arg-type]
    bv_rejects = [
        ("arith op on the bitvec opcode", {"op": w.ADD}),
        ("dtypes differ", {"out_dtype": w.INT32}),
        ("float dtype", {"in_dtype": w.FP32, "out_dtype": w.FP32}),
        ("INT16 not in the bitvec set", {"in_dtype": w.INT16, "out_dtype": w.INT16}),
    ]
    for why, kw in bv_rejects:
        kw = dict(bv, **kw)
        assert not lib(v, w.s4d4_tr_move(w.CUMULATIVE_BITVEC, **kw)), why  # type: ignore[arg-type]


# ---------------------------------------------------------------- CopyPredicated / CastPredicated


def test_copy_cast_predicated_predicate_dtype(lib: CLib) -> None:  # noqa: F811
    """NFF §3: the predicate (src0, dtype_lo) is one of the six integer datapath types (R2 §9;
    C10: the validator's set, wider than NKI's three unsigned ones); data is src1 (dtype_hi)."""
    v = "is_valid_s3s3d3_tt"
    # test_nki_isa_copypredicated.py: fp32 [128, 512] data under an integer mask
    big = {"src0_nums": (512, 1, 1), "src1_nums": (512, 1, 1), "dst_nums": (512, 1, 1)}
    for pred in (w.INT8, w.UINT8, w.INT16, w.UINT16, w.INT32, w.UINT32):
        assert lib(v, w.s3s3d3_tt(w.COPY_PREDICATED, op=w.BYPASS, lo=pred, **big)), pred  # type: ignore[arg-type]
        assert lib(v, w.s3s3d3_tt(w.CAST_PREDICATED, op=w.BYPASS, lo=pred, out_dtype=w.BF16))
    for pred in (w.FP32, w.BF16, w.FP16, w.FP8_EXP3):
        assert not lib(v, w.s3s3d3_tt(w.COPY_PREDICATED, op=w.BYPASS, lo=pred)), pred
        assert not lib(v, w.s3s3d3_tt(w.CAST_PREDICATED, op=w.BYPASS, lo=pred, out_dtype=w.BF16))


# ---------------------------------------------------------------- Iota 0x7e (D4_IOTA)


def test_iota(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_iota"
    assert lib.has(v)
    # test_nki_isa_iota.py: a = arange(0, 512) on one partition, int32
    assert lib(v, w.d4_iota(n=1, src_nums=(512, 1, 1, 1), dst_nums=(512, 1, 1, 1)))
    # d = 5 + 2p down 128 partitions (channel_multiplier 2, base 5), one element each
    assert lib(v, w.d4_iota(base=5, channel_multiplier=2))
    # c = -arange: a negative step; float and FP32R destinations
    assert lib(v, w.d4_iota(steps=(-1, 0, 0, 0), out_dtype=w.FP32R))
    assert lib(v, w.d4_iota(out_dtype=w.BF16))
    # the generated shape and the destination shape only need equal totals
    assert lib(v, w.d4_iota(src_nums=(4, 2, 1, 1), dst_nums=(8, 1, 1, 1)))
    if lib.gen != "maverick":  # C8: the validator allows PSUM (NKI's SBUF-only rule is the API's)
        assert lib(v, w.d4_iota(dst_addr=w.PSUM_BASE))
    rejects = [
        ("reserved0", {"reserved0": 1}),
        ("reserved1", {"reserved1": 1}),
        ("reserved2", {"reserved2": (0, 0, 0, 1)}),
        ("FP32R aside, an invalid dtype", {"out_dtype": w.INVALID}),
        ("64-bit dtype", {"out_dtype": w.INT64}),
        ("no channel", {"n": 0}),
        ("129 channels", {"n": 129}),
        ("counts differ", {"src_nums": (2, 1, 1, 1)}),
        ("a zero dimension in the ramp", {"src_nums": (1, 0, 1, 1)}),
        ("misaligned int32 destination", {"dst_addr": 0x1002}),
    ]
    for why, kw in rejects:
        assert not lib(v, w.d4_iota(**kw)), why  # type: ignore[arg-type]
    assert not lib(v, w.d4_iota(opcode=w.MEMSET))


# ---------------------------------------------------------------- SelectReduce 0xea (S2S2D2_STT)


def _select_reduce(**kw: object) -> bytes:
    """test_nki_isa_select_reduce.py's shape: a uint8 predicate (src0), fp32 data (src1), on_false
    as an fp32 inline imm0 (INFERRED), Bypass then Max, fp32 out."""
    args: dict[str, object] = {
        "lo": w.UINT8,
        "hi": w.FP32,
        "op0": w.BYPASS,
        "op1": w.MAX,
        "imm0": -3.4028234663852886e38,
    }
    args.update(kw)
    return w.s2s2d2_stt(w.SELECT_REDUCE, **args)  # type: ignore[arg-type]


def test_select_reduce(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_select_reduce"
    assert lib.has(v)
    assert lib(v, _select_reduce())
    # reset_reduce / reduce / idle, reverse_pred, a (P, 1) on_false tile by pointer
    for accum in (w.IDLE, w.ZERO_ACCUMULATE, w.ACCUMULATE):
        assert lib(v, _select_reduce(accum=accum)), accum
    assert lib(v, _select_reduce(rev=w.FIRST))
    assert lib(v, _select_reduce(imm0_src=w.PTR_IMM, imm0=0x100))
    # C10: the validator takes 32-bit integer predicates too (NKI lists 8/16-bit ones)
    for pred in (w.INT8, w.INT16, w.UINT16, w.INT32, w.UINT32):
        assert lib(v, _select_reduce(lo=pred)), pred
    assert lib(v, _select_reduce(hi=w.BF16, out_dtype=w.BF16))
    rejects = [
        ("float predicate", {"lo": w.FP32}),
        ("32-bit integer data", {"hi": w.INT32}),
        ("unsigned 32-bit data", {"hi": w.UINT32}),
        ("op0 not Bypass", {"op0": w.ADD}),
        ("op1 not Max", {"op1": w.ADD}),
        ("accumulator Zero", {"accum": w.ZERO}),
        ("accumulator LoadAccumulate", {"accum": w.LOAD_ACCUMULATE}),
        ("reverse_operands Second", {"rev": w.SECOND}),
        ("reverse_operands Both", {"rev": w.BOTH}),
        ("inline bf16 on_false", {"imm0_dtype": w.BF16}),
        ("reserved byte", {"reserved": (0, 1, 0)}),
        ("element counts differ", {"src1_nums": (32, 3)}),
        ("no channel", {"n": 0}),
    ]
    for why, kw in rejects:
        assert not lib(v, _select_reduce(**kw)), why
    assert not lib(v, w.s2s2d2_stt())  # a ScalarTensorTensor word is not a SelectReduce
    assert not lib("is_valid_scalar_tensor_tensor", _select_reduce())


# ---------------------------------------------------------------- RangeSelect 0xbc (S2D2_RS, NC-v3+)


def test_range_select(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_range_select"
    assert lib.has(v) == (lib.gen != "sunda")  # no RANGE_SELECT, no s2d2_rs.h on SUNDA
    if lib.gen == "sunda":
        return
    # test_nki_isa_range_select.py: fp32, fp16, bf16 and both fp8 on [128, 512]
    for dt in (w.FP32, w.FP16, w.BF16, w.FP8_EXP3, w.FP8_EXP3 + 1, w.FP8_EXP3 + 2):
        assert lib(v, w.s2d2_rs(lo=dt, hi=dt)), dt
    assert lib(v, w.s2d2_rs(hi=w.FP32R))
    for cmd in (w.IDLE, w.ACCUMULATE):  # the chaining test's reduce after reset_reduce
        assert lib(v, w.s2d2_rs(reduce_cmd=cmd)), cmd
    for op in (w.IS_EQ, w.IS_GT, w.IS_LE):
        assert lib(v, w.s2d2_rs(comp_op0=op, comp_op1=op)), op
    assert lib(v, w.s2d2_rs(bound0_src=w.INST_IMM, bound0=0.0, bound1_src=w.INST_IMM, bound1=64.0))
    assert lib(v, w.s2d2_rs(base=16777216.0 - 512))  # the index range ends at 2^24
    # R8's signature: the core version is the caller's; NC-v3 and later have RangeSelect
    assert [lib.for_core(v, w.s2d2_rs(), nc) for nc in (2, 3, 4, 5)] == [False, True, True, True]
    rejects = [
        ("fill value not -FLT_MAX", {"fill_val": -1.0}),
        ("fill value -inf (KLR's default, C9)", {"fill_val": float("-inf")}),
        ("integer input", {"lo": w.INT32}),
        ("FP32R input", {"lo": w.FP32R}),
        ("comparison not an IS_* op", {"comp_op0": w.ADD}),
        ("IS_NE is not offered", {"comp_op1": 0x17}),
        ("reduce op Add", {"reduce_op": w.ADD}),
        ("reduce cmd Zero", {"reduce_cmd": w.ZERO}),
        ("reduce cmd LoadAccumulate", {"reduce_cmd": w.LOAD_ACCUMULATE}),
        ("index range past 2^24", {"base": 16777216.0 - 100}),
        ("negative base", {"base": -1.0}),
        ("NaN base", {"base": float("nan")}),
        ("element counts differ", {"dst_nums": (256, 1)}),
        ("bound source 3", {"bound0_src": 3}),
        ("misaligned bound pointer", {"bound1": 0x3002}),
        ("no channel", {"n": 0}),
    ]
    for why, kw in rejects:
        assert not lib(v, w.s2d2_rs(**kw)), why  # type: ignore[arg-type]


# ---------------------------------------------------------------- Memset 0x49 (D4_MR)


def test_memset(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_memset"
    assert lib.has(v)
    assert lib(v, w.d4_mr())  # test_nki_isa_memset.py: fp32 [128, 128] = 0.2
    # the value/dtype rule (d4_mr.h:124-140): 32-bit types take any bits, 16-bit types the
    # low 16, 8-bit types the low 8
    for dt, ok, bad in (
        (w.INT32, 0xFFFFFFFF, None),
        (w.UINT32, 0x80000000, None),
        (w.BF16, 0x3E4C, 0x13E4C),
        (w.FP16, 0xFFFF, 0x10000),
        (w.INT16, 0x8000, 0xFFFF8000),
        (w.UINT8, 0xFF, 0x100),
        (w.INT8, 0x80, 0xFFFFFF80),
        (w.FP8_EXP3, 0x38, 0x138),
    ):
        assert lib(v, w.d4_mr(dtype=dt, set_value=ok)), (dt, ok)
        if bad is not None:
            assert not lib(v, w.d4_mr(dtype=dt, set_value=bad)), (dt, bad)
    rejects = [
        ("FP32R has no fill rule", {"dtype": w.FP32R}),
        ("64-bit dtype", {"dtype": w.INT64}),
        ("serialization mode not Serial", {"serialization_mode": 1}),
        ("reserved0", {"reserved0": (0,) * 15 + (1,)}),
        ("byte 33", {"reserved_bytes": (1, 0, 0, 0, 0)}),
        ("byte 39", {"reserved_bytes": (0, 0, 0, 0, 1)}),
        ("no channel", {"n": 0}),
        ("129 channels", {"n": 129}),
        ("misaligned fp32 destination", {"dst_addr": 0x1002}),
    ]
    for why, kw in rejects:
        assert not lib(v, w.d4_mr(**kw)), why  # type: ignore[arg-type]
    assert not lib(v, w.d4_mr(opcode=w.IOTA))


# ---------------------------------------------------------------- AffineSelect 0x92 (S2D2_TS_AS)


def test_affine_select(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_s2d2_ts_as"
    assert lib.has(v)
    assert lib(v, w.s2d2_ts_as())  # test_nki_isa_affine_select.py's causal mask
    for mode in (w.AS_GT, w.AS_GE, w.AS_EQ, w.AS_NE):
        assert lib(v, w.s2d2_ts_as(fill_mode=mode)), mode
    assert lib(v, w.s2d2_ts_as(lo=w.BF16, hi=w.FP32R))  # converted from dtype_lo to dtype_hi
    # the mask shape and the tensor shapes only need equal totals
    assert lib(v, w.s2d2_ts_as(mask_nums=(64, 2, 1, 1), mask_steps=(1, 64, 0, 0)))
    # R7 §7: PSUM on SUNDA only
    assert lib(v, w.s2d2_ts_as(dst_addr=w.PSUM_BASE)) == (lib.gen == "sunda")
    assert lib(v, w.s2d2_ts_as(src_addr=w.PSUM_BASE)) == (lib.gen == "sunda")
    # R7 §7: CAYMAN+ skip the counts when a shape comes from a register
    shaped = w.s2d2_ts_as(src_addr=w.marker_addr(w.MARKER_SHAPE_REG, 0), mask_nums=(3, 1, 1, 1))
    assert lib(v, shaped) == (lib.gen != "sunda")
    rejects = [
        ("fill_mode 4", {"fill_mode": 4}),
        ("fill_reg past the register file", {"fill_reg": 64}),
        ("mask count differs", {"mask_nums": (127, 1, 1, 1)}),
        ("dst count differs", {"dst_nums": (64, 1)}),
        ("FP32R input", {"lo": w.FP32R}),
        ("no channel", {"n": 0}),
        ("129 channels", {"n": 129}),
    ]
    for why, kw in rejects:
        assert not lib(v, w.s2d2_ts_as(**kw)), why  # type: ignore[arg-type]


# ---------------------------------------------------------------- Max8 / FindIndex8 / BatchNorm (S4D2_BN)


def test_max8(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_max8"
    assert lib(v, w.s4d2_bn())  # test_nki_isa_max8.py: (32, 128) -> (32, 8)
    assert lib(v, w.s4d2_bn(src_nums=(8, 1, 1, 1)))  # 8 .. 16384 elements
    assert lib(v, w.s4d2_bn(src_nums=(128, 128, 1, 1)))
    assert lib(v, w.s4d2_bn(in_dtype=w.BF16, out_dtype=w.FP32R))
    rejects = [
        ("fewer than 8 elements", {"src_nums": (7, 1, 1, 1)}),
        ("more than 16384 elements", {"src_nums": (128, 128, 2, 1)}),
        ("destination not 8", {"dst_nums": (4, 2 + 1)}),
        ("a nonzero even count", {"even_count": 1.0}),
        ("a nonzero odd count", {"odd_count": -2.0}),
        ("reserved0", {"reserved0": (0, 0, 1, 0, 0)}),
        ("reserved1", {"reserved1": (0, 0, 0, 1)}),
        ("FP32R input", {"in_dtype": w.FP32R}),
        ("no channel", {"n": 0}),
    ]
    for why, kw in rejects:
        assert not lib(v, w.s4d2_bn(**kw)), why  # type: ignore[arg-type]


def test_find_index8(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_find_index8"
    # test_nki_isa_nc_find_index8.py: rand (32, 128) -> uint32 (32, 8)
    assert lib(v, w.s4d2_bn(w.FIND_INDEX8, out_dtype=w.UINT32))
    assert lib(v, w.s4d2_bn(w.FIND_INDEX8, out_dtype=w.UINT16))
    for dt in (w.FP32, w.INT32, w.UINT8):
        assert not lib(v, w.s4d2_bn(w.FIND_INDEX8, out_dtype=dt)), dt
    assert not lib(v, w.s4d2_bn(w.FIND_INDEX8, out_dtype=w.UINT32, even_count=1.0))
    assert not lib(v, w.s4d2_bn(w.FIND_INDEX8, out_dtype=w.UINT32, src_nums=(4, 1, 1, 1)))
    assert not lib(v, w.s4d2_bn(out_dtype=w.UINT32))  # a Max8 word


def test_batch_norm_stats2_and_aggregate(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_batch_norm_stats2"
    # test_nki_isa_bn_stats.py: [128, 128] stats -> 6 values, counts 64.0 / 64.0
    stats = {"n": 128, "dst_nums": (6, 1), "even_count": 64.0, "odd_count": 64.0}
    assert lib(v, w.s4d2_bn(w.BN_STATS2, **stats))  # type: ignore[arg-type]
    # the [128, 1024] case: two stats tiles of 512 each
    assert lib(v, w.s4d2_bn(w.BN_STATS2, **dict(stats, src_nums=(512, 1, 1, 1))))  # type: ignore[arg-type]
    assert lib(v, w.s4d2_bn(w.BN_STATS2, **dict(stats, out_dtype=w.BF16)))  # type: ignore[arg-type]
    assert lib(v, w.s4d2_bn(0x82, **stats))  # type: ignore[arg-type]  # TransposeBatchNormStats2
    rejects = [
        ("more than 512 elements", {"src_nums": (513, 1, 1, 1)}),
        ("destination not 6", {"dst_nums": (3, 1)}),
        ("output INT32", {"out_dtype": w.INT32}),
        ("output FP32R", {"out_dtype": w.FP32R}),
        ("infinite count", {"even_count": float("inf")}),
        ("NaN count", {"odd_count": float("nan")}),
    ]
    for why, kw in rejects:
        assert not lib(v, w.s4d2_bn(w.BN_STATS2, **dict(stats, **kw))), why  # type: ignore[arg-type]
    # the transposing form: a multiple of 32 channels and of 32 elements
    assert not lib(v, w.s4d2_bn(0x82, **dict(stats, n=100)))  # type: ignore[arg-type]
    assert not lib(v, w.s4d2_bn(0x82, **dict(stats, src_nums=(100, 1, 1, 1))))  # type: ignore[arg-type]
    assert lib(v, w.s4d2_bn(w.BN_STATS2, **dict(stats, src_nums=(100, 1, 1, 1))))  # type: ignore[arg-type]
    a = "is_valid_batch_norm_aggregate"
    # the (128, 12) buffer of two stats results -> mean, variance
    agg = {"n": 128, "src_nums": (12, 1, 1, 1), "dst_nums": (2, 1)}
    assert lib(a, w.s4d2_bn(w.BN_AGGREGATE, **agg))  # type: ignore[arg-type]
    assert not lib(a, w.s4d2_bn(w.BN_AGGREGATE, **dict(agg, src_nums=(13, 1, 1, 1))))  # type: ignore[arg-type]
    assert not lib(a, w.s4d2_bn(w.BN_AGGREGATE, **dict(agg, dst_nums=(3, 1))))  # type: ignore[arg-type]
    assert not lib(a, w.s4d2_bn(w.BN_AGGREGATE, **dict(agg, even_count=1.0)))  # type: ignore[arg-type]
    # BatchNormStats (0x60, superseded) has no validator: no validator accepts its word
    for name in (v, a, "is_valid_max8", "is_valid_find_index8"):
        assert not lib(name, w.s4d2_bn(w.BN_STATS, **dict(stats, dst_nums=(3, 1)))), name  # type: ignore[arg-type]


# ---------------------------------------------------------------- MatchReplace8 0x6f (S4D4_MR)


def test_match_replace8(lib: CLib) -> None:  # noqa: F811
    v = "is_valid_match_replace8"
    assert lib(v, w.s4d4_mr())
    for dt in (w.FP16, w.BF16, w.UINT8, w.UINT16, w.UINT32, w.INT32):
        assert lib(v, w.s4d4_mr(in_dtype=dt, out_dtype=dt)), dt
    rejects = [
        ("FP32R output", {"out_dtype": w.FP32R}),
        ("INT8 not in the list", {"in_dtype": w.INT8}),
        ("INT16 not in the list", {"out_dtype": w.INT16}),
        ("more than 16384 elements", {"src_nums": (128, 129, 1, 1), "dst_nums": (128, 129, 1, 1)}),
        ("counts differ", {"dst_nums": (64, 1, 1, 1)}),
        ("reserved0", {"reserved0": (1, 0, 0, 0, 0)}),
        ("129 channels", {"n": 129}),
    ]
    for why, kw in rejects:
        assert not lib(v, w.s4d4_mr(**kw)), why  # type: ignore[arg-type]
