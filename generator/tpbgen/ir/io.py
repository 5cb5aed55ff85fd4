"""IR <-> JSON. The JSON is canonical (sorted keys, fixed indent) so it can be diffed and hashed."""

from __future__ import annotations

import dataclasses
import json
import operator
import types
import typing
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any, TypeVar, get_args, get_origin, get_type_hints

from . import model
from .body import Body

T = TypeVar("T")


def to_jsonable(obj: Any) -> Any:
    """The public JSON form (what `inspect --format json` prints, what schema.json describes): a
    function's body in the dict form of `ir.cast`."""
    if isinstance(obj, model.Function):
        out = {
            f.name: to_jsonable(getattr(obj, f.name))
            for f in dataclasses.fields(obj)
            if f.name != "code"
        }
        out["body"] = obj.body
        return out
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (tuple, list)):
        return [to_jsonable(x) for x in obj]
    if isinstance(obj, dict):
        return {k: to_jsonable(v) for k, v in obj.items()}
    return obj


def dumps(obj: Any) -> str:
    """`obj` (a dataclass tree) as the IR's JSON text: sorted keys, one-space indent, a final
    newline."""
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

    if cls is model.Function:  # the public form names the body `body` (dict form)
        fields = [(n, c) for n, c in fields if n != "code"]

        def convert_function(data: dict[str, Any]) -> Any:
            kw = {name: conv(data[name]) for name, conv in fields if name in data}
            return cls(**kw, code=Body.from_dict(data["body"]))

        return convert_function

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
    """The `cls` dataclass `data` (its JSON form) describes, nested values converted by their
    declared types."""
    result: T = _converter(typing.cast(Any, cls))(data)
    return result


def generation_from_json(text: str) -> model.Generation:
    """The Generation the IR JSON text describes."""
    return from_jsonable(model.Generation, json.loads(text))


@cache
def schema() -> dict[str, Any]:
    """The IR's JSON schema (ir/schema.json) as shipped with the package."""
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


# -- the IR cache's form --------------------------------------------------------------------------
# Positional (a dataclass is the list of its field values in declaration order) and without the
# function bodies, which travel as blobs beside it: their compact JSON text (ir.body), one per
# function in order, parsed only when a body is read. `cache_layout()` goes into the cache key, so
# a changed dataclass never reads an old entry.


def cache_layout() -> str:
    """The field names of every IR dataclass: what the positional cache form depends on."""
    parts = []
    for cls in vars(model).values():
        if (
            isinstance(cls, type)
            and dataclasses.is_dataclass(cls)
            and cls.__module__ == model.__name__
        ):
            parts.append(f"{cls.__name__}({','.join(f.name for f in dataclasses.fields(cls))})")
    return ";".join(sorted(parts))


@cache
def _packer(tp: Any) -> Callable[[Any], Any] | None:
    """JSON-able positional form of a value of type `tp`; None when the value is its own form."""
    origin = get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1:
            inner = _packer(args[0])
            if inner is None:
                return None
            return lambda v: None if v is None else inner(v)
        return None  # scalars and tuples of scalars: json writes a tuple as a list
    if origin is tuple:
        elem = _packer(get_args(tp)[0])
        if elem is None:
            return None
        return lambda v: [elem(x) for x in v]
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = get_type_hints(tp, vars(model))
        fields = [
            (f.name, _packer(hints[f.name]))
            for f in dataclasses.fields(tp)
            if not (tp is model.Function and f.name == "code")
        ]
        # the field values in one C call (a tuple of them: attrgetter of one name gives the
        # value itself); then the few that are not their own form, converted
        get = operator.attrgetter(*(n for n, _ in fields))
        values = get if len(fields) > 1 else lambda obj: (get(obj),)
        convert = [(i, p) for i, (_, p) in enumerate(fields) if p is not None]

        def pack(obj: Any) -> list[Any]:
            row = list(values(obj))
            for i, p in convert:
                row[i] = p(row[i])
            return row

        return pack
    return None


