/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v5.
 */

#ifndef AWS_NEURON_ISA_TPB_S4D4_TR_H
#define AWS_NEURON_ISA_TPB_S4D4_TR_H
#include "aws_neuron_isa_tpb_common.h"

#ifdef __cplusplus
extern "C" {
#endif
// NEURON_ISA_TPB_S4D4_TR_STRUCT: one 4-D source, one 4-D destination, one ALU op, a sub-dimension.
// Instructions that use this operand layout:
//   - TensorReduceArithOp / TensorReduceBitvecOp: fold the op_dim innermost dims with op
//     (the bitvec form includes a CRC32 polynomial-reduce variant)
//   - TransposeTensorReduceArithOp / BitvecOp: as TensorReduce, after transposing
//     32-element x 32-partition blocks of the source
//   - TensorCumulativeArithOp / BitvecOp, Copy, Cast, Reciprocal: see their validators below
//     (StreamShuffle and StreamTranspose also use it; their validators are not reconstructed)
// negated: 1 negates the result of an arith reduce (arith forms only).
// mask_enable must be 0.
//
// Field sizes and byte ranges are in the trailing comments of the struct.



typedef struct NEURON_ISA_TPB_S4D4_TR_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    NEURON_ISA_TPB_MEM_PATTERN4D       src_mem_pattern;      // 20  (12 - 31)
    NEURON_ISA_TPB_DTYPE               in_dtype;             // 1   (32     )
    NEURON_ISA_TPB_DTYPE               out_dtype;            // 1   (33     )
    uint8_t                            num_active_channels;  // 1   (34     )
    uint8_t                            negated;              // 1   (35     )
    NEURON_ISA_TPB_ALU_OP              op;                   // 1   (36     )
    NEURON_ISA_TPB_TENSOR_SUBDIM       op_dim;               // 1   (37     )
    uint8_t                            mask_enable;          // 1   (38     )
    uint8_t                            reserved1[5];         // 5   (39 - 43)
    NEURON_ISA_TPB_MEM_PATTERN4D       dst_mem_pattern;      // 20  (44 - 63)
} NEURON_ISA_TPB_S4D4_TR_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S4D4_TR_STRUCT) == 64, "Error: NEURON_ISA_TPB_S4D4_TR_STRUCT is NOT 64B.");

// Validity rules as Rust-style specifications; the C bodies are in aws_neuron_isa_tpb_assert.h,
// section "//* s4d4_tr_assert.h".



// fn is_valid_tensor_reduce(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_tensor_reduce_opcode(i)
//     && is_valid_tensor_reduce_common(i)
//     && is_valid_enum(EnumList::AluOp, i.s4d4_tr.op)
//     && tensor_reduce_valid_alu_op(i)
//     && tensor_reduce_valid_dtype(i)
//     && has_valid_reduce_negated(i)
//     && has_valid_tensor_reduce_op_dim(i)
//     && check_m4d_active_channels(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.num_active_channels)
//     && check_m4d_active_channels(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.num_active_channels)
//     && mem4d_valid(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && mem4d_valid(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && indirect_quadrant_check_src4d(i.s4d4_tr.src_mem_pattern)
//     && indirect_quadrant_check_src4d_dst4d(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.dst_mem_pattern)
//     && tensor_reduce_dst_element_cnt_check(i)
//     && tensor_reduce_transpose_check(i)
// }






// fn is_valid_tensor_reduce_common(i: Inst) -> bool {
//     s4d4_tr_reserved_zero(i)
//         && mask_enable_zero(i)
//         && has_valid_active_channel_range_with_tile(i.s4d4_tr.num_active_channels, POOLING_NUM_CHANNELS, i.s4d4_tr.header.inst_flags)
//         && is_valid_dtype_64(i.s4d4_tr.in_dtype, DtypeAllowFP32R::False, DtypeAllowU64::True, DtypeAllowI64::True)
//         && is_valid_dtype_64(i.s4d4_tr.out_dtype, DtypeAllowFP32R::True, DtypeAllowU64::True, DtypeAllowI64::True)
// }














// fn has_valid_reduce_negated(i: Inst) -> bool {
//     // an arith reduce may negate its result (negated = 1);
//     // the bitvec forms keep the field at 0
//     if tensor_reduce_arith(i) {
//         i.s4d4_tr.negated == 0 || i.s4d4_tr.negated == 1
//     } else {
//         i.s4d4_tr.negated == 0
//     }
//     // (0 and 1 are the only encodings)
// }

// fn tensor_reduce_arith(i: Inst) -> bool {
//     i.s4d4_tr.header.opcode == Opcode::TensorReduceArithOp
//     || i.s4d4_tr.header.opcode == Opcode::TransposeTensorReduceArithOp
// }

// fn tensor_reduce_bitvec(i: Inst) -> bool {
//     i.s4d4_tr.header.opcode == Opcode::TensorReduceBitvecOp
//     || i.s4d4_tr.header.opcode == Opcode::TransposeTensorReduceBitvecOp
// }

