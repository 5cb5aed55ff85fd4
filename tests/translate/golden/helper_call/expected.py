# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _in_range(v: int, lo: int, hi: int) -> bool:
    return v >= lo and v <= hi


def _pair_sum(p_b: bytes, p_o: int) -> int:
    return _I16(p_b, p_o)[0] + _U16(p_b, p_o + 2)[0]  # s, u


def _low_byte(v: int) -> int:
    return (((v) + 0x80) & 0xff) - 0x80


def _helper_call(i_b: bytes, i_o: int) -> bool:
    return (
        i_b[i_o + 2] >= 10  # a
        and i_b[i_o + 2] <= 200  # a
        and _in_range((((i_b[i_o + 3] ^ 0x80) - 0x80)) & 0xffffffff, 0, 0xfffffff0)  # b
    )


def _helper_struct_arg(i_b: bytes, i_o: int) -> bool:
    return (_I16(i_b, i_o + 12)[0] + _U16(i_b, i_o + 14)[0]) > 0x9c40 or (_I16(i_b, i_o + 48)[0] + _U16(i_b, i_o + 50)[0]) < -1000  # s, u


def _helper_narrow_return(i_b: bytes, i_o: int) -> bool:
    return ((((_U32(i_b, i_o + 24)[0]) + 0x80) & 0xff) - 0x80) < -100  # u32
