# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _char_constant(i_b: bytes, i_o: int) -> bool:
    return i_b[i_o + 2] in {65, 10, 0} or i_b[i_o + 2] == (65 + 1)  # a


def _char_escapes(i_b: bytes, i_o: int) -> bool:
    return ((i_b[i_o + 3] ^ 0x80) - 0x80) == 127 or i_b[i_o + 2] in (92, 39)  # b, a
