# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


_K_char_constant_0 = _Members((0, 10, 65))


@_memo
def _v_char_constant(i_W: Any, i_o: Any) -> Any:
    return _any_of(
        _isin(_byte(i_W, i_o + 2), _K_char_constant_0),  # w.a
        _byte(i_W, i_o + 2) == (np.int32(65) + np.int32(1)),  # w.a
    )


@_memo
def _v_char_escapes(i_W: Any, i_o: Any) -> Any:
    return _any_of(
        _byte(i_W, i_o + 3).view(np.int8) == np.int32(127),  # w.b
        _byte(i_W, i_o + 2) == np.int32(92),  # w.a
        _byte(i_W, i_o + 2) == np.int32(39),  # w.a
    )
