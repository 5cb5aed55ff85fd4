# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_NEG = -3


def _div_mod_truncation(i_b: bytes, i_o: int) -> bool:
    x = i_b[i_o + 2] - 100  # a
    y = 7 if (((i_b[i_o + 3] ^ 0x80) - 0x80) == 0) else ((i_b[i_o + 3] ^ 0x80) - 0x80)  # b
    return (
        ((_cdiv(x, y) * y) + _cmod(x, y)) == x
        and _cdiv(x, y) != NEURON_ISA_TPB_NEG
        and (_U32(i_b, i_o + 24)[0] % 10) < 5  # u32
    )


def _negative_quotient(i_b: bytes, i_o: int) -> bool:
    return _cdiv(_I16(i_b, i_o + 38)[0], 7) == -3 or _cmod(_I16(i_b, i_o + 38)[0], 7) == -2  # i16


def _guarded_division(i_b: bytes, i_o: int) -> bool:
    return i_b[i_o + 2] != 0 and (_U32(i_b, i_o + 24)[0] // i_b[i_o + 2]) > 0xf4240  # a, u32


def _unsigned_division(i_b: bytes, i_o: int) -> bool:
    return (((((i_b[i_o + 3] ^ 0x80) - 0x80)) & 0xffffffff) // 2) > 100  # b
