# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _hex_octal_literals(i_b: bytes, i_o: int) -> bool:
    return (
        i_b[i_o + 2] in (127, 15)  # a
        or (_U32(i_b, i_o + 24)[0] & 0xffff0000) == 0xabcd0000  # u32
        or _U16(i_b, i_o + 36)[0] == 0xffff  # u16
    )


def _hex_literal_is_unsigned(i_b: bytes, i_o: int) -> bool:
    return ((((_I32(i_b, i_o + 28)[0]) & 0xffffffff) - 0x80000000) & 0xffffffff) < 5  # i32


def _decimal_literal_is_long(i_b: bytes, i_o: int) -> bool:
    return (_I32(i_b, i_o + 28)[0] - 0x80000000) < -0xee6b2800  # i32


def _wide_literals(i_b: bytes, i_o: int) -> bool:
    return (
        (_U64(i_b, i_o + 8)[0] & 0x8000000000000000) != 0  # u64
        and _U64(i_b, i_o + 8)[0] != 0xffffffffffffffff  # u64
        and _I64(i_b, i_o + 16)[0] < (1 << 40)  # i64
    )
