"""Deterministic word corpora for the differential tests: valid seeds, one-field mutations across
enum boundaries and limits, random field combinations, and plain random bytes."""

from __future__ import annotations

import struct

import numpy as np

from headers import tpb_words as w
from tpbgen.ir.model import Generation, Struct

INTERESTING_8 = (
    0,
    1,
    2,
    3,
    4,
    5,
    7,
    8,
    9,
    10,
    11,
    12,
    15,
    16,
    17,
    31,
    32,
    33,
    63,
    64,
    65,
    96,
    127,
    128,
    129,
    192,
    254,
    255,
)
INTERESTING_16 = (
    0,
    1,
    2,
    3,
    4,
    7,
    8,
    9,
    16,
    31,
    32,
    64,
    127,
    128,
    255,
    256,
    0x7FFF,
    0x8000,
    0xFFFE,
    0xFFFF,
)
INTERESTING_32 = (
    0,
    1,
    2,
    3,
    4,
    8,
    0x10,
    0x1000,
    0x2000000,
    0x2000004,
    0x2004000,
    0x1FFFFFF,
    0x1FFFFFFF,
    0x20000000,
    0x40000000,
    0x80000000,
    0x80000001,
    0xA0000000,
    0xC0000000,
    0xFFFFFFFF,
    0x3F800000,
    0x7FC00000,
    0x80000000 | 0x3F,
    0x00040000,
    0x00030000,
    0x000E0000,
    0x01000000 | 0x80,
    0x3E000000,
)


def leaf_fields(gen: Generation, s: Struct, base: int = 0) -> list[tuple[int, int, str]]:
    """(offset, size, kind) of every scalar byte group of a struct, unions flattened to their bytes."""
    out: list[tuple[int, int, str]] = []
    by_name = {x.name: x for x in gen.structs}
    for f in s.fields:
        off = base + f.offset
        if f.type.kind == "struct" and not f.dims:
            out += leaf_fields(gen, by_name[f.type.name], off)
        elif f.type.kind == "union" and not f.dims:
            # every arm's own fields: the tensor arm's start address, steps and counts, the immediates
            for arm in by_name[f.type.name].fields:
                if arm.type.kind in ("struct", "union") and not arm.dims:
                    inner = Struct(arm.name, "struct", arm.size, 1, False, (arm,), arm.loc, 0, "")
                    out += leaf_fields(gen, inner, off)
                elif not arm.dims and arm.bit_width is None:
                    out.append((off + arm.offset, arm.size, arm.type.kind))
        elif f.dims:
            n = 1
            for d in f.dims:
                n *= d
            esz = f.size // n
            out += [(off + k * esz, esz, f.type.kind) for k in range(n)]
        elif f.bit_width is None:
            out.append((off, f.size, f.type.kind))
        else:
            # a bitfield: the byte(s) its bits touch, mutated as a whole (e.g. a DTYPE_PAIR's nibbles)
            span = ((f.bit_offset or 0) + f.bit_width + 7) // 8
            out.append((off, span, "bits"))
    return sorted(set(out))


