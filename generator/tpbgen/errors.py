"""Diagnostics as values: every stage returns them; only the CLI prints them and picks exit codes."""

from __future__ import annotations

import dataclasses
import enum
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path


class Severity(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class ExitCode(enum.IntEnum):
    """The exit codes of every `tpbgen` command."""

    OK = 0
    FINDINGS = 1  # error-level findings (or a stale generated/ for --check)
    BAD_INPUT = 2  # input that cannot be used at all: missing, unparsable, contradicting itself
    INTERNAL = 3  # a bug in tpbgen: reported with a traceback hint, never silently


@dataclass(frozen=True)
class Diagnostic:
    """One message about one place: `file:line:col: severity: message` (or a JSON pointer)."""

    message: str
    file: str = ""
    line: int = 0
    col: int = 0
    severity: Severity = Severity.ERROR
    code: str = ""
    pointer: str | None = None  # a JSON pointer, for findings about a JSON document
    base: str = ""  # the absolute directory `file` is relative to (the IR spells files relative to the header root)

    @property
    def path(self) -> str:
        """`file` as the user can open it from the current directory (see `shown_path`)."""
        return shown_path(self.file, self.base)

    def where(self) -> str:
        """The location as a reader finds it: `path#pointer` for a JSON location, else
        `path:line:col` with what is known (`<input>` for none)."""
        path = self.path
        if self.pointer is not None:
            return f"{path}#{self.pointer}" if path else self.pointer
        if not path:
            return "<input>"
        if self.line <= 0:
            return path
        if self.col <= 0:
            return f"{path}:{self.line}"
        return f"{path}:{self.line}:{self.col}"

    def render(self) -> str:
        """The diagnostic as one line of text: `where: severity [code]: message`."""
        code = f" [{self.code}]" if self.code else ""
        return f"{self.where()}: {self.severity.value}{code}: {self.message}"


def shown_path(file: str, base: str = "") -> str:
    """`file` (relative to the directory `base`, when given) as the user can open it from the
    current directory: relative to it when the file is below it, absolute otherwise; names like
    `<libc>/stdint.h` as they are."""
    if not file or file.startswith("<"):
        return file
    p = file if not base or os.path.isabs(file) else os.path.join(base, file)
    if os.path.isabs(p):
        try:
            rel = os.path.relpath(p)
        except ValueError:  # another drive
            return p
        return p if rel.startswith("..") else rel
    return os.path.normpath(p)


def rebase(diagnostics: Iterable[Diagnostic], base: Path) -> list[Diagnostic]:
    """Say which directory the relative file names of these diagnostics are relative to."""
    root = str(base.resolve())
    return [dataclasses.replace(d, base=root) if d.file and not d.base else d for d in diagnostics]


def unique(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic once, in first-seen order."""
    return list(dict.fromkeys(diagnostics))


@dataclass
class TpbgenError(Exception):
    """Raised by a stage when its input is unusable; carries every diagnostic found, not the first."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    exit_code: ExitCode = ExitCode.BAD_INPUT

    def __str__(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


def fail(message: str, file: str = "", line: int = 0, col: int = 0, code: str = "") -> TpbgenError:
    """A one-diagnostic error, for the common case."""
    return TpbgenError([Diagnostic(message, file, line, col, Severity.ERROR, code)])
