"""Check the headers' `// <size> (<lo> - <hi>)` field annotations against the computed layout.

The compiled layout is authoritative; an annotation that disagrees is a warning (the real
headers carry a few known typos, and users should see them rather than trust them).
"""

from __future__ import annotations

from ..errors import Diagnostic, Severity
from ..frontend.comments import parse_size_annotation
from ..ir.model import Generation


def check_annotations(gen: Generation) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for s in gen.structs:
        for f in s.fields:
            ann = parse_size_annotation(f.comment)
            if ann is None or f.bit_width is not None:
                continue
            hi = f.offset + f.size - 1
            wrong = []
            if ann.size != f.size:
                wrong.append(f"size {ann.size} (computed {f.size})")
            if ann.lo != f.offset:
                wrong.append(f"first byte {ann.lo} (computed {f.offset})")
            if ann.hi != hi:
                wrong.append(f"last byte {ann.hi} (computed {hi})")
            if wrong:
                out.append(
                    Diagnostic(
                        f"{s.name}.{f.name}: annotation '// {f.comment}' says {', '.join(wrong)}",
                        f.loc.file,
                        f.loc.line,
                        f.loc.col,
                        Severity.WARNING,
                        "annotation",
                    )
                )
    return out