// fn tensor_reduce_valid_alu_op(i: Inst) -> bool {
//     (tensor_reduce_arith(i) && (is_general_arith_op(i.s4d4_tr.op) || is_valid_tensor_reduce_int_op(i.s4d4_tr.op)))
//     || (tensor_reduce_bitvec(i) && is_general_bitvec_op(i.s4d4_tr.op))
// }

// fn is_valid_tensor_reduce_int_op(op: AluOp) -> bool {
//     is_valid_int_aluop(op)
// }



// fn tensor_cumulative_bitvec(i: Inst) -> bool {
//     i.s4d4_tr.header.opcode == Opcode::TensorCumulativeBitvecOp
// }

// fn tensor_cumulative_arith(i: Inst) -> bool {
//     i.s4d4_tr.header.opcode == Opcode::TensorCumulativeArithOp
// }

// fn tensor_reduce_valid_dtype(i: Inst) -> bool {
//     !tensor_reduce_bitvec(i)
//     || (i.s4d4_tr.in_dtype == i.s4d4_tr.out_dtype
//     &&     && (i.s4d4_tr.in_dtype == Dtype::UINT8 || i.s4d4_tr.in_dtype == Dtype::UINT16 || i.s4d4_tr.in_dtype == Dtype::UINT32 || i.s4d4_tr.in_dtype == Dtype::INT32)
//     &&     && (i.s4d4_tr.op != AluOp::LogicalShiftRight || i.s4d4_tr.in_dtype == Dtype::INT32))
// }

// fn has_valid_tensor_reduce_op_dim(i: Inst) -> bool {
//     i.s4d4_tr.op_dim == TensorSubdim::X || i.s4d4_tr.op_dim == TensorSubdim::XY
//     || i.s4d4_tr.op_dim == TensorSubdim::XYZ || i.s4d4_tr.op_dim == TensorSubdim::XYZW
// }

// fn tensor_reduce_dst_element_cnt_check(i: Inst) -> bool {
//     // every output element folds the op_dim innermost dims of the source
//     && shape_from_register(src) || shape_from_register(dst) || indirect_pattern(src) || indirect_pattern(dst)
//     || element_count(dst) * reduced_count(src, op_dim) == element_count(src)
// }

// fn tensor_reduce_transpose_check(i: Inst) -> bool {
//     !is_transpose_opcode(i)
//     || (has_transpose_src_element_count_t4d(src) && has_multiple_32_channels(i.s4d4_tr.num_active_channels))
// }
































// fn is_valid_tensor_cumulative(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_tensor_cumulative_opcode(i)
//     && s4d4_tr_reserved_zero(i)
//     && mask_enable_zero(i)
//     && is_valid_dtype(i.s4d4_tr.in_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s4d4_tr.out_dtype, DtypeAllowFP32R::True)
//     && is_valid_enum(EnumList::AluOp, i.s4d4_tr.op)
//     && is_valid_subdim(i.s4d4_tr.op_dim)
//     && has_valid_active_channel_range_with_tile(i.s4d4_tr.num_active_channels, POOLING_NUM_CHANNELS, i.s4d4_tr.header.inst_flags)
//     && check_m4d_active_channels(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.num_active_channels)
//     && check_m4d_active_channels(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.num_active_channels)
//     && mem4d_valid(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && mem4d_valid(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && indirect_quadrant_check_src4d(i.s4d4_tr.src_mem_pattern)
//     && indirect_quadrant_check_src4d_dst4d(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.dst_mem_pattern)
//     && s4d4_tr_same_src_dst_count(i)
//     && tensor_cumulative_valid_alu_op(i)
//     && tensor_cumulative_valid_dtype(i)
//     && has_zero_negated_field(i)
// }

// fn tensor_cumulative_valid_alu_op(i: Inst) -> bool {
//     // a running Divide, Pow or Mod is not offered
//     i.s4d4_tr.op != AluOp::Divide
//     && i.s4d4_tr.op != AluOp::Pow
//     && i.s4d4_tr.op != AluOp::Mod
//     // the bitvec opcode takes the bitvec ops (Crc32 too),
//     // the arith opcode the arith ops (the int band and Rsqrt too)
//     && (!tensor_cumulative_bitvec(i) || is_bitvec_op(i.s4d4_tr.op))
//     && (!tensor_cumulative_arith(i) || is_arith_op(i.s4d4_tr.op))
// }

// fn tensor_cumulative_valid_dtype(i: Inst) -> bool {
//     // arith: any dtype is_valid_dtype takes; bitvec: one integer type
//     // on both sides, and a logical right shift only on INT32
//     // (UINT64/INT64 never reach here: is_valid_dtype refuses them)
//     !tensor_cumulative_bitvec(i)
//     || (i.s4d4_tr.in_dtype == i.s4d4_tr.out_dtype
//         && (i.s4d4_tr.in_dtype == Dtype::UINT8 || i.s4d4_tr.in_dtype == Dtype::UINT16
//             || i.s4d4_tr.in_dtype == Dtype::UINT32 || i.s4d4_tr.in_dtype == Dtype::INT32)
//         && (i.s4d4_tr.op != AluOp::LogicalShiftRight || i.s4d4_tr.in_dtype == Dtype::INT32))
// }

