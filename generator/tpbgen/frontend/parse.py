"""Parse preprocessed text with pycparser 3; a syntax error becomes a `file:line:col` diagnostic."""

from __future__ import annotations

import re
from collections.abc import Callable

from pycparser import c_ast, c_parser

from ..errors import Diagnostic, Severity, TpbgenError

_PARSE_ERR = re.compile(r"^(?P<file>[^:]*):(?P<line>\d+)(?::(?P<col>\d+))?:\s*(?P<msg>.*)$", re.S)


def parse(text: str, filename: str, relpath: Callable[[str], str]) -> c_ast.FileAST:
    parser = c_parser.CParser()
    try:
        return parser.parse(text, filename)
    except c_parser.ParseError as exc:
        raise TpbgenError([_diagnose(parser, str(exc), relpath)]) from None


def _diagnose(parser: c_parser.CParser, msg: str, relpath: Callable[[str], str]) -> Diagnostic:
    m = _PARSE_ERR.match(msg)
    if m:
        what = m.group("msg").strip()
        if what.startswith("before:"):
            what = f"syntax error before '{what[len('before:'):].strip()}'"
        return Diagnostic(what, relpath(m.group("file")), int(m.group("line")), int(m.group("col") or 0), Severity.ERROR, "syntax")
    # pycparser 3 raises some errors with the file name only: recover the place from the token
    # stream (the next unconsumed token, else the last one read). Private, so guarded.
    what = msg.split(": ", 1)[-1]
    file, line, col = parser.clex.filename, 0, 0
    try:
        stream = parser._tokens
        buf, i = stream._buffer, stream._index
        tok = buf[i] if i < len(buf) and buf[i] is not None else next((t for t in reversed(buf[:i]) if t is not None), None)
        if tok is not None:
            line, col = tok.lineno, tok.column
            nxt = stream.peek(2) if tok is buf[i] else None
            if tok.type == "ID" and nxt is not None and nxt.type == "ID":
                what = f"unknown type name '{tok.value}'"
            elif what == "At end of input":
                what = "unexpected end of input (is the header truncated?)"
            else:
                what = f"syntax error at '{tok.value}': {what}"
    except (AttributeError, IndexError):
        pass
    return Diagnostic(what, relpath(file), line, col, Severity.ERROR, "syntax")
