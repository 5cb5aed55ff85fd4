/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v5.
 */

#ifndef AWS_NEURON_ISA_TPB_S4D4_TSM_H
#define AWS_NEURON_ISA_TPB_S4D4_TSM_H
#include "aws_neuron_isa_tpb_common.h"

#ifdef __cplusplus
extern "C" {
#endif
// NEURON_ISA_TPB_S4D4_TSM_STRUCT: one 4-D source, one 4-D destination, one ALU op and no
// scalar field; the scalars are preloaded. Instructions that use this operand layout:
//   - TensorScalarPtrMultiArith
//   - TensorScalarPtrMultiBitvec
// (instruction_mapping.json also lists the two PtrMultiDual opcodes, which exist on NC-v2 only.)




// Scalar preloading: TensorScalarPtrMulti...Arith reads the values that the preceding
// TensorScalarImmLdArith placed in DVE storage, and TensorScalarPtrMulti...Bitvec those of
// the preceding TensorScalarImmLdBitvec. This instruction carries no scalar of its own.



// TensorScalarPtrMulti{Arith,Bitvec}
//
// Folds up to eight single-op TensorScalarPtr instructions (second op Bypass) into one
// 4-D instruction. The source is read as [W, Z, Y, X] with W = src_mem_pattern.num_elem[3],
// and every W slice uses its own scalar.
//
// W has to equal the number of scalars the preceding TensorScalarImmLd loaded,
// so 1 <= W <= 8.
//
//   for w in range(W):
//       dst[w, :, :, :] = src[w, :, :, :] op scalars[w]
//
// One op type applies to all elements. After each complete Z/Y/X round of a W slice the
// next scalar is swapped in.
//
// reverse_operands: None computes `tensor op scalar`, Both computes `scalar op tensor`;
// First and Second are rejected (see the hardware note below).
//
// op_dim must be XYZ.







// Dtypes
//   Arith (TensorScalarPtrMultiArith): inputs are converted to fp32, the op runs in fp32 and
//   the result is converted to out_dtype.
//   Bitvec (TensorScalarPtrMultiBitvec): the op works on raw bits; UINT8 and UINT16 inputs are
//   zero-extended. in_dtype == out_dtype, one of INT32, UINT32, UINT16, UINT8.
//   in_dtype may not be FP32R; out_dtype may.
//
// Example: W = 3 and src num_elem = {16, 4, 2, 3} (X, Y, Z, W): slice w (2 * 4 * 16 elements)
// uses scalars[w]; dst must hold the same 3 * 2 * 4 * 16 elements, in any shape.











//   Output dtypes: FP16, BFLOAT16, UINT8, INT8, FP8_EXP3, FP8_EXP4, FP8_EXP5, FP32, FP32R, INT32, UINT32.
//
// Fields
//   src_mem_pattern / dst_mem_pattern  TENSOR4D on every generation; num_elem[3] is W.
//   num_active_channels                1..POOLING_NUM_CHANNELS.
//   op                                 the single ALU op.
//   op_dim                             TensorSubdim::XYZ.
//   reverse_operands                   None or Both.
//   reserved0, reserved1               zero.
//
// Unlike one TensorScalarPtr, each XYZ round (one W slice) reads a different preloaded value.
//
// Pairing: TensorScalarImmLdArith (0x70) feeds TensorScalarPtrMultiArith (0x4f) and
// TensorScalarImmLdBitvec (0x71) feeds TensorScalarPtrMultiBitvec (0x5f). The instruction does
// not record how many values were loaded; keeping W equal to that count is up to software.










// Hardware note on reverse_operands
//   reverse_operands drives the reverse input of the ALUs in the first two DVE pipeline
//   stages. Stage 0 holds scalars 0-3 and stage 1 holds scalars 4-7, so the single op is
//   spread over both stages and reversing it means reversing both stages at once: only
//   None and Both are meaningful.






typedef struct NEURON_ISA_TPB_S4D4_TSM_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    NEURON_ISA_TPB_TENSOR4D            src_mem_pattern;      // 20  (12 - 31)
    NEURON_ISA_TPB_DTYPE               in_dtype;             // 1   (32     )
    NEURON_ISA_TPB_DTYPE               out_dtype;            // 1   (33     )
    uint8_t                            num_active_channels;  // 1   (34     )
    uint8_t                            reserved0[1];         // 1   (35     )
    NEURON_ISA_TPB_ALU_OP              op;                   // 1   (36     )
    NEURON_ISA_TPB_TENSOR_SUBDIM       op_dim;               // 1   (37     )
    NEURON_ISA_TPB_TENS_SCALAR_REV_OPS reverse_operands;     // 1   (38     )
    uint8_t                            reserved1[5];         // 6   (39 - 43)
    NEURON_ISA_TPB_TENSOR4D            dst_mem_pattern;      // 20  (44 - 63)
} NEURON_ISA_TPB_S4D4_TSM_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S4D4_TSM_STRUCT) == 64, "Error: NEURON_ISA_TPB_S4D4_TSM_STRUCT is NOT 64B.");

// Validity rules, written as Rust-style specification comments. The C bodies are in
// aws_neuron_isa_tpb_assert.h, section "//* s4d4_tsm_assert.h".
//
// Opcode -> validator: TensorScalarPtrMultiArith/Bitvec -> is_valid_tensor_scalar_ptr_multi.



