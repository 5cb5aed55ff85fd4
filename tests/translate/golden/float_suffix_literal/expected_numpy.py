# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_TENTH = 0.10000000149011612


@_memo
def _v_float_suffix_literal(i_W: Any, i_o: Any) -> Any:
    return (np.asarray(_colv(i_W, i_o + 32, '<f4')).astype(np.float64) > np.float64(0.1)) != (_colv(i_W, i_o + 32, '<f4') > np.float32(0.10000000149011612))


@_memo
def _v_float_static_const(i_W: Any, i_o: Any) -> Any:
    return _colv(i_W, i_o + 40, '<f8') == np.float64(0.10000000149011612)
