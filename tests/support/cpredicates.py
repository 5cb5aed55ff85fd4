"""The vendored C predicates, compiled: the ground truth the generated validators are held to.

Builds a shared object from a generation's assert.h with one batch entry point per named
function (`void tpbgen_run_<name>(const unsigned char *words, long n, unsigned char *out)`),
loads it with cffi in ABI mode, and runs it over (N, 64) uint8 arrays. Used by the
differential tests and the validation benchmark; needs a C compiler and cffi.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

ASSERT_HEADER = "aws_neuron_isa_tpb_assert.h"


@dataclass
class CPredicates:
    ffi: Any
    lib: Any
    names: tuple[str, ...]

    def run(self, name: str, words: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
        w = np.ascontiguousarray(words, dtype=np.uint8).reshape(-1, 64)
        out = np.zeros(w.shape[0], dtype=np.uint8)
        fn = getattr(self.lib, f"tpbgen_run_{name}")
        fn(
            self.ffi.from_buffer("unsigned char[]", w),
            w.shape[0],
            self.ffi.from_buffer("unsigned char[]", out),
        )
        return out.astype(np.bool_)


def source(names: tuple[str, ...], args: Mapping[str, str] | None = None) -> str:
    """One runner per validator; `args` gives a validator's C arguments when they are not the
    word `u` alone (`&u`, or a bound core version: tpbgen's `resolve.c_call_arguments`)."""
    lines = ["#include <string.h>", f'#include "{ASSERT_HEADER}"']
    for n in names:
        call = f"{n}({(args or {}).get(n, 'u')})"
        lines.append(
            f"void tpbgen_run_{n}(const unsigned char *w, long n, unsigned char *out) {{\n"
            f"    for (long k = 0; k < n; k++) {{ NEURON_ISA_TPB_INST_UNION u; memcpy(&u, w + 64 * k, 64); out[k] = {call} != 0; }}\n}}"
        )
    return "\n".join(lines) + "\n"


def build(
    cc: str,
    tpb_dir: Path,
    names: tuple[str, ...],
    workdir: Path,
    opt: str = "-O2",
    args: Mapping[str, str] | None = None,
) -> CPredicates:
    from cffi import FFI

    src = source(names, args)
    key = hashlib.sha256((src + opt + str(tpb_dir.resolve())).encode()).hexdigest()[:16]
    c = workdir / f"predicates_{key}.c"
    so = workdir / f"predicates_{key}.so"
    c.write_text(src)
    subprocess.run(
        [cc, "-std=c11", opt, "-shared", "-fPIC", "-I", str(tpb_dir), str(c), "-o", str(so)],
        check=True,
        capture_output=True,
    )
    ffi = FFI()
    ffi.cdef(
        "\n".join(
            f"void tpbgen_run_{n}(const unsigned char *w, long n, unsigned char *out);"
            for n in names
        )
    )
    return CPredicates(ffi, ffi.dlopen(str(so)), names)
