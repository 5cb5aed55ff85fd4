# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_hex_octal_literals(i_W: Any, i_o: Any) -> Any:
    return _any_of(
        _byte(i_W, i_o + 2) == np.int32(127),  # w.a
        _byte(i_W, i_o + 2) == np.int32(15),  # w.a
        (_colv(i_W, i_o + 24, '<u4') & np.uint32(4294901760)) == np.uint32(2882338816),  # w.u32
        _colv(i_W, i_o + 36, '<u2') == np.int32(65535),  # w.u16
    )


@_memo
def _v_hex_literal_is_unsigned(i_W: Any, i_o: Any) -> Any:
    return (np.asarray(_colv(i_W, i_o + 28, '<i4')).astype(np.uint32) - np.uint32(2147483648)) < np.uint32(5)


@_memo
def _v_decimal_literal_is_long(i_W: Any, i_o: Any) -> Any:
    return (np.asarray(_colv(i_W, i_o + 28, '<i4')).astype(np.int64) - np.int64(2147483648)) < np.int64(-4000000000)


@_memo
def _v_wide_literals(i_W: Any, i_o: Any) -> Any:
    return _all_of(
        (_colv(i_W, i_o + 8, '<u8') & np.uint64(9223372036854775808)) != np.uint64(0),  # x.u64
        _colv(i_W, i_o + 8, '<u8') != np.uint64(18446744073709551615),  # x.u64
        _colv(i_W, i_o + 16, '<i8') < (np.int64(1) << np.int64(40)),  # x.i64
    )
