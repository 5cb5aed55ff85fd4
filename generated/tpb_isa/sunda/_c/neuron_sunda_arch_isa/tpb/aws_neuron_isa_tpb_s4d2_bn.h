/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v2.
 */

#ifndef AWS_NEURON_ISA_TPB_S4D2_BN_H
#define AWS_NEURON_ISA_TPB_S4D2_BN_H
#include "aws_neuron_isa_tpb_common.h"

#ifdef __cplusplus
extern "C" {
#endif
// NEURON_ISA_TPB_S4D2_BN_STRUCT: a 4-D source, a small 2-D destination, two fp32 counts.
// Instructions that use this operand layout:
//   - BatchNormStats2 (and its transposing form): per channel, over at most 512 elements,
//     six values: even_count, mean and n*variance of the even-indexed elements, then the same
//     for the odd-indexed ones; the two counts are taken from the instruction, not recounted
//   - BatchNormStats (superseded by BatchNormStats2; not validated here)
//   - BatchNormAggregate: merges (count, mean, n*variance) triples into mean and variance
//   - Max8: the eight largest values of the source, per channel
//   - FindIndex8: where the eight values loaded by MatchValueLoad first occur in the source
//
// Field sizes and byte ranges are in the trailing comments of the struct.

typedef struct NEURON_ISA_TPB_S4D2_BN_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    NEURON_ISA_TPB_TENSOR4D            src_mem_pattern;      // 20  (12 - 31)
    NEURON_ISA_TPB_DTYPE               in_dtype;             // 1   (32     )
    NEURON_ISA_TPB_DTYPE               out_dtype;            // 1   (33     )
    uint8_t                            num_active_channels;  // 1   (34     )
    uint8_t                            reserved0[5];         // 5   (35 - 39)
    float                              even_count;           // 4   (40 - 43)
    float                              odd_count;            // 4   (44 - 47)
    NEURON_ISA_TPB_TENSOR2D            dst_mem_pattern;      // 12  (48 - 59)
    uint8_t                            reserved1[4];         // 4   (60 - 63)
} NEURON_ISA_TPB_S4D2_BN_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S4D2_BN_STRUCT) == 64, "Error: NEURON_ISA_TPB_S4D2_BN_STRUCT is NOT 64B.");

// Validity rules as Rust-style specifications; the C bodies are in aws_neuron_isa_tpb_assert.h,
// section "//* s4d2_bn_assert.h".

// fn is_valid_batch_norm_stats2(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_batch_norm_stats2_opcode(i)
//     && s4d2_bn_reserved_zero(i)
//     && is_valid_dtype(i.s4d2_bn.in_dtype, DtypeAllowFP32R::False)
//     && has_bnstats2_out_dtype(i)
//     && has_valid_active_channel_range(i.s4d2_bn.num_active_channels, DVE_NUM_CHANNELS)
//     && start_addr_active_channels(i.s4d2_bn.src_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
//     && start_addr_active_channels(i.s4d2_bn.dst_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
//     && tensor4d_valid(i.s4d2_bn.src_mem_pattern, i.s4d2_bn.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor2d_valid(i.s4d2_bn.dst_mem_pattern, i.s4d2_bn.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && has_bnstats2_src_element_cnt(i)
//     && has_bnstats2_dst_element_cnt(i)
//     && has_bns_finite_even_count(i) && has_bns_finite_odd_count(i)
//     && bn_stats2_transpose_check(i)
// }

// fn is_valid_batch_norm_aggregate(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_batch_norm_aggregate_opcode(i)
//     && s4d2_bn_reserved_zero(i)
//     && is_valid_dtype(i.s4d2_bn.in_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s4d2_bn.out_dtype, DtypeAllowFP32R::True)
//     && has_valid_active_channel_range(i.s4d2_bn.num_active_channels, DVE_NUM_CHANNELS)
//     && start_addr_active_channels(i.s4d2_bn.src_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
//     && start_addr_active_channels(i.s4d2_bn.dst_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
//     && tensor4d_valid(i.s4d2_bn.src_mem_pattern, i.s4d2_bn.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor2d_valid(i.s4d2_bn.dst_mem_pattern, i.s4d2_bn.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && has_bnstats_agg_src_element_cnt(i)
//     && has_bnstats_agg_dst_element_cnt(i)
//     && s4d2_bn_zero_counts(i)
// }















































































// Max8: reads up to 16384 elements per channel (at least 8) and writes the 8 largest of
// them, compared as fp32, to the 8-element destination of that channel. (Which end of the
// destination holds the largest is the subject of a disagreement between sources; the
// validator does not depend on it.)
//
// The counts must be zero; the output dtype is any that is_valid_dtype takes.
//
// A typical pairing: Max8 finds the 8 largest values, MatchValueLoad loads them as keys
// and FindIndex8 (or MatchReplace8) locates them in the same source.
//
// Both read the keys as fp32.













// FindIndex8: for each of the 8 keys loaded by a preceding MatchValueLoad, the index of
// the first source element equal to it.
//  - equality is exact fp32 equality;
//  - the index is the 0-based position in the walk of src_mem_pattern;
//  - once a key has matched an element it takes part in no later comparison;


//  - a key that never matches reports a not-found index (see below).
//
// A key that has matched is out of the search: it will not match a
// later element of the same source.