def _tuplify(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


@cache
def _unpacker(tp: Any) -> Callable[[Any], Any] | None:
    """The inverse of `_packer`: a checked conversion (wrong shapes raise TypeError/ValueError)."""
    origin = get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1:
            inner = _unpacker(args[0])
            if inner is None:
                return None
            return lambda v: None if v is None else inner(v)
        if any(get_origin(a) is tuple for a in args):  # Constant.value: a scalar or a tuple
            return _tuplify
        return None
    if origin is tuple:
        elem = _unpacker(get_args(tp)[0])
        if elem is None:
            return tuple
        return lambda v: tuple([elem(x) for x in v])
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = get_type_hints(tp, vars(model))
        fields = [
            (f.name, _unpacker(hints[f.name]))
            for f in dataclasses.fields(tp)
            if not (tp is model.Function and f.name == "code")
        ]
        return _make_unpack(tp, fields)
    return None


def _make_unpack(
    cls: type[Any], fields: list[tuple[str, Callable[[Any], Any] | None]]
) -> Callable[[Any], Any]:
    """Rows to instances of a frozen dataclass without its __init__ (a setattr per field through
    the frozen check was most of a warm load): the instance's __dict__ is filled directly, which
    is what __init__ would leave (every field is in the row; no IR class has __post_init__ work
    for these values). A class of small values (TypeRef, Maintenance: a few dozen distinct among
    thousands) gives equal rows one shared instance."""
    names = tuple(k for k, _ in fields)
    convert = tuple((k, i, u) for i, (k, u) in enumerate(fields) if u is not None)
    n = len(fields)
    new = object.__new__
    name = cls.__name__
    memo: dict[tuple[Any, ...], Any] | None = {} if cls in _SHARED else None

    def unpack_any(row: Any) -> Any:
        if type(row) is not list or len(row) != n:
            raise ValueError(f"not a {name}")
        obj = new(cls)
        d = obj.__dict__
        d.update(zip(names, row))  # noqa: B905 (the length is checked above)
        for k, i, u in convert:
            d[k] = u(row[i])
        return obj

    def unpack_three(row: Any) -> Any:  # keys assigned by name: twice update(zip(...))'s speed
        if type(row) is not list or len(row) != 3:
            raise ValueError(f"not a {name}")
        obj = new(cls)
        d = obj.__dict__
        d[names[0]], d[names[1]], d[names[2]] = row
        for k, i, u in convert:
            d[k] = u(row[i])
        return obj

    # three fields: Loc (nearly half of an IR's objects) and Param
    unpack = unpack_three if n == 3 else unpack_any
    if memo is None:
        return unpack

    def unpack_shared(row: Any) -> Any:
        key = tuple(row) if type(row) is list else None
        found = memo.get(key) if key is not None else None
        if found is None:
            found = unpack(row)
            if len(memo) < 4096:
                memo[tuple(row)] = found
        return found

    return unpack_shared


_SHARED = (model.TypeRef, model.Maintenance)  # leaf values, all scalar fields: safe to share


def to_cache(gen: model.Generation) -> tuple[list[Any], list[str]]:
    """A Generation in the cache's form: the positional payload and the function-body blobs."""
    pack = _packer(model.Generation)
    assert pack is not None
    return pack(gen), [f.code.text() for f in gen.functions]


def from_cache(payload: Any, blobs: list[str]) -> model.Generation:
    """The inverse of `to_cache`; a payload of another shape raises TypeError or ValueError."""
    fields = [f.name for f in dataclasses.fields(model.Generation)]
    if type(payload) is not list or len(payload) != len(fields):
        raise ValueError("not a Generation")
    at = fields.index("functions")
    rows = payload[at]
    if type(rows) is not list or len(rows) != len(blobs):
        raise ValueError("not as many function bodies as functions")
    unpack_fn = _unpacker(model.Function)
    assert unpack_fn is not None
    functions = []
    for row, text in zip(rows, blobs, strict=True):
        fn = unpack_fn(row)
        fn.__dict__["code"] = Body(text=text)  # the one field the row leaves out
        functions.append(fn)
    payload = list(payload)
    payload[at] = []
    unpack = _unpacker(model.Generation)
    assert unpack is not None
    gen: model.Generation = unpack(payload)
    return dataclasses.replace(gen, functions=tuple(functions))
