/* float_negated_compare: !(f >= 0.0f) is not f < 0.0f: both are false for NaN, so only NaN makes
 * this predicate true. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool float_negated_compare(NEURON_ISA_TPB_INST_UNION i) {
    return( !(i.w.f >= 0.0f) && !(i.w.f < 0.0f) );
}
