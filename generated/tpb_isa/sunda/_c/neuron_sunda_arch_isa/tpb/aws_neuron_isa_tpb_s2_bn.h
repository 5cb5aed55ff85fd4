/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v2.
 */

#ifndef AWS_NEURON_ISA_TPB_S2_BN_H
#define AWS_NEURON_ISA_TPB_S2_BN_H
#include "aws_neuron_isa_tpb_common.h"


// S2_BN operand format
//   one 2-D source pattern (SRC) and no destination (DST).
//   Instructions that use it:
//     - BatchNormParamLoad
//     - MatchValueLoad
//     - TensorScalarImmLdArith / TensorScalarImmLdBitvec

#ifdef __cplusplus
extern "C" {
#endif

// Each field comment gives its size in bytes and its first and last byte in the 64-byte word.

typedef struct NEURON_ISA_TPB_S2_BN_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    uint8_t                            reserved0[4];         // 4   (12 - 15)
    NEURON_ISA_TPB_TENSOR2D            src_mem_pattern;      // 12  (16 - 27)
    NEURON_ISA_TPB_IMM_VAL_INST_FIELD  imm1;                 // 4   (28 - 31)
    NEURON_ISA_TPB_DTYPE               dtype;                // 1   (32     )
    uint8_t                            reserved1[1];         // 1   (33     )
    uint8_t                            num_active_channels;  // 1   (34     )
    uint8_t                            reserved2[9];         // 9   (35 - 43)
    NEURON_ISA_TPB_IMM_VAL_INST_FIELD  imm0_ptr;             // 4   (44 - 47)
    NEURON_ISA_TPB_IMM_SRC             imm0_src;             // 1   (48     )
    uint8_t                            reserved3[15];        // 15  (49 - 63)
} NEURON_ISA_TPB_S2_BN_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S2_BN_STRUCT) == 64, "Error: NEURON_ISA_TPB_S2_BN_STRUCT is NOT 64B.");


// Field use by TensorScalarImmLd:
//   src_mem_pattern      the values to load; num_elem[0] * num_elem[1] of them per channel.
//   dtype                element type of the source; selects the conversion (see below).
//   num_active_channels  1..POOLING_NUM_CHANNELS.
//   imm0_ptr, imm0_src,
//   imm1                 unused by ImmLd, zero.
//   reserved0..3         zero.
//
// BatchNormParamLoad and MatchValueLoad use the same fields with their own meaning; their
// rules are not part of this file.




















// TensorScalarImmLd{Arith,Bitvec}
//
// Loads at most eight elements per channel from src_mem_pattern (SBUF or PSUM) into
// storage flops inside DVE. The loaded values are the scalars of the next
// TensorScalarPtrMulti instruction (Arith after ImmLdArith, Bitvec after ImmLdBitvec).
//
// ImmLd has no destination, no ALU op and no reverse field; imm0_ptr, imm0_src and imm1
// stay zero.
//
// Element count: W = src_mem_pattern.num_elem[0] * src_mem_pattern.num_elem[1], 1 <= W <= 8.
//
//
// TensorScalarImmLdArith converts every loaded value from dtype to fp32.
//
// TensorScalarImmLdBitvec keeps the raw bits of each value:
//   1-byte values (UINT8) are zero-extended,
//   2-byte values (UINT16) are zero-extended,
//   4-byte values (UINT32, INT32) are taken as they are.
//
// The Arith/Bitvec split of ImmLd is a conversion choice only; S2_BN carries no op field.
//



// Example: preloading three fp32 scalars per channel for TensorScalarPtrMultiArith
//   TensorScalarImmLdArith  dtype = FP32, src num_elem = {3, 1}, num_active_channels = 128
//   TensorScalarPtrMultiArith  src/dst num_elem[3] (W) = 3, op = e.g. Mult, op_dim = XYZ
// Each of the three W slices of the PtrMulti source is combined with its own scalar.
//
// Helpers used below and specified in aws_neuron_isa_tpb_common.h: has_valid_neuron_header,
// has_valid_neuron_events, is_valid_dtype, check_active_channels, shape_from_register,
// tensor_start_addr_valid (through tensor2d_valid).
//
// fn tensor2d_valid(t: Tensor2D, dtype: Dtype, write: WriteTensor, allow_psum: AllowedInPSUM, allow_sbuf: AllowedInSBUF) -> bool {
//     tensor_start_addr_valid(t.start_addr, dtype, write, allow_psum, allow_sbuf)
// }










































