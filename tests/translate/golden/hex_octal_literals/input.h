/* hex_octal_literals: hex, octal and suffixed literals; a literal's type depends on its base:
 * 0x80000000 is unsigned int (so i32 is compared unsigned), 2147483648 is long (signed). */
#include "aws_neuron_isa_tpb_common.h"

static inline bool hex_octal_literals(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.a == 0x7F || i.w.a == 017 || (i.w.u32 & 0xFFFF0000U) == 0xABCD0000 || i.w.u16 == 0177777 );
}

static inline bool hex_literal_is_unsigned(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.i32 - 0x80000000 < 5U );
}

static inline bool decimal_literal_is_long(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.i32 - 2147483648 < -4000000000L );
}

static inline bool wide_literals(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.x.u64 & 0x8000000000000000ULL) != 0 && i.x.u64 != 0xFFFFFFFFFFFFFFFF && i.x.i64 < 1LL << 40 );
}
