/* enum_negative_member: a packed enum with a negative enumerator is a signed char under gcc, so
 * its field reads as -2 for the byte 0xfe. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool enum_negative_member(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.sign == NEURON_ISA_TPB_SIGN_NEG || i.w.sign < -100 );
}
