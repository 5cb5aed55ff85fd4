"""Header text can never break or subvert the generated package: a banner or an enumerator is
data, and the package built from it imports, says what the header says, and runs nothing the
header wrote (or tpbgen refuses, located). C functions named like Python builtins or the
module's own names, and a generation named like the runtime's package, are escaped by the one
naming rule."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ingest.synth import COMMON, OPS, make_tree
from tpbgen.cli import main


def build(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    gen: str = "synth",
    common: str = COMMON,
    ops: str = OPS,
) -> tuple[int, str, Path]:
    make_tree(tmp_path / "drop", gen=gen, common=common, ops=ops)
    out = tmp_path / "gen"
    code = main(["generate", "--headers", str(tmp_path / "drop"), "--out", str(out), "--no-cache"])
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, err
    return code, err, out


def probe(out: Path, code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(out)!r})\n{code}"],
        capture_output=True,
        text=True,
    )


def test_a_banner_cannot_place_code_in_the_package(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sentinel = tmp_path / "pwned"
    evil = f'NC-v9"""+__import__(\'os\').system(\'touch {sentinel}\')+"""'
    common = COMMON.replace("ISA header for NC-v9.", f"ISA header for {evil.replace(' ', '')}")
    code, err, out = build(tmp_path, capsys, common=common)
    if code != 0:  # refusing the banner, with its location, is right too
        assert code == 2 and "aws_neuron_isa_tpb_common.h" in err
        return
    run = probe(out, "import tpb_isa.synth as m\nprint(m.CORE_VERSION)")
    assert run.returncode == 0, run.stderr
    assert not sentinel.exists()
    for py in out.rglob("*.py"):
        compile(py.read_text(), str(py), "exec")


@pytest.mark.parametrize(
    "member",
    ["_MISSING_", "_missing_", "__init__", "mro", "_value_", "name", "value", "info", "real"],
)
def test_enumerators_that_clash_with_enum_machinery(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], member: str
) -> None:
    common = COMMON.replace(
        "NEURON_ISA_TPB_WIDE_B = 300,",
        f"NEURON_ISA_TPB_WIDE_B = 300, NEURON_ISA_TPB_WIDE_{member} = 7,",
    )
    code, err, out = build(tmp_path, capsys, common=common)
    if code != 0:
        assert code == 2 and "aws_neuron_isa_tpb_common.h" in err and member in err
        return
    run = probe(
        out,
        "from tpb_isa.synth import enums as E\nprint(sorted(int(v) for v in E.Wide), E.Wide(300).info.c_name, E.Wide(7).info.c_name)",
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [
        "[1,",
        "7,",
        "300]",
        "NEURON_ISA_TPB_WIDE_B",
        f"NEURON_ISA_TPB_WIDE_{member}",
    ]


@pytest.mark.parametrize("fn", ["any", "as_bytes", "validate", "len", "print"])
def test_functions_named_like_builtins_or_module_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fn: str
) -> None:
    """A C helper named `any` (or `as_bytes`, `validate`...) gets a `_` after its public name: the
    module's own `as_bytes` and Python's `any` keep their meaning, and the helper still runs."""
    ops = OPS.replace("is_alpha", fn)
    code, err, out = build(tmp_path, capsys, ops=ops)
    assert code == 0, err
    run = probe(
        out,
        f"""
import builtins
from tpb_isa.synth import validators as V
assert V.__dict__.get({fn!r}, getattr(builtins, {fn!r}, None)) is getattr(builtins, {fn!r}, V.__dict__.get({fn!r}))
helper = getattr(V, {fn + "_"!r})
word = bytes([0x43, 16, 0, 0])
print(helper(word), V.is_valid_header(word), V.is_valid_header(bytes([0x44, 16, 0, 0])))
""",
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", "True", "False"]


def test_a_generation_named_like_the_runtime_package(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`neuron__runtime_arch_isa` becomes `tpb_isa._runtime_`; `tpb_isa._runtime` stays the
    runtime library."""
    code, err, out = build(tmp_path, capsys, gen="_runtime")
    assert code == 0, err
    assert (out / "tpb_isa" / "_runtime_" / "__init__.py").is_file()
    run = probe(
        out,
        """
import tpb_isa
from tpb_isa import _runtime
m = tpb_isa.gen("_runtime")
print(m.__name__, _runtime.RUNTIME_API == tpb_isa.RUNTIME_API, m.opcode_decodable(0x43))
""",
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["tpb_isa._runtime_", "True", "True"]