// Validity rules, written as Rust-style specification comments. The C bodies are in
// aws_neuron_isa_tpb_assert.h, section "//* s2_bn_assert.h".

// fn is_valid_tsm_immediates_load(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_tsm_immediates_load_opcode(i)
//     && has_tsm_immediates_load_src_element_cnt(i)
//     && has_s2_bn_zero_immediates(i)
//     && tsm_immld_dtypes(i)
//     && is_valid_dtype(i.s2_bn.dtype, DtypeAllowFP32R::False)
//     && check_active_channels(i.s2_bn.num_active_channels)
//     && tensor2d_valid(i.s2_bn.src_mem_pattern, i.s2_bn.dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && s2_bn_reserved_zero(i)
// }

// fn has_tsm_immediates_load_opcode(i: Inst) -> bool {
//     (i.s2_bn.header.opcode == Opcode::TensorScalarImmLdArith)
//     || (i.s2_bn.header.opcode == Opcode::TensorScalarImmLdBitvec)
// }

// fn has_tsm_immediates_load_src_element_cnt(i: Inst) -> bool {
//     ((i.s2_bn.src_mem_pattern.num_elem[0] * i.s2_bn.src_mem_pattern.num_elem[1] >= 1)
//      && (i.s2_bn.src_mem_pattern.num_elem[0] * i.s2_bn.src_mem_pattern.num_elem[1] <= 8))
// }

// fn has_s2_bn_zero_immediates(i: Inst) -> bool {
//     (i.s2_bn.imm0_ptr.imm_arith_fp32 == 0.0)
//     && (i.s2_bn.imm0_src == ImmSrc::InstructionImmediate)
//     && (i.s2_bn.imm1.imm_arith_fp32 == 0.0)
// }

// fn s2_bn_reserved_zero(i: Inst) -> bool {
//     i.s2_bn.reserved0.iter().all(|b| *b == 0)
//     && (i.s2_bn.reserved1[0] == 0)
//     && i.s2_bn.reserved2.iter().all(|b| *b == 0)
//     && i.s2_bn.reserved3.iter().all(|b| *b == 0)
// }



























// fn tsm_immld_dtypes(i: Inst) -> bool {
//     ((i.s2_bn.header.opcode == Opcode::TensorScalarImmLdArith)
//      && (   (i.s2_bn.dtype == Dtype::FP32)
//          || (i.s2_bn.dtype == Dtype::FP16)
//          || (i.s2_bn.dtype == Dtype::BFLOAT16)
//          || (i.s2_bn.dtype == Dtype::FP8_EXP3)
//          || (i.s2_bn.dtype == Dtype::FP8_EXP4)
//          || (i.s2_bn.dtype == Dtype::FP8_EXP5)
//          || (i.s2_bn.dtype == Dtype::UINT32)
//          || (i.s2_bn.dtype == Dtype::UINT16)
//          || (i.s2_bn.dtype == Dtype::UINT8)
//          || (i.s2_bn.dtype == Dtype::INT32)
//          || (i.s2_bn.dtype == Dtype::INT16)
//          || (i.s2_bn.dtype == Dtype::INT8)))
//     || ((i.s2_bn.header.opcode == Opcode::TensorScalarImmLdBitvec)
//         && (   (i.s2_bn.dtype == Dtype::UINT32)
//             || (i.s2_bn.dtype == Dtype::UINT16)
//             || (i.s2_bn.dtype == Dtype::UINT8)
//             || (i.s2_bn.dtype == Dtype::INT32)))
// }

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_S2_BN_H
