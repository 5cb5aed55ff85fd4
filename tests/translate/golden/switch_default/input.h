/* switch_default: a `default:` placed between cases, and a switch without one that falls out to
 * the statement after it. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool switch_default(NEURON_ISA_TPB_INST_UNION i) {
    switch (i.w.a & 3) {
    case 0:
        return i.w.b > 0;
    default:
        return i.w.b < -50;
    case 3:
        return i.w.b == 0;
    }
}

static inline bool switch_no_default(NEURON_ISA_TPB_INST_UNION i) {
    switch (i.w.kind) {
    case NEURON_ISA_TPB_KIND_X:
        return i.w.a > 5;
    case NEURON_ISA_TPB_KIND_Z:
        return false;
    }
    return i.w.a < 2;
}
