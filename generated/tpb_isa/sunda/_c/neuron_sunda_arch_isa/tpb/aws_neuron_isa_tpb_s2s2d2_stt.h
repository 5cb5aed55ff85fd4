/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v2.
 */

#ifndef AWS_NEURON_ISA_TPB_S2S2D2_STT_H
#define AWS_NEURON_ISA_TPB_S2S2D2_STT_H
#include "aws_neuron_isa_tpb_common.h"

#ifdef __cplusplus
extern "C" {
#endif
// NEURON_ISA_TPB_S2S2D2_STT_STRUCT: two 2-D sources, one 2-D destination, one scalar, two ALU ops.
// Instructions that use this operand layout:
//   - ScalarTensorTensorArith / ScalarTensorTensorBitvec: dst = (src0 <op0> imm0) <op1> src1
//     (operand order per reverse_operands, see TENS_SCALAR_REV_OPS in common.h)
//   - TensorTensorScan: a running value per partition, seeded from imm0:
//     out[k] = (src0[k] <op0> prev) <op1> src1[k], prev = out[k]
//   - SelectReduce (validated elsewhere)




typedef struct NEURON_ISA_TPB_S2S2D2_STT_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    NEURON_ISA_TPB_TENSOR2D            src0_mem_pattern;     // 12  (12 - 23)
    NEURON_ISA_TPB_TENSOR2D            src1_mem_pattern;     // 12  (24 - 35)
    NEURON_ISA_TPB_ALU_OP              op0;                  // 1   (36     )
    NEURON_ISA_TPB_ALU_OP              op1;                  // 1   (37     )
    NEURON_ISA_TPB_TENS_SCALAR_REV_OPS reverse_operands;     // 1   (38     )
    NEURON_ISA_TPB_IMM_SRC             imm0_src;             // 1   (39     )
    NEURON_ISA_TPB_DTYPE_PAIR          in0_in1_dtype;        // 1   (40     )
    NEURON_ISA_TPB_DTYPE               out_dtype;            // 1   (41     )
    uint8_t                            num_active_channels;  // 1   (42     )
    NEURON_ISA_TPB_DTYPE               imm0_dtype;           // 1   (43     )
    NEURON_ISA_TPB_ACCUM_CMD           accumulator_cmd;      // 1   (44     )
    uint8_t                            reserved[3];          // 3   (45 - 47)
    NEURON_ISA_TPB_TENSOR2D            dst_mem_pattern;      // 12  (48 - 60)
    NEURON_ISA_TPB_IMM_VAL_INST_FIELD  imm0;                 // 4   (60 - 63)
} NEURON_ISA_TPB_S2S2D2_STT_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S2S2D2_STT_STRUCT) == 64, "Error: NEURON_ISA_TPB_S2S2D2_STT_STRUCT is NOT 64B.");

// Validity rules as Rust-style specifications; the C bodies are in aws_neuron_isa_tpb_assert.h,
// section "//* s2s2d2_stt_assert.h". lo/hi are the src0/src1 nibbles of in0_in1_dtype.







