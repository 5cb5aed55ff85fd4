/* helper_call_depth: predicates calling helpers calling helpers, passing the word, a struct
 * element chosen at run time, and a uint16_t argument that wraps (65535 + 1 -> 0). */
#include "aws_neuron_isa_tpb_common.h"

static inline bool leaf(uint16_t v) {
    return( v % 3 == 0 );
}

static inline bool mid_pair(NEURON_ISA_TPB_PAIR p) {
    return( leaf(p.u) && p.s != 0 );
}

static inline bool mid_word(NEURON_ISA_TPB_INST_UNION i) {
    return( mid_pair(i.w.pairs[i.w.a & 3]) || leaf(i.w.u16 + 1) );
}

static inline bool helper_call_depth(NEURON_ISA_TPB_INST_UNION i) {
    return( mid_word(i) && !mid_pair(i.w.inner.p) );
}
