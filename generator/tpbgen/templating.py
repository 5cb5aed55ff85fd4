"""The one Jinja2 environment factory every renderer uses (the runtime package and the audit
reports): strict (an undefined name is an error), deterministic, loading `tpbgen.templates`; and
the runtime library (`tpbgen.runtime`), the generated package's hand-written part."""

from __future__ import annotations

import json
import re
import textwrap
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2

from .escaping import markdown_text


def template_root() -> Path:
    """The installed templates directory (the repo's templates/ in an editable install)."""
    return Path(str(resources.files("tpbgen.templates")))


def _docstring(text: str, indent: int) -> str:
    pad = " " * indent
    lines = []
    for ln in text.strip("\n").splitlines():
        ln = ln.rstrip().replace('"""', "'''").replace("\\", "\\\\")
        if indent + len(ln) > WIDTH:  # a header line too long for the generated file: re-flow it
            lead = ln[: len(ln) - len(ln.lstrip())]
            ln = "\n".join(
                textwrap.wrap(ln, WIDTH - indent, subsequent_indent=lead, break_long_words=False)
            )
        lines.extend(ln.splitlines() or [""])
    return ("\n" + pad).join(lines).replace(pad + "\n", "\n")


def _oneline(text: str) -> str:
    return " ".join(text.split())


def _docline(text: str) -> str:
    return _oneline(text).replace('"""', "'''").replace("\\", "\\\\")


def _hexint(v: Any) -> str:
    """A constant's value as Python source: an int in hex from 16 up, a float that reads back
    exactly (`float('inf')`, `float('nan')`), a tuple element by element."""
    if isinstance(v, (tuple, float)):
        # imported here: the translator is not loaded by commands that only render (audit)
        from .translate.to_python import py_literal

        return py_literal(v)
    if isinstance(v, bool) or not isinstance(v, int):
        return repr(v)
    return hex(v) if v >= 16 else str(v)


def enumval(v: int) -> str:
    """An enum value or opcode, always hexadecimal (at least two digits): the headers mostly
    write them so, and the runtime's messages print opcodes so. A negative value (an enumerator
    of a signed enum, `_INVALID = -1`) keeps its sign in front: `-0x01`, a literal in Python
    and in C alike."""
    return f"-{-v:#04x}" if v < 0 else f"{v:#04x}"


#: The one formatter, by the Jinja filter's name, of each kind of value a template renders into
#: code: an enumerator's or opcode's value (enum types), and a constant's (integer and floating
#: types, arrays of them). A template never formats a number itself (`'%x' % v`, `| format`):
#: tests/emit/test_emitted_modules.py holds both to negative, huge and alias values.
VALUE_FILTERS = ("enumval", "hexint")


WIDTH = 100  # ruff's line-length (pyproject.toml): every generated line fits


class Code(str):
    """Text that `pyfmt` emits as it is (a class name, an expression), not as a string literal."""

    __slots__ = ()


