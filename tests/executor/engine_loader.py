"""Render the executor engine templates into a temporary package and import it.

Used until (and alongside) the lead's emitter renders them into generated/tpb_isa/_runtime/executor.
The engine templates are plain Python that must render unchanged under StrictUndefined.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import jinja2

REPO = Path(__file__).resolve().parents[2]
ENGINE_TEMPLATES = REPO / "templates" / "runtime" / "_runtime" / "executor"
PACKAGE = "tpbexec_engine"

_cache: dict[str, ModuleType] = {}


def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(REPO / "templates")),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


def render_engine(dest: Path) -> Path:
    """Render every engine template into ``dest/<PACKAGE>/``; returns the package directory."""
    env = environment()
    pkg = dest / PACKAGE
    pkg.mkdir(parents=True, exist_ok=True)
    for tpl in sorted(ENGINE_TEMPLATES.glob("*.py.j2")):
        rel = tpl.relative_to(REPO / "templates").as_posix()
        text = env.get_template(rel).render()
        (pkg / tpl.name[: -len(".j2")]).write_text(text)
    return pkg


def load_engine() -> ModuleType:
    """The rendered engine package (rendered once per process)."""
    if PACKAGE in _cache:
        return _cache[PACKAGE]
    root = Path(tempfile.mkdtemp(prefix="tpbexec_"))
    render_engine(root)
    sys.path.insert(0, str(root))
    mod = importlib.import_module(PACKAGE)
    for sub in ("numerics", "dtypes", "alu", "memory", "access", "kernels", "npbackend",
                "cbackend", "csource", "errors"):  # fmt: skip
        importlib.import_module(f"{PACKAGE}.{sub}")
    _cache[PACKAGE] = mod
    return mod


def sub(name: str) -> ModuleType:
    load_engine()
    return sys.modules[f"{PACKAGE}.{name}"]
