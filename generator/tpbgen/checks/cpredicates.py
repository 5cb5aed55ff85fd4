"""A drop's top-level validators compiled as the headers write them: the ground truth of the
predicate proof (checks/predicates.py).

One shared object per generation over its own headers (included in the order the ingest read
them, as the package's C backend includes them), with a batch entry point per top-level validator
(`tpbgen_run_<name>(words, n, out)`), loaded with ctypes (no dependency beyond the compiler).
"""

from __future__ import annotations

import contextlib
import ctypes
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..ir.model import Generation

# The flags of the package's own C backend (templates/support/cextensions.py VALIDATOR_ARGS),
# unoptimised: the same semantics (the bodies are assumed free of undefined behaviour, as the
# translator assumes them), compiled in half the time; the proof runs them on few words.
FLAGS = ("-std=gnu11", "-O0", "-w", "-shared", "-fPIC")


def source(gen: Generation, names: tuple[str, ...]) -> str:
    """The C: every header of the generation's tpb/ directory, then one runner per validator."""
    prefix = gen.tpb_dir + "/"
    headers = [f.path for f in gen.files if f.path.startswith(prefix) and f.path.endswith(".h")]
    by_pointer = {f.name for f in gen.functions if f.params and f.params[0].by_pointer}
    lines = ["#include <stddef.h>", "#include <string.h>"]
    lines += [f'#include "{h[len(prefix) :]}"' for h in headers]
    for n in names:
        arg = "&u" if n in by_pointer else "u"
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
        self.tmp = tempfile.TemporaryDirectory(prefix="tpbgen-predicates-")
        try:
            c = Path(self.tmp.name) / "predicates.c"
            self.so = Path(self.tmp.name) / "predicates.so"
            c.write_text(source(gen, names), encoding="utf-8")
            includes = ["-I", str(root / gen.tpb_dir), "-I", str(root)]
            self.proc = subprocess.Popen(
                [compiler, *FLAGS, *includes, str(c), "-o", str(self.so)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
        except BaseException:
            self.tmp.cleanup()
            raise

    def result(self) -> CPredicates:
        try:
            _, err = self.proc.communicate()
            if self.proc.returncode != 0:
                raise CompileError(err.strip()[:2000])
            lib = ctypes.CDLL(str(self.so))  # mapped: the file may go with the directory
        finally:
            self.tmp.cleanup()
        return CPredicates(lib, self.names)

    def cancel(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate()
        self.tmp.cleanup()


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
