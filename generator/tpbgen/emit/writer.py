"""Write a rendered tree into a directory tpbgen owns, atomically; or compare it (--check).

Ownership. tpbgen writes only into a directory that does not exist, is empty, or holds a
`MANIFEST.json` that tpbgen wrote (`"format": "tpbgen-manifest/1"`, listing every file it wrote
with its sha256). Anything else is refused before anything is touched. Inside its own directory
it replaces or removes only the files the previous MANIFEST lists; every other entry (a user's
notes, `.git`, `build/`, `*.egg-info`, `__pycache__`) is carried into the new tree unchanged.

Atomicity. The new tree is assembled in a staging directory beside the output: new and changed
files written, unchanged ones and every foreign entry hard-linked (same inode, same timestamps;
copied where the file system cannot link). Then the staging directory and the output are
exchanged in one `renameat2(RENAME_EXCHANGE)` (`renamex_np(RENAME_SWAP)` on macOS), so at every
instant the output path holds either the old complete tree or the new complete tree. Where the
system has no exchange, two renames are used and the gap between them is repaired by the next run.

Concurrency. The whole write holds an exclusive `flock` on `.<out name>.tpbgen-lock` beside the
output (removed at the end), so two runs into one output never interleave; the second is refused
with a message. Runs into other folders of the same parent do not wait for each other. A staging or old
tree left by a killed run is recognised by its name and its marker, removed by the next run, and
reported.

Faults. Every `OSError` (read-only file system, no space, permission denied, a path that vanished)
becomes a located user error: `PATH: what happened`, with the old tree intact and the staging
debris removed.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import json
import os
import secrets
import shutil
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Diagnostic, Severity, TpbgenError, shown_path
from ..input_files import read_regular

MANIFEST = "MANIFEST.json"
MANIFEST_FORMAT = "tpbgen-manifest/1"
_TMP_INFIX = ".tpbgen-tmp-"  # staging and old trees: .<out name>.tpbgen-tmp-<pid>-<token>
_STAGING_MARKER = ".tpbgen-staging"  # inside a staging tree until just before the exchange


def checkpoint(step: str) -> None:
    """Called before every step that changes the disk. Tests replace it to kill the process at
    each step in turn (see tests/emit/test_output_safety.py); it does nothing otherwise."""


# -- ownership ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ownership:
    """What tpbgen wrote into an output directory, as its MANIFEST says."""

    exists: bool
    files: dict[str, str]  # relative path -> sha256 of what tpbgen wrote ("" when unknown: legacy)


def manifest_files(files: dict[str, str]) -> dict[str, str]:
    """The `files` record of a MANIFEST: every rendered file but the MANIFEST, with its sha256."""
    return {
        rel: hashlib.sha256(text.encode("utf-8")).hexdigest()
        for rel, text in sorted(files.items())
        if rel != MANIFEST
    }


def _read_manifest(path: Path) -> dict[str, Any] | None:
    """The MANIFEST.json at `path` (None: none, unreadable, not JSON, or not a regular file: a
    FIFO there is never opened, a file past 64 MB never read to its end)."""
    try:
        doc = json.loads(read_regular(path, str(path)))
    except (OSError, ValueError, TpbgenError):
        return None
    return doc if isinstance(doc, dict) else None


def _is_ours(doc: dict[str, Any] | None) -> bool:
    if doc is None:
        return False
    if doc.get("format") == MANIFEST_FORMAT:
        files = doc.get("files")
        return isinstance(files, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in files.items()
        )
    # tpbgen 0.1's MANIFEST (before the format key): the generator, generations and input hashes
    return (
        isinstance(doc.get("generator"), str)
        and str(doc["generator"]).startswith("tpbgen ")
        and isinstance(doc.get("inputs_sha256"), str)
        and isinstance(doc.get("inputs"), list)
    )


def _safe_rel(rel: str) -> bool:
    parts = rel.split("/")
    return bool(rel) and not rel.startswith("/") and all(p not in ("", ".", "..") for p in parts)


def ownership(out: Path, new_files: dict[str, str]) -> Ownership:
    """Whether tpbgen may write `out`, and which of its files are tpbgen's. Refuses (exit 2) a
    non-directory and a non-empty directory without a MANIFEST that tpbgen wrote, naming the
    first foreign entry."""
    if not out.exists() and not out.is_symlink():
        return Ownership(False, {})
    if not out.is_dir():
        raise _refuse(
            out,
            "exists and is not a directory; --out must name a directory that tpbgen owns (new, empty, or written by tpbgen)",
            "out-not-dir",
        )
    entries = sorted(os.listdir(out))
    if not entries:
        return Ownership(True, {})
    doc = _read_manifest(out / MANIFEST) if MANIFEST in entries else None
    if not _is_ours(doc):
        first = next((e for e in entries if e != MANIFEST), MANIFEST)
        why = (
            f"holds {first!r} and no {MANIFEST} written by tpbgen"
            if MANIFEST not in entries or first != MANIFEST
            else f"holds a {MANIFEST} that tpbgen did not write"
        )
        raise _refuse(
            out,
            f"is not a tpbgen output directory: it {why}; nothing was touched. Choose a new or empty directory (or the one tpbgen wrote before)",
            "out-not-owned",
        )
    assert doc is not None
    if doc.get("format") == MANIFEST_FORMAT:
        files = {k: v for k, v in doc["files"].items() if _safe_rel(k)}
    else:  # legacy: no file list; own exactly the paths this run writes
        files = {rel: "" for rel in new_files if rel != MANIFEST and (out / rel).is_file()}
    files[MANIFEST] = ""
    return Ownership(True, files)


def _refuse(path: Path, message: str, code: str) -> TpbgenError:
    return TpbgenError([Diagnostic(message, str(path), code=code)])


def check_out_path(out: Path, headers: Path | None) -> None:
    """Refuse an --out that would put the user's own files at risk: the current directory or one
    of its ancestors, the header root, a directory inside it, or one that contains it."""
    real = Path(os.path.realpath(out))
    cwd = Path(os.path.realpath(Path.cwd()))
    if real == cwd or real in cwd.parents:
        raise _refuse(
            out,
            "is the current directory or one of its parents; --out must name a directory of its own (e.g. generated/)",
            "out-is-cwd",
        )
    if headers is not None:
        hdr = Path(os.path.realpath(headers))
        if real == hdr or hdr in real.parents:
            raise _refuse(
                out,
                f"is inside the header root {headers}; write the package elsewhere",
                "out-in-headers",
            )
        if real in hdr.parents:
            raise _refuse(
                out,
                f"contains the header root {headers}; write the package elsewhere",
                "out-contains-headers",
            )


# -- comparing ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TreeDiff:
    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]
    unchanged: tuple[str, ...]

    @property
    def clean(self) -> bool:
        """Whether the tree on disk is the package as rendered (nothing added, changed or
        removed)."""
        return not (self.added or self.changed or self.removed)


def _same(path: Path, data: bytes) -> bool:
    try:
        st = path.lstat()
        return stat.S_ISREG(st.st_mode) and st.st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def diff_tree(files: dict[str, str], out: Path, owned: Ownership | None = None) -> TreeDiff:
    """Compare the rendered `files` with `out`: only files tpbgen owns can be changed or removed;
    everything else in `out` is not tpbgen's and not compared."""
    own = owned if owned is not None else ownership(out, files)
    added, changed, unchanged = [], [], []
    for rel, text in sorted(files.items()):
        p = out / rel
        if not own.exists or not (p.exists() or p.is_symlink()):
            added.append(rel)
        elif _same(p, text.encode("utf-8")):
            unchanged.append(rel)
        else:
            changed.append(rel)
    # a file tpbgen wrote that the user has changed since is kept, not removed (see _populate)
    removed = sorted(
        rel
        for rel, sha in own.files.items()
        if rel not in files and (out / rel).is_file() and (not sha or _sha256(out / rel) == sha)
    )
    return TreeDiff(tuple(added), tuple(changed), tuple(removed), tuple(unchanged))


