# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_in_range(v: Any, lo: Any, hi: Any) -> Any:
    return np.logical_and(v >= lo, v <= hi)


@_memo
def _v_pair_sum(p_W: Any, p_o: Any) -> Any:
    return np.asarray(_colv(p_W, p_o, '<i2')).astype(np.int32) + np.asarray(_colv(p_W, p_o + 2, '<u2')).astype(np.int32)


@_memo
def _v_low_byte(v: Any) -> Any:
    return np.asarray(v).astype(np.int8)


@_memo
def _v_helper_call(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_v_in_range(np.asarray(_byte(i_W, i_o + 2)).astype(np.uint32), np.uint32(10), np.uint32(200)), _v_in_range(np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.uint32), np.uint32(0), np.uint32(4294967280)))


@_memo
def _v_helper_struct_arg(i_W: Any, i_o: Any) -> Any:
    return np.logical_or(_v_pair_sum(i_W, i_o + 12) > np.int32(40000), _v_pair_sum(i_W, i_o + 48) < np.int32(-1000))


@_memo
def _v_helper_narrow_return(i_W: Any, i_o: Any) -> Any:
    return _v_low_byte(_colv(i_W, i_o + 24, '<u4')) < np.int32(-100)
