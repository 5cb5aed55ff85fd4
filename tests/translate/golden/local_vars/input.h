/* local_vars: locals of several widths; initialisation and assignment convert to the local's type
 * (narrowing keeps the low bits, int8_t -> uint32_t sign-extends); compound assignments. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool local_vars(NEURON_ISA_TPB_INST_UNION i) {
    uint8_t lo = i.w.u32;
    int16_t s = i.w.a * 300;
    uint32_t x = i.w.b;
    int32_t y;
    y = i.w.i16;
    y *= 3;
    y -= 7;
    x >>= 4;
    lo += 200;
    return( lo > 100 && s < 0 && (x > 0x0FFFFFF0U || y > 1000) );
}

static inline bool compound_ops(NEURON_ISA_TPB_INST_UNION i) {
    uint16_t v = i.w.u16;
    v <<= 3;
    v ^= 0x5A5A;
    v |= 1;
    v &= 0xFFF7;
    v %= 1000;
    v /= 3;
    v++;
    --v;
    return( v > 150 );
}
