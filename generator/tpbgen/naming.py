"""Python names for C names: one rule, in one place, used by every emitted module.

- types: `NEURON_ISA_TPB_` is stripped; operand structs (`..._STRUCT`) keep their upper-case
  shape (`S3D3_TS`), every other struct, union and enum becomes CamelCase (`ALU_OP` -> `AluOp`,
  `TENSOR3D` -> `Tensor3D`, `INDIRECT16B` -> `Indirect16B`);
- enum members: the enum's own name is stripped when every member starts with it, otherwise the
  members' longest common `_`-ended prefix (`ALLOW_FP32R_TRUE` -> `TRUE`);
- constants: `NEURON_ISA_TPB_` is stripped;
- a result that is a Python keyword, starts with a digit or is empty gets a `_` in front or after;
- enum members that would be Enum machinery (`_MISSING_`, `mro`, `info`) are escaped;
- C locals and parameters named like the builtins translated code uses get a `_`.
"""

from __future__ import annotations

import keyword
import os
import re

PREFIX = "NEURON_ISA_TPB_"


def _safe(name: str) -> str:
    if not name or name[0].isdigit():
        name = "_" + name
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        name += "_"
    return name


def strip_prefix(c_name: str) -> str:
    """`c_name` without PREFIX, when it starts with it."""
    return c_name[len(PREFIX) :] if c_name.startswith(PREFIX) else c_name


def camel(words: str) -> str:
    """A `_`-separated C name in CamelCase (`ALU_OP` -> `AluOp`); a digit ending a word keeps the
    letter after it upper-case (`TENSOR3D` -> `Tensor3D`)."""
    out = []
    for w in words.split("_"):
        if not w:
            continue
        part = w[0].upper() + w[1:].lower()
        part = re.sub(r"(\d)([a-z])$", lambda m: m.group(1) + m.group(2).upper(), part)
        out.append(part)
    return "".join(out)


# Names the generated modules define or import next to the type classes.
_MODULE_NAMES = {
    "Any",
    "ClassVar",
    "Final",
    "Buffer",
    "DecodeError",
    "FieldLayout",
    "IntEnum",
    "MemberInfo",
    "STRUCTS",
    "ENUMS",
    "Word",
    "OpcodeStatus",
    "BatchDecode",
}


def type_name(c_name: str) -> str:
    """The Python class name of a C struct, union or enum (module docstring's rule); one that would
    shadow a name the generated module defines gets a `_` after it."""
    if c_name.startswith("__anon_"):
        return "_Anon" + camel(c_name[len("__anon_") :])
    base = strip_prefix(c_name)
    name = _safe(base[: -len("_STRUCT")]) if base.endswith("_STRUCT") else _safe(camel(base))
    return name + "_" if name in _MODULE_NAMES else name


def member_names(enum_c_name: str, members: list[str]) -> list[str]:
    """The Python names of an enum's members, in order: its own name stripped when every member
    starts with it, else the members' longest common `_`-ended prefix; made safe and unique."""
    own = enum_c_name + "_"
    if members and all(m.startswith(own) and len(m) > len(own) for m in members):
        prefix = own
    elif len(members) > 1:
        common = os.path.commonprefix(members)  # noqa: RUF071  (a string prefix is what we want)
        prefix = common[: common.rfind("_") + 1]
    else:
        prefix = PREFIX if members and members[0].startswith(PREFIX) else ""
    return _unique([_member(m[len(prefix) :]) for m in members])


# What an IntEnum member may not be called: the Enum machinery's, int's and InfoEnum's own
# attributes (a member named `info` would hide every member's `.info`). A fixed list, so the
# output does not change with the Python that runs tpbgen.
_ENUM_RESERVED = {
    "mro",
    "name",
    "value",
    "info",
    "c_name",
    "as_integer_ratio",
    "bit_count",
    "bit_length",
    "conjugate",
    "denominator",
    "from_bytes",
    "imag",
    "is_integer",
    "numerator",
    "real",
    "to_bytes",
}


def _member(name: str) -> str:
    """An enum member's name: `_`-led names (`_MISSING_`, `__init__`: Enum's sunder, dunder and
    private names) get an `M` in front; reserved attribute names a `_` after."""
    name = _safe(name)
    if name.startswith("_"):
        name = "M" + name
    return name + "_" if name in _ENUM_RESERVED else name


def _unique(names: list[str]) -> list[str]:
    """Names made distinct by trailing `_`s where escaping made two alike (`A` and `A_`)."""
    seen: set[str] = set()
    out = []
    for n in names:
        while n in seen:
            n += "_"
        seen.add(n)
        out.append(n)
    return out


# Attribute names the generated classes use themselves; a C field with one of these names gets a `_`.
_CLASS_API = {"SIZE", "LAYOUT", "DTYPE", "from_bytes", "to_bytes", "write_into"}


def field_name(c_name: str) -> str:
    """A struct field or union arm as a Python attribute: the C name, unless it is a keyword or
    one of the generated class's own names."""
    return c_name + "_" if c_name in _CLASS_API else _safe(c_name)


def constant_name(c_name: str) -> str:
    """The Python name of a C constant: PREFIX stripped, made safe."""
    return _safe(strip_prefix(c_name))


# Python names a translated body may not give a local or a parameter: the types its code names.
_LOCAL_RESERVED = {"int", "bool", "float", "bytes", "len", "range", "min", "max", "abs"}


def local_name(c_name: str) -> str:
    """A C local variable or parameter as a Python local."""
    return c_name + "_" if c_name in _LOCAL_RESERVED else _safe(c_name)


# What a C function's public name may not be in the generated validators module: Python's
# builtins (a helper named `any` would change what `any` means there) and the names the module
# imports or defines itself. A fixed list, so the output does not depend on the running Python.
_BUILTINS = {
    "abs", "all", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes", "callable", "chr",
    "classmethod", "compile", "complex", "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec",
    "filter", "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id",
    "input", "int", "isinstance", "issubclass", "iter", "len", "list", "locals", "map", "max", "memoryview",
    "min", "next", "object", "oct", "open", "ord", "pow", "print", "property", "range", "repr", "reversed",
    "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple", "type",
    "vars", "zip", "__import__", "__name__", "__file__", "__doc__", "__spec__", "__loader__", "__package__",
    "annotations", "Ellipsis", "NotImplemented", "None", "True", "False",
}  # fmt: skip
_VALIDATORS_MODULE = {
    "Final", "Any", "np", "check_api", "codec", "vector", "Validators", "ENUMS", "Word", "as_bytes",
    "VALIDATORS", "TOP_LEVEL", "DISPATCH", "validate", "explain", "validators_for", "explain_batch",
    "validate_batch", "run_validator_batch", "decode_batch", "BatchDecode", "OPCODE_STRUCT",
}  # fmt: skip


def function_name(c_name: str) -> str:
    """A C function's public name in the generated validators module: the C name, unless it is a
    keyword, a builtin or a name the module uses itself (then a `_` after)."""
    name = _safe(c_name)
    while name in _BUILTINS or name in _VALIDATORS_MODULE:
        name += "_"
    return name


# Subpackage names a generation may not take: the runtime's own package, and the package's
# top-level names.
_PACKAGE_RESERVED = {"_runtime", "gen", "GENERATIONS", "RUNTIME_API"}


def module_name(gen: str) -> str:
    """A generation's subpackage name (`tpb_isa.<name>`)."""
    name = _safe(re.sub(r"\W", "_", gen.lower()))
    return name + "_" if name in _PACKAGE_RESERVED or name.startswith("__") else name
