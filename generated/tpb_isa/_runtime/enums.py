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
    (the text after a `n,` marker) only for the members that have one. A value two members share
    gets the info of the one declared last, as in C's enumerator order."""
    members = list(cls.__members__.items())
    n = len(members)
    comments = comments or [""] * n
    maintained = maintained or [None] * n
    if not len(lines) == len(comments) == len(maintained) == n:
        raise ValueError(f"{cls.__name__}: the info tables do not have one entry per member")
    c_names, notes = c_names or {}, notes or {}
    table: dict[int, MemberInfo] = {}
    for k, (name, m) in enumerate(members):
        c_name = c_names.get(name, prefix + name)
        table[m.value] = MemberInfo(
            c_name, file, lines[k], comments[k], maintained[k], notes.get(name, "")
        )
    _INFO[cls] = table
