# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_casts(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(((np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) & np.int32(4)) != 0) != ((np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.int32) & np.int32(8)) != 0), np.asarray(_colv(i_W, i_o + 24, '<u4') >> np.uint32(8)).astype(np.int16) < np.int32(0))


@_memo
def _v_cast_chain(i_W: Any, i_o: Any) -> Any:
    return np.logical_or(np.asarray(np.asarray(_colv(i_W, i_o + 24, '<u4')).astype(np.uint8)).astype(np.int8) < np.int32(-100), np.asarray(np.asarray(_byte(i_W, i_o + 2)).astype(np.int8)).astype(np.uint16) > np.int32(65000))


@_memo
def _v_cast_to_bool(i_W: Any, i_o: Any) -> Any:
    return ((np.asarray(_colv(i_W, i_o + 24, '<u4') != 0).astype(np.int32) + np.asarray(_colv(i_W, i_o + 32, '<f4') != 0).astype(np.int32)) + np.asarray(_colv(i_W, i_o + 40, '<f8') != 0).astype(np.int32)) == np.int32(2)


@_memo
def _v_float_to_int(i_W: Any, i_o: Any) -> Any:
    return _all_of(
        _colv(i_W, i_o + 32, '<f4') > np.float32(-1000.0),  # w.f
        _colv(i_W, i_o + 32, '<f4') < np.float32(1000.0),  # w.f
        np.asarray(_colv(i_W, i_o + 32, '<f4')).astype(np.int32) == np.int32(-3),  # w.f
    )


@_memo
def _v_int_to_float(i_W: Any, i_o: Any) -> Any:
    return np.logical_or(np.asarray(_colv(i_W, i_o + 24, '<u4')).astype(np.float32) == np.float32(4294967296.0), np.asarray(_colv(i_W, i_o + 16, '<i8')).astype(np.float64) == np.float64(-9.223372036854776e+18))
