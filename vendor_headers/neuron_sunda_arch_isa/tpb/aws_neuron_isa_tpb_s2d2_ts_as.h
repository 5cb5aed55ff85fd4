/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v2.
 */

#ifndef AWS_NEURON_ISA_TPB_S2D2_TS_AS_H
#define AWS_NEURON_ISA_TPB_S2D2_TS_AS_H
#include "aws_neuron_isa_tpb_common.h"

#ifdef __cplusplus
extern "C" {
#endif
// NEURON_ISA_TPB_S2D2_TS_AS_STRUCT: one 2-D source, one 2-D destination, a computed 4-D mask.
// Instructions that use this operand layout:
//   - TensorScalarAffineSelect (AffineSelect)








// AffineSelect: for the k-th element, a mask value is computed (not read from memory) the way
// Iota computes its values: mask_pattern.base + channel * channel_multiplier + the sum over the
// four dims of index * mask_pattern.step_elem. Where (mask value <fill_mode> 0) holds, the
// output element is the source element (converted from dtype_lo to dtype_hi); elsewhere it is
// the fill value, which is held in fp32 in register fill_reg whatever the two dtypes are.
// With a suitable pattern this fills one side of a diagonal (an upper- or lower-triangular
// mask, e.g. for causal attention).
//
// fill_mode compares against zero: GREATER_THAN, GREATER_THAN_EQ, EQ or NOT_EQ.
// The mask walk and the source walk visit the same number of elements; so does the
// destination walk.
// Source and destination may be in SBUF or PSUM; the counts are always compared.
//
// fill_reg names the register that holds the fill value.
//
// Field sizes and byte ranges are in the trailing comments of the struct.






typedef enum NEURON_ISA_TPB_AFFINE_SELECT_CMP {
    NEURON_ISA_TPB_AFFINE_SELECT_CMP_GREATER_THAN = 0x0,
    NEURON_ISA_TPB_AFFINE_SELECT_CMP_GREATER_THAN_EQ = 0x1,
    NEURON_ISA_TPB_AFFINE_SELECT_CMP_EQ = 0x2,
    NEURON_ISA_TPB_AFFINE_SELECT_CMP_NOT_EQ = 0x3,
} NEURON_ISA_PACKED NEURON_ISA_TPB_AFFINE_SELECT_CMP;

typedef struct NEURON_ISA_TPB_S2D2_TS_AS_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    uint8_t                            num_active_channels;  // 1   (12     )
    NEURON_ISA_TPB_DTYPE_PAIR          in_out_dtype;         // 1   (13     )
    NEURON_ISA_TPB_AFFINE_SELECT_CMP   fill_mode;            // 1   (14     )
    uint8_t                            fill_reg;             // 1   (15     )
    NEURON_ISA_TPB_DATA4D              mask_pattern;         // 20  (16 - 35)
    NEURON_ISA_TPB_TENSOR2D            src_mem_pattern;      // 12  (36 - 47)
    NEURON_ISA_TPB_TENSOR2D            dst_mem_pattern;      // 12  (48 - 59)
    int32_t                            channel_multiplier;   // 4   (60 - 63)
} NEURON_ISA_TPB_S2D2_TS_AS_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S2D2_TS_AS_STRUCT) == 64, "Error: NEURON_ISA_TPB_S2D2_TS_AS_STRUCT is NOT 64B.");


// Validity rules as Rust-style specifications; the C bodies are in aws_neuron_isa_tpb_assert.h,
// section "//* s2d2_ts_as_assert.h".
// fn is_valid_s2d2_ts_as(i: Inst) -> bool {
//     has_valid_neuron_header(i)
//     && has_valid_neuron_events(i)
//     && has_s2d2_ts_as_opcode(i)
//     && has_valid_active_channel_range(i.s2d2_ts_as.num_active_channels, POOLING_NUM_CHANNELS)
//     && tensor2d_valid(i.s2d2_ts_as.src_mem_pattern, lo, WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//     && tensor2d_valid(i.s2d2_ts_as.dst_mem_pattern, hi, WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//     && start_addr_active_channels(i.s2d2_ts_as.src_mem_pattern.start_addr, i.s2d2_ts_as.num_active_channels)
//     && start_addr_active_channels(i.s2d2_ts_as.dst_mem_pattern.start_addr, i.s2d2_ts_as.num_active_channels)
//     && s2d2_ts_as_valid_elem_count(i)
//     && s2d2_ts_as_valid_dtypes(i)
//     && is_valid_enum(EnumList::AffineSelectCmp, i.s2d2_ts_as.fill_mode)
//     && is_valid_register_read(i.s2d2_ts_as.fill_reg)
// }


// fn s2d2_ts_as_valid_elem_count(i: Inst) -> bool {
//     (same_element_count_t2d(i.s2d2_ts_as.src_mem_pattern, i.s2d2_ts_as.dst_mem_pattern)
//         && same_element_count_ts_as(i.s2d2_ts_as.mask_pattern, i.s2d2_ts_as.src_mem_pattern))
// }


// fn same_element_count_ts_as(mask: Data4D, src: Tensor2D) -> bool {
//     d4d_element_count(mask) == t2d_element_count(src)
// }



// fn s2d2_ts_as_valid_dtypes(i: Inst) -> bool {
//     is_valid_dtype(hi, DtypeAllowFP32R::True)
//     && is_valid_dtype(lo, DtypeAllowFP32R::False)
// }

// fn has_s2d2_ts_as_opcode(i: Inst) -> bool {
//     i.s2d2_ts_as.header.opcode == Opcode::TensorScalarAffineSelect
// }

// fn is_valid_register_read(reg: u8) -> bool {
//     (reg as u32) < NUM_ADDR_REGISTERS
// }

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_S2D2_TS_AS_H
