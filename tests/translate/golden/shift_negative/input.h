/* shift_negative: >> of a negative value is arithmetic (gcc); << of a promoted uint8_t keeps its
 * high bits; shift counts read from the word, on 32- and 64-bit values. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool shift_negative(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.w.b >> 1) < -5 && (i.w.i32 >> 31) == -1 );
}

static inline bool shift_promotes(NEURON_ISA_TPB_INST_UNION i) {
    return( ((i.w.a << 3) >> 2) > 40 );
}

static inline bool shift_variable(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.w.u32 >> (i.w.a & 31)) == 1U || ((uint32_t)i.w.b << (i.w.bits.lo + 24)) > 0x80000000U );
}

static inline bool shift_wide(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.x.i64 >> (i.w.a & 63)) < -1000 || (1ULL << (i.w.b & 63)) > i.x.u64 );
}
