/* sizeof_expr: sizeof of types (a struct, the word, a fixed-width int; sizeof of an expression is
 * not accepted); sizeof is a size_t (unsigned long), so b - sizeof(uint32_t) wraps for a small or
 * negative b; sizeof as a loop bound. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool sizeof_expr(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.a < sizeof(NEURON_ISA_TPB_PAIR) * 8 && sizeof(NEURON_ISA_TPB_INST_UNION) / sizeof(uint32_t) == 16 );
}

static inline bool sizeof_is_unsigned(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.b - sizeof(uint32_t) < 100 );
}

static inline bool sizeof_loop(NEURON_ISA_TPB_INST_UNION i) {
    for (unsigned k = 0; k < sizeof(NEURON_ISA_TPB_PAIR); k++) {
        if (i.w.m[0][k] < 8) {
            return false;
        }
    }
    return true;
}
