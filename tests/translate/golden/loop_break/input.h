/* loop_break: `break` leaves the loop: elements after the first zero are not counted. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool loop_break(NEURON_ISA_TPB_INST_UNION i) {
    int n = 0;
    for (int k = 0; k < 4; k++) {
        if (i.w.m[0][k] == 0) {
            break;
        }
        n++;
    }
    return( n >= 3 );
}
