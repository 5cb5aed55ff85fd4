"""pycparser's lexer with a shorter path for its commonest tokens: the same tokens.

Lexing is ~45% of pycparser's parse of these headers (49,000 tokens, ~2.6 us each): for every
token, `CLexer._match_token` runs its master regex (24 alternatives tried in order) and then
scans a bucket of fixed punctuators, and `CLexer.token` steps over blanks one character at a
time. `FastLexer.token` takes four cases itself, each exactly as the base class decides it:

- a run of blanks (space, tab) is stepped over at once;
- a name: its first character is a letter, `_` or `$`, where the only master-regex alternative
  that can match is ID, except for a prefix `L`, `u`, `U` or `u8` followed by a quote (a wide or
  Unicode literal: left to the base class); then the keyword table and the parser's typedef
  lookup, as `_match_token` does;
- a punctuator whose first character no master-regex alternative can start (so the base class
  takes the first match in the length-sorted bucket): every bucket character but `/` (comments
  are master-regex errors) and `.` (`.5` is a float);
- a line marker as cpp writes it, `# 12 "file.h" 1 3`: the number without a leading zero or a
  suffix, the name without a backslash, the flags plain digits, blanks around them, then the end
  of the line: `CLexer._handle_ppline` takes that as "the next line is line 12 of file.h".

Everything else (numbers, literals, `/`, `.`, other `#` lines, errors, anything unexpected) is
left to `CLexer.token` at the same position. The case analysis above is about one particular
`pycparser/c_lexer.py`: `lexer_class()` gives FastLexer only when the installed file is that one
(its sha256), and pycparser's own CLexer otherwise. tests/ingest/test_lexer.py holds the two to
the same tokens (type, value, line, column, file) on every header text tpbgen has and on
generated token soups.
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path
from typing import Any

from pycparser import c_lexer, c_parser

# sha256 of the pycparser/c_lexer.py the case analysis in the docstring was made against
# (pycparser 3.00); another file gets pycparser's own lexer
VERIFIED_LEXER_SHA256 = "075568a9b6213d690e2495827a6e0e638ce3d08c6b3e4b4165915ed98f3b9148"

_BLANKS = re.compile(r"[ \t]+")
_NAME = re.compile(r"[a-zA-Z_$][0-9a-zA-Z_$]*")  # the master regex's ID alternative
# `# 12 "file.h" 1 3`: what CLexer._handle_ppline takes as line 12 of file.h (the line after the
# marker), then the next line; the number without a leading zero or suffix, the name without
# escapes, the flags plain digits (other spellings, `#line` included, are left to it)
_LINE_MARKER = re.compile(
    r'#[ \t]*(0|[1-9][0-9]*)[ \t]+"([^"\\\n]*)"(?:[ \t]+[0-9]+)*[ \t]*(?:\n|\Z)'
)
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")
_QUOTES = ("'", '"')


class FastLexer(c_lexer.CLexer):  # type: ignore[misc]
    """See the module docstring."""

    # the base class's state this reads and moves, as it does
    _lexdata: str
    _pos: int
    _lineno: int
    _line_start: int
    _filename: str

    def token(self) -> Any:
        if self._pending_tok is not None:  # (the second token of a #pragma)
            return super().token()
        text = self._lexdata
        n = len(text)
        pos = self._pos
        while pos < n:
            c = text[pos]
            if c == " " or c == "\t":
                pos = _BLANKS.match(text, pos).end()  # type: ignore[union-attr]
                continue
            if c == "\n":
                self._lineno += 1
                pos += 1
                self._line_start = pos
                continue
            if c == "#":  # a line marker as cpp writes it; any other `#` line: the base class
                m = _LINE_MARKER.match(text, pos)
                if m is None:
                    break
                self._lineno = int(m.group(1))
                self._filename = m.group(2)
                pos = self._line_start = m.end()
                continue
            if c in _NAME_START:
                if c in "LuU":
                    after = text[pos + 1 : pos + 3]
                    if after[:1] in _QUOTES or (c == "u" and after in ("8'", '8"')):
                        break  # a prefixed literal
                value = _NAME.match(text, pos).group()  # type: ignore[union-attr]
                kind = _KEYWORDS.get(value, "ID")
                if kind == "ID" and self.type_lookup_func(value):
                    kind = "TYPEID"
                self._pos = pos + len(value)
                return _Token(kind, value, self._lineno, pos - self._line_start + 1)
            bucket = _PUNCTUATORS.get(c)
            if bucket is None:
                break
            for entry in bucket:
                literal = entry.literal
                if text.startswith(literal, pos):
                    kind = entry.tok_type
                    tok = _Token(kind, literal, self._lineno, pos - self._line_start + 1)
                    self._pos = pos + len(literal)
                    if kind == "LBRACE":
                        self.on_lbrace_func()
                    elif kind == "RBRACE":
                        self.on_rbrace_func()
                    return tok
            break  # (a bucket character no literal of its bucket starts: the base class says)
        self._pos = pos
        return super().token()


# pycparser's private tables FastLexer reads (looked up so that another pycparser, without them,
# still imports this module: lexer_class() then gives pycparser's own lexer)
_Token: Any = getattr(c_lexer, "_Token", None)
_KEYWORDS: dict[str, str] = getattr(c_lexer, "_keyword_map", None) or {}
# the fixed-literal buckets (length-sorted) of the characters FastLexer takes itself
_PUNCTUATORS: dict[str, Any] = {
    c: bucket
    for c, bucket in (getattr(c_lexer, "_fixed_tokens_by_first", None) or {}).items()
    if c not in "/."
}


@functools.cache
def lexer_class() -> type[c_lexer.CLexer]:
    """FastLexer when the installed pycparser lexer is the one it was verified against, else
    pycparser's own (slower, the same tokens by definition)."""
    try:
        installed = hashlib.sha256(Path(c_lexer.__file__).read_bytes()).hexdigest()
    except (OSError, TypeError):
        return _STOCK
    if installed != VERIFIED_LEXER_SHA256 or set(_PUNCTUATORS) & _NAME_START:
        return _STOCK
    if _Token is None or not _KEYWORDS or not _PUNCTUATORS:
        return _STOCK
    return FastLexer


_STOCK: type[c_lexer.CLexer] = c_lexer.CLexer


def new_parser() -> c_parser.CParser:
    """A pycparser CParser lexing with `lexer_class()`."""
    return c_parser.CParser(lexer=lexer_class())
