"""How much of each differential sweep the suite runs (imported as `tpb_scale`).

Every test runs at both scales and checks the same behaviour; the scale sets only how many words,
examples, generations or repetitions it checks it on. The default keeps the README's test command
within minutes on two cores; CI sets ``TPBGEN_FULL=1`` (.ci/run) for the full scale, which is what
the issues' figures (10^5 words a generation, every variant on every generation, ...) name.
A knob of its own (``TPBGEN_FOOTPRINT_WORDS``, ``TPB_EXEC_EXAMPLES``) still wins over both.

.ci/run's second pass, under the oldest release of every dependency (``TPBGEN_LOWER_BOUNDS=1``),
runs the default scale with one variant drop in ``LOWER_BOUNDS_VARIANT_STRIDE`` (tests/variants,
the rest deselected, which pytest's summary counts): that pass asks whether tpbgen runs on those
releases, which a third of the drops exercise through the same library calls as all of them,
while every variant runs in the first pass (today's releases, the full scale). It keeps CI within
its 25 minutes on two cores.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar

#: The environment variable that turns the full scale on.
FULL_ENV = "TPBGEN_FULL"
#: Whether this run is at the full scale.
FULL = os.environ.get(FULL_ENV, "").strip() == "1"

#: The environment variable of .ci/run's lower-bounds pass.
LOWER_BOUNDS_ENV = "TPBGEN_LOWER_BOUNDS"
#: Whether this run is that pass.
LOWER_BOUNDS = os.environ.get(LOWER_BOUNDS_ENV, "").strip() == "1"
#: In that pass, one variant drop (a test item under tests/variants) in this many runs.
LOWER_BOUNDS_VARIANT_STRIDE = 3

T = TypeVar("T")


def scale(default: int, full: int) -> int:
    """`full` when the full scale is on, else `default`."""
    return full if FULL else default


def sweep(every: Sequence[T], default: Sequence[T]) -> Sequence[T]:
    """All of `every` at the full scale, else `default` (a subset of it)."""
    return every if FULL else default


def env_int(name: str, default: int, full: int) -> int:
    """The integer in environment variable `name` if it is set, else `scale(default, full)`."""
    value = os.environ.get(name, "").strip()
    return int(value) if value else scale(default, full)


def lower_bounds_share(nodeids: Sequence[str]) -> set[str]:
    """The variant tests the lower-bounds pass runs: every LOWER_BOUNDS_VARIANT_STRIDE-th of
    `nodeids` in sorted order (the same on every xdist worker), all of them in any other run."""
    if not LOWER_BOUNDS:
        return set(nodeids)
    return set(sorted(nodeids)[::LOWER_BOUNDS_VARIANT_STRIDE])
