"""Integer literals get the type and value gcc gives them on x86-64 (C11 6.4.4.1, and gcc's
own rule for one too large for its type), held to gcc itself: a literal gcc makes an __int128 is
refused (tpbgen models no 128-bit type), never given a wrong 64-bit value."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tpbgen.ir.consteval import parse_int_literal

LITERALS = (
    "0x7FFFFFFF",
    "0x80000000",
    "2147483648",
    "0xFFFFFFFFu",
    "0x100000000",
    "0x7FFFFFFFFFFFFFFF",
    "0x8000000000000000",
    "0xFFFFFFFFFFFFFFFF",
    "0x1FFFFFFFFFFFFFFFF",
    "0x1FFFFFFFFFFFFFFFFu",
    "01777777777777777777777",
    "9223372036854775807",
    "5l",
)
TOO_LARGE = ("9223372036854775808", "18446744073709551615", "36893488147419103231")


def test_literals_as_gcc_types_them(tmp_path: Path, cc: str) -> None:
    body = "".join(
        f'  printf("%d %d %llu\\n", (int)sizeof({x}), (int)(({x}) * 0 - 1 < 0), (unsigned long long)({x}));\n'
        for x in LITERALS
    )
    src = tmp_path / "lit.c"
    src.write_text(f"#include <stdio.h>\nint main(void) {{\n{body}  return 0;\n}}\n")
    subprocess.run([cc, "-std=c11", "-w", "-o", str(tmp_path / "lit"), str(src)], check=True)
    out = subprocess.run([str(tmp_path / "lit")], capture_output=True, text=True, check=True)
    for text, line in zip(LITERALS, out.stdout.splitlines(), strict=True):
        size, signed, low = (int(x) for x in line.split())
        v = parse_int_literal(text)
        assert (v.bits // 8, not v.unsigned, v.value) == (size, bool(signed), low), text


@pytest.mark.parametrize("text", TOO_LARGE)
def test_a_decimal_literal_gcc_makes_an_int128_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="__int128"):
        parse_int_literal(text)