// fn is_valid_scalar_tensor_tensor(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_scalar_tensor_tensor_opcode(i)
//     && is_valid_dtype(lo, DtypeAllowFP32R::False)
//     && is_valid_dtype(hi, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s2s2d2_stt.imm0_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s2s2d2_stt.out_dtype, DtypeAllowFP32R::True)
//     && has_valid_scalar_tensor_tensor_dtypes(i)
//     && s2s2d2_stt_src_dst_dtype(i)
//     && s2s2d2_stt_imm0_dtype(i)
//     && is_valid_enum(EnumList::AluOp, i.s2s2d2_stt.op0) && is_valid_enum(EnumList::AluOp, i.s2s2d2_stt.op1)
//     && has_valid_scalar_tensor_tensor_op(i)
//     && has_valid_s2s2d2_stt_immediate(i)
//     && has_valid_s2s2d2_stt_accum_cmd(i)
//     && start_addr_active_channels(i.s2s2d2_stt.src0_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
//     && start_addr_active_channels(i.s2s2d2_stt.src1_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
//     && start_addr_active_channels(i.s2s2d2_stt.dst_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
//     && tensor2d_valid(i.s2s2d2_stt.src0_mem_pattern, lo, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor2d_valid(i.s2s2d2_stt.src1_mem_pattern, hi, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor2d_valid(i.s2s2d2_stt.dst_mem_pattern, i.s2s2d2_stt.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && check_active_channels(i.s2s2d2_stt.num_active_channels)
//     && s2s2d2_stt_src_element_cnt_check(i)
//     && s2s2d2_stt_dst_element_cnt_check(i)
//     && tt_valid_partitions(i.s2s2d2_stt.src0_mem_pattern.start_addr, i.s2s2d2_stt.src1_mem_pattern.start_addr)
//     && s2s2d2_stt_quadrant_check(i)
//     && is_valid_enum(EnumList::TensScalarRevOps, i.s2s2d2_stt.reverse_operands)
//     && has_s2s2d2_stt_reserved_zero(i)
// }

// fn is_valid_tensor_tensor_scan(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_tensor_tensor_scan_opcode(i)
//     && is_valid_dtype(lo, DtypeAllowFP32R::False)
//     && is_valid_dtype(hi, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s2s2d2_stt.imm0_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s2s2d2_stt.out_dtype, DtypeAllowFP32R::True)
//     && s2s2d2_stt_imm0_dtype(i)
//     && is_valid_enum(EnumList::AluOp, i.s2s2d2_stt.op0)
//     && is_valid_enum(EnumList::AluOp, i.s2s2d2_stt.op1)
//     && has_valid_tensor_tensor_scan_op(i)
//     && has_valid_s2s2d2_stt_immediate(i)
//     && start_addr_active_channels(i.s2s2d2_stt.src0_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
//     && start_addr_active_channels(i.s2s2d2_stt.src1_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
//     && start_addr_active_channels(i.s2s2d2_stt.dst_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
//     && tensor2d_valid(i.s2s2d2_stt.src0_mem_pattern, lo, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor2d_valid(i.s2s2d2_stt.src1_mem_pattern, hi, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor2d_valid(i.s2s2d2_stt.dst_mem_pattern, i.s2s2d2_stt.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && check_active_channels(i.s2s2d2_stt.num_active_channels)
//     && s2s2d2_stt_src_element_cnt_check(i)
//     && s2s2d2_stt_dst_element_cnt_check(i)
//     && tt_valid_partitions(i.s2s2d2_stt.src0_mem_pattern.start_addr, i.s2s2d2_stt.src1_mem_pattern.start_addr)
//     && has_zero_accum_cmd(i)
//     && is_valid_enum(EnumList::TensScalarRevOps, i.s2s2d2_stt.reverse_operands)
//     && has_s2s2d2_stt_reserved_zero(i)
// }

// fn is_valid_select_reduce(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_select_reduce_opcode(i)
//     && is_valid_dtype(lo, DtypeAllowFP32R::False)
//     && is_valid_dtype(hi, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s2s2d2_stt.imm0_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s2s2d2_stt.out_dtype, DtypeAllowFP32R::True)
//     && has_valid_select_reduce_dtypes(i)
//     && s2s2d2_stt_imm0_dtype(i)
//     && is_valid_enum(EnumList::AluOp, i.s2s2d2_stt.op0)
//     && is_valid_enum(EnumList::AluOp, i.s2s2d2_stt.op1)
//     && has_valid_select_reduce_op(i)
//     && has_valid_s2s2d2_stt_immediate(i)
//     && start_addr_active_channels(i.s2s2d2_stt.src0_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
//     && start_addr_active_channels(i.s2s2d2_stt.src1_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
//     && start_addr_active_channels(i.s2s2d2_stt.dst_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
//     && tensor2d_valid(i.s2s2d2_stt.src0_mem_pattern, lo, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor2d_valid(i.s2s2d2_stt.src1_mem_pattern, hi, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor2d_valid(i.s2s2d2_stt.dst_mem_pattern, i.s2s2d2_stt.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && check_active_channels(i.s2s2d2_stt.num_active_channels)
//     && s2s2d2_stt_src_element_cnt_check(i)
//     && s2s2d2_stt_dst_element_cnt_check(i)
//     && tt_valid_partitions(i.s2s2d2_stt.src0_mem_pattern.start_addr, i.s2s2d2_stt.src1_mem_pattern.start_addr)
//     && has_valid_s2s2d2_cpr_accum_cmd(i)
//     && is_valid_enum(EnumList::TensScalarRevOps, i.s2s2d2_stt.reverse_operands)
//     && has_s2s2d2_stt_reserved_zero(i)
//     && has_valid_select_reduce_rev_ops(i)
// }

