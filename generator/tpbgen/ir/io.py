"""IR <-> JSON. The JSON is canonical (sorted keys, fixed indent) so it can be diffed and hashed."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
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


def _identity(value: Any) -> Any:
    return value


@cache
def _converter(tp: Any) -> Callable[[Any], Any]:
    """A function turning the JSON form of a value of type `tp` back into it: built once per type
    (the IR cache loads thousands of dataclasses per generation)."""
    origin = get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) != 1:
            return _identity
        inner = _converter(args[0])
        return lambda v: None if v is None else inner(v)
    if origin is tuple:
        elem = _converter(get_args(tp)[0])
        if elem is _identity:
            return tuple
        return lambda v: tuple(elem(x) for x in v)
    if origin is dict:
        return dict
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_converter(tp)
    return _identity


def _dataclass_converter(cls: type[Any]) -> Callable[[Any], Any]:
    hints = get_type_hints(cls, vars(model))
    fields = [(f.name, _converter_lazy(hints[f.name])) for f in dataclasses.fields(cls)]

    def convert(data: dict[str, Any]) -> Any:
        return cls(**{name: conv(data[name]) for name, conv in fields if name in data})

    return convert


def _converter_lazy(tp: Any) -> Callable[[Any], Any]:
    """Resolve a field's converter on first use, so recursive dataclasses terminate."""
    resolved: list[Callable[[Any], Any]] = []

    def convert(value: Any) -> Any:
        if not resolved:
            resolved.append(_converter(tp))
        return resolved[0](value)

    return convert


def from_jsonable(cls: type[T], data: dict[str, Any]) -> T:
    result: T = _converter(typing.cast(Any, cls))(data)
    return result


def generation_from_json(text: str) -> model.Generation:
    return from_jsonable(model.Generation, json.loads(text))


@cache
def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (resources.files("tpbgen") / "ir" / "schema.json").read_text(encoding="utf-8")
    )
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
