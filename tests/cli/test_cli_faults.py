"""The command line's own faults (issue 39): every one a located message with exit 1 or 2, in
words that name what the user gave. Real `tpbgen` processes, in a temporary directory."""

from __future__ import annotations

import argparse
import fcntl
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tpb_paths import HEADER_ROOT, REPO
from tpbgen.cli import build_parser

GEN = "neuron_mariana_arch_isa"


def tpbgen(cwd: Path, *argv: str, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`tpbgen ARGV` run in `cwd`, its IR cache in `cache` (default `cwd`/cache)."""
    proc = subprocess.run(
        [sys.executable, "-m", "tpbgen", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "TPBGEN_CACHE_DIR": str(cache or cwd / "cache")},
        stdin=subprocess.DEVNULL,
    )
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    return proc


def one_generation(tmp: Path) -> Path:
    shutil.copytree(HEADER_ROOT / GEN, tmp / "d" / GEN)
    return tmp / "d"


def test_every_option_and_command_says_what_it_is_for() -> None:
    missing: list[str] = []

    def walk(parser: argparse.ArgumentParser, name: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, sp in action.choices.items():
                    walk(sp, f"{name} {sub}")
                missing.extend(f"{name} {c.dest}" for c in action._choices_actions if not c.help)
            elif not action.help and action.dest != "error_format":
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")

    walk(build_parser(), "tpbgen")
    assert missing == []


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "lots"])
@pytest.mark.parametrize(
    "option", ["--max-preprocessed-mb", "--max-line-kb", "--max-preprocess-seconds"]
)
def test_a_limit_that_is_not_a_positive_number_is_a_usage_error(
    tmp_path: Path, option: str, value: str
) -> None:
    proc = tpbgen(tmp_path, "generate", option, value, "--out", "out")
    assert proc.returncode == 2, proc.stderr
    assert f"argument {option}:" in proc.stderr and repr(value) in proc.stderr
    assert not (tmp_path / "out").exists()


def test_audit_of_two_unknown_names_names_both_as_given(tmp_path: Path) -> None:
    one_generation(tmp_path)
    proc = tpbgen(tmp_path, "audit", "nope1", "nope2", "--headers", "d")
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert [ln.split(":")[0] for ln in lines] == ["nope1", "nope2"], proc.stderr
    assert all("[unknown-gen]" in ln and "(it has mariana)" in ln for ln in lines)


def test_an_out_where_nothing_can_be_made_names_the_out(tmp_path: Path) -> None:
    proc = tpbgen(REPO, "generate", "--out", "/proc/x", "--no-verify-cc", cache=tmp_path / "cache")
    assert proc.returncode == 2
    assert "/proc/x: error [os-error]: cannot write the output here" in proc.stderr, proc.stderr
    assert "tpbgen-tmp" not in proc.stderr and "tpbgen-lock" not in proc.stderr


def test_inspect_locations_open_from_where_it_ran(tmp_path: Path) -> None:
    proc = tpbgen(REPO, "inspect", "--gen", "mariana", cache=tmp_path / "cache")
    assert proc.returncode == 0, proc.stderr
    places = re.findall(r"\s(\S+\.h):(\d+)\b", proc.stdout)
    assert len(places) > 100
    for path, line in places:
        assert (REPO / path).is_file(), path
        assert int(line) <= (REPO / path).read_text(encoding="utf-8").count("\n") + 1


def test_runs_into_sibling_outputs_do_not_refuse_each_other(tmp_path: Path) -> None:
    """A run holding the lock of `parent/a` (its lock file, held as a running generate holds
    it) refuses a second run into `a`, and not one into `parent/b`."""
    one_generation(tmp_path)
    parent = tmp_path / "parent"
    parent.mkdir()
    lock = parent / ".a.tpbgen-lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        into_a = tpbgen(tmp_path, "generate", "--headers", "d", "--out", "parent/a")
        into_b = tpbgen(tmp_path, "generate", "--headers", "d", "--out", "parent/b")
    finally:
        os.close(fd)
    assert into_a.returncode == 2
    assert "parent/a: error [out-locked]: another tpbgen is writing this output" in into_a.stderr
    assert not (parent / "a").exists()
    assert into_b.returncode == 0, into_b.stderr
    assert (parent / "b" / "MANIFEST.json").is_file()
    assert sorted(p.name for p in parent.iterdir()) == [".a.tpbgen-lock", "b"]


@pytest.mark.parametrize("tool", ["git apply", "patch -p1"])
def test_check_diff_is_a_patch_for_files_with_cr_and_vt_bytes(tmp_path: Path, tool: str) -> None:
    if not shutil.which(tool.split()[0]):
        pytest.skip(f"no {tool.split()[0]} on PATH")
    one_generation(tmp_path)
    assert tpbgen(tmp_path, "generate", "--headers", "d", "--out", "gen").returncode == 0
    readme = tmp_path / "gen" / "README.md"
    text = readme.read_bytes()
    first_end = text.index(b"\n")
    readme.write_bytes(
        text[:first_end] + b" one\rtwo\x0bthree\x0cfour\r\n" + text[first_end + 1 :] + b"tail\r"
    )
    argv = ["generate", "--headers", "d", "--out", "gen", "--check", "--diff"]
    proc = subprocess.run(  # (bytes: text mode would read the CR as a line end)
        [sys.executable, "-m", "tpbgen", *argv],
        cwd=tmp_path,
        capture_output=True,
        timeout=300,
        env={**os.environ, "TPBGEN_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert proc.returncode == 1 and proc.stdout.startswith(b"--- a/gen/README.md"), proc.stdout
    (tmp_path / "fix.patch").write_bytes(proc.stdout)
    applied = subprocess.run(
        [*tool.split(), "fix.patch"] if tool == "git apply" else [*tool.split(), "-i", "fix.patch"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert applied.returncode == 0, applied.stdout + applied.stderr
    again = tpbgen(tmp_path, "generate", "--headers", "d", "--out", "gen", "--check")
    assert again.returncode == 0, again.stderr


@pytest.mark.parametrize("name", ["MANIFEST.json", "README.md"])
def test_a_fifo_in_the_output_is_never_opened(tmp_path: Path, name: str) -> None:
    """The output is read too (its MANIFEST, the files --check compares and --diff patches): a
    FIFO there is taken for what it is, not waited on."""
    one_generation(tmp_path)
    gen = ["generate", "--headers", "d", "--out", "gen", "--no-verify-cc"]
    assert tpbgen(tmp_path, *gen).returncode == 0
    (tmp_path / "gen" / name).unlink()
    os.mkfifo(tmp_path / "gen" / name)
    checked = tpbgen(tmp_path, *gen, "--check", "--diff")
    written = tpbgen(tmp_path, *gen)
    if name == "MANIFEST.json":  # no manifest tpbgen wrote: not its output, untouched
        assert checked.returncode == written.returncode == 2
        assert "gen: error [out-not-owned]" in written.stderr
        assert (tmp_path / "gen" / name).is_fifo()
    else:
        assert checked.returncode == 1 and "gen/README.md: error [stale-output]" in checked.stderr
        assert written.returncode == 0, written.stderr
        assert (tmp_path / "gen" / name).is_file()


def test_a_full_standard_output_is_located_at_stdout(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    one_generation(tmp_path)
    with open("/dev/full", "w", encoding="utf-8") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "tpbgen", "inspect", "--gen", "mariana", "--headers", "d"],
            cwd=tmp_path,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
            env={**os.environ, "TPBGEN_CACHE_DIR": str(tmp_path / "cache")},
        )
    assert proc.returncode == 2, proc.stderr
    assert "<stdout>: error [os-error]: No space left on device" in proc.stderr
    assert "Traceback" not in proc.stderr and "<input>" not in proc.stderr
