# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_float_negated_compare(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(np.logical_not(_colv(i_W, i_o + 32, '<f4') >= np.float32(0.0)), np.logical_not(_colv(i_W, i_o + 32, '<f4') < np.float32(0.0)))
