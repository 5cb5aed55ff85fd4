/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v3.
 */

#ifndef AWS_NEURON_ISA_TPB_S3D3_TS_H
#define AWS_NEURON_ISA_TPB_S3D3_TS_H
#include "aws_neuron_isa_tpb_common.h"

#ifdef __cplusplus
extern "C" {
#endif
// NEURON_ISA_TPB_S3D3_TS_STRUCT: one 3-D source, one 3-D destination and two scalar slots.
// Instructions that use this operand layout:
//   - TensorScalarArithOp
//   - TensorScalarBitvecOp
//   - TransposeTensorScalarArithOp
//   - TensorScalarCacheReduce
//   - TensorScalarCacheCumulative
//   - TensorScalarPtrArithOp (deprecated, use TensorScalarArithOp instead)
//   - TensorScalarPtrBitvecOp (deprecated, use TensorScalarBitvecOp instead)
//   (Exponential has an opcode on NC-v3 but does not use this struct here.)

// Each field comment gives its size in bytes and its first and last byte in the 64-byte word.
// src/dst_mem_pattern are plain TENSOR3D patterns on this generation.


typedef struct NEURON_ISA_TPB_S3D3_TS_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    NEURON_ISA_TPB_ACCUM_CMD           accumulator_cmd;      // 1   (12     )
    uint8_t                            reserved0[3];         // 3   (13 - 15)
    NEURON_ISA_TPB_TENSOR3D            src_mem_pattern;      // 16  (16 - 31)
    NEURON_ISA_TPB_DTYPE               in_dtype;             // 1   (32     )
    NEURON_ISA_TPB_DTYPE               out_dtype;            // 1   (33     )
    uint8_t                            num_active_channels;  // 1   (34     )
    NEURON_ISA_TPB_IMM_SRC             imm0_src;             // 1   (35     )
    NEURON_ISA_TPB_ALU_OP              op0;                  // 1   (36     )
    NEURON_ISA_TPB_ALU_OP              op1;                  // 1   (37     )
    NEURON_ISA_TPB_TENS_SCALAR_REV_OPS reverse_operands;     // 1   (38     )
    NEURON_ISA_TPB_IMM_SRC             imm1_src;             // 1   (39     )
    NEURON_ISA_TPB_IMM_VAL_INST_FIELD  imm0;                 // 4   (40 - 43)
    NEURON_ISA_TPB_IMM_VAL_INST_FIELD  imm1;                 // 4   (44 - 47)
    NEURON_ISA_TPB_TENSOR3D            dst_mem_pattern;      // 16  (48 - 63)
} NEURON_ISA_TPB_S3D3_TS_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S3D3_TS_STRUCT) == 64, "Error: NEURON_ISA_TPB_S3D3_TS_STRUCT is NOT 64B.");

// Validity rules, written as Rust-style specification comments. The C bodies of the same
// predicates are in aws_neuron_isa_tpb_assert.h, section "//* s3d3_ts_assert.h". `i` is the
// 64-byte instruction seen through NEURON_ISA_TPB_INST_UNION, `i.s3d3_ts` this struct.
//
// Opcode -> validator:
//   TensorScalarArithOp, TensorScalarBitvecOp,
//   TransposeTensorScalarArithOp           -> is_valid_tensor_scalar_op
//   TensorScalarPtrArithOp/BitvecOp        -> is_valid_tensor_scalar_ptr_op
//   TensorScalarCacheReduce/Cumulative     -> is_valid_tensor_scalar_cache_reduce/_cumulative
//   (Exponential has no validator on this generation)

// fn is_valid_tensor_scalar_op(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_tensor_scalar_opcode(i)
//     && tensor_scalar_valid_ops(i)
//     && tensor_scalar_valid_types(i)
//     && tensor_scalar_immediates_check(i)
//     && tensor_scalar_shift_chk(i)
//     && tensor_scalar_tensor_chk(i)
//     && tensor_scalar_reverse_chk(i)
//     && s3d3_ts_reserved_zero(i)
//     && s3d3_transpose_check(i)
//     && is_valid_dtype(i.s3d3_ts.in_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s3d3_ts.out_dtype, DtypeAllowFP32R::True)
//     && is_valid_aluop(i.s3d3_ts.op0)
//     && is_valid_aluop(i.s3d3_ts.op1)
//     && has_zero_accum_cmd_field(i)
//     && has_valid_active_channel_range(i.s3d3_ts.num_active_channels, POOLING_NUM_CHANNELS)
//     && check_t3d_active_channels(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.num_active_channels)
//     && check_t3d_active_channels(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.num_active_channels)
//     && tensor3d_valid(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor3d_valid(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
// }



