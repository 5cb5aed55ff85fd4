"""The stimulus search's results kept on disk (`_runtime/stimcache.py`): a fresh process reads
them and searches nothing; the words are the same whether the search ran now or was read; the
store is data only, owner-only, and a damaged or foreign one is not trusted; a search that runs
long says so on standard error. Each case is a fresh interpreter on its own cache directory."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from tpb_paths import REPO

GEN, OP = "sunda", 0x43

SCRIPT = """
import hashlib, json, sys
from tpb_isa._runtime import stimulus
searches = []
real = stimulus.Stimulus._search
def counted(self, opcode, alt):
    searches.append((opcode, alt))
    return real(self, opcode, alt)
stimulus.Stimulus._search = counted
stimulus.PROGRESS_EVERY = float(sys.argv[1])
from tpb_isa import {gen} as m
valid = m.random_words(300, opcode={op}, seed=5)
near, rules = m.bench.near_misses(200, {op}, seed=5)
both = m.random_words(120, seed=9) if sys.argv[2] == "all" else valid
print(json.dumps({{
    "valid": hashlib.sha256(valid.tobytes()).hexdigest(),
    "near": hashlib.sha256(near.tobytes()).hexdigest(),
    "rules": hashlib.sha256("\\n".join(rules).encode()).hexdigest(),
    "both": hashlib.sha256(both.tobytes()).hexdigest(),
    "accepted": bool(m.validate_batch(valid, backend="numpy").all()),
    "rejected": not bool(m.validate_batch(near, backend="numpy").any()),
    "searches": len(searches),
}}))
"""


def _run(
    cache: Path, progress_every: float = 1000.0, every_opcode: bool = False
) -> tuple[dict[str, object], str]:
    env = {
        **os.environ,
        "TPB_ISA_CACHE_DIR": str(cache),
        "PYTHONPATH": str(REPO / "generated"),
    }
    env.pop("TPB_ISA_NO_STIMULUS_CACHE", None)
    p = subprocess.run(
        [
            sys.executable,
            "-c",
            SCRIPT.format(gen=GEN, op=OP),
            str(progress_every),
            "all" if every_opcode else "one",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(p.stdout), p.stderr


def _store(cache: Path) -> Path:
    (d,) = (cache / "stimulus").iterdir()
    return d


@pytest.fixture(scope="module")
def cold(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    cache = tmp_path_factory.mktemp("stimcache")
    out, _ = _run(cache, every_opcode=True)
    return cache, out


def test_a_warm_store_gives_the_same_words_without_searching(
    cold: tuple[Path, dict[str, object]],
) -> None:
    cache, first = cold
    assert first["searches"] and first["accepted"] and first["rejected"]
    again, err = _run(cache, every_opcode=True)
    assert again["searches"] == 0, "a fresh process searched although the store is warm"
    assert err == ""
    assert {k: v for k, v in again.items() if k != "searches"} == {
        k: v for k, v in first.items() if k != "searches"
    }


def test_the_store_is_owner_only_data(cold: tuple[Path, dict[str, object]]) -> None:
    cache, _ = cold
    root = cache / "stimulus"
    assert stat.S_IMODE(root.stat().st_mode) == 0o700
    d = _store(cache)
    assert d.name.startswith(f"{GEN}-") and stat.S_IMODE(d.stat().st_mode) == 0o700
    files = sorted(d.iterdir())
    assert f"{OP:02x}.npz" in {f.name for f in files}
    assert not [f for f in files if f.suffix != ".npz"], "a temporary file was left behind"
    for f in files:
        assert stat.S_IMODE(f.stat().st_mode) & 0o077 == 0
        with zipfile.ZipFile(f) as z:
            assert all(n.endswith(".npy") for n in z.namelist())
        with np.load(f, allow_pickle=False) as z:  # no object arrays: numbers only
            assert all(z[k].dtype.kind in "iu" for k in z.files)


def test_a_damaged_or_foreign_store_is_searched_again(
    cold: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    cache, first = cold
    copy = tmp_path / "cache"
    subprocess.run(["cp", "-a", str(cache), str(copy)], check=True)
    target = _store(copy) / f"{OP:02x}.npz"
    target.write_bytes(target.read_bytes()[:1000])  # cut short
    out, _ = _run(copy)
    assert out["searches"] and out["valid"] == first["valid"] and out["near"] == first["near"]
    with np.load(target, allow_pickle=False) as z:  # written whole again
        assert "alternatives" in z.files
    os.chmod(copy / "stimulus", 0o777)  # writable by others: not trusted, not written
    out, _ = _run(copy)
    assert out["searches"] and out["valid"] == first["valid"]


def test_a_long_search_says_so_on_stderr(tmp_path: Path) -> None:
    out, err = _run(tmp_path, progress_every=0.0)
    assert out["searches"]
    lines = err.splitlines()
    assert lines and all(line.startswith(f"tpb_isa: {GEN}: ") for line in lines)
    assert "searching for valid words (once; results kept in" in lines[0]
    assert str(tmp_path / "stimulus") in lines[0]
    assert lines[-1].startswith(f"tpb_isa: {GEN}: search done in ")


def test_concurrent_searches_write_one_whole_store(
    cold: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    """Two fresh processes searching into one empty store at once: both give the words a warm
    store gives, and what they leave is whole (a third process reads it, searching nothing)."""
    _, first = cold
    env = {
        **os.environ,
        "TPB_ISA_CACHE_DIR": str(tmp_path),
        "PYTHONPATH": str(REPO / "generated"),
    }
    argv = [sys.executable, "-c", SCRIPT.format(gen=GEN, op=OP), "1000", "one"]
    procs = [
        subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for _ in range(2)
    ]
    outs = [json.loads(p.communicate()[0]) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    for out in outs:
        assert out["searches"] and out["valid"] == first["valid"] and out["near"] == first["near"]
    again, _ = _run(tmp_path)
    assert again["searches"] == 0 and again["valid"] == first["valid"]
    assert not [f for f in _store(tmp_path).iterdir() if f.suffix != ".npz"]


def test_a_new_key_prunes_the_stale_stores_of_its_generation(tmp_path: Path) -> None:
    """A search starting a new key's directory removes the same generation's directories of
    other keys not written for 30 days, and nothing else."""
    root = tmp_path / "stimulus"
    root.mkdir(mode=0o700)
    stale = root / f"{GEN}-{'0' * 20}"
    recent = root / f"{GEN}-{'1' * 20}"
    other_gen = root / f"mariana-{'2' * 20}"
    foreign = root / f"{GEN}-notes"
    for d in (stale, recent, other_gen, foreign):
        d.mkdir()
        (d / "43.npz").write_bytes(b"old")
    month = 31 * 86400
    for d in (stale, other_gen, foreign):
        os.utime(d, (d.stat().st_atime - month, d.stat().st_mtime - month))
    out, _ = _run(tmp_path)
    assert out["searches"]
    assert not stale.exists()
    assert recent.exists() and other_gen.exists() and foreign.exists()
    assert len([d for d in root.iterdir() if d.name.startswith(f"{GEN}-")]) == 3
