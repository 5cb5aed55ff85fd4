"""Build 64-byte instruction words by packing fields at the documented offsets.

Offsets are the compile-verified ones of the spec shelf (founding doc §4/§5, ts-tsm-facts.md §1, §5);
this module deliberately does not use tpbgen, so the C validator tests stay independent of it.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

# opcodes
TS_ARITH, TS_BITVEC, TS_PTR_ARITH, TS_PTR_BITVEC = 0x43, 0x53, 0x44, 0x54
TRANSPOSE_TS, CACHE_REDUCE, CACHE_CUMULATIVE, EXPONENTIAL = 0x93, 0x9A, 0xE6, 0x30
PTR_MULTI_ARITH, PTR_MULTI_BITVEC, DUAL_ARITH, DUAL_BITVEC = 0x4F, 0x5F, 0x87, 0x88
IMMLD_ARITH, IMMLD_BITVEC, BATCH_NORM_PARAM_LOAD = 0x70, 0x71, 0x64

# ALU ops
BYPASS, ASL, ASR, ADD, SUB, MULT, DIVIDE, MAX = 0x00, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08
BITWISE_AND, LSL, LSR, RSQRT, ADD_INT = 0x0A, 0x10, 0x11, 0x1D, 0xC4

# dtypes
INVALID, UINT64, INT8, UINT8, INT16, UINT16, BF16, FP16 = 0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7
INT32, UINT32, FP32, FP32R, INT64 = 0x8, 0x9, 0xA, 0xB, 0xC
FP8_EXP3 = 0xD

# accumulator commands, immediate sources, reverse modes, subdims
IDLE, ZERO, ACCUMULATE, ZERO_ACCUMULATE, LOAD_ACCUMULATE = 0, 1, 2, 3, 4
INST_IMM, PTR_IMM, REG_PTR_IMM = 0, 1, 2
NONE, FIRST, SECOND, BOTH = 0, 1, 2, 3
SUBDIM_XY, SUBDIM_XYZ = 0x03, 0x04

# ADDR4 markers (byte 3 of the address word)
MARKER_SHAPE_REG, MARKER_ADDR_REG, MARKER_INDIRECT_IMM = 0x40, 0x80, 0x20

PSUM_BASE = 0x2000000
SBUF_PARTITION_SIZE = {
    "sunda": 0x40000,
    "cayman": 0x40000,
    "mariana": 0x40000,
    "maverick": 0x100000,
}

Imm = float | int | bytes


def marker_addr(marker: int, low24: int = 0) -> int:
    return (marker << 24) | (low24 & 0xFFFFFF)


def reg_addr(regnum: int, marker: int = MARKER_ADDR_REG) -> int:
    return (marker << 24) | regnum


def _imm(v: Imm) -> bytes:
    if isinstance(v, bytes):
        assert len(v) == 4
        return v
    if isinstance(v, float):
        return struct.pack("<f", v)
    return struct.pack("<I", v & 0xFFFFFFFF)


def _header(
    buf: bytearray, opcode: int, inst_word_len: int, byte3: int, wait_mode: int, update_mode: int
) -> None:
    struct.pack_into("<BBBB", buf, 0, opcode, inst_word_len, 0, byte3)
    struct.pack_into("<BBBBI", buf, 4, wait_mode, 0, update_mode, 0, 0)


def _tensor(buf: bytearray, off: int, addr: int, steps: Sequence[int], nums: Sequence[int]) -> None:
    n = len(nums)
    struct.pack_into(f"<I{n}h{n}H", buf, off, addr & 0xFFFFFFFF, *steps, *nums)


def s3d3_ts(
    opcode: int = TS_ARITH,
    *,
    inst_word_len: int = 16,
    inst_flags: int = 0,
    wait_mode: int = 0,
    update_mode: int = 0,
    accum: int = IDLE,
    reserved0: Sequence[int] = (0, 0, 0),
    src_addr: int = 0x0,
    src_steps: Sequence[int] = (1, 1, 1),
    src_nums: Sequence[int] = (64, 1, 1),
    in_dtype: int = FP32,
    out_dtype: int = FP32,
    n: int = 128,
    imm0_src: int = INST_IMM,
    op0: int = ADD,
    op1: int = BYPASS,
    rev: int = NONE,
    imm1_src: int = INST_IMM,
    imm0: Imm = 2.0,
    imm1: Imm = 0,
    dst_addr: int = 0x1000,
    dst_steps: Sequence[int] = (1, 1, 1),
    dst_nums: Sequence[int] = (64, 1, 1),
) -> bytes:
    """A NEURON_ISA_TPB_S3D3_TS_STRUCT word; the defaults form a valid TensorScalarArithOp."""
    buf = bytearray(64)
    _header(buf, opcode, inst_word_len, inst_flags, wait_mode, update_mode)
    buf[12] = accum
    buf[13:16] = bytes(reserved0)
    _tensor(buf, 16, src_addr, src_steps, src_nums)
    buf[32], buf[33], buf[34], buf[35] = in_dtype, out_dtype, n, imm0_src
    buf[36], buf[37], buf[38], buf[39] = op0, op1, rev, imm1_src
    buf[40:44] = _imm(imm0)
    buf[44:48] = _imm(imm1)
    _tensor(buf, 48, dst_addr, dst_steps, dst_nums)
    return bytes(buf)


def s4d4_tsm(
    opcode: int = PTR_MULTI_ARITH,
    *,
    inst_word_len: int = 16,
    inst_flags: int = 0,
    w: int = 8,
    src_addr: int = 0x0,
    src_nums: Sequence[int] | None = None,
    dst_addr: int = 0x4000,
    dst_nums: Sequence[int] | None = None,
    in_dtype: int = FP32,
    out_dtype: int = FP32,
    n: int = 128,
    reserved0: int = 0,
    op: int = MULT,
    op_dim: int = SUBDIM_XYZ,
    rev: int = NONE,
    reserved1: Sequence[int] = (0, 0, 0, 0, 0),
) -> bytes:
    """A NEURON_ISA_TPB_S4D4_TSM_STRUCT word; num_elem is [X, Y, Z, W] in C order."""
    buf = bytearray(64)
    _header(buf, opcode, inst_word_len, inst_flags, 0, 0)
    sn = list(src_nums) if src_nums is not None else [16, 2, 2, w]
    dn = list(dst_nums) if dst_nums is not None else list(sn)
    _tensor(buf, 12, src_addr, (1, 16, 32, 64), sn)
    buf[32], buf[33], buf[34], buf[35] = in_dtype, out_dtype, n, reserved0
    buf[36], buf[37], buf[38] = op, op_dim, rev
    buf[39:44] = bytes(reserved1)
    _tensor(buf, 44, dst_addr, (1, 16, 32, 64), dn)
    return bytes(buf)


def s2_bn(
    opcode: int = IMMLD_ARITH,
    *,
    inst_word_len: int = 16,
    src_addr: int = 0x0,
    src_nums: Sequence[int] = (8, 1),
    dtype: int = FP32,
    n: int = 128,
    imm0_ptr: Imm = 0,
    imm0_src: int = INST_IMM,
    imm1: Imm = 0,
    reserved3_last: int = 0,
) -> bytes:
    """A NEURON_ISA_TPB_S2_BN_STRUCT word (src@16 imm1@28 dtype@32 nac@34 imm0_ptr@44 imm0_src@48)."""
    buf = bytearray(64)
    _header(buf, opcode, inst_word_len, 0, 0, 0)
    _tensor(buf, 16, src_addr, (1, 8), src_nums)
    buf[28:32] = _imm(imm1)
    buf[32] = dtype
    buf[34] = n
    buf[44:48] = _imm(imm0_ptr)
    buf[48] = imm0_src
    buf[63] = reserved3_last
    return bytes(buf)


# tensor-tensor / scalar-tensor-tensor / tensor-reduce families (tt-stt-facts.md §1)
TT_ARITH, TT_BITVEC, COPY_PREDICATED, CAST_PREDICATED, BN_BACK_PROP = 0x41, 0x51, 0x72, 0x99, 0x65
TT_ADD_BF16, TT_MULT_BF16, TT_SUB_BF16 = 0x8A, 0x8B, 0x8F
STT_ARITH, STT_BITVEC, TT_SCAN, TT_INT_WIDE = 0x9D, 0x9E, 0xE5, 0xF3
TR_ARITH, TR_BITVEC, TR_T_ARITH, TR_T_BITVEC, TR_ADD_BF16, TR_MAX_BF16 = (
    0x42,
    0x52,
    0x83,
    0x84,
    0x8C,
    0x8D,
)
SUBTRACT, POW, MIN, BITWISE_XOR, MULT_INT, SUB_INT, MULT_UINT = (
    0x05,
    0x1A,
    0x09,
    0x0C,
    0xC5,
    0xC6,
    0xDB,
)
SUBDIM_UNUSED, SUBDIM_X, SUBDIM_XYZW = 0x00, 0x02, 0x05


def pair(lo: int, hi: int) -> int:
    """A DTYPE_PAIR byte: lo in bits 3..0, hi in bits 7..4."""
    return (lo & 0xF) | ((hi & 0xF) << 4)


def s3s3d3_tt(
    opcode: int = TT_ARITH,
    *,
    inst_word_len: int = 16,
    lo: int = FP32,
    hi: int = FP32,
    out_dtype: int = FP32,
    op: int = ADD,
    n: int = 128,
    src0_addr: int = 0x0,
    src1_addr: int = 0x1000,
    dst_addr: int = 0x2000,
    src0_steps: Sequence[int] = (1, 1, 1),
    src1_steps: Sequence[int] = (1, 1, 1),
    src0_nums: Sequence[int] = (64, 1, 1),
    src1_nums: Sequence[int] = (64, 1, 1),
    dst_nums: Sequence[int] = (64, 1, 1),
) -> bytes:
    """A NEURON_ISA_TPB_S3S3D3_TT_STRUCT word (dtype pair@12 out@13 op@14 nac@15 src0@16 src1@32
    dst@48); the defaults form a valid fp32 TensorTensorArithOp add."""
    buf = bytearray(64)
    _header(buf, opcode, inst_word_len, 0, 0, 0)
    buf[12], buf[13], buf[14], buf[15] = pair(lo, hi), out_dtype, op, n
    _tensor(buf, 16, src0_addr, src0_steps, src0_nums)
    _tensor(buf, 32, src1_addr, src1_steps, src1_nums)
    _tensor(buf, 48, dst_addr, (1, 1, 1), dst_nums)
    return bytes(buf)


def s2s2d2_stt(
    opcode: int = STT_ARITH,
    *,
    lo: int = FP32,
    hi: int = FP32,
    out_dtype: int = FP32,
    imm0_dtype: int = FP32,
    op0: int = MULT,
    op1: int = ADD,
    rev: int = NONE,
    imm0_src: int = INST_IMM,
    imm0: Imm = 2.0,
    accum: int = IDLE,
    reserved: Sequence[int] = (0, 0, 0),
    n: int = 128,
    src0_addr: int = 0x0,
    src1_addr: int = 0x1000,
    dst_addr: int = 0x2000,
    src0_nums: Sequence[int] = (32, 2),
    src1_nums: Sequence[int] = (32, 2),
    dst_nums: Sequence[int] = (32, 2),
) -> bytes:
    """A NEURON_ISA_TPB_S2S2D2_STT_STRUCT word (src0@12 src1@24 op0@36 op1@37 rev@38 imm0_src@39
    pair@40 out@41 nac@42 imm0_dtype@43 accum@44 reserved@45 dst@48 imm0@60)."""
    buf = bytearray(64)
    _header(buf, opcode, 16, 0, 0, 0)
    _tensor(buf, 12, src0_addr, (1, 32), src0_nums)
    _tensor(buf, 24, src1_addr, (1, 32), src1_nums)
    buf[36], buf[37], buf[38], buf[39] = op0, op1, rev, imm0_src
    buf[40], buf[41], buf[42], buf[43], buf[44] = pair(lo, hi), out_dtype, n, imm0_dtype, accum
    buf[45:48] = bytes(reserved)
    _tensor(buf, 48, dst_addr, (1, 32), dst_nums)
    buf[60:64] = _imm(imm0)
    return bytes(buf)


def s2s2d2d2_tt(
    *,
    lo: int = UINT32,
    hi: int = UINT32,
    out0: int = UINT32,
    out1: int = UINT32,
    op: int = ADD_INT,
    n: int = 128,
    inst_flags: int = 0,
    addrs: Sequence[int] = (0x0, 0x1000, 0x2000, 0x3000),
    nums: Sequence[Sequence[int]] = ((32, 2), (32, 2), (32, 2), (32, 2)),
) -> bytes:
    """A NEURON_ISA_TPB_S2S2D2D2_TT_STRUCT word (MAVERICK: pairs@12/13 op@14 nac@15, four 12-byte
    2-D patterns at 16, 28, 40, 52); the defaults form a valid unsigned TensorTensorIntWide add."""
    buf = bytearray(64)
    _header(buf, TT_INT_WIDE, 16, inst_flags, 0, 0)
    buf[12], buf[13], buf[14], buf[15] = pair(lo, hi), pair(out0, out1), op, n
    for off, addr, num in zip((16, 28, 40, 52), addrs, nums, strict=True):
        _tensor(buf, off, addr, (1, 32), num)
    return bytes(buf)


def s4d4_tr(
    opcode: int = TR_ARITH,
    *,
    inst_flags: int = 0,
    in_dtype: int = FP32,
    out_dtype: int = FP32,
    n: int = 128,
    negated: int = 0,
    op: int = ADD,
    op_dim: int = SUBDIM_X,
    mask_enable: int = 0,
    reserved1: Sequence[int] = (0, 0, 0, 0, 0),
    src_addr: int = 0x0,
    src_nums: Sequence[int] = (64, 2, 1, 1),
    src_steps: Sequence[int] = (1, 64, 128, 128),
    dst_addr: int = 0x1000,
    dst_nums: Sequence[int] = (2, 1, 1, 1),
) -> bytes:
    """A NEURON_ISA_TPB_S4D4_TR_STRUCT word (src@12 in@32 out@33 nac@34 negated@35 op@36 op_dim@37
    mask_enable@38 reserved1@39 dst@44); the defaults reduce X of a [64, 2] source."""
    buf = bytearray(64)
    _header(buf, opcode, 16, inst_flags, 0, 0)
    _tensor(buf, 12, src_addr, src_steps, src_nums)
    buf[32], buf[33], buf[34], buf[35] = in_dtype, out_dtype, n, negated
    buf[36], buf[37], buf[38] = op, op_dim, mask_enable
    buf[39:44] = bytes(reserved1)
    _tensor(buf, 44, dst_addr, (1, 1, 1, 1), dst_nums)
    return bytes(buf)


# next families (next-families-facts.md §1)
COPY, CAST, RECIPROCAL, MEMSET = 0x46, 0x47, 0x48, 0x49
CUMULATIVE_ARITH, CUMULATIVE_BITVEC = 0x4E, 0x5E
IOTA, AFFINE_SELECT, RANGE_SELECT, SELECT_REDUCE = 0x7E, 0x92, 0xBC, 0xEA
BN_STATS, BN_STATS2, BN_AGGREGATE, MAX8, FIND_INDEX8, MATCH_REPLACE8 = (
    0x60,
    0x61,
    0x62,
    0x6C,
    0x6E,
    0x6F,
)
MOD, IS_EQ, IS_GT, IS_GE, IS_LE, IS_LT, LOGICAL_SHIFT_RIGHT = (
    0x1B,
    0x12,
    0x13,
    0x14,
    0x15,
    0x16,
    0x11,
)


def s4d4_tr_move(
    opcode: int = COPY,
    *,
    in_dtype: int = FP32,
    out_dtype: int = FP32,
    n: int = 8,
    src_nums: Sequence[int] = (8, 1, 1, 1),
    dst_nums: Sequence[int] = (8, 1, 1, 1),
    **kw: object,
) -> bytes:
    """An S4D4_TR word for the element-wise users (Copy, Cast, Reciprocal, TensorCumulative):
    Bypass, op_dim X, [8] elements on 8 partitions each side unless told otherwise."""
    args: dict[str, object] = {"op": BYPASS, "op_dim": SUBDIM_X, "src_steps": (1, 8, 8, 8)}
    args.update(kw)
    return s4d4_tr(
        opcode,
        in_dtype=in_dtype,
        out_dtype=out_dtype,
        n=n,
        src_nums=src_nums,
        dst_nums=dst_nums,
        **args,  # type: ignore[arg-type]
    )


def d4_iota(
    *,
    opcode: int = IOTA,
    base: int = 0,
    steps: Sequence[int] = (1, 0, 0, 0),
    src_nums: Sequence[int] = (1, 1, 1, 1),
    reserved0: int = 0,
    out_dtype: int = INT32,
    n: int = 128,
    reserved1: int = 0,
    channel_multiplier: int = 1,
    reserved2: Sequence[int] = (0, 0, 0, 0),
    dst_addr: int = 0x1000,
    dst_nums: Sequence[int] = (1, 1, 1, 1),
) -> bytes:
    """A NEURON_ISA_TPB_D4_IOTA_STRUCT word (DATA4D src@12: base, step_elem[4], num_elem[4];
    reserved0@32 out@33 nac@34 reserved1@35 channel_multiplier@36 reserved2@40 dst@44); the
    defaults write the partition index (one int32 per partition) on 128 partitions."""
    buf = bytearray(64)
    _header(buf, opcode, 16, 0, 0, 0)
    struct.pack_into("<i4h4H", buf, 12, base, *steps, *src_nums)
    buf[32], buf[33], buf[34], buf[35] = reserved0, out_dtype, n, reserved1
    struct.pack_into("<i", buf, 36, channel_multiplier)
    buf[40:44] = bytes(reserved2)
    _tensor(buf, 44, dst_addr, (1, 1, 1, 1), dst_nums)
    return bytes(buf)


FP32_MIN_BITS = 0xFF7FFFFF  # -FLT_MAX, RangeSelect's only fill value


def s2d2_rs(
    *,
    opcode: int = RANGE_SELECT,
    n: int = 128,
    lo: int = FP32,
    hi: int = FP32,
    reduce_cmd: int = ZERO_ACCUMULATE,
    reduce_op: int = MAX,
    base: float = 32.0,
    fill_val: Imm = FP32_MIN_BITS,
    src_addr: int = 0x0,
    src_nums: Sequence[int] = (512, 1),
    comp_op0: int = IS_GE,
    comp_op1: int = IS_LT,
    bound0_src: int = PTR_IMM,
    bound1_src: int = PTR_IMM,
    bound0: Imm = 0x3000,
    bound1: Imm = 0x3004,
    dst_addr: int = 0x1000,
    dst_nums: Sequence[int] = (512, 1),
    reserved1: Sequence[int] = (0, 0, 0, 0),
) -> bytes:
    """A NEURON_ISA_TPB_S2D2_RS_STRUCT word (nac@12 pair@13 reduce_cmd@14 reduce_op@15 base@16
    fill_val@20 src@24 comp_op0@36 comp_op1@37 bound0_src@38 bound1_src@39 bound0@40 bound1@44
    dst@48 reserved1@60); the defaults are test_nki_isa_range_select.py's fp32 [128, 512] case
    (range_start 32, index >= bound0 and < bound1, per-partition bounds by pointer, reset_reduce)."""
    buf = bytearray(64)
    _header(buf, opcode, 16, 0, 0, 0)
    buf[12], buf[13], buf[14], buf[15] = n, pair(lo, hi), reduce_cmd, reduce_op
    struct.pack_into("<f", buf, 16, base)
    buf[20:24] = _imm(fill_val)
    _tensor(buf, 24, src_addr, (1, 512), src_nums)
    buf[36], buf[37], buf[38], buf[39] = comp_op0, comp_op1, bound0_src, bound1_src
    buf[40:44], buf[44:48] = _imm(bound0), _imm(bound1)
    _tensor(buf, 48, dst_addr, (1, 512), dst_nums)
    buf[60:64] = bytes(reserved1)
    return bytes(buf)


def d4_mr(
    *,
    opcode: int = MEMSET,
    reserved0: Sequence[int] = (0,) * 16,
    dst_element_count: int = 128,
    dtype: int = FP32,
    n: int = 128,
    serialization_mode: int = 0,
    reserved_bytes: Sequence[int] = (0, 0, 0, 0, 0),
    set_value: Imm = 0.2,
    dst_addr: int = 0x1000,
    dst_nums: Sequence[int] = (128, 1, 1, 1),
) -> bytes:
    """A NEURON_ISA_TPB_D4_MR_STRUCT word (reserved0@12 dst_element_count@28 dtype@32 nac@34
    serialization_mode@36 set_value@40 dst@44; reserved_bytes are 33, 35, 37, 38, 39); the
    defaults are test_nki_isa_memset.py's fp32 [128, 128] fill with 0.2."""
    buf = bytearray(64)
    _header(buf, opcode, 16, 0, 0, 0)
    buf[12:28] = bytes(reserved0)
    struct.pack_into("<I", buf, 28, dst_element_count)
    buf[32], buf[34], buf[36] = dtype, n, serialization_mode
    for off, b in zip((33, 35, 37, 38, 39), reserved_bytes, strict=True):
        buf[off] = b
    buf[40:44] = _imm(set_value)
    _tensor(buf, 44, dst_addr, (1, 1, 1, 1), dst_nums)
    return bytes(buf)


