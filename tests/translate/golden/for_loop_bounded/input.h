/* for_loop_bounded: a for loop over a struct array with `continue` (`break` is in loop_break),
 * one that returns from inside, and one whose trip count is read from the word (while loops are
 * not accepted). */
#include "aws_neuron_isa_tpb_common.h"

static inline bool for_loop_bounded(NEURON_ISA_TPB_INST_UNION i) {
    int32_t total = 0;
    uint32_t count = 0U;
    for (int k = 0; k < 4; k++) {
        if (i.w.pairs[k].s < 0) {
            continue;
        }
        total += i.w.pairs[k].s;
        count++;
    }
    return( count >= 2U && total > 20000 );
}

static inline bool loop_return(NEURON_ISA_TPB_INST_UNION i) {
    for (uint8_t k = 0; k < 3; k++) {
        if (i.w.inner.v[k] < 16) {
            return false;
        }
    }
    return true;
}

static inline bool loop_bound_from_word(NEURON_ISA_TPB_INST_UNION i) {
    uint32_t acc = 1U;
    for (uint8_t n = 0; n < (i.w.a & 7); n++) {
        acc *= 3U;
    }
    return( acc > 100U );
}
