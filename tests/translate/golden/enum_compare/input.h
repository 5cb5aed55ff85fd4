/* enum_compare: a packed enum field against its enumerators, ordered comparisons, enum
 * arithmetic (promoted to int), and an is-valid switch over the enumerators. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool kind_valid(uint8_t k) {
    switch (k) {
    case NEURON_ISA_TPB_KIND_X:
    case NEURON_ISA_TPB_KIND_Y:
    case NEURON_ISA_TPB_KIND_Z:
        return true;
    default:
        return false;
    }
}

static inline bool enum_compare(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.kind == NEURON_ISA_TPB_KIND_Z || (i.w.kind > NEURON_ISA_TPB_KIND_X && i.w.kind < 5) );
}

static inline bool enum_valid(NEURON_ISA_TPB_INST_UNION i) {
    return( kind_valid(i.w.kind) && i.w.opcode != NEURON_ISA_TPB_OPCODE_INVALID );
}

static inline bool enum_arith(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.kind - NEURON_ISA_TPB_KIND_Z < 0 );
}