AS_GT, AS_GE, AS_EQ, AS_NE = 0x0, 0x1, 0x2, 0x3  # NEURON_ISA_TPB_AFFINE_SELECT_CMP


def s2d2_ts_as(
    *,
    opcode: int = AFFINE_SELECT,
    n: int = 128,
    lo: int = FP32,
    hi: int = FP32,
    fill_mode: int = AS_GT,
    fill_reg: int = 0,
    base: int = 0,
    mask_steps: Sequence[int] = (1, 0, 0, 0),
    mask_nums: Sequence[int] = (128, 1, 1, 1),
    src_addr: int = 0x0,
    src_nums: Sequence[int] = (128, 1),
    dst_addr: int = 0x1000,
    dst_nums: Sequence[int] = (128, 1),
    channel_multiplier: int = -1,
) -> bytes:
    """A NEURON_ISA_TPB_S2D2_TS_AS_STRUCT word (nac@12 pair@13 fill_mode@14 fill_reg@15
    mask DATA4D@16 src@36 dst@48 channel_multiplier@60); the defaults are
    test_nki_isa_affine_select.py's fp32 [128, 128] causal mask: keep where (x - p) > 0."""
    buf = bytearray(64)
    _header(buf, opcode, 16, 0, 0, 0)
    buf[12], buf[13], buf[14], buf[15] = n, pair(lo, hi), fill_mode, fill_reg
    struct.pack_into("<i4h4H", buf, 16, base, *mask_steps, *mask_nums)
    _tensor(buf, 36, src_addr, (1, 128), src_nums)
    _tensor(buf, 48, dst_addr, (1, 128), dst_nums)
    struct.pack_into("<i", buf, 60, channel_multiplier)
    return bytes(buf)


