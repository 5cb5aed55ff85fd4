# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_KIND_Y = 2
NEURON_ISA_TPB_LIMIT = 100


def _and_chain(i_b: bytes, i_o: int) -> bool:
    return (
        i_b[i_o + 2] > 3  # a
        and ((i_b[i_o + 3] ^ 0x80) - 0x80) != -1  # b
        and _U32(i_b, i_o + 24)[0] < NEURON_ISA_TPB_LIMIT  # u32
        and _I16(i_b, i_o + 38)[0] >= -7  # i16
        and _U16(i_b, i_o + 36)[0] <= 0x2328  # u16
    )


def _and_pair(i_b: bytes, i_o: int) -> bool:
    return i_b[i_o + 2] <= 200 and i_b[i_o + 1] == NEURON_ISA_TPB_KIND_Y  # a, kind