// fn s4d4_tr_same_src_dst_count(i: Inst) -> bool {
//     same_element_count_m4d(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.dst_mem_pattern)
// }
// fn is_valid_copy(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_copy_opcode(i)
//     && s4d4_tr_reserved_zero(i)
//     && mask_enable_zero(i)
//     && is_valid_dtype(i.s4d4_tr.in_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s4d4_tr.out_dtype, DtypeAllowFP32R::True)
//     && is_valid_enum(EnumList::AluOp, i.s4d4_tr.op)
//     && is_zero_subdim(i.s4d4_tr.op_dim)
//     && has_valid_active_channel_range_with_tile(i.s4d4_tr.num_active_channels, POOLING_NUM_CHANNELS, i.s4d4_tr.header.inst_flags)
//     && check_m4d_active_channels(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.num_active_channels) && check_m4d_active_channels(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.num_active_channels)
//     && mem4d_valid(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && mem4d_valid(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && indirect_quadrant_check_src4d(i.s4d4_tr.src_mem_pattern) && indirect_quadrant_check_src4d_dst4d(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.dst_mem_pattern)
//     && s4d4_tr_same_src_dst_count(i)
//     && s4d4_tr_op_bypass(i)
//     && s4d4_tr_same_src_dst_type(i)
//     && has_zero_negated_field(i)
// }

// fn is_valid_cast(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_cast_opcode(i)
//     && s4d4_tr_reserved_zero(i)
//     && mask_enable_zero(i)
//     && is_valid_dtype(i.s4d4_tr.in_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s4d4_tr.out_dtype, DtypeAllowFP32R::True)
//     && is_valid_enum(EnumList::AluOp, i.s4d4_tr.op)
//     && is_zero_subdim(i.s4d4_tr.op_dim)
//     && has_valid_active_channel_range_with_tile(i.s4d4_tr.num_active_channels, POOLING_NUM_CHANNELS, i.s4d4_tr.header.inst_flags)
//     && check_m4d_active_channels(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.num_active_channels) && check_m4d_active_channels(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.num_active_channels)
//     && mem4d_valid(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && mem4d_valid(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && indirect_quadrant_check_src4d(i.s4d4_tr.src_mem_pattern) && indirect_quadrant_check_src4d_dst4d(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.dst_mem_pattern)
//     && s4d4_tr_same_src_dst_count(i)
//     && s4d4_tr_op_bypass(i)
//     && has_zero_negated_field(i)
// }










// fn is_valid_reciprocal(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_reciprocal_opcode(i)
//     && s4d4_tr_reserved_zero(i)
//     && mask_enable_zero(i)
//     && is_valid_dtype(i.s4d4_tr.in_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s4d4_tr.out_dtype, DtypeAllowFP32R::True)
//     && is_valid_enum(EnumList::AluOp, i.s4d4_tr.op)
//     && is_zero_subdim(i.s4d4_tr.op_dim)
//     && has_valid_active_channel_range_with_tile(i.s4d4_tr.num_active_channels, DVE_NUM_CHANNELS, i.s4d4_tr.header.inst_flags)
//     && check_m4d_active_channels(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.num_active_channels)
//     && check_m4d_active_channels(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.num_active_channels)
//     && mem4d_valid(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && mem4d_valid(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && indirect_quadrant_check_src4d(i.s4d4_tr.src_mem_pattern)
//     && indirect_quadrant_check_src4d_dst4d(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.dst_mem_pattern)
//     && s4d4_tr_same_src_dst_count(i)
//     && s4d4_tr_op_bypass(i)
//     && has_zero_negated_field(i)
// }

























// fn has_copy_opcode(i: Inst) -> bool {
//     i.s4d4_tr.header.opcode == Opcode::Copy
// }

// fn has_cast_opcode(i: Inst) -> bool {
//     i.s4d4_tr.header.opcode == Opcode::Cast
// }

// fn has_reciprocal_opcode(i: Inst) -> bool {
//     i.s4d4_tr.header.opcode == Opcode::Reciprocal
// }

// fn s4d4_tr_op_bypass(i: Inst) -> bool {
//     i.s4d4_tr.op == AluOp::Bypass
// }

// fn s4d4_tr_same_src_dst_type(i: Inst) -> bool {
//     i.s4d4_tr.out_dtype == i.s4d4_tr.in_dtype
// }














// fn has_tensor_cumulative_opcode(i: Inst) -> bool {
//     tensor_cumulative_arith(i) || tensor_cumulative_bitvec(i)
// }


// fn has_zero_negated_field(i: Inst) -> bool {
//     i.s4d4_tr.negated == 0
// }

// fn is_zero_subdim(subdim: TensorSubdim) -> bool {
//     subdim == TensorSubdim::UNUSED || subdim == TensorSubdim::X
// }

// fn is_valid_subdim(subdim: TensorSubdim) -> bool {
//     subdim == TensorSubdim::X || subdim == TensorSubdim::XY
//     || subdim == TensorSubdim::XYZ || subdim == TensorSubdim::XYZW
// }

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_S4D4_TR_H
