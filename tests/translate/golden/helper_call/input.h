/* helper_call: helpers taking scalars (arguments convert to the parameter types: an int8_t -1
 * becomes 0xFFFFFFFF), a struct by value, and returning a narrower type. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool in_range(uint32_t v, uint32_t lo, uint32_t hi) {
    return( v >= lo && v <= hi );
}

static inline int32_t pair_sum(NEURON_ISA_TPB_PAIR p) {
    return( p.s + (int32_t)p.u );
}

static inline int8_t low_byte(uint32_t v) {
    return v;
}

static inline bool helper_call(NEURON_ISA_TPB_INST_UNION i) {
    return( in_range(i.w.a, 10, 200) && in_range(i.w.b, 0, 0xFFFFFFF0U) );
}

static inline bool helper_struct_arg(NEURON_ISA_TPB_INST_UNION i) {
    return( pair_sum(i.w.pairs[1]) > 40000 || pair_sum(i.w.inner.p) < -1000 );
}

static inline bool helper_narrow_return(NEURON_ISA_TPB_INST_UNION i) {
    return( low_byte(i.w.u32) < -100 );
}
