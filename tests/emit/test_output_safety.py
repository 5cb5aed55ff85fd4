"""Never lose a file: `generate` writes only into a directory it owns, keeps what it did not write,
swaps trees atomically (a kill at every step leaves a complete tree), never interleaves two runs,
and turns file-system faults into located user errors with the old tree intact."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tpb_paths import HEADER_ROOT, REPO
from tpbgen.cli import main
from tpbgen.emit import writer
from tpbgen.errors import ExitCode, TpbgenError


def snapshot(root: Path) -> dict[str, bytes | str]:
    """Every entry below root: file bytes, symlink targets, directories."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = Path(dirpath) / n
            rel = p.relative_to(root).as_posix()
            out[rel] = (
                ("-> " + os.readlink(p))
                if p.is_symlink()
                else ("<dir>" if p.is_dir() else p.read_bytes())
            )
    return out


def generate(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["generate", "--headers", str(HEADER_ROOT), *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err
    return code, out, err


# -- ownership ------------------------------------------------------------------------------------
def test_project_dir_is_refused_and_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proj = tmp_path / "project"
    (proj / "src").mkdir(parents=True)
    (proj / "README.md").write_text("my project\n")
    (proj / "src" / "main.py").write_text("print('hi')\n")
    (proj / ".git").mkdir()
    (proj / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    before = snapshot(proj)
    code, _, err = generate(capsys, "--out", str(proj))
    assert code == ExitCode.BAD_INPUT
    assert (
        f"{proj}: error [out-not-owned]: is not a tpbgen output directory: it holds '.git'" in err
    )
    assert snapshot(proj) == before


def test_regular_file_as_out_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "notes.txt"
    f.write_text("keep me\n")
    code, _, err = generate(capsys, "--out", str(f))
    assert code == ExitCode.BAD_INPUT and "[out-not-dir]" in err and str(f) in err
    assert f.read_text() == "keep me\n"


def test_dot_and_ancestors_of_the_cwd_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    for out in (".", "..", str(tmp_path)):
        code, _, err = generate(capsys, "--out", out)
        assert code == ExitCode.BAD_INPUT and "[out-is-cwd]" in err, out
    assert os.listdir(work) == []


def test_header_root_inside_it_and_around_it_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drop = tmp_path / "drop"
    shutil.copytree(HEADER_ROOT, drop)
    before = snapshot(tmp_path)
    for out, code_name in (
        (drop, "out-in-headers"),
        (drop / "neuron_sunda_arch_isa" / "gen", "out-in-headers"),
        (tmp_path, "out-contains-headers"),
    ):
        code = main(["generate", "--headers", str(drop), "--out", str(out)])
        err = capsys.readouterr().err
        assert code == ExitCode.BAD_INPUT and f"[{code_name}]" in err, (out, err)
    assert snapshot(tmp_path) == before


def test_a_manifest_tpbgen_did_not_write_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "gen"
    out.mkdir()
    (out / "MANIFEST.json").write_text('{"name": "someone else"}\n')
    code, _, err = generate(capsys, "--out", str(out))
    assert code == ExitCode.BAD_INPUT and "holds a MANIFEST.json that tpbgen did not write" in err
    assert os.listdir(out) == ["MANIFEST.json"]


def test_user_files_and_pip_debris_survive_regeneration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "gen"
    assert generate(capsys, "--out", str(out))[0] == 0
    # what a user and their tools leave in a vendored package
    (out / "NOTES.md").write_text("mine\n")
    (out / ".git" / "objects").mkdir(parents=True)
    (out / ".git" / "objects" / "ab").write_bytes(b"\x00blob")
    (out / "build" / "lib").mkdir(parents=True)
    (out / "build" / "lib" / "x.so").write_bytes(b"ELF")
    (out / "tpb_isa.egg-info").mkdir()
    (out / "tpb_isa.egg-info" / "PKG-INFO").write_text("Name: tpb-isa\n")
    (out / "tpb_isa" / "sunda" / "__pycache__").mkdir(exist_ok=True)
    (out / "tpb_isa" / "sunda" / "__pycache__" / "enums.cpython-311.pyc").write_bytes(b"pyc")
    (out / "tpb_isa" / "sunda" / "local_helpers.py").write_text("x = 1\n")
    os.symlink("NOTES.md", out / "notes-link")
    out.chmod(0o750)
    notes_inode = (out / "NOTES.md").stat().st_ino
    foreign = {
        k: v
        for k, v in snapshot(out).items()
        if k.split("/")[0] in ("NOTES.md", ".git", "build", "tpb_isa.egg-info", "notes-link")
        or "__pycache__" in k
        or k.endswith("local_helpers.py")
    }
    # tpbgen's own files: one edited (so it is rewritten), one it wrote before and no longer generates
    (out / "tpb_isa" / "sunda" / "enums.py").write_text("# edited\n")
    manifest = json.loads((out / "MANIFEST.json").read_text())
    manifest["files"]["tpb_isa/retired.py"] = hashlib.sha256(b"old = 1\n").hexdigest()
    manifest["files"]["tpb_isa/retired_edited.py"] = hashlib.sha256(b"old = 1\n").hexdigest()
    (out / "MANIFEST.json").write_text(json.dumps(manifest))
    (out / "tpb_isa" / "retired.py").write_text("old = 1\n")
    (out / "tpb_isa" / "retired_edited.py").write_text("old = 1  # the user changed it\n")

    code, printed, err = generate(capsys, "--out", str(out))
    assert code == 0, err
    assert "1 removed" in printed
    after = snapshot(out)
    assert {k: after.get(k) for k in foreign} == foreign  # every foreign entry, as it was
    assert (out / "NOTES.md").stat().st_ino == notes_inode  # the very same file, not a copy
    assert out.stat().st_mode & 0o777 == 0o750
    assert not (out / "tpb_isa" / "retired.py").exists()
    assert (out / "tpb_isa" / "retired_edited.py").read_text() == "old = 1  # the user changed it\n"
    assert "retired_edited.py: warning [out-kept]" in err
    assert (out / "tpb_isa" / "sunda" / "enums.py").read_bytes() == (
        REPO / "generated" / "tpb_isa" / "sunda" / "enums.py"
    ).read_bytes()
    # and --check does not count any of them
    assert generate(capsys, "--out", str(out), "--check")[0] == 0


def test_a_foreign_file_where_tpbgen_now_writes_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "gen"
    assert generate(capsys, "--out", str(out))[0] == 0
    manifest = json.loads((out / "MANIFEST.json").read_text())
    del manifest["files"]["README.md"]  # as if an older tpbgen had not written it
    (out / "MANIFEST.json").write_text(json.dumps(manifest))
    (out / "README.md").write_text("the user's own README\n")
    before = snapshot(out)
    code, _, err = generate(capsys, "--out", str(out))
    assert code == ExitCode.BAD_INPUT and "README.md: error [out-collision]" in err
    assert snapshot(out) == before
    # the very bytes tpbgen would write there (a merge brought them in) are adopted, not refused
    shutil.copy(REPO / "generated" / "README.md", out / "README.md")
    assert generate(capsys, "--out", str(out))[0] == 0


def test_legacy_manifest_is_recognised(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tree written by tpbgen 0.1 (MANIFEST without a file list) is still tpbgen's."""
    out = tmp_path / "gen"
    assert generate(capsys, "--out", str(out))[0] == 0
    manifest = json.loads((out / "MANIFEST.json").read_text())
    del manifest["files"], manifest["format"]
    (out / "MANIFEST.json").write_text(json.dumps(manifest))
    (out / "mine.txt").write_text("x")
    assert generate(capsys, "--out", str(out))[0] == 0
    assert (out / "mine.txt").read_text() == "x" and "files" in json.loads(
        (out / "MANIFEST.json").read_text()
    )


def test_a_symlinked_out_is_followed_not_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "real"
    link = tmp_path / "link"
    os.symlink(real.name, link)
    real.mkdir()
    assert generate(capsys, "--out", str(link))[0] == 0
    assert link.is_symlink() and (real / "MANIFEST.json").is_file()


# -- atomicity: a kill at every step -------------------------------------------------------------
OLD = {
    "MANIFEST.json": "",
    "pkg/__init__.py": "old = 1\n",
    "pkg/a.py": "a = 1\n",
    "pkg/gone.py": "gone = 1\n",
    "README.md": "old\n",
}
NEW = {
    "MANIFEST.json": "",
    "pkg/__init__.py": "new = 2\n",
    "pkg/a.py": "a = 1\n",
    "pkg/sub/b.py": "b = 2\n",
    "README.md": "new\n",
}


def with_manifest(files: dict[str, str]) -> dict[str, str]:
    files = dict(files)
    files["MANIFEST.json"] = (
        json.dumps(
            {"format": writer.MANIFEST_FORMAT, "files": writer.manifest_files(files)},
            sort_keys=True,
        )
        + "\n"
    )
    return files


def tpbgen_view(out: Path) -> dict[str, bytes]:
    return {
        k: v
        for k, v in snapshot(out).items()
        if isinstance(v, bytes)
        and k.split("/")[0] in ("MANIFEST.json", "pkg", "README.md")
        and "__pycache__" not in k
    }


def expected_view(files: dict[str, str]) -> dict[str, bytes]:
    return {k: v.encode() for k, v in files.items()}


def prepare(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    writer.write_tree(with_manifest(OLD), out)
    (out / "USER.txt").write_text("user\n")
    (out / "pkg" / "__pycache__").mkdir()
    (out / "pkg" / "__pycache__" / "a.pyc").write_bytes(b"pyc")
    return out


def steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    out = prepare(tmp_path / "probe")
    monkeypatch.setattr(writer, "checkpoint", seen.append)
    writer.write_tree(with_manifest(NEW), out)
    monkeypatch.undo()
    return seen


def run_killed_at(out: Path, k: int) -> None:
    """Write NEW into out in a child process that dies (no cleanup, no finally) at step k."""
    pid = os.fork()
    if pid == 0:  # child
        count = iter(range(10**6))

        def die(step: str) -> None:
            if next(count) == k:
                os._exit(9)

        writer.checkpoint = die
        try:
            writer.write_tree(with_manifest(NEW), out)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) in (0, 9)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork to kill a writer mid-way")
@pytest.mark.parametrize("fallback", [False, True], ids=["exchange", "two-renames"])
def test_a_kill_at_every_step_leaves_a_complete_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fallback: bool
) -> None:
    if fallback:
        monkeypatch.setattr(writer, "_exchange_syscall", lambda: None)
    names = steps(tmp_path, monkeypatch)
    assert len(names) >= 10 and "swap" in names
    old, new = expected_view(with_manifest(OLD)), expected_view(with_manifest(NEW))
    for k in range(len(names)):
        case = tmp_path / f"k{k}"
        out = prepare(case)
        run_killed_at(out, k)
        if out.exists():
            assert tpbgen_view(out) in (old, new), f"killed at {names[k]!r}: a mixed tree"
            assert (out / "USER.txt").read_text() == "user\n"
        else:  # only possible between the fallback's two renames
            assert fallback and names[k] == "between fallback renames", names[k]
        # the next run cleans up after the killed one, says so, and finishes the job
        result = writer.write_tree(with_manifest(NEW), out)
        assert tpbgen_view(out) == new, names[k]
        assert (out / "USER.txt").read_text() == "user\n" and (
            out / "pkg" / "__pycache__" / "a.pyc"
        ).read_bytes() == b"pyc"
        leftovers = [p.name for p in case.iterdir() if p.name != "out"]
        assert leftovers == [], (names[k], leftovers)
        if any(".tpbgen-tmp-" in str(d.file) for d in result.notes):
            assert all(d.code == "out-leftover" for d in result.notes if ".tpbgen-tmp-" in d.file)


def test_a_tree_named_like_ours_but_not_ours_is_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "out"
    writer.write_tree(with_manifest(OLD), out)
    stranger = tmp_path / ".out.tpbgen-tmp-1-deadbeef"
    stranger.mkdir()
    (stranger / "precious.txt").write_text("x")
    result = writer.write_tree(with_manifest(NEW), out)
    assert (stranger / "precious.txt").read_text() == "x"
    assert any(d.code == "out-leftover" and "not one" in d.message for d in result.notes)


# -- concurrency ----------------------------------------------------------------------------------
def test_two_runs_never_interleave(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    writer.write_tree(with_manifest(OLD), out)
    inside, release = threading.Event(), threading.Event()

    def pause(step: str) -> None:
        if step == "swap":
            inside.set()
            assert release.wait(30)

    monkeypatch.setattr(writer, "checkpoint", pause)
    errors: list[BaseException] = []

    def first() -> None:
        try:
            writer.write_tree(with_manifest(NEW), out)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    t = threading.Thread(target=first)
    t.start()
    assert inside.wait(30)  # the first run holds the lock, mid-write
    monkeypatch.setattr(writer, "checkpoint", lambda step: None)
    with pytest.raises(TpbgenError) as loser:
        writer.write_tree(with_manifest(OLD), out)
    assert loser.value.exit_code == ExitCode.BAD_INPUT
    assert "another tpbgen is writing this output right now" in str(loser.value)
    release.set()
    t.join(30)
    assert not errors and tpbgen_view(out) == expected_view(with_manifest(NEW))


def test_the_loser_of_a_race_gets_a_clear_message_from_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "gen"
    out.mkdir()
    import fcntl

    fd = os.open(tmp_path, os.O_RDONLY)  # what a running generate holds
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "tpbgen",
                "generate",
                "--headers",
                str(HEADER_ROOT),
                "--out",
                str(out),
            ],
            capture_output=True,
            text=True,
            cwd=REPO,
        )
    finally:
        os.close(fd)
    assert proc.returncode == 2, proc.stderr
    assert (
        f"{out}: error [out-locked]: another tpbgen is writing this output right now" in proc.stderr
    )
    assert os.listdir(out) == []


# -- faults are user errors ----------------------------------------------------------------------
@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root on Linux")
    if (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mnt)], capture_output=True
        ).returncode
        != 0
    ):
        pytest.skip("cannot mount a tmpfs here (no CAP_SYS_ADMIN)")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_read_only_file_system_is_a_user_error(
    tmpfs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmpfs / "gen"
    assert generate(capsys, "--out", str(out))[0] == 0
    (out / "README.md").write_text("stale\n")  # so the next run has something to write
    before = snapshot(tmpfs)
    assert (
        subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], capture_output=True).returncode
        == 0
    )
    code, _, err = generate(capsys, "--out", str(out))
    assert code == ExitCode.BAD_INPUT
    assert "Read-only file system" in err and "[os-error]" in err
    assert snapshot(tmpfs) == before


def test_full_disk_is_a_user_error_and_leaves_no_debris(
    tmpfs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmpfs / "gen"
    assert generate(capsys, "--out", str(out))[0] == 0
    for p in out.rglob("*.py"):  # every file changes, so the next run must write a whole tree
        p.write_text("#\n")
    with open(tmpfs / "filler", "wb") as fh:  # fill the disk
        try:
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()
        except OSError:
            pass
    before = snapshot(out)
    code, _, err = generate(capsys, "--out", str(out))
    assert code == ExitCode.BAD_INPUT
    assert "No space left on device" in err and "[os-error]" in err
    assert snapshot(out) == before
    assert sorted(p.name for p in tmpfs.iterdir()) == ["filler", "gen"]
