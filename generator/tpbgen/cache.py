"""tpbgen's on-disk cache: data-only entries keyed by content hash, in a private directory.

Nothing read from the cache can execute code: an entry is one line of JSON (`format`, `kind`,
`key`, the number of blobs, an HMAC-SHA256 of all of these and of everything after that line)
and then the payload, a JSON document on one line, and then its blobs, one JSON text a line (kept
as text, parsed only when read: the IR's function bodies); the line and the HMAC are checked
before the payload is parsed and turned into IR dataclasses field by field. There is no pickle
and no import by name.

The HMAC's key is this user's own (`.hmac-key-<uid>` in the directory: 32 random bytes, a regular
file this user owns, mode 0600, created on first use): an entry is used only when this user's key
made it. A plain checksum would not do: the render cache holds the package's Python, and anyone
who can write the directory could replace it and recompute a checksum. With the key, another
writer of the directory (the shared mode below) can delete or damage entries, which costs only
time, but cannot make one this user's tpbgen reads. A key file that is not this user's private
regular file is not used (one warning, then tpbgen runs uncached). The directory is created
0700; an existing one that another user owns, or that is group- or world-writable, is not used
(one warning, then tpbgen runs uncached) unless `TPBGEN_CACHE_SHARED=1` says the user accepts it
(entries are still authenticated with this user's key: users of a shared directory do not reuse
each other's entries, each rebuilds what another wrote).
An entry another user owns, a symlink, a damaged, truncated, stale or unreadable entry costs only
time: it is rebuilt, with at most one warning per run. The cache holds at most `MAX_ENTRIES`
entries and `MAX_BYTES` bytes; the least recently used go first.

Where: `$TPBGEN_CACHE_DIR`, else `$XDG_CACHE_HOME/tpbgen`, else `~/.cache/tpbgen`.
`tpbgen cache info` shows it, `tpbgen cache clear` empties it (only tpbgen's entries are removed).
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import re
import secrets
import stat
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import Diagnostic, Severity

FORMAT = "tpbgen-cache/3"  # 2: blobs after the payload; 3: an HMAC, not a plain checksum
MAX_ENTRIES = 64
MAX_BYTES = 256 * 1024 * 1024
MAX_ENTRY_BYTES = 64 * 1024 * 1024
_ENTRY = re.compile(r"^(?P<kind>[a-z]+)-(?P<name>[A-Za-z0-9_]+)-(?P<key>[0-9a-f]{32})\.json$")
_TMP = re.compile(r"^\.[a-z]+-[A-Za-z0-9_]+-[0-9a-f]{32}\.json\.[0-9a-f]+\.tmp$")
SHARED_ENV = "TPBGEN_CACHE_SHARED"
KEY_BYTES = 32


def key_file_name() -> str:
    """The name of this user's HMAC key file in the cache directory (one per user: a shared
    directory holds several)."""
    return f".hmac-key-{os.geteuid()}" if hasattr(os, "geteuid") else ".hmac-key"


def default_dir() -> Path:
    """Where the cache lives: $TPBGEN_CACHE_DIR, else tpbgen/ under $XDG_CACHE_HOME (or
    ~/.cache)."""
    env = os.environ.get("TPBGEN_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tpbgen"


class Unusable(Exception):
    """An entry that is not a valid tpbgen cache entry for this key; the message says why."""


@dataclass
class Cache:
    directory: Path = field(default_factory=default_dir)
    enabled: bool = True
    warnings: list[Diagnostic] = field(default_factory=list)
    _checked: bool | None = None
    _secret: bytes = b""

    # -- the directory -----------------------------------------------------------------------------
    def usable(self) -> bool:
        """Whether the directory exists (created 0700 if not) and only this user can change it."""
        if not self.enabled:
            return False
        if self._checked is None:
            self._checked = self._check_dir()
        return self._checked

    def _check_dir(self) -> bool:
        d = self.directory
        try:
            if not d.exists():
                d.mkdir(mode=0o700, parents=True)
            st = os.stat(d)
        except OSError as exc:
            self._warn(f"cache directory unusable ({exc.strerror}); running without the cache", d)
            return False
        if not stat.S_ISDIR(st.st_mode):
            self._warn("cache directory is not a directory; running without the cache", d)
            return False
        if os.environ.get(SHARED_ENV) != "1":
            problem = _untrusted(st)
            if problem:
                self._warn(
                    f"cache directory {problem}; running without the cache (set {SHARED_ENV}=1 to use it anyway)",
                    d,
                )
                return False
        try:
            self._secret = self._key()
        except (OSError, Unusable) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self._warn(
                f"cache key unusable ({why}); running without the cache", d / key_file_name()
            )
            return False
        return True

    def _key(self) -> bytes:
        """This user's HMAC key: read from its file, checked to be a private regular file of
        this user's, or made (atomically: a concurrent run makes its own and one of the two wins,
        the other reads the winner's)."""
        p = self.directory / key_file_name()
        for _ in range(2):
            try:
                return _read_key(p)
            except FileNotFoundError:
                pass
            tmp = p.parent / f"{p.name}.{secrets.token_hex(6)}.tmp"
            fd = os.open(
                tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600
            )
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(secrets.token_bytes(KEY_BYTES))
                with contextlib.suppress(FileExistsError):
                    os.link(tmp, p)  # never replaces: the first key made stays the key
            finally:
                with contextlib.suppress(OSError):
                    tmp.unlink()
        return _read_key(p)

    def seal(self, kind: str, key: str, body: bytes, blobs: int = 0) -> bytes:
        """An entry's bytes: its header line (authenticated with this user's key) and `body`.
        The cache must be usable (its key read)."""
        head = {"format": FORMAT, "kind": kind, "key": key, "blobs": blobs}
        head["payload_hmac"] = self._mac(kind, key, blobs, body)
        return json.dumps(head, sort_keys=True).encode("ascii") + b"\n" + body

    def _mac(self, kind: str, key: str, blobs: object, body: bytes | memoryview) -> str:
        if not self._secret:
            raise RuntimeError("the cache's key is read by usable()")
        m = hmac.new(self._secret, f"{FORMAT}\0{kind}\0{key}\0{blobs}\0".encode(), "sha256")
        m.update(body)
        return m.hexdigest()

    def _warn(self, message: str, path: Path) -> None:
        if not any(w.code == "cache" for w in self.warnings):  # at most one warning per run
            self.warnings.append(
                Diagnostic(message, str(path), severity=Severity.WARNING, code="cache")
            )

    # -- entries -----------------------------------------------------------------------------------
    def path(self, kind: str, name: str, key: str) -> Path:
        """The file holding the `kind` entry of `name` under `key` (the key's first 32 hex
        digits)."""
        return self.directory / f"{kind}-{name}-{key[:32]}.json"

    def get(self, kind: str, name: str, key: str) -> Any | None:
        """The payload stored for (kind, name, key), or None (missing or unusable: rebuild)."""
        got = self.get_with_blobs(kind, name, key)
        return None if got is None else got[0]

    def get_with_blobs(self, kind: str, name: str, key: str) -> tuple[Any, list[str]] | None:
        """The payload and the blobs (unparsed JSON texts) stored for (kind, name, key), or None."""
        if not self.usable():
            return None
        p = self.path(kind, name, key)
        try:
            got = self._read(p, kind, key)
        except FileNotFoundError:
            return None
        except (OSError, Unusable) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self._warn(f"ignored cache entry ({why}); rebuilt it", p)
            return None
        with contextlib.suppress(OSError):
            os.utime(p)  # least recently used goes first
        return got

    def _read(self, p: Path, kind: str, key: str) -> tuple[Any, list[str]]:
        """The payload and blobs of the entry at `p`, checked to be a regular file this user owns
        (unless the cache is shared), within the size limit, of this format, made for `kind` and
        `key`, with an intact checksum; Unusable (with why) otherwise. Opened without following
        links or blocking on a FIFO."""
        fd = os.open(
            p, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )  # a FIFO must not block
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise Unusable("not a regular file")
            if (
                os.environ.get(SHARED_ENV) != "1"
                and hasattr(os, "geteuid")
                and st.st_uid != os.geteuid()
            ):
                raise Unusable(f"owned by another user (uid {st.st_uid})")
            if st.st_size > MAX_ENTRY_BYTES:
                raise Unusable(f"too large ({st.st_size} bytes)")
            raw = fh.read()
        nl = raw.find(b"\n")
        try:
            doc = json.loads(raw[:nl]) if nl >= 0 else None
        except ValueError:
            doc = None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise Unusable("not a tpbgen cache entry of this version")
        if doc.get("kind") != kind or doc.get("key") != key:
            raise Unusable("stale: made from other inputs")
        body = memoryview(raw)[nl + 1 :]  # (read in place: an entry is up to MAX_ENTRY_BYTES)
        n = doc.get("blobs", 0)
        mac = doc.get("payload_hmac")
        if not isinstance(mac, str) or not hmac.compare_digest(self._mac(kind, key, n, body), mac):
            raise Unusable(
                "damaged or forged: its checksum (an HMAC with this user's key) does not match"
            )
        try:
            payload, *blobs = str(body, "utf-8").split("\n")
            if not isinstance(n, int) or len(blobs) != n:
                raise Unusable("damaged: not as many blobs as its header says")
            return json.loads(payload), blobs
        except (ValueError, RecursionError) as exc:
            raise Unusable(f"damaged: {exc}") from None

    def put(self, kind: str, name: str, key: str, payload: Any, blobs: Sequence[str] = ()) -> None:
        """Store a JSON-able payload and its blobs (JSON texts on one line each, returned
        unparsed); a cache that cannot be written only costs time."""
        if not self.usable():
            return
        try:
            # (no check for cycles: a cyclic payload ends in RecursionError as a deep one does)
            parts = [
                json.dumps(
                    payload,
                    separators=(",", ":"),
                    sort_keys=True,
                    ensure_ascii=False,
                    check_circular=False,
                )
            ]
        except (
            RecursionError
        ):  # nested deeper than this Python's json takes (3.12+ bound C recursion apart): not kept
            return
        if any("\n" in b for b in blobs):
            raise ValueError("a cache blob is one line of JSON")
        parts.extend(blobs)
        body = "\n".join(parts).encode("utf-8")
        p = self.path(kind, name, key)
        tmp = p.parent / f".{p.name}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(
                tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600
            )
            with os.fdopen(fd, "wb") as fh:
                fh.write(self.seal(kind, key, body, len(blobs)))
            os.replace(tmp, p)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            self._warn(
                f"cannot write the cache ({exc.strerror}); running without it", self.directory
            )
            return
        self.prune()

    # -- housekeeping ------------------------------------------------------------------------------
    def entries(self) -> list[tuple[Path, os.stat_result]]:
        """tpbgen's entries (by name), most recently used first."""
        found = []
        try:
            names = os.listdir(self.directory)
        except OSError:
            return []
        for n in names:
            if _ENTRY.match(n):
                with contextlib.suppress(OSError):
                    found.append((self.directory / n, os.lstat(self.directory / n)))
        return sorted(found, key=lambda e: (-e[1].st_mtime_ns, e[0].name))

    def prune(self) -> int:
        """Drop the least recently used entries beyond MAX_ENTRIES / MAX_BYTES; how many went."""
        removed, total = 0, 0
        for i, (p, st) in enumerate(self.entries()):
            total += st.st_size
            if i >= MAX_ENTRIES or total > MAX_BYTES:
                with contextlib.suppress(OSError):
                    p.unlink()
                    removed += 1
        return removed

    def clear(self) -> int:
        """Remove tpbgen's entries, its leftover temporary files and this user's key (the next
        run makes a new one), nothing else; how many entries went."""
        n = 0
        try:
            names = os.listdir(self.directory)
        except OSError:
            return 0
        mine = key_file_name()
        for name in names:
            entry = _ENTRY.match(name) or _TMP.match(name)
            if entry or name == mine or (name.startswith(mine + ".") and name.endswith(".tmp")):
                with contextlib.suppress(OSError):
                    (self.directory / name).unlink()
                    n += bool(entry)
        self._secret, self._checked = b"", None
        return n

    def info(self) -> dict[str, Any]:
        """What `tpbgen cache info` shows: the directory, whether it is usable, the entries and
        their bytes, and the limits eviction keeps them under."""
        ents = self.entries()
        return {
            "directory": str(self.directory),
            "usable": self.usable(),
            "entries": len(ents),
            "bytes": sum(st.st_size for _, st in ents),
            "max_entries": MAX_ENTRIES,
            "max_bytes": MAX_BYTES,
        }


