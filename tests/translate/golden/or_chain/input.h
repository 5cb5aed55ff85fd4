/* or_chain: `||` chains, and `&&` binding tighter than `||` without parentheses. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool or_chain(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.a == 0 ||
            i.w.b < -100 ||
            (i.w.u32 & 0xF) == 7 ||
            i.w.kind == NEURON_ISA_TPB_KIND_Z );
}

static inline bool or_and_precedence(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.a > 250 || i.w.b > 120 && i.w.i32 < 0 || i.w.u16 == 0 );
}
