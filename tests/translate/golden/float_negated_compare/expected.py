# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _float_negated_compare(i_b: bytes, i_o: int) -> bool:
    return not (_F32(i_b, i_o + 32)[0] >= 0.0) and not (_F32(i_b, i_o + 32)[0] < 0.0)  # f
