/* div_mod_truncation: integer / and % truncate toward zero (the remainder takes the dividend's
 * sign); a guard short-circuits a division by zero; an int8_t divided by 2U is unsigned. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool div_mod_truncation(NEURON_ISA_TPB_INST_UNION i) {
    int32_t x = (int32_t)i.w.a - 100;
    int32_t y = (i.w.b == 0) ? 7 : (int32_t)i.w.b;
    return( (x / y) * y + (x % y) == x && (x / y) != NEURON_ISA_TPB_NEG && (i.w.u32 % 10U) < 5U );
}

static inline bool negative_quotient(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.i16 / 7 == -3 || i.w.i16 % 7 == -2 );
}

static inline bool guarded_division(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.a != 0 && i.w.u32 / i.w.a > 1000000U );
}

static inline bool unsigned_division(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.b / 2U > 100U );
}
