/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v5.
 */

#ifndef AWS_NEURON_ISA_TPB_S3S3D3_TT_H
#define AWS_NEURON_ISA_TPB_S3S3D3_TT_H
#include "aws_neuron_isa_tpb_common.h"

#ifdef __cplusplus
extern "C" {
#endif
// NEURON_ISA_TPB_S3S3D3_TT_STRUCT: two 3-D sources and one 3-D destination, one ALU op.
// Instructions that use this operand layout:
//   - TensorTensorArithOp / TensorTensorBitvecOp: dst = src0 <op> src1, element by element
//   - CopyPredicated / CastPredicated: op must be Bypass
//   - BatchNormBackProp: op must be Bypass

// in0_in1_dtype packs the src0 (dtype_lo) and src1 (dtype_hi) element types, 4 bits each.







typedef struct NEURON_ISA_TPB_S3S3D3_TT_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    NEURON_ISA_TPB_DTYPE_PAIR          in0_in1_dtype;        // 1   (12     )  // src0 low, src1 high
    NEURON_ISA_TPB_DTYPE               out_dtype;            // 1   (13     )
    NEURON_ISA_TPB_ALU_OP              op;                   // 1   (14     )
    uint8_t                            num_active_channels;  // 1   (15     )
    NEURON_ISA_TPB_TENSOR3D            src0_mem_pattern;     // 16  (16 - 31)
    NEURON_ISA_TPB_TENSOR3D            src1_mem_pattern;     // 16  (32 - 47)
    NEURON_ISA_TPB_TENSOR3D            dst_mem_pattern;      // 16  (48 - 63)
} NEURON_ISA_TPB_S3S3D3_TT_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S3S3D3_TT_STRUCT) == 64, "Error: NEURON_ISA_TPB_S3S3D3_TT_STRUCT is NOT 64B.");

// Validity rules as Rust-style specifications; the C bodies are in aws_neuron_isa_tpb_assert.h,
// section "//* s3s3d3_tt_assert.h". lo/hi are the src0/src1 nibbles of in0_in1_dtype.







// fn is_valid_s3s3d3_tt(i: Inst) -> bool {
//     is_valid_tensor_tensor(i)
//     || is_valid_batchnorm_backprop(i)
//     || is_valid_copy_cast_predicated(i)
// }


// fn is_valid_tensor_tensor(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_tensor_tensor_opcode(i)
//     && is_valid_dtype_64(i.s3s3d3_tt.out_dtype, DtypeAllowFP32R::True, DtypeAllowU64::True, DtypeAllowI64::True)
//     && is_valid_dtype_64(lo, DtypeAllowFP32R::False, DtypeAllowU64::True, DtypeAllowI64::True)
//     && is_valid_dtype_64(hi, DtypeAllowFP32R::False, DtypeAllowU64::True, DtypeAllowI64::True)
//     && is_valid_enum(EnumList::AluOp, i.s3s3d3_tt.op)
//     && s3s3d3_tt_valid_op(i)
//     && s3s3d3_tt_dtype(i)
//     && s3s3d3_tt_valid_int_signness(i)
//     && s3s3d3_tt_src_dst_dtype(i)
//     && check_active_channels(i.s3s3d3_tt.num_active_channels)
//     && start_addr_active_channels(i.s3s3d3_tt.src0_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
//     && start_addr_active_channels(i.s3s3d3_tt.src1_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
//     && start_addr_active_channels(i.s3s3d3_tt.dst_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
//     && tensor3d_valid(i.s3s3d3_tt.src0_mem_pattern, lo, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor3d_valid(i.s3s3d3_tt.src1_mem_pattern, hi, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor3d_valid(i.s3s3d3_tt.dst_mem_pattern, i.s3s3d3_tt.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && s3s3d3_tt_src_element_cnt_check(i)
//     && s3s3d3_tt_dst_element_cnt_check(i)
//     && tt_valid_partitions(i.s3s3d3_tt.src0_mem_pattern.start_addr, i.s3s3d3_tt.src1_mem_pattern.start_addr)
// }













// fn is_valid_copy_cast_predicated(i: Inst) -> bool {
//     has_valid_neuron_header(i) && has_valid_neuron_events(i)
//     && has_copy_cast_predicated_opcode(i)
//     && is_valid_dtype(i.s3s3d3_tt.out_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(lo, DtypeAllowFP32R::False)
//     && is_valid_dtype(hi, DtypeAllowFP32R::False)
//     && s3s3d3_copy_pred_src0_dtype(i)
//     && s3s3d3_copy_cast_pred_src1_dst_dtype(i)
//     && s3s3d3_tt_is_zero_op(i)
//     && check_active_channels(i.s3s3d3_tt.num_active_channels)
//     && start_addr_active_channels(i.s3s3d3_tt.src0_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
//     && start_addr_active_channels(i.s3s3d3_tt.src1_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
//     && start_addr_active_channels(i.s3s3d3_tt.dst_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
//     && tensor3d_valid(i.s3s3d3_tt.src0_mem_pattern, lo, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor3d_valid(i.s3s3d3_tt.src1_mem_pattern, hi, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor3d_valid(i.s3s3d3_tt.dst_mem_pattern, i.s3s3d3_tt.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && s3s3d3_tt_src_element_cnt_check(i)
//     && s3s3d3_tt_dst_element_cnt_check(i)
//     && tt_valid_partitions(i.s3s3d3_tt.src0_mem_pattern.start_addr, i.s3s3d3_tt.src1_mem_pattern.start_addr)
// }



