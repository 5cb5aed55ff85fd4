/* char_constant_signed: plain char is signed under gcc on x86-64, so the character constant
 * '\xff' is the int -1 (C11 6.4.4.4p10: the value of a char object holding 0xff, converted to
 * int): b == '\xff' holds for the byte 0xff, a == '\xff' never does. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool char_constant_signed(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.b == '\xff' && i.w.a != '\x80' );
}
