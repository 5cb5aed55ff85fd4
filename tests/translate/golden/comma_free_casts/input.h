/* comma_free_casts: explicit casts (no comma operator): to bool, chains of narrowing and
 * widening casts, float to int (truncates toward zero), int to float (rounds). */
#include "aws_neuron_isa_tpb_common.h"

static inline bool casts(NEURON_ISA_TPB_INST_UNION i) {
    return( (bool)(i.w.a & 4) != (bool)(i.w.b & 8) && (int16_t)(i.w.u32 >> 8) < 0 );
}

static inline bool cast_chain(NEURON_ISA_TPB_INST_UNION i) {
    return( (int8_t)(uint8_t)i.w.u32 < -100 || (uint16_t)(int8_t)i.w.a > 65000 );
}

static inline bool cast_to_bool(NEURON_ISA_TPB_INST_UNION i) {
    return( (bool)i.w.u32 + (bool)i.w.f + (bool)i.w.d == 2 );
}

static inline bool float_to_int(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.f > -1000.0f && i.w.f < 1000.0f && (int32_t)i.w.f == -3 );
}

static inline bool int_to_float(NEURON_ISA_TPB_INST_UNION i) {
    return( (float)i.w.u32 == 4294967296.0f || (double)i.x.i64 == -9223372036854775808.0 );
}
