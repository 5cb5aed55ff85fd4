"""pycparser's lexer with a shorter path for its commonest tokens: the same tokens.

Lexing is ~45% of pycparser's parse of these headers (49,000 tokens, ~2.6 us each): for every
token, `CLexer._match_token` runs its master regex (24 alternatives) and then scans a bucket of
fixed punctuators, and `CLexer.token` steps over blanks one character at a time. `FastLexer.token`
takes four cases itself, each as the installed base class decides it:

- a run of blanks: the characters the installed lexer steps over between two names (found by
  asking it: `\\f` and `\\v` are blanks for pycparser 3.12, errors for 3.0);
- a name: its first character is a letter, `_` or `$`, where the only master-regex alternative
  that can match is ID, except for a prefix `L`, `u`, `U` or `u8` followed by a quote (a wide or
  Unicode literal: left to the base class); then the lexer's own keyword table (the instance's
  where the lexer has one per dialect, as 3.12 does) and, where the lexer classifies typedef
  names itself (3.0), the parser's typedef lookup;
- a punctuator whose first character is one of those for which the installed lexer's first token
  is always the first literal of its length-sorted bucket: found by asking the installed lexer
  about that character followed by every ASCII character (and again by itself, for `[[`-style
  openers), so `/` (comments), `.` (`.5`) and, on 3.12, `[` (`[[` opens an attribute) go back to
  the base class;
- a line marker as cpp writes it, `# 12 "file.h" 1 3`: the number without a leading zero or a
  suffix, the name without a backslash, the flags plain digits, blanks around them, then the end
  of the line, which every pycparser 3 reads as "the next line is line 12 of file.h".

Everything else (numbers, literals, `/`, `.`, other `#` lines, attribute arguments, errors) is left
to `CLexer.token` at the same position.

What is found by asking the installed lexer is then held to it at run time: `lexer_choice()`
lexes a calibration text (every spelling the shortcuts are about, glued and apart, and a header
sample) with both lexers and compares every token (type, value, line, column, file), every error
and every brace callback. FastLexer is used only when they agree; otherwise pycparser's own lexer
(slower, the same tokens by definition), and `generate` and `inspect` say so once, with the first
difference. tests/ingest/test_lexer.py holds the two to the same tokens on every header in the
repository and on generated soups, on whichever pycparser is installed.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import pycparser
from pycparser import c_lexer, c_parser

_NAME = re.compile(r"[a-zA-Z_$][0-9a-zA-Z_$]*")  # the master regex's ID alternative
# `# 12 "file.h" 1 3`: what CLexer._handle_ppline takes as line 12 of file.h (the line after the
# marker), then the next line; the number without a leading zero or suffix, the name without
# escapes, the flags plain digits (other spellings, `#line` included, are left to it)
_LINE_MARKER = re.compile(
    r'#[ \t]*(0|[1-9][0-9]*)[ \t]+"([^"\\\n]*)"(?:[ \t]+[0-9]+)*[ \t]*(?:\n|\Z)'
)
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")
_QUOTES = ("'", '"')

# pycparser's private tables FastLexer reads (looked up so that another pycparser, without them,
# still imports this module: lexer_choice() then gives pycparser's own lexer, and says why)
_MODULE_KEYWORDS: dict[str, str] = getattr(c_lexer, "_keyword_map", None) or {}
_BUCKETS: dict[str, Any] = getattr(c_lexer, "_fixed_tokens_by_first", None) or {}


class FastPath:
    """The shortcuts of the module docstring, mixed in before a pycparser lexer class by
    `lexer_choice()`, which sets the character classes from that lexer's own answers."""

    # the base class's state this reads and moves, as it does
    _lexdata: str
    _pos: int
    _lineno: int
    _line_start: int
    _filename: str

    _pending_tok: Any
    _make_token: Callable[[str, str, int], Any]
    blanks: re.Pattern[str]
    blank_chars: frozenset[str]
    punctuators: dict[str, Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the keyword table (3.12 keeps one per lexer, by dialect), the typedef lookup and the
        # brace callbacks where this pycparser's lexer has them (3.0; 3.12's parser does both)
        self._fast_keywords: dict[str, str] = (
            getattr(self, "_keyword_map", None) or _MODULE_KEYWORDS
        )
        self._fast_typedef: Callable[[str], bool] | None = getattr(self, "type_lookup_func", None)
        # token kind -> the callback the base class makes after it (3.0's brace callbacks; empty
        # on 3.12): one lookup per punctuator instead of a test per brace kind
        self._fast_after: dict[str, Callable[[], None]] = {
            kind: callback
            for kind, attr in (("LBRACE", "on_lbrace_func"), ("RBRACE", "on_rbrace_func"))
            if (callback := getattr(self, attr, None)) is not None
        }

    def token(self) -> Any:
        """The next token as the base class would give it (None at the end): a blank run, a line
        marker, a name or a bucket punctuator taken here, anything else from the base class at
        the same position. Called once per token, so it stays one loop with its cases inline
        (the line marker, rare, is the one case in a method of its own)."""
        if self._pending_tok is not None or getattr(self, "_in_attribute", False):
            return super().token()  # type: ignore[misc]  # (a #pragma's 2nd token; an attribute)
        text = self._lexdata
        n = len(text)
        pos = self._pos
        blank_chars = self.blank_chars
        while pos < n:
            c = text[pos]
            if c in blank_chars:
                pos = self.blanks.match(text, pos).end()  # type: ignore[union-attr]
                continue
            if c == "\n":
                self._lineno += 1
                pos += 1
                self._line_start = pos
                continue
            if c == "#":  # a line marker as cpp writes it; any other `#` line: the base class
                after_marker = self._line_marker(text, pos)
                if after_marker is None:
                    break
                pos = after_marker
                continue
            if c in _NAME_START:
                if c in "LuU":
                    after = text[pos + 1 : pos + 3]
                    if after[:1] in _QUOTES or (c == "u" and after in ("8'", '8"')):
                        break  # a prefixed literal
                value = _NAME.match(text, pos).group()  # type: ignore[union-attr]
                kind = self._fast_keywords.get(value, "ID")
                if kind == "ID" and self._fast_typedef is not None and self._fast_typedef(value):
                    kind = "TYPEID"
                tok = self._make_token(kind, value, pos)
                self._pos = pos + len(value)
                return tok
            bucket = self.punctuators.get(c)
            if bucket is None:
                break
            for entry in bucket:
                literal = entry.literal
                if text.startswith(literal, pos):
                    kind = entry.tok_type
                    tok = self._make_token(kind, literal, pos)
                    self._pos = pos + len(literal)
                    callback = self._fast_after.get(kind)
                    if callback is not None:
                        callback()
                    return tok
            break  # (a bucket character no literal of its bucket starts: the base class says)
        self._pos = pos
        return super().token()  # type: ignore[misc]

    def _line_marker(self, text: str, pos: int) -> int | None:
        """At a `#` at `pos`: a cpp line marker taken (the line and file it names set, as the
        base class sets them) and the position after it, or None for any other `#` line."""
        m = _LINE_MARKER.match(text, pos)
        if m is None:
            return None
        self._lineno = int(m.group(1))
        self._filename = m.group(2)
        self._line_start = m.end()
        return self._line_start


# -- asking the installed lexer ----------------------------------------------------------------


def lex_events(
    cls: type[Any], text: str, typedefs: Callable[[str], bool] = lambda name: False
) -> list[tuple[Any, ...]]:
    """Everything a lexer of class `cls` tells its parser about `text`, in order: each token
    (type, value, line, column, file), each error (message, line, column), each brace callback
    where this pycparser's lexer makes them, and an exception it raises (pycparser's own: 3.0
    reads `# 5u "f.h"` with int('5u'))."""
    events: list[tuple[Any, ...]] = []

    def error(msg: str, line: int, col: int) -> None:
        events.append(("error", msg, line, col))

    kwargs: dict[str, Any] = {"error_func": error}
    params = _init_params(cls)
    if "on_lbrace_func" in params:
        kwargs["on_lbrace_func"] = lambda: events.append(("{",))
    if "on_rbrace_func" in params:
        kwargs["on_rbrace_func"] = lambda: events.append(("}",))
    if "type_lookup_func" in params:
        kwargs["type_lookup_func"] = typedefs
    lx = cls(**kwargs)
    lx.input(text, "<text>")
    for _ in range(len(text) + 2):  # (each token consumes a character at least)
        try:
            tok = lx.token()
        except Exception as exc:  # the same exception from both, or a difference
            events.append(("raised", type(exc).__name__, str(exc)))
            break
        if tok is None:
            break
        events.append((tok.type, tok.value, tok.lineno, tok.column, lx.filename))
    else:
        events.append(("raised", "no end", "the lexer did not end"))
    return events


def _init_params(cls: type[Any]) -> frozenset[str]:
    """The parameters pycparser's lexer class (below any FastPath) takes."""
    init = next(
        k.__dict__["__init__"]
        for k in cls.__mro__
        if k is not FastPath and "__init__" in k.__dict__
    )
    return frozenset(inspect.signature(init).parameters)


def _blank_chars(base: type[Any]) -> frozenset[str]:
    """The ASCII characters lexer `base` steps over between two names, as it does a space (no
    token, no error, the next name one column further)."""
    spaced = lex_events(base, "a b")
    return frozenset(
        ch
        for ch in map(chr, range(128))
        if ch not in _NAME_START
        and ch not in "\n#"
        and not ch.isdigit()
        and lex_events(base, f"a{ch}b") == spaced
    )


def _punctuator_chars(base: type[Any], blank_chars: frozenset[str]) -> dict[str, Any]:
    """The buckets of the characters for which lexer `base`'s first token is always the bucket's
    first matching literal: that character followed by each ASCII character, and by each followed
    by the character again (`[[`, `[ [`)."""
    probe = _Probe(base)
    taken: dict[str, Any] = {}
    for c, bucket in _BUCKETS.items():
        if c in _NAME_START or c in blank_chars or c in "\n#":
            continue
        if all(
            entry is None or probe.first(text) == (entry.tok_type, entry.literal, 1, 1)
            for d in map(chr, range(128))
            for text in (c + d, c + d + c)
            for entry in [next((e for e in bucket if text.startswith(e.literal)), None)]
        ):
            taken[c] = bucket
    return taken


class _Probe:
    """One stock lexer asked for the first thing it says about many short texts: a token as
    (type, value, line, column), an error, or an exception (brace callbacks are not counted
    here: FastLexer makes them as the base class does, and the calibration compares them)."""

    def __init__(self, base: type[Any]) -> None:
        self.said: list[tuple[Any, ...]] = []
        params = _init_params(base)
        kwargs: dict[str, Any] = {"error_func": lambda msg, line, col: self.said.append(("error",))}
        for name in ("on_lbrace_func", "on_rbrace_func"):
            if name in params:
                kwargs[name] = lambda: None
        if "type_lookup_func" in params:
            kwargs["type_lookup_func"] = lambda name: False
        self.lexer = base(**kwargs)

    def first(self, text: str) -> tuple[Any, ...] | None:
        self.said.clear()
        self.lexer.input(text, "<text>")
        try:
            tok = self.lexer.token()
        except Exception as exc:
            return ("raised", type(exc).__name__)
        if self.said:
            return self.said[0]
        return None if tok is None else (tok.type, tok.value, tok.lineno, tok.column)


# The spellings the shortcuts are about: each is lexed with both lexers, apart, glued to the
# next and within a header-like text, before FastLexer is used.
CALIBRATION_FRAGMENTS: tuple[str, ...] = (
    "L'a'",
    'L"w"',
    'u8"s"',
    "u8'c'",
    "u'c'",
    "U'c'",
    'u"s"',
    'U"s"',
    "u8",
    "u",
    "U",
    "L",
    "Lx",
    "u8x",
    "uint8_t",
    "T",
    "Tname",
    "$x",
    "x$",
    "_",
    "int",
    "struct",
    "typedef",
    "return",
    "_Bool",
    "__attribute__",
    "typeof",
    "bool",
    "true",
    "nullptr",
    "constexpr",
    "static_assert",
    ".5",
    "1.",
    "1.5f",
    "0x1p3",
    "0x1F",
    "0b101",
    "08",
    "0777",
    "123ull",
    "1'000",
    "1e5",
    "1e",
    "0x",
    "'x'",
    "'\\n'",
    "'ab'",
    "''",
    "'",
    '"',
    '"\\q"',
    "/",
    "//",
    "/*",
    "*/",
    "/=",
    "...",
    ".",
    "->",
    ">>=",
    "<<",
    "<=",
    "&&",
    "||",
    "##",
    "#",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "[[",
    "]]",
    "[[deprecated]]",
    '[[gnu::packed, nodiscard("x")]]',
    "[ [",
    ";",
    ",",
    "?",
    ":",
    "::",
    "~",
    "!",
    "%",
    "^",
    "|",
    "&",
    "+",
    "-",
    "*",
    "=",
    "<",
    ">",
    " ",
    "  ",
    "\t",
    "\n",
    "\r",
    "\f",
    "\v",
    "\x00",
    "é",
    "@",
    "`",
    "\\",
    '#line 7 "f.h"\n',
    '# 9 "g.h" 2\n',
    "#pragma pack(1)\n",
    "#pragma once\n",
    "#define X\n",
    '# 012 "f.h"\n',
    '# 5"f.h"\n',
    '# 5 "f.h"1\n',
    '# 5 "a\\"b.h"\n',
    '#  7 \t "x y.h"  1  3 \t\n',
    '# 0 "z.h"\n',
    "# 5\n",
    "#\n",
    '# 5 "f.h" x\n',
    '# 5 "f.h"',
    '# 5 "f.h"\r\n',
    '# 99999999999 "big.h"\n',
    '# 5 "a\\%b.h"\n',
    '# 5 "a\\\\b.h"\n',
    '# 1\'0 "sep.h"\n',
)

_HEADER_SAMPLE = """\
# 1 "aws_neuron_isa_tpb_common.h" 1
typedef unsigned char uint8_t;
typedef struct __attribute__((__packed__)) NEURON_ISA_TPB_HEADER {
    uint8_t opcode; /* 0x00 */
    uint8_t inst_word_len : 4, pad : 4;
} NEURON_ISA_TPB_HEADER;
enum NEURON_ISA_TPB_OPCODE { NEURON_ISA_TPB_OPCODE_NOP = 0x00, X = 0x44 /* n */, Y = 1u << 3 };
static inline _Bool ok(const NEURON_ISA_TPB_HEADER *h) { return h->opcode != 0 && (h->pad | 0x1F) >= 0; }
#pragma GCC diagnostic push
_Static_assert(sizeof(NEURON_ISA_TPB_HEADER) == 2, "size");
float f = 0.1f, g = .5e-3, k[2] = {1e39f, 0x1.8p1};
char *s = "a\\"b", c = '\\377', w = L'x';
"""


def _calibration_texts() -> Iterable[str]:
    yield " ".join(CALIBRATION_FRAGMENTS)
    yield "".join(CALIBRATION_FRAGMENTS)
    for fragment in CALIBRATION_FRAGMENTS:  # each glued to every spelling after it, in turn
        yield fragment + "".join(CALIBRATION_FRAGMENTS)[:40]
    yield _HEADER_SAMPLE


@dataclass(frozen=True)
class LexerChoice:
    """The lexer tpbgen parses with, and why."""

    cls: type[c_lexer.CLexer]
    fast: bool
    why: str  # for the summary: "FastLexer" or why pycparser's own lexer is used
    where: str = str(
        getattr(c_lexer, "__file__", "") or ""
    )  # the lexer file it was checked against


def _first_difference(fast_cls: type[Any], base: type[Any], texts: Iterable[str]) -> str | None:
    def typedefs(name: str) -> bool:
        return name.startswith("T") or name.endswith("_t")

    for text in texts:
        fast = lex_events(fast_cls, text, typedefs)
        stock = lex_events(base, text, typedefs)
        if fast != stock:
            at = next(
                (i for i, (a, b) in enumerate(zip(fast, stock, strict=False)) if a != b),
                min(len(fast), len(stock)),
            )
            mine = fast[at] if at < len(fast) else "(end)"
            theirs = stock[at] if at < len(stock) else "(end)"
            return f"on {text[:60]!r}, event {at}: {mine} where pycparser's lexer gives {theirs}"
    return None


@functools.cache
def lexer_choice(base: type[c_lexer.CLexer] = c_lexer.CLexer) -> LexerChoice:
    """FastLexer (the shortcuts over `base`, pycparser's installed lexer unless a test says
    otherwise) when it gives `base`'s tokens on the calibration texts, with the character
    classes `base`'s own answers allow; else `base` itself, and why. Once a process (~20-30 ms,
    asked only by a cold parse)."""
    version = getattr(pycparser, "__version__", "?")
    missing = [
        name
        for name, table in (
            ("_keyword_map", _MODULE_KEYWORDS),
            ("_fixed_tokens_by_first", _BUCKETS),
            ("CLexer._make_token", getattr(base, "_make_token", None)),
        )
        if not table
    ]
    if missing:
        why = f"pycparser {version} has no {', '.join(missing)}"
        return LexerChoice(base, False, f"pycparser's own lexer ({why}; parsing is slower)")
    try:
        blank_chars = _blank_chars(base)
        fast_cls: type[c_lexer.CLexer] = type(
            "FastLexer",
            (FastPath, base),
            {
                "__doc__": FastPath.__doc__,
                "blank_chars": blank_chars,
                "blanks": re.compile(f"[{re.escape(''.join(sorted(blank_chars)))}]+"),
                "punctuators": _punctuator_chars(base, blank_chars),
            },
        )
        difference = _first_difference(fast_cls, base, _calibration_texts())
    except Exception as exc:  # a lexer these questions break: its own lexer, and why
        difference = f"answers: asking it raised {type(exc).__name__}: {exc}"
    if difference is not None:
        return LexerChoice(
            base,
            False,
            f"pycparser's own lexer (FastLexer disagrees with pycparser {version}'s {difference}; parsing is slower)",
        )
    return LexerChoice(fast_cls, True, f"FastLexer (checked against pycparser {version}'s lexer)")


def lexer_class() -> type[c_lexer.CLexer]:
    """The lexer class `lexer_choice()` picked."""
    return lexer_choice().cls


def parsed_with() -> LexerChoice | None:
    """The lexer this process has parsed with, or None when it has parsed nothing (a warm run)."""
    return lexer_choice() if lexer_choice.cache_info().currsize else None


def new_parser() -> c_parser.CParser:
    """A pycparser CParser lexing with `lexer_class()`."""
    return c_parser.CParser(lexer=lexer_class())
