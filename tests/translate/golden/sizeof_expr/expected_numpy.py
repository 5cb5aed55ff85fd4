# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_sizeof_expr(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_byte(i_W, i_o + 2) < (np.uint64(4) * np.uint64(8)), _vdiv(np.uint64(64), np.uint64(4)) == np.uint64(16))


@_memo
def _v_sizeof_is_unsigned(i_W: Any, i_o: Any) -> Any:
    return (np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.uint64) - np.uint64(4)) < np.uint64(100)


@_memo
def _v_sizeof_loop(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    k = np.zeros(_N, dtype=np.uint32)
    k = np.broadcast_to(np.asarray(np.uint32(0)), _done.shape).astype(k.dtype)
    _lm1 = np.logical_not(_done) & np.broadcast_to(np.asarray(k < np.uint64(4)), _done.shape)
    _brk3 = np.zeros_like(_done)
    while _lm1.any():
        _skip2 = np.zeros_like(_done)
        _c4 = np.broadcast_to(np.asarray(_gather(i_W, i_o + 56 + np.asarray(k).astype(np.int64).astype(np.int64), 1) < np.int32(8)), _done.shape)
        _m5 = (_lm1 & ~_skip2) & _c4
        _live = ((_m5 & ~_skip2) & ~_done)
        _ret = np.where(_live, False, _ret)
        _done = _done | _live
        _m7 = _lm1 & ~_brk3
        k = np.where(_m7, k + np.uint32(1), k).astype(k.dtype)
        _lm1 = _lm1 & ~_brk3 & ~_done & np.broadcast_to(np.asarray(k < np.uint64(4)), _done.shape)
    _live = np.logical_not(_done)
    _ret = np.where(_live, True, _ret)
    _done = _done | _live
    return _ret