def s4d2_bn(
    opcode: int = MAX8,
    *,
    in_dtype: int = FP32,
    out_dtype: int = FP32,
    n: int = 32,
    reserved0: Sequence[int] = (0, 0, 0, 0, 0),
    even_count: float = 0.0,
    odd_count: float = 0.0,
    reserved1: Sequence[int] = (0, 0, 0, 0),
    src_addr: int = 0x0,
    src_nums: Sequence[int] = (128, 1, 1, 1),
    dst_addr: int = 0x1000,
    dst_nums: Sequence[int] = (8, 1),
) -> bytes:
    """A NEURON_ISA_TPB_S4D2_BN_STRUCT word (src@12 in@32 out@33 nac@34 reserved0@35
    even_count@40 odd_count@44 dst@48 reserved1@60); the defaults are test_nki_isa_max8.py's
    nl.rand((32, 128)) -> (32, 8)."""
    buf = bytearray(64)
    _header(buf, opcode, 16, 0, 0, 0)
    _tensor(buf, 12, src_addr, (1, 128, 128, 128), src_nums)
    buf[32], buf[33], buf[34] = in_dtype, out_dtype, n
    buf[35:40] = bytes(reserved0)
    struct.pack_into("<ff", buf, 40, even_count, odd_count)
    _tensor(buf, 48, dst_addr, (1, 8), dst_nums)
    buf[60:64] = bytes(reserved1)
    return bytes(buf)


