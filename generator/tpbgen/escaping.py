"""Text from the headers (and from the drop's JSON) as each output format must hold it: one
escaping function per target, so no header comment reaches a rendered page as markup.

- Markdown (README.md, AUDIT.md, the audit's md report): `markdown_text`, the Jinja filter `md`.
- HTML (the audit page): Jinja's autoescape of `.html.j2` templates (markupsafe's `escape`).
- Python source: the emitters' own literal printers (`templating.pyfmt`, `repr`), not here.
"""

from __future__ import annotations

import re

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
# every character with a meaning in inline Markdown or a GFM table cell, backslash-escaped
# (`&` too: `&lt;` would otherwise become `<`); line ends would end a table row
_MD_ESCAPES = str.maketrans(
    {
        **{ch: "\\" + ch for ch in "\\`*_[]<>|&"},
        **{ch: " " for ch in "\r\n\x0b\x0c\x85\u2028\u2029"},
    }
)


def markdown_plain(s: str) -> str:
    """`s` as literal inline Markdown text: every markup character escaped, on one line."""
    return s.translate(_MD_ESCAPES)


def markdown_text(text: object) -> str:
    """Inline Markdown for text from the headers: identifiers with an underscore become code
    spans (as the headers' names read best), the rest is escaped (`markdown_plain`), so HTML,
    links, emphasis or a table's `|` in a comment are shown as written, never rendered."""
    out: list[str] = []
    pos = 0
    s = str(text)
    for m in _IDENT.finditer(s):
        out.append(markdown_plain(s[pos : m.start()]))
        tok = m.group(0)
        out.append(f"`{tok}`" if "_" in tok else markdown_plain(tok))
        pos = m.end()
    out.append(markdown_plain(s[pos:]))
    return "".join(out)
