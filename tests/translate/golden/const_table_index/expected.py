# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_TABLE = (1, 2, 4, 8, 16, 32, 64, 128)


def _const_table_index(i_b: bytes, i_o: int) -> bool:
    k = ((i_b[i_o + 2] & 7)) & 0xff  # a
    return NEURON_ISA_TPB_TABLE[k] > 8 and True


def _table_sum(i_b: bytes, i_o: int) -> bool:
    return (NEURON_ISA_TPB_TABLE[(i_b[i_o + 4] >> 0) & 0x7] + NEURON_ISA_TPB_TABLE[7 - ((i_b[i_o + 4] >> 0) & 0x7)]) > 100  # bits.lo


def _table_guarded(i_b: bytes, i_o: int) -> bool:
    return i_b[i_o + 2] < 8 and NEURON_ISA_TPB_TABLE[i_b[i_o + 2]] >= 16  # a
