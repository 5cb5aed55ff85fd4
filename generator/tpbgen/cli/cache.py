"""`tpbgen cache info|clear`: where the IR cache lives, how big it is; empty it."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..cache import Cache
from ..errors import ExitCode
from .output import Outcome


def register(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add `tpbgen cache info|clear` to the command line."""
    sp = sub.add_parser("cache", help="show (info) or empty (clear) the IR cache")
    sp.add_argument(
        "action",
        choices=("info", "clear"),
        help="info: where the cache is and how full; clear: remove its entries",
    )
    sp.set_defaults(func=run)


def run(args: argparse.Namespace) -> Outcome:
    """`tpbgen cache`: `clear` empties the IR cache and says how many entries went; `info` shows
    where it is, what it holds and its limits."""
    cache = Cache()
    if args.action == "clear":
        n = cache.clear()
        return Outcome(ExitCode.OK, f"{cache.directory}: removed {n} cache entries\n")
    i = cache.info()
    text = (
        f"directory: {i['directory']}\n"
        f"usable:    {'yes' if i['usable'] else 'no'}\n"
        f"entries:   {i['entries']} of at most {i['max_entries']}\n"
        f"size:      {i['bytes'] / 1e6:.1f} MB of at most {i['max_bytes'] / 1e6:.0f} MB\n"
    )
    return Outcome(ExitCode.OK, text, cache.warnings)
