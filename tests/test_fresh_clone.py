"""The README's two set-up commands, as a new user runs them: a fresh clone of the repository, a
fresh virtual environment (no system site packages), today's resolution of every dependency, an
empty IR cache. The regeneration command must write nothing (the committed package is current);
the test command runs on the `smoke` subset here (the whole suite is what .ci/run runs)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tpb_paths import REPO
from tpb_scale import LOWER_BOUNDS

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="no git on PATH to clone with"),
    pytest.mark.skipif(
        LOWER_BOUNDS,
        reason="a fresh clone resolves today's versions; this run pins the lower bounds",
    ),
    pytest.mark.skipif(not (REPO / ".git").exists(), reason="not a git checkout: nothing to clone"),
]


def readme_setup_commands() -> list[str]:
    """The indented command lines of the README's "Set-up commands" section, in order."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Set-up commands\n", 1)[1].split("\n### ", 1)[0]
    return [line.strip() for line in section.splitlines() if line.startswith("    ")]


def test_the_readme_has_exactly_two_setup_commands() -> None:
    commands = readme_setup_commands()
    assert commands == [
        "pip install -e . && tpbgen generate",
        "pip install -e '.[test]' && python -m pytest",
    ]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pip install \"${pip_quiet[@]}\" -e '.[test]'" in ci and "run_suite" in ci


def _index_reachable(scratch: Path) -> bool:
    """Whether pip can fetch from its index here (a project's own requirement, any small one)."""
    probe = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--quiet",
            "-d",
            str(scratch),
            "pcpp",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return probe.returncode == 0


def test_readme_setup_commands_on_a_fresh_clone(tmp_path: Path) -> None:
    if not _index_reachable(tmp_path / "probe"):
        pytest.skip("the package index cannot be reached: no fresh install can be made here")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True, timeout=120)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")
    }
    env |= {
        "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        "VIRTUAL_ENV": str(venv),
        "TPBGEN_CACHE_DIR": str(tmp_path / "cache"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    regenerate, test = readme_setup_commands()

    def sh(command: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=clone,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        return done

    generated = sh(regenerate)
    assert "generated: 0 files written" in generated.stdout, generated.stdout
    assert "[lexer]" not in generated.stderr, generated.stderr  # FastLexer passed its check
    tested = sh(test + " -q -p no:cacheprovider -m smoke")
    assert " passed" in tested.stdout and " failed" not in tested.stdout, tested.stdout
