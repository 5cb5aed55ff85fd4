/* array_field_index: arrays in the word indexed by constants, by fields (a struct array and a
 * two-dimensional array), through the other union arm, and behind a guard on the index. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool array_field_index(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.pairs[i.w.a & 3].u > 60000 || i.w.m[i.w.b & 1][i.w.bits.lo & 3] == 0 );
}

static inline bool array_const_index(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.pairs[3].s < i.w.pairs[0].s && i.x.rest[39] < 128 );
}

static inline bool array_guarded(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.a < 4 && i.w.pairs[i.w.a].s < 0 );
}
