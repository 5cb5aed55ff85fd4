"""The assembler's text scanner: a text's lines split at their blanks in C (`textscan.c`), each
token named by an id, so the batch assembler (`text._FastAsm`) reads each distinct token's text
once instead of making a string of every token of every line.

It reads what `text.split("\\n")` and then `line.split(" ")` read, and decides nothing about what
a token means: two tokens have the same id iff they are at the same place in their lines and
have the same text. It is built as the other C extensions are (:mod:`.cbuild`, the spec in
:mod:`.cextensions`: at install, else on first use, cached by content); where it cannot be built
or loaded (no compiler, no cffi) the batch assembler splits the lines in Python, with the same
words and errors, and says so once on standard error (not at all when the install already said
that cffi is missing: :func:`cbuild.said_at_install`). A text that is not ASCII is split in
Python too (the scanner reads bytes; ASCII keeps a byte's offset a character's).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator, Sequence
from itertools import pairwise
from typing import Any, overload

import numpy as np

from . import cbuild, cextensions

_lock = threading.Lock()
_loaded: tuple[Any, Any] | None = None
_error: str | None = None

#: Tokens a scan holds at most (its buffers' length), unless one line alone has more.
SCAN_TOKENS = 1 << 20


def load() -> tuple[Any, Any] | None:
    """(ffi, lib) of the scanner, built on first use; None where it cannot be (`error` says why)."""
    global _loaded, _error
    with _lock:
        if _loaded is None and _error is None:
            try:
                _loaded = cbuild.load(cextensions.text_scanner())
            except Exception as exc:  # no compiler, no cffi, an unwritable cache, ...
                _error = f"{type(exc).__name__}: {exc}"
                if not cbuild.said_at_install(exc):
                    print(
                        f"tpb_isa: the assembler's text scanner is unavailable ({_error}); asm "
                        "splits lines in Python (the same words, more slowly)",
                        file=sys.stderr,
                    )
        return _loaded


def error() -> str | None:
    """Why the scanner could not be loaded (None if it was, or was not tried)."""
    return _error


I64 = np.ndarray[Any, np.dtype[np.int64]]
I32 = np.ndarray[Any, np.dtype[np.int32]]


class Scan(Sequence[str]):
    """Lines of a text as the scanner read them (at most `max_lines` from one line on): a
    sequence of the lines' texts, and each line's tokens as ids.

    `tokens[starts[k]:starts[k + 1]]` are line k's tokens' ids; `places[d]` is id d's place in
    its line (0 for a line's first token) and `token(d)` its text."""

    __slots__ = ("_at", "_tok_at", "_tok_len", "end", "places", "starts", "text", "tokens")

    def __init__(
        self,
        text: str,
        at: I64,
        starts: I32,
        tokens: I32,
        tok_at: I64,
        tok_len: I32,
        places: I32,
    ) -> None:
        self.text = text
        self._at = at  # each line's first character, and where the next line starts
        self.starts, self.tokens, self.places = starts, tokens, places
        self._tok_at, self._tok_len = tok_at, tok_len
        self.end = int(at[-1])  # where the next scan starts (past the text after its last line)

    def __len__(self) -> int:
        return len(self._at) - 1

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if not -n <= i < n:
            raise IndexError("line index out of range")
        k = i % n
        return self.text[int(self._at[k]) : int(self._at[k + 1]) - 1]

    def __iter__(self) -> Iterator[str]:
        at = self._at.tolist()
        text = self.text
        return (text[a : b - 1] for a, b in pairwise(at))

    def token(self, d: int) -> str:
        """The text of id `d`."""
        a = int(self._tok_at[d])
        return self.text[a : a + int(self._tok_len[d])]

    def texts(self, ids: np.ndarray[Any, np.dtype[np.intp]]) -> list[str]:
        """The texts of `ids`, in order."""
        text = self.text
        at = self._tok_at[ids].tolist()
        end = (self._tok_at[ids] + self._tok_len[ids]).tolist()
        return list(map(text.__getitem__, map(slice, at, end)))


def scans(text: str, max_lines: int, start: int = 0) -> Iterator[Scan] | None:
    """The lines of `text` from offset `start` (a line's first character) on, as scans of at
    most `max_lines` lines each, in order, read one by one as the iterator is; None where the
    scanner is not built or the text is not ASCII."""
    if not text.isascii():
        return None
    loaded = load()
    if loaded is None:
        return None
    return _scans(loaded, text, max_lines, start)


def _scans(loaded: tuple[Any, Any], text: str, max_lines: int, start: int) -> Iterator[Scan]:
    ffi, lib = loaded
    data = text.encode("ascii")
    n = len(data)
    buf = ffi.from_buffer("unsigned char[]", data) if n else ffi.new("unsigned char[]", 1)
    counts = np.zeros(2, dtype=np.int64)
    while start <= n:
        cap = min(SCAN_TOKENS, n - start + 1)
        while True:
            lines = min(max_lines, n - start + 1)
            at = np.empty(lines + 1, dtype=np.int64)
            starts = np.empty(lines + 1, dtype=np.int32)
            tokens = np.empty(cap, dtype=np.int32)
            tok_at = np.empty(cap, dtype=np.int64)
            tok_len = np.empty(cap, dtype=np.int32)
            places = np.empty(cap, dtype=np.int32)
            got = lib.tpbgen_scan_lines(
                buf, n, start, lines, cap,
                ffi.from_buffer("int64_t[]", at), ffi.from_buffer("int32_t[]", starts),
                ffi.from_buffer("int32_t[]", tokens), ffi.from_buffer("int64_t[]", tok_at),
                ffi.from_buffer("int32_t[]", tok_len), ffi.from_buffer("int32_t[]", places),
                ffi.from_buffer("int64_t[]", counts),
            )  # fmt: skip
            if got < 0:
                raise MemoryError("the text scanner's table")
            if got > 0:
                break
            cap = int(counts[1])  # one line with more tokens than a scan holds: room for it
        distinct, total = int(counts[0]), int(starts[got])
        scan = Scan(
            text,
            at[: got + 1],
            starts[: got + 1],
            tokens[:total],
            tok_at[:distinct],
            tok_len[:distinct],
            places[:distinct],
        )
        start = scan.end
        yield scan
