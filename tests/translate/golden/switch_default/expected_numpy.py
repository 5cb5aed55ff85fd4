# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


_K_switch_default_0 = _Members((0, 3))


@_memo
def _v_switch_default(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    _sw1 = np.broadcast_to(np.asarray(np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) & np.int32(3)), _done.shape)
    _m2 = (_sw1 == 0)
    _live = _m2
    _ret = _ret | (_live & (_byte(i_W, i_o + 3).view(np.int8) > np.int32(0)))
    _done = _done | _live
    _m3 = (_sw1 == 3)
    _live = (_m3 & ~_done)
    _ret = _ret | (_live & (_byte(i_W, i_o + 3).view(np.int8) == np.int32(0)))
    _done = _done | _live
    _m4 = ~_isin(_sw1, _K_switch_default_0)
    _live = (_m4 & ~_done)
    _ret = _ret | (_live & (_byte(i_W, i_o + 3).view(np.int8) < np.int32(-50)))
    return _ret


@_memo
def _v_switch_no_default(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    _sw5 = np.broadcast_to(np.asarray(np.asarray(_byte(i_W, i_o + 1)).astype(np.int32)), _done.shape)
    _m6 = (_sw5 == 1)
    _live = _m6
    _ret = _ret | (_live & (_byte(i_W, i_o + 2) > np.int32(5)))
    _done = _done | _live
    _m7 = (_sw5 == 7)
    _live = (_m7 & ~_done)
    _done = _done | _live
    _live = np.logical_not(_done)
    _ret = _ret | (_live & (_byte(i_W, i_o + 2) < np.int32(2)))
    return _ret
