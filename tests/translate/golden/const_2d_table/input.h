/* const_2d_table: a two-dimensional static const table (its missing initialisers are 0),
 * indexed by constants and by fields. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool const_2d_table(NEURON_ISA_TPB_INST_UNION i) {
    return( NEURON_ISA_TPB_GRID[i.w.a & 1][(uint8_t)i.w.b % 3] < 0 && NEURON_ISA_TPB_GRID[1][2] == 0 );
}

static inline bool grid_product(NEURON_ISA_TPB_INST_UNION i) {
    return( NEURON_ISA_TPB_GRID[i.w.bits.hi][i.w.bits.lo % 3] * i.w.b > 100 );
}
