# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_array_field_index(i_W: Any, i_o: Any) -> Any:
    return np.logical_or(_gather(i_W, i_o + 10 + np.asarray(np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) & np.int32(3)).astype(np.int64).astype(np.int64) * 4, 2).astype(np.uint16) > np.int32(60000), _gather(i_W, i_o + 56 + np.asarray(np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.int32) & np.int32(1)).astype(np.int64).astype(np.int64) * 4 + np.asarray(np.asarray(((_byte(i_W, i_o + 4) >> 0) & 0x7).astype(np.uint8)).astype(np.int32) & np.int32(3)).astype(np.int64).astype(np.int64), 1) == np.int32(0))


@_memo
def _v_array_const_index(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_colv(i_W, i_o + 20, '<i2') < _colv(i_W, i_o + 8, '<i2'), _byte(i_W, i_o + 63) < np.int32(128))


@_memo
def _v_array_guarded(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_byte(i_W, i_o + 2) < np.int32(4), _gather(i_W, i_o + 8 + np.asarray(_byte(i_W, i_o + 2)).astype(np.int64).astype(np.int64) * 4, 2).astype(np.int16) < np.int32(0))
