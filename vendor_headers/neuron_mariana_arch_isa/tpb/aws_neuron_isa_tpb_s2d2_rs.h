/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v4.
 */

#ifndef AWS_NEURON_ISA_TPB_S2D2_RS_H
#define AWS_NEURON_ISA_TPB_S2D2_RS_H
#include "aws_neuron_isa_tpb_common.h"

#ifdef __cplusplus
extern "C" {
#endif
// NEURON_ISA_TPB_S2D2_RS_STRUCT: one 2-D source, one 2-D destination, two bounds. From NC-v3 on.
// Instructions that use this operand layout:
//   - RangeSelect: keeps an element where both comparisons (comp_op0 against bound0,
//     comp_op1 against bound1) hold and writes fill_val elsewhere; reduce_cmd/reduce_op
//     may fold the result into the Vector Engine's accumulators (Max only)
// fill_val is fixed to the most negative finite fp32: the Vector Engine has no immediate left
// to carry another one. The comparisons run in fp32. The accumulators cannot be loaded from
// memory here (no pointer immediate is left for it).
// base is an index offset, at most 2^24 with the source's element count added.
//
// Field sizes and byte ranges are in the trailing comments of the struct.

typedef struct NEURON_ISA_TPB_S2D2_RS_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    uint8_t                            num_active_channels;  // 1   (12     )
    NEURON_ISA_TPB_DTYPE_PAIR          in_out_dtype;         // 1   (13     )
    NEURON_ISA_TPB_ACCUM_CMD           reduce_cmd;           // 1   (14     )
    NEURON_ISA_TPB_ALU_OP              reduce_op;            // 1   (15     )
    float                              base;                 // 4   (16 - 19)
    float                              fill_val;             // 4   (20 - 23)
    NEURON_ISA_TPB_TENSOR2D            src_mem_pattern;      // 12  (24 - 35)
    NEURON_ISA_TPB_ALU_OP              comp_op0;             // 1   (36     )
    NEURON_ISA_TPB_ALU_OP              comp_op1;             // 1   (37     )
    NEURON_ISA_TPB_IMM_SRC             bound0_src;           // 1   (38     )
    NEURON_ISA_TPB_IMM_SRC             bound1_src;           // 1   (39     )
    NEURON_ISA_TPB_IMM_VAL_INST_FIELD  bound0;               // 4   (40 - 43)
    NEURON_ISA_TPB_IMM_VAL_INST_FIELD  bound1;               // 4   (44 - 47)
    NEURON_ISA_TPB_TENSOR2D            dst_mem_pattern;      // 12  (48 - 59)
    uint8_t                            reserved1[4];         // 4   (60 - 63)
} NEURON_ISA_TPB_S2D2_RS_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S2D2_RS_STRUCT) == 64, "Error: NEURON_ISA_TPB_S2D2_RS_STRUCT is NOT 64B.");

// The C bodies are in aws_neuron_isa_tpb_assert.h, section "//* s2d2_rs_assert.h"
// (is_valid_range_select checks the core version against this header's own, NC-v3 or later).

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_S2D2_RS_H
