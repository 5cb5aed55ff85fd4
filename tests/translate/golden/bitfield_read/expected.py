# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _bitfield_read(i_b: bytes, i_o: int) -> bool:
    return ((i_b[i_o + 4] >> 0) & 0x7) == 5 or (((i_b[i_o + 4] >> 3) & 0xf) > 9 and ((i_b[i_o + 4] >> 7) & 0x1) != 0)  # bits.lo, bits.mid, bits.hi


def _signed_bitfield(i_b: bytes, i_o: int) -> bool:
    return (
        ((((i_b[i_o + 6] >> 0) & 0x1f) ^ 0x10) - 0x10) < -3  # sbits.s5
        or ((((i_b[i_o + 7] >> 4) & 0xf) ^ 0x8) - 0x8) == -1  # sbits.s4
        or ((int.from_bytes(i_b[i_o + 6:i_o + 6 + 2], 'little') >> 5) & 0x7f) > 100  # sbits.u7
    )


def _bitfield_arith(i_b: bytes, i_o: int) -> bool:
    return (((i_b[i_o + 4] >> 0) & 0x7) - ((i_b[i_o + 4] >> 3) & 0xf)) < 0 and (((((i_b[i_o + 6] >> 0) & 0x1f) ^ 0x10) - 0x10) * 2) > (((int.from_bytes(i_b[i_o + 6:i_o + 6 + 2], 'little') >> 5) & 0x7f) - 128)  # bits.lo, bits.mid, sbits.s5, sbits.u7
