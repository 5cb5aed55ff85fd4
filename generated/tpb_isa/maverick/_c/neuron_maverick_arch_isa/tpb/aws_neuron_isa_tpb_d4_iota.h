/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v5.
 */

#ifndef AWS_NEURON_ISA_TPB_D4_IOTA_H
#define AWS_NEURON_ISA_TPB_D4_IOTA_H
#include "aws_neuron_isa_tpb_common.h"

#ifdef __cplusplus
extern "C" {
#endif
// NEURON_ISA_TPB_D4_IOTA_STRUCT: a generated 4-D source (no memory read), one 4-D destination.
// Instructions that use this operand layout:
//   - Iota: writes, per active channel c and per index (i0, i1, i2, i3) of src_data_pattern,
//     base + c * channel_multiplier + sum over d of i_d * step_elem[d],
//     computed on 32-bit integers and converted to out_dtype
// The walk over src_data_pattern and the walk over dst_mem_pattern visit the same number of
// elements; the k-th generated value lands on the k-th destination element.
//
// Field sizes and byte ranges are in the trailing comments of the struct.



typedef struct NEURON_ISA_TPB_D4_IOTA_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    NEURON_ISA_TPB_DATA4D              src_data_pattern;     // 20  (12 - 31)
    uint8_t                            reserved0[1];         // 1   (32     )
    NEURON_ISA_TPB_DTYPE               out_dtype;            // 1   (33     )
    uint8_t                            num_active_channels;  // 1   (34     )
    uint8_t                            reserved1[1];         // 1   (35     )
    int32_t                            channel_multiplier;   // 4   (36 - 39)
    uint8_t                            reserved2[4];         // 4   (40 - 43)
    NEURON_ISA_TPB_TENSOR4D            dst_mem_pattern;      // 20  (44 - 63)
} NEURON_ISA_TPB_D4_IOTA_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_D4_IOTA_STRUCT) == 64, "Error: NEURON_ISA_TPB_D4_IOTA_STRUCT is NOT 64B.");

// Validity rules as Rust-style specifications; the C bodies are in aws_neuron_isa_tpb_assert.h,
// section "//* d4_iota_assert.h".

// fn is_valid_iota(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_iota_opcode(i)
//     && d4_iota_reserved_zero(i)
//     && is_valid_dtype(i.d4_iota.out_dtype, DtypeAllowFP32R::True)
//     && has_valid_active_channel_range(i.d4_iota.num_active_channels, POOLING_NUM_CHANNELS)
//     && start_addr_active_channels(i.d4_iota.dst_mem_pattern.start_addr, i.d4_iota.num_active_channels)
//     && tensor4d_valid(i.d4_iota.dst_mem_pattern, i.d4_iota.out_dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && d4_iota_same_src_dst_count(i)
// }

// fn has_iota_opcode(i: Inst) -> bool {
//     i.d4_iota.header.opcode == Opcode::Iota
// }

// fn d4_iota_reserved_zero(i: Inst) -> bool {
//     i.d4_iota.reserved0 == [0] && i.d4_iota.reserved1 == [0] && i.d4_iota.reserved2 == [0; 4]
// }

// fn d4_iota_same_src_dst_count(i: Inst) -> bool {
//     d4d_element_count(i.d4_iota.src_data_pattern) == t4d_element_count(i.d4_iota.dst_mem_pattern)
// }

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_D4_IOTA_H
