"""The documented exception at every public entry point of the generated runtime, with the
optional extras (ml_dtypes, cffi) and without them: the sweep is `argument_sweep.py`."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from emit import runtime_import  # noqa: F401  (puts generated/ on sys.path)

from tpb_paths import REPO

from . import argument_sweep


def test_wrong_arguments_raise_the_documented_errors() -> None:
    """With every extra this test environment has (the test extra installs both)."""
    assert argument_sweep.count() > 200
    assert argument_sweep.sweep() == []


@pytest.mark.parametrize("blocked", ["ml_dtypes,cffi", "ml_dtypes"])
def test_the_same_errors_without_the_optional_extras(blocked: str, tmp_path: object) -> None:
    """In a process where importing the extras fails (sys.modules entries of None, as for a
    package that is not installed): every call raises what it raises with them."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO / "generated"), str(REPO / "tests")]),
        "TPB_ISA_CACHE_DIR": str(tmp_path),
    }
    r = subprocess.run(
        [sys.executable, str(REPO / "tests" / "support_lib" / "argument_sweep.py"), blocked],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["importable"] == dict.fromkeys(blocked.split(","), False)
    assert report["cases"] == argument_sweep.count()
    assert report["failures"] == []
