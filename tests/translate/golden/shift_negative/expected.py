# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _shift_negative(i_b: bytes, i_o: int) -> bool:
    return (((i_b[i_o + 3] ^ 0x80) - 0x80) >> 1) < -5 and (_I32(i_b, i_o + 28)[0] >> 31) == -1  # b, i32


def _shift_promotes(i_b: bytes, i_o: int) -> bool:
    return ((i_b[i_o + 2] << 3) >> 2) > 40  # a


def _shift_variable(i_b: bytes, i_o: int) -> bool:
    return (_U32(i_b, i_o + 24)[0] >> (i_b[i_o + 2] & 31)) == 1 or ((((((i_b[i_o + 3] ^ 0x80) - 0x80)) & 0xffffffff) << (((i_b[i_o + 4] >> 0) & 0x7) + 24)) & 0xffffffff) > 0x80000000  # u32, a, b, bits.lo


def _shift_wide(i_b: bytes, i_o: int) -> bool:
    return (_I64(i_b, i_o + 16)[0] >> (i_b[i_o + 2] & 63)) < -1000 or ((1 << (((i_b[i_o + 3] ^ 0x80) - 0x80) & 63)) & 0xffffffffffffffff) > _U64(i_b, i_o + 8)[0]  # i64, a, b, u64
