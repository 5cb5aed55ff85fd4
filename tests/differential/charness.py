"""The vendored C predicates compiled into a shared object (cffi, ABI mode): the ground truth."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from cffi import FFI
from tpb_paths import tpb_dir


@dataclass
class CValidators:
    ffi: Any
    lib: Any
    names: tuple[str, ...]

    def run(self, name: str, words: np.ndarray) -> np.ndarray:
        w = np.ascontiguousarray(words, dtype=np.uint8)
        out = np.zeros(w.shape[0], dtype=np.uint8)
        fn = getattr(self.lib, f"tpbgen_run_{name}")
        fn(self.ffi.from_buffer("unsigned char[]", w), w.shape[0], self.ffi.from_buffer("unsigned char[]", out))
        return out.astype(bool)


def build(cc: str, gen: str, names: tuple[str, ...], workdir: Path, opt: str = "-O1") -> CValidators:
    src = ["#include <string.h>", '#include "aws_neuron_isa_tpb_assert.h"']
    for n in names:
        src.append(
            f"void tpbgen_run_{n}(const unsigned char *w, long n, unsigned char *out) {{\n"
            f"    for (long k = 0; k < n; k++) {{ NEURON_ISA_TPB_INST_UNION u; memcpy(&u, w + 64 * k, 64); out[k] = {n}(u); }}\n}}"
        )
    c = workdir / f"validators_{gen}.c"
    so = workdir / f"validators_{gen}.so"
    c.write_text("\n".join(src) + "\n")
    subprocess.run([cc, "-std=c11", opt, "-shared", "-fPIC", "-I", str(tpb_dir(gen)), str(c), "-o", str(so)], check=True, capture_output=True)
    ffi = FFI()
    ffi.cdef("\n".join(f"void tpbgen_run_{n}(const unsigned char *w, long n, unsigned char *out);" for n in names))
    return CValidators(ffi, ffi.dlopen(str(so)), names)
