# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_loop_break(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    n = np.zeros(_N, dtype=np.int32)
    k = np.zeros(_N, dtype=np.int32)
    n = _fill(np.int32(0), _N, n.dtype)
    k = _fill(np.int32(0), _N, k.dtype)
    _lm1 = np.logical_not(_done) & np.broadcast_to(np.asarray(k < np.int32(4)), _done.shape)
    _brk3 = np.zeros_like(_done)
    while _lm1.any():
        _skip2 = np.zeros_like(_done)
        _c4 = np.broadcast_to(np.asarray(_gather(i_W, i_o + 56 + np.asarray(k).astype(np.int64).astype(np.int64), 1) == np.int32(0)), _done.shape)
        _m5 = (_lm1 & ~_skip2) & _c4
        _jmp7 = (_m5 & ~_skip2)
        _brk3 = _brk3 | _jmp7
        _skip2 = _skip2 | _jmp7
        n = _select((_lm1 & ~_skip2), n + np.int32(1), n).astype(n.dtype)
        _m8 = _lm1 & ~_brk3
        k = _select(_m8, k + np.int32(1), k).astype(k.dtype)
        _lm1 = _lm1 & ~_brk3 & ~_done & np.broadcast_to(np.asarray(k < np.int32(4)), _done.shape)
    _live = np.logical_not(_done)
    _ret = _ret | (_live & (n >= np.int32(3)))
    return _ret