def s4d4_mr(
    *,
    opcode: int = MATCH_REPLACE8,
    in_dtype: int = FP32,
    out_dtype: int = FP32,
    n: int = 32,
    reserved0: Sequence[int] = (0, 0, 0, 0, 0),
    immediate: float = float("-inf"),
    src_addr: int = 0x0,
    src_nums: Sequence[int] = (128, 1, 1, 1),
    dst_addr: int = 0x1000,
    dst_nums: Sequence[int] = (128, 1, 1, 1),
) -> bytes:
    """A NEURON_ISA_TPB_S4D4_MR_STRUCT word (src@12 in@32 out@33 nac@34 reserved0@35 immediate@40
    dst@44); the defaults replace the matches in an fp32 [32, 128] tile with -inf, as
    test_nki_isa_nc_match_replace8.py does."""
    buf = bytearray(64)
    _header(buf, opcode, 16, 0, 0, 0)
    _tensor(buf, 12, src_addr, (1, 128, 128, 128), src_nums)
    buf[32], buf[33], buf[34] = in_dtype, out_dtype, n
    buf[35:40] = bytes(reserved0)
    struct.pack_into("<f", buf, 40, immediate)
    _tensor(buf, 44, dst_addr, (1, 128, 128, 128), dst_nums)
    return bytes(buf)
