# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_bitfield_read(i_W: Any, i_o: Any) -> Any:
    return np.logical_or(((_byte(i_W, i_o + 4) >> 0) & 0x7).astype(np.uint8) == np.int32(5), np.logical_and(((_byte(i_W, i_o + 4) >> 3) & 0xf).astype(np.uint8) > np.int32(9), ((_byte(i_W, i_o + 4) >> 7) & 0x1).astype(np.uint8) != 0))


@_memo
def _v_signed_bitfield(i_W: Any, i_o: Any) -> Any:
    return _any_of(
        ((((_byte(i_W, i_o + 6) >> 0) & 0x1f).astype(np.int16) ^ 16) - 16).astype(np.int16) < np.int32(-3),  # w.sbits.s5
        ((((_byte(i_W, i_o + 7) >> 4) & 0xf).astype(np.int16) ^ 8) - 8).astype(np.int16) == np.int32(-1),  # w.sbits.s4
        ((_col(i_W, i_o + 6, 2) >> 5) & 0x7f).astype(np.uint16) > np.int32(100),  # w.sbits.u7
    )


@_memo
def _v_bitfield_arith(i_W: Any, i_o: Any) -> Any:
    return np.logical_and((np.asarray(((_byte(i_W, i_o + 4) >> 0) & 0x7).astype(np.uint8)).astype(np.int32) - np.asarray(((_byte(i_W, i_o + 4) >> 3) & 0xf).astype(np.uint8)).astype(np.int32)) < np.int32(0), (np.asarray(((((_byte(i_W, i_o + 6) >> 0) & 0x1f).astype(np.int16) ^ 16) - 16).astype(np.int16)).astype(np.int32) * np.int32(2)) > (np.asarray(((_col(i_W, i_o + 6, 2) >> 5) & 0x7f).astype(np.uint16)).astype(np.int32) - np.int32(128)))
