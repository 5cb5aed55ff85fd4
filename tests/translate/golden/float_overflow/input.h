/* float_overflow: float arithmetic and a double-to-float conversion whose result is beyond
 * FLT_MAX give +-inf (IEEE 754, C11 Annex F); the comparisons go on with the infinity. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool float_overflow(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.f * 4.0f > 2.0f );
}

static inline bool double_to_float_overflow(NEURON_ISA_TPB_INST_UNION i) {
    return( (float)i.w.d < -2.0f );
}
