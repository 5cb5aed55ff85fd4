# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _ternary(i_b: bytes, i_o: int) -> bool:
    return (((i_b[i_o + 3] ^ 0x80) - 0x80) if (i_b[i_o + 2] > 128) else (-((i_b[i_o + 3] ^ 0x80) - 0x80))) > 10  # a, b


def _ternary_nested(i_b: bytes, i_o: int) -> bool:
    return (1 if (i_b[i_o + 2] < 10) else (2 if (i_b[i_o + 2] < 100) else 3)) == (i_b[i_o + 1] & 3)  # a, kind


def _ternary_common_type(i_b: bytes, i_o: int) -> bool:
    return (((_I32(i_b, i_o + 28)[0]) & 0xffffffff) if (((i_b[i_o + 3] ^ 0x80) - 0x80) < 0) else _U32(i_b, i_o + 24)[0]) > 5  # b, i32, u32
