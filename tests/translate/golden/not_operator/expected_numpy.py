# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_not_operator(i_W: Any, i_o: Any) -> Any:
    return np.logical_or(np.logical_not(_byte(i_W, i_o + 2) != 0), np.logical_not(_byte(i_W, i_o + 3).view(np.int8) > np.int32(3)))


@_memo
def _v_not_not(i_W: Any, i_o: Any) -> Any:
    return np.logical_not(np.logical_not(_colv(i_W, i_o + 24, '<u4') != 0)) == (np.asarray(_byte(i_W, i_o + 1)).astype(np.int32) & np.int32(1))


@_memo
def _v_not_float(i_W: Any, i_o: Any) -> Any:
    return np.logical_not(_colv(i_W, i_o + 32, '<f4') != 0)


@_memo
def _v_logical_values_as_ints(i_W: Any, i_o: Any) -> Any:
    return np.logical_or(((np.asarray(np.logical_not(_byte(i_W, i_o + 2) != 0)).astype(np.int32) + np.asarray(np.logical_not(_byte(i_W, i_o + 3).view(np.int8) != 0)).astype(np.int32)) + np.asarray(np.logical_not(_colv(i_W, i_o + 36, '<u2') != 0)).astype(np.int32)) >= np.int32(2), ((np.asarray(_byte(i_W, i_o + 2) > np.int32(3)).astype(np.int32) + np.asarray(_byte(i_W, i_o + 3).view(np.int8) > np.int32(3)).astype(np.int32)) + np.asarray(np.logical_and(_colv(i_W, i_o + 28, '<i4') != 0, _colv(i_W, i_o + 24, '<u4') != 0)).astype(np.int32)) == np.int32(3))
