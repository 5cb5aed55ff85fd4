/* bool_accumulator: a bool local updated with `= ok && ...`, `&=`, `= ok & ...` and `|=`, and an
 * int counting true comparisons. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool bool_accumulator(NEURON_ISA_TPB_INST_UNION i) {
    bool ok = true;
    ok = ok && i.w.a != 0;
    ok &= i.w.b > -100;
    ok = ok & (i.w.u16 < 60000);
    ok |= i.w.kind == NEURON_ISA_TPB_KIND_Z;
    return ok;
}

static inline bool count_true(NEURON_ISA_TPB_INST_UNION i) {
    int n = 0;
    n += i.w.a > 3;
    n += i.w.b > 3;
    n += (i.w.u32 & 1U) != 0U;
    return( n == 2 );
}
