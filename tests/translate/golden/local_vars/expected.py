# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _local_vars(i_b: bytes, i_o: int) -> bool:
    lo = (_U32(i_b, i_o + 24)[0]) & 0xff  # u32
    s = ((((i_b[i_o + 2] * 300)) + 0x8000) & 0xffff) - 0x8000  # a
    x = (((i_b[i_o + 3] ^ 0x80) - 0x80)) & 0xffffffff  # b
    y = 0
    y = _I16(i_b, i_o + 38)[0]  # i16
    y = y * 3
    y = y - 7
    x = x >> 4
    lo = ((lo + 200)) & 0xff
    return (
        lo > 100
        and s < 0
        and (x > 0xffffff0 or y > 1000)
    )


def _compound_ops(i_b: bytes, i_o: int) -> bool:
    v = _U16(i_b, i_o + 36)[0]  # u16
    v = ((v << 3)) & 0xffff
    v = ((v ^ 0x5a5a)) & 0xffff
    v = ((v | 1)) & 0xffff
    v = ((v & 0xfff7)) & 0xffff
    v = (_cmod(v, 1000)) & 0xffff
    v = (_cdiv(v, 3)) & 0xffff
    v = ((v + 1)) & 0xffff
    v = ((v - 1)) & 0xffff
    return v > 150
