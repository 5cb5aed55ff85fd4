# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_TABLE = (1, 2, 4, 8, 16, 32, 64, 128)


@_memo
def _v_const_table_index(i_W: Any, i_o: Any) -> Any:
    _N = i_W.shape[0]
    _done = np.zeros(_N, dtype=np.bool_)
    _ret = np.zeros(_N, dtype=np.bool_)
    k = np.zeros(_N, dtype=np.uint8)
    k = _fill(np.asarray(np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) & np.int32(7)).astype(np.uint8), _N, k.dtype)
    _live = np.logical_not(_done)
    _ret = _ret | (_live & np.logical_and(np.asarray(NEURON_ISA_TPB_TABLE, dtype=np.uint8)[np.clip(np.asarray(k).astype(np.int64), 0, 7)] > np.int32(8), np.int32(8) == np.int32(8)))
    return _ret


@_memo
def _v_table_sum(i_W: Any, i_o: Any) -> Any:
    return (np.asarray(np.asarray(NEURON_ISA_TPB_TABLE, dtype=np.uint8)[np.clip(np.asarray(((_byte(i_W, i_o + 4) >> 0) & 0x7).astype(np.uint8)).astype(np.int64), 0, 7)]).astype(np.int32) + np.asarray(np.asarray(NEURON_ISA_TPB_TABLE, dtype=np.uint8)[np.clip(np.asarray(np.int32(7) - np.asarray(((_byte(i_W, i_o + 4) >> 0) & 0x7).astype(np.uint8)).astype(np.int32)).astype(np.int64), 0, 7)]).astype(np.int32)) > np.int32(100)


@_memo
def _v_table_guarded(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_byte(i_W, i_o + 2) < np.int32(8), np.asarray(NEURON_ISA_TPB_TABLE, dtype=np.uint8)[np.clip(np.asarray(_byte(i_W, i_o + 2)).astype(np.int64), 0, 7)] >= np.int32(16))
