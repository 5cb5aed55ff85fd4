/* ternary: `?:` as a value, nested, and with arms of different types (the usual arithmetic
 * conversions: a negative int32_t arm meets a uint32_t arm and becomes a large unsigned value). */
#include "aws_neuron_isa_tpb_common.h"

static inline bool ternary(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.w.a > 128 ? i.w.b : -i.w.b) > 10 );
}

static inline bool ternary_nested(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.w.a < 10 ? 1 : i.w.a < 100 ? 2 : 3) == (i.w.kind & 3) );
}

static inline bool ternary_common_type(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.w.b < 0 ? i.w.i32 : i.w.u32) > 5U );
}