def seeds(gen: str, validator: str) -> list[bytes]:
    """Words the C validator accepts (checked by the test), built at the documented offsets."""
    if validator == "is_valid_tensor_scalar_op":
        return [
            w.s3d3_ts(),
            w.s3d3_ts(
                w.TS_BITVEC, op0=w.BITWISE_AND, in_dtype=w.INT32, out_dtype=w.INT32, imm0=0xFF
            ),
            w.s3d3_ts(op0=w.MULT, op1=w.ADD, imm1=1.5, rev=w.BOTH),
            w.s3d3_ts(imm0_src=w.PTR_IMM, imm0=0x100),
            w.s3d3_ts(w.TRANSPOSE_TS, n=32, src_nums=(32, 1, 1), dst_nums=(32, 1, 1)),
        ]
    if validator == "is_valid_tensor_scalar_ptr_op":
        return [
            w.s3d3_ts(w.TS_PTR_ARITH, imm0=0x100, imm1=0x200),
            w.s3d3_ts(
                w.TS_PTR_BITVEC,
                op0=w.BITWISE_AND,
                in_dtype=w.INT32,
                out_dtype=w.INT32,
                imm0=0x100,
                imm1=0x200,
            ),
        ]
    if validator in (
        "is_valid_tensor_scalar_cache_reduce",
        "is_valid_tensor_scalar_cache_cumulative",
    ):
        op = w.CACHE_REDUCE if validator.endswith("reduce") else w.CACHE_CUMULATIVE
        return [
            w.s3d3_ts(op, accum=w.ZERO_ACCUMULATE, op0=w.MULT, op1=w.ADD, imm0=2.0),
            w.s3d3_ts(op, accum=w.LOAD_ACCUMULATE, op0=w.ADD, op1=w.MAX, imm0=1.0, imm1=3.0),
        ]
    if validator == "is_valid_exponential":
        return [
            w.s3d3_ts(w.EXPONENTIAL, op0=w.BYPASS, op1=w.BYPASS, imm0=0.0),
            w.s3d3_ts(w.EXPONENTIAL, op0=w.BYPASS, op1=w.BYPASS, accum=w.LOAD_ACCUMULATE, imm1=1.0),
        ]
    if validator == "is_valid_tensor_scalar_ptr_multi":
        return [
            w.s4d4_tsm(),
            w.s4d4_tsm(
                w.PTR_MULTI_BITVEC, op=w.BITWISE_AND, in_dtype=w.INT32, out_dtype=w.INT32, w=3
            ),
            w.s4d4_tsm(rev=w.BOTH, w=1),
        ]
    if validator == "is_valid_tensor_scalar_ptr_multi_dual":
        return [w.s4d4_tsm(w.DUAL_ARITH, w=4), w.s4d4_tsm(w.DUAL_ARITH, w=2, rev=w.FIRST)]
    if validator == "is_valid_tsm_immediates_load":
        return [w.s2_bn(), w.s2_bn(w.IMMLD_BITVEC, dtype=w.UINT16, src_nums=(4, 2))]
    return _family_seeds(gen, validator)


def _family_seeds(gen: str, validator: str) -> list[bytes]:
    """Seeds of the tensor-tensor / scalar-tensor-tensor / tensor-reduce validators."""
    i32 = {"lo": w.INT32, "hi": w.INT32, "out_dtype": w.INT32}
    if validator == "is_valid_s3s3d3_tt":
        out = [
            w.s3s3d3_tt(),
            w.s3s3d3_tt(w.TT_BITVEC, op=w.BITWISE_XOR, **i32),
            w.s3s3d3_tt(op=w.ADD_INT, **i32),
            w.s3s3d3_tt(w.CAST_PREDICATED, op=w.BYPASS, lo=w.UINT16, hi=w.BF16),
            w.s3s3d3_tt(w.COPY_PREDICATED, op=w.BYPASS, lo=w.INT8),
            w.s3s3d3_tt(w.BN_BACK_PROP, op=w.BYPASS),
        ]
        if gen == "sunda":
            even = (1, 2, 2)
            out.append(
                w.s3s3d3_tt(
                    w.TT_MULT_BF16,
                    op=w.MULT,
                    lo=w.BF16,
                    hi=w.BF16,
                    src0_steps=even,
                    src1_steps=even,
                )
            )
        else:
            out.append(
                w.s3s3d3_tt(w.TT_BITVEC, op=w.LSL, lo=w.INT64, hi=w.UINT32, out_dtype=w.INT64)
            )
        return out
    if validator == "is_valid_scalar_tensor_tensor":
        bv = {"lo": w.INT32, "hi": w.INT32, "out_dtype": w.INT32, "imm0_dtype": w.INT32}
        return [
            w.s2s2d2_stt(),
            w.s2s2d2_stt(rev=w.BOTH, accum=w.ZERO_ACCUMULATE, imm0_src=w.PTR_IMM, imm0=0x100),
            w.s2s2d2_stt(w.STT_BITVEC, op0=w.BITWISE_AND, op1=w.BITWISE_XOR, imm0=0xFF, **bv),
        ]
    if validator == "is_valid_tensor_tensor_scan":
        return [
            w.s2s2d2_stt(w.TT_SCAN, imm0=0.0),
            w.s2s2d2_stt(w.TT_SCAN, rev=w.FIRST, imm0_src=w.REG_PTR_IMM, imm0=3),
        ]
    if validator == "is_valid_tensor_tensor_int_wide":
        return [
            w.s2s2d2d2_tt(),
            w.s2s2d2d2_tt(op=w.MULT_INT, lo=w.INT32, hi=w.INT32, out0=w.UINT32, out1=w.INT32),
            w.s2s2d2d2_tt(op=w.LSL, lo=w.INT16, hi=w.UINT8, out0=w.INT16, out1=w.INT16),
        ]
    if validator == "is_valid_tensor_reduce":
        return [
            w.s4d4_tr(),
            w.s4d4_tr(negated=1, op=w.MAX, op_dim=w.SUBDIM_XY, dst_nums=(1, 1, 1, 1)),
            w.s4d4_tr(w.TR_BITVEC, in_dtype=w.UINT32, out_dtype=w.UINT32, op=w.BITWISE_XOR),
            w.s4d4_tr(w.TR_T_ARITH, n=32),
        ]
    if validator == "is_valid_tensor_reduce_bf16":
        return [
            w.s4d4_tr(w.TR_ADD_BF16, in_dtype=w.BF16),
            w.s4d4_tr(w.TR_MAX_BF16, in_dtype=w.BF16, op=w.MAX),
        ]
    return _next_seeds(gen, validator)


