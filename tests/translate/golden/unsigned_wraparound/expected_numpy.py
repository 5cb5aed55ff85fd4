# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_unsigned_wraparound(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(np.asarray(np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) + np.int32(200)).astype(np.uint8) > np.int32(100), ((_colv(i_W, i_o + 24, '<u4') * np.uint32(3)) + np.uint32(7)) < np.uint32(2147483648))


@_memo
def _v_u16_promotes(i_W: Any, i_o: Any) -> Any:
    return (np.asarray(_colv(i_W, i_o + 36, '<u2')).astype(np.int32) - np.int32(1)) < np.int32(0)


@_memo
def _v_u32_wraps(i_W: Any, i_o: Any) -> Any:
    return np.logical_or((_colv(i_W, i_o + 24, '<u4') - np.uint32(1)) > np.uint32(4294967280), (-_colv(i_W, i_o + 24, '<u4')) == np.uint32(1))


@_memo
def _v_u64_wraps(i_W: Any, i_o: Any) -> Any:
    return np.logical_or(((_colv(i_W, i_o + 8, '<u8') * np.uint64(3)) + np.uint64(5)) < np.uint64(10), (np.asarray(_colv(i_W, i_o + 24, '<u4')).astype(np.uint64) << np.uint64(32)) > np.uint64(9223372036854775808))
