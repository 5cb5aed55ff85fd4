# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_char_constant_signed(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_byte(i_W, i_o + 3).view(np.int8) == np.int32(-1), _byte(i_W, i_o + 2) != np.int32(-128))
