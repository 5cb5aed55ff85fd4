# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _leaf(v: int) -> bool:
    return _cmod(v, 3) == 0


def _mid_pair(p_b: bytes, p_o: int) -> bool:
    return _cmod(_U16(p_b, p_o + 2)[0], 3) == 0 and _I16(p_b, p_o)[0] != 0  # u, s


def _mid_word(i_b: bytes, i_o: int) -> bool:
    return _mid_pair(i_b, i_o + 8 + (i_b[i_o + 2] & 3) * 4) or _cmod((((_U16(i_b, i_o + 36)[0] + 1)) & 0xffff), 3) == 0  # u16


def _helper_call_depth(i_b: bytes, i_o: int) -> bool:
    return (_mid_pair(i_b, i_o + 8 + (i_b[i_o + 2] & 3) * 4) or _cmod((((_U16(i_b, i_o + 36)[0] + 1)) & 0xffff), 3) == 0) and not (_cmod(_U16(i_b, i_o + 50)[0], 3) == 0 and _I16(i_b, i_o + 48)[0] != 0)  # u16, u, s
