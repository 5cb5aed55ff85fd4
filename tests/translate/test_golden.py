"""The golden translator corpus: one folder per C construct under golden/ (see golden/README.md).

For every case: (a) the text the scalar and the numpy back ends emit for its input.h equals
expected.py and expected_numpy.py byte for byte (TPBGEN_UPDATE_GOLDEN=1 rewrites them), and
(b) gcc's compiled input.h and both translations give the same answer on every one of the case's
~3,000 words (random ones, and ones with edge values at the fields the case reads).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from support import cpredicates

from .golden_support import (
    UPDATE_ENV,
    Translated,
    case_dirs,
    scalar_namespace,
    translate_case,
    vector_batch,
    vector_namespace,
    words_for,
    xfail_reason,
)

CASES = case_dirs()
EXPECTED = ("expected.py", "expected_numpy.py")


def _with_xfail(case: Path) -> object:
    reason = xfail_reason(case)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(case, id=case.name, marks=marks)


@pytest.fixture(scope="module")
def translated(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Translated]:
    """Each case ingested and translated once for both tests."""
    cache: dict[str, Translated] = {}

    def get(case: Path) -> Translated:
        if case.name not in cache:
            cache[case.name] = translate_case(case, tmp_path_factory.mktemp(f"golden_{case.name}"))
        return cache[case.name]

    return get


def test_there_are_cases() -> None:
    assert len(CASES) >= 20, [c.name for c in CASES]


@pytest.mark.parametrize("which", EXPECTED)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_emitted_text_is_golden(
    case: Path, which: str, translated: Callable[[Path], Translated]
) -> None:
    tr = translated(case)
    got = (tr.scalar if which == "expected.py" else tr.numpy).encode()
    path = case / which
    if os.environ.get(UPDATE_ENV) == "1":
        if not path.is_file() or path.read_bytes() != got:
            path.write_bytes(got)
        return
    assert path.is_file(), f"{path} is missing: run with {UPDATE_ENV}=1 to write it"
    want = path.read_bytes()
    if got != want:
        diff = "".join(
            difflib.unified_diff(
                want.decode().splitlines(True), got.decode().splitlines(True), str(path), "emitted"
            )
        )
        pytest.fail(
            f"{case.name}: the translation differs from {which} (rewrite with {UPDATE_ENV}=1 if intended):\n{diff}"
        )


def _first_difference(
    name: str,
    label: str,
    words: npt.NDArray[np.uint8],
    want: npt.NDArray[np.bool_],
    got: npt.NDArray[np.bool_],
) -> str:
    bad = np.flatnonzero(got != want)
    k = int(bad[0])
    return (
        f"{name}: {label} differs from gcc on {len(bad)} of {len(words)} words; first, word {k}: "
        f"{words[k].tobytes().hex()} (gcc {bool(want[k])}, {label} {bool(got[k])})"
    )


@pytest.mark.parametrize("case", [_with_xfail(c) for c in CASES])
def test_translation_agrees_with_gcc(
    case: Path, translated: Callable[[Path], Translated], cc: str, tmp_path: Path
) -> None:
    tr = translated(case)
    assert tr.predicates, (
        f"{case.name}: input.h has no predicate taking a NEURON_ISA_TPB_INST_UNION"
    )
    c = cpredicates.build(cc, tr.tpb, tr.predicates, tmp_path, opt="-O0")
    words = words_for(case, tr)
    scalar = scalar_namespace(tr.scalar)
    vector = vector_namespace(tr.numpy)
    problems: list[str] = []
    for name in tr.predicates:
        want = c.run(name, words)
        fn = scalar[f"_{name}"]
        got_s = np.zeros(len(words), dtype=np.bool_)
        for k, w in enumerate(words):
            try:
                got_s[k] = bool(fn(w.tobytes(), 0))
            except Exception as exc:
                pytest.fail(f"{name}: scalar raised {exc!r} on word {k}: {w.tobytes().hex()}")
        with np.errstate(
            all="ignore"
        ):  # IEEE arithmetic on the NaN and inf edge values, as C does it
            got_v = np.broadcast_to(
                np.asarray(vector[f"_v_{name}"](words, 0), dtype=np.bool_), want.shape
            )
        # and as validate_batch runs it: contiguous columns, answers memoised for the batch
        got_b = vector_batch(vector[f"_v_{name}"], words)
        problems += [
            _first_difference(name, label, words, want, got)
            for label, got in (("scalar", got_s), ("numpy", got_v), ("numpy batch", got_b))
            if (got != want).any()
        ]
        if not 0 < int(want.sum()) < len(words):
            problems.append(
                f"{name}: gcc answers {bool(want[0])} on every word: the case tests nothing"
            )
    if problems:
        pytest.fail(f"{case.name}:\n" + "\n".join(problems))
