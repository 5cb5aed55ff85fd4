/* unsigned_wraparound: unsigned arithmetic wraps at its width (uint32_t, uint64_t, a cast back to
 * uint8_t); uint16_t promotes to int first, so u16 - 1 can be negative. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool unsigned_wraparound(NEURON_ISA_TPB_INST_UNION i) {
    return( (uint8_t)(i.w.a + 200) > 100 && (uint32_t)(i.w.u32 * 3U + 7U) < 0x80000000U );
}

static inline bool u16_promotes(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.u16 - 1 < 0 );
}

static inline bool u32_wraps(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.u32 - 1U > 0xFFFFFFF0U || -i.w.u32 == 1U );
}

static inline bool u64_wraps(NEURON_ISA_TPB_INST_UNION i) {
    return( i.x.u64 * 3ULL + 5ULL < 10ULL || (uint64_t)i.w.u32 << 32 > 0x8000000000000000ULL );
}