// fn is_valid_tensor_scalar_ptr_op(i: Inst) -> bool {
//     has_valid_neuron_header(i) && has_valid_neuron_events(i)
//     && has_tensor_scalar_ptr_opcode(i)
//     && tensor_scalar_valid_ops(i) && tensor_scalar_valid_types(i)
//     && tensor_scalar_ptr_immediates(i) && tensor_scalar_ptr_imm_src(i)
//     && tensor_scalar_shift_chk(i) && tensor_scalar_tensor_chk(i) && tensor_scalar_reverse_chk(i)
//     && s3d3_ts_reserved_zero(i) && has_zero_accum_cmd_field(i)
//     && is_valid_dtype(i.s3d3_ts.in_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s3d3_ts.out_dtype, DtypeAllowFP32R::True)
// }

// The cache pair: per channel, acc = op1(op0(src[k], imm0), acc) over the source elements
// in walk order. CacheReduce writes only the final acc; CacheCumulative writes acc after
// every element (an inclusive scan). accumulator_cmd chooses the seed: ZeroAccumulate uses
// op1's identity, Accumulate keeps what an earlier instruction left, LoadAccumulate loads
// imm1. Both opcodes share one rule set and differ only in the opcode predicate.

// fn has_zero_accum_cmd_field(i: Inst) -> bool {
//     i.s3d3_ts.accumulator_cmd == AccumCmd::Idle
// }




// fn is_valid_tensor_scalar_cache_reduce(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_tensor_cache_reduce_opcode(i)
//     && tensor_scalar_cache_reduce_valid_ops(i)
//     && tensor_scalar_cache_reduce_valid_types(i)
//     && tensor_scalar_cache_reduce_immediates_check(i)
//     && tensor_scalar_tensor_chk(i)
//     && tensor_scalar_cache_reduce_reverse_chk(i)
//     && s3d3_ts_reserved_zero(i)
//     && has_valid_tensor_scalar_cache_reduce_accum_cmd(i)
//     && is_valid_dtype(i.s3d3_ts.in_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s3d3_ts.out_dtype, DtypeAllowFP32R::True)
//     && is_valid_aluop(i.s3d3_ts.op0)
//     && is_valid_aluop(i.s3d3_ts.op1)
//     && has_valid_active_channel_range(i.s3d3_ts.num_active_channels, POOLING_NUM_CHANNELS)
//     && check_t3d_active_channels(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.num_active_channels)
//     && check_t3d_active_channels(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.num_active_channels)
//     && tensor3d_valid(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor3d_valid(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
// }

// fn is_valid_tensor_scalar_cache_cumulative(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_tensor_cache_cumulative_opcode(i)
//     && tensor_scalar_cache_reduce_valid_ops(i)
//     && tensor_scalar_cache_reduce_valid_types(i)
//     && tensor_scalar_cache_reduce_immediates_check(i)
//     && tensor_scalar_tensor_chk(i)
//     && tensor_scalar_cache_reduce_reverse_chk(i)
//     && s3d3_ts_reserved_zero(i)
//     && has_valid_tensor_scalar_cache_reduce_accum_cmd(i)
//     && is_valid_dtype(i.s3d3_ts.in_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s3d3_ts.out_dtype, DtypeAllowFP32R::True)
//     && is_valid_aluop(i.s3d3_ts.op0) && is_valid_aluop(i.s3d3_ts.op1)
//     && has_valid_active_channel_range(i.s3d3_ts.num_active_channels, POOLING_NUM_CHANNELS)
//     && check_t3d_active_channels(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.num_active_channels)
//     && check_t3d_active_channels(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.num_active_channels)
//     && tensor3d_valid(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor3d_valid(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
// }

// Field notes (NC-v3 copy):
//   accumulator_cmd      Idle for the TensorScalar, Transpose and Ptr opcodes; the cache pair
//                        needs ZeroAccumulate, Accumulate or LoadAccumulate.
//   reserved0            zero.
//   src_mem_pattern      input walk; index 0 of step_elem/num_elem is the innermost dim.
//   in_dtype/out_dtype   FP32R is accepted on the output side only.
//   num_active_channels  1..POOLING_NUM_CHANNELS partitions, counted from the partition of
//                        the start address.
//   imm0_src/imm1_src    where each scalar comes from: the instruction itself, a
//                        PartitionOffset pointer, or a register that holds the pointer.
//   op0/op1              result = op1(op0(tensor, imm0), imm1); reverse_operands swaps
//                        the operands of op0 (bit 0) and of op1 (bit 1).
//   imm0/imm1            fp32 (arith) or a width-checked integer (bitvec) when inline.
//   dst_mem_pattern      output walk; it holds as many elements as src.
//
// The Exponential opcode is defined in the opcode enum of this generation but is not
// bound to this struct and has no validator here (both arrive with NC-v4).












































