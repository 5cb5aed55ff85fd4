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
