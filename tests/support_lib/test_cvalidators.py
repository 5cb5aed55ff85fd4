"""The C backend of the validators when no compiler can build it: "auto" falls back to numpy with
one line on stderr, "c" raises BackendUnavailable naming why; nothing else changes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tpb_paths import REPO


def test_no_compiler_means_numpy_said_once(tmp_path: Path) -> None:
    probe = """
import numpy as np
from tpb_isa import mariana as m
from tpb_isa._runtime.cvalidators import BackendUnavailable
W = np.zeros((3, 64), dtype=np.uint8)
print(m.batch.batch_backend("auto"), m.validate_batch(W).tolist(), m.validate_batch(W).tolist())
try:
    m.validate_batch(W, backend="c")
except BackendUnavailable as e:
    print("unavailable", "cannot be built" in str(e))
print(m.validate(W[0], backend="auto"))
"""
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO / "generated"),
        "TPB_ISA_CACHE_DIR": str(tmp_path / "cache"),
        "CC": "/nonexistent-cc",
    }
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:3] == [
        "numpy [False, False, False] [False, False, False]",
        "unavailable True",
        "False",
    ]
    warnings = [ln for ln in run.stderr.splitlines() if "using the numpy backend" in ln]
    assert len(warnings) == 1, run.stderr