// fn has_valid_tensor_scalar_cache_reduce_accum_cmd(i: Inst) -> bool {
//     (i.s3d3_ts.accumulator_cmd == AccumCmd::ZeroAccumulate)
//     || (i.s3d3_ts.accumulator_cmd == AccumCmd::Accumulate)
//     || (i.s3d3_ts.accumulator_cmd == AccumCmd::LoadAccumulate)
// }

// fn has_tensor_cache_reduce_opcode(i: Inst) -> bool {
//     i.s3d3_ts.header.opcode == Opcode::TensorScalarCacheReduce
// }

// fn has_tensor_cache_cumulative_opcode(i: Inst) -> bool {
//     i.s3d3_ts.header.opcode == Opcode::TensorScalarCacheCumulative
// }



// fn has_tensor_scalar_ptr_opcode(i: Inst) -> bool {
//     (i.s3d3_ts.header.opcode == Opcode::TensorScalarPtrArithOp)
//     || (i.s3d3_ts.header.opcode == Opcode::TensorScalarPtrBitvecOp)
// }

// fn has_tensor_scalar_opcode(i: Inst) -> bool {
//     (i.s3d3_ts.header.opcode == Opcode::TensorScalarArithOp)
//     || (i.s3d3_ts.header.opcode == Opcode::TensorScalarBitvecOp)
//     || (i.s3d3_ts.header.opcode == Opcode::TransposeTensorScalarArithOp)
// }

// fn tensor_scalar_bitvec(i: Inst) -> bool {
//     (i.s3d3_ts.header.opcode == Opcode::TensorScalarBitvecOp)
//     || (i.s3d3_ts.header.opcode == Opcode::TensorScalarPtrBitvecOp)
// }




// fn tensor_scalar_arith(i: Inst) -> bool {
//     (i.s3d3_ts.header.opcode == Opcode::TensorScalarArithOp)
//     || (i.s3d3_ts.header.opcode == Opcode::TensorScalarPtrArithOp)
//     || (i.s3d3_ts.header.opcode == Opcode::TransposeTensorScalarArithOp)
//     || (i.s3d3_ts.header.opcode == Opcode::TensorScalarCacheReduce)
//     || (i.s3d3_ts.header.opcode == Opcode::TensorScalarCacheCumulative)
//     // (Exponential joins this set on NC-v4, together with its S3D3_TS binding)
// }
// fn tensor_scalar_valid_ops(i: Inst) -> bool {
//     is_valid_enum(EnumList::AluOp, i.s3d3_ts.op0)
//     && is_valid_enum(EnumList::AluOp, i.s3d3_ts.op1)
//     && (i.s3d3_ts.op0 != AluOp::Divide)
//     && (i.s3d3_ts.op0 != AluOp::Pow)
//     && (i.s3d3_ts.op0 != AluOp::Mod)
//     && (i.s3d3_ts.op1 != AluOp::Divide)
//     && (i.s3d3_ts.op1 != AluOp::Pow)
//     && (i.s3d3_ts.op1 != AluOp::Mod)
//     && (!tensor_scalar_bitvec(i)
//         || (is_bitvec_op(i.s3d3_ts.op0) && is_bitvec_op(i.s3d3_ts.op1)))
//     && (!tensor_scalar_arith(i)
//         || (is_general_arith_op(i.s3d3_ts.op0) && is_general_arith_op(i.s3d3_ts.op1))
//         || ((i.s3d3_ts.op0 == AluOp::Rsqrt) && (i.s3d3_ts.op1 == AluOp::Bypass)
//             && (i.s3d3_ts.imm0.imm_bitvec_uint32 == 0) && (i.s3d3_ts.imm0_src == ImmSrc::InstructionImmediate)
//             && (i.s3d3_ts.imm1.imm_bitvec_uint32 == 0) && (i.s3d3_ts.imm1_src == ImmSrc::InstructionImmediate))
//         // (NC-v5 adds a third arm here that admits the DVE integer ops,
//         //  is_valid_int_aluop_dve; this generation has none)
//     )
//     // Composition: Bypass in op0 is legal only together with Bypass in op1, so a
//     // single-op instruction always carries its op in op0.
//     && ((i.s3d3_ts.op0 != AluOp::Bypass)
//         || (i.s3d3_ts.op1 == AluOp::Bypass))
// }

