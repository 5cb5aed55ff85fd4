"""The text form's token grammar, written once: the tokens the per-line reader splits a line into,
the numbers and names it reads, and the loose expressions the batch reader splits `disasm`'s own
spelling by (a field's value, a listing's columns, a `.word`), each built from the same pieces so
the two readers agree on what a number, a name or an address is.

    INT   = [ "-" ] ( "0x" HEXDIGITS | "0" | NONZERO { DIGIT } ) ;   (no leading zeros: C octal)
    FLOAT = [ "-" ] ( DIGITS "." [ DIGITS ] [ EXP ] | DIGITS EXP | "inf" ) | "nan:0x" HEXDIGITS ;
    NAME  = ( LETTER | "_" ) { LETTER | DIGIT | "_" } ;
"""

from __future__ import annotations

import re
from typing import NoReturn

Where = tuple[int, int] | str  # (line, column), or a JSON pointer


class AsmError(ValueError):
    """Text the assembler cannot read: `where` is `line:col` (or a JSON pointer for `from_dict`)."""

    def __init__(self, message: str, where: Where) -> None:
        self.message = message
        self.where = where if isinstance(where, str) else f"{where[0]}:{where[1]}"
        super().__init__(f"{self.where}: {message}")


# -- the per-line parser's tokens ----------------------------------------------------------------

TOKEN = re.compile(
    r"nan:0[xX][0-9a-fA-F]+|-?inf\b|-?\d[\w.]*(?:(?<=[eE])[+-]\d+)?|[A-Za-z_]\w*|;.*|\S"
)
# an integer: decimal without leading zeros (C would read those as octal) or hexadecimal
NUM = r"-?(?:0|[1-9][0-9]*|0[xX][0-9a-fA-F]+)"
INT = re.compile(NUM + r"\Z")
DEC = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")  # a decimal integer (a float field reads it)
FLOAT = re.compile(
    r"-?(?:[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+|inf)\Z|nan:0[xX][0-9a-fA-F]+\Z"
)
NAME = re.compile(r"[A-Za-z_]\w*\Z")
LISTING = re.compile(
    r"\s*(?P<addr>[0-9a-fA-F]+:(?:\s+|\Z))?(?:(?P<enc>[0-9a-fA-F]{128})(?:\s+|\Z))?"
)


def is_name(tok: str) -> bool:
    return NAME.match(tok) is not None and tok != "inf"


def num_kind(tok: str) -> str | None:
    """ "int" or "float" for a number token, else None."""
    if not tok:
        return None
    c = tok[0]
    if c.isdigit() or (c == "-" and len(tok) > 1):
        return "int" if INT.match(tok) else "float" if FLOAT.match(tok) else None
    if c in "in" and FLOAT.match(tok):
        return "float"
    return None


def describe(tok: str) -> str:
    if LEADING_ZERO.match(tok):
        return (
            f"{tok!r} (a decimal with a leading zero: C would read it as octal; write it without)"
        )
    return repr(tok) if tok else "the end of the line"


LEADING_ZERO = re.compile(r"-?0[0-9]+\Z")


class Tokens:
    """The tokens of one line, read left to right. Errors locate a token by `line:col`."""

    __slots__ = ("i", "line", "lineno", "toks")

    def __init__(self, line: str, lineno: int) -> None:
        toks = TOKEN.findall(line)
        if toks and toks[-1][0] == ";":
            toks.pop()
        self.toks: list[str] = toks
        self.line, self.lineno, self.i = line, lineno, 0

    def peek(self) -> str:
        return self.toks[self.i] if self.i < len(self.toks) else ""

    def next(self) -> str:
        tok = self.peek()
        self.i += 1
        return tok

    def expect(self, text: str) -> None:
        tok = self.next()
        if tok != text:
            self.fail(f"expected {describe(text)}, found {describe(tok)}")

    def fail(self, message: str, index: int | None = None) -> NoReturn:
        """Raise AsmError at token `index` (default: the one just read)."""
        k = self.i - 1 if index is None else index
        cols = [m.start() + 1 for m in TOKEN.finditer(self.line)]
        col = cols[k] if 0 <= k < len(cols) else len(self.line.rstrip()) + 1
        raise AsmError(message, (self.lineno, col))


# -- the batch assembler's expressions: `disasm`'s own spelling, loosely ------------------------


def _chunk(depth: int) -> str:
    """A field's value as `disasm` writes it, loosely: no blank, `;` or unbalanced brace outside
    braces, braces nested at most `depth` deep (what it holds is for the parser to judge)."""
    inner = r"[^{};]*+"
    for _ in range(depth):
        inner = r"[^{};]*+(?:\{" + inner + r"\}[^{};]*+)*+"
    return r"[^\s{};]*+(?:\{" + inner + r"\}[^\s{};]*+)*+"


CHUNK = _chunk(4)
OVERRIDES = r"(@[^\s{};]*(?: @[^\s{};]*)*)"  # a statement's `@N=V` overrides, one text

LEAF = r"[^\s{};]*+"  # a leaf's value (a blank, a brace or `;` ends it)
HEAD = re.compile(r"\s*(?:[0-9a-fA-F]+:\s+)?(?:[0-9a-fA-F]{128}\s+)?(\.word|[A-Za-z_]\w*)")
END = r"\s*(?:;.*)?\Z"
WORD_TAIL = re.compile(r"\s+0x([0-9a-fA-F]{128})" + END)

ADDRESS = re.compile(rf"(sbuf|psum)\[({NUM})\]\+({NUM})\Z")


def bare_kind(value: str) -> str | None:
    """The arm of a bare union a value's text names ("float", "int" or "address"), or None."""
    if value == "nan":
        return "float"
    if INT.match(value):
        return "int"
    if FLOAT.match(value):
        return "float"
    return "address" if ADDRESS.match(value) else None
