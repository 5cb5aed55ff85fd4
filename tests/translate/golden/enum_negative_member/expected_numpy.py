# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_SIGN_NEG = -2


@_memo
def _v_enum_negative_member(i_W: Any, i_o: Any) -> Any:
    return np.logical_or(_byte(i_W, i_o + 5).view(np.int8) == np.int32(-2), _byte(i_W, i_o + 5).view(np.int8) < np.int32(-100))