// fn tensor_scalar_cache_reduce_valid_ops(i: Inst) -> bool {
//     is_valid_enum(EnumList::AluOp, i.s3d3_ts.op0)
//     && is_valid_enum(EnumList::AluOp, i.s3d3_ts.op1)
//     && is_general_arith_op(i.s3d3_ts.op0)
//     && is_valid_cache_reduce_op(i.s3d3_ts.op1)
// }

// fn is_valid_cache_reduce_op(op: AluOp) -> bool {
//     (op == AluOp::Add)
//     || (op == AluOp::Subtract)
//     || (op == AluOp::Mult)
//     || (op == AluOp::Max)
//     || (op == AluOp::Min)
// }

// fn tensor_scalar_immediates_check(i: Inst) -> bool {
//     (   ((i.s3d3_ts.imm0_src == ImmSrc::InstructionImmediate)
//           && ts_imm_chk(i, i.s3d3_ts.imm0))
//      || ((i.s3d3_ts.imm0_src == ImmSrc::PointerImmediate)
//           && ts_ptr_imm_chk(i, i.s3d3_ts.imm0))
//      || ((i.s3d3_ts.imm0_src == ImmSrc::RegPtrImmediate)
//           && is_valid_imm_reg(i.s3d3_ts.imm0.imm_reg)))
//     && (   ((i.s3d3_ts.imm1_src == ImmSrc::InstructionImmediate)
//           && ts_imm_chk(i, i.s3d3_ts.imm1))
//      || ((i.s3d3_ts.imm1_src == ImmSrc::PointerImmediate)
//           && ts_ptr_imm_chk(i, i.s3d3_ts.imm1))
//      || ((i.s3d3_ts.imm1_src == ImmSrc::RegPtrImmediate)
//           && is_valid_imm_reg(i.s3d3_ts.imm1.imm_reg)))
// }

// fn tensor_scalar_cache_reduce_immediates_check(i: Inst) -> bool {
//     (   ((i.s3d3_ts.imm0_src == ImmSrc::InstructionImmediate)
//           && ts_imm_chk(i, i.s3d3_ts.imm0))
//      || ((i.s3d3_ts.imm0_src == ImmSrc::PointerImmediate)
//           && ts_ptr_imm_chk(i, i.s3d3_ts.imm0))
//      || ((i.s3d3_ts.imm0_src == ImmSrc::RegPtrImmediate)
//           && is_valid_imm_reg(i.s3d3_ts.imm0.imm_reg)))
//     // imm1 seeds the accumulator under LoadAccumulate only; otherwise it must be an
//     // inline zero.
//     && (   ((i.s3d3_ts.accumulator_cmd == AccumCmd::LoadAccumulate)
//             && (   ((i.s3d3_ts.imm1_src == ImmSrc::InstructionImmediate) && ts_imm_chk(i, i.s3d3_ts.imm1))
//                 || ((i.s3d3_ts.imm1_src == ImmSrc::PointerImmediate) && ts_ptr_imm_chk(i, i.s3d3_ts.imm1))
//                 || ((i.s3d3_ts.imm1_src == ImmSrc::RegPtrImmediate) && is_valid_imm_reg(i.s3d3_ts.imm1.imm_reg))))
//         || ((i.s3d3_ts.imm1_src == ImmSrc::InstructionImmediate)
//             && (i.s3d3_ts.imm1.imm_bitvec_uint32 == 0))
//     )
// }

// fn tensor_scalar_ptr_immediates(i: Inst) -> bool {
//     ts_ptr_imm_chk(i, i.s3d3_ts.imm0)
//     && ts_ptr_imm_chk(i, i.s3d3_ts.imm1)
// }

// fn ts_imm_chk(i: Inst, imm: ImmValInstField) -> bool {
//     ts_imm_32_chk(i)
//     || ts_imm_16_chk(i, imm)
//     || ts_imm_8_chk(i, imm)
// }

// fn ts_ptr_imm_chk(i: Inst, imm: ImmValInstField) -> bool {
//     tpb_addr_active_channels(imm.imm_ptr, i.s3d3_ts.num_active_channels)
//     && ((tensor_scalar_arith(i)
//          && four_byte_aligned(imm.imm_ptr))
//         || (tensor_scalar_bitvec(i)
//             && addr_aligned_dtype(imm.imm_ptr, i.s3d3_ts.in_dtype)))
// }

