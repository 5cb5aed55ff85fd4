# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_NEG = -3


@_memo
def _v_div_mod_truncation(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    x = np.zeros(_N, dtype=np.int32)
    y = np.zeros(_N, dtype=np.int32)
    x = _fill(np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) - np.int32(100), _N, x.dtype)
    y = _fill(_select(_byte(i_W, i_o + 3).view(np.int8) == np.int32(0), np.int32(7), np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.int32)), _N, y.dtype)
    _live = np.logical_not(_done)
    _ret = _ret | (_live & _all_of(
        ((_vdiv(x, y) * y) + _vmod(x, y)) == x,
        _vdiv(x, y) != np.int32(-3),
        (_colv(i_W, i_o + 24, '<u4') % np.uint32(10)) < np.uint32(5),  # w.u32
    ))
    return _ret


@_memo
def _v_negative_quotient(i_W: Any, i_o: Any) -> Any:
    return np.logical_or(_vdiv(np.asarray(_colv(i_W, i_o + 38, '<i2')).astype(np.int32), np.int32(7)) == np.int32(-3), _vmod(np.asarray(_colv(i_W, i_o + 38, '<i2')).astype(np.int32), np.int32(7)) == np.int32(-2))


@_memo
def _v_guarded_division(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_byte(i_W, i_o + 2) != np.int32(0), _vdiv(_colv(i_W, i_o + 24, '<u4'), np.asarray(_byte(i_W, i_o + 2)).astype(np.uint32)) > np.uint32(1000000))


@_memo
def _v_unsigned_division(i_W: Any, i_o: Any) -> Any:
    return (np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.uint32) >> np.uint32(1)) > np.uint32(100)
