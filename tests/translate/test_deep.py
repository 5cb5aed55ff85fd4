"""tpbgen.deep: commands run on a worker thread with a fixed, documented room for recursion."""

from __future__ import annotations

import sys

import pytest

from tpbgen import deep


def _depth(n: int) -> int:
    return 0 if n == 0 else 1 + _depth(n - 1)


def test_deep_recursion_runs_and_the_limit_is_restored() -> None:
    before = sys.getrecursionlimit()
    assert deep.run_deep(lambda: _depth(50_000)) == 50_000  # far past Python's default 1,000
    assert sys.getrecursionlimit() == before


def test_exceptions_reach_the_caller_and_nested_calls_run_in_place() -> None:
    with pytest.raises(ValueError, match="boom"):
        deep.run_deep(lambda: (_ for _ in ()).throw(ValueError("boom")))
    assert (
        deep.run_deep(lambda: deep.run_deep(lambda: sys.getrecursionlimit()))
        >= deep.RECURSION_LIMIT
    )
    with pytest.raises(KeyboardInterrupt):
        deep.run_deep(lambda: (_ for _ in ()).throw(KeyboardInterrupt()))


def test_past_the_limit_is_a_recursion_error_not_a_crash() -> None:
    with pytest.raises(RecursionError):
        deep.run_deep(lambda: _depth(deep.RECURSION_LIMIT + 10))
