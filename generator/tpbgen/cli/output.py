"""The one printer: what a command returns (an Outcome) becomes text on stdout and stderr here.

Commands never print. They return their exit code, their report (stdout) and their diagnostics;
`print_outcome` renders every diagnostic once, in the chosen `--error-format`, with its path as
the user can open it from the current directory.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

from ..errors import Diagnostic, unique

FORMATS = ("text", "json", "github")


@dataclass
class Outcome:
    code: int
    stdout: str = ""  # the command's report
    diagnostics: list[Diagnostic] = field(default_factory=list)  # to stderr
    findings: list[Diagnostic] = field(
        default_factory=list
    )  # the command's findings, to stdout (reconcile; audit's annotations for --error-format github)
    note: str = ""  # a closing word to stderr, beside the report (why audit exits 1)


def render_diagnostic(diag: Diagnostic, fmt: str) -> str:
    """text: `path:line:col: severity [code]: message`; json: one object per line; github: a
    workflow command, so CI annotates the header line."""
    if fmt == "json":
        return json.dumps(
            {
                "file": diag.path,
                "line": diag.line,
                "col": diag.col,
                "severity": diag.severity.value,
                "code": diag.code,
                "pointer": diag.pointer,
                "message": diag.message,
            },
            sort_keys=True,
        )
    if fmt == "github":
        level = {"error": "error", "warning": "warning"}.get(diag.severity.value, "notice")
        fields = (
            f"file={_gh_property(diag.path)}" if diag.path else "",
            f"line={diag.line}" if diag.line else "",
            f"col={diag.col}" if diag.col else "",
        )
        where = ",".join(x for x in fields if x)
        text = f"{diag.code}: {diag.message}" if diag.code else diag.message
        if diag.pointer is not None:
            text = f"{text} (at {diag.pointer})"
        return f"::{level} {where}::{_gh_data(text)}" if where else f"::{level}::{_gh_data(text)}"
    return diag.render()


def _gh_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(s: str) -> str:
    return _gh_data(s).replace(":", "%3A").replace(",", "%2C")


def print_diagnostics(diags: Sequence[Diagnostic], fmt: str, stream: TextIO | None = None) -> None:
    """Print each distinct diagnostic once, in format `fmt` ("text" or "json" lines), to `stream`
    (standard error by default)."""
    out = stream if stream is not None else sys.stderr
    for d in unique(diags):
        print(render_diagnostic(d, fmt), file=out)


def print_outcome(outcome: Outcome, fmt: str) -> int:
    """Print a command's outcome (diagnostics to standard error, findings and output to standard
    output, the closing note last) and return its exit code."""
    print_diagnostics(outcome.diagnostics, fmt)
    print_diagnostics(outcome.findings, fmt, sys.stdout)
    if outcome.stdout:
        sys.stdout.write(outcome.stdout)
    sys.stdout.flush()  # (a closed or full standard output fails here, where the CLI says so)
    if outcome.note:
        sys.stderr.write(outcome.note)
    return outcome.code