def patch_lines(text: str) -> list[str]:
    """`text` split into lines as `patch` and `git apply` count them: at `\\n` only (a CR, a
    vertical tab or a form feed inside a line stays in it; str.splitlines would end lines
    there), each line keeping its end."""
    parts = text.split("\n")
    out = [line + "\n" for line in parts[:-1]]
    return [*out, parts[-1]] if parts[-1] else out


def tree_patch(files: dict[str, str], out: Path, diff: TreeDiff) -> str:
    """A unified diff of what `generate` would change in `out`: each file of `d` that is added,
    changed or removed. Paths as they open from the current directory, with git's `a/` `b/`
    prefixes (`patch -p1` or `git apply` there makes `out` current); absolute ones as they are."""
    import difflib

    def lines(p: Path | None) -> list[str]:
        if p is None:
            return []
        try:
            data = read_regular(p, str(p))
        except TpbgenError:  # a FIFO or a directory where the file goes: no text to patch
            return []
        return patch_lines(data.decode("utf-8", "replace"))

    chunks: list[str] = []
    for rel in sorted({*diff.added, *diff.changed, *diff.removed}):
        name = Path(shown_path((out / rel).as_posix())).as_posix()
        a, b = (name, name) if os.path.isabs(name) else (f"a/{name}", f"b/{name}")
        before = lines(out / rel) if rel not in diff.added else []
        after = patch_lines(files[rel]) if rel in files else []
        body = difflib.unified_diff(
            before,
            after,
            a if rel not in diff.added else "/dev/null",
            b if rel in files else "/dev/null",
        )
        for line in body:
            chunks.append(
                line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
            )
    return "".join(chunks)


