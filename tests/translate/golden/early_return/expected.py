# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_OPCODE_A = 16


def _early_return(i_b: bytes, i_o: int) -> bool:
    if i_b[i_o] != NEURON_ISA_TPB_OPCODE_A:  # opcode
        return False
    if i_b[i_o + 2] > 100:  # a
        return False
    else:
        if ((i_b[i_o + 3] ^ 0x80) - 0x80) < 0:  # b
            return _U16(i_b, i_o + 36)[0] > 300  # u16
    if _I32(i_b, i_o + 28)[0] == 0:  # i32
        return True
    return (_U32(i_b, i_o + 24)[0] % 3) == 1  # u32
