"""Audit tests share one IR cache directory (a fresh one per session), so every generation is
parsed once and the tests never read or write the user's cache."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def _audit_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    old = os.environ.get("TPBGEN_CACHE_DIR")
    os.environ["TPBGEN_CACHE_DIR"] = str(tmp_path_factory.mktemp("ir-cache"))
    yield
    if old is None:
        os.environ.pop("TPBGEN_CACHE_DIR", None)
    else:
        os.environ["TPBGEN_CACHE_DIR"] = old
