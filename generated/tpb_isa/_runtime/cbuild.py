"""Compile C that ships with the package (the executor's kernels, each generation's validity
headers) with cffi on first use, and cache the result by content.

The shared object is cached under ``$TPB_ISA_CACHE_DIR`` (default ``$XDG_CACHE_HOME/tpb_isa`` or
``~/.cache/tpb_isa``), in a file named by the SHA-256 of everything that shapes it: the C source,
the cdef, every file it may include, the compile flags, the Python ABI, the platform and the cffi
version. A changed header never loads a stale build. A build prints one line on standard error
(it happens once per content, then every process loads the cached file).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def cache_dir() -> Path:
    env = os.environ.get("TPB_ISA_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "tpb_isa"


def content_key(
    source: str, cdef: str, compile_args: Sequence[str], include_dirs: Sequence[Path] = ()
) -> str:
    """The cache key of one build: a hash of every input that shapes the shared object."""
    cffi_version = "none"
    with contextlib.suppress(ImportError):
        cffi_version = str(importlib.import_module("cffi").__version__)
    h = hashlib.sha256()
    for part in (
        source,
        cdef,
        " ".join(compile_args),
        sys.implementation.cache_tag or "",
        sysconfig.get_platform(),
        cffi_version,
    ):
        h.update(part.encode())
        h.update(b"\0")
    for d in include_dirs:
        for f in sorted(p for p in Path(d).rglob("*") if p.is_file()):
            h.update(f.relative_to(d).as_posix().encode())
            h.update(b"\0")
            h.update(f.read_bytes())
    return h.hexdigest()[:20]


def _import_from(path: Path, name: str) -> Any:
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    if spec is None:
        raise ImportError(f"cannot load {path}")
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def build(
    prefix: str,
    source: str,
    cdef: str,
    compile_args: Sequence[str],
    include_dirs: Sequence[Path] = (),
    what: str = "",
    key: str | None = None,
) -> tuple[Any, Any]:
    """(ffi, lib) of `source` compiled as a cffi extension, from the cache when it is there."""
    key = key or content_key(source, cdef, compile_args, include_dirs)
    name = f"{prefix}_{key}"
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    root = cache_dir() / prefix.strip("_")
    target = root / f"{name}{suffix}"
    if not target.exists():
        cffi = importlib.import_module("cffi")
        root.mkdir(parents=True, exist_ok=True)
        if what:
            print(f"tpb_isa: compiling {what} (once; cached in {root})", file=sys.stderr)
        ffi = cffi.FFI()
        ffi.cdef(cdef)
        ffi.set_source(
            name,
            source,
            extra_compile_args=list(compile_args),
            include_dirs=[str(d) for d in include_dirs],
        )
        with tempfile.TemporaryDirectory(dir=root) as tmp:
            built = Path(ffi.compile(tmpdir=tmp, verbose=False))
            os.replace(built, target)  # atomic: a concurrent build loses the race harmlessly
    mod = _import_from(target, name)
    return mod.ffi, mod.lib
