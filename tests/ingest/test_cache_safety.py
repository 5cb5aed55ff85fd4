"""The IR cache cannot run foreign code, trusts only a private directory, survives any damaged
entry at the cost of time (one warning, never exit 3), stays bounded, and can be inspected and
cleared from the command line without touching anything that is not its own."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest

from tpbgen import cache as cache_mod
from tpbgen.cli import main
from tpbgen.errors import TpbgenError
from tpbgen.frontend.discover import discover
from tpbgen.frontend.ingest import cache_key, ingest_root, inputs_hash
from tpbgen.ir import io as ir_io

from .synth import make_tree


@pytest.fixture
def drop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "drop"
    make_tree(root)
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(cache_mod.SHARED_ENV, raising=False)
    return root


def entry_path(root: Path) -> Path:
    src = discover(root)[0]
    return cache_mod.Cache().path("ir", src.name, cache_key(inputs_hash(src)))


def reference(root: Path) -> str:
    return ir_io.dumps(ingest_root(root, use_cache=False)[0].gen)


class _Explode:
    """Unpickling this runs a command: what a planted pickle would do."""

    def __init__(self, sentinel: Path) -> None:
        self.sentinel = sentinel

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.sentinel}",))


def test_a_planted_entry_that_would_run_code_does_not(drop: Path, tmp_path: Path) -> None:
    sentinel = tmp_path / "pwned"
    bomb = pickle.dumps(_Explode(sentinel))
    p = entry_path(drop)
    p.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    p.write_bytes(bomb)  # at the entry's own name
    p.with_suffix(".pickle").write_bytes(bomb)  # and where the pickle cache used to look
    r = ingest_root(drop)[0]
    assert not sentinel.exists()
    assert not r.from_cache and ir_io.dumps(r.gen) == reference(drop)
    assert [w.code for w in r.warnings] == ["cache"] and "not a tpbgen cache entry" in r.warnings[
        0
    ].message
    # a well-formed header line in front of a pickle is caught by the checksum, before any decoding
    head = {
        "format": cache_mod.FORMAT,
        "kind": "ir",
        "key": cache_key(inputs_hash(discover(drop)[0])),
        "payload_sha256": "0" * 64,
    }
    p.write_bytes(json.dumps(head).encode() + b"\n" + bomb)
    r = ingest_root(drop)[0]
    assert not sentinel.exists() and not r.from_cache and "checksum" in r.warnings[0].message


def test_the_cache_directory_is_private(drop: Path, tmp_path: Path) -> None:
    ingest_root(drop)
    assert (tmp_path / "cache").stat().st_mode & 0o777 == 0o700
    assert all(p.stat().st_mode & 0o777 == 0o600 for p in (tmp_path / "cache").iterdir())


def test_a_world_writable_cache_directory_is_not_used(
    drop: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = tmp_path / "cache"
    d.mkdir()
    d.chmod(0o777)
    results = ingest_root(drop)
    warnings = [w for r in results for w in r.warnings]
    assert (
        len(warnings) == 1
        and "writable by others (mode 777)" in warnings[0].message
        and "TPBGEN_CACHE_SHARED=1" in warnings[0].message
    )
    assert os.listdir(d) == []  # nothing written to it, nothing read from it
    assert ir_io.dumps(results[0].gen) == reference(drop)
    monkeypatch.setenv(cache_mod.SHARED_ENV, "1")  # the explicit opt-in
    ingest_root(drop)
    assert ingest_root(drop)[0].from_cache


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="changing a file's owner needs root"
)
def test_entries_and_directories_owned_by_another_user_are_not_used(
    drop: Path, tmp_path: Path
) -> None:
    ingest_root(drop)
    p = entry_path(drop)
    os.chown(p, 12345, 12345)
    r = ingest_root(drop)[0]
    assert not r.from_cache and "owned by another user (uid 12345)" in r.warnings[0].message
    os.chown(tmp_path / "cache", 12345, 12345)
    r = ingest_root(drop)[0]
    assert not r.from_cache and "cache directory is owned by another user" in r.warnings[0].message


def _sealed(p: Path, head: bytes, body: bytes) -> bytes:
    """`body` as an entry this user's tpbgen made (authenticated with its key), under the kind
    and key of the entry whose header line is `head`."""
    h = json.loads(head)
    c = cache_mod.Cache(p.parent)
    assert c.usable()
    return c.seal(h["kind"], h["key"], body, 0)


def _damage(kind: str, p: Path) -> None:
    raw = p.read_bytes()
    head, _, body = raw.partition(b"\n")
    if kind == "truncated":
        p.write_bytes(raw[: len(raw) // 2])
    elif kind == "empty":
        p.write_bytes(b"")
    elif kind == "garbage":
        p.write_bytes(os.urandom(4096))
    elif kind == "other-format":
        h = json.loads(head)
        h["format"] = "tpbgen-cache/0"
        p.write_bytes(json.dumps(h).encode() + b"\n" + body)
    elif kind == "stale-key":
        h = json.loads(head)
        h["key"] = "0" * 64
        p.write_bytes(json.dumps(h).encode() + b"\n" + body)
    elif kind == "flipped-byte":
        b = bytearray(body)
        b[len(b) // 2] ^= 0x01
        p.write_bytes(head + b"\n" + bytes(b))
    elif kind == "not-ir":  # a valid entry whose payload is not a Generation
        body = b'{"name": 1}'
        p.write_bytes(_sealed(p, head, body))
    elif kind == "deep":
        body = b"[" * 100000 + b"]" * 100000
        p.write_bytes(_sealed(p, head, body))
    elif kind == "symlink":
        target = p.with_name("elsewhere.json")
        p.rename(target)
        os.symlink(target.name, p)
    elif kind == "directory":
        p.unlink()
        p.mkdir()
    elif kind == "unreadable":
        p.chmod(0)
        if os.geteuid() == 0:  # root reads it anyway: make it a FIFO-free unreadable thing instead
            p.unlink()
            os.mkfifo(p)
    else:  # pragma: no cover
        raise AssertionError(kind)


@pytest.mark.parametrize(
    "kind",
    [
        "truncated",
        "empty",
        "garbage",
        "other-format",
        "stale-key",
        "flipped-byte",
        "not-ir",
        "deep",
        "symlink",
        "directory",
        "unreadable",
    ],
)
def test_a_damaged_entry_costs_only_time(
    drop: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ingest_root(drop)
    _damage(kind, entry_path(drop))
    code = main(["inspect", "--gen", "synth", "--headers", str(drop), "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in err and "internal error" not in err
    assert out == reference(drop)
    assert err.count("[cache]") <= 1, err


def test_the_cache_is_bounded_least_recently_used_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_mod, "MAX_ENTRIES", 3)
    c = cache_mod.Cache(tmp_path / "c")
    for i in range(5):
        c.put("ir", f"g{i}", f"{i:064x}", {"i": i})
        os.utime(c.path("ir", f"g{i}", f"{i:064x}"), (1000 + i, 1000 + i))
    c.get("ir", "g2", f"{2:064x}")  # used again: now the most recent
    c.put("ir", "g5", f"{5:064x}", {"i": 5})
    left = sorted(p.name.split("-")[1] for p, _ in c.entries())
    assert left == ["g2", "g4", "g5"]


def test_cache_info_and_clear(
    drop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ingest_root(drop)
    d = tmp_path / "cache"
    (d / "someone-elses.txt").write_text("not ours\n")
    assert main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    assert f"directory: {d}" in out and "entries:   1 of at most" in out and "usable:    yes" in out
    assert main(["cache", "clear"]) == 0
    assert "removed 1 cache entries" in capsys.readouterr().out
    assert os.listdir(d) == ["someone-elses.txt"]


def test_a_payload_too_deep_for_json_is_not_kept(tmp_path: Path) -> None:
    """json bounds its own recursion (apart from sys.setrecursionlimit on Python 3.12+): a body
    nested past it is simply not cached, never an internal error."""
    c = cache_mod.Cache(tmp_path / "c")
    deep: list[object] = []
    for _ in range(200_000):
        deep = [deep]
    c.put("ir", "g", f"{1:064x}", {"body": deep})
    assert c.get("ir", "g", f"{1:064x}") is None
    assert c.entries() == []


@pytest.mark.parametrize("edit", ["edited", "added", "removed"])
def test_headers_changed_while_being_read_are_refused_and_not_cached(
    drop: Path, monkeypatch: pytest.MonkeyPatch, edit: str
) -> None:
    """A header edited, added or removed between tpbgen's read of the tree (the cache key, the
    comments) and the preprocessor's: the run is refused, naming the header, and no cache entry
    is written (it would hold one version's IR under the other one's key)."""
    from tpbgen.frontend.preprocess import Preprocessing

    src = discover(drop)[0]
    headers = sorted(src.tpb_dir.glob("*.h"))
    key_before = entry_path(drop)
    real = Preprocessing.run

    def preprocess_after_an_edit(self: Preprocessing) -> str:
        if edit == "edited":
            headers[0].write_text(headers[0].read_text() + "\n// edited meanwhile\n")
        elif edit == "added":
            (src.tpb_dir / "zz_new.h").write_text("// a new header\n")
        else:
            headers[-1].unlink()
        return real(self)

    monkeypatch.setattr(Preprocessing, "run", preprocess_after_an_edit)
    with pytest.raises(TpbgenError) as info:
        ingest_root(drop)
    (d,) = info.value.diagnostics
    assert d.code == "changed-during-read" and "run again" in d.message
    named = {"edited": headers[0], "added": src.tpb_dir / "zz_new.h", "removed": headers[-1]}[edit]
    assert d.file == named.relative_to(drop).as_posix()
    assert not key_before.exists()  # nothing filed under the key of what was read first
    monkeypatch.setattr(Preprocessing, "run", real)
    if edit == "removed" and not list(src.tpb_dir.glob("*.h")):
        return
    again = ingest_root(drop)[0]  # a run that reads one version throughout is fine
    assert not again.from_cache and again.gen.inputs_sha256 == inputs_hash(src)


def test_every_generation_is_read_before_its_preprocessor_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check above compares tpbgen's read of a generation with a read made after its
    preprocessor ran; it covers the preprocessor's read only if tpbgen's came first. With a
    generation's cpp started ahead (while the one before it is parsed), that order is easy to
    lose: here a header of the second generation is saved just after its preprocessor read it.
    Read first, the run refuses that header; read after, it would have read the saved version
    twice, agreed with itself and cached an IR whose comments and key are of the new version and
    whose syntax is of the old one."""
    import tpbgen.frontend.ingest as ingest_mod
    from tpbgen.frontend.preprocess import Preprocessing

    root = tmp_path / "drop"
    for gen in ("alpha", "beta", "gamma"):
        make_tree(root, gen)
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    events: list[tuple[str, str]] = []
    real_read, real_run = ingest_mod.read_inputs, Preprocessing.run
    beta_ops = root / "neuron_beta_arch_isa" / "tpb" / "aws_neuron_isa_tpb_ops.h"

    def read(src: object) -> object:
        events.append(("read", src.name))  # type: ignore[attr-defined]
        return real_read(src)  # type: ignore[arg-type]

    def run(self: Preprocessing) -> str:
        events.append(("preprocess", self.gen.name))
        done = real_run(self)
        if self.gen.name == "beta":
            beta_ops.write_text(beta_ops.read_text() + "\n// saved meanwhile\n")
        return done

    monkeypatch.setattr(ingest_mod, "read_inputs", read)
    monkeypatch.setattr(Preprocessing, "run", run)
    with pytest.raises(TpbgenError) as info:
        ingest_root(root)
    (d,) = info.value.diagnostics
    assert d.code == "changed-during-read"
    assert d.file == beta_ops.relative_to(root).as_posix()
    for gen in ("alpha", "beta", "gamma"):
        first_read = events.index(("read", gen))
        assert first_read < events.index(("preprocess", gen)), events
    # the two generations read whole are cached; the refused one is not
    cached = sorted(e.name.split("-")[1] for e, _ in cache_mod.Cache().entries())
    assert cached == ["alpha", "gamma"]
