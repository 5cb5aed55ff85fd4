/* float_compare_nan: comparisons with NaN are false (but != is true, so !(f != f) is f == f);
 * a float compared with a double is widened; float arithmetic rounds to float; an int compared
 * with a float is converted to float first. (A negated ordered comparison and f-suffixed
 * constants are in float_negated_compare and float_suffix_literal.) */
#include "aws_neuron_isa_tpb_common.h"

static inline bool float_compare(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.w.f == 0.0f || i.w.f > 1.5f) && !(i.w.f != i.w.f) );
}

static inline bool float_vs_double(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.f < i.w.d || i.w.d != i.w.d || i.w.d < -0.5 );
}

static inline bool float_rounds(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.f + 1.0f == i.w.f && i.w.f == i.w.f );
}

static inline bool float_vs_int(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.f >= i.w.i32 && i.w.i32 > 16777216 );
}