def _next_seeds(gen: str, validator: str) -> list[bytes]:
    """Seeds of the next families (next-families-facts.md): the shapes the digest describes."""
    if validator == "is_valid_copy":
        return [w.s4d4_tr_move(), w.s4d4_tr_move(n=128, in_dtype=w.INT8, out_dtype=w.INT8)]
    if validator == "is_valid_cast":
        return [
            w.s4d4_tr_move(w.CAST, out_dtype=w.BF16),
            w.s4d4_tr_move(w.CAST, in_dtype=w.INT32, out_dtype=w.FP32R, op_dim=w.SUBDIM_UNUSED),
        ]
    if validator == "is_valid_reciprocal":
        big = {"n": 128, "src_nums": (512, 1, 1, 1), "dst_nums": (512, 1, 1, 1)}
        return [w.s4d4_tr_move(w.RECIPROCAL, **big), w.s4d4_tr_move(w.RECIPROCAL, out_dtype=w.FP16)]  # type: ignore[arg-type]
    if validator == "is_valid_tensor_cumulative":
        bv = {"in_dtype": w.UINT32, "out_dtype": w.UINT32, "op": w.BITWISE_XOR}
        return [
            w.s4d4_tr_move(w.CUMULATIVE_ARITH, op=w.ADD),
            w.s4d4_tr_move(w.CUMULATIVE_ARITH, op=w.MULT, op_dim=w.SUBDIM_XYZW),
            w.s4d4_tr_move(w.CUMULATIVE_BITVEC, **bv),  # type: ignore[arg-type]
        ]
    if validator == "is_valid_select_reduce":
        sr = {"lo": w.UINT8, "hi": w.FP32, "op0": w.BYPASS, "op1": w.MAX}
        return [
            w.s2s2d2_stt(w.SELECT_REDUCE, imm0=-3.4028234663852886e38, **sr),  # type: ignore[arg-type]
            w.s2s2d2_stt(
                w.SELECT_REDUCE,
                accum=w.ZERO_ACCUMULATE,
                rev=w.FIRST,
                imm0_src=w.PTR_IMM,
                imm0=0x100,
                **sr,
            ),  # type: ignore[arg-type]
        ]
    if validator == "dbg_is_valid_range_select":
        return [
            w.s2d2_rs(),
            w.s2d2_rs(lo=w.BF16, hi=w.FP32R, reduce_cmd=w.IDLE, bound0_src=w.INST_IMM, bound0=0.0),
        ]
    if validator == "is_valid_memset":
        return [w.d4_mr(), w.d4_mr(dtype=w.BF16, set_value=0x3F80, n=64, dst_nums=(8, 2, 1, 1))]
    if validator == "is_valid_s2d2_ts_as":
        return [
            w.s2d2_ts_as(),
            w.s2d2_ts_as(
                fill_mode=w.AS_NE, lo=w.BF16, hi=w.FP16, fill_reg=63, base=5, channel_multiplier=2
            ),
        ]
    stats = {"n": 128, "dst_nums": (6, 1), "even_count": 64.0, "odd_count": 64.0}
    if validator == "is_valid_max8":
        return [w.s4d2_bn(), w.s4d2_bn(in_dtype=w.BF16, src_nums=(64, 2, 1, 1))]
    if validator == "is_valid_find_index8":
        return [
            w.s4d2_bn(w.FIND_INDEX8, out_dtype=w.UINT32),
            w.s4d2_bn(w.FIND_INDEX8, out_dtype=w.UINT16),
        ]
    if validator == "is_valid_batch_norm_stats2":
        return [w.s4d2_bn(w.BN_STATS2, **stats), w.s4d2_bn(0x82, out_dtype=w.BF16, **stats)]  # type: ignore[arg-type]
    if validator == "is_valid_batch_norm_aggregate":
        return [w.s4d2_bn(w.BN_AGGREGATE, n=128, src_nums=(12, 1, 1, 1), dst_nums=(2, 1))]
    if validator == "is_valid_match_replace8":
        return [w.s4d4_mr(), w.s4d4_mr(in_dtype=w.BF16, out_dtype=w.FP32, immediate=0.0)]
    if validator == "is_valid_iota":
        return [
            w.d4_iota(),
            w.d4_iota(n=1, src_nums=(512, 1, 1, 1), dst_nums=(512, 1, 1, 1)),
            w.d4_iota(
                base=5,
                steps=(-1, 2, 0, 0),
                src_nums=(4, 2, 1, 1),
                dst_nums=(8, 1, 1, 1),
                out_dtype=w.BF16,
            ),
        ]
    return []


