"""The C backend of the validators: the generation's own validity headers, shipped in the package
(`<gen>/_c/`), compiled with cffi into one batch entry point (N words in, N verdicts out), a
per-word one, and one per top-level validator.

The entry points are generated per generation (`<gen>/validators_c.c`, declared in
`validators_c.h`, which doubles as the cffi cdef): a switch on the opcode byte ORs the top-level
validators whose gate admits it, exactly the dispatch `validate` uses. The C here is the
headers' C, so a predicate tpbgen could not translate to Python still runs on this backend.

Backends: "c" (this), "numpy" (the translated array code), "python" (the translated scalar code);
"auto" is C when it builds and loads (a C compiler and cffi are present), else numpy, and says so
once (not at all when the install already said that cffi is missing). `backend_in_use()` reports
the choice.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import cbuild, cextensions

BACKENDS = ("auto", "c", "numpy", "python")


class BackendUnavailable(RuntimeError):
    """backend="c" was asked for and the C validators cannot be built or loaded here."""


class CValidators:
    """One generation's compiled validators, built on first use."""

    def __init__(self, package: str, generation: str, tpb_dir: str) -> None:
        self.package = package
        self.generation = generation
        self.tpb_dir = tpb_dir  # the generation's tpb/ directory, relative to `<gen>/_c/`
        self._lock = threading.Lock()
        self._loaded: tuple[Any, Any] | None = None
        self._error: str | None = None
        self._warned = False
        self._quiet = False  # the install already said why the validators cannot load

    def load(self) -> tuple[Any, Any] | None:
        with self._lock:
            if self._loaded is None and self._error is None:
                try:
                    self._loaded = self._build()
                except Exception as exc:  # no compiler, no cffi, an unwritable cache, ...
                    self._error = f"{type(exc).__name__}: {exc}"
                    self._quiet = cbuild.said_at_install(exc)
            return self._loaded

    @property
    def error(self) -> str | None:
        return self._error

    def _build(self) -> tuple[Any, Any]:
        package_dir = Path(str(resources.files(self.package)))
        return cbuild.load(cextensions.validators(package_dir, self.generation, self.tpb_dir))

    def resolve(self, backend: str) -> str:
        """The backend that will run: "c", "numpy" or "python" (for "auto": C if it loads)."""
        if backend not in BACKENDS:
            raise ValueError(f"backend is one of {', '.join(BACKENDS)}, not {backend!r}")
        if backend == "auto":
            if self.load() is not None:
                return "c"
            if not self._warned and not self._quiet:
                self._warned = True
                print(
                    f"tpb_isa: the C validators of {self.generation} are unavailable ({self._error}); "
                    "using the numpy backend",
                    file=sys.stderr,
                )
            return "numpy"
        if backend == "c" and self.load() is None:
            raise BackendUnavailable(
                f"the C validators of {self.generation} cannot be built: {self._error}"
            )
        return backend

    def validate_batch(self, W: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
        ffi, lib = self._lib()
        W = np.ascontiguousarray(W, dtype=np.uint8)
        out = np.zeros(W.shape[0], dtype=np.uint8)
        lib.tpbgen_validate(
            ffi.from_buffer("unsigned char[]", W),
            W.shape[0],
            ffi.from_buffer("unsigned char[]", out),
        )
        return out.view(np.bool_)

    def validate(self, word: bytes) -> bool:
        return bool(self.checker()(word))

    def checker(self) -> Callable[[bytes], int]:
        """The compiled check of one 64-byte word (nonzero when a validator accepts it): the
        C function itself, for a caller that checks word after word."""
        _, lib = self._lib()
        check: Callable[[bytes], int] = lib.tpbgen_validate_one
        return check

    def run(self, name: str, W: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
        """One top-level validator over every word, whatever its opcode (differential tests)."""
        ffi, lib = self._lib()
        W = np.ascontiguousarray(W, dtype=np.uint8)
        out = np.zeros(W.shape[0], dtype=np.uint8)
        getattr(lib, f"tpbgen_run_{name}")(
            ffi.from_buffer("unsigned char[]", W),
            W.shape[0],
            ffi.from_buffer("unsigned char[]", out),
        )
        return out.view(np.bool_)

    def c_path(self, name: str, where: str, reason: str) -> CPath:
        """Top-level validator `name` decided by this backend (see CPath)."""
        return CPath(self, name, where, reason)

    def _lib(self) -> tuple[Any, Any]:
        loaded = self.load()
        if loaded is None:
            raise BackendUnavailable(
                f"the C validators of {self.generation} cannot be built: {self._error}"
            )
        return loaded


class CPath:
    """A top-level validator the runtime decides with the headers' C: tpbgen held its
    translations to the C at generate time and they disagreed (`reason` says on which word), so
    `validate`, `explain` and `validate_batch` run the compiled C for it on every backend. Where
    the C backend cannot be built, a word that reaches it raises UntranslatedPredicate rather
    than get the translation's answer."""

    def __init__(self, c: CValidators, name: str, where: str, reason: str) -> None:
        self.c = c
        self.name = name
        self.where = where
        self.reason = reason

    def _available(self) -> None:
        if self.c.load() is None:
            from .decoding import UntranslatedPredicate

            raise UntranslatedPredicate(
                self.name,
                self.where,
                f"{self.reason}; the C backend is unavailable: {self.c.error}",
            )

    def check(self, word: bytes, offset: int = 0) -> bool:
        """The C's verdict on the 64-byte word at `offset`."""
        self._available()
        w = np.frombuffer(word, dtype=np.uint8, count=64, offset=offset).reshape(1, 64)
        return bool(self.c.run(self.name, w)[0])

    def explain(self, word: bytes, offset: int = 0) -> str | None:
        """None when the C accepts the word, else that it rejects it (the C gives no reason)."""
        if self.check(word, offset):
            return None
        return f"{self.name}: rejected by the headers' C (decided in C: {self.reason})"

    def vector(self, cols: Any, offset: int = 0) -> npt.NDArray[np.bool_]:
        """The C's verdicts on a batch (`vector.Cols`: its words as an (N, 64) array)."""
        self._available()
        return self.c.run(self.name, cols.W)
