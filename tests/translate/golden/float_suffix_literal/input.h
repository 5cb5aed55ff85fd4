/* float_suffix_literal: 0.1f is the float nearest 0.1 (0.100000001490116...), not the double 0.1,
 * so f > 0.1 and f > 0.1f differ exactly when f == 0.1f; a static const float holds that float
 * too. */
#include "aws_neuron_isa_tpb_common.h"

static const float NEURON_ISA_TPB_TENTH = 0.1f;

static inline bool float_suffix_literal(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.w.f > 0.1) != (i.w.f > 0.1f) );
}

static inline bool float_static_const(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.d == NEURON_ISA_TPB_TENTH );
}
