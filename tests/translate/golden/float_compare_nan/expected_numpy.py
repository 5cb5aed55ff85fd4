# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


@_memo
def _v_float_compare(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(np.logical_or(_colv(i_W, i_o + 32, '<f4') == np.float32(0.0), _colv(i_W, i_o + 32, '<f4') > np.float32(1.5)), np.logical_not(_colv(i_W, i_o + 32, '<f4') != _colv(i_W, i_o + 32, '<f4')))


@_memo
def _v_float_vs_double(i_W: Any, i_o: Any) -> Any:
    return _any_of(
        np.asarray(_colv(i_W, i_o + 32, '<f4')).astype(np.float64) < _colv(i_W, i_o + 40, '<f8'),  # w.f, w.d
        _colv(i_W, i_o + 40, '<f8') != _colv(i_W, i_o + 40, '<f8'),  # w.d
        _colv(i_W, i_o + 40, '<f8') < np.float64(-0.5),  # w.d
    )


@_memo
def _v_float_rounds(i_W: Any, i_o: Any) -> Any:
    return np.logical_and((_colv(i_W, i_o + 32, '<f4') + np.float32(1.0)) == _colv(i_W, i_o + 32, '<f4'), _colv(i_W, i_o + 32, '<f4') == _colv(i_W, i_o + 32, '<f4'))


@_memo
def _v_float_vs_int(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_colv(i_W, i_o + 32, '<f4') >= np.asarray(_colv(i_W, i_o + 28, '<i4')).astype(np.float32), _colv(i_W, i_o + 28, '<i4') > np.int32(16777216))
