"""The GNU C the headers are written in, reduced to the ISO C pycparser reads.

pycparser does not parse `__attribute__((...))`. This pass blanks every attribute out of the
preprocessed text (keeping every line and column where it was, so coordinates stay true) and
records what it meant: `packed` and `aligned(N)` for the declaration named by the identifier
that follows the attribute (`} NEURON_ISA_PACKED NEURON_ISA_TPB_X;` and `struct __attribute__((packed)) X {`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import Diagnostic, Severity

_ATTR = re.compile(r"__attribute__\s*\(\(")
_IDENT = re.compile(r"\s*(?:(?:struct|union|enum)\s+)?([A-Za-z_]\w*)")
_LINE_MARKER = re.compile(r'^#\s*(?:line\s+)?(\d+)\s+"((?:[^"\\]|\\.)*)"', re.M)


def source_position(text: str, offset: int, relpath: Callable[[str], str] = str) -> tuple[str, int]:
    """The header file and line that preprocessed `text` at `offset` came from, by the last
    line marker (`# N "file"`) before it; ("<preprocessed>", line) when there is none."""
    line = text.count("\n", 0, offset) + 1
    last = None
    for m in _LINE_MARKER.finditer(text, 0, offset):
        last = m
    if last is None:
        return "<preprocessed>", line
    marker_line = text.count("\n", 0, last.start()) + 1
    return relpath(last.group(2)), int(last.group(1)) + line - marker_line - 1


@dataclass
class DialectInfo:
    packed: set[str] = field(default_factory=set)
    aligned: dict[str, int] = field(default_factory=dict)
    warnings: list[Diagnostic] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)
    # member-level attributes (`uint32_t v __attribute__((packed, aligned(8)));`), by the
    # member's (file, line, name): (packed, aligned or 0)
    members: dict[tuple[str, int, str], tuple[bool, int]] = field(default_factory=dict)


def _specs(inner: str) -> list[str]:
    """The attributes of one `__attribute__((...))`, split at the commas outside parentheses
    and string literals (`aligned(sizeof(T) * 2)`, `deprecated("use (X), not Y")`)."""
    out, depth, quote, cur = [], 0, "", []
    i = 0
    while i < len(inner):
        c = inner[i]
        if quote:
            if c == "\\":
                cur.append(inner[i : i + 2])
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    out.append("".join(cur).strip())
    return [s for s in out if s]


_SIZEOF = re.compile(r"\b(?:sizeof|_Alignof|__alignof__|__alignof)\s*\(\s*([A-Za-z_][\w ]*?)\s*\)")


def _alignment(arg: str) -> int | None:
    """The value of an `aligned(...)` argument: an integer constant expression of literals and
    `sizeof`/`_Alignof` of scalar types (every scalar's alignment is its size), folded by the
    IR's own evaluator with C's rules; None when it holds anything else or is no power of two."""
    from pycparser import c_ast, c_parser

    from ..ir.consteval import ConstEvaluator, NotConstant
    from ..ir.ctypes import STDINT, scalar

    def size(m: re.Match[str]) -> str:
        words = m.group(1).split()
        s = STDINT.get(words[0]) if len(words) == 1 and words[0] in STDINT else scalar(words)
        if s is None or s.size == 0:
            raise ValueError(m.group(1))
        return f"{s.size}UL"  # (sizeof's type)

    def nothing(*_: object) -> int:
        raise NotConstant("not an integer constant expression")

    try:
        expr = _SIZEOF.sub(size, arg)
        unit = c_parser.CParser().parse(f"unsigned long long _tpbgen_aligned = ({expr});")
        (decl,) = unit.ext
        if not isinstance(decl, c_ast.Decl) or decl.init is None:
            return None
        value = ConstEvaluator(lambda _: None, nothing, nothing).eval_int(decl.init)
    except (ValueError, NotConstant, c_parser.ParseError, RecursionError):
        return None
    return value if value > 0 and value & (value - 1) == 0 else None


def _prev_token(text: str, start: int) -> str:
    """The identifier or punctuator just before `start` ("" at the start)."""
    i = start - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    if i < 0:
        return ""
    if text[i].isalnum() or text[i] == "_":
        j = i
        while j >= 0 and (text[j].isalnum() or text[j] == "_"):
            j -= 1
        return text[j + 1 : i + 1]
    return text[i]


def _next_char(text: str, end: int) -> str:
    i = end
    while i < len(text) and text[i].isspace():
        i += 1
    return text[i] if i < len(text) else ""


_AFTER_BRACES = re.compile(
    r"\s*(?:__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)\s*)*([A-Za-z_]\w*)"
)
_TAG_BEFORE = re.compile(r"(?:struct|union|enum)\s+([A-Za-z_]\w*)\s*$")


def _matching(text: str, at: int, step: int) -> int:
    """The index of the brace matching the one at `at` (step 1: forward, -1: backward)."""
    depth, i = 0, at
    opening, closing = ("{", "}") if step > 0 else ("}", "{")
    while 0 <= i < len(text):
        if text[i] == opening:
            depth += 1
        elif text[i] == closing:
            depth -= 1
            if depth == 0:
                return i
        i += step
    return -1


def _target(text: str, start: int, end: int) -> tuple[str, bool]:
    """What an attribute at text[start:end] applies to: (name, is a member or declarator).
    The type or typedef named after it (`} ATTR NAME;`, `struct ATTR TAG {`); the typedef name
    after the braces it opens (`struct ATTR { ... } NAME;`); the tag before the braces it closes
    (`enum TAG { ... } ATTR;`); or the declarator before it (`uint32_t v ATTR;`)."""
    after = _IDENT.match(text, end)
    if after:
        return after.group(1), False
    nxt = _next_char(text, end)
    if nxt == "{":
        close = _matching(text, text.index("{", end), 1)
        named = _AFTER_BRACES.match(text, close + 1) if close >= 0 else None
        return (named.group(1) if named else ""), False
    prev = _prev_token(text, start)
    if prev == "}" and nxt == ";":
        open_ = _matching(text, text.rindex("}", 0, start), -1)
        tag = _TAG_BEFORE.search(text, max(0, open_ - 200), open_) if open_ >= 0 else None
        return (tag.group(1) if tag else ""), False
    if prev and (prev[0].isalpha() or prev[0] == "_") and nxt in (";", ",", "=", ":", "["):
        return prev, True
    return "", False


def _matching_close(text: str, start: int) -> int:
    """Index just past the `))` that closes the `__attribute__((` opened before `start`."""
    depth = 2
    i = start
    while i < len(text) and depth:
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
        i += 1
    return i


def reduce_dialect(text: str, relpath: Callable[[str], str] = str) -> tuple[str, DialectInfo]:
    """`text` with every GNU `__attribute__((...))` blanked (newlines kept, so coordinates do not
    move), and what they said that tpbgen models (packed, aligned(N), by declaration); an
    attribute it does not model is a warning."""
    info = DialectInfo()
    out = []
    pos = 0
    for m in _ATTR.finditer(text):
        if m.start() < pos:
            continue
        end = _matching_close(text, m.end())
        inner = text[m.end() : end - 2]
        target, member = _target(text, m.start(), end)
        for spec in _specs(inner):
            name = spec.strip("_ ").split("(")[0].strip().strip("_")
            if name in ("packed", "aligned"):
                value = 0
                if name == "aligned":
                    arg = spec[spec.index("(") + 1 : spec.rindex(")")] if "(" in spec else ""
                    value = (
                        (_alignment(arg) or 0) if arg else 16
                    )  # bare `aligned`: the target's largest
                    if not value:
                        file, line = source_position(text, m.start(), relpath)
                        info.errors.append(
                            Diagnostic(
                                f"'{spec}': tpbgen evaluates an alignment of integer constants "
                                "and sizeof/_Alignof of scalar types, and this is not one",
                                file,
                                line,
                                0,
                                Severity.ERROR,
                                "attribute",
                            )
                        )
                        continue
                if member:
                    file, line = source_position(text, m.start(), relpath)
                    was = info.members.get((file, line, target), (False, 0))
                    info.members[(file, line, target)] = (
                        was[0] or name == "packed",
                        max(was[1], value),
                    )
                elif name == "packed":
                    info.packed.add(target)
                else:
                    info.aligned[target] = max(info.aligned.get(target, 0), value)
            else:
                file, line = source_position(text, m.start(), relpath)
                info.warnings.append(
                    Diagnostic(
                        f"attribute '{spec}' ignored (no layout meaning to tpbgen)",
                        file,
                        line,
                        0,
                        Severity.WARNING,
                        "attribute",
                    )
                )
        out.append(text[pos : m.start()])
        # Blank the attribute but keep its newlines so later coordinates do not move.
        out.append("".join(c if c == "\n" else " " for c in text[m.start() : end]))
        pos = end
    out.append(text[pos:])
    return "".join(out), info
