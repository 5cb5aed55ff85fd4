# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_KIND_Z = 7


def _bool_accumulator(i_b: bytes, i_o: int) -> bool:
    ok = True
    ok = ok and i_b[i_o + 2] != 0  # a
    ok = (ok & (((i_b[i_o + 3] ^ 0x80) - 0x80) > -100)) != 0  # b
    ok = (ok & (_U16(i_b, i_o + 36)[0] < 0xea60)) != 0  # u16
    ok = (ok | (i_b[i_o + 1] == NEURON_ISA_TPB_KIND_Z)) != 0  # kind
    return ok


def _count_true(i_b: bytes, i_o: int) -> bool:
    n = 0
    n = n + (i_b[i_o + 2] > 3)  # a
    n = n + (((i_b[i_o + 3] ^ 0x80) - 0x80) > 3)  # b
    n = n + ((_U32(i_b, i_o + 24)[0] & 1) != 0)  # u32
    return n == 2
