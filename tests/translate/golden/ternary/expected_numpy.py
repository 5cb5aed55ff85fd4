# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_ternary(i_W: Any, i_o: Any) -> Any:
    return _select(_byte(i_W, i_o + 2) > np.int32(128), np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.int32), -np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.int32)) > np.int32(10)


@_memo
def _v_ternary_nested(i_W: Any, i_o: Any) -> Any:
    return _select(_byte(i_W, i_o + 2) < np.int32(10), np.int32(1), _select(_byte(i_W, i_o + 2) < np.int32(100), np.int32(2), np.int32(3))) == (np.asarray(_byte(i_W, i_o + 1)).astype(np.int32) & np.int32(3))


@_memo
def _v_ternary_common_type(i_W: Any, i_o: Any) -> Any:
    return _select(_byte(i_W, i_o + 3).view(np.int8) < np.int32(0), np.asarray(_colv(i_W, i_o + 28, '<i4')).astype(np.uint32), _colv(i_W, i_o + 24, '<u4')) > np.uint32(5)
