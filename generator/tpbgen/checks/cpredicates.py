"""A drop's top-level validators compiled as the headers write them: the ground truth of the
predicate proof (checks/predicates.py).

One shared object per generation over its own headers (included in the order the ingest read
them, as the package's C backend includes them), with a batch entry point per top-level validator
(`tpbgen_run_<name>(words, n, out)`), loaded with ctypes (no dependency beyond the compiler).

Compiled with the flags that fix the drop's meaning that the package's C backend is built with
too (the runtime's `cbuild.MEANING_ARGS`), so the C the proof holds the translations to is the C
that ships. Beside the compile, the preprocessor finds every use in the drop's headers of a name
whose meaning depends on the build (`cbuild.BUILD_DEPENDENT`: NDEBUG, __OPTIMIZE__, assert, ...),
poisoned (`#pragma GCC poison`), so the compiler itself locates each one.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .. import resolve
from ..ir.model import Generation
from ..runtime.cbuild import BUILD_DEPENDENT, MEANING_ARGS

# The flags of the package's own C backend (runtime/cextensions.py VALIDATOR_ARGS: the
# same MEANING_ARGS), unoptimised: the same semantics (the macros an optimising build sets are
# pinned, and the bodies are assumed free of undefined behaviour, as the translator assumes
# them), compiled in half the time; the proof runs them on few words.
FLAGS = ("-O0", *MEANING_ARGS, "-w", "-shared", "-fPIC")

# gcc: `f.h:4:8: error: attempt to use poisoned "NDEBUG"`; clang names no identifier
_POISONED = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: attempt to use (?:a )?poisoned"
    r'(?: identifier)?(?: "(?P<name>\w+)")?'
)

BuildUse = tuple[str, int, int, str]  # (file relative to the root, line, column, name)


def source(gen: Generation, names: tuple[str, ...]) -> str:
    """The C: every header of the generation's tpb/ directory, then one runner per validator."""
    prefix = gen.tpb_dir + "/"
    headers = [f.path for f in gen.files if f.path.startswith(prefix) and f.path.endswith(".h")]
    args = resolve.c_call_arguments(gen)
    lines = ["#include <stddef.h>", "#include <string.h>"]
    lines += [f'#include "{h[len(prefix) :]}"' for h in headers]
    for n in names:
        arg = args[n]
        lines.append(
            f"void tpbgen_run_{n}(const unsigned char *w, size_t n, unsigned char *out) {{\n"
            f"    for (size_t k = 0; k < n; k++) {{\n"
            f"        NEURON_ISA_TPB_INST_UNION u;\n"
            f"        memcpy(&u, w + 64 * k, sizeof u);\n"
            f"        out[k] = {n}({arg}) != 0;\n"
            f"    }}\n}}"
        )
    return "\n".join(lines) + "\n"


class CompileError(RuntimeError):
    """The compiler refused the drop's predicates (its message is the error)."""


