# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_TENTH = 0.10000000149011612


def _float_suffix_literal(i_b: bytes, i_o: int) -> bool:
    return (_F32(i_b, i_o + 32)[0] > 0.1) != (_F32(i_b, i_o + 32)[0] > 0.10000000149011612)  # f


def _float_static_const(i_b: bytes, i_o: int) -> bool:
    return _F64(i_b, i_o + 40)[0] == NEURON_ISA_TPB_TENTH  # d
