"""A drop's top-level validators compiled as the headers write them: the ground truth of the
predicate proof (checks/predicates.py).

One shared object per generation over its own headers (included in the order the ingest read
them, as the package's C backend includes them), with a batch entry point per top-level validator
(`tpbgen_run_<name>(words, n, out)`), loaded with ctypes (no dependency beyond the compiler).
"""

from __future__ import annotations

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


def build(cc: str, gen: Generation, root: Path, names: tuple[str, ...]) -> CPredicates:
    """Compile and load the predicates (raises CompileError with the compiler's message)."""
    with tempfile.TemporaryDirectory(prefix="tpbgen-predicates-") as tmp:
        c = Path(tmp) / "predicates.c"
        so = Path(tmp) / "predicates.so"
        c.write_text(source(gen, names), encoding="utf-8")
        includes = ["-I", str(root / gen.tpb_dir), "-I", str(root)]
        proc = subprocess.run(
            [cc, *FLAGS, *includes, str(c), "-o", str(so)], capture_output=True, text=True
        )
        if proc.returncode != 0:
            raise CompileError(proc.stderr.strip()[:2000])
        lib = ctypes.CDLL(str(so))  # mapped: the file may go with the directory
    return CPredicates(lib, names)