// fn has_valid_s2s2d2_stt_immediate(i: Inst) -> bool {
//     (i.s2s2d2_stt.imm0_src == ImmSrc::InstructionImmediate)
//     || (i.s2s2d2_stt.imm0_src == ImmSrc::PointerImmediate && tpb_addr_active_channels(i.s2s2d2_stt.imm0.imm_ptr, i.s2s2d2_stt.num_active_channels)
//     &&     && addr_aligned_dtype(i.s2s2d2_stt.imm0.imm_ptr, i.s2s2d2_stt.imm0_dtype))
//     || (i.s2s2d2_stt.imm0_src == ImmSrc::RegPtrImmediate && is_valid_imm_reg(i.s2s2d2_stt.imm0.imm_reg))
// }

// fn s2s2d2_stt_src_element_cnt_check(i: Inst) -> bool {
//     shape_from_register(i.s2s2d2_stt.src0_mem_pattern.start_addr)
//     || shape_from_register(i.s2s2d2_stt.src1_mem_pattern.start_addr)
//     || i.s2s2d2_stt.src0_mem_pattern.num_elem[0] * i.s2s2d2_stt.src0_mem_pattern.num_elem[1]
//     &&    == i.s2s2d2_stt.src1_mem_pattern.num_elem[0] * i.s2s2d2_stt.src1_mem_pattern.num_elem[1]
// }

// fn s2s2d2_stt_dst_element_cnt_check(i: Inst) -> bool {
//     shape_from_register(i.s2s2d2_stt.src0_mem_pattern.start_addr)
//     || shape_from_register(i.s2s2d2_stt.dst_mem_pattern.start_addr)
//     || i.s2s2d2_stt.src0_mem_pattern.num_elem[0] * i.s2s2d2_stt.src0_mem_pattern.num_elem[1]
//     &&    == i.s2s2d2_stt.dst_mem_pattern.num_elem[0] * i.s2s2d2_stt.dst_mem_pattern.num_elem[1]
// }

// fn has_tensor_tensor_scan_opcode(i: Inst) -> bool {
//     i.s2s2d2_stt.header.opcode == Opcode::TensorTensorScanArith
// }

// fn has_valid_tensor_tensor_scan_op(i: Inst) -> bool {
//     is_general_arith_op(i.s2s2d2_stt.op0)
//     && is_general_arith_op(i.s2s2d2_stt.op1)
// }

// fn has_select_reduce_opcode(i: Inst) -> bool {
//     i.s2s2d2_stt.header.opcode == Opcode::SelectReduce
// }











// fn has_scalar_tensor_tensor_opcode(i: Inst) -> bool {
//     i.s2s2d2_stt.header.opcode == Opcode::ScalarTensorTensorArith
//     || i.s2s2d2_stt.header.opcode == Opcode::ScalarTensorTensorBitvec
// }





// fn has_valid_select_reduce_dtypes(i: Inst) -> bool {
//     is_valid_int_dtype_datapath(lo)  // the predicate
//     && !is_valid_32b_int_dtype(hi)   // the data
// }

