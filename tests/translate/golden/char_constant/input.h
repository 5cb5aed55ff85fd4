/* char_constant: character constants are ints: letters, escapes (\n, \0, \\, \', octal, hex
 * below 0x80; '\xff' is in char_constant_signed). */
#include "aws_neuron_isa_tpb_common.h"

static inline bool char_constant(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.a == 'A' || i.w.a == '\n' || i.w.a == '\0' || i.w.a == '\101' + 1 );
}

static inline bool char_escapes(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.b == '\x7f' || i.w.a == '\\' || i.w.a == '\'' );
}
