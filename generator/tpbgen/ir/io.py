"""IR <-> JSON. The JSON is canonical (sorted keys, fixed indent) so it can be diffed and hashed."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from functools import cache
from importlib import resources
from typing import Any, TypeVar, get_args, get_origin, get_type_hints

from . import model

T = TypeVar("T")


def to_jsonable(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (tuple, list)):
        return [to_jsonable(x) for x in obj]
    if isinstance(obj, dict):
        return {k: to_jsonable(v) for k, v in obj.items()}
    return obj


def dumps(obj: Any) -> str:
    return json.dumps(to_jsonable(obj), sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def _convert(tp: Any, value: Any) -> Any:
    origin = get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if value is None:
            return None
        if len(args) == 1:
            return _convert(args[0], value)
        if all(a in (int, float) for a in args):
            return value
        return value
    if origin is tuple:
        (elem, *_rest) = get_args(tp)
        return tuple(_convert(elem, v) for v in value)
    if origin is typing.Literal:
        return value
    if origin is dict:
        return dict(value)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return from_jsonable(tp, value)
    return value


@cache
def _hints(cls: Any) -> dict[str, Any]:
    return get_type_hints(cls, vars(model))


def from_jsonable(cls: type[T], data: dict[str, Any]) -> T:
    hints = _hints(cls)  # type: ignore[arg-type]
    kwargs = {f.name: _convert(hints[f.name], data[f.name]) for f in dataclasses.fields(cls) if f.name in data}  # type: ignore[arg-type]
    return cls(**kwargs)


def generation_from_json(text: str) -> model.Generation:
    return from_jsonable(model.Generation, json.loads(text))


@cache
def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((resources.files("tpbgen") / "ir" / "schema.json").read_text(encoding="utf-8"))
    return data


def validate(doc: Any) -> list[str]:
    """Schema violations of an IR JSON document, as `pointer: message` strings."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema())
    out = []
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
        pointer = "/" + "/".join(str(p) for p in err.absolute_path)
        out.append(f"{pointer}: {err.message}")
    return out
