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
    info = DialectInfo()
    out = []
    pos = 0
    for m in _ATTR.finditer(text):
        if m.start() < pos:
            continue
        end = _matching_close(text, m.end())
        inner = text[m.end() : end - 2]
        after = _IDENT.match(text, end)
        target = after.group(1) if after else ""
        for spec in (s.strip() for s in inner.split(",") if s.strip()):
            name = spec.strip("_ ").split("(")[0].strip("_")
            if name == "packed":
                info.packed.add(target)
            elif name == "aligned":
                arg = re.search(r"\((\d+)\)", spec)
                info.aligned[target] = int(arg.group(1)) if arg else 16
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
