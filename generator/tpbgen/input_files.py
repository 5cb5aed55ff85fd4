"""Reading a user's input file: its type first, then a bounded read, then strict text and JSON.

Every file tpbgen reads from a drop or a command line (headers, `instruction_mapping.json`,
`firmware_status.json`, `<gen>.waivers`) comes through here:
- by type before it is opened: a FIFO, a device, a socket or a directory where a file belongs,
  and a symlink loop, are refused by name (opening a FIFO blocks until a writer comes; reading a
  device may never end), and the file is opened without blocking and checked again once open;
- with a bound: more than `limit` bytes is refused, never read to the end;
- as UTF-8, strictly: a byte that is not is refused at its line and column;
- as JSON, strictly: nesting deeper than `MAX_JSON_DEPTH` (a parser's recursion, or memory,
  would give out first), `NaN`/`Infinity` (not JSON), and a key given twice in one object (JSON
  keeps the last, so the file says two things) are refused by JSON pointer.
Every refusal is a TpbgenError (exit 2) located in the file.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

from .errors import Diagnostic, Severity, TpbgenError

MAX_INPUT_BYTES = 64 * 2**20  # one input file; ours are at most a few hundred KB
MAX_JSON_DEPTH = 64  # ours nest 4 deep
_CHUNK = 1 << 20

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str:
    """What a file of this st_mode is, in words ("a regular file", "a FIFO", ...)."""
    return next((word for test, word in _KINDS if test(mode)), "a regular file")


def _refused(message: str, rel: str, code: str) -> TpbgenError:
    return TpbgenError([Diagnostic(message, rel, severity=Severity.ERROR, code=code)])


def special_file(path: Path) -> str | None:
    """Why `path` cannot be read as a file ("a FIFO", "a symlink loop", ...), None when it is a
    regular file (through symlinks) or does not exist."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a dangling symlink" if os.path.islink(path) else None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symlink loop"
        raise
    return None if stat.S_ISREG(mode) else file_kind(mode)


def refuse_special(path: Path, rel: str, code: str = "not-a-file") -> None:
    """Refuse `path` by its type, before anything opens it (see `special_file`)."""
    kind = special_file(path)
    if kind is not None:
        raise _refused(f"{kind}, not a regular file: refused without opening it", rel, code)


def read_regular(path: Path, rel: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file `path` (`rel`: its name in diagnostics), refused by type
    before it is opened and by size past `limit` bytes. FileNotFoundError passes through."""
    refuse_special(path, rel)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode  # (replaced between the check and the open)
        if not stat.S_ISREG(mode):
            raise _refused(
                f"{file_kind(mode)}, not a regular file: refused without reading it",
                rel,
                "not-a-file",
            )
        parts: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - size))
            if not chunk:
                break
            parts.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise _refused(f"larger than {limit:,} bytes: refused without reading it all", rel, "limit")
    return b"".join(parts)


def read_optional(path: Path, rel: str, limit: int = MAX_INPUT_BYTES) -> bytes | None:
    """`read_regular`, or None when nothing at all is at `path` (a dangling symlink, a directory
    or a FIFO there is refused: the user put something where the file goes)."""
    if not os.path.lexists(path):
        return None
    return read_regular(path, rel, limit)


def _line_col(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    return line, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def decode_utf8(data: bytes, rel: str, code: str) -> str:
    """`data` as UTF-8 text, a byte that is not refused at its line and column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _line_col(data, exc.start)
        raise TpbgenError(
            [
                Diagnostic(
                    f"byte 0x{data[exc.start]:02x} is not UTF-8 ({exc.reason}); the file must be UTF-8 text",
                    rel,
                    line,
                    col,
                    Severity.ERROR,
                    code,
                )
            ]
        ) from None


class JsonObject(dict[str, Any]):
    """A JSON object that remembers every key/value pair, duplicates included (json keeps the last)."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.pairs = pairs


def pointer_token(token: str) -> str:
    """One JSON pointer reference token (RFC 6901: `~` and `/` escaped)."""
    return token.replace("~", "~0").replace("/", "~1")


def _too_deep(text: str) -> int:
    """The offset where `text`'s nesting of `[`/`{` (outside strings) passes MAX_JSON_DEPTH, -1
    when it never does (a linear scan, so a deep document costs no recursion)."""
    depth, in_string, escaped = 0, False, False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return i
        elif ch in "]}":
            depth -= 1
    return -1


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def duplicate_keys(
    node: Any, pointer: str = "", allowed: frozenset[str] = frozenset()
) -> list[str]:
    """Pointers of every key given twice in one object of `node` (read with `load_json`), but in
    the objects at the pointers `allowed` (whose duplicates another check reports)."""
    out: list[str] = []
    if isinstance(node, JsonObject):
        seen: set[str] = set()
        for k, v in node.pairs:
            if k in seen and pointer not in allowed:
                out.append(f"{pointer}/{pointer_token(k)}")
            seen.add(k)
            out.extend(duplicate_keys(v, f"{pointer}/{pointer_token(k)}", allowed))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(duplicate_keys(v, f"{pointer}/{i}", allowed))
    return out


def load_json(
    data: bytes, rel: str, code: str, duplicates_allowed_in: frozenset[str] = frozenset()
) -> Any:
    """`data` as strict JSON: UTF-8, at most MAX_JSON_DEPTH deep, no NaN or Infinity, no key
    twice in one object (but in the objects `duplicates_allowed_in` names by pointer); objects
    come back as JsonObject. Refusals are located by line and column or JSON pointer, with
    `code` (a duplicated key: `json-duplicate-key`)."""
    text = decode_utf8(data, rel, code)
    deep = _too_deep(text)
    if deep >= 0:
        line, col = _line_col(text.encode("utf-8"), len(text[:deep].encode("utf-8")))
        raise TpbgenError(
            [
                Diagnostic(
                    f"malformed JSON: nested more than {MAX_JSON_DEPTH} deep",
                    rel,
                    line,
                    col,
                    Severity.ERROR,
                    code,
                )
            ]
        )
    try:
        doc = json.loads(text, object_pairs_hook=JsonObject, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise TpbgenError(
            [
                Diagnostic(
                    f"malformed JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                    rel,
                    exc.lineno,
                    exc.colno,
                    Severity.ERROR,
                    code,
                )
            ]
        ) from None
    except ValueError as exc:  # NaN, Infinity; a number too long to convert
        raise _refused(f"malformed JSON: {exc}", rel, code) from None
    dupes = duplicate_keys(doc, "", duplicates_allowed_in)
    if dupes:
        raise TpbgenError(
            [
                Diagnostic(
                    "duplicate key: JSON keeps only the last value, so the file says two things",
                    rel,
                    code="json-duplicate-key",
                    pointer=p,
                )
                for p in dupes
            ]
        )
    return doc