def _one_line(v: Any) -> str:
    if isinstance(v, Code):
        return str(v)
    if isinstance(v, tuple):
        return "(" + ", ".join(_one_line(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, list):
        return "[" + ", ".join(_one_line(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_one_line(k)}: {_one_line(x)}" for k, x in v.items()) + "}"
    return repr(v)


def _split_str(s: str, room: int) -> list[str]:
    """`s` as consecutive literals, each (quoted) at most `room` wide, split after spaces."""
    words = re.findall(r"\S*\s*", s)
    parts, cur = [], ""
    for w in words:
        if cur and len(repr(cur + w)) > room:
            parts.append(cur)
            cur = ""
        while len(repr(w)) > room and len(w) > 1:  # one word wider than the room: cut it
            cut = max(1, room - 2 - w[:room].count("\\") - w[:room].count("'"))
            parts.append(w[:cut])
            w = w[cut:]
        cur += w
    if cur or not parts:
        parts.append(cur)
    return parts


def pyfmt(v: Any, indent: int = 0, used: int = 0) -> str:
    """A Python literal of `v` that keeps every line within WIDTH: on one line when it fits in
    WIDTH - `used` (what precedes it on its line, plus a trailing comma), else exploded, one item
    a line (scalar items of a tuple or list filled several a line), `indent` being the
    indentation of the line it starts on."""
    one = _one_line(v)
    if len(one) <= WIDTH - used:
        return one
    inner = " " * (indent + 4)
    close = " " * indent
    if isinstance(v, str) and not isinstance(v, Code):
        lines = [inner + repr(p) for p in _split_str(v, WIDTH - indent - 4)]
        return "(\n" + "\n".join(lines) + "\n" + close + ")"
    if isinstance(v, dict):
        rows = []
        for k, x in v.items():
            key = f"{_one_line(k)}: "
            rows.append(inner + key + pyfmt(x, indent + 4, indent + 4 + len(key) + 1) + ",")
        return "{\n" + "\n".join(rows) + "\n" + close + "}"
    if isinstance(v, (tuple, list)):
        o, c = ("(", ")") if isinstance(v, tuple) else ("[", "]")
        scalar = (int, float, bool, str)
        lines, cur = [], ""
        for x in v:  # short scalars fill a line, anything else has lines of its own
            one_x = _one_line(x)
            if not (isinstance(x, scalar) or x is None) or len(one_x) >= WIDTH - indent - 5:
                if cur:
                    lines.append(inner + cur)
                    cur = ""
                lines.append(inner + pyfmt(x, indent + 4, indent + 4 + 1) + ",")
                continue
            piece = f"{one_x},"
            if cur and len(inner) + len(cur) + 1 + len(piece) > WIDTH:
                lines.append(inner + cur)
                cur = piece
            else:
                cur = f"{cur} {piece}" if cur else piece
        if cur:
            lines.append(inner + cur)
        return o + "\n" + "\n".join(lines) + "\n" + close + c
    return one


def call(fn: str, args: list[Any], kwargs: dict[str, Any] | None = None, indent: int = 0) -> str:
    """`fn(args..., key=value...)` as a statement at `indent`: on one line when it fits, else one
    argument a line (each formatted by `pyfmt`)."""
    kwargs = kwargs or {}
    parts = [_one_line(a) for a in args] + [f"{k}={_one_line(x)}" for k, x in kwargs.items()]
    one = f"{fn}({', '.join(parts)})"
    if indent + len(one) <= WIDTH:
        return one
    inner = indent + 4
    rows = [" " * inner + pyfmt(a, inner, inner + 1) + "," for a in args]
    rows += [
        " " * inner + f"{k}=" + pyfmt(x, inner, inner + len(k) + 2) + "," for k, x in kwargs.items()
    ]
    return f"{fn}(\n" + "\n".join(rows) + "\n" + " " * indent + ")"


def with_comment(code: str, comment: str, indent: int) -> str:
    """`code  # comment` when it fits on one line, else the comment wrapped on lines above."""
    text = _oneline(comment)
    if not text:
        return code
    line = f"{code}  # {text}"
    if indent + len(line) <= WIDTH:
        return line
    pad = " " * indent
    wrapped = textwrap.wrap(
        text, WIDTH - indent - 2, break_long_words=False, break_on_hyphens=False
    )
    return "\n".join(f"# {w}" for w in wrapped).replace("\n", "\n" + pad) + "\n" + pad + code


def fit(first: str, rest: str, indent: int) -> str:
    """`first rest` when the line (at `indent`) fits WIDTH, else `rest` on the next line."""
    if indent + len(first) + 1 + len(rest) <= WIDTH:
        return f"{first} {rest}"
    return f"{first}\n{' ' * indent}{rest}"


def wrap(text: str, indent: int, first: int = 0) -> str:
    """Prose re-flowed to WIDTH at `indent` (the first line has `first` columns taken already)."""
    words = " ".join(text.split())
    lines = textwrap.wrap(words, WIDTH - indent, initial_indent="x" * (first - indent) if first > indent else "",
                          break_long_words=False, break_on_hyphens=False)  # fmt: skip
    if first > indent and lines:
        lines[0] = lines[0][first - indent :]
    return ("\n" + " " * indent).join(lines)


def _isort_key(name: str) -> tuple[int, str]:  # case-insensitive, as ruff sorts
    """isort's order-by-type: CONSTANTS, then Classes, then functions and variables."""
    bare = name.split(" as ")[0]
    if bare.isupper() and len(bare) > 1:
        return (0, bare.lower())
    if bare[:1].isupper():
        return (1, bare.lower())
    return (2, bare.lower())


def isort_names(names: list[str]) -> list[str]:
    """Names to import, each once, in isort's order (constants, classes, the rest)."""
    return sorted(set(names), key=_isort_key)


def _natural_key(name: str) -> tuple[int, tuple[tuple[int, int | str], ...]]:
    """ruff's RUF022 order for `__all__`: SCREAMING_CASE, then CamelCase, then the rest; inside a
    group a case-sensitive natural order (digit runs compare as numbers: `S2S2D2_STT` < `S2_BN`)."""
    group = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    runs = re.findall(r"\d+|\D+", name)
    return (group, tuple((0, int(r)) if r.isdigit() else (1, r) for r in runs))


def all_names(names: list[str]) -> list[str]:
    """The members of an `__all__` list in the order ruff's RUF022 checks."""
    return sorted(set(names), key=_natural_key)


def from_import(module: str, names: list[str], width: int = 100) -> str:
    """`from module import a, b` the way isort (ruff's I001) writes it: sorted, wrapped at `width`."""
    ordered = isort_names(names)
    line = f"from {module} import {', '.join(ordered)}"
    if len(line) <= width:
        return line
    body = "".join(f"    {n},\n" for n in ordered)
    return f"from {module} import (\n{body})"


def runtime_root() -> Path:
    """The runtime library (the repo's runtime/, installed as `tpbgen.runtime`): the `_runtime`
    package of the generated `tpb_isa`, real Python (and C) that is copied verbatim, never
    rendered."""
    return Path(str(resources.files("tpbgen.runtime")))


RUNTIME_SUFFIXES = (".py", ".c", ".h")


def runtime_files() -> dict[str, str]:
    """{path relative to runtime/: text} of every file the runtime library ships."""
    root = runtime_root()
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in RUNTIME_SUFFIXES and "__pycache__" not in path.parts:
            out[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
    return out


def runtime_api() -> tuple[int, int]:
    """`RUNTIME_API` as the runtime library states it (runtime/api.py, imported)."""
    from .runtime import api

    value = api.RUNTIME_API
    if not (
        isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value)
    ):
        raise TypeError(f"runtime/api.py: RUNTIME_API must be (major, minor), got {value!r}")
    return (value[0], value[1])


def environment(subdir: str = "") -> jinja2.Environment:
    """A fresh environment loading templates/<subdir>; `.html.j2` templates are autoescaped."""
    root = template_root() / subdir if subdir else template_root()
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(root)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=jinja2.select_autoescape(
            enabled_extensions=("html.j2",), default_for_string=False, default=False
        ),
    )
    env.filters["docstring"] = _docstring
    env.filters["md"] = markdown_text  # header text in Markdown (escaping.py: one per target)
    env.filters["oneline"] = _oneline
    env.filters["docline"] = _docline
    env.filters["pyrepr"] = repr
    env.filters["hexint"] = _hexint
    env.filters["enumval"] = enumval
    env.filters["code"] = Code
    env.filters["code_enumval"] = lambda v: Code(enumval(v))
    env.filters["pytuple"] = tuple
    env.filters["pyfmt"] = pyfmt
    env.filters["wrap"] = wrap
    env.globals["call"] = call
    env.globals["with_comment"] = with_comment
    env.globals["fit"] = fit
    env.filters["local"] = lambda loc, g: str(loc).removeprefix(g.tpb_dir.rstrip("/") + "/")
    env.filters["isort_names"] = isort_names
    env.filters["all_names"] = all_names
    env.globals["from_import"] = from_import
    env.filters["tojson_sorted"] = lambda v: json.dumps(v, indent=2, sort_keys=True)
    return env
