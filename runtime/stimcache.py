"""What the stimulus search found, kept on disk so a fresh process searches nothing.

The search (`stimulus.Stimulus`) samples and repairs words until each alternative of each
opcode's validator has seeds, valid variants of them, the values its fields were seen to take
in valid words, which fields each term depends on and which terms a re-drawn field makes fail.
That costs seconds an opcode and depends only on the generated code: the generation's chains
(`batch.py`), its structs, decode table and dispatch, the runtime modules that evaluate them and
numpy's random streams. Those files' bytes and numpy's version make the key, by the mechanism
that names the compiled C (`cbuild.inputs_digest`, `cbuild.content_key`), so a changed header
never reads a stale search.

Layout: ``<cache_dir()>/stimulus/<generation>-<key>/<opcode>.npz`` (``cbuild.cache_dir()``:
``$TPB_ISA_CACHE_DIR``, else the XDG cache). Data only: an ``.npz`` of integer arrays, read with
``allow_pickle=False`` and checked (dtype, shape, range) before use; anything else is a miss and
the search runs again. The ``stimulus`` directory is made owner-only (0700), and one owned by
another user or writable by others is not used. Writes go to a temporary file beside the
target and are renamed into place, so a reader sees a whole file or none, and concurrent
writers (which write the same bytes: the search is deterministic) cannot interleave. When a
search starts a new key's directory, the same generation's directories of other keys not
written for `PRUNE_AFTER_DAYS` are removed (a regenerated package leaves its old store behind).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import sys
import tempfile
import time
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import cbuild

#: Bumped when what is stored, or how the search makes it, changes without a file above changing.
FORMAT = "tpb_isa-stimulus/1"
#: The runtime modules whose code decides what the search finds (besides the generation's own).
RUNTIME_MODULES = ("stimulus", "chains", "vector")
#: The generation's modules the search reads: chains, structs, decode table, dispatch.
GENERATION_MODULES = ("batch", "structs", "decode", "validators")
#: Another key's directory of a generation not written for this long is removed.
PRUNE_AFTER_DAYS = 30

Words = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Found:
    """What the search found for one top-level alternative of one opcode's validator: `seeds`
    (valid words, simplest first), `enriched` (the seeds and valid variants of them), `learnt`
    (slot key -> values seen to make a term hold), `deps` (per universal term, the slots seen
    to change it), `dead` (terms never seen true), `alone` and `anyhow` (the alternative's
    terms a re-drawn field makes fail alone, and at all)."""

    seeds: Words
    enriched: Words
    learnt: Mapping[int, npt.NDArray[np.uint64]]
    deps: tuple[frozenset[int], ...]
    dead: frozenset[int]
    alone: tuple[int, ...]
    anyhow: tuple[int, ...]


def search_key(package: str) -> str | None:
    """The content key of the search of the generation package `package` (``tpb_isa.mariana``),
    or None when one of the files it depends on cannot be read (then nothing is kept)."""
    runtime = __name__.rsplit(".", 1)[0]
    names = [f"{runtime}.{m}" for m in RUNTIME_MODULES] + [
        f"{package}.{m}" for m in GENERATION_MODULES
    ]
    texts = []
    for name in names:
        mod = sys.modules.get(name)
        path = getattr(mod, "__file__", None)
        if not path:
            return None
        try:
            texts.append(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            return None
    digest = cbuild.inputs_digest("\0".join(texts), "", (FORMAT, f"numpy {np.__version__}"))
    return cbuild.content_key(digest, "-")


def _private_dir(root: Path) -> Path | None:
    """`root` made (0700) if missing; None unless it is a directory this user owns that no one
    else may write."""
    with contextlib.suppress(OSError):
        root.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            root.mkdir(mode=0o700)
        st = root.lstat()
        if (
            stat.S_ISDIR(st.st_mode)
            and st.st_uid == os.getuid()
            and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        ):
            return root
    return None


class Store:
    """The on-disk search results of one generation (see the module's doc)."""

    def __init__(self, generation: str, package: str) -> None:
        self.generation = generation
        self.package = package
        self._dir: Path | bool | None = False  # False: not looked up yet

    @property
    def directory(self) -> Path | None:
        """Where this generation's results are kept, or None when nothing can be kept."""
        if self._dir is False:
            key = search_key(self.package)
            self._dir = None
            if key is not None and not os.environ.get("TPB_ISA_NO_STIMULUS_CACHE"):
                self._dir = cbuild.cache_dir() / "stimulus" / f"{self.generation}-{key}"
        return self._dir if isinstance(self._dir, Path) else None

    def _path(self, opcode: int) -> Path | None:
        d = self.directory
        return None if d is None else d / f"{opcode:02x}.npz"

    def load(self, opcode: int, alternatives: int, slots: int) -> tuple[Found, ...] | None:
        """The results of `opcode`'s search (one per alternative), or None when they are not
        kept or are not what this search would store (`slots` fields, `alternatives`)."""
        path = self._path(opcode)
        if path is None or _private_dir(path.parent.parent) is None or not path.is_file():
            return None
        try:
            with np.load(path, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
            return _decode(arrays, alternatives, slots)
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):
            return None

    def save(self, opcode: int, found: Sequence[Found]) -> None:
        """Keep `found` (a failure to write is not an error: the next process searches)."""
        path = self._path(opcode)
        if path is None or _private_dir(path.parent.parent) is None:
            return
        with contextlib.suppress(OSError):
            if not path.parent.is_dir():
                path.parent.mkdir(mode=0o700, exist_ok=True)
                self._prune(path.parent)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as f:
                    np.savez(f, **_encode(found))  # type: ignore[arg-type, unused-ignore]
                os.replace(tmp, path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)

    def _prune(self, keep: Path) -> None:
        """Remove this generation's directories of other keys not written for
        PRUNE_AFTER_DAYS (only names this module makes: `<generation>-<20 hex digits>`)."""
        name = re.compile(re.escape(self.generation) + r"-[0-9a-f]{20}")
        cutoff = time.time() - PRUNE_AFTER_DAYS * 86400
        for d in keep.parent.iterdir():
            if d == keep or not name.fullmatch(d.name) or d.is_symlink() or not d.is_dir():
                continue
            with contextlib.suppress(OSError):
                if d.stat().st_mtime < cutoff:
                    shutil.rmtree(d)


def _encode(found: Sequence[Found]) -> dict[str, npt.NDArray[Any]]:
    out: dict[str, npt.NDArray[Any]] = {"alternatives": np.array([len(found)], dtype=np.int64)}
    for a, f in enumerate(found):
        keys = sorted(f.learnt)
        out[f"{a}.seeds"] = np.asarray(f.seeds, dtype=np.uint8).reshape(-1, 64)
        out[f"{a}.enriched"] = np.asarray(f.enriched, dtype=np.uint8).reshape(-1, 64)
        out[f"{a}.learnt_keys"] = np.array(keys, dtype=np.int64)
        out[f"{a}.learnt_sizes"] = np.array([f.learnt[k].size for k in keys], dtype=np.int64)
        out[f"{a}.learnt_values"] = np.concatenate(
            [np.asarray(f.learnt[k], dtype=np.uint64) for k in keys] or [np.zeros(0, np.uint64)]
        )
        out[f"{a}.deps"] = np.array(
            [(j, k) for j, d in enumerate(f.deps) for k in sorted(d)], dtype=np.int64
        ).reshape(-1, 2)
        out[f"{a}.terms"] = np.array([len(f.deps)], dtype=np.int64)
        out[f"{a}.dead"] = np.array(sorted(f.dead), dtype=np.int64)
        out[f"{a}.alone"] = np.array(f.alone, dtype=np.int64)
        out[f"{a}.anyhow"] = np.array(f.anyhow, dtype=np.int64)
    return out


def _ints(a: npt.NDArray[Any], dtype: Any, limit: int | None = None) -> npt.NDArray[Any]:
    if a.dtype != np.dtype(dtype) or (limit is not None and a.size and not (a >= 0).all()):
        raise ValueError("not the stored type")
    if limit is not None and a.size and int(a.max()) >= limit:
        raise ValueError("out of range")
    return a


def _words(a: npt.NDArray[Any]) -> Words:
    if a.dtype != np.uint8 or a.ndim != 2 or a.shape[1] != 64:
        raise ValueError("not words")
    a = np.ascontiguousarray(a)
    a.flags.writeable = False
    return a


def _decode(z: Mapping[str, npt.NDArray[Any]], alternatives: int, slots: int) -> tuple[Found, ...]:
    if _ints(z["alternatives"], np.int64).tolist() != [alternatives]:
        raise ValueError("another validator")
    out = []
    for a in range(alternatives):
        terms = int(_ints(z[f"{a}.terms"], np.int64)[0])
        keys = _ints(z[f"{a}.learnt_keys"], np.int64).tolist()
        sizes = _ints(z[f"{a}.learnt_sizes"], np.int64, 1 << 20).tolist()
        values = _ints(z[f"{a}.learnt_values"], np.uint64)
        if len(keys) != len(sizes) or sum(sizes) != values.size:
            raise ValueError("learnt values do not add up")
        bounds = np.cumsum([0, *sizes])
        learnt = {k: values[bounds[i] : bounds[i + 1]].copy() for i, k in enumerate(keys)}
        pairs = _ints(z[f"{a}.deps"], np.int64)
        if pairs.ndim != 2 or pairs.shape[1] != 2:
            raise ValueError("deps are pairs")
        deps: list[set[int]] = [set() for _ in range(terms)]
        for j, k in pairs.tolist():
            if not (0 <= j < terms and 0 <= k < slots):
                raise ValueError("dep out of range")
            deps[j].add(k)
        out.append(
            Found(
                _words(z[f"{a}.seeds"]),
                _words(z[f"{a}.enriched"]),
                learnt,
                tuple(frozenset(d) for d in deps),
                frozenset(_ints(z[f"{a}.dead"], np.int64, terms).tolist()),
                tuple(_ints(z[f"{a}.alone"], np.int64, terms).tolist()),
                tuple(_ints(z[f"{a}.anyhow"], np.int64, terms).tolist()),
            )
        )
    return tuple(out)
