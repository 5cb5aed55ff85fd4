# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_OPCODE_A = 16


@_memo
def _v_early_return(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    _c1 = np.broadcast_to(np.asarray(_byte(i_W, i_o) != np.int32(16)), _done.shape)
    _m2 = _c1
    _live = _m2
    _done = _done | _live
    _c4 = np.broadcast_to(np.asarray(_byte(i_W, i_o + 2) > np.int32(100)), _done.shape)
    _m5 = _c4
    _live = (_m5 & ~_done)
    _done = _done | _live
    _m6 = ~_c4
    _c7 = np.broadcast_to(np.asarray(_byte(i_W, i_o + 3).view(np.int8) < np.int32(0)), _done.shape)
    _m8 = _m6 & _c7
    _live = (_m8 & ~_done)
    _ret = _ret | (_live & (_colv(i_W, i_o + 36, '<u2') > np.int32(300)))
    _done = _done | _live
    _c10 = np.broadcast_to(np.asarray(_colv(i_W, i_o + 28, '<i4') == np.int32(0)), _done.shape)
    _m11 = _c10
    _live = (_m11 & ~_done)
    _ret = _ret | _live
    _done = _done | _live
    _live = np.logical_not(_done)
    _ret = _ret | (_live & ((_colv(i_W, i_o + 24, '<u4') % np.uint32(3)) == np.uint32(1)))
    return _ret
