# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_leaf(v: Any) -> Any:
    return _vmod(np.asarray(v).astype(np.int32), np.int32(3)) == np.int32(0)


@_memo
def _v_mid_pair(p_W: Any, p_o: Any) -> Any:
    return np.logical_and(_v_leaf(_colv(p_W, p_o + 2, '<u2')), _colv(p_W, p_o, '<i2') != np.int32(0))


@_memo
def _v_mid_word(i_W: Any, i_o: Any) -> Any:
    return np.logical_or(_v_mid_pair(i_W, i_o + 8 + np.asarray(np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) & np.int32(3)).astype(np.int64).astype(np.int64) * 4), _v_leaf(np.asarray(np.asarray(_colv(i_W, i_o + 36, '<u2')).astype(np.int32) + np.int32(1)).astype(np.uint16)))


@_memo
def _v_helper_call_depth(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_v_mid_word(i_W, i_o), np.logical_not(_v_mid_pair(i_W, i_o + 48)))
