"""The base class of the generated enums: an IntEnum whose members know where they come from.

A generated enum declares its members; the generated module then attaches one `MemberInfo` per
member (`set_info`) from compact tables: the header file, each member's line, and the comments
and maintenance markers of the members that have them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum


@dataclass(frozen=True)
class MemberInfo:
    """Where an enumerator comes from and what its header comment says about it."""

    c_name: str
    file: str
    line: int
    comment: str
    maintained: bool | None  # None: no maintenance marker in the comment
    note: str
    aliases: tuple[str, ...] = ()  # the other C names of the same value, in declaration order


_INFO: dict[type[IntEnum], dict[int, MemberInfo]] = {}


class InfoEnum(IntEnum):
    """An IntEnum generated from a C enum; `info` says where each member is declared."""

    @property
    def info(self) -> MemberInfo:
        return _INFO[type(self)][self.value]

    @property
    def c_name(self) -> str:
        return self.info.c_name


def set_info(
    cls: type[InfoEnum],
    file: str,
    prefix: str,
    lines: Sequence[int],
    *,
    c_names: Mapping[str, str] | None = None,
    comments: Sequence[str] | None = None,
    maintained: Sequence[bool | None] | None = None,
    notes: Mapping[str, str] | None = None,
) -> None:
    """Attach the members' info. `lines`, `comments` and `maintained` (None: no maintenance
    marker) run in declaration order, aliases included; a member's C name is `prefix` + its
    Python name unless `c_names` says otherwise (a name the naming rule had to escape); `notes`
    (the text after a `n,` marker) only for the members that have one.

    A value two or more enumerators share (an alias: a second name for an existing value) is one
    member, named as Python names it, by the name declared first; its info is that name's (C
    name, file, line, comment) and lists the other names in `aliases`. Its maintenance marker and
    note are those of the first of its names that has a marker (tpbgen generate warns, at the
    alias, where two names' markers disagree)."""
    members = list(cls.__members__.items())
    n = len(members)
    comments = comments or [""] * n
    maintained = maintained or [None] * n
    if not len(lines) == len(comments) == len(maintained) == n:
        raise ValueError(f"{cls.__name__}: the info tables do not have one entry per member")
    c_names, notes = c_names or {}, notes or {}
    names: dict[int, list[int]] = {}  # each value's declarations, by position
    for k, (_, m) in enumerate(members):
        names.setdefault(m.value, []).append(k)
    table: dict[int, MemberInfo] = {}
    for value, ks in names.items():
        first = ks[0]
        marked = next((k for k in ks if maintained[k] is not None), first)
        c_name = [c_names.get(members[k][0], prefix + members[k][0]) for k in ks]
        table[value] = MemberInfo(
            c_name[0],
            file,
            lines[first],
            comments[first],
            maintained[marked],
            notes.get(members[marked][0], ""),
            tuple(c_name[1:]),
        )
    _INFO[cls] = table
