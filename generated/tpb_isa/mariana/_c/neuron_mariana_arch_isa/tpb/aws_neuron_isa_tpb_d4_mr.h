/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v4.
 */

#ifndef AWS_NEURON_ISA_TPB_D4_MR_H
#define AWS_NEURON_ISA_TPB_D4_MR_H
#include "aws_neuron_isa_tpb_common.h"

#ifdef __cplusplus
extern "C" {
#endif
// NEURON_ISA_TPB_D4_MR_STRUCT: no source tensor, one 4-D destination, a 32-bit value.
// Instructions that use this operand layout:
//   - Memset (below)
//   - RegStore, Rng, DveReadIndices (validated elsewhere)
//
// Bytes 33, 35 and 37-39 are not named by any public source; they are reserved here.
// dst_element_count repeats the destination's element count; serialization_mode must be
// Serial for Memset.
//
// Field sizes and byte ranges are in the trailing comments of the struct.
//
// Memset: writes set_value into every element of the destination region; set_value is
// the fill in the destination dtype's encoding (16- and 8-bit dtypes use its low bits).

// How register writes are serialised; Memset takes only Serial.
typedef enum NEURON_ISA_TPB_REG_SERIAL_MODE {
    NEURON_ISA_TPB_REG_SERIAL_MODE_SERIAL = 0x0,
} NEURON_ISA_PACKED NEURON_ISA_TPB_REG_SERIAL_MODE;

typedef struct NEURON_ISA_TPB_D4_MR_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    uint8_t                            reserved0[16];        // 16  (12 - 27)
    uint32_t                           dst_element_count;    // 4   (28 - 31)
    NEURON_ISA_TPB_DTYPE               dtype;                // 1   (32     )
    uint8_t                            reserved1[1];         // 1   (33     )
    uint8_t                            num_active_channels;  // 1   (34     )
    uint8_t                            reserved2[1];         // 1   (35     )
    NEURON_ISA_TPB_REG_SERIAL_MODE     serialization_mode;   // 1   (36     )
    uint8_t                            reserved3[3];         // 3   (37 - 39)
    uint32_t                           set_value;            // 4   (40 - 43)
    NEURON_ISA_TPB_TENSOR4D            dst_mem_pattern;      // 20  (44 - 63)
} NEURON_ISA_TPB_D4_MR_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_D4_MR_STRUCT) == 64, "Error: NEURON_ISA_TPB_D4_MR_STRUCT is NOT 64B.");

// Validity rules as Rust-style specifications; the C bodies are in aws_neuron_isa_tpb_assert.h,
// section "//* d4_mr_assert.h".

// fn is_valid_memset(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_memset_opcode(i)
//     && d4_mr_reserved_zero(i)
//     && is_valid_dtype(i.d4_mr.dtype, DtypeAllowFP32R::True)
//     && memset_set_value_type(i)
//     && d4_mr_zero_serialization(i)
//     && has_valid_active_channel_range(i.d4_mr.num_active_channels, POOLING_NUM_CHANNELS)
//     && start_addr_active_channels(i.d4_mr.dst_mem_pattern.start_addr, i.d4_mr.num_active_channels)
//     && tensor4d_valid(i.d4_mr.dst_mem_pattern, i.d4_mr.dtype, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
// }

// fn has_memset_opcode(i: Inst) -> bool {
//     i.d4_mr.header.opcode == Opcode::Memset
// }

// fn d4_mr_zero_serialization(i: Inst) -> bool {
//     i.d4_mr.serialization_mode == RegSerialMode::Serial
// }

// fn d4_mr_reserved_zero(i: Inst) -> bool {
//     i.d4_mr.reserved0 == [0; 16] && i.d4_mr.reserved1 == [0]
//     && i.d4_mr.reserved2 == [0] && i.d4_mr.reserved3 == [0; 3]
// }















































// fn memset_set_value_type(i: Inst) -> bool {
//     // set_value holds the fill as the dtype's own bit pattern, zero-extended to 32 bits:
//     // bits the dtype does not have must be 0
//     match i.d4_mr.dtype {
//         Dtype::FP32 | Dtype::UINT32 | Dtype::INT32 | Dtype::UINT32 => true,
//         Dtype::UINT16 | Dtype::INT16 | Dtype::BFLOAT16 | Dtype::FP16 => {
//             i.d4_mr.set_value & 0xffff0000 == 0
//         }
//         Dtype::UINT8 | Dtype::INT8
//         | Dtype::FP8_EXP3 | Dtype::FP8_EXP4 | Dtype::FP8_EXP5 => {
//             i.d4_mr.set_value & 0xffffff00 == 0
//         }
//         // any other dtype (FP32R, the 64-bit types, the newer narrow
//         // types) has no fill rule here
//         _ => false,
//     }
// }

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_D4_MR_H
