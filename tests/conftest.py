"""Shared test fixtures (a C compiler, the generation parameter), and each test marked with the
part of tpbgen it covers (declared in tpb_areas.py). Paths live in tpb_paths.py, the suite's scale
in tpb_scale.py."""

from __future__ import annotations

import pytest

from tpb_areas import AREAS, MARKERS
from tpb_paths import GENERATIONS, HEADER_ROOT, REPO, find_cc, find_cxx, run_checked, tpb_dir
from tpb_scale import variant_share

__all__ = ["GENERATIONS", "HEADER_ROOT", "REPO", "run_checked", "tpb_dir"]


def pytest_configure(config: pytest.Config) -> None:
    for name, covers in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {covers}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tests = REPO / "tests"
    for item in items:
        path = item.path.resolve()
        if not path.is_relative_to(tests):
            continue
        for marker in AREAS.get(path.relative_to(tests).parts[0], ()):
            item.add_marker(marker)
    variants = [i.nodeid for i in items if i.path.resolve().is_relative_to(tests / "variants")]
    kept = variant_share(variants)
    if len(kept) < len(variants):  # the default scale (tpb_scale.py)
        dropped = set(variants) - kept
        config.hook.pytest_deselected(items=[i for i in items if i.nodeid in dropped])
        items[:] = [i for i in items if i.nodeid not in dropped]


@pytest.fixture(scope="session")
def cc() -> str:
    found = find_cc()
    if found is None:
        pytest.skip("no C compiler on PATH (cc, gcc or clang)")
    return found


@pytest.fixture(scope="session")
def cxx() -> str:
    found = find_cxx()
    if found is None:
        pytest.skip("no C++ compiler on PATH (c++, g++ or clang++)")
    return found


@pytest.fixture(params=GENERATIONS)
def gen(request: pytest.FixtureRequest) -> str:
    return str(request.param)
