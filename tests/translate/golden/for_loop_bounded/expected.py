# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the
# code names, then one function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.


def _for_loop_bounded(i_b: bytes, i_o: int) -> bool:
    total = 0
    count = 0
    k = 0
    while k < 4:
        if _I16(i_b, i_o + 8 + k * 4)[0] < 0:  # pairs[k].s
            k = k + 1
            continue
        total = total + _I16(i_b, i_o + 8 + k * 4)[0]  # pairs[k].s
        count = (count + 1) & 0xffffffff
        k = k + 1
    return count >= 2 and total > 0x4e20


def _loop_return(i_b: bytes, i_o: int) -> bool:
    k = 0
    while k < 3:
        if i_b[i_o + 53 + k] < 16:  # inner.v[k]
            return False
        k = ((k + 1)) & 0xff
    return True


def _loop_bound_from_word(i_b: bytes, i_o: int) -> bool:
    acc = 1
    n = 0
    while n < (i_b[i_o + 2] & 7):
        acc = (acc * 3) & 0xffffffff
        n = ((n + 1)) & 0xff
    return acc > 100
