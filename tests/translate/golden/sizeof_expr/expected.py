# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _sizeof_expr(i_b: bytes, i_o: int) -> bool:
    return i_b[i_o + 2] < ((4 * 8) & 0xffffffffffffffff) and (64 // 4) == 16  # a


def _sizeof_is_unsigned(i_b: bytes, i_o: int) -> bool:
    return ((((((i_b[i_o + 3] ^ 0x80) - 0x80)) & 0xffffffffffffffff) - 4) & 0xffffffffffffffff) < 100  # b


def _sizeof_loop(i_b: bytes, i_o: int) -> bool:
    k = 0
    while k < 4:
        if i_b[i_o + 56 + k] < 8:  # m[0][k]
            return False
        k = (k + 1) & 0xffffffff
    return True