// fn has_valid_scalar_tensor_tensor_op(i: Inst) -> bool {
//     (!has_s2s2d2_stt_bitvec_op(i) && is_general_arith_op(i.s2s2d2_stt.op0) && is_general_arith_op(i.s2s2d2_stt.op1))
//     || (has_s2s2d2_stt_bitvec_op(i) && is_general_bitvec_op(i.s2s2d2_stt.op0) && is_general_bitvec_op(i.s2s2d2_stt.op1))
// }

// fn has_valid_scalar_tensor_tensor_dtypes(i: Inst) -> bool {
//     !has_s2s2d2_stt_bitvec_op(i)
//     || (is_valid_int_dtype_datapath(lo) && is_valid_int_dtype_datapath(hi)
//     &&     && is_valid_int_dtype_datapath(i.s2s2d2_stt.imm0_dtype) && is_valid_int_dtype_datapath(i.s2s2d2_stt.out_dtype))
// }




// fn has_valid_select_reduce_op(i: Inst) -> bool {
//     is_general_arith_op(i.s2s2d2_stt.op0) && is_general_arith_op(i.s2s2d2_stt.op1)
//     // op0 moves the selected element, op1 folds it into the accumulator
//     && i.s2s2d2_stt.op0 == AluOp::Bypass
//     && i.s2s2d2_stt.op1 == AluOp::Max
// }

// fn s2s2d2_stt_src_dst_dtype(i: Inst) -> bool {
//     !has_s2s2d2_stt_bitvec_op(i)
//     || (lo == i.s2s2d2_stt.out_dtype && hi == i.s2s2d2_stt.out_dtype && i.s2s2d2_stt.imm0_dtype == i.s2s2d2_stt.out_dtype)
// }



// fn s2s2d2_stt_imm0_dtype(i: Inst) -> bool {
//     has_s2s2d2_stt_bitvec_op(i)
//     || is_const_ptr_dve(i.s2s2d2_stt.imm0_src)
//     || i.s2s2d2_stt.imm0_dtype == Dtype::FP32
// }

// fn has_valid_s2s2d2_stt_accum_cmd(i: Inst) -> bool {
//     (has_s2s2d2_stt_bitvec_op(i) && i.s2s2d2_stt.accumulator_cmd == AccumCmd::Idle)
//     || (!has_s2s2d2_stt_bitvec_op(i) && (i.s2s2d2_stt.accumulator_cmd == AccumCmd::Idle
//     &&     || i.s2s2d2_stt.accumulator_cmd == AccumCmd::Accumulate || i.s2s2d2_stt.accumulator_cmd == AccumCmd::ZeroAccumulate))
// }

// fn has_zero_accum_cmd(i: Inst) -> bool {
//     i.s2s2d2_stt.accumulator_cmd == AccumCmd::Idle
// }
// fn has_valid_s2s2d2_cpr_accum_cmd(i: Inst) -> bool {
//     i.s2s2d2_stt.accumulator_cmd == AccumCmd::Idle
//     || i.s2s2d2_stt.accumulator_cmd == AccumCmd::ZeroAccumulate
//     || i.s2s2d2_stt.accumulator_cmd == AccumCmd::Accumulate
// }











// fn has_valid_select_reduce_rev_ops(i: Inst) -> bool {
//     i.s2s2d2_stt.reverse_operands == TensScalarRevOps::None
//     || i.s2s2d2_stt.reverse_operands == TensScalarRevOps::First
// }

// fn s2s2d2_stt_quadrant_check(i: Inst) -> bool {
//     // erratum gate: an SBUF destination in the SBUF quadrant of an SBUF src0
//     && addr_from_register(i.s2s2d2_stt.src0_mem_pattern.start_addr) || addr_from_register(i.s2s2d2_stt.dst_mem_pattern.start_addr)
//     || !addr_in_sbuf(i.s2s2d2_stt.src0_mem_pattern.start_addr) || !addr_in_sbuf(i.s2s2d2_stt.dst_mem_pattern.start_addr)
//     || addresses_in_same_sbuf_quadrant(i.s2s2d2_stt.src0_mem_pattern.start_addr, i.s2s2d2_stt.dst_mem_pattern.start_addr)
// }

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_S2S2D2_STT_H
