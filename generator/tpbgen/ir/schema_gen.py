"""Derive the IR's JSON Schema from the dataclasses in `model`, so the two cannot drift apart.

`ir/schema.json` is the committed output; a test regenerates it and compares.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from typing import Any, get_args, get_origin, get_type_hints

from . import model
from .body import Body


def _schema_for(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema of Python type `tp` as the IR serialises it: unions, tuples, literals,
    scalars and dataclasses (each once, under $defs by name, with every field required and no
    other property); TypeError for a type the IR does not use."""
    origin = get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_schema_for(a, defs) for a in get_args(tp)]}
    if origin is tuple:
        return {"type": "array", "items": _schema_for(get_args(tp)[0], defs)}
    if origin is typing.Literal:
        return {"enum": list(get_args(tp))}
    if origin is dict or tp is Body:  # a function body: the dict form of ir.cast
        return {"type": "object"}
    if tp is type(None):
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # placeholder against recursion
            hints = get_type_hints(tp, vars(model))
            fields = dataclasses.fields(tp)
            defs[name] = {
                "type": "object",
                "additionalProperties": False,
                "required": [_public(tp, f.name) for f in fields],
                "properties": {
                    _public(tp, f.name): _schema_for(hints[f.name], defs) for f in fields
                },
            }
        return {"$ref": f"#/$defs/{name}"}
    raise TypeError(f"no schema for {tp!r}")


def _public(cls: type[Any], name: str) -> str:
    """A field's name in the public JSON: a Function's compact `code` is written as `body`."""
    return "body" if cls is model.Function and name == "code" else name


def generation_schema() -> dict[str, Any]:
    """The JSON schema of one generation's IR, derived from the dataclasses in ir/model.py (what
    ir/schema.json must equal)."""
    defs: dict[str, Any] = {}
    root = _schema_for(model.Generation, defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://tpbgen.invalid/schema/ir-generation.json",
        "title": f"tpbgen IR of one generation (IR version {model.IR_VERSION})",
        **root,
        "$defs": dict(sorted(defs.items())),
    }


def render() -> str:
    """The schema as ir/schema.json's text."""
    return json.dumps(generation_schema(), indent=2, sort_keys=False) + "\n"


if __name__ == "__main__":
    print(render(), end="")
