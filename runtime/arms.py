"""Which arm of a union the text form and `repr` show: presentation only, the bytes are the same
whichever it is. Read from each union class's `LAYOUT` (`layout.py`, which imports this module
for its `repr`; this module reads the classes by their attributes and imports no runtime module
that imports it back).

A generation's text form registers, for each struct and union class it reads, what the choice
depends on besides the bytes (`ArmSettings`: the partition-address mask, the headers'
`*MARKER_INDIRECT*` constants); a class no form has registered is read with the defaults.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .addressing import DEFAULT_PARTITION_ADDR_MASK
from .codec import uint

if TYPE_CHECKING:
    from .layout import FieldLayout, Union


@dataclass(frozen=True)
class ArmSettings:
    """What `choose_arm` reads besides a union's bytes, as one generation states it."""

    mask: int = DEFAULT_PARTITION_ADDR_MASK
    indirect_markers: frozenset[int] = frozenset()


DEFAULT_SETTINGS = ArmSettings()
_SETTINGS: dict[type[Any], ArmSettings] = {}  # each generation's struct and union classes


def register(classes: Iterable[type[Any]], settings: ArmSettings) -> None:
    """Read these struct classes, and every struct or union class inside them, with `settings`
    (the first generation to register a class keeps it)."""
    todo = list(classes)
    while todo:
        cls = todo.pop()
        if cls not in _SETTINGS:
            _SETTINGS[cls] = settings
            todo += [f.cls for f in cls.LAYOUT if f.kind == "struct"]


def settings_of(cls: type[Any]) -> ArmSettings:
    """The settings a generation registered for `cls`, else the defaults."""
    return _SETTINGS.get(cls, DEFAULT_SETTINGS)


def is_partition_offset(f: FieldLayout) -> bool:
    return f.c_type.endswith("PARTITION_OFFSET")


# -- choosing the arm a union shows --------------------------------------------------------------


def arm_named(u: type[Union], *words: str) -> FieldLayout | None:
    for a in u.LAYOUT:
        if any(w in a.name.lower() for w in words):
            return a
    return None


_INLINE_ARMS: dict[type[Any], FieldLayout] = {}


def inline_arm(u: type[Union]) -> FieldLayout:
    found = _INLINE_ARMS.get(u)
    if found is None:
        plain = [a for a in u.LAYOUT if not any(w in a.name.lower() for w in ("ptr", "reg"))]
        floats = [a for a in plain if a.kind == "float"]
        found = _INLINE_ARMS[u] = (floats or plain or list(u.LAYOUT))[0]
    return found


def bare_arm(u: type[Union], kind: str) -> FieldLayout:
    """The arm a value of this kind ("float", "address", other) takes when no arm is named."""
    if kind == "float":
        floats = [a for a in u.LAYOUT if a.kind == "float"]
        if len(floats) == 1:
            return floats[0]
    if kind == "address":
        for a in u.LAYOUT:
            if is_partition_offset(a):
                return a
    return u.LAYOUT[0]


def choose_arm(
    u: type[Union],
    name: str,
    b: bytes,
    base: int,
    siblings: Mapping[str, Any],
    mask: int = DEFAULT_PARTITION_ADDR_MASK,
    indirect_markers: frozenset[int] = frozenset(),
) -> FieldLayout:
    """The arm a union shows (presentation only: the text form is exact whichever it is).
    `siblings` maps the enum fields read so far in the enclosing struct to their member names.

    1. a sibling enum field `<name>_src` selects: a member naming a register (REG) shows the
       register arm, a pointer (POINTER/PTR) the pointer arm, anything else the inline (float,
       else first plain) arm;
    2. a union of a PartitionOffset and a struct (an address or a register): the address when no
       bit above the partition-address mask is set, else the struct; a union with a float arm
       and no selector: the inline arm;
    3. a struct arm whose C type says INDIRECT when the first address's marker byte is one of
       the headers' `*MARKER_INDIRECT*` constants;
    4. else the first arm (C's default member)."""
    label = siblings.get(f"{name}_src")
    if isinstance(label, str):
        if "REG" in label:
            arm = arm_named(u, "reg")
        elif "POINTER" in label or "PTR" in label:
            arm = arm_named(u, "ptr")
        else:
            arm = inline_arm(u)
        if arm is not None:
            return arm
    po, st, floats, ind = _shape(u)
    if po is not None and st is not None and len(u.LAYOUT) == 2:
        return po if uint(b, base, po.size) & ~mask == 0 else st
    if floats:
        return inline_arm(u)
    if indirect_markers and ind is not None and u.SIZE > 3 and b[base + 3] in indirect_markers:
        return ind
    return u.LAYOUT[0]


_SHAPES: dict[type[Any], tuple[FieldLayout | None, FieldLayout | None, bool, FieldLayout | None]]
_SHAPES = {}


def _shape(
    u: type[Union],
) -> tuple[FieldLayout | None, FieldLayout | None, bool, FieldLayout | None]:
    """What `choose_arm` looks for in a union's arms: its first PartitionOffset arm, its first
    struct arm, whether an arm is a float, its first INDIRECT struct arm (found once)."""
    found = _SHAPES.get(u)
    if found is None:
        found = _SHAPES[u] = (
            next((a for a in u.LAYOUT if is_partition_offset(a)), None),
            next((a for a in u.LAYOUT if a.kind == "struct"), None),
            any(a.kind == "float" for a in u.LAYOUT),
            next((a for a in u.LAYOUT if "INDIRECT" in a.c_type and a.kind == "struct"), None),
        )
    return found
