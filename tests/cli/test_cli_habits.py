"""The tpbgen command line as CI scripts use it: `--version`, `--error-format` anywhere on the
line, audit findings as GitHub annotations, audit locations that open from the current directory
for both drops, why an audit exits 1, and `generate --check --diff`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.synth import COMMON, make_tree
from tpb_paths import HEADER_ROOT
from tpbgen import __version__
from tpbgen.cli import main
from tpbgen.errors import ExitCode


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err
    return code, out, err


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / ".cache"))
    return tmp_path


@pytest.fixture
def two_drops(in_tmp: Path) -> tuple[str, str]:
    """Two drops of one generation whose header files share their names: the field `len` of
    the header struct renamed in NEW (an api-breaking finding located on both sides)."""
    make_tree(in_tmp / "old")
    make_tree(
        in_tmp / "new", common=COMMON.replace("uint8_t               len;", "uint8_t length;")
    )
    return "old/neuron_synth_arch_isa/tpb", "new/neuron_synth_arch_isa/tpb"


def test_version() -> None:
    """`tpbgen --version` as a user types it (a process: argparse prints and exits)."""
    r = subprocess.run(
        [sys.executable, "-m", "tpbgen", "--version"], capture_output=True, text=True, check=False
    )
    assert r.returncode == 0 and r.stdout == f"tpbgen {__version__}\n", r


def test_error_format_anywhere_on_the_line(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before the command or after it, the same output; after it wins over before it; a value
    outside the choices is a usage error (exit 2) wherever it stands."""
    make_tree(in_tmp / "drop")
    args = ("--headers", "drop", "--strict")
    before = run(capsys, "--error-format", "github", "reconcile", *args)
    after = run(capsys, "reconcile", *args, "--error-format", "github")
    middle = run(capsys, "reconcile", "--error-format", "github", *args)
    assert before == after == middle
    assert before[0] == ExitCode.FINDINGS and before[1].startswith("::error file=drop/")
    assert run(
        capsys, "--error-format", "json", "reconcile", *args, "--error-format", "github"
    ) == (before)
    with pytest.raises(SystemExit) as e:
        main(["reconcile", *args, "--error-format", "xml"])
    assert e.value.code == 2
    assert "invalid choice: 'xml'" in capsys.readouterr().err


def test_audit_locations_open_from_here_for_both_drops(
    two_drops: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """`old:` names OLD's file, `new:` NEW's, each as it opens from the current directory (the
    two headers share a name, so locations relative to each drop's root would read alike)."""
    old, new = two_drops
    code, out, _ = run(capsys, "audit", old, new)
    assert code == ExitCode.FINDINGS
    olds = re.findall(r"^\s+old: (\S+):(\d+)", out, flags=re.M)
    news = re.findall(r"^\s+new: (\S+):(\d+)", out, flags=re.M)
    assert olds and news
    assert all(p.startswith(old + "/") and os.path.isfile(p) for p, _ in olds), olds
    assert all(p.startswith(new + "/") and os.path.isfile(p) for p, _ in news), news
    renamed = Path(news[0][0]).read_text().splitlines()[int(news[0][1]) - 1]
    assert "length" in renamed
    # the same locations in every format the command prints
    code, out, _ = run(capsys, "audit", old, new, "--format", "json")
    assert f'"file": "{old}/aws_neuron_isa_tpb_common.h"' in out
    assert f'"file": "{new}/aws_neuron_isa_tpb_common.h"' in out


def test_audit_findings_are_github_annotations(
    two_drops: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """With `--error-format github` (before or after the command) each finding is a workflow
    command at a file that opens from here: an error when it fails the audit (--fail-on), a
    warning when breaking but allowed, else a notice; the report itself is unchanged."""
    old, new = two_drops
    _, plain, _ = run(capsys, "audit", old, new)
    code, out, err = run(capsys, "audit", old, new, "--error-format", "github")
    assert code == ExitCode.FINDINGS
    notes = [line for line in out.splitlines() if line.startswith("::")]
    assert notes and out.endswith(plain) and "audit: exit 1" in err
    for line in notes:
        m = re.match(
            r"::(error|warning|notice) file=([^,]+),line=(\d+)::(\S+): (\S+) \((.*?)\): ", line
        )
        assert m, line
        level, path, _, _kind, cls, pair = m.groups()
        assert pair == f"{old} -> {new}"
        assert os.path.isfile(path) and path.startswith((old + "/", new + "/"))
        expected = "error" if cls in ("encoding-breaking", "api-breaking") else "notice"
        assert level == expected, line
    assert any("field.renamed" in line or "length" in line for line in notes)
    code, out, _ = run(capsys, "--error-format", "github", "audit", old, new, "--fail-on", "none")
    levels = {line.split(" ", 1)[0] for line in out.splitlines() if line.startswith("::")}
    assert code == ExitCode.OK and "::error" not in levels and "::warning" in levels
    _, out, _ = run(capsys, "audit", old, new)
    assert not [line for line in out.splitlines() if line.startswith("::")]


def test_audit_says_why_it_exits_1(
    two_drops: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """On standard error, beside the report (so --format json stays one JSON document)."""
    old, new = two_drops
    code, out, err = run(capsys, "audit", old, new, "--format", "json")
    assert code == ExitCode.FINDINGS
    assert err.strip() == (
        "audit: exit 1: breaking (encoding- or api-breaking) findings, as --fail-on breaking "
        "asks (--fail-on none reports without failing)"
    )
    json.loads(out)
    code, _, err = run(capsys, "audit", old, new, "--fail-on", "none")
    assert code == ExitCode.OK and err == ""


def test_generate_check_diff_is_a_patch_that_makes_the_tree_current(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--check --diff` prints a unified diff (stale files named on stderr as before) that
    `git apply` takes from the current directory; afterwards `--check` passes. `--diff`
    without `--check` is a usage error (exit 2)."""
    shutil.copytree(HEADER_ROOT, in_tmp / "vendor_headers")
    assert run(capsys, "generate", "--out", "gen")[0] == ExitCode.OK
    enums = in_tmp / "gen" / "tpb_isa" / "sunda" / "enums.py"
    enums.write_text(enums.read_text().replace("class ", "class  ", 1) + "# edited\n")
    (in_tmp / "gen" / "tpb_isa" / "sunda" / "constants.py").unlink()
    code, out, err = run(capsys, "generate", "--out", "gen", "--check", "--diff")
    assert code == ExitCode.FINDINGS
    assert "--- a/gen/tpb_isa/sunda/enums.py\n+++ b/gen/tpb_isa/sunda/enums.py\n" in out
    assert "-# edited\n" in out
    assert "--- /dev/null\n+++ b/gen/tpb_isa/sunda/constants.py\n" in out
    assert "gen/tpb_isa/sunda/enums.py: error [stale-output]" in err
    (in_tmp / "fix.patch").write_text(out)
    subprocess.run(["git", "apply", "fix.patch"], cwd=in_tmp, check=True)
    code, out, _ = run(capsys, "generate", "--out", "gen", "--check", "--diff")
    assert code == ExitCode.OK and "is current" in out and "---" not in out
    code, _, err = run(capsys, "generate", "--out", "gen", "--diff")
    assert code == ExitCode.BAD_INPUT and "--diff goes with --check" in err