def _put(buf: bytearray, off: int, size: int, value: int) -> None:
    buf[off : off + size] = (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def mutations(
    gen: Generation, arm: Struct, seed_words: list[bytes], rng: np.random.Generator, count: int
) -> list[bytes]:
    fields = leaf_fields(gen, arm)
    enum_values = sorted({m.value for e in gen.enums for m in e.members if e.size == 1})
    out: list[bytes] = []
    # every field of every seed through every interesting value, one field at a time
    for s in seed_words:
        for off, size, kind in fields:
            pool = (
                tuple(range(256))
                if kind == "bits" and size == 1
                else INTERESTING_8 + tuple(enum_values)
                if size == 1
                else INTERESTING_16
                if size == 2
                else INTERESTING_32
            )
            for v in pool:
                b = bytearray(s)
                _put(b, off, size, v)
                out.append(bytes(b))
    # then random multi-field mutations until `count`
    while len(out) < count:
        b = bytearray(seed_words[int(rng.integers(len(seed_words)))])
        for _ in range(int(rng.integers(1, 4))):
            off, size, kind = fields[int(rng.integers(len(fields)))]
            if size == 1:
                pool = INTERESTING_8 + tuple(enum_values)
            elif size == 2:
                pool = INTERESTING_16
            elif kind == "float":
                pool = tuple(
                    struct.unpack("<I", struct.pack("<f", x))[0]
                    for x in (0.0, -0.0, 1.0, -2.5, 1e30, float("inf"), float("nan"))
                )
            else:
                pool = INTERESTING_32
            v = (
                int(pool[int(rng.integers(len(pool)))])
                if rng.random() < 0.85
                else int.from_bytes(rng.bytes(size), "little")
            )
            _put(b, off, size, v)
        out.append(bytes(b))
    return out[:count] if len(out) > count else out


def random_words(opcodes: tuple[int, ...], rng: np.random.Generator, count: int) -> np.ndarray:
    words = rng.integers(0, 256, size=(count, 64), dtype=np.uint8)
    half = count // 2
    words[:half, 0] = rng.choice(np.array(opcodes, dtype=np.uint8), size=half)
    words[: half // 2, 1] = 16
    return words


def edge_words(gen: Generation, seed_words: list[bytes]) -> list[bytes]:
    """Hand edge cases: all-zero and all-ones words, every seed under every opcode the generation
    defines (a word meant for one validator shown to another), and the header length off by one."""
    opcodes = next(e for e in gen.enums if e.name == "NEURON_ISA_TPB_OPCODE")
    out = [bytes(64), b"\xff" * 64, bytes([0x43, 16]) + bytes(62)]
    for s in seed_words:
        for m in opcodes.members:
            out.append(bytes([m.value]) + s[1:])
        for length in (0, 15, 17, 32, 255):
            out.append(s[:1] + bytes([length]) + s[2:])
    return out
