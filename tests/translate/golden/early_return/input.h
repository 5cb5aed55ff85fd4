/* early_return: guard clauses (`if (...) return false;`), braced and not, an else-if chain. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool early_return(NEURON_ISA_TPB_INST_UNION i) {
    if (i.w.opcode != NEURON_ISA_TPB_OPCODE_A) {
        return false;
    }
    if (i.w.a > 100) return false;
    else if (i.w.b < 0) return i.w.u16 > 300;
    if (i.w.i32 == 0) {
        return true;
    }
    return( i.w.u32 % 3U == 1U );
}
