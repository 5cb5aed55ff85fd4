"""Python's cyclic garbage collector, paused around work that makes many small acyclic objects.

Parsing, building and loading an IR, and running an audit, each allocate hundreds of thousands of
small objects; the collector's passes over them (and over every object made before them) were a
third of ingest and as much as the audit itself. None of that work makes reference cycles
(tests/ingest/test_memory.py and tests/audit/test_facts.py check), so reference counting frees
everything while the collector is paused, and the collector runs again as soon as the block ends.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """The cyclic collector off for the block (left as it was found: a caller that had it off
    keeps it off)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
