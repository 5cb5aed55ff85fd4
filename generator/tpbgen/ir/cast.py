"""pycparser AST <-> plain JSON-able dicts, so function bodies travel inside the IR.

Each node becomes `{"_t": <class name>, "coord": "file:line:col", <attr>: value, <child>: node}`;
list children become lists. `from_dict` rebuilds real `pycparser.c_ast` nodes, so the translator
works on the pycparser AST itself.

An attribute whose value is an empty list is left out, and comes back as `[]`; so is an empty
`attributes` child (pycparser 3.12 attaches GNU attributes to nodes; tpbgen blanks every
attribute before parsing, so that list is always empty). The IR must not depend on the
pycparser version installed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pycparser import c_ast
from pycparser.c_parser import Coord

from .body import _COL_BITS, _COL_MASK
from .body import slots as body_slots


def _child_slots(node: c_ast.Node) -> list[str]:
    return [
        s for s in node.__slots__ if s not in ("coord", "__weakref__") and s not in node.attr_names
    ]


Column = Callable[[c_ast.Node, str, int], int]  # (node, relative file, line) -> column, 0 unknown


def to_dict(
    node: c_ast.Node,
    relpath: Callable[[str], str],
    keep_columns: bool = True,
    column: Column | None = None,
) -> dict[str, Any]:
    """`keep_columns=False` writes column 0, or what `column` finds for the node on the original
    line: columns inside macro-expanded text depend on the preprocessor, lines do not."""
    out: dict[str, Any] = {"_t": type(node).__name__}
    if node.coord is not None:
        file = relpath(node.coord.file)
        col = (
            (node.coord.column or 0)
            if keep_columns
            else column(node, file, node.coord.line)
            if column is not None
            else 0
        )
        out["coord"] = f"{file}:{node.coord.line}:{col}"
    for a in node.attr_names:
        v = getattr(node, a)
        if v != []:
            out[a] = v
    for slot in _child_slots(node):
        v = getattr(node, slot)
        if slot == "attributes" and not v:
            continue
        if v is None:
            out[slot] = None
        elif isinstance(v, list):
            out[slot] = [to_dict(x, relpath, keep_columns, column) for x in v]
        else:
            out[slot] = to_dict(v, relpath, keep_columns, column)
    return out


def from_dict(d: dict[str, Any]) -> c_ast.Node:
    """The pycparser node `to_dict` wrote as `d`, children rebuilt recursively, a missing list
    attribute as [] and the coordinate from its `file:line:col` text."""
    cls = getattr(c_ast, d["_t"])
    kwargs: dict[str, Any] = {}
    attrs = set(cls.attr_names)
    for slot in cls.__slots__:
        if slot in ("coord", "__weakref__"):
            continue
        v = d.get(slot, [] if slot in attrs else None)
        if isinstance(v, dict) and "_t" in v:
            kwargs[slot] = from_dict(v)
        elif isinstance(v, list) and v and isinstance(v[0], dict) and "_t" in v[0]:
            kwargs[slot] = [from_dict(x) for x in v]
        else:
            kwargs[slot] = v
    coord = None
    if "coord" in d:
        file, line, col = d["coord"].rsplit(":", 2)
        coord = Coord(file, int(line), int(col))
    node: c_ast.Node = cls(**kwargs, coord=coord)
    return node


def to_compact(
    funcdef: c_ast.Node,
    relpath: Callable[[str], str],
    column: Column,
    column_classes: frozenset[type[c_ast.Node]] | None = None,
) -> tuple[list[Any], list[str], int]:
    """A function definition as an `ir.body` compact tree ([file, node], columns read off the
    original line by `column` as `to_dict(keep_columns=False)` does), the functions it calls by
    name in first-call order, and its last line: one walk for all three. `column_classes`, when
    given, are the only node classes `column` can give a column other than 0."""
    file = relpath(funcdef.coord.file) if funcdef.coord is not None else ""
    st = _Walk(file, relpath, column, column_classes)
    tree = _enc(funcdef, st)
    return [file, tree], st.calls, st.last


class _Walk:
    """What one `to_compact` walk carries (a plain object, so the walk makes no reference cycle)."""

    __slots__ = ("calls", "column", "column_classes", "file", "last", "rel", "relpath", "seen")

    def __init__(
        self,
        file: str,
        relpath: Callable[[str], str],
        column: Column,
        column_classes: frozenset[type[c_ast.Node]] | None,
    ) -> None:
        self.file = file
        self.column_classes = column_classes
        self.relpath = relpath
        self.column = column
        self.calls: list[str] = []
        self.seen: set[str] = set()
        self.last = 0
        self.rel: dict[str, str] = {}


def _enc(node: c_ast.Node, walk: _Walk) -> list[Any]:
    """`node` as a compact tree ([class name, coord, one entry per `__slots__` slot]), its
    children encoded in turn; records the deepest line and each called name in `st`. Called once
    per body node on a cold ingest, so the coordinate stays inline (a call per node costs)."""
    cls = type(node)
    c = node.coord
    coord: int | str | None = None
    if c is not None:
        line = c.line
        if line > walk.last:
            walk.last = line
        f = walk.rel.get(c.file)
        if f is None:
            f = walk.rel[c.file] = walk.relpath(c.file)
        cc = walk.column_classes
        col = walk.column(node, f, line) if cc is None or cls in cc else 0
        if f == walk.file and 0 <= col <= _COL_MASK and line >= 0:  # pack_coord, inline
            coord = line << _COL_BITS | col
        else:
            coord = f"{f}:{line}:{col}"
    if cls is _ID and _ID_IS_NAME_ONLY:  # a third of all body nodes: its one attribute, directly
        return ["ID", coord, node.name]
    if cls is _FuncCall:
        _note_call(node, walk)
    out: list[Any] = [cls.__name__, coord]
    spec = _SPECS.get(cls)
    if spec is None:  # (an empty tuple is a leaf class's answer, not a miss)
        spec = _compact_spec(cls)
    for slot, kind in spec:
        v = getattr(node, slot)
        if kind == 0 or v is None:  # an attribute, or no child
            out.append(v)
        elif kind == 2 and not v:  # no GNU attributes
            out.append(None)
        elif type(v) is list:
            out.append([_enc(x, walk) for x in v])
        else:
            out.append(_enc(v, walk))
    return out


def _note_call(call: c_ast.FuncCall, walk: _Walk) -> None:
    """A call by name adds that name to `st.calls`, the first time only."""
    if type(call.name) is _ID:
        name = call.name.name
        if name not in walk.seen:
            walk.seen.add(name)
            walk.calls.append(name)


_FuncCall, _ID = c_ast.FuncCall, c_ast.ID


_SPECS: dict[type[c_ast.Node], tuple[tuple[str, int], ...]] = {}


def _compact_spec(cls: type[c_ast.Node]) -> tuple[tuple[str, int], ...]:
    """(slot, 0 attribute / 1 child / 2 the `attributes` child) in `__slots__` order."""
    found = _SPECS.get(cls)
    if found is None:
        found = _SPECS[cls] = tuple(
            (s, 0 if is_attr else 2 if s == "attributes" else 1) for s, is_attr in body_slots(cls)
        )
    return found


# the fast path in _enc is the general one's answer only while pycparser's ID has one attribute
_ID_IS_NAME_ONLY = _compact_spec(c_ast.ID) == (("name", 0),)
