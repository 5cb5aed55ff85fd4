"""How much of each differential sweep the suite runs (imported as `tpb_scale`).

Every test runs at both scales and checks the same behaviour; the scale sets only how many words,
examples, generations or repetitions it checks it on. The default keeps the README's test command
within minutes on two cores; CI sets ``TPBGEN_FULL=1`` (.ci/run) for the full scale, which is what
the issues' figures (10^5 words a generation, every variant on every generation, ...) name.
A knob of its own (``TPBGEN_FOOTPRINT_WORDS``, ``TPB_EXEC_EXAMPLES``) still wins over both.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar

#: The environment variable that turns the full scale on.
FULL_ENV = "TPBGEN_FULL"
#: Whether this run is at the full scale.
FULL = os.environ.get(FULL_ENV, "").strip() == "1"

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
