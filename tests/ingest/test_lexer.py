"""tpbgen's lexer (frontend/lexer.py) gives exactly pycparser's tokens: type, value, line, column
and file of every token, every error reported (message and place) and every brace callback, in
the same order, on every header text in the repository (as written and preprocessed) and on
generated soups of the spellings its shortcuts are about (prefixed literals, `$` names, `.5`,
comments, line markers, pragmas, stray characters). Its guard gives pycparser's own lexer for any
other pycparser lexer file."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pycparser import c_lexer

from tpbgen.frontend import lexer as lexer_mod
from tpbgen.frontend.dialect import reduce_dialect
from tpbgen.frontend.discover import discover
from tpbgen.frontend.lexer import FastLexer, lexer_class
from tpbgen.frontend.preprocess import preprocess

REPO = Path(__file__).resolve().parents[2]

fast_lexer_in_use = pytest.mark.skipif(
    lexer_class() is not FastLexer,
    reason="the installed pycparser lexer is not the one FastLexer was verified against: "
    "tpbgen lexes with pycparser's own (test_the_guard covers that choice)",
)


def run(cls: type[Any], text: str, typedefs: Callable[[str], bool]) -> list[tuple[Any, ...]]:
    """Everything a lexer tells its parser, in order."""
    events: list[tuple[Any, ...]] = []
    lx = cls(
        lambda msg, line, col: events.append(("error", msg, line, col)),
        lambda: events.append(("{",)),
        lambda: events.append(("}",)),
        typedefs,
    )
    lx.input(text, "<text>")
    for _ in range(len(text) + 2):  # (each token consumes a character at least)
        try:
            tok = lx.token()
        except Exception as exc:  # (pycparser's own: `# 5u "f.h"` is int("5u")): the same one
            events.append(("raised", type(exc).__name__, str(exc)))
            break
        if tok is None:
            break
        events.append((tok.type, tok.value, tok.lineno, tok.column, lx.filename))
    else:
        raise AssertionError("the lexer did not end")
    return events


def same_tokens(text: str, typedefs: Callable[[str], bool] = lambda name: False) -> None:
    assert run(FastLexer, text, typedefs) == run(c_lexer.CLexer, text, typedefs)


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


def test_the_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """FastLexer only with the pycparser lexer file it was verified against; any other (another
    version, a local patch, a file that cannot be read, one without the tables FastLexer reads)
    gets pycparser's own."""
    installed = hashlib.sha256(Path(c_lexer.__file__).read_bytes()).hexdigest()
    lexer_class.cache_clear()
    try:
        expected = FastLexer if installed == lexer_mod.VERIFIED_LEXER_SHA256 else c_lexer.CLexer
        assert lexer_class() is expected
        monkeypatch.setattr(lexer_mod, "VERIFIED_LEXER_SHA256", installed)
        lexer_class.cache_clear()
        assert lexer_class() is FastLexer
        monkeypatch.setattr(lexer_mod, "VERIFIED_LEXER_SHA256", "0" * 64)
        lexer_class.cache_clear()
        assert lexer_class() is c_lexer.CLexer
        monkeypatch.setattr(lexer_mod, "VERIFIED_LEXER_SHA256", installed)
        monkeypatch.setattr(lexer_mod, "_Token", None)  # a table FastLexer reads, gone
        lexer_class.cache_clear()
        assert lexer_class() is c_lexer.CLexer
        monkeypatch.undo()
        monkeypatch.setattr(lexer_mod, "VERIFIED_LEXER_SHA256", installed)
        monkeypatch.setattr(c_lexer, "__file__", "/nonexistent/c_lexer.py")
        lexer_class.cache_clear()
        assert lexer_class() is c_lexer.CLexer
    finally:
        monkeypatch.undo()
        lexer_class.cache_clear()


@fast_lexer_in_use
@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x17F), max_size=120))
def test_arbitrary_text(text: str) -> None:
    """Any characters at all (controls, Latin-1, quotes and backslashes where they fall)."""
    same_tokens(text, typedefs=lambda name: len(name) % 3 == 0)
