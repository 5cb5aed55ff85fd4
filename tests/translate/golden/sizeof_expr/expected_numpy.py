# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_sizeof_expr(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_byte(i_W, i_o + 2) < (np.uint64(4) * np.uint64(8)), (np.uint64(64) >> np.uint64(2)) == np.uint64(16))


@_memo
def _v_sizeof_is_unsigned(i_W: Any, i_o: Any) -> Any:
    return (np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.uint64) - np.uint64(4)) < np.uint64(100)


@_memo
def _v_sizeof_loop(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    _c1 = np.broadcast_to(np.asarray(_byte(i_W, i_o + 56) < np.int32(8)), _done.shape)
    _m2 = _c1
    _live = _m2
    _done = _done | _live
    _c4 = np.broadcast_to(np.asarray(_byte(i_W, i_o + 57) < np.int32(8)), _done.shape)
    _m5 = _c4
    _live = (_m5 & ~_done)
    _done = _done | _live
    _c7 = np.broadcast_to(np.asarray(_byte(i_W, i_o + 58) < np.int32(8)), _done.shape)
    _m8 = _c7
    _live = (_m8 & ~_done)
    _done = _done | _live
    _c10 = np.broadcast_to(np.asarray(_byte(i_W, i_o + 59) < np.int32(8)), _done.shape)
    _m11 = _c10
    _live = (_m11 & ~_done)
    _done = _done | _live
    _live = np.logical_not(_done)
    _ret = _ret | _live
    return _ret