// Duplicate keys:
//  when several loaded keys hold the same value, the one loaded at the
//  lowest position that has not matched yet takes the next equal
//  element; the others wait for later equal elements.
//
//  (So N equal keys report the first N occurrences.)
//
//
// Not found:
//  the index written for a key that never matched is at least 32768;
//  concretely all ones in the output dtype:
//   0xFFFFFFFF for a UINT32 destination,
//   0xFFFF for a UINT16 destination.
//
//  A consumer can therefore test idx >= 32768, or compare with all ones,
//  to tell a miss.
//
//  Only UINT16 and UINT32 destinations are accepted (below).

















































































































// fn is_valid_max8(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_max8_opcode(i)
//     && s4d2_bn_reserved_zero(i)
//     && is_valid_dtype(i.s4d2_bn.in_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s4d2_bn.out_dtype, DtypeAllowFP32R::True)
//     && has_valid_active_channel_range(i.s4d2_bn.num_active_channels, DVE_NUM_CHANNELS)
//     && start_addr_active_channels(i.s4d2_bn.src_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
//     && start_addr_active_channels(i.s4d2_bn.dst_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
//     && tensor4d_valid(i.s4d2_bn.src_mem_pattern, i.s4d2_bn.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor2d_valid(i.s4d2_bn.dst_mem_pattern, i.s4d2_bn.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && has_max8_src_element_cnt(i)
//     && has_max8_dst_element_cnt(i)
//     // (the two counts belong to BatchNormStats2; unused here)
//     && s4d2_bn_zero_counts(i)
// }

// fn is_valid_find_index8(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_find_index8_opcode(i)
//     && s4d2_bn_reserved_zero(i)
//     && is_valid_dtype(i.s4d2_bn.in_dtype, DtypeAllowFP32R::False)
//     && is_valid_dtype(i.s4d2_bn.out_dtype, DtypeAllowFP32R::True)
//     && has_find_index8_dst_type(i)
//     && has_valid_active_channel_range(i.s4d2_bn.num_active_channels, DVE_NUM_CHANNELS)
//     && start_addr_active_channels(i.s4d2_bn.src_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
//     && start_addr_active_channels(i.s4d2_bn.dst_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
//     && tensor4d_valid(i.s4d2_bn.src_mem_pattern, i.s4d2_bn.in_dtype, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor2d_valid(i.s4d2_bn.dst_mem_pattern, i.s4d2_bn.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && has_max8_src_element_cnt(i)
//     && has_max8_dst_element_cnt(i)
//     // (same source and destination counts as Max8)
//     && s4d2_bn_zero_counts(i)
// }


// fn has_max8_src_element_cnt(i: Inst) -> bool {
//     8 <= t4d_element_count(i.s4d2_bn.src_mem_pattern) && t4d_element_count(i.s4d2_bn.src_mem_pattern) <= 16384
// }

// fn has_max8_dst_element_cnt(i: Inst) -> bool {
//     t2d_element_count(i.s4d2_bn.dst_mem_pattern) == 8
// }

// fn has_bnstats2_src_element_cnt(i: Inst) -> bool {
//     t4d_element_count(i.s4d2_bn.src_mem_pattern) <= 512
// }

// fn has_bnstats2_dst_element_cnt(i: Inst) -> bool {
//     t2d_element_count(i.s4d2_bn.dst_mem_pattern) == 6
// }

// fn has_bnstats2_out_dtype(i: Inst) -> bool {
//     i.s4d2_bn.out_dtype == Dtype::FP32 || i.s4d2_bn.out_dtype == Dtype::BFLOAT16
//     || i.s4d2_bn.out_dtype == Dtype::FP16
// }

// fn bn_stats2_transpose_check(i: Inst) -> bool {
//     i.s4d2_bn.header.opcode != Opcode::TransposeBatchNormStats2
//     || (i.s4d2_bn.num_active_channels % 32 == 0 && t4d_element_count(i.s4d2_bn.src_mem_pattern) % 32 == 0)
// }

// fn has_bnstats_agg_src_element_cnt(i: Inst) -> bool {
//     t4d_element_count(i.s4d2_bn.src_mem_pattern) % 3 == 0
// }

// fn has_bnstats_agg_dst_element_cnt(i: Inst) -> bool {
//     t2d_element_count(i.s4d2_bn.dst_mem_pattern) == 2
// }

// fn has_bns_finite_even_count(i: Inst) -> bool {
//     i.s4d2_bn.even_count.is_finite()
// }

// fn has_bns_finite_odd_count(i: Inst) -> bool {
//     i.s4d2_bn.odd_count.is_finite()
// }









// fn s4d2_bn_zero_counts(i: Inst) -> bool {
//     i.s4d2_bn.even_count == 0.0
//     && i.s4d2_bn.odd_count == 0.0
// }


// fn s4d2_bn_reserved_zero(i: Inst) -> bool {
//     i.s4d2_bn.reserved0 == [0; 5] && i.s4d2_bn.reserved1 == [0; 4]
// }




































// fn has_find_index8_dst_type(i: Inst) -> bool {
//     i.s4d2_bn.out_dtype == Dtype::UINT16
//     || i.s4d2_bn.out_dtype == Dtype::UINT32
// }

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_S4D2_BN_H
