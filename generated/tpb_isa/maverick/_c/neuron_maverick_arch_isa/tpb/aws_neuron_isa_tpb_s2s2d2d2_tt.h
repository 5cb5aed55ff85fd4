/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v5.
 */

#ifndef AWS_NEURON_ISA_TPB_S2S2D2D2_TT_H
#define AWS_NEURON_ISA_TPB_S2S2D2D2_TT_H
#include "aws_neuron_isa_tpb_common.h"

#ifdef __cplusplus
extern "C" {
#endif
// NEURON_ISA_TPB_S2S2D2D2_TT_STRUCT: two 2-D sources and two 2-D destinations (NC-v5 only).
// Used by TensorTensorIntWide: a 32-bit integer op per element whose 64-bit result is split
// in two words: dst0 receives bits 31..0, dst1 bits 63..32 (the carry of an add, the borrow
// of a subtract, the upper half of a product, the bits shifted out).
// Supports the 2x performance mode.
// in0_in1_dtype: src0 (lo) / src1 (hi) types; out0_out1_dtype: dst0 (lo) / dst1 (hi) types.
// Sources and destinations live in SBUF; the shift count of a shift op is src1.
//
//
// Each pattern is a 12-byte 2-D pattern so that four of them fit in the 64-byte word;
// indirect (index-table) addressing is NOT supported by this form.
//
//


typedef struct NEURON_ISA_TPB_S2S2D2D2_TT_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    NEURON_ISA_TPB_DTYPE_PAIR          in0_in1_dtype;        // 1   (12     )
    NEURON_ISA_TPB_DTYPE_PAIR          out0_out1_dtype;      // 1   (13     )
    NEURON_ISA_TPB_ALU_OP              op;                   // 1   (14     )
    uint8_t                            num_active_channels;  // 1   (15     )
    NEURON_ISA_TPB_MEM_PATTERN2D       src0_mem_pattern;     // 12  (16 - 27)
    NEURON_ISA_TPB_MEM_PATTERN2D       src1_mem_pattern;     // 12  (28 - 39)
    NEURON_ISA_TPB_MEM_PATTERN2D       dst0_mem_pattern;     // 12  (40 - 51)
    NEURON_ISA_TPB_MEM_PATTERN2D       dst1_mem_pattern;     // 12  (52 - 63)
} NEURON_ISA_TPB_S2S2D2D2_TT_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S2S2D2D2_TT_STRUCT) == 64, "Error: NEURON_ISA_TPB_S2S2D2D2_TT_STRUCT is NOT 64B.");

// Validity rules as Rust-style specifications; the C bodies are in aws_neuron_isa_tpb_assert.h,
// section "//* s2s2d2d2_tt_assert.h". lo/hi: in0_in1_dtype nibbles; out0/out1: out0_out1_dtype nibbles.