# -- provenance ---------------------------------------------------------------------------------
# What was read from, or stored into, which cache under which key: so that facts derived from it
# can be cached under that key too (audit/facts.py) without hashing the object again. Only the
# object's identity is held, for as long as the object lives.
_MADE_FROM: dict[int, tuple[Cache, str]] = {}


def remember(obj: object, cache: Cache, key: str) -> None:
    """`obj` is exactly what `cache` holds (or was handed to hold) under `key`."""
    oid = id(obj)
    if oid not in _MADE_FROM:
        weakref.finalize(obj, _MADE_FROM.pop, oid, None)
    _MADE_FROM[oid] = (cache, key)


def provenance(obj: object) -> tuple[Cache, str] | None:
    """(the cache, the key) `obj` was remembered with, or None: made some other way."""
    return _MADE_FROM.get(id(obj)) if obj is not None else None


def _read_key(p: Path) -> bytes:
    """The key in `p`: a regular file (no link followed, no FIFO waited on) this user owns, that
    no one else can read or write, of KEY_BYTES bytes; Unusable otherwise."""
    fd = os.open(p, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise Unusable(f"{p.name} is not a regular file")
        problem = _untrusted(st)
        if problem or (hasattr(os, "geteuid") and st.st_mode & 0o077):  # POSIX modes only
            raise Unusable(f"{p.name} {problem or 'is readable by others'}")
        secret = fh.read(KEY_BYTES + 1)
    if len(secret) != KEY_BYTES:
        raise Unusable(f"{p.name} is not a key ({len(secret)} bytes)")
    return secret


def _untrusted(status: os.stat_result) -> str:
    if hasattr(os, "geteuid") and status.st_uid != os.geteuid():
        return f"is owned by another user (uid {status.st_uid})"
    if status.st_mode & 0o022:
        return f"is writable by others (mode {stat.S_IMODE(status.st_mode):o})"
    return ""
