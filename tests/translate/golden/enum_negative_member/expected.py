# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_SIGN_NEG = -2


def _enum_negative_member(i_b: bytes, i_o: int) -> bool:
    return ((i_b[i_o + 5] ^ 0x80) - 0x80) == NEURON_ISA_TPB_SIGN_NEG or ((i_b[i_o + 5] ^ 0x80) - 0x80) < -100  # sign