// fn is_valid_tensor_tensor_int_wide(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_tensor_tensor_int_wide_opcode(i)
//     // element types: 8/16/32-bit integers everywhere
//     && is_valid_int_dtype_datapath(lo) && is_valid_int_dtype_datapath(hi)
//     && is_valid_int_dtype_datapath(out0) && is_valid_int_dtype_datapath(out1)
//     // operation
//     && is_valid_enum(EnumList::AluOp, i.s2s2d2d2_tt.op)
//     && is_valid_tt_int_wide_op(i.s2s2d2d2_tt.op)
//     && tt_int_wide_op_dtype_constraints(i)
//     && s2s2d2d2_tt_no_indirect(i)
//     // partitions
//     && check_m2d_active_channels(i.s2s2d2d2_tt.src0_mem_pattern, i.s2s2d2d2_tt.num_active_channels)
//     && check_m2d_active_channels(i.s2s2d2d2_tt.src1_mem_pattern, i.s2s2d2d2_tt.num_active_channels)
//     && check_m2d_active_channels(i.s2s2d2d2_tt.dst0_mem_pattern, i.s2s2d2d2_tt.num_active_channels)
//     && check_m2d_active_channels(i.s2s2d2d2_tt.dst1_mem_pattern, i.s2s2d2d2_tt.num_active_channels)
//     // patterns: SBUF only, sources read, destinations written
//     // (MEM_PATTERN2D arms; the tensor arm, as indirect forms are rejected above)
//     //
//     && mem2d_valid(i.s2s2d2d2_tt.src0_mem_pattern, lo, WriteTensor::False, AllowedInPSUM::False, AllowedInSBUF::True)
//     && mem2d_valid(i.s2s2d2d2_tt.src1_mem_pattern, hi, WriteTensor::False, AllowedInPSUM::False, AllowedInSBUF::True)
//     && mem2d_valid(i.s2s2d2d2_tt.dst0_mem_pattern, out0, WriteTensor::True, AllowedInPSUM::False, AllowedInSBUF::True)
//     && mem2d_valid(i.s2s2d2d2_tt.dst1_mem_pattern, out1, WriteTensor::True, AllowedInPSUM::False, AllowedInSBUF::True)
//     // element counts
//     && same_element_count_m2d(i.s2s2d2d2_tt.src0_mem_pattern, i.s2s2d2d2_tt.src1_mem_pattern)
//     && same_element_count_m2d(i.s2s2d2d2_tt.src0_mem_pattern, i.s2s2d2d2_tt.dst0_mem_pattern)
//     && same_element_count_m2d(i.s2s2d2d2_tt.src0_mem_pattern, i.s2s2d2d2_tt.dst1_mem_pattern)
//     && has_valid_active_channel_range_with_tile(i.s2s2d2d2_tt.num_active_channels, POOLING_NUM_CHANNELS, i.s2s2d2d2_tt.header.inst_flags)
// }

// fn is_valid_tt_int_wide_op(op: AluOp) -> bool {
//     op == AluOp::AddInt
//     || op == AluOp::SubtractInt
//     || op == AluOp::MultInt
//     || op == AluOp::MultUint
//     || op == AluOp::ArithShiftLeft
//     || op == AluOp::ArithShiftRight
//     || op == AluOp::LogicalShiftLeft
//     || op == AluOp::LogicalShiftRight
// }

// fn tt_int_wide_op_dtype_constraints(i: Inst) -> bool {
//     let op = i.s2s2d2d2_tt.op;
//     let lo = in0_in1_dtype.dtype_lo;    // src0
//     let hi = in0_in1_dtype.dtype_hi;    // src1
//     let out0 = out0_out1_dtype.dtype_lo; // low word
//     let out1 = out0_out1_dtype.dtype_hi; // high word
//
//     if is_shift_op(op) {
//         // the shift count (src1) is unsigned
//         return is_unsigned_int(hi);
//     }
//
//     // add / subtract: unsigned inputs (signed overflow is not defined)
//     let add_sub_ok = (op == AluOp::AddInt || op == AluOp::SubtractInt)
//         && is_unsigned_int(lo) && is_unsigned_int(hi);
//     // multiply: MultInt signed inputs, MultUint unsigned inputs
//     let mult_ok = (op == AluOp::MultInt && is_signed_int(lo) && is_signed_int(hi))
//         || (op == AluOp::MultUint && is_unsigned_int(lo) && is_unsigned_int(hi));
//
//     // the low word is a 32-bit integer;
//     // the high word is signed exactly when the sources are
//     (add_sub_ok || mult_ok)
//         && is_valid_32b_int_dtype(out0)
//         && tt_int_wide_dst1_signedness_matches_src(i)
//     // (is_signed_int(out1) == is_signed_int(lo))
// }

// fn tt_int_wide_dst1_signedness_matches_src(i: Inst) -> bool {
//     is_signed_int(out1) == is_signed_int(lo)
// }

// fn s2s2d2d2_tt_no_indirect(i: Inst) -> bool {
//     !indirect_pattern(src0) && !indirect_pattern(src1) && !indirect_pattern(dst0) && !indirect_pattern(dst1)
// }

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_S2S2D2D2_TT_H