# -- writing ------------------------------------------------------------------------------------
@dataclass
class WriteResult:
    diff: TreeDiff
    notes: list[Diagnostic] = field(default_factory=list)  # leftovers cleaned, files kept


def write_tree(files: dict[str, str], out: Path) -> WriteResult:
    """Make `out` hold exactly the rendered files (plus every foreign entry it had), atomically."""
    try:
        return _write_tree(files, out)
    except OSError as exc:
        raise os_error(exc, internal=(out.parent, f".{out.name}.tpbgen-")) from None


def os_error(
    exc: OSError, fallback: Path | None = None, internal: tuple[Path, str] | None = None
) -> TpbgenError:
    """`PATH: what happened` for a fault of the environment (exit 2, not a bug). `internal`: a
    directory and a name prefix of tpbgen's own entries there (the staging tree, the lock); a
    fault on one of them is reported at the output the user named, not at a path they never
    gave."""
    where = exc.filename if exc.filename is not None else (str(fallback) if fallback else "")
    what = exc.strerror or str(exc)
    if internal is not None and where:
        folder, prefix = internal
        at = Path(os.fsdecode(where))
        if at.parent == folder and at.name.startswith(prefix):
            out = folder / prefix[1:].removesuffix(".tpbgen-")
            return TpbgenError(
                [Diagnostic(f"cannot write the output here: {what}", str(out), code="os-error")]
            )
    if exc.filename2 is not None:
        what += f" (-> {exc.filename2})"
    return TpbgenError([Diagnostic(what, str(where), code="os-error")])


def _write_tree(files: dict[str, str], out: Path) -> WriteResult:
    """Make `out` hold exactly `files` (what tpbgen does not own in it kept): nothing is written
    when it already does; otherwise a marked staging tree is filled and swapped in atomically
    (the old tree restored if the swap fails half way), under a lock on the parent directory."""
    if out.is_symlink() and out.is_dir():
        out = Path(os.path.realpath(out))  # write where the link points; never replace the link
    if not all(_safe_rel(rel) for rel in files):
        raise AssertionError("rendered file names must be relative paths without . or ..")
    parent = out.parent
    parent.mkdir(parents=True, exist_ok=True)
    with _locked(parent, out):
        notes = _remove_leftovers(parent, out)
        own = ownership(out, files)
        d = diff_tree(files, out, own)
        if d.clean:
            return WriteResult(d, notes)
        staging = parent / f".{out.name}{_TMP_INFIX}{os.getpid()}-{secrets.token_hex(4)}"
        try:
            checkpoint("mkdir staging")
            staging.mkdir()
            (staging / _STAGING_MARKER).write_bytes(b"")
            kept = _populate(staging, files, out, own, d)
            notes.extend(kept)
            checkpoint("unmark staging")
            (staging / _STAGING_MARKER).unlink()
            checkpoint("swap")
            if own.exists:
                shutil.copystat(out, staging, follow_symlinks=False)  # the directory keeps its mode
                _exchange(staging, out)
            else:
                os.rename(staging, out)
        except BaseException:
            old = parent / f"{staging.name}-old"
            if (
                own.exists and not out.exists() and old.is_dir()
            ):  # the fallback failed between its renames
                os.rename(old, out)
            shutil.rmtree(staging, ignore_errors=True)
            raise
        checkpoint("remove old tree")
        shutil.rmtree(staging, ignore_errors=True)  # now the old tree
        return WriteResult(d, notes)


