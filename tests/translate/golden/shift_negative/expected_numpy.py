# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_shift_negative(i_W: Any, i_o: Any) -> Any:
    return np.logical_and((np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.int32) >> np.int32(1)) < np.int32(-5), (_colv(i_W, i_o + 28, '<i4') >> np.int32(31)) == np.int32(-1))


@_memo
def _v_shift_promotes(i_W: Any, i_o: Any) -> Any:
    return ((np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) << np.int32(3)) >> np.int32(2)) > np.int32(40)


@_memo
def _v_shift_variable(i_W: Any, i_o: Any) -> Any:
    return np.logical_or((_colv(i_W, i_o + 24, '<u4') >> np.asarray(np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) & np.int32(31)).astype(np.uint32)) == np.uint32(1), (np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.uint32) << np.asarray(np.asarray(((_byte(i_W, i_o + 4) >> 0) & 0x7).astype(np.uint8)).astype(np.int32) + np.int32(24)).astype(np.uint32)) > np.uint32(2147483648))


@_memo
def _v_shift_wide(i_W: Any, i_o: Any) -> Any:
    return np.logical_or((_colv(i_W, i_o + 16, '<i8') >> np.asarray(np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) & np.int32(63)).astype(np.int64)) < np.int64(-1000), (np.uint64(1) << np.asarray(np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.int32) & np.int32(63)).astype(np.uint64)) > _colv(i_W, i_o + 8, '<u8'))
