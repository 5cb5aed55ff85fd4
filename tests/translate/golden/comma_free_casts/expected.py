# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _casts(i_b: bytes, i_o: int) -> bool:
    return ((i_b[i_o + 2] & 4) != 0) != ((((i_b[i_o + 3] ^ 0x80) - 0x80) & 8) != 0) and (((((_U32(i_b, i_o + 24)[0] >> 8)) + 0x8000) & 0xffff) - 0x8000) < 0  # a, b, u32


def _cast_chain(i_b: bytes, i_o: int) -> bool:
    return ((((((_U32(i_b, i_o + 24)[0]) & 0xff)) + 0x80) & 0xff) - 0x80) < -100 or ((((((i_b[i_o + 2]) + 0x80) & 0xff) - 0x80)) & 0xffff) > 0xfde8  # u32, a


def _cast_to_bool(i_b: bytes, i_o: int) -> bool:
    return (((_U32(i_b, i_o + 24)[0] != 0) + (_F32(i_b, i_o + 32)[0] != 0.0)) + (_F64(i_b, i_o + 40)[0] != 0.0)) == 2  # u32, f, d


def _float_to_int(i_b: bytes, i_o: int) -> bool:
    return (
        _F32(i_b, i_o + 32)[0] > -1000.0  # f
        and _F32(i_b, i_o + 32)[0] < 1000.0  # f
        and ((((int(_F32(i_b, i_o + 32)[0])) + 0x80000000) & 0xffffffff) - 0x80000000) == -3  # f
    )


def _int_to_float(i_b: bytes, i_o: int) -> bool:
    return _f32(float(_U32(i_b, i_o + 24)[0])) == 4294967296.0 or float(_I64(i_b, i_o + 16)[0]) == -9.223372036854776e+18  # u32, i64
