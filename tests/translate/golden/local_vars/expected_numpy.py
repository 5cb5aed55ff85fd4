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
    lo = np.broadcast_to(np.asarray(np.asarray(_colv(i_W, i_o + 24, '<u4')).astype(np.uint8)), _done.shape).astype(lo.dtype)
    s = np.broadcast_to(np.asarray(np.asarray(np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) * np.int32(300)).astype(np.int16)), _done.shape).astype(s.dtype)
    x = np.broadcast_to(np.asarray(np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.uint32)), _done.shape).astype(x.dtype)
    y = np.broadcast_to(np.asarray(np.int32(0)), _done.shape).astype(y.dtype)
    y = np.broadcast_to(np.asarray(np.asarray(_colv(i_W, i_o + 38, '<i2')).astype(np.int32)), _done.shape).astype(y.dtype)
    y = np.broadcast_to(np.asarray(y * np.int32(3)), _done.shape).astype(y.dtype)
    y = np.broadcast_to(np.asarray(y - np.int32(7)), _done.shape).astype(y.dtype)
    x = np.broadcast_to(np.asarray(x >> np.uint32(4)), _done.shape).astype(x.dtype)
    lo = np.broadcast_to(np.asarray(np.asarray(np.asarray(lo).astype(np.int32) + np.int32(200)).astype(np.uint8)), _done.shape).astype(lo.dtype)
    _live = np.logical_not(_done)
    _ret = _select(_live, _all_of(
        lo > np.int32(100),
        s < np.int32(0),
        np.logical_or(x > np.uint32(268435440), y > np.int32(1000)),
    ), _ret)
    _done = _done | _live
    return _ret


@_memo
def _v_compound_ops(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    v = np.zeros(_N, dtype=np.uint16)
    v = np.broadcast_to(np.asarray(_colv(i_W, i_o + 36, '<u2')), _done.shape).astype(v.dtype)
    v = np.broadcast_to(np.asarray(np.asarray(np.asarray(v).astype(np.int32) << np.int32(3)).astype(np.uint16)), _done.shape).astype(v.dtype)
    v = np.broadcast_to(np.asarray(np.asarray(np.asarray(v).astype(np.int32) ^ np.int32(23130)).astype(np.uint16)), _done.shape).astype(v.dtype)
    v = np.broadcast_to(np.asarray(np.asarray(np.asarray(v).astype(np.int32) | np.int32(1)).astype(np.uint16)), _done.shape).astype(v.dtype)
    v = np.broadcast_to(np.asarray(np.asarray(np.asarray(v).astype(np.int32) & np.int32(65527)).astype(np.uint16)), _done.shape).astype(v.dtype)
    v = np.broadcast_to(np.asarray(np.asarray(_vmod(np.asarray(v).astype(np.int32), np.int32(1000))).astype(np.uint16)), _done.shape).astype(v.dtype)
    v = np.broadcast_to(np.asarray(np.asarray(_vdiv(np.asarray(v).astype(np.int32), np.int32(3))).astype(np.uint16)), _done.shape).astype(v.dtype)
    v = np.broadcast_to(np.asarray(np.asarray(np.asarray(v).astype(np.int32) + np.int32(1)).astype(np.uint16)), _done.shape).astype(v.dtype)
    v = np.broadcast_to(np.asarray(np.asarray(np.asarray(v).astype(np.int32) - np.int32(1)).astype(np.uint16)), _done.shape).astype(v.dtype)
    _live = np.logical_not(_done)
    _ret = _select(_live, v > np.int32(150), _ret)
    _done = _done | _live
    return _ret
