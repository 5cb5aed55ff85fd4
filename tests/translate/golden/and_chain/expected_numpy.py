# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_KIND_Y = 2
NEURON_ISA_TPB_LIMIT = 100


@_memo
def _v_and_chain(i_W: Any, i_o: Any) -> Any:
    return _all_of(
        _byte(i_W, i_o + 2) > np.int32(3),  # w.a
        _byte(i_W, i_o + 3).view(np.int8) != np.int32(-1),  # w.b
        _colv(i_W, i_o + 24, '<u4') < np.uint32(100),  # w.u32
        _colv(i_W, i_o + 38, '<i2') >= np.int32(-7),  # w.i16
        _colv(i_W, i_o + 36, '<u2') <= np.int32(9000),  # w.u16
    )


@_memo
def _v_and_pair(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_byte(i_W, i_o + 2) <= np.int32(200), _byte(i_W, i_o + 1) == np.int32(2))
