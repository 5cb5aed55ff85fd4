"""Check the headers' `// <size> (<lo> - <hi>)` field annotations against the computed layout,
and the maintenance markers of enumerators that name one value against each other.

The compiled layout is authoritative; an annotation that disagrees is a warning (the real
headers carry a few known typos, and users should see them rather than trust them).
"""

from __future__ import annotations

from ..errors import Diagnostic, Severity
from ..frontend.comments import parse_size_annotation
from ..ir.model import EnumMember, Generation


def check_annotations(gen: Generation) -> list[Diagnostic]:
    """The field size annotations against the layout, and the maintenance markers of alias
    enumerators against each other (`check_alias_markers`)."""
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
    return out + check_alias_markers(gen)


def check_alias_markers(gen: Generation) -> list[Diagnostic]:
    """Enumerators that name one value (an alias: a second name for an existing value) whose
    maintenance markers disagree: the runtime reports the value under its first name, with the
    first marker in declaration order, and lists every name (`MemberInfo.aliases`); a
    disagreement is a warning at the later name, never a silent pick."""
    out: list[Diagnostic] = []
    for e in gen.enums:
        first: dict[int, EnumMember] = {}
        marked: dict[int, EnumMember] = {}
        for m in e.members:
            first.setdefault(m.value, m)
            if m.maintenance is None:
                continue
            seen = marked.setdefault(m.value, m)
            if seen is m or seen.maintenance is None:
                continue
            if seen.maintenance.maintained != m.maintenance.maintained:
                out.append(
                    Diagnostic(
                        f"{m.name} is another name for {e.name} value {m.value:#x} "
                        f"({first[m.value].name}); its marker '// {m.comment}' disagrees with "
                        f"{seen.name}'s '// {seen.comment}': the value is reported as "
                        f"{seen.name}'s marker says, under both names",
                        m.loc.file,
                        m.loc.line,
                        m.loc.col,
                        Severity.WARNING,
                        "alias-marker",
                    )
                )
    return out
