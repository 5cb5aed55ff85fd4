# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_local_vars(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    lo = np.zeros(_N, dtype=np.uint8)
    s = np.zeros(_N, dtype=np.int16)
    x = np.zeros(_N, dtype=np.uint32)
    y = np.zeros(_N, dtype=np.int32)
    lo = _fill(np.asarray(_colv(i_W, i_o + 24, '<u4')).astype(np.uint8), _N, lo.dtype)
    s = _fill(np.asarray(np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) * np.int32(300)).astype(np.int16), _N, s.dtype)
    x = _fill(np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.uint32), _N, x.dtype)
    y = _fill(np.int32(0), _N, y.dtype)
    y = _fill(np.asarray(_colv(i_W, i_o + 38, '<i2')).astype(np.int32), _N, y.dtype)
    y = _fill(y * np.int32(3), _N, y.dtype)
    y = _fill(y - np.int32(7), _N, y.dtype)
    x = _fill(x >> np.uint32(4), _N, x.dtype)
    lo = _fill(np.asarray(np.asarray(lo).astype(np.int32) + np.int32(200)).astype(np.uint8), _N, lo.dtype)
    _live = np.logical_not(_done)
    _ret = _ret | (_live & _all_of(
        lo > np.int32(100),
        s < np.int32(0),
        np.logical_or(x > np.uint32(268435440), y > np.int32(1000)),
    ))
    return _ret


@_memo
def _v_compound_ops(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    v = np.zeros(_N, dtype=np.uint16)
    v = _fill(_colv(i_W, i_o + 36, '<u2'), _N, v.dtype)
    v = _fill(np.asarray(np.asarray(v).astype(np.int32) << np.int32(3)).astype(np.uint16), _N, v.dtype)
    v = _fill(np.asarray(np.asarray(v).astype(np.int32) ^ np.int32(23130)).astype(np.uint16), _N, v.dtype)
    v = _fill(np.asarray(np.asarray(v).astype(np.int32) | np.int32(1)).astype(np.uint16), _N, v.dtype)
    v = _fill(np.asarray(np.asarray(v).astype(np.int32) & np.int32(65527)).astype(np.uint16), _N, v.dtype)
    v = _fill(np.asarray(_vmod(np.asarray(v).astype(np.int32), np.int32(1000))).astype(np.uint16), _N, v.dtype)
    v = _fill(np.asarray(_vdiv(np.asarray(v).astype(np.int32), np.int32(3))).astype(np.uint16), _N, v.dtype)
    v = _fill(np.asarray(np.asarray(v).astype(np.int32) + np.int32(1)).astype(np.uint16), _N, v.dtype)
    v = _fill(np.asarray(np.asarray(v).astype(np.int32) - np.int32(1)).astype(np.uint16), _N, v.dtype)
    _live = np.logical_not(_done)
    _ret = _ret | (_live & (v > np.int32(150)))
    return _ret
