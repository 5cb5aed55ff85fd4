# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_LIMIT = 100


def _weight(k: int) -> int:
    _sw1 = k
    if _sw1 in (1, 2):
        return 10
    elif _sw1 == 7:
        return 70
    else:
        return 0


def _switch_fallthrough(i_b: bytes, i_o: int) -> bool:
    return (((10 if (i_b[i_o + 1] in (1, 2)) else (70 if (i_b[i_o + 1] == 7) else 0)) + i_b[i_o + 2]) & 0xffffffff) > NEURON_ISA_TPB_LIMIT  # kind, a
