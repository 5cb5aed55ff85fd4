/* signed_compare_promotion: which comparisons are signed. int8_t, uint8_t, int16_t and uint16_t
 * all promote to int (signed compare); int32_t against uint32_t converts to unsigned; int64_t
 * against uint32_t stays signed; int64_t against uint64_t converts to unsigned. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool int_promotes(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.b < i.w.a && i.w.i16 < i.w.u16 );
}

static inline bool unsigned_wins(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.i32 < i.w.u32 );
}

static inline bool negative_vs_unsigned_one(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.b < 1U );
}

static inline bool int64_vs_uint32(NEURON_ISA_TPB_INST_UNION i) {
    return( (int64_t)i.w.i32 < i.w.u32 );
}

static inline bool int64_vs_uint64(NEURON_ISA_TPB_INST_UNION i) {
    return( i.x.i64 < i.x.u64 );
}
