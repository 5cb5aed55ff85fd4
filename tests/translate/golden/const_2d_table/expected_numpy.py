# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_GRID = (-1, 2, -3, 4, -5, 0)


@_memo
def _v_const_2d_table(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(np.asarray(NEURON_ISA_TPB_GRID, dtype=np.int16)[np.clip((np.asarray(np.asarray(_byte(i_W, i_o + 2)).astype(np.int32) & np.int32(1)).astype(np.int64) * np.int64(3)) + np.asarray(_vmod(np.asarray(np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.uint8)).astype(np.int32), np.int32(3))).astype(np.int64), 0, 5)] < np.int32(0), np.int32(0) == np.int32(0))


@_memo
def _v_grid_product(i_W: Any, i_o: Any) -> Any:
    return (np.asarray(np.asarray(NEURON_ISA_TPB_GRID, dtype=np.int16)[np.clip((np.asarray(((_byte(i_W, i_o + 4) >> 7) & 0x1).astype(np.uint8)).astype(np.int64) * np.int64(3)) + np.asarray(_vmod(np.asarray(((_byte(i_W, i_o + 4) >> 0) & 0x7).astype(np.uint8)).astype(np.int32), np.int32(3))).astype(np.int64), 0, 5)]).astype(np.int32) * np.asarray(_byte(i_W, i_o + 3).view(np.int8)).astype(np.int32)) > np.int32(100)
