"""Every test is marked with the part of tpbgen it covers (tpb_areas.py): a new test folder or
top-level test file without an entry would be missed by every `-m <part>` run."""

from __future__ import annotations

import pytest

from tpb_areas import AREAS, MARKERS
from tpb_paths import REPO


def test_every_test_location_has_an_area() -> None:
    tests = REPO / "tests"
    places = {p.relative_to(tests).parts[0] for p in tests.rglob("test_*.py")}
    assert places, "no test files found"
    missing = sorted(places - set(AREAS))
    assert not missing, f"tests/ entries with no marker in tpb_areas.AREAS: {missing}"
    assert not sorted(set(AREAS) - places), "tpb_areas.AREAS names a place with no tests"


def test_every_area_marker_is_declared() -> None:
    used = {marker for markers in AREAS.values() for marker in markers}
    assert used == set(MARKERS), used ^ set(MARKERS)


def test_a_test_carries_its_folder_marker(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("hygiene") is not None
