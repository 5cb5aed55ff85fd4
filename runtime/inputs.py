"""Reading and writing the files the runtime's command line and traces name: special files
(directories, FIFOs, devices, sockets) refused by their type before they are opened, every read
bounded, standard input and output that may be closed, and an output replaced whole or not at
all. Errors are `FileInputError` (a ValueError) whose message starts with the path."""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

#: the most bytes one input (a program, a state, a trace, a trace line) may hold, unless
#: `TPB_ISA_MAX_INPUT_MB` says otherwise
DEFAULT_MAX_INPUT_MB = 1024
STDIN = "-"


class FileInputError(ValueError):
    """A file the runtime cannot use as given; the message starts with its name."""


def max_input_bytes() -> int:
    """The bound on one input: `TPB_ISA_MAX_INPUT_MB` (a positive integer) or 1024 MB."""
    raw = os.environ.get("TPB_ISA_MAX_INPUT_MB", "")
    try:
        mb = int(raw) if raw.strip() else DEFAULT_MAX_INPUT_MB
    except ValueError:
        mb = DEFAULT_MAX_INPUT_MB
    return max(mb, 1) << 20


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _why(e: OSError) -> str:
    return e.strerror or str(e)


def regular_file(path: str | Path) -> int:
    """The size of `path`, a regular file (symbolic links followed); FileInputError naming it
    otherwise (missing, unreadable, a directory or another special file), before any open."""
    try:
        st = os.stat(path)
    except (OSError, ValueError) as e:
        why = _why(e) if isinstance(e, OSError) else str(e)
        raise FileInputError(f"{path}: {why}") from None
    if not stat.S_ISREG(st.st_mode):
        raise FileInputError(f"{path}: {_kind(st.st_mode)}, not a regular file: refused")
    return st.st_size


def _too_big(name: str, limit: int) -> FileInputError:
    return FileInputError(
        f"{name}: more than {limit >> 20} MB (TPB_ISA_MAX_INPUT_MB raises the bound)"
    )


def read_bytes(path: str, stdin: Any = None) -> bytes:
    """The bytes of `path` (a regular file) or, for `-`, of standard input (a pipe, a file or
    a terminal; a device other than a terminal is refused), at most `max_input_bytes()`."""
    limit = max_input_bytes()
    if path == STDIN:
        return _read_stdin(sys.stdin if stdin is None else stdin, limit)
    if regular_file(path) > limit:
        raise _too_big(path, limit)
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise FileInputError(f"{path}: {_why(e)}") from None
    if len(data) > limit:  # the file grew after the stat
        raise _too_big(path, limit)
    return data


def _is_devnull(fd: int) -> bool:
    """Whether descriptor `fd` is the null device (`< /dev/null`: an empty input)."""
    try:
        return os.fstat(fd).st_rdev == os.stat(os.devnull).st_rdev
    except OSError:
        return False


def _read_stdin(stdin: Any, limit: int) -> bytes:
    name = "standard input"
    stream = getattr(stdin, "buffer", stdin)
    try:
        fd = stream.fileno()
        mode = os.fstat(fd).st_mode
    except (AttributeError, OSError, ValueError):
        if stream is None or not hasattr(stream, "read"):
            raise FileInputError(f"{name}: closed") from None
        mode = stat.S_IFIFO  # an in-memory stream (a test's): read it, bounded
        fd = -1
    if stat.S_ISDIR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
        raise FileInputError(f"{name}: {_kind(mode)}: refused")
    if stat.S_ISCHR(mode) and not (os.isatty(fd) or _is_devnull(fd)):
        raise FileInputError(f"{name}: {_kind(mode)}, not a file, pipe or terminal: refused")
    try:
        data = stream.read(limit + 1)
    except (OSError, ValueError) as e:
        why = _why(e) if isinstance(e, OSError) else "closed"
        raise FileInputError(f"{name}: {why}") from None
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if len(data) > limit:
        raise _too_big(name, limit)
    return bytes(data)


def lines(path: str | Path) -> Iterator[tuple[int, bytes]]:
    """(line number from 1, line without its newline) of a regular file, each line at most
    `max_input_bytes()` long."""
    limit = max_input_bytes()
    regular_file(path)
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed below, also when the caller stops early
    except OSError as e:
        raise FileInputError(f"{path}: {_why(e)}") from None
    with f:
        n = 0
        while True:
            try:
                line = f.readline(limit + 1)
            except OSError as e:
                raise FileInputError(f"{path}:{n + 1}: {_why(e)}") from None
            if not line:
                return
            n += 1
            if len(line) > limit and not line.endswith(b"\n"):
                raise FileInputError(f"{path}:{n}: a line longer than {limit >> 20} MB")
            yield n, line.rstrip(b"\r\n")


def writable_target(path: str | Path) -> None:
    """Refuse, by its type, an existing `path` an output cannot replace: a directory, a FIFO
    (opening one blocks), a socket or a block device. A character device (/dev/null, a
    terminal) is written as it is."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return
    except (OSError, ValueError) as e:
        why = _why(e) if isinstance(e, OSError) else str(e)
        raise FileInputError(f"{path}: {why}") from None
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISCHR(st.st_mode)):
        raise FileInputError(f"{path}: {_kind(st.st_mode)}, not a file to write: refused")


def open_output(path: str | Path) -> IO[str]:
    """`path` opened for writing text (after `writable_target`); FileInputError saying why not."""
    writable_target(path)
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as e:
        raise FileInputError(f"{path}: {_why(e)}") from None


def _new_file_mode() -> int:
    """The mode `open(path, "w")` would give a new file: 0o666 less the umask."""
    mask = os.umask(0o22)
    os.umask(mask)
    return 0o666 & ~mask


def replace_whole(path: str | Path, write: Any) -> None:
    """Write `path` through `write(binary_file)` into a temporary file beside it, then rename it
    over `path`: a reader sees the old file or the new one, never half of one."""
    writable_target(path)
    target = Path(path)
    if target.exists() and not target.is_file():  # a character device: written in place
        try:
            with open(target, "wb") as f:
                write(f)
        except OSError as e:
            raise FileInputError(f"{path}: {_why(e)}") from None
        return
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    except OSError as e:
        raise FileInputError(f"{path}: {_why(e)}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.chmod(tmp, _new_file_mode())
        os.replace(tmp, target)
    except OSError as e:
        os.unlink(tmp)
        raise FileInputError(f"{path}: {_why(e)}") from None
    except BaseException:
        os.unlink(tmp)
        raise
