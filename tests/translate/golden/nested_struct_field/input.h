/* nested_struct_field: fields of a struct inside a struct inside the word, and an array in the
 * nested struct. */
#include "aws_neuron_isa_tpb_common.h"

static inline bool nested_struct_field(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.inner.p.s < -100 && i.w.inner.p.u > i.w.inner.tag );
}

static inline bool nested_array(NEURON_ISA_TPB_INST_UNION i) {
    return( i.w.inner.v[2] == i.w.inner.tag || i.w.inner.v[0] > 250 );
}