// fn is_valid_tensor_scalar_ptr_multi(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_tensor_scalar_ptr_multi_opcode(i)
//     && has_valid_src_slices_tsm_singular(i)
//     && is_valid_tensor_scalar_ptr_multi_common(i)
// }

// fn is_valid_tensor_scalar_ptr_multi_common(i: Inst) -> bool {
//     tensor_scalar_ptr_multi_valid_ops(i)
//     && tensor_scalar_ptr_multi_valid_types(i)
//     && tensor_scalar_ptr_multi_reverse_chk(i)
//     && s4d4_tsm_reserved_zero(i)
//     && is_valid_dtype(i.s4d4_tsm.in_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s4d4_tsm.out_dtype, DtypeAllowFP32R::True)
//     && is_valid_aluop(i.s4d4_tsm.op)
//     && is_valid_tsm_subdim(i)
//     && has_valid_active_channel_range_with_tile(i.s4d4_tsm.num_active_channels, POOLING_NUM_CHANNELS, i.s4d4_tsm.header.inst_flags)
//     && start_addr_active_channels(i.s4d4_tsm.src_mem_pattern.start_addr, i.s4d4_tsm.num_active_channels)
//     && start_addr_active_channels(i.s4d4_tsm.dst_mem_pattern.start_addr, i.s4d4_tsm.num_active_channels)
//     && tensor4d_valid(i.s4d4_tsm.src_mem_pattern, i.s4d4_tsm.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor4d_valid(i.s4d4_tsm.dst_mem_pattern, i.s4d4_tsm.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && same_element_count_t4d(i.s4d4_tsm.src_mem_pattern, i.s4d4_tsm.dst_mem_pattern)
// }

// fn has_tensor_scalar_ptr_multi_opcode(i: Inst) -> bool {
//     (i.s4d4_tsm.header.opcode == Opcode::TensorScalarPtrMultiArith)
//     || (i.s4d4_tsm.header.opcode == Opcode::TensorScalarPtrMultiBitvec)
// }

// fn tensor_scalar_ptr_multi_arith(i: Inst) -> bool {
//     i.s4d4_tsm.header.opcode == Opcode::TensorScalarPtrMultiArith
// }

// fn tensor_scalar_ptr_multi_bitvec(i: Inst) -> bool {
//     i.s4d4_tsm.header.opcode == Opcode::TensorScalarPtrMultiBitvec
// }

// fn tensor_scalar_ptr_multi_valid_ops(i: Inst) -> bool {
//     is_valid_enum(EnumList::AluOp, i.s4d4_tsm.op)
//     && (i.s4d4_tsm.op != AluOp::Divide)
//     && (i.s4d4_tsm.op != AluOp::Pow)
//     && (i.s4d4_tsm.op != AluOp::Mod)
//     && (!tensor_scalar_ptr_multi_bitvec(i)
//         || is_bitvec_op(i.s4d4_tsm.op))
//     && (!tensor_scalar_ptr_multi_arith(i)
//         || is_general_arith_op(i.s4d4_tsm.op))
// }

// fn tensor_scalar_ptr_multi_valid_types(i: Inst) -> bool {
//     tensor_scalar_ptr_multi_arith(i)
//     || (tensor_scalar_ptr_multi_bitvec(i)
//         && (i.s4d4_tsm.in_dtype == i.s4d4_tsm.out_dtype)
//         && ((i.s4d4_tsm.in_dtype == Dtype::INT32)
//             || (i.s4d4_tsm.in_dtype == Dtype::UINT32)
//             || (i.s4d4_tsm.in_dtype == Dtype::UINT16)
//             || (i.s4d4_tsm.in_dtype == Dtype::UINT8)))
// }

// fn is_valid_tsm_subdim(i: Inst) -> bool {
//     i.s4d4_tsm.op_dim == TensorSubdim::XYZ
// }

// fn has_valid_src_slices_tsm_singular(i: Inst) -> bool {
//     (i.s4d4_tsm.src_mem_pattern.num_elem[3] >= 1)
//     && (i.s4d4_tsm.src_mem_pattern.num_elem[3] <= 8)
// }

// fn tensor_scalar_ptr_multi_reverse_chk(i: Inst) -> bool {
//     is_valid_enum(EnumList::TensScalarRevOps, i.s4d4_tsm.reverse_operands)
//     && has_tensor_scalar_ptr_multi_opcode(i)
//     && ((i.s4d4_tsm.reverse_operands == TensScalarRevOps::None)
//         || (i.s4d4_tsm.reverse_operands == TensScalarRevOps::Both))
// }

// fn s4d4_tsm_reserved_zero(i: Inst) -> bool {
//     (i.s4d4_tsm.reserved0[0] == 0)
//     && (i.s4d4_tsm.reserved1[0] == 0)
//     && (i.s4d4_tsm.reserved1[1] == 0)
//     && (i.s4d4_tsm.reserved1[2] == 0)
//     && (i.s4d4_tsm.reserved1[3] == 0)
//     && (i.s4d4_tsm.reserved1[4] == 0)
// }


// The PtrMultiDual forms of NC-v2 (TensorScalarPtrMultiDualArith/Bitvec) are gone from the
// opcode enum of this generation, so there is no Dual validator here.






#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_S4D4_TSM_H
