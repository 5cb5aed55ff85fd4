/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v3.
 */

#ifndef AWS_NEURON_ISA_TPB_UTIL_H
#define AWS_NEURON_ISA_TPB_UTIL_H
#include "aws_neuron_isa_tpb_s3d3_ts.h"
#include "aws_neuron_isa_tpb_s4d4_tsm.h"
#include "aws_neuron_isa_tpb_s2_bn.h"
#include "aws_neuron_isa_tpb_s3s3d3_tt.h"
#include "aws_neuron_isa_tpb_s2s2d2_stt.h"
#include "aws_neuron_isa_tpb_s4d4_tr.h"
#include "aws_neuron_isa_tpb_d4_iota.h"
#include "aws_neuron_isa_tpb_s2d2_rs.h"
#include "aws_neuron_isa_tpb_d4_mr.h"
#include "aws_neuron_isa_tpb_s2d2_ts_as.h"
#include "aws_neuron_isa_tpb_s4d2_bn.h"
#include "aws_neuron_isa_tpb_s4d4_mr.h"

#ifdef __cplusplus
extern "C" {
#endif

// Header and events of any instruction; the payload is left uninterpreted.
typedef struct NEURON_ISA_TPB_UNKNOWN_STRUCT {
    NEURON_ISA_TPB_HEADER              header;               // 4   ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;               // 8   ( 4 - 11)
    uint8_t                            payload[52];          // 52  (12 - 63)
} NEURON_ISA_TPB_UNKNOWN_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_UNKNOWN_STRUCT) == 64, "Error: NEURON_ISA_TPB_UNKNOWN_STRUCT is NOT 64B.");

// One 64-byte instruction word, viewed through each operand struct.
typedef union NEURON_ISA_TPB_INST_UNION {
    NEURON_ISA_TPB_S3D3_TS_STRUCT      s3d3_ts;
    NEURON_ISA_TPB_S4D4_TSM_STRUCT     s4d4_tsm;
    NEURON_ISA_TPB_S2_BN_STRUCT        s2_bn;
    NEURON_ISA_TPB_S3S3D3_TT_STRUCT    s3s3d3_tt;
    NEURON_ISA_TPB_S2S2D2_STT_STRUCT   s2s2d2_stt;
    NEURON_ISA_TPB_S4D4_TR_STRUCT      s4d4_tr;
    NEURON_ISA_TPB_D4_IOTA_STRUCT      d4_iota;
    NEURON_ISA_TPB_S2D2_RS_STRUCT      s2d2_rs;
    NEURON_ISA_TPB_D4_MR_STRUCT        d4_mr;
    NEURON_ISA_TPB_S2D2_TS_AS_STRUCT   s2d2_ts_as;
    NEURON_ISA_TPB_S4D2_BN_STRUCT      s4d2_bn;
    NEURON_ISA_TPB_S4D4_MR_STRUCT      s4d4_mr;
    NEURON_ISA_TPB_UNKNOWN_STRUCT      unknown;
    uint8_t                            raw[64];
} NEURON_ISA_TPB_INST_UNION;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_INST_UNION) == 64, "Error: NEURON_ISA_TPB_INST_UNION is NOT 64B.");

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_UTIL_H
