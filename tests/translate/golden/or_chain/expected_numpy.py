# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_KIND_Z = 7


@_memo
def _v_or_chain(i_W: Any, i_o: Any) -> Any:
    return _any_of(
        _byte(i_W, i_o + 2) == np.int32(0),  # w.a
        _byte(i_W, i_o + 3).view(np.int8) < np.int32(-100),  # w.b
        (_colv(i_W, i_o + 24, '<u4') & np.uint32(15)) == np.uint32(7),  # w.u32
        _byte(i_W, i_o + 1) == np.int32(7),  # w.kind
    )


@_memo
def _v_or_and_precedence(i_W: Any, i_o: Any) -> Any:
    return _any_of(
        _byte(i_W, i_o + 2) > np.int32(250),  # w.a
        np.logical_and(_byte(i_W, i_o + 3).view(np.int8) > np.int32(120), _colv(i_W, i_o + 28, '<i4') < np.int32(0)),  # w.b, w.i32
        _colv(i_W, i_o + 36, '<u2') == np.int32(0),  # w.u16
    )