// // Inline scalars: arith reads imm_arith_fp32; bitvec reads an integer no wider than in_dtype.
// fn ts_imm_32_chk(i: Inst) -> bool {
//     tensor_scalar_arith(i)
//     || (tensor_scalar_bitvec(i)
//         && ((i.s3d3_ts.in_dtype == Dtype::UINT32)
//             || (i.s3d3_ts.in_dtype == Dtype::INT32)
//             || (i.s3d3_ts.in_dtype == Dtype::FP32)))
// }

// fn ts_imm_16_chk(i: Inst, imm: ImmValInstField) -> bool {
//     tensor_scalar_bitvec(i)
//     && type_size_check(i.s3d3_ts.in_dtype, 2)
//     && ((imm.imm_bitvec_uint32 & 0xFFFF0000) == 0)
// }

// fn ts_imm_8_chk(i: Inst, imm: ImmValInstField) -> bool {
//     tensor_scalar_bitvec(i)
//     && type_size_check(i.s3d3_ts.in_dtype, 1)
//     && ((imm.imm_bitvec_uint32 & 0xFFFFFF00) == 0)
// }

// // A 16-bit bitvec scalar must leave the upper half of the field clear and an 8-bit one
// // the upper three bytes; 32-bit dtypes take any pattern.



// fn tensor_scalar_valid_types(i: Inst) -> bool {
//     tensor_scalar_arith(i)
//     || (tensor_scalar_bitvec(i)
//         && (i.s3d3_ts.in_dtype == i.s3d3_ts.out_dtype)
//         && ((i.s3d3_ts.in_dtype == Dtype::INT8)
//             || (i.s3d3_ts.in_dtype == Dtype::UINT8)
//             || (i.s3d3_ts.in_dtype == Dtype::INT16)
//             || (i.s3d3_ts.in_dtype == Dtype::UINT16)
//             || (i.s3d3_ts.in_dtype == Dtype::UINT32)
//             || (i.s3d3_ts.in_dtype == Dtype::INT32)))
// }




// fn tensor_scalar_cache_reduce_valid_types(i: Inst) -> bool {
//     is_valid_fp_dtype_datapath(i.s3d3_ts.in_dtype, DtypeAllowFP32R::False)
//     || (is_valid_int_dtype_datapath(i.s3d3_ts.in_dtype)
//         && (i.s3d3_ts.in_dtype != Dtype::UINT32)
//         && (i.s3d3_ts.in_dtype != Dtype::INT32))
// }

// fn tensor_scalar_shift_chk(i: Inst) -> bool {
//     alu_shift_check(i.s3d3_ts.op0, i.s3d3_ts.op1, i.s3d3_ts.in_dtype)
// }

// fn tensor_scalar_reverse_chk(i: Inst) -> bool {
//     is_valid_enum(EnumList::TensScalarRevOps, i.s3d3_ts.reverse_operands)
// }

// fn tensor_scalar_cache_reduce_reverse_chk(i: Inst) -> bool {
//     is_valid_enum(EnumList::TensScalarRevOps, i.s3d3_ts.reverse_operands)
//     && (i.s3d3_ts.reverse_operands == TensScalarRevOps::None)
// }

// fn tensor_scalar_tensor_chk(i: Inst) -> bool {
//     tensor3d_valid(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor3d_valid(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && same_element_count_t3d(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.dst_mem_pattern)
// }


// fn s3d3_ts_reserved_zero(i: Inst) -> bool {
//     (i.s3d3_ts.reserved0[0] == 0)
//     && (i.s3d3_ts.reserved0[1] == 0)
//     && (i.s3d3_ts.reserved0[2] == 0)
// }








// fn tensor_scalar_ptr_imm_src(i: Inst) -> bool {
//     (i.s3d3_ts.imm0_src == ImmSrc::InstructionImmediate)
//     && (i.s3d3_ts.imm1_src == ImmSrc::InstructionImmediate)
// }

// // The Ptr opcodes pin both *_src fields to 0 and still read imm0/imm1 as PartitionOffset
// // pointers (tensor_scalar_ptr_immediates); TensorScalarArithOp/BitvecOp with both sources
// // set to PointerImmediate do the same job.


// fn s3d3_transpose_check(i: Inst) -> bool {
//     (i.s3d3_ts.header.opcode != Opcode::TransposeTensorScalarArithOp)
//     || (has_transpose_src_element_count_t3d(i.s3d3_ts.src_mem_pattern)
//         && has_multiple_32_channels(i.s3d3_ts.num_active_channels))
// }

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_S3D3_TS_H
