/* and_chain: `&&` chains, flat (one term per line) and parenthesised inside another chain. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool and_chain(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.a > 3 &&
            i.w.b != -1 &&
            i.w.u32 < NEURON_ISA_TPB_LIMIT &&
            (i.w.i16 >= -7 && i.w.u16 <= 9000) );
}

static inline bool and_pair(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.a <= 200 && i.w.kind == NEURON_ISA_TPB_KIND_Y );
}
