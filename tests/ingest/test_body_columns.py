"""The columns of function-body nodes are read off the original header line (frontend/build.py
`body_column`): a statement's keyword at its first place, a name, constant or call only when it
is spelled once on the line (member names after `.` or `->` are not names of the function).

`line_token_columns` indexes a line in one regular-expression pass; these tests hold it to the
plain scan it replaced (kept here as the reference) and check the columns an ingest records."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tpb_paths import HEADER_ROOT
from tpbgen.frontend.build import line_token_columns
from tpbgen.frontend.ingest import ingest_root

from .synth import OPS, make_tree

_TOKEN = re.compile(r"[LuU]?'(?:[^'\\\n]|\\.)*'|\.?\d(?:[eEpP][+-]|[\w.])*|[A-Za-z_]\w*")


def reference_columns(text: str) -> dict[str, list[int]]:
    """The plain scan: every token, skipping a name whose last non-blank predecessor is `.` or
    `->`; all its 1-based columns."""
    tokens: dict[str, list[int]] = {}
    for m in _TOKEN.finditer(text):
        j = m.start() - 1
        while j >= 0 and text[j] in " \t":
            j -= 1
        first = m.group(0)[0]
        if (
            (first.isalpha() or first == "_")
            and j >= 0
            and (text[j] == "." or text[j - 1 : j + 1] == "->")
        ):
            continue
        tokens.setdefault(m.group(0), []).append(m.start() + 1)
    return tokens


def encoded(reference: dict[str, list[int]]) -> dict[str, int]:
    return {tok: cols[0] if len(cols) == 1 else -cols[0] for tok, cols in reference.items()}


# Pieces of C body lines, the awkward ones included: members with and without blanks, `->` next
# to `--`/`>`, numbers with dots and exponents, character constants (escaped quotes, prefixes),
# string literals holding dots, keywords, comments.
_PIECES = [
    "x",
    "y",
    "h",
    "len",
    "return",
    "if",
    "for",
    "while",
    "_u",
    "L",
    "u",
    "U",
    "e5",
    ".",
    "->",
    "-",
    ">",
    "--",
    " ",
    "\t",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    "==",
    "&&",
    "0",
    "16",
    "1.5",
    ".5",
    "1e+3",
    "0x1.p-3",
    "0xffU",
    "'a'",
    "'\\''",
    "L'x'",
    "u'\\n'",
    "'",
    '"',
    '"a.b"',
    "\\",
    "/*",
    "*/",
    "//",
    "h.len",
    "h . len",
    "p->x",
    "p -> x",
    "a-->b",
    "x.y.z",
]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=24))
def test_the_one_pass_index_agrees_with_the_plain_scan(pieces: list[str]) -> None:
    line = "".join(pieces)
    assert line_token_columns(line) == encoded(reference_columns(line))


def test_every_line_of_the_vendored_drop_indexes_as_the_plain_scan_does() -> None:
    lines = [t for h in sorted(HEADER_ROOT.rglob("*.h")) for t in h.read_text().splitlines()]
    assert len(lines) > 10_000
    for line in lines:
        assert line_token_columns(line) == encoded(reference_columns(line)), line


def test_member_names_and_repeats() -> None:
    line = "    if (h.len == len && p->x == x(len)) return h . opcode;"
    cols = line_token_columns(line)
    assert cols["if"] == 5 and cols["return"] == line.index("return") + 1
    assert cols["len"] < 0 and cols["x"] == line.index("x(") + 1  # `len` twice; `->x` a member
    assert "opcode" not in cols and cols["h"] < 0


def test_an_ingest_records_the_columns(tmp_path: Path) -> None:
    ops = OPS.replace(
        "    return( is_alpha(h) && (h.len == 16) );\n",
        "    if (h.len == 16) return is_alpha(h);\n    return( h.half == 16 && h.len == 0 );\n",
    )
    make_tree(tmp_path, ops=ops)
    gen = ingest_root(tmp_path, use_cache=False)[0].gen
    fn = next(f for f in gen.functions if f.name == "is_valid_header")
    rel = "neuron_synth_arch_isa/tpb/aws_neuron_isa_tpb_ops.h"
    text = (tmp_path / rel).read_text().splitlines()
    one = next(i for i, t in enumerate(text, 1) if "if (h.len == 16)" in t)
    two = one + 1

    seen: set[tuple[str, str, int, int]] = set()  # (class, name or value, line, column)

    def walk(node: object) -> None:
        if isinstance(node, dict):
            _, line, col = node["coord"].rsplit(":", 2)
            seen.add((node["_t"], str(node.get("name", node.get("value"))), int(line), int(col)))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(fn.body)

    def col(line: int, s: str) -> int:
        return text[line - 1].index(s) + 1

    assert ("If", "None", one, col(one, "if")) in seen
    assert ("Return", "None", one, col(one, "return")) in seen
    assert ("Return", "None", two, col(two, "return")) in seen
    assert ("ID", "is_alpha", one, col(one, "is_alpha")) in seen  # spelled once
    assert ("Constant", "16", one, col(one, "16")) in seen
    assert ("Constant", "16", two, col(two, "16")) in seen
    assert ("Constant", "0", two, col(two, " 0 ") + 1) in seen
    # `h` is spelled twice on each line: not placed; `len` and `half` are members
    assert {c for t, n, line, c in seen if n in ("h", "len", "half")} == {0}