def _populate(
    staging: Path, files: dict[str, str], out: Path, own: Ownership, d: TreeDiff
) -> list[Diagnostic]:
    """The new tree in `staging`: tpbgen's files (the unchanged ones linked or copied from
    `out`, MANIFEST last), then every entry of `out` tpbgen did not write carried over where it
    was, then the directories only tpbgen's old files made, left empty, removed. Returns the
    notes about files kept; refuses a collision with a file tpbgen now writes."""
    unchanged = set(d.unchanged)
    new_dirs = {p for rel in files for p in _parents(rel)}
    for rel, text in sorted(
        files.items(), key=lambda kv: (kv[0] == MANIFEST, kv[0])
    ):  # MANIFEST last
        dst = staging / rel
        checkpoint(f"write {rel}")
        dst.parent.mkdir(parents=True, exist_ok=True)
        if rel in unchanged:
            _link_or_copy(out / rel, dst)
        else:
            with open(dst, "xb") as fh:
                fh.write(text.encode("utf-8"))
    if not own.exists:
        return []
    notes: list[Diagnostic] = []
    # carry every entry tpbgen did not write into the new tree, where it was
    for dirpath, dirnames, filenames in os.walk(out):
        rel_dir = Path(dirpath).relative_to(out).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        for name in sorted(filenames) + [
            n for n in sorted(dirnames) if os.path.islink(os.path.join(dirpath, n))
        ]:
            rel = f"{rel_dir}/{name}" if rel_dir else name
            notes += _carry_file(rel, staging, files, out, own, new_dirs)
        for name in list(dirnames):
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if os.path.islink(os.path.join(dirpath, name)):
                dirnames.remove(name)  # carried above as a link, not followed
                continue
            _carry_dir(rel, staging, files, out)
    # a directory only tpbgen's files made, and nothing is left in: gone with them
    owned_dirs = {p for rel in own.files for p in _parents(rel)}
    for rel in sorted(owned_dirs - new_dirs, key=lambda r: -r.count("/")):
        with contextlib.suppress(OSError):
            (staging / rel).rmdir()  # fails (and stays) when anything was carried into it
    return notes


def _carry_file(
    rel: str, staging: Path, files: dict[str, str], out: Path, own: Ownership, new_dirs: set[str]
) -> list[Diagnostic]:
    """One file (or link) of the old tree: dropped when it is tpbgen's and no longer generated
    (kept, with a note, when it changed since), adopted when it is byte for byte what tpbgen
    writes there, refused when it collides with a new file or directory, else carried."""
    src = out / rel
    notes: list[Diagnostic] = []
    if rel in own.files:
        if rel in files or rel == MANIFEST:
            return notes
        expected = own.files[rel]
        if not expected or _sha256(src) == expected:
            return notes  # tpbgen's, no longer generated: removed
        notes.append(
            Diagnostic(
                "kept: tpbgen wrote it but it is no longer generated, and it changed since (not removed)",
                str(src),
                severity=Severity.WARNING,
                code="out-kept",
            )
        )
    if rel in files and _same(src, files[rel].encode("utf-8")):
        return notes  # byte for byte what tpbgen writes there (e.g. checked in by git): adopted, nothing lost
    if rel in files or rel in new_dirs:
        raise _refuse(
            src,
            "is not tpbgen's (not in its MANIFEST), and the new package has a file of that name; move it away and run again",
            "out-collision",
        )
    checkpoint(f"carry {rel}")
    dst = staging / rel
    dst.parent.mkdir(parents=True, exist_ok=True)
    _link_or_copy(src, dst)
    return notes


def _carry_dir(rel: str, staging: Path, files: dict[str, str], out: Path) -> None:
    """One directory of the old tree, made in the new one (its entries are carried one by one);
    refused when the new package has a file of that name."""
    if rel in files:
        raise _refuse(
            out / rel,
            "is a directory that tpbgen did not write, and the new package has a file of that name; move it away and run again",
            "out-collision",
        )
    checkpoint(f"carry {rel}/")
    (staging / rel).mkdir(exist_ok=True)
    shutil.copystat(out / rel, staging / rel, follow_symlinks=False)


def _parents(rel: str) -> Iterator[str]:
    parts = rel.split("/")
    for i in range(1, len(parts)):
        yield "/".join(parts[:i])


def _sha256(path: Path) -> str:
    """The sha256 of a regular file ("" for anything else: a FIFO there is never opened)."""
    try:
        return hashlib.sha256(read_regular(path, str(path))).hexdigest()
    except (OSError, TpbgenError):
        return ""


def _link_or_copy(src: Path, dst: Path) -> None:
    if src.is_symlink():
        os.symlink(os.readlink(src), dst)
        return
    try:
        os.link(src, dst, follow_symlinks=False)
    except OSError as exc:
        if exc.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP, errno.EACCES):
            raise
        shutil.copy2(src, dst, follow_symlinks=False)


def _marker_or_manifest(tree: Path) -> bool:
    return (tree / _STAGING_MARKER).exists() or _is_ours(_read_manifest(tree / MANIFEST))


