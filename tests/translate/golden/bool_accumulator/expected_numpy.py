# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_KIND_Z = 7


@_memo
def _v_bool_accumulator(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    ok = np.zeros(_N, dtype=np.bool_)
    ok = _fill(True, _N, ok.dtype)
    ok = _fill(np.logical_and(ok, _byte(i_W, i_o + 2) != np.int32(0)), _N, ok.dtype)
    ok = _fill((np.asarray(ok).astype(np.int32) & np.asarray(_byte(i_W, i_o + 3).view(np.int8) > np.int32(-100)).astype(np.int32)) != 0, _N, ok.dtype)
    ok = _fill((np.asarray(ok).astype(np.int32) & np.asarray(_colv(i_W, i_o + 36, '<u2') < np.int32(60000)).astype(np.int32)) != 0, _N, ok.dtype)
    ok = _fill((np.asarray(ok).astype(np.int32) | np.asarray(_byte(i_W, i_o + 1) == np.int32(7)).astype(np.int32)) != 0, _N, ok.dtype)
    _live = np.logical_not(_done)
    _ret = _ret | (_live & ok)
    return _ret


@_memo
def _v_count_true(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    n = np.zeros(_N, dtype=np.int32)
    n = _fill(np.int32(0), _N, n.dtype)
    n = _fill(n + np.asarray(_byte(i_W, i_o + 2) > np.int32(3)).astype(np.int32), _N, n.dtype)
    n = _fill(n + np.asarray(_byte(i_W, i_o + 3).view(np.int8) > np.int32(3)).astype(np.int32), _N, n.dtype)
    n = _fill(n + np.asarray((_colv(i_W, i_o + 24, '<u4') & np.uint32(1)) != np.uint32(0)).astype(np.int32), _N, n.dtype)
    _live = np.logical_not(_done)
    _ret = _ret | (_live & (n == np.int32(2)))
    return _ret
