"""The rendered package staged: written into a private temporary tree and imported from there,
under a package name of its own, before anything is written to the output.

Every Python file `generate` emits is compiled, and every module of the package imported (its
`__main__` only compiled: importing it runs the command line), so a package that does not import
is a located error (`tpb_isa/<gen>/executor.py:47:21: error [emitted-module]: ...`, exit 2), never
a tree written with exit 0. The predicate proof runs the translations as these imported modules
(`validators`, `batch`), and the proof's own search scores as one more module beside them
(`module`), so nothing in the generator runs code from strings.

The staged package is loaded by file location (the documented recipe for importing a source
file), each module under `<unique name>.<gen>.<module>`; `close` takes every one of them out of
`sys.modules` again and removes the tree.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import shutil
import sys
import tempfile
import traceback
from pathlib import Path
from types import ModuleType, TracebackType

from .errors import Diagnostic, Severity

PACKAGE = "tpb_isa"  # the generated package's folder in the file set
CODE = "emitted-module"
_COUNT = itertools.count()


class Staged:
    """One rendering, written into a temporary directory; modules imported on demand."""

    def __init__(self, files: dict[str, str]) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="tpbgen-staged-"))
        self.name = f"_tpbgen_staged_{os.getpid()}_{next(_COUNT)}"
        self.root = self.tmp / self.name
        self.files = files
        try:
            for rel, text in files.items():
                dst = self._path(rel)
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_text(text, encoding="utf-8")
        except BaseException:
            shutil.rmtree(self.tmp, ignore_errors=True)
            raise

    def __enter__(self) -> Staged:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _path(self, rel: str) -> Path:
        """Where file `rel` (a path of the file set) is staged: the package under its own name."""
        head, _, rest = rel.partition("/")
        return self.root / rest if head == PACKAGE and rest else self.tmp / "_outside" / rel

    def _rel(self, filename: str) -> str | None:
        """The file-set path of a staged file, None for a file outside the staged tree."""
        try:
            inside = Path(filename).relative_to(self.root)
        except ValueError:
            return None
        return f"{PACKAGE}/{inside.as_posix()}"

    # -- the check -------------------------------------------------------------------------------
    def check(self) -> list[Diagnostic]:
        """Compile every emitted Python file and import every module of the package (its
        `__main__` compiled only); a located error for each that fails."""
        out: list[Diagnostic] = []
        imported = [r for r in self.files if _importable(r)]
        for rel in sorted(r for r in self.files if r.endswith(".py") and not _importable(r)):
            try:  # compiled only (the import compiles the others)
                compile(self.files[rel], rel, "exec", dont_inherit=True)
            except (SyntaxError, ValueError) as exc:
                out.append(_compile_error(rel, exc))
        seen: set[tuple[str, int, int]] = set()
        for rel in sorted(imported, key=_import_order):
            try:
                self.module(_dotted(rel))
                continue
            except ModuleNotFoundError as exc:
                if exc.name and not exc.name.startswith((self.name, ".")):
                    continue  # a third-party module this interpreter lacks (hypothesis, ...)
                error = self._import_error(rel, exc)
            except Exception as exc:
                error = self._import_error(rel, exc)
            if (error.file, error.line, error.col) not in seen:  # else met again, through an
                seen.add((error.file, error.line, error.col))  # importer of the faulty module
                out.append(error)
        return out

    def _import_error(self, rel: str, exc: BaseException) -> Diagnostic:
        """The error of importing `rel`: located at the innermost line of the staged package the
        traceback passes through (or the module itself)."""
        where, line, col = rel, 0, 0
        for frame in traceback.extract_tb(exc.__traceback__):
            inside = self._rel(frame.filename)
            if inside is not None:
                where, line = inside, frame.lineno or 0
                col = (getattr(frame, "colno", None) or 0) + 1
        if isinstance(exc, SyntaxError) and exc.filename:
            return _compile_error(self._rel(exc.filename) or where, exc)
        text = str(exc).replace(self.name, PACKAGE)
        return Diagnostic(
            f"the generated package does not import: {type(exc).__name__}: {text[:300]} "
            f"(importing {rel}); nothing was written",
            where,
            line,
            col,
            Severity.ERROR,
            CODE,
        )

    # -- imports ---------------------------------------------------------------------------------
    def module(self, dotted: str) -> ModuleType:
        """The staged module `dotted` (`mariana.validators`, "" for the package), imported with
        its parent packages first; relative imports inside it resolve in the staged package."""
        full = f"{self.name}.{dotted}" if dotted else self.name
        if full in sys.modules:
            return sys.modules[full]
        parent = None
        if dotted:
            parent = self.module(dotted.rpartition(".")[0])
            if full in sys.modules:  # the parent's own imports brought it in
                return sys.modules[full]
        path = self.root.joinpath(*dotted.split(".")) if dotted else self.root
        package = path.is_dir()
        file = path / "__init__.py" if package else path.with_suffix(".py")
        spec = importlib.util.spec_from_file_location(
            full, file, submodule_search_locations=[str(path)] if package else None
        )
        if spec is None or spec.loader is None:
            raise ModuleNotFoundError(f"no module {dotted} in the staged package", name=full)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[full] = mod
        kept, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # the tree is temporary
        try:
            spec.loader.exec_module(mod)
        except BaseException:
            sys.modules.pop(full, None)
            raise
        finally:
            sys.dont_write_bytecode = kept
        if parent is not None:
            setattr(parent, dotted.rpartition(".")[2], mod)
        return mod

    def add(self, rel: str, text: str) -> None:
        """Stage one more file (not part of the package's file set): the proof's scores."""
        dst = self._path(rel)
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_text(text, encoding="utf-8")

    def close(self) -> None:
        """Forget every staged module and remove the tree."""
        for name in [n for n in sys.modules if n == self.name or n.startswith(self.name + ".")]:
            del sys.modules[name]
        shutil.rmtree(self.tmp, ignore_errors=True)


def _importable(rel: str) -> bool:
    """Whether file `rel` is a module of the package that `check` imports (not `__main__`)."""
    return (
        rel.startswith(f"{PACKAGE}/") and rel.endswith(".py") and not rel.endswith("/__main__.py")
    )


def _dotted(rel: str) -> str:
    """`tpb_isa/mariana/validators.py` -> `mariana.validators` (`__init__` -> its package)."""
    parts = rel.removeprefix(f"{PACKAGE}/").removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _import_order(rel: str) -> tuple[int, str]:
    """Packages before their modules (shallower first), then by path."""
    return (rel.count("/"), rel)


def _compile_error(rel: str, exc: SyntaxError | ValueError) -> Diagnostic:
    line = col = 0
    if isinstance(exc, SyntaxError):
        line, col = exc.lineno or 0, exc.offset or 0
        what = f"SyntaxError: {exc.msg}"
    else:
        what = f"{type(exc).__name__}: {exc}"
    return Diagnostic(
        f"the generated module does not compile: {what}; nothing was written",
        rel,
        line,
        col,
        Severity.ERROR,
        CODE,
    )
