"""The proof's edge values straddle the constants a validator compares with, folded ones too:
`inst_word_len == INST_NBYTES / 4U` compares with 16, which no literal in the drop spells."""

from __future__ import annotations

import pytest

from tpbgen.checks.corpus import _fold, constants
from tpbgen.translate.c_semantics import ScalarType
from tpbgen.translate.lir import Binary, Const

U32 = ScalarType("int", 32, False)
I32 = ScalarType("int", 32, True)
F32 = ScalarType("float", 32, True)


@pytest.mark.parametrize(
    ("op", "a", "b", "t", "want"),
    [
        ("/", 64, 4, U32, 16),
        ("/", -7, 2, I32, -3),  # C truncates toward zero
        ("%", -7, 2, I32, -1),
        ("*", 0x10000, 0x10000, U32, 0),  # unsigned wrap
        ("+", 0x7FFFFFFF, 1, I32, -0x80000000),
        ("<<", 1, 31, U32, 0x80000000),
        ("&", 0xF0, 0x3C, U32, 0x30),
        ("-", 0, 1, U32, 0xFFFFFFFF),
        ("/", 1, 0, U32, None),  # no value: division by zero
        ("<<", 1, 32, U32, None),  # no value: shift past the width
    ],
)
def test_fold(op: str, a: int, b: int, t: ScalarType, want: int | None) -> None:
    assert _fold(Binary(op, Const(a, t), Const(b, t), t)) == want


def test_fold_leaves_floats_and_non_constants() -> None:
    assert _fold(Binary("/", Const(1.0, F32), Const(4.0, F32), F32)) is None
    assert (
        _fold(Binary("+", Binary("+", Const(1, U32), Const(1, U32), U32), Const(1, U32), U32))
        is None
    )


def test_the_vendored_header_check_reaches_16() -> None:
    """Every validator of the vendored drop calls has_valid_inst_len (`INST_NBYTES / 4U`): the
    constants of its reachable code include the folded 16, so the seed search can set
    inst_word_len."""
    from tpb_paths import HEADER_ROOT
    from tpbgen.frontend.ingest import ingest_root
    from tpbgen.translate.validators import translate

    gen = next(r.gen for r in ingest_root(HEADER_ROOT) if r.gen.name == "sunda")
    tr = translate(gen)
    by_name = {f.name: f for f in tr.lowered}
    ints, _ = constants((by_name["has_valid_inst_len"],))
    assert 16 in ints and 64 in ints
