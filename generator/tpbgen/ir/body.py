"""A function body in compact form, turned into its dict form (`ir.cast`) only when asked.

The IR carries every function body, but most readers of an IR never look at most bodies, and the
bodies are most of the IR's bytes and objects. So a `Function` holds a `Body`: a pycparser AST
written as nested lists, positionally by the node class's slots,

    node  = [class name, coord, slot value, slot value, ...]      (slots in `__slots__` order)
    coord = line << 16 | column     when the node is in the function's own file and column < 65536
          | "file:line:column"      otherwise
          | None                    when the node has none

with child nodes as nodes, list children as lists of nodes, attribute values as they are. The
whole body is `[file, node]`. It is kept either as that tree or as its JSON text (what the IR
cache stores, one line per body), and converted on first use: `Function.body` is the dict form
`ir.cast.to_dict` writes, exactly (the public IR JSON and every consumer read that).

Data only: decoding reads JSON and looks class names up in a fixed table of pycparser's node
classes; an unknown name is a ValueError, never an import.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from pycparser import c_ast
from pycparser.c_parser import Coord

_COL_BITS = 16
_COL_MASK = (1 << _COL_BITS) - 1


@cache
def _node_classes() -> dict[str, type[c_ast.Node]]:
    return {
        name: cls
        for name, cls in vars(c_ast).items()
        if isinstance(cls, type) and issubclass(cls, c_ast.Node) and cls is not c_ast.Node
    }


_SLOTS: dict[type[c_ast.Node], tuple[tuple[str, bool], ...]] = {}


def slots(cls: type[c_ast.Node]) -> tuple[tuple[str, bool], ...]:
    """(slot, is an attribute) for every slot of a node class but coord, in `__slots__` order."""
    found = _SLOTS.get(cls)
    if found is None:
        attrs = set(cls.attr_names)
        found = _SLOTS[cls] = tuple(
            (s, s in attrs) for s in cls.__slots__ if s not in ("coord", "__weakref__")
        )
    return found


def _cls(name: Any) -> type[c_ast.Node]:
    cls = _node_classes().get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"not a pycparser node class: {name!r}")
    return cls


def coord_text(file: str, coord: Any) -> str | None:
    """A stored coordinate as `file:line:col`: a packed int is in `file`, a string is already the
    text, None stays None; anything else raises ValueError."""
    if coord is None:
        return None
    if isinstance(coord, int):
        return f"{file}:{coord >> _COL_BITS}:{coord & _COL_MASK}"
    if isinstance(coord, str):
        return coord
    raise ValueError(f"not a coordinate: {coord!r}")


def pack_coord(default_file: str, file: str, line: int, col: int) -> int | str:
    """A coordinate as stored: packed into an int when it is in `default_file` and fits, else its
    `file:line:col` text."""
    if file == default_file and 0 <= col <= _COL_MASK and line >= 0:
        return line << _COL_BITS | col
    return f"{file}:{line}:{col}"


def _to_dict(file: str, n: list[Any]) -> dict[str, Any]:
    cls = _cls(n[0])
    spec = slots(cls)
    if len(n) != len(spec) + 2:
        raise ValueError(f"{n[0]}: {len(n) - 2} slots, not {len(spec)}")
    out: dict[str, Any] = {"_t": n[0]}
    c = coord_text(file, n[1])
    if c is not None:
        out["coord"] = c
    for (slot, is_attr), v in zip(spec, n[2:], strict=True):
        if is_attr:
            if v != []:
                out[slot] = v
        elif v is None:
            if slot != "attributes":
                out[slot] = None
        elif isinstance(v, list) and (not v or isinstance(v[0], list)):
            if v or slot != "attributes":
                out[slot] = [_to_dict(file, x) for x in v]
        else:
            out[slot] = _to_dict(file, v)
    return out


def _from_dict(file: str, d: dict[str, Any]) -> list[Any]:
    cls = _cls(d["_t"])
    coord: Any = None
    if "coord" in d:
        f, line, col = d["coord"].rsplit(":", 2)
        coord = pack_coord(file, f, int(line), int(col))
    out: list[Any] = [d["_t"], coord]
    for slot, is_attr in slots(cls):
        v = d.get(slot, [] if is_attr else None)
        if is_attr or v is None:
            out.append(v)
        elif isinstance(v, list):
            out.append([_from_dict(file, x) for x in v])
        else:
            out.append(_from_dict(file, v))
    return out


def _to_node(file: str, n: list[Any]) -> c_ast.Node:
    """The pycparser node of compact node `n`, as `ir.cast.from_dict(_to_dict(file, n))` builds
    it: an empty `attributes` list comes back as None (the dict form leaves it out), attribute
    lists are the tree's own (as they are through the dict form)."""
    cls = _cls(n[0])
    spec = slots(cls)
    if len(n) != len(spec) + 2:
        raise ValueError(f"{n[0]}: {len(n) - 2} slots, not {len(spec)}")
    kwargs: dict[str, Any] = {}
    for (slot, is_attr), v in zip(spec, n[2:], strict=True):
        if is_attr or v is None:
            kwargs[slot] = v
        elif isinstance(v, list) and (not v or isinstance(v[0], list)):
            kwargs[slot] = [_to_node(file, x) for x in v] if v or slot != "attributes" else None
        else:
            kwargs[slot] = _to_node(file, v)
    c = n[1]
    coord = None
    if isinstance(c, int):
        coord = Coord(file, c >> _COL_BITS, c & _COL_MASK)
    elif c is not None:
        where, line, col = coord_text(file, c).rsplit(":", 2)  # type: ignore[union-attr]
        coord = Coord(where, int(line), int(col))
    node: c_ast.Node = cls(**kwargs, coord=coord)
    return node


