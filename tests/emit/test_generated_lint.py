"""The generated package is held to the project's own standards: ruff and mypy --strict clean."""

from __future__ import annotations

import subprocess
import sys

from tpb_paths import REPO


def test_ruff_clean() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "generated", "generator"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_clean() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "generated/tpb_isa",
            "generated/setup.py",
            "generator/tpbgen",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
