/* switch_fallthrough: stacked case labels sharing one body, in a helper returning a weight. */
#include "aws_neuron_isa_tpb_common.h"

static inline uint32_t weight(uint8_t k) {
    switch (k) {
    case NEURON_ISA_TPB_KIND_X:
    case NEURON_ISA_TPB_KIND_Y:
        return 10U;
    case NEURON_ISA_TPB_KIND_Z:
        return 70U;
    default:
        return 0U;
    }
}

static inline bool switch_fallthrough(NEURON_ISA_TPB_INST_UNION i) {
    return( weight(i.w.kind) + i.w.a > NEURON_ISA_TPB_LIMIT );
}
