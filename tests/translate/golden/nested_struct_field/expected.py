# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _nested_struct_field(i_b: bytes, i_o: int) -> bool:
    return _I16(i_b, i_o + 48)[0] < -100 and _U16(i_b, i_o + 50)[0] > i_b[i_o + 52]  # inner.p.s, inner.p.u, inner.tag


def _nested_array(i_b: bytes, i_o: int) -> bool:
    return i_b[i_o + 55] == i_b[i_o + 52] or i_b[i_o + 53] > 250  # inner.v[2], inner.tag, inner.v[0]
