# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _switch_default(i_b: bytes, i_o: int) -> bool:
    _sw1 = (i_b[i_o + 2] & 3)  # a
    if _sw1 == 0:
        return ((i_b[i_o + 3] ^ 0x80) - 0x80) > 0  # b
    elif _sw1 == 3:
        return ((i_b[i_o + 3] ^ 0x80) - 0x80) == 0  # b
    else:
        return ((i_b[i_o + 3] ^ 0x80) - 0x80) < -50  # b


def _switch_no_default(i_b: bytes, i_o: int) -> bool:
    _sw3 = i_b[i_o + 1]  # kind
    if _sw3 == 1:
        return i_b[i_o + 2] > 5  # a
    elif _sw3 == 7:
        return False
    return i_b[i_o + 2] < 2  # a
