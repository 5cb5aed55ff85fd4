# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_KIND_Z = 7


def _or_chain(i_b: bytes, i_o: int) -> bool:
    return (
        i_b[i_o + 2] == 0  # a
        or ((i_b[i_o + 3] ^ 0x80) - 0x80) < -100  # b
        or (_U32(i_b, i_o + 24)[0] & 15) == 7  # u32
        or i_b[i_o + 1] == NEURON_ISA_TPB_KIND_Z  # kind
    )


def _or_and_precedence(i_b: bytes, i_o: int) -> bool:
    return (
        i_b[i_o + 2] > 250  # a
        or (((i_b[i_o + 3] ^ 0x80) - 0x80) > 120 and _I32(i_b, i_o + 28)[0] < 0)  # b, i32
        or _U16(i_b, i_o + 36)[0] == 0  # u16
    )
