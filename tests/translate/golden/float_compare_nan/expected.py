# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _float_compare(i_b: bytes, i_o: int) -> bool:
    return (_F32(i_b, i_o + 32)[0] == 0.0 or _F32(i_b, i_o + 32)[0] > 1.5) and _F32(i_b, i_o + 32)[0] == _F32(i_b, i_o + 32)[0]  # f


def _float_vs_double(i_b: bytes, i_o: int) -> bool:
    return (
        _F32(i_b, i_o + 32)[0] < _F64(i_b, i_o + 40)[0]  # f, d
        or _F64(i_b, i_o + 40)[0] != _F64(i_b, i_o + 40)[0]  # d
        or _F64(i_b, i_o + 40)[0] < -0.5  # d
    )


def _float_rounds(i_b: bytes, i_o: int) -> bool:
    return _f32(_F32(i_b, i_o + 32)[0] + 1.0) == _F32(i_b, i_o + 32)[0] and _F32(i_b, i_o + 32)[0] == _F32(i_b, i_o + 32)[0]  # f


def _float_vs_int(i_b: bytes, i_o: int) -> bool:
    return _F32(i_b, i_o + 32)[0] >= _f32(float(_I32(i_b, i_o + 28)[0])) and _I32(i_b, i_o + 28)[0] > 0x1000000  # f, i32
