"""`aligned(...)` arguments are folded by the IR's own constant evaluator (ir/consteval.py), with
C's rules, never by running Python: literals keep their suffixes, `sizeof` of a scalar is its
size, and anything that is not an integer constant expression, not C (`**`), out of a shift's
range or no power of two gives no alignment (the attribute is then left to the compiler's
verify-cc proof), at once."""

from __future__ import annotations

import pytest

from tpbgen.frontend.dialect import _alignment


@pytest.mark.parametrize(
    ("arg", "value"),
    [
        ("8", 8),
        ("16UL", 16),
        ("0x20", 32),
        ("sizeof(uint32_t)", 4),
        ("2 * sizeof(int)", 8),
        ("(1 << 4)", 16),
        ("64 / 2", 32),
        ("(7 + 1) % 9", 8),
        ("3", None),
        ("0", None),
        ("-8", None),
        ("1 << 100", None),  # a shift past int's width is not constant
        ("x", None),
        ("sizeof(struct x)", None),
        ("1); int y = (2", None),
        ("2**99999999", None),  # Python's power, not C (Python's eval computed it, without bound)
        ("1.5", None),
    ],
)
def test_an_aligned_argument_is_folded_as_c_folds_it(arg: str, value: int | None) -> None:
    assert _alignment(arg) == value
