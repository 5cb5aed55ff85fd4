"""Render the executor templates into temporary packages and import them, and test helpers.

* :func:`load_engine` renders only templates/runtime/_runtime/executor/ (plain Python that must
  render unchanged under StrictUndefined) as the package ``tpbexec_engine``;
* :func:`load_package` renders the whole runtime with tpbgen's emitter (the current templates,
  not whatever generated/ holds) as the package ``tpb_isa_exectest``, so it cannot collide with the
  ``tpb_isa`` other test folders import from generated/.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import jinja2

REPO = Path(__file__).resolve().parents[2]
ENGINE_TEMPLATES = REPO / "templates" / "runtime" / "_runtime" / "executor"
PACKAGE = "tpbexec_engine"
FULL_PACKAGE = "tpb_isa_exectest"

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


def load_package() -> ModuleType:
    """The whole generated runtime, freshly rendered from the current templates."""
    if FULL_PACKAGE in _cache:
        return _cache[FULL_PACKAGE]
    from tpbgen.emit.pipeline import build_files

    files, _, _ = build_files(REPO / "vendor_headers")
    root = Path(tempfile.mkdtemp(prefix="tpbexec_pkg_"))
    for rel, text in files.items():
        if not rel.startswith("tpb_isa/"):
            continue
        path = root / FULL_PACKAGE / rel[len("tpb_isa/") :]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    sys.path.insert(0, str(root))
    mod = importlib.import_module(FULL_PACKAGE)
    _cache[FULL_PACKAGE] = mod
    return mod


def gen_module(gen: str, sub_name: str = "") -> ModuleType:
    pkg = load_package()
    return importlib.import_module(f"{pkg.__name__}.{gen}" + (f".{sub_name}" if sub_name else ""))


# Geometry constants as the headers state them (common-h-facts.md §6)
GEOMETRY: dict[str, dict[str, int]] = {
    "sunda": {
        "STATE_BUF_NUM_PARTITIONS": 128, "STATE_BUF_PARTITION_SIZE": 256 * 1024,
        "STATE_BUF_PARTITION_ACTIVE_SIZE": 192 * 1024, "STATE_BUF_OFFSET": 0,
        "STATE_BUF_SZ": 0x2000000, "PSUM_BUF_NUM_PARTITIONS": 128, "PSUM_BUF_OFFSET": 0x2000000,
        "PSUM_BUF_SZ": 0x400000, "PSUM_BUF_PARTITION_SIZE": 32 * 1024,
        "PSUM_BUF_PARTITION_ACTIVE_SIZE": 16 * 1024, "TPB_PARTITION_ADDR_MASK": 0x1FFFFFFF,
        "NUM_ADDR_REGISTERS": 64, "DVE_NUM_CHANNELS": 128,
    },
    "mariana": {
        "STATE_BUF_NUM_PARTITIONS": 128, "STATE_BUF_PARTITION_SIZE": 256 * 1024,
        "STATE_BUF_PARTITION_ACTIVE_SIZE": 256 * 1024, "STATE_BUF_OFFSET": 0,
        "STATE_BUF_SZ": 0x2000000, "PSUM_BUF_NUM_PARTITIONS": 128, "PSUM_BUF_OFFSET": 0x2000000,
        "PSUM_BUF_SZ": 0x400000, "PSUM_BUF_PARTITION_SIZE": 32 * 1024,
        "PSUM_BUF_PARTITION_ACTIVE_SIZE": 16 * 1024, "TPB_PARTITION_ADDR_MASK": 0x1FFFFFFF,
        "NUM_ADDR_REGISTERS": 64, "DVE_NUM_CHANNELS": 128,
    },
    "maverick": {
        "STATE_BUF_NUM_PARTITIONS": 128, "STATE_BUF_PARTITION_SIZE": 1024 * 1024,
        "STATE_BUF_PARTITION_ACTIVE_SIZE": 512 * 1024, "STATE_BUF_OFFSET": 0,
        "STATE_BUF_SZ": 0x8000000, "PSUM_BUF_NUM_PARTITIONS": 128, "PSUM_BUF_OFFSET": 0x2000000,
        "PSUM_BUF_SZ": 0, "PSUM_BUF_PARTITION_SIZE": 32 * 1024,
        "PSUM_BUF_PARTITION_ACTIVE_SIZE": 16 * 1024, "TPB_PARTITION_ADDR_MASK": 0x1FFFFFFF,
        "NUM_ADDR_REGISTERS": 64, "DVE_NUM_CHANNELS": 128,
    },
}  # fmt: skip
PSUM = 0x2000000
SB_PART = 256 * 1024


def make_engine(backend: str = "numpy", gen: str = "sunda", **numerics: Any) -> Any:
    """An engine on ``gen``'s geometry; keyword arguments override that generation's Numerics."""
    e = load_engine()
    nm = e.Numerics.for_generation(gen)
    if numerics:
        nm = nm.with_(**numerics)
    return e.Engine(GEOMETRY[gen], nm, backend=backend)


def c_available() -> bool:
    return sub("cbackend").load() is not None
