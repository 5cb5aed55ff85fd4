# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _float_overflow(i_b: bytes, i_o: int) -> bool:
    return _f32(_F32(i_b, i_o + 32)[0] * 4.0) > 2.0  # f


def _double_to_float_overflow(i_b: bytes, i_o: int) -> bool:
    return _f32(float(_F64(i_b, i_o + 40)[0])) < -2.0  # d