# made once; a body tree is acyclic by construction (lists made by one walk), so the encoder's
# check for cycles (a dict entry per list) is left out: a cycle would still end in RecursionError
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode


class Body:
    """One function body, compact; equal when the bodies are. See the module docstring."""

    __slots__ = ("_text", "_tree")

    def __init__(self, tree: list[Any] | None = None, text: str | None = None) -> None:
        if tree is None and text is None:
            raise ValueError("a Body needs its tree or its text")
        self._tree = tree
        self._text = text

    @classmethod
    def from_dict(cls, d: dict[str, Any], file: str | None = None) -> Body:
        """From the dict form (`ir.cast.to_dict`); `file` is the one most coordinates name."""
        if file is None:
            c = d.get("coord")
            file = c.rsplit(":", 2)[0] if isinstance(c, str) else ""
        return cls([file, _from_dict(file, d)])

    def tree(self) -> list[Any]:
        """The body's tree ([file, node]), decoded from its text on first use; ValueError when the
        text is not a body."""
        if self._tree is None:
            assert self._text is not None
            tree = json.loads(self._text)
            if not (isinstance(tree, list) and len(tree) == 2 and isinstance(tree[0], str)):
                raise ValueError("not a function body")
            self._tree = tree
        return self._tree

    def text(self) -> str:
        """The body's compact JSON text, encoded from its tree on first use."""
        if self._text is None:
            self._text = _encode(self._tree)
        return self._text

    def release_tree(self) -> None:
        """Keep only the text (made now if need be): one string instead of a list per node."""
        self.text()
        self._tree = None

    def as_dict(self) -> dict[str, Any]:
        """The body in the dict form of `ir.cast.to_dict` (coordinates as text)."""
        file, node = self.tree()
        return _to_dict(file, node)

    def as_node(self) -> c_ast.Node:
        """The body as pycparser nodes, built straight from the tree: the same nodes as
        `ir.cast.from_dict(self.as_dict())`, without the dict form in between."""
        file, node = self.tree()
        return _to_node(file, node)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Body) and self.text() == other.text()

    def __hash__(self) -> int:
        return hash(self.text())

    def __repr__(self) -> str:
        return f"Body({self.text()[:60]}...)"