// fn s3s3d3_tt_src_element_cnt_check(i: Inst) -> bool {
//     shape_from_register(i.s3s3d3_tt.src0_mem_pattern.start_addr)
//     || shape_from_register(i.s3s3d3_tt.src1_mem_pattern.start_addr)
//     || t3d_element_count(i.s3s3d3_tt.src0_mem_pattern) == t3d_element_count(i.s3s3d3_tt.src1_mem_pattern)
// }


// fn s3s3d3_tt_dst_element_cnt_check(i: Inst) -> bool {
//     shape_from_register(i.s3s3d3_tt.src0_mem_pattern.start_addr)
//     || shape_from_register(i.s3s3d3_tt.dst_mem_pattern.start_addr)
//     || t3d_element_count(i.s3s3d3_tt.src0_mem_pattern) == t3d_element_count(i.s3s3d3_tt.dst_mem_pattern)
// }

// fn tensor_tensor_arith(i: Inst) -> bool {
//     i.s3s3d3_tt.header.opcode == Opcode::TensorTensorArithOp
// }

// fn tensor_tensor_bitvec(i: Inst) -> bool {
//     i.s3s3d3_tt.header.opcode == Opcode::TensorTensorBitvecOp
// }






// fn has_copy_cast_predicated_opcode(i: Inst) -> bool {
//     i.s3s3d3_tt.header.opcode == Opcode::CopyPredicated
//     || i.s3s3d3_tt.header.opcode == Opcode::CastPredicated
// }

// fn s3s3d3_tt_valid_op(i: Inst) -> bool {
//     (tensor_tensor_bitvec(i) && is_general_bitvec_op(i.s3s3d3_tt.op))
//     || (tensor_tensor_arith(i) && (is_general_arith_op(i.s3s3d3_tt.op) || i.s3s3d3_tt.op == AluOp::Pow || is_valid_int_aluop(i.s3s3d3_tt.op)))
// }

// fn s3s3d3_tt_dtype(i: Inst) -> bool {
//     !tensor_tensor_bitvec(i)
//     || is_valid_int_dtype(i.s3s3d3_tt.out_dtype)
// }

// fn tt_valid_partitions(a0: Addr4, a1: Addr4) -> bool {
//     addr_from_register(a0) || addr_from_register(a1)
//     || (addr_in_psum(a0) && addr_in_sbuf(a1)) || (addr_in_sbuf(a0) && addr_in_psum(a1))
//     || (addr_in_sbuf(a0) && addr_in_sbuf(a1) && addresses_in_same_sbuf_quadrant(a0, a1))
// }

// fn s3s3d3_tt_is_zero_op(i: Inst) -> bool {
//     i.s3s3d3_tt.op == AluOp::Bypass
// }




// fn s3s3d3_tt_valid_int_signness(i: Inst) -> bool {
//     !is_valid_int_aluop(i.s3s3d3_tt.op)
//         || (is_signed_alu_op(i.s3s3d3_tt.op)
//             && is_signed_int(i.s3s3d3_tt.out_dtype)
//             && is_signed_int(lo)
//             && is_signed_int(hi))
//         || (is_unsigned_alu_op(i.s3s3d3_tt.op)
//             && is_unsigned_int(i.s3s3d3_tt.out_dtype)
//             && is_unsigned_int(lo)
//             && is_unsigned_int(hi))
// }

// fn s3s3d3_tt_src_dst_dtype(i: Inst) -> bool {
//     !tensor_tensor_bitvec(i)
//         || (lo == i.s3s3d3_tt.out_dtype && hi == i.s3s3d3_tt.out_dtype)
//         // a 64-bit shift: 64-bit value in src0, UINT32 shift count in src1
//         || (is_shift_op(i.s3s3d3_tt.op)
//             && is_valid_64b_int_dtype(lo)
//             && hi == Dtype::UINT32)
// }





// fn s3s3d3_copy_cast_pred_src1_dst_dtype(i: Inst) -> bool {
//     i.s3s3d3_tt.header.opcode == Opcode::CastPredicated
//     || hi == i.s3s3d3_tt.out_dtype
// }

// fn s3s3d3_copy_pred_src0_dtype(i: Inst) -> bool {
//     is_valid_int_dtype_datapath(lo)
// }


































// 64-bit integer element types: accepted from NC-v3 on, computed by the POOL engine.
// Only the Cast form may change the element type between src1 and dst.

// fn is_valid_batchnorm_backprop(i: Inst) -> bool {
//     has_valid_neuron_header(i) && has_valid_neuron_events(i)
//     && has_batchnorm_backprop_opcode(i)
//     && is_valid_dtype(i.s3s3d3_tt.out_dtype, DtypeAllowFP32R::True)
//     && is_valid_dtype(lo, DtypeAllowFP32R::False) && is_valid_dtype(hi, DtypeAllowFP32R::False)
//     && s3s3d3_tt_is_zero_op(i)
//     && check_active_channels(i.s3s3d3_tt.num_active_channels)
//     && start_addr_active_channels(i.s3s3d3_tt.src0_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
//     && start_addr_active_channels(i.s3s3d3_tt.src1_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
//     && start_addr_active_channels(i.s3s3d3_tt.dst_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
//     && tensor3d_valid(i.s3s3d3_tt.src0_mem_pattern, lo, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor3d_valid(i.s3s3d3_tt.src1_mem_pattern, hi, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor3d_valid(i.s3s3d3_tt.dst_mem_pattern, i.s3s3d3_tt.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && s3s3d3_tt_src_element_cnt_check(i)
//     && s3s3d3_tt_dst_element_cnt_check(i)
//     && tt_valid_partitions(i.s3s3d3_tt.src0_mem_pattern.start_addr, i.s3s3d3_tt.src1_mem_pattern.start_addr)
// }

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_S3S3D3_TT_H
