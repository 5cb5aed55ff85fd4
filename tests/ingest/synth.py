"""Small synthetic header trees for ingest tests (the real drop is exercised elsewhere)."""

from __future__ import annotations

import json
from pathlib import Path

COMMON = """\
/*
 * Synthetic test header.
 * ISA header for NC-v9.
 */
#ifndef SYNTH_COMMON_H
#define SYNTH_COMMON_H
#include <stdint.h>
#include <stdbool.h>
#ifndef NEURON_ISA_PACKED
#define NEURON_ISA_PACKED __attribute__((__packed__))
#endif
#ifdef __cplusplus
#define ISA_STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define ISA_STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif
static const uint32_t NEURON_ISA_TPB_INST_NBYTES = 64U;
static const uint32_t NEURON_ISA_TPB_MASK = 0x1fffffffU;
typedef enum NEURON_ISA_TPB_OPCODE {
    NEURON_ISA_TPB_OPCODE_ALPHA = 0x43, // Y
    NEURON_ISA_TPB_OPCODE_BETA = 0x44, // n, use Alpha instead
    NEURON_ISA_TPB_OPCODE_GAMMA = NEURON_ISA_TPB_OPCODE_BETA + 2, // note // Y
    NEURON_ISA_TPB_OPCODE_INVALID = 0xff,
} NEURON_ISA_PACKED NEURON_ISA_TPB_OPCODE;
typedef enum NEURON_ISA_TPB_WIDE { NEURON_ISA_TPB_WIDE_A = 1, NEURON_ISA_TPB_WIDE_B = 300, } NEURON_ISA_TPB_WIDE;
typedef uint32_t NEURON_ISA_TPB_PARTITION_OFFSET;
typedef NEURON_ISA_TPB_PARTITION_OFFSET NEURON_ISA_TPB_PTR;
// A header-like struct.
typedef struct NEURON_ISA_TPB_HEADER {
    NEURON_ISA_TPB_OPCODE opcode; // 1 (0)
    uint8_t               len;    // 1 (1)
    uint16_t              half;   // 2 (2 - 3)
} NEURON_ISA_TPB_HEADER;
typedef struct NEURON_ISA_TPB_BITS {
    uint8_t a : 3;
    uint8_t b : 6;
    uint16_t c : 9;
    uint32_t : 0;
    uint8_t d : 2;
    uint32_t e;
} NEURON_ISA_TPB_BITS;
typedef struct NEURON_ISA_TPB_PBITS {
    uint8_t a : 3;
    uint8_t b : 6;
    uint16_t c : 9;
    uint32_t e;
} NEURON_ISA_PACKED NEURON_ISA_TPB_PBITS;
typedef union NEURON_ISA_TPB_IMM {
    NEURON_ISA_TPB_PTR ptr;
    float f;
    uint8_t b[4];
} NEURON_ISA_TPB_IMM;
typedef struct NEURON_ISA_TPB_MIXED {
    uint8_t x;
    uint64_t y;
    int16_t z[3];
    union { uint32_t u; int32_t s; };
    struct { uint8_t p; uint8_t q; } inner;
    NEURON_ISA_TPB_IMM imm;
} NEURON_ISA_TPB_MIXED;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_HEADER) == 4, "Error: HEADER is NOT 4B.");
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_MIXED) == 40, "Error: MIXED is NOT 40B.");
#endif
"""

OPS = """\
#ifndef SYNTH_OPS_H
#define SYNTH_OPS_H
#include "aws_neuron_isa_tpb_common.h"
#ifndef STATIC
#define STATIC static
#endif
//* ops_assert.h
STATIC inline bool is_alpha(NEURON_ISA_TPB_HEADER h) {
    return( (h.opcode == NEURON_ISA_TPB_OPCODE_ALPHA) );
}
STATIC inline bool is_valid_header(NEURON_ISA_TPB_HEADER h) {
    return( is_alpha(h) && (h.len == 16) );
}
#endif
"""

MAPPING = {
    "struct2opcode": {
        "NEURON_ISA_TPB_HEADER": [
            "NEURON_ISA_TPB_OPCODE_ALPHA",
            "NEURON_ISA_TPB_OPCODE_BETA",
            "NEURON_ISA_TPB_OPCODE_DELTA",
        ],
        "NEURON_ISA_TPB_ELSEWHERE_STRUCT": ["NEURON_ISA_TPB_OPCODE_GAMMA"],
    },
    "struct2pseudo_opcode": {},
}


def make_tree(
    root: Path, gen: str = "synth", common: str = COMMON, ops: str = OPS, mapping: object = MAPPING
) -> Path:
    tpb = root / f"neuron_{gen}_arch_isa" / "tpb"
    tpb.mkdir(parents=True)
    (tpb / "aws_neuron_isa_tpb_common.h").write_text(common)
    (tpb / "aws_neuron_isa_tpb_ops.h").write_text(ops)
    if mapping is not None:
        (tpb / "instruction_mapping.json").write_text(
            mapping if isinstance(mapping, str) else json.dumps(mapping, indent=4)
        )
    return tpb
