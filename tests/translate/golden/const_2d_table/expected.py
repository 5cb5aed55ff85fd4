# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_GRID = (-1, 2, -3, 4, -5, 0)


def _const_2d_table(i_b: bytes, i_o: int) -> bool:
    return NEURON_ISA_TPB_GRID[((i_b[i_o + 2] & 1) * 3) + _cmod(((((i_b[i_o + 3] ^ 0x80) - 0x80)) & 0xff), 3)] < 0 and True  # a, b


def _grid_product(i_b: bytes, i_o: int) -> bool:
    return (NEURON_ISA_TPB_GRID[(((i_b[i_o + 4] >> 7) & 0x1) * 3) + _cmod(((i_b[i_o + 4] >> 0) & 0x7), 3)] * ((i_b[i_o + 3] ^ 0x80) - 0x80)) > 100  # bits.hi, bits.lo, b
