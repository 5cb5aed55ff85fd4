"""Comments harvested from the original header lines, by the coordinates the parser reports.

The preprocessor drops comments, but in these headers comments carry meaning: the maintenance
marker on each opcode (`// Y`, `// n, use TensorScalarArithOp instead`), the `// size (lo - hi)`
annotation on each field, the usage notes above each struct and the Rust-style `// fn` specs.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..errors import TpbgenError
from ..input_files import read_regular
from ..ir.model import Loc, Maintenance, SpecComment

_SPEC_START = re.compile(r"^\s*//\s*fn\s+([A-Za-z_]\w*)\s*\(")
# Line ends as the C preprocessor counts them: LF, CR LF and a lone CR. Form feed, vertical tab,
# U+0085 and U+2028 are not line ends to cpp (str.splitlines() would count them, and shift every
# marker after them onto the wrong line).
_LINE_END = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of a header as cpp numbers them (line n is element n - 1)."""
    lines = text.split("\n") if "\r" not in text else _LINE_END.split(text)  # (LF alone: faster)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


_SECTION = re.compile(r"^\s*//\*\s*(\S+)")


class SourceLines:
    """The lines of every header of one tree, read once."""

    def __init__(self, root: Path, texts: Mapping[str, bytes] | None = None) -> None:
        """`texts`: headers' bytes already read, by relative path (others are read from disk)."""
        self._root = root
        self._texts = texts or {}
        self._cache: dict[str, list[str]] = {}
        self._sections: dict[str, tuple[list[int], list[str]]] = {}  # `//*` marker lines, names

    def lines(self, rel: str) -> list[str]:
        """The lines of header `rel` (relative to the tree), line ends as cpp counts them; [] for a
        header that cannot be read."""
        if rel not in self._cache:
            data = self._texts.get(rel)
            if data is None:
                try:
                    data = read_regular(self._root / rel, rel)
                except (OSError, TpbgenError):
                    data = b""
            self._cache[rel] = split_lines(data.decode("utf-8", errors="replace"))
        return self._cache[rel]

    def line(self, rel: str, lineno: int) -> str:
        """Line `lineno` (1-based) of header `rel`; "" when there is no such line."""
        ls = self.lines(rel)
        return ls[lineno - 1] if 0 < lineno <= len(ls) else ""

    def trailing_comment(self, rel: str, lineno: int) -> str:
        """The comment that ends line `lineno` (`// ...` or `/* ... */`), without its markers and outer
        blanks; "" when none."""
        text = self.line(rel, lineno)
        idx = _comment_start(text)
        if idx >= 0:
            return text[idx + 2 :].strip()
        stripped = text.rstrip()
        if stripped.endswith("*/"):
            start = stripped.rfind("/*")
            if start >= 0 and _comment_start(stripped[:start]) < 0:
                return stripped[start + 2 : -2].strip().strip("*").strip()
        return ""

    def doc_above(self, rel: str, lineno: int) -> str:
        """The comment block directly above line `lineno` (no blank line between), markers stripped."""
        ls = self.lines(rel)
        if not 0 < lineno <= len(ls) + 1:  # not a line of this file (a marker tpbgen cannot follow)
            return ""
        i = lineno - 2
        block: list[str] = []
        in_block_comment = False
        while i >= 0:
            s = ls[i].strip()
            if s.endswith("*/") and not s.startswith("//"):
                in_block_comment = True
            if in_block_comment:
                block.append(s)
                if s.startswith("/*"):
                    in_block_comment = False
                i -= 1
                continue
            if s.startswith("//") and not _SPEC_START.match(s) and not _SECTION.match(s):
                block.append(s)
                i -= 1
                continue
            break
        block.reverse()
        return "\n".join(_strip_markers(s) for s in block).strip("\n")

    def spec_comments(self, rel: str) -> list[SpecComment]:
        """Every `// fn name(...)` comment block in header `rel`: the function it specifies, where
        it starts, its last line and its text without markers."""
        ls = self.lines(rel)
        out: list[SpecComment] = []
        end = -1  # the last line of the block found last
        for i in [k for k, line in enumerate(ls) if "fn" in line]:  # (the test first: cheaper)
            if i <= end:
                continue
            m = _SPEC_START.match(ls[i])
            if not m:
                continue
            j = i
            while (
                j + 1 < len(ls) and ls[j].strip() != "// }" and ls[j + 1].strip().startswith("//")
            ):
                j += 1
            text = "\n".join([_strip_markers(s.strip()) for s in ls[i : j + 1]])
            out.append(SpecComment(m.group(1), Loc(rel, i + 1, 1), j + 1, text))
            end = j
        return out

    def section_at(self, rel: str, lineno: int) -> str:
        """The last `//* name` section marker at or above line `lineno`."""
        marks = self._sections.get(rel)
        if marks is None:
            found = [
                (i + 1, m.group(1))
                for i, text in enumerate(self.lines(rel))
                if "//*" in text and (m := _SECTION.match(text))
            ]
            marks = self._sections[rel] = ([ln for ln, _ in found], [nm for _, nm in found])
        at = bisect.bisect_right(marks[0], lineno) - 1
        return marks[1][at] if at >= 0 else ""

    def banner(self, rel: str) -> str:
        """The line of the file's leading comment block that names the core (`... NC-vN ...`),
        wherever it stands in the block (an SPDX or copyright line may come first); else the
        block's third line, as the drop has it."""
        block: list[str] = []
        in_block = False
        for raw in self.lines(rel):
            s = raw.strip()
            if in_block or s.startswith(("/*", "//")):
                block.append(_strip_markers(s).strip())
                in_block = (in_block or s.startswith("/*")) and "*/" not in s
                continue
            if s:
                break
        named = next((b for b in block if "NC-v" in b), None)
        if named is not None:
            return named
        return block[2] if len(block) > 2 else ""


