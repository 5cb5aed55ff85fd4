# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_int_promotes(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_byte(i_W, i_o + 3).view(np.int8) < _byte(i_W, i_o + 2), _colv(i_W, i_o + 38, '<i2') < _colv(i_W, i_o + 36, '<u2'))


@_memo
def _v_unsigned_wins(i_W: Any, i_o: Any) -> Any:
    return np.asarray(_colv(i_W, i_o + 28, '<i4')).astype(np.uint32) < _colv(i_W, i_o + 24, '<u4')


@_memo
def _v_negative_vs_unsigned_one(i_W: Any, i_o: Any) -> Any:
    return np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.uint32) < np.uint32(1)


@_memo
def _v_int64_vs_uint32(i_W: Any, i_o: Any) -> Any:
    return _colv(i_W, i_o + 28, '<i4') < _colv(i_W, i_o + 24, '<u4')


@_memo
def _v_int64_vs_uint64(i_W: Any, i_o: Any) -> Any:
    return np.asarray(_colv(i_W, i_o + 16, '<i8')).astype(np.uint64) < _colv(i_W, i_o + 8, '<u8')
