"""Resource limits on what one generation's headers may make the front end do.

Defaults sit far above any real drop (ours preprocesses to about 160 KB with lines of at most
243 bytes) and far below what a hostile or broken tree can ask for (a macro that doubles itself
twenty times expands to megabytes on one line, which pycparser then takes minutes and gigabytes
to parse). Exceeding one is a located exit-2 error, never minutes of work; `tpbgen generate
--max-preprocessed-mb / --max-line-kb / --max-preprocess-seconds` raise them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    preprocessed_bytes: int = 64 * 2**20  # the whole preprocessed translation unit
    line_bytes: int = 2**20  # one preprocessed line: one macro expansion, in practice
    preprocess_seconds: float = 300.0  # the system preprocessor's run


DEFAULT = Limits()
