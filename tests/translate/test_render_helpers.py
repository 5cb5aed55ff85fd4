"""Small rendering rules the new operand families first needed, tested on their own: a call
argument loses a wrapping pair of parentheses (a nibble read passed to a helper), and `__all__`
lists follow ruff's RUF022 order (struct names like `S2S2D2_STT` beside `S2_BN`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tpbgen.templating import all_names, isort_names
from tpbgen.translate.lir import call_argument


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("((b[o + 40] >> 4) & 0xf)", "(b[o + 40] >> 4) & 0xf"),
        ("(x in (1, 2))", "x in (1, 2)"),
        ("(a) + (b)", "(a) + (b)"),  # the parentheses do not wrap all of it
        ("(1, 2)", "(1, 2)"),  # a tuple stays one argument
        ("(f(a, b))", "f(a, b)"),  # a comma inside a nested call is not top-level
        ("x", "x"),
    ],
)
def test_call_argument(text: str, want: str) -> None:
    assert call_argument(text) == want


NAMES = ["S2_BN", "S2S2D2_STT", "S4D4_TSM", "S4D4_TR", "STRUCTS", "Tensor10D", "Tensor2D",
         "InstUnion", "Indirect12B", "validate", "asm"]  # fmt: skip


def _ruf022(tmp_path: Path, order: list[str]) -> subprocess.CompletedProcess[str]:
    src = tmp_path / "m.py"
    src.write_text("__all__ = [\n" + "".join(f"    {n!r},\n" for n in order) + "]\n")
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    return subprocess.run(
        [ruff, "check", "--isolated", "--select", "RUF022", str(src)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_all_names_is_ruffs_order(tmp_path: Path) -> None:
    order = all_names(NAMES)
    assert order.index("S2S2D2_STT") < order.index("S2_BN")  # case-sensitive: 'S' < '_'
    assert order.index("Tensor2D") < order.index("Tensor10D")  # digit runs as numbers
    assert _ruf022(tmp_path, order).returncode == 0
    # the import order (case-insensitive) is not RUF022's: the check above could fail
    assert _ruf022(tmp_path, isort_names(NAMES)).returncode != 0
