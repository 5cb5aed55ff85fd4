"""The generated package is held to the project's own standards: ruff and mypy --strict clean."""

from __future__ import annotations

import ast
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


def test_modules_bind_only_what_they_read() -> None:
    """A generated module binds a runtime helper or constant under a private name only when its
    code reads that name (ruff's F821 holds the converse: every name read is bound)."""
    unread: list[str] = []
    for path in sorted((REPO / "generated" / "tpb_isa").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        read = {
            n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
        }
        for node in tree.body:
            if not (
                isinstance(node, ast.Assign)
                and isinstance(node.value, (ast.Attribute, ast.Constant))
            ):
                continue
            for target in node.targets:
                if (
                    isinstance(target, ast.Name)
                    and target.id.startswith("_")
                    and not target.id.startswith("__")
                    and target.id not in read
                ):
                    unread.append(f"{path.relative_to(REPO)}:{node.lineno}: {target.id}")
    assert not unread, "\n".join(unread)
