# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_KIND_X = 1
NEURON_ISA_TPB_KIND_Z = 7
NEURON_ISA_TPB_OPCODE_INVALID = 255


def _kind_valid(k: int) -> bool:
    return k in {1, 2, 7}


def _enum_compare(i_b: bytes, i_o: int) -> bool:
    return i_b[i_o + 1] == NEURON_ISA_TPB_KIND_Z or (i_b[i_o + 1] > NEURON_ISA_TPB_KIND_X and i_b[i_o + 1] < 5)  # kind


def _enum_valid(i_b: bytes, i_o: int) -> bool:
    return (i_b[i_o + 1] in {1, 2, 7}) and i_b[i_o] != NEURON_ISA_TPB_OPCODE_INVALID  # kind, opcode


def _enum_arith(i_b: bytes, i_o: int) -> bool:
    return (i_b[i_o + 1] - NEURON_ISA_TPB_KIND_Z) < 0  # kind
