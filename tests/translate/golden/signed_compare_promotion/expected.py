# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _int_promotes(i_b: bytes, i_o: int) -> bool:
    return ((i_b[i_o + 3] ^ 0x80) - 0x80) < i_b[i_o + 2] and _I16(i_b, i_o + 38)[0] < _U16(i_b, i_o + 36)[0]  # b, a, i16, u16


def _unsigned_wins(i_b: bytes, i_o: int) -> bool:
    return ((_I32(i_b, i_o + 28)[0]) & 0xffffffff) < _U32(i_b, i_o + 24)[0]  # i32, u32


def _negative_vs_unsigned_one(i_b: bytes, i_o: int) -> bool:
    return ((((i_b[i_o + 3] ^ 0x80) - 0x80)) & 0xffffffff) < 1  # b


def _int64_vs_uint32(i_b: bytes, i_o: int) -> bool:
    return _I32(i_b, i_o + 28)[0] < _U32(i_b, i_o + 24)[0]  # i32, u32


def _int64_vs_uint64(i_b: bytes, i_o: int) -> bool:
    return ((_I64(i_b, i_o + 16)[0]) & 0xffffffffffffffff) < _U64(i_b, i_o + 8)[0]  # i64, u64
