"""How much of each differential sweep the suite runs (imported as `tpb_scale`).

Every test runs at both scales and checks the same behaviour; the scale sets only how many words,
examples, generations or repetitions it checks it on. The default keeps the README's test command
within minutes on two cores; CI sets ``TPBGEN_FULL=1`` (.ci/run) for the full scale, which is what
the issues' figures (10^5 words a generation, every variant on every generation, ...) name.
A knob of its own (``TPBGEN_FOOTPRINT_WORDS``, ``TPB_EXEC_EXAMPLES``) still wins over both.

The variant drops (tests/variants: each a cold ``generate`` of an edited generation held to its
own C, ~3 s of CPU a drop, over a third of the suite's time when all ran) run one in
``VARIANT_STRIDE`` at the default scale, every one at the full scale: the rest are deselected,
which pytest's summary counts. A sixth of the drops exercises the same front end, translator and
proof as all of them (every file of tests/variants keeps some); the rest vary the input those
passes see, and CI's first pass (the full scale) runs every one. .ci/run's second pass, under the
oldest release of every dependency (``TPBGEN_LOWER_BOUNDS=1``), runs the default scale: it asks
whether tpbgen runs on those releases. Both keep the README's test command within five minutes
and CI within its 25 on two cores.
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

T = TypeVar("T")


def scale(default: int, full: int) -> int:
    """`full` when the full scale is on, else `default`."""
    return full if FULL else default


#: One variant drop (a test item under tests/variants) in this many runs.
VARIANT_STRIDE = scale(6, 1)


def sweep(every: Sequence[T], default: Sequence[T]) -> Sequence[T]:
    """All of `every` at the full scale, else `default` (a subset of it)."""
    return every if FULL else default


def env_int(name: str, default: int, full: int) -> int:
    """The integer in environment variable `name` if it is set, else `scale(default, full)`."""
    value = os.environ.get(name, "").strip()
    return int(value) if value else scale(default, full)


def variant_share(nodeids: Sequence[str]) -> set[str]:
    """The variant tests this run runs: of each file's tests in sorted order, the first and
    every VARIANT_STRIDE-th after it (the same on every xdist worker); all of them at the full
    scale."""
    by_file: dict[str, list[str]] = {}
    for nodeid in sorted(nodeids):
        by_file.setdefault(nodeid.split("::", 1)[0], []).append(nodeid)
    return {n for tests in by_file.values() for n in tests[::VARIANT_STRIDE]}
