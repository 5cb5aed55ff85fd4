"""`.ci/lower-bounds.txt` is the tested claim behind every `>=` in pyproject.toml: CI installs the
project a second time under it and runs the suite. It must pin each runtime and test dependency
at exactly its declared lower bound, and pin nothing the project does not declare."""

from __future__ import annotations

import re
import tomllib

from tpb_paths import REPO


def _name(spec: str) -> str:
    return re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0].lower().replace("_", "-")


def test_every_declared_lower_bound_is_pinned_for_ci() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    bounds = {}
    for spec in declared:
        found = re.search(r">=\s*([0-9][0-9.]*)", spec)
        assert found, f"{spec!r} declares no lower bound"
        bounds[_name(spec)] = found.group(1)
    pins = {}
    for line in (REPO / ".ci" / "lower-bounds.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[_name(name)] = version.strip()

    def release(v: str) -> tuple[int, ...]:
        parts = [int(x) for x in v.split(".")]
        while len(parts) > 1 and parts[-1] == 0:
            parts.pop()
        return tuple(parts)

    assert set(pins) == set(bounds), (
        sorted(set(bounds) - set(pins)),
        sorted(set(pins) - set(bounds)),
    )
    wrong = {n: (bounds[n], pins[n]) for n in bounds if release(bounds[n]) != release(pins[n])}
    assert not wrong, f"declared >= vs pinned ==: {wrong}"
