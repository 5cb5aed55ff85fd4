"""Diff-audit: what changed between two generations or two header drops, and what it breaks.

diff.py      IR(old) x IR(new) -> raw changes, with the file:line of both sides
facts.py     what diff reads of one generation (body hashes, identifiers read, terms, call-site
             signs, stale JSON names), computed once and kept in tpbgen's data-only cache
terms.py     validator bodies as predicate terms (the unit validator changes are shown in)
classify.py  changes -> findings: encoding-breaking | api-breaking | additive | informational
report.py    findings -> text | Markdown | JSON (report.schema.json) | one self-contained HTML page
command.py   `tpbgen audit OLD NEW` and `tpbgen audit --all`
"""

from __future__ import annotations

from ..ir.model import Generation


def render_audit_markdown(
    gens: list[Generation], firmware: dict[str, dict[int, tuple[str, str]]] | None = None
) -> str:
    """The audit of consecutive generations (sunda -> cayman -> mariana -> maverick) as Markdown:
    deterministic, labelled by generation name, with no timestamps and no absolute paths (every
    file is named relative to the header root). `tpbgen generate` writes it to generated/AUDIT.md.
    `firmware`: the drop's firmware overlay per generation (opcode -> (state, note)), if any."""
    from dataclasses import replace

    from .report import render
    from .run import audit_walk

    return render(replace(audit_walk(gens), firmware=firmware or {}), "md")


__all__ = ["render_audit_markdown"]
