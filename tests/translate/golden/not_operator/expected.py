# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _not_operator(i_b: bytes, i_o: int) -> bool:
    return not (i_b[i_o + 2] != 0) or ((i_b[i_o + 3] ^ 0x80) - 0x80) <= 3  # a, b


def _not_not(i_b: bytes, i_o: int) -> bool:
    return (_U32(i_b, i_o + 24)[0] != 0) == (i_b[i_o + 1] & 1)  # u32, kind


def _not_float(i_b: bytes, i_o: int) -> bool:
    return not (_F32(i_b, i_o + 32)[0] != 0.0)  # f


def _logical_values_as_ints(i_b: bytes, i_o: int) -> bool:
    return (((not (i_b[i_o + 2] != 0)) + (not (((i_b[i_o + 3] ^ 0x80) - 0x80) != 0))) + (not (_U16(i_b, i_o + 36)[0] != 0))) >= 2 or (((i_b[i_o + 2] > 3) + (((i_b[i_o + 3] ^ 0x80) - 0x80) > 3)) + (_I32(i_b, i_o + 28)[0] != 0 and _U32(i_b, i_o + 24)[0] != 0)) == 3  # a, b, u16, i32, u32
