"""Parse preprocessed text with pycparser 3; a syntax error becomes a `file:line:col` diagnostic."""

from __future__ import annotations

import re
from collections.abc import Callable

from pycparser import c_ast, c_parser

from .errors import Diagnostic, Severity, TpbgenError

_PARSE_ERR = re.compile(r"^(?P<file>[^:]*):(?P<line>\d+)(?::(?P<col>\d+))?:\s*(?P<msg>.*)$", re.S)


def parse(text: str, filename: str, relpath: Callable[[str], str]) -> c_ast.FileAST:
    parser = c_parser.CParser()
    try:
        return parser.parse(text, filename)
    except c_parser.ParseError as exc:
        msg = str(exc)
        m = _PARSE_ERR.match(msg)
        if m:
            what = m.group("msg").strip()
            if what.startswith("before:"):
                what = f"syntax error before '{what[len('before:'):].strip()}'"
            raise TpbgenError(
                [Diagnostic(what, relpath(m.group("file")), int(m.group("line")), int(m.group("col") or 0), Severity.ERROR, "syntax")]
            ) from None
        raise TpbgenError([Diagnostic(f"syntax error: {msg}", filename, code="syntax")]) from None

