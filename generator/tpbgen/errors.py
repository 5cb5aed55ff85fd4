"""Diagnostics as values: every stage returns them; only the CLI prints them and picks exit codes."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


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

    def where(self) -> str:
        if self.pointer is not None:
            return f"{self.file}#{self.pointer}" if self.file else self.pointer
        if not self.file:
            return "<input>"
        if self.line <= 0:
            return self.file
        if self.col <= 0:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.col}"

    def render(self) -> str:
        code = f" [{self.code}]" if self.code else ""
        return f"{self.where()}: {self.severity.value}{code}: {self.message}"


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