def _remove_leftovers(parent: Path, out: Path) -> list[Diagnostic]:
    """Staging and old trees of a killed run (ours by name and by content) are removed and
    reported; an old tree whose output vanished between the two fallback renames is put back."""
    notes = []
    prefix = f".{out.name}{_TMP_INFIX}"
    for entry in sorted(parent.iterdir()):
        if not entry.name.startswith(prefix) or entry.is_symlink() or not entry.is_dir():
            continue
        if not _marker_or_manifest(entry):
            notes.append(
                Diagnostic(
                    "left alone: named like a tpbgen staging tree but not one",
                    str(entry),
                    severity=Severity.WARNING,
                    code="out-leftover",
                )
            )
            continue
        if not out.exists() and not (entry / _STAGING_MARKER).exists():
            checkpoint("restore interrupted swap")
            os.rename(entry, out)
            notes.append(
                Diagnostic(
                    "restored the output from an interrupted run",
                    str(out),
                    severity=Severity.WARNING,
                    code="out-leftover",
                )
            )
            continue
        checkpoint(f"remove leftover {entry.name}")
        shutil.rmtree(entry)
        notes.append(
            Diagnostic(
                "removed the staging tree of an interrupted run",
                str(entry),
                severity=Severity.WARNING,
                code="out-leftover",
            )
        )
    return notes


_LOCK_SUFFIX = ".tpbgen-lock"  # .<out name>.tpbgen-lock beside the output, while a run writes it


@contextlib.contextmanager
def _locked(parent: Path, out: Path) -> Iterator[None]:
    """An exclusive, non-blocking lock on this output: a `flock` on `.<out name>.tpbgen-lock`
    beside it (made for the run and removed at its end; a run killed leaves it, unlocked, to the
    next), so two runs into one output never interleave while runs into other folders of the
    same parent do not wait for each other. A shared `flock` on the parent directory is taken
    too: a tpbgen that locks the whole parent (the versions before this one) is still waited for."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock (documented)
        yield
        return
    busy = _refuse(
        out,
        "another tpbgen is writing this output right now (it holds the lock on it); nothing "
        "was written, run again when it has finished",
        "out-locked",
    )
    dir_fd = os.open(parent, os.O_RDONLY)
    try:
        try:
            fcntl.flock(dir_fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            raise busy from None
        lock = parent / f".{out.name}{_LOCK_SUFFIX}"
        fd = _lock_file(lock, busy)
        try:
            yield
        finally:
            with contextlib.suppress(FileNotFoundError):
                lock.unlink()  # (while still held: a run that opened it sees it gone, and retries)
            os.close(fd)
    finally:
        os.close(dir_fd)


def _lock_file(lock: Path, busy: TpbgenError) -> int:
    """The descriptor of `lock`, held under an exclusive flock, and still the file at that path
    (one that the run before removed after this run opened it is opened again)."""
    import fcntl

    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(8):
        fd = os.open(lock, flags, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.path.samestat(os.fstat(fd), os.stat(lock)):
                return fd
        except BlockingIOError:
            os.close(fd)
            raise busy from None
        except FileNotFoundError:
            pass
        os.close(fd)
    raise busy


# -- the exchange ---------------------------------------------------------------------------------
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2  # Linux renameat2 flag; RENAME_SWAP for macOS renamex_np has the same value


def _exchange_syscall() -> Callable[[bytes, bytes], int] | None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None
    if sys.platform.startswith("linux") and hasattr(libc, "renameat2"):
        fn = libc.renameat2
        fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        return lambda a, b: int(fn(_AT_FDCWD, a, _AT_FDCWD, b, _RENAME_EXCHANGE))
    if sys.platform == "darwin" and hasattr(libc, "renamex_np"):
        fn = libc.renamex_np
        fn.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint]
        return lambda a, b: int(fn(a, b, _RENAME_EXCHANGE))
    return None


def _exchange(a: Path, b: Path) -> None:
    """Swap two directories in one step; where the system cannot, two renames (the next run
    repairs a kill between them, see _remove_leftovers)."""
    syscall = _exchange_syscall()
    if syscall is not None:
        if syscall(os.fsencode(a), os.fsencode(b)) == 0:
            return
        err = ctypes.get_errno()
        if err not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
            raise OSError(err, os.strerror(err), str(b))
    old = b.parent / f"{a.name}-old"
    os.rename(b, old)
    checkpoint("between fallback renames")
    os.rename(a, b)
    os.rename(old, a)
