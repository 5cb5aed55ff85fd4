/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v4.
 */

#ifndef AWS_NEURON_ISA_TPB_S4D4_MR_H
#define AWS_NEURON_ISA_TPB_S4D4_MR_H
#include "aws_neuron_isa_tpb_common.h"

#ifdef __cplusplus
extern "C" {
#endif
// NEURON_ISA_TPB_S4D4_MR_STRUCT: one 4-D source, one 4-D destination, one fp32 immediate.
// Instructions that use this operand layout:
//   - MatchReplace8
//
// Field sizes and byte ranges are in the trailing comments of the struct.





// MatchReplace8: the search of FindIndex8 (the 8 keys of a preceding MatchValueLoad, exact
// fp32 equality, a matched key leaves the search, duplicate keys take successive
// occurrences), but instead of indices it writes the data:
//  - every source element that a key matched first is replaced by immediate;
//  - every other element passes through, converted in_dtype -> fp32 -> out_dtype.
//
// One immediate serves all eight keys.
//
// The destination has as many elements as the source (at most 16384 per channel).
//
// The matched positions themselves are not written by this instruction.
//
// in_dtype and out_dtype are each one of FP16, BFLOAT16, UINT8, UINT16, UINT32, FP32
// and INT32 (no FP32R).
//
// Typical use: Max8, then MatchValueLoad with its result, then MatchReplace8 with a
// very negative immediate removes the current top 8 so that the next Max8 finds the
// following 8.
//
//
//








































typedef struct NEURON_ISA_TPB_S4D4_MR_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    NEURON_ISA_TPB_TENSOR4D            src_mem_pattern;      // 20  (12 - 31)
    NEURON_ISA_TPB_DTYPE               in_dtype;             // 1   (32     )
    NEURON_ISA_TPB_DTYPE               out_dtype;            // 1   (33     )
    uint8_t                            num_active_channels;  // 1   (34     )
    uint8_t                            reserved0[5];         // 5   (35 - 39)
    float                              immediate;            // 4   (40 - 43)
    NEURON_ISA_TPB_TENSOR4D            dst_mem_pattern;      // 20  (44 - 63)
} NEURON_ISA_TPB_S4D4_MR_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S4D4_MR_STRUCT) == 64, "Error: NEURON_ISA_TPB_S4D4_MR_STRUCT is NOT 64B.");

// Validity rules as Rust-style specifications; the C bodies are in aws_neuron_isa_tpb_assert.h,
// section "//* s4d4_mr_assert.h".





// fn is_valid_match_replace8(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_match_replace8_opcode(i)
//     && s4d4_mr_reserved_zero(i)
//     && is_valid_dtype(i.s4d4_mr.in_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s4d4_mr.out_dtype, DtypeAllowFP32R::True)
//     && match_replace_dtypes(i)
//     && has_valid_active_channel_range(i.s4d4_mr.num_active_channels, POOLING_NUM_CHANNELS)
//     && start_addr_active_channels(i.s4d4_mr.src_mem_pattern.start_addr, i.s4d4_mr.num_active_channels)
//     && start_addr_active_channels(i.s4d4_mr.dst_mem_pattern.start_addr, i.s4d4_mr.num_active_channels)
//     && tensor4d_valid(i.s4d4_mr.src_mem_pattern, i.s4d4_mr.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor4d_valid(i.s4d4_mr.dst_mem_pattern, i.s4d4_mr.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && has_match_replace8_src_element_cnt(i)
//     && s4d4_mr_same_src_dst_count(i)
// }

// fn has_match_replace8_src_element_cnt(i: Inst) -> bool {
//     t4d_element_count(i.s4d4_mr.src_mem_pattern) <= 16384
// }

// fn s4d4_mr_same_src_dst_count(i: Inst) -> bool {
//     t4d_element_count(i.s4d4_mr.src_mem_pattern) == t4d_element_count(i.s4d4_mr.dst_mem_pattern)
// }





// fn match_replace_dtypes(i: Inst) -> bool {
//     (i.s4d4_mr.in_dtype == Dtype::FP16
//     || i.s4d4_mr.in_dtype == Dtype::BFLOAT16
//     || i.s4d4_mr.in_dtype == Dtype::UINT8
//     || i.s4d4_mr.in_dtype == Dtype::UINT16
//     || i.s4d4_mr.in_dtype == Dtype::UINT32
//     || i.s4d4_mr.in_dtype == Dtype::FP32
//     || i.s4d4_mr.in_dtype == Dtype::INT32)
//     && (i.s4d4_mr.out_dtype == Dtype::FP16
//     || i.s4d4_mr.out_dtype == Dtype::BFLOAT16
//     || i.s4d4_mr.out_dtype == Dtype::UINT8
//     || i.s4d4_mr.out_dtype == Dtype::UINT16
//     || i.s4d4_mr.out_dtype == Dtype::UINT32
//     || i.s4d4_mr.out_dtype == Dtype::FP32
//     || i.s4d4_mr.out_dtype == Dtype::INT32)
// }

// fn has_match_replace8_opcode(i: Inst) -> bool {
//     i.s4d4_mr.header.opcode == Opcode::MatchReplace8
// }

// fn s4d4_mr_reserved_zero(i: Inst) -> bool {
//     i.s4d4_mr.reserved0 == [0; 5]
// }

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_S4D4_MR_H
