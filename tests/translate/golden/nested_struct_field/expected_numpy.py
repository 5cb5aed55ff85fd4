# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_nested_struct_field(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_colv(i_W, i_o + 48, '<i2') < np.int32(-100), _colv(i_W, i_o + 50, '<u2') > _byte(i_W, i_o + 52))


@_memo
def _v_nested_array(i_W: Any, i_o: Any) -> Any:
    return np.logical_or(_byte(i_W, i_o + 55) == _byte(i_W, i_o + 52), _byte(i_W, i_o + 53) > np.int32(250))
