# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _array_field_index(i_b: bytes, i_o: int) -> bool:
    return _U16(i_b, i_o + 10 + (i_b[i_o + 2] & 3) * 4)[0] > 0xea60 or i_b[i_o + 56 + (((i_b[i_o + 3] ^ 0x80) - 0x80) & 1) * 4 + (((i_b[i_o + 4] >> 0) & 0x7) & 3)] == 0  # pairs[?].u, a, m[?][?], b, bits.lo


def _array_const_index(i_b: bytes, i_o: int) -> bool:
    return _I16(i_b, i_o + 20)[0] < _I16(i_b, i_o + 8)[0] and i_b[i_o + 63] < 128  # pairs[3].s, pairs[0].s, rest[39]


def _array_guarded(i_b: bytes, i_o: int) -> bool:
    return i_b[i_o + 2] < 4 and _I16(i_b, i_o + 8 + i_b[i_o + 2] * 4)[0] < 0  # a, pairs[?].s
