# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _unsigned_wraparound(i_b: bytes, i_o: int) -> bool:
    return (((i_b[i_o + 2] + 200)) & 0xff) > 100 and ((((_U32(i_b, i_o + 24)[0] * 3) & 0xffffffff) + 7) & 0xffffffff) < 0x80000000  # a, u32


def _u16_promotes(i_b: bytes, i_o: int) -> bool:
    return (_U16(i_b, i_o + 36)[0] - 1) < 0  # u16


def _u32_wraps(i_b: bytes, i_o: int) -> bool:
    return ((_U32(i_b, i_o + 24)[0] - 1) & 0xffffffff) > 0xfffffff0 or ((-_U32(i_b, i_o + 24)[0]) & 0xffffffff) == 1  # u32


def _u64_wraps(i_b: bytes, i_o: int) -> bool:
    return ((((_U64(i_b, i_o + 8)[0] * 3) & 0xffffffffffffffff) + 5) & 0xffffffffffffffff) < 10 or ((_U32(i_b, i_o + 24)[0] << 32) & 0xffffffffffffffff) > 0x8000000000000000  # u64, u32
