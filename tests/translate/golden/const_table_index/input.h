/* const_table_index: a static const table indexed by a constant, by a masked field, by a
 * bitfield expression, and behind a guard that keeps the index in range. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool const_table_index(NEURON_ISA_TPB_INST_UNION i) {
    uint8_t k = i.w.a & 7;
    return( NEURON_ISA_TPB_TABLE[k] > 8 && NEURON_ISA_TPB_TABLE[3] == 8 );
}

static inline bool table_sum(NEURON_ISA_TPB_INST_UNION i) {
    return( NEURON_ISA_TPB_TABLE[i.w.bits.lo] + NEURON_ISA_TPB_TABLE[7 - i.w.bits.lo] > 100 );
}

static inline bool table_guarded(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.a < 8 && NEURON_ISA_TPB_TABLE[i.w.a] >= 16 );
}
