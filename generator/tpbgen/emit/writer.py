"""Write a rendered tree to disk atomically and only where it changed; or compare (--check).

The new tree is assembled in a staging directory next to the output (unchanged files copied
with their timestamps, changed ones written), then swapped in with two renames, so a failure
at any point leaves the previous output as it was.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

# Build and tool debris that may sit in the output (pip install, pytest, mypy): never compared.
IGNORED_DIRS = {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", "build", "dist"}


@dataclass(frozen=True)
class TreeDiff:
    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]
    unchanged: tuple[str, ...]

    @property
    def clean(self) -> bool:
        return not (self.added or self.changed or self.removed)


def _ignored(rel: Path) -> bool:
    return any(part in IGNORED_DIRS or part.endswith(".egg-info") for part in rel.parts)


def existing_files(out: Path) -> dict[str, Path]:
    if not out.is_dir():
        return {}
    found = {}
    for p in sorted(out.rglob("*")):
        rel = p.relative_to(out)
        if p.is_file() and not _ignored(rel):
            found[rel.as_posix()] = p
    return found


def diff_tree(files: dict[str, str], out: Path) -> TreeDiff:
    have = existing_files(out)
    added, changed, unchanged = [], [], []
    for rel, text in sorted(files.items()):
        if rel not in have:
            added.append(rel)
        elif have[rel].read_bytes() != text.encode("utf-8"):
            changed.append(rel)
        else:
            unchanged.append(rel)
    removed = sorted(set(have) - set(files))
    return TreeDiff(tuple(added), tuple(changed), tuple(removed), tuple(unchanged))


def write_tree(files: dict[str, str], out: Path) -> TreeDiff:
    d = diff_tree(files, out)
    if d.clean:
        return d
    staging = out.parent / f".{out.name}.staging"
    old = out.parent / f".{out.name}.old"
    for p in (staging, old):
        if p.exists():
            shutil.rmtree(p)
    staging.mkdir(parents=True)
    try:
        have = existing_files(out)
        for rel, text in sorted(files.items()):
            dst = staging / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            if rel in d.unchanged:
                shutil.copy2(have[rel], dst)
            else:
                dst.write_bytes(text.encode("utf-8"))
        if out.exists():
            os.replace(out, old)
        os.replace(staging, out)
    except BaseException:
        if not out.exists() and old.exists():
            os.replace(old, out)
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(old, ignore_errors=True)
    return d
