"""The hygiene rules ruff does not hold: a docstring on every public and every long function of
the generator (issue 25); no function of the generator or the runtime library above complexity
20 by radon, and no commit subject over 72 characters (issue 35).

Public: a function or method whose name, and the names of the classes around it, do not start with
`_` (dunders included: their contract is Python's protocol, unless they are long), not nested in a
function. Long: more than 30 lines from `def` to its last line, whatever its name. An `@overload`
stub needs none (the implementation carries it).
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tpbgen
from tpb_paths import REPO

PKG = Path(tpbgen.__file__).resolve().parent
LONG = 30


def _is_overload(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(
        (isinstance(d, ast.Name) and d.id == "overload")
        or (isinstance(d, ast.Attribute) and d.attr == "overload")
        for d in fn.decorator_list
    )


def _undocumented(tree: ast.Module) -> list[tuple[str, int]]:
    """(qualified name, line) of every public or long function in `tree` without a docstring."""
    out: list[tuple[str, int]] = []

    def walk(node: ast.AST, path: list[str], public: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                walk(child, [*path, child.name], public and not child.name.startswith("_"))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                assert child.end_lineno is not None
                long = child.end_lineno - child.lineno + 1 > LONG
                is_public = public and not (
                    child.name.startswith("_") and not child.name.endswith("__")
                )
                dunder = child.name.startswith("__") and child.name.endswith("__")
                needs = long or (is_public and not dunder)
                if needs and not _is_overload(child) and ast.get_docstring(child) is None:
                    out.append((".".join([*path, child.name]), child.lineno))
                walk(child, [*path, child.name], False)
            else:
                walk(child, path, public)

    walk(tree, [], True)
    return out


def test_every_public_and_every_long_function_has_a_docstring() -> None:
    found: dict[tuple[str, str], int] = {}
    for path in sorted(PKG.rglob("*.py")):
        module = path.relative_to(PKG).as_posix()
        for name, line in _undocumented(ast.parse(path.read_text(encoding="utf-8"))):
            found[module, name] = line
    new = sorted((m, line, n) for (m, n), line in found.items())
    assert not new, "no docstring (say what it returns or does, and its contract):\n" + "\n".join(
        f"  tpbgen/{m}:{line}: {n}" for m, line, n in new
    )


# -- issue 35: complexity and commit subjects, held by tools -------------------------------------

#: what radon's complexity check reads: the generator and the runtime library
RADON_PATHS = ("generator", "runtime")
#: the first commit of the 72-character rule: every subject after it is held to it
SUBJECTS_SINCE = "e5d63ba"
SUBJECT_MAX = 72


def test_no_function_above_complexity_20_by_radon() -> None:
    """`radon cc -n D` (rank D and worse: complexity above 20) over the generator and the
    runtime library prints nothing; ruff's C901 holds the same limit by another count."""
    got = subprocess.run(
        [sys.executable, "-m", "radon", "cc", "-n", "D", *RADON_PATHS],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip() == "", "above complexity 20 (split them):\n" + got.stdout


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    git = shutil.which("git")
    assert git is not None
    return subprocess.run(
        [git, "-C", str(REPO), *args], capture_output=True, text=True, check=False
    )


def test_commit_subjects_are_at_most_72_characters() -> None:
    """Every commit after SUBJECTS_SINCE (merges included) has a subject of at most 72
    characters. Needs git and the repository's history; skipped, saying which, without them."""
    if shutil.which("git") is None:
        pytest.skip("no git on PATH to read the history with")
    if _git("rev-parse", "--is-inside-work-tree").stdout.strip() != "true":
        pytest.skip("not a git checkout: no history to read")
    if _git("cat-file", "-e", f"{SUBJECTS_SINCE}^{{commit}}").returncode != 0:
        pytest.skip(f"the history does not reach {SUBJECTS_SINCE} (a shallow clone?)")
    log = _git("log", "--format=%h %s", f"{SUBJECTS_SINCE}..HEAD")
    assert log.returncode == 0, log.stderr
    long = [line for line in log.stdout.splitlines() if len(line.split(" ", 1)[1]) > SUBJECT_MAX]
    assert not long, f"commit subjects over {SUBJECT_MAX} characters:\n" + "\n".join(long)
