# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _loop_break(i_b: bytes, i_o: int) -> bool:
    n = 0
    k = 0
    while k < 4:
        if i_b[i_o + 56 + k] == 0:  # m[0][k]
            break
        n = n + 1
        k = k + 1
    return n >= 3
