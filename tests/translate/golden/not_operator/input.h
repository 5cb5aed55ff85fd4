/* not_operator: `!` on integers, comparisons, floats (NaN is non-zero), `!!`, and the 0/1 ints
 * that `!`, comparisons and `&&` give, used in arithmetic. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool not_operator(NEURON_ISA_TPB_INST_UNION i) {
    return( !i.w.a || !(i.w.b > 3) );
}

static inline bool not_not(NEURON_ISA_TPB_INST_UNION i) {
    return( !!i.w.u32 == (i.w.kind & 1) );
}

static inline bool not_float(NEURON_ISA_TPB_INST_UNION i) {
    return( !i.w.f );
}

static inline bool logical_values_as_ints(NEURON_ISA_TPB_INST_UNION i) {
    return( (!i.w.a + !i.w.b + !i.w.u16) >= 2 || ((i.w.a > 3) + (i.w.b > 3) + (i.w.i32 && i.w.u32)) == 3 );
}