def _comment_start(text: str) -> int:
    """Index of the `//` that starts a comment on this line, outside string and char literals."""
    if "/" not in text:
        return -1
    if '"' in text or "'" in text:
        return _comment_start_quoted(text)
    i = 0
    while True:  # no literals on the line: the first `//` outside a `/* */`
        j = text.find("/", i)
        if j < 0 or j >= len(text) - 1:
            return -1
        if text[j + 1] == "/":
            return j
        if text[j + 1] == "*":
            end = text.find("*/", j + 2)
            if end < 0:
                return -1
            i = end + 2
        else:
            i = j + 1


def _comment_start_quoted(text: str) -> int:
    quote = ""
    i = 0
    while i < len(text) - 1:
        c = text[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif text.startswith("//", i):
            return i
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                return -1
            i = end + 2
            continue
        i += 1
    return -1


def _strip_markers(s: str) -> str:
    for prefix in ("///", "//", "/**", "/*", "*/", "*"):
        if s.startswith(prefix):
            s = s[len(prefix) :]
            break
    if s.endswith("*/"):
        s = s[:-2]
    return s[1:] if s.startswith(" ") else s


_MARKER = re.compile(r"^(?P<m>[YyNn])(?:\s*,\s*(?P<note>.*))?$")


def parse_maintenance(comment: str) -> Maintenance | None:
    """`Y` -> maintained; `n, <note>` -> not maintained with its note. The marker may follow
    other text in its own `//` segment (`SortMerge wip 0x97 // Y`): the last segment decides."""
    if not comment:
        return None
    for segment in reversed([s.strip() for s in comment.split("//")]):
        m = _MARKER.match(segment)
        if m:
            marker = m.group("m")
            return Maintenance(marker.upper() == "Y", marker, (m.group("note") or "").strip())
    return None


@dataclass(frozen=True)
class SizeAnnotation:
    """A parsed `// <size> (<lo> - <hi>)` or `// <size> (<lo>)` field annotation."""

    size: int
    lo: int
    hi: int


_ANNOT = re.compile(r"^(?P<size>\d+)\s*\(\s*(?P<lo>\d+)\s*(?:-\s*(?P<hi>\d+)\s*)?\)")


def parse_size_annotation(comment: str) -> SizeAnnotation | None:
    """The field annotation a comment starts with, `<size> (<lo> - <hi>)` or `<size> (<lo>)` (hi is
    then lo); None when it starts with none."""
    m = _ANNOT.match(comment)
    if not m:
        return None
    lo = int(m.group("lo"))
    hi = int(m.group("hi")) if m.group("hi") is not None else lo
    return SizeAnnotation(int(m.group("size")), lo, hi)
