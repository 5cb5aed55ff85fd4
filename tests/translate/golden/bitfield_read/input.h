/* bitfield_read: unsigned bitfields in one byte, signed bitfields and one spanning two bytes;
 * a bitfield narrower than int promotes to int, so lo - mid can be negative. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool bitfield_read(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.bits.lo == 5 || (i.w.bits.mid > 9 && i.w.bits.hi) );
}

static inline bool signed_bitfield(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.sbits.s5 < -3 || i.w.sbits.s4 == -1 || i.w.sbits.u7 > 100 );
}

static inline bool bitfield_arith(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.bits.lo - i.w.bits.mid < 0 && i.w.sbits.s5 * 2 > i.w.sbits.u7 - 128 );
}
