"""The one Jinja2 environment factory every renderer uses (the runtime package and the audit
reports): strict (an undefined name is an error), deterministic, loading `tpbgen.templates`; and
the support library, the runtime's hand-written part, found beside the templates."""

from __future__ import annotations

import importlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2


def template_root() -> Path:
    """The installed templates directory (the repo's templates/ in an editable install)."""
    return Path(str(resources.files("tpbgen.templates")))


def _docstring(text: str, indent: int) -> str:
    pad = " " * indent
    lines = [ln.rstrip().replace('"""', "'''").replace("\\", "\\\\") for ln in text.strip("\n").splitlines()]
    return ("\n" + pad).join(lines).replace(pad + "\n", "\n")


def _oneline(text: str) -> str:
    return " ".join(text.split())


def _docline(text: str) -> str:
    return _oneline(text).replace('"""', "'''").replace("\\", "\\\\")


def _hexint(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, int):
        return repr(v)
    return hex(v) if v >= 16 else str(v)


def _isort_key(name: str) -> tuple[int, str]:  # case-insensitive, as ruff sorts
    """isort's order-by-type: CONSTANTS, then Classes, then functions and variables."""
    bare = name.split(" as ")[0]
    if bare.isupper() and len(bare) > 1:
        return (0, bare.lower())
    if bare[:1].isupper():
        return (1, bare.lower())
    return (2, bare.lower())


def isort_names(names: list[str]) -> list[str]:
    return sorted(set(names), key=_isort_key)


def from_import(module: str, names: list[str], width: int = 100) -> str:
    """`from module import a, b` the way isort (ruff's I001) writes it: sorted, wrapped at `width`."""
    ordered = isort_names(names)
    line = f"from {module} import {', '.join(ordered)}"
    if len(line) <= width:
        return line
    body = "".join(f"    {n},\n" for n in ordered)
    return f"from {module} import (\n{body})"


def support_root() -> Path:
    """templates/support/: the `_runtime` package of the generated `tpb_isa`, as real Python (and C)
    that is copied verbatim, never rendered."""
    return template_root() / "support"


SUPPORT_SUFFIXES = (".py", ".c", ".h")


def support_files() -> dict[str, str]:
    """{path relative to templates/support/: text} of every file the support library ships."""
    root = support_root()
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in SUPPORT_SUFFIXES and "__pycache__" not in path.parts:
            out[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
    return out


def runtime_api() -> tuple[int, int]:
    """`RUNTIME_API` as the support library states it (templates/support/api.py, imported)."""
    api = importlib.import_module("tpbgen.templates.support.api")
    value = api.RUNTIME_API
    if not (isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        raise TypeError(f"templates/support/api.py: RUNTIME_API must be (major, minor), got {value!r}")
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
    env.filters["oneline"] = _oneline
    env.filters["docline"] = _docline
    env.filters["pyrepr"] = repr
    env.filters["hexint"] = _hexint
    env.filters["isort_names"] = isort_names
    env.globals["from_import"] = from_import
    env.filters["tojson_sorted"] = lambda v: json.dumps(v, indent=2, sort_keys=True)
    return env