@dataclass
class CPredicates:
    """The compiled validators: `run(name, words)` is the C's verdict on each (N, 64) word."""

    lib: ctypes.CDLL
    names: tuple[str, ...]
    build_uses: tuple[BuildUse, ...] = ()  # where the drop's C reads a build-dependent name

    def run(self, name: str, words: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
        """The compiled validator `name`'s verdict on each 64-byte word of `words` (any shape
        holding whole words), as C computes it."""
        w = np.ascontiguousarray(words, dtype=np.uint8).reshape(-1, 64)
        out = np.zeros(w.shape[0], dtype=np.uint8)
        fn = getattr(self.lib, f"tpbgen_run_{name}")
        fn.restype = None
        fn(
            w.ctypes.data_as(ctypes.c_void_p),
            ctypes.c_size_t(w.shape[0]),
            out.ctypes.data_as(ctypes.c_void_p),
        )
        return out.astype(np.bool_)


def build(compiler: str, gen: Generation, root: Path, names: tuple[str, ...]) -> CPredicates:
    """Compile and load the predicates (raises CompileError with the compiler's message)."""
    return _Compile(compiler, gen, root, names).result()


class _Compile:
    """One compile under way: the compiler runs as its own process (beside the translator,
    when started ahead) until `result()` waits for it."""

    def __init__(self, compiler: str, gen: Generation, root: Path, names: tuple[str, ...]) -> None:
        self.names = names
        self.root = root
        self.tmp = tempfile.TemporaryDirectory(prefix="tpbgen-predicates-")
        self.procs: list[subprocess.Popen[str]] = []
        try:
            text = source(gen, names)
            c = Path(self.tmp.name) / "predicates.c"
            self.so = Path(self.tmp.name) / "predicates.so"
            c.write_text(text, encoding="utf-8")
            poisoned = Path(self.tmp.name) / "build_dependent.c"
            poisoned.write_text(f"#pragma GCC poison {' '.join(BUILD_DEPENDENT)}\n{text}")
            includes = ["-I", str(root / gen.tpb_dir), "-I", str(root)]
            self.procs.append(_start([compiler, *FLAGS, *includes, str(c), "-o", str(self.so)]))
            self.procs.append(
                _start([compiler, "-E", *MEANING_ARGS, *includes, str(poisoned), "-o", os.devnull])
            )
        except BaseException:
            self.cancel()
            raise

    def result(self) -> CPredicates:
        try:
            (_, err), (_, uses) = (p.communicate() for p in self.procs)
            if self.procs[0].returncode != 0:
                raise CompileError(err.strip()[:2000])
            lib = ctypes.CDLL(str(self.so))  # mapped: the file may go with the directory
        finally:
            self.tmp.cleanup()
        return CPredicates(lib, self.names, _build_uses(uses, self.root))

    def cancel(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.communicate()
        self.tmp.cleanup()


def _start(argv: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
    )


def _build_uses(stderr: str, root: Path) -> tuple[BuildUse, ...]:
    """The poisoned-name errors the preprocessor reported in the drop's own files (not in the
    system's headers, nor in the runner), each once, in order."""
    base = root.resolve()
    found: dict[BuildUse, None] = {}
    for line in stderr.splitlines():
        m = _POISONED.match(line)
        if m is None:
            continue
        try:
            rel = Path(m["file"]).resolve().relative_to(base).as_posix()
        except ValueError:
            continue  # a system header's test of NDEBUG, __OPTIMIZE__, ...
        name = m["name"] or "a build-dependent macro"
        found[(rel, int(m["line"]), int(m["col"]), name)] = None
    return tuple(found)


class Ahead:
    """The generations' predicates compiled one ahead of the proof: the first starts at once
    (while the translator runs), each next one when the proof takes the one before it. `take`
    gives a generation's compiled predicates (compiling them then if they were not started, or
    were started for other names); `close` stops what no proof took."""

    def __init__(self, compiler: str, gens: list[tuple[Generation, Path, tuple[str, ...]]]) -> None:
        self.cc = compiler
        self.todo = list(gens)
        self.running: dict[str, _Compile] = {}
        self._next()

    def _next(self) -> None:
        if self.todo and not self.running:
            gen, root, names = self.todo.pop(0)
            with contextlib.suppress(OSError):  # `take` compiles it again, and says why not
                self.running[gen.name] = _Compile(self.cc, gen, root, names)

    def take(self, gen: Generation, root: Path, names: tuple[str, ...]) -> CPredicates:
        """Generation `gen`'s compiled predicates for `names`: the compile started ahead when it
        covers them, else compiled now; starts the next generation's compile, drops those the proof
        passed by. Raises CompileError with the compiler's message."""
        started = self.running.pop(gen.name, None)
        for other in self.running.values():  # proven in order: one the proof passed by (cached)
            other.cancel()
        self.running = {}
        done = [g.name for g, _, _ in self.todo]
        if gen.name in done:
            self.todo = self.todo[done.index(gen.name) + 1 :]
        if started is not None and not set(names) <= set(started.names):
            started.cancel()
            started = None
        if started is None:
            started = _Compile(self.cc, gen, root, names)
        self._next()  # the next generation's compile runs while this one's proof does
        return started.result()

    def close(self) -> None:
        """Stop every compile no proof took, and start no more."""
        self.todo = []
        for c in self.running.values():
            c.cancel()
        self.running = {}
