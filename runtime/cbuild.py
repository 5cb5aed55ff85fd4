"""Compile C that ships with the package (the executor's kernels, each generation's validity
headers) with cffi, and load it: built at install when it can be, else on first use, cached by
content either way.

A build is described by a :class:`Spec` (source, cdef, flags, include directories); its module
is named by the SHA-256 of everything that shapes it: the C source, the cdef, every file it may
include, the compile flags, the Python ABI, the platform and the cffi version. A changed header
never loads a stale build. :func:`load` looks, in order, in

1. ``tpb_isa/_prebuilt/``: what ``pip install`` compiled (the package's ``setup.py`` calls
   :func:`compile_into` for every spec of :mod:`.cextensions`), so an installed package compiles
   nothing at run time;
2. the cache ``$TPB_ISA_CACHE_DIR`` (default ``$XDG_CACHE_HOME/tpb_isa`` or
   ``~/.cache/tpb_isa``), where a build at first use (a vendored or editable tree, or an install
   that had no compiler) puts it, saying on standard error what it compiles, how to skip it and,
   while the compiler runs, for how long it has been running.

Without cffi nothing can load, so nothing is compiled: :func:`load` raises :class:`Unavailable`
at once. An install that found no cffi leaves the reason in ``_prebuilt/NOT_BUILT`` (it said so
when it ran); the runtime then falls back to numpy without a word (:func:`said_at_install`).

This module imports neither numpy nor cffi at import time (the install-time build uses it).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

#: Where `pip install` puts the extensions it compiled: beside `_runtime`, in the package root.
PREBUILT = Path(__file__).resolve().parent.parent / "_prebuilt"
#: The file in PREBUILT that says why an install compiled nothing (what it printed).
NOT_BUILT = "NOT_BUILT"
#: Seconds between two progress lines while a build at first use runs.
PROGRESS_EVERY = 5.0

#: The macros a build's flags set that C can read, each pinned to what the C compiler predefines
#: when given no options (None: undefined): what tpbgen preprocessed, translated and proved the
#: headers with. cffi compiles with Python's own flags first (``-DNDEBUG -O3`` and the like); the
#: pins come after them on the command line, so they win.
PINNED_MACROS: tuple[tuple[str, str | None], ...] = (
    ("NDEBUG", None),
    ("__OPTIMIZE__", None),
    ("__OPTIMIZE_SIZE__", None),
    ("__NO_INLINE__", "1"),
    ("_FORTIFY_SOURCE", None),
)
#: Names whose meaning in C depends on the build: the pinned macros, those ``-fno-fast-math``
#: fixes, and ``assert`` (NDEBUG decides it). tpbgen warns at each use in a drop's headers.
BUILD_DEPENDENT = (
    *(name for name, _ in PINNED_MACROS),
    "__FAST_MATH__",
    "__FINITE_MATH_ONLY__",
    "assert",
)
#: The one declared set of flags that fix what a drop's C means, given to the package's C
#: validators (cextensions.VALIDATOR_ARGS adds only -O2 and -w, which change speed and warnings)
#: and to tpbgen's predicate proof (which compiles at -O0): both decide every word alike.
MEANING_ARGS: tuple[str, ...] = (
    "-std=gnu11",
    "-fwrapv",
    "-fno-fast-math",
    *(f"-U{name}" if value is None else f"-D{name}={value}" for name, value in PINNED_MACROS),
)


class Unavailable(ImportError):
    """No C extension can be compiled or loaded here: cffi is not installed."""


def cffi_missing() -> str | None:
    """Why no C extension can load in this interpreter, or None: cffi (and its compiled
    backend, which every cffi module imports) must be importable."""
    for name in ("cffi", "_cffi_backend"):
        if importlib.util.find_spec(name) is None:
            return "cffi is not installed (pip install cffi, or the package's [executor] extra)"
    return None


def said_at_install(error: BaseException) -> bool:
    """Whether `error` is what the install already reported (no cffi, recorded in
    ``_prebuilt/NOT_BUILT``): a fallback to numpy for it needs no word at run time."""
    return isinstance(error, Unavailable) and (PREBUILT / NOT_BUILT).is_file()


def cache_dir() -> Path:
    env = os.environ.get("TPB_ISA_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "tpb_isa"


def cffi_version() -> str:
    try:
        import cffi  # (imported when asked: the install-time build runs before it may be there)
    except ImportError:
        return "none"
    return str(cffi.__version__)


def inputs_digest(
    source: str, cdef: str, compile_args: Sequence[str], include_dirs: Sequence[Path] = ()
) -> str:
    """A hash of what a build is made from: the source, the cdef, the flags and every file it
    may include (names and bytes)."""
    h = hashlib.sha256()
    for part in (source, cdef, " ".join(compile_args)):
        h.update(part.encode())
        h.update(b"\0")
    for d in include_dirs:
        for f in sorted(p for p in Path(d).rglob("*") if p.is_file()):
            h.update(f.relative_to(d).as_posix().encode())
            h.update(b"\0")
            h.update(f.read_bytes())
    return h.hexdigest()


def content_key(inputs: str, cffi: str) -> str:
    """The key of one build: its inputs' digest, the Python ABI, the platform and the cffi
    version (or "-" for a name that does not depend on it)."""
    h = hashlib.sha256()
    for part in (inputs, sys.implementation.cache_tag or "", sysconfig.get_platform(), cffi):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:20]


@dataclass(frozen=True)
class Spec:
    """One C extension: its module-name prefix, the C source (its own header included in place),
    the cdef, compile flags and include directories, and what to call it in messages."""

    prefix: str
    source: str
    cdef: str
    compile_args: tuple[str, ...]
    include_dirs: tuple[Path, ...] = ()
    what: str = ""
    skip: str = ""  # how a user avoids this build (said as it starts)

    @cached_property
    def inputs(self) -> str:
        """`inputs_digest` of this build (the headers are read once per spec)."""
        return inputs_digest(self.source, self.cdef, self.compile_args, self.include_dirs)

    @cached_property
    def key(self) -> str:
        """The content key, the installed cffi's version included (the cache's name)."""
        return content_key(self.inputs, cffi_version())

    @cached_property
    def install_key(self) -> str:
        """The content key without the cffi version (the prebuilt module's name): pip builds
        in an isolated environment whose cffi may be newer than the one installed beside the
        package, so the prebuilt module is tried, and a cffi that cannot load it falls back to
        the cache."""
        return content_key(self.inputs, "-")

    def module(self, prebuilt: bool = False) -> str:
        """The extension module's name: the prefix and the content key."""
        return f"{self.prefix}_{self.install_key if prebuilt else self.key}"

    def filename(self, prebuilt: bool = False) -> str:
        return f"{self.module(prebuilt)}{importlib.machinery.EXTENSION_SUFFIXES[0]}"

    def cache_path(self) -> Path:
        return cache_dir() / self.prefix.strip("_") / self.filename()

    def prebuilt_path(self) -> Path:
        return PREBUILT / self.filename(prebuilt=True)


def compile_into(spec: Spec, directory: Path, prebuilt: bool = False) -> Path:
    """Compile `spec` into `directory` (created if missing) and return the file, named for the
    cache or (`prebuilt`) for an install; atomic (the file appears whole or not at all, and a
    concurrent build of the same content loses the race harmlessly). Raises when there is no
    cffi or no working C compiler."""
    import cffi

    directory.mkdir(parents=True, exist_ok=True)
    ffi = cffi.FFI()
    ffi.cdef(spec.cdef)
    ffi.set_source(
        spec.module(prebuilt),
        spec.source,
        extra_compile_args=list(spec.compile_args),
        include_dirs=[str(d) for d in spec.include_dirs],
    )
    target = directory / spec.filename(prebuilt)
    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        built = Path(ffi.compile(tmpdir=tmp, verbose=False))
        os.replace(built, target)
    return target


def _import_from(path: Path, name: str) -> Any:
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    if spec is None:
        raise ImportError(f"cannot load {path}")
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def load_compiled(spec: Spec) -> tuple[Any, Any] | None:
    """(ffi, lib) of `spec` without compiling: the install's prebuilt module if this cffi loads
    it, else the cached one; None if neither is there."""
    prebuilt = spec.prebuilt_path()
    if prebuilt.is_file():
        try:
            mod = _import_from(prebuilt, spec.module(prebuilt=True))
            return mod.ffi, mod.lib
        except ImportError:
            pass  # built with a cffi this one cannot load: use (or make) the cached build
    cached = spec.cache_path()
    if cached.is_file():
        mod = _import_from(cached, spec.module())
        return mod.ffi, mod.lib
    return None


def _compile_reporting(spec: Spec, directory: Path) -> Path:
    """`compile_into` the cache, saying on standard error what is compiled, where it is cached
    and how to skip it, then every PROGRESS_EVERY seconds how long it has run (in place on a
    terminal), and when it is done."""
    err = sys.stderr
    skip = f"; {spec.skip}" if spec.skip else ""
    print(
        f"tpb_isa: compiling {spec.what} (once; cached in {directory}{skip})", file=err, flush=True
    )
    start = time.monotonic()
    done = threading.Event()
    tty = err.isatty()

    def progress() -> None:
        while not done.wait(1.0 if tty else PROGRESS_EVERY):
            line = f"tpb_isa: compiling {spec.what}: {time.monotonic() - start:.0f} s"
            print(f"\r{line}" if tty else line, end="" if tty else "\n", file=err, flush=True)

    ticker = threading.Thread(target=progress, daemon=True)
    ticker.start()
    try:
        built = compile_into(spec, directory)
    finally:
        done.set()
        ticker.join()
        if tty:
            print("\r" + " " * 72 + "\r", end="", file=err)
    print(
        f"tpb_isa: compiled {spec.what} in {time.monotonic() - start:.1f} s", file=err, flush=True
    )
    return built


def load(spec: Spec) -> tuple[Any, Any]:
    """(ffi, lib) of `spec`: the install's prebuilt module, else the cached one, else compiled
    now into the cache (saying so on standard error, with progress, when `spec.what` names it).
    Raises :class:`Unavailable` at once when cffi is not installed."""
    missing = cffi_missing()
    if missing:
        raise Unavailable(missing)
    loaded = load_compiled(spec)
    if loaded is not None:
        return loaded
    target = spec.cache_path()
    if spec.what:
        built = _compile_reporting(spec, target.parent)
    else:
        built = compile_into(spec, target.parent)
    mod = _import_from(built, spec.module())
    return mod.ffi, mod.lib
