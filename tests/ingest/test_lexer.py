"""tpbgen's lexer (frontend/lexer.py) gives exactly pycparser's tokens: type, value, line, column
and file of every token, every error reported (message and place) and every brace callback, in
the same order, on every header text in the repository (as written and preprocessed) and on
generated soups of the spellings its shortcuts are about (prefixed literals, `$` names, `.5`,
comments, line markers, pragmas, stray characters). Its guard gives pycparser's own lexer for any
other pycparser lexer file."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pycparser import c_lexer

from tpbgen.cli import main
from tpbgen.frontend import lexer as lexer_mod
from tpbgen.frontend.dialect import reduce_dialect
from tpbgen.frontend.discover import discover
from tpbgen.frontend.lexer import lex_events, lexer_choice
from tpbgen.frontend.preprocess import preprocess

REPO = Path(__file__).resolve().parents[2]

fast_lexer_in_use = pytest.mark.skipif(not lexer_choice().fast, reason=lexer_choice().why)


def same_tokens(text: str, typedefs: Callable[[str], bool] = lambda name: False) -> None:
    fast = lexer_choice().cls
    assert fast is not c_lexer.CLexer
    assert lex_events(fast, text, typedefs) == lex_events(c_lexer.CLexer, text, typedefs)


def header_texts() -> list[Path]:
    found = sorted(REPO.glob("vendor_headers/**/*.h"))
    found += sorted(REPO.glob("tests/**/*.h"))
    found += sorted(REPO.glob("generator/tpbgen/frontend/fake_libc/*.h"))
    return found


@fast_lexer_in_use
@pytest.mark.parametrize("path", header_texts(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_header_as_written(path: Path) -> None:
    """Comments and directives included: the errors pycparser reports for them are reported the
    same (this is text no preprocessor has seen)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    same_tokens(text, typedefs=lambda name: name.endswith("_t") or name.isupper())


@functools.cache
def drop_texts() -> list[tuple[str, str]]:
    return [
        (s.name, reduce_dialect(preprocess(s).text)[0]) for s in discover(REPO / "vendor_headers")
    ]


@fast_lexer_in_use
@pytest.mark.parametrize("gen", ["sunda", "cayman", "mariana", "maverick"])
def test_every_generation_preprocessed(gen: str) -> None:
    """What the parser is given: line markers, typedef names (looked up when lexed)."""
    (text,) = [t for name, t in drop_texts() if name == gen]
    typedefs = {
        word for line in text.splitlines() if line.startswith("typedef") for word in line.split()
    }
    same_tokens(text, typedefs=lambda name: name in typedefs)


FRAGMENTS = [
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
    ".5",
    "1.",
    "1.5f",
    "0x1p3",
    "0x1F",
    "0b101",
    "08",
    "0777",
    "123ull",
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
    ";",
    ",",
    "?",
    ":",
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
    '# 5u "f.h"\n',
    '# 5"f.h"\n',
    '# 5 "f.h"1\n',
    '# 5 "a\\"b.h"\n',
    '#  7 \t "x y.h"  1  3 \t\n',
    '# 0 "z.h"\n',
    "# 5\n",
    "#\n",
    '# 5 "f.h" x\n',
    '# 5 "f.h"',
    '# 5 "f.h" 1u\n',
    '# 5 "f.h"\r\n',
    '# 99999999999 "big.h"\n',
    '# 5 "a\\%b.h"\n',
    '# 5 "a\\\\b.h"\n',
]


@fast_lexer_in_use
@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40), st.booleans())
def test_generated_soups(parts: list[str], glue: bool) -> None:
    """Fragments run together (`glue`) or apart: every shortcut's edge (a prefix meeting a quote,
    a name meeting a digit, a `/` or `.` meeting what follows) and every hand-back."""
    same_tokens(("" if glue else " ").join(parts), typedefs=lambda name: name.startswith("T"))


@pytest.mark.smoke
def test_the_installed_lexer_passes_the_check() -> None:
    """Every pycparser 3 released so far (3.0, 3.1, 3.11, 3.12: their lexers differ in blanks,
    attributes, keyword tables and where typedef names are told apart) passes the check, so
    tpbgen parses with FastLexer; the classes it takes itself came from the lexer's answers."""
    choice = lexer_choice()
    assert choice.fast, choice.why
    cls: Any = choice.cls
    assert {" ", "\t"} <= cls.blank_chars
    assert "/" not in cls.punctuators and "." not in cls.punctuators  # comments, `.5`
    assert {"{", "}", ";", ","} <= set(cls.punctuators)


class _TypeofKeyword(c_lexer.CLexer):  # type: ignore[misc]
    """A pycparser whose lexer made `typeof` a keyword token (FastLexer's name path cannot know)."""

    def _match_token(self) -> Any:
        tok = super()._match_token()
        if tok is not None and tok.type == "ID" and tok.value == "typeof":
            tok.type = "TYPEOF"
        return tok


class _Digraphs(c_lexer.CLexer):  # type: ignore[misc]
    """A pycparser whose lexer reads the digraph `<:` as `[` (FastLexer's `<` shortcut would not)."""

    def _match_token(self) -> Any:
        if self._lexdata.startswith("<:", self._pos):
            tok = self._make_token("LBRACKET", "<:", self._pos)
            self._pos += 2
            return tok
        return super()._match_token()


def test_a_lexer_that_disagrees_is_not_used() -> None:
    """The check compares tokens, not file hashes: a lexer whose names are read differently is
    used as it is (slower), and the reason names the first difference."""
    choice = lexer_choice(_TypeofKeyword)
    assert choice.cls is _TypeofKeyword and not choice.fast
    assert "typeof" in choice.why and "TYPEOF" in choice.why


def test_a_punctuator_the_lexer_reads_otherwise_is_left_to_it() -> None:
    """The shortcut characters come from the lexer's own answers: `<` is left to a lexer that
    reads `<:` as a digraph, and FastLexer over it still gives its tokens."""
    choice = lexer_choice(_Digraphs)
    assert choice.fast, choice.why
    cls: Any = choice.cls
    assert "<" not in cls.punctuators and ">" in cls.punctuators
    text = "int a<:3]; b <= c < d <: e;"
    assert lex_events(cls, text) == lex_events(_Digraphs, text)


def test_missing_tables_say_why(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pycparser without the tables FastLexer reads gets its own lexer, with the reason."""
    monkeypatch.setattr(lexer_mod, "_BUCKETS", {})
    lexer_choice.cache_clear()
    try:
        choice = lexer_choice()
        assert choice.cls is c_lexer.CLexer and "_fixed_tokens_by_first" in choice.why
    finally:
        monkeypatch.undo()
        lexer_choice.cache_clear()


def test_a_run_parsing_without_fastlexer_says_so_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Never silently slower: a run that parsed with pycparser's own lexer says why, once."""
    monkeypatch.setattr(lexer_mod, "_BUCKETS", {})
    lexer_choice.cache_clear()
    try:
        code = main(
            ["inspect", "--gen", "sunda", "--no-cache", "--headers", str(REPO / "vendor_headers")]
        )
        err = capsys.readouterr().err
    finally:
        monkeypatch.undo()
        lexer_choice.cache_clear()
    assert code == 0
    notes = [line for line in err.splitlines() if "[lexer]" in line]
    assert len(notes) == 1 and "pycparser's own lexer" in notes[0], err


@fast_lexer_in_use
@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x17F), max_size=120))
def test_arbitrary_text(text: str) -> None:
    """Any characters at all (controls, Latin-1, quotes and backslashes where they fall)."""
    same_tokens(text, typedefs=lambda name: len(name) % 3 == 0)
