# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_for_loop_bounded(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    total = np.zeros(_N, dtype=np.int32)
    count = np.zeros(_N, dtype=np.uint32)
    k = np.zeros(_N, dtype=np.int32)
    total = _fill(np.int32(0), _N, total.dtype)
    count = _fill(np.uint32(0), _N, count.dtype)
    k = _fill(np.int32(0), _N, k.dtype)
    _lm1 = np.logical_not(_done) & np.broadcast_to(np.asarray(k < np.int32(4)), _done.shape)
    _brk3 = np.zeros_like(_done)
    while _lm1.any():
        _skip2 = np.zeros_like(_done)
        _c4 = np.broadcast_to(np.asarray(_gather(i_W, i_o + 8 + np.asarray(k).astype(np.int64).astype(np.int64) * 4, 2).astype(np.int16) < np.int32(0)), _done.shape)
        _m5 = (_lm1 & ~_skip2) & _c4
        _skip2 = _skip2 | (_m5 & ~_skip2)
        total = _select((_lm1 & ~_skip2), total + np.asarray(_gather(i_W, i_o + 8 + np.asarray(k).astype(np.int64).astype(np.int64) * 4, 2).astype(np.int16)).astype(np.int32), total).astype(total.dtype)
        count = _select((_lm1 & ~_skip2), count + np.uint32(1), count).astype(count.dtype)
        _m7 = _lm1 & ~_brk3
        k = _select(_m7, k + np.int32(1), k).astype(k.dtype)
        _lm1 = _lm1 & ~_brk3 & ~_done & np.broadcast_to(np.asarray(k < np.int32(4)), _done.shape)
    _live = np.logical_not(_done)
    _ret = _ret | (_live & np.logical_and(count >= np.uint32(2), total > np.int32(20000)))
    return _ret


@_memo
def _v_loop_return(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    _c8 = np.broadcast_to(np.asarray(_byte(i_W, i_o + 53) < np.int32(16)), _done.shape)
    _m9 = _c8
    _live = _m9
    _done = _done | _live
    _c11 = np.broadcast_to(np.asarray(_byte(i_W, i_o + 54) < np.int32(16)), _done.shape)
    _m12 = _c11
    _live = (_m12 & ~_done)
    _done = _done | _live
    _c14 = np.broadcast_to(np.asarray(_byte(i_W, i_o + 55) < np.int32(16)), _done.shape)
    _m15 = _c14
    _live = (_m15 & ~_done)
    _done = _done | _live
    _live = np.logical_not(_done)
    _ret = _ret | _live
    return _ret


@_memo
def _v_loop_bound_from_word(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    acc = np.zeros(_N, dtype=np.uint32)
    n = np.zeros(_N, dtype=np.uint8)
    acc = _fill(np.uint32(1), _N, acc.dtype)
    n = _fill(np.uint8(0), _N, n.dtype)
    _lm17 = np.logical_not(_done) & np.broadcast_to(np.asarray(n < (np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) & np.int32(7))), _done.shape)
    _brk19 = np.zeros_like(_done)
    while _lm17.any():
        _skip18 = np.zeros_like(_done)
        acc = _select((_lm17 & ~_skip18), acc * np.uint32(3), acc).astype(acc.dtype)
        _m20 = _lm17 & ~_brk19
        n = _select(_m20, np.asarray(np.asarray(n).astype(np.int32) + np.int32(1)).astype(np.uint8), n).astype(n.dtype)
        _lm17 = _lm17 & ~_brk19 & ~_done & np.broadcast_to(np.asarray(n < (np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) & np.int32(7))), _done.shape)
    _live = np.logical_not(_done)
    _ret = _ret | (_live & (acc > np.uint32(100)))
    return _ret
