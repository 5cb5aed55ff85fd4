"""`generate` compiles and imports every module it emits before it writes anything (staged.py):
a package that does not import is a located error (exit 2) and nothing is written. And every
number a template renders into code goes through one formatter of its kind (templating.py
VALUE_FILTERS), exact on negative, huge and alias values: a drop with a negative enumerator in a
packed enum generates a package that imports and holds the value."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tpb_paths import HEADER_ROOT
from tpbgen import templating
from tpbgen.cli import main
from tpbgen.emit import render

HEADER = (
    "/*\n * toy\n * ISA header for NC-v9.\n */\n#include <stdint.h>\n#include <stdbool.h>\n"
    "typedef enum NEURON_ISA_TPB_OPCODE { NEURON_ISA_TPB_OPCODE_A = 1, NEURON_ISA_TPB_OPCODE_B = 2, }"
    " __attribute__((__packed__)) NEURON_ISA_TPB_OPCODE;\n"
    "typedef struct NEURON_ISA_TPB_TOY_STRUCT { NEURON_ISA_TPB_OPCODE opcode; uint8_t a; uint16_t b; }"
    " NEURON_ISA_TPB_TOY_STRUCT;\n"
    "static inline bool is_valid_toy(NEURON_ISA_TPB_TOY_STRUCT s) { return s.a < 7 && s.b != 3; }\n"
)


@pytest.fixture
def drop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    tpb = tmp_path / "drop" / "neuron_toy_arch_isa" / "tpb"
    tpb.mkdir(parents=True)
    (tpb / "aws_neuron_isa_tpb_common.h").write_text(HEADER)
    (tpb / "instruction_mapping.json").write_text(
        '{"struct2opcode": {"NEURON_ISA_TPB_TOY_STRUCT": ["NEURON_ISA_TPB_OPCODE_A"]},'
        ' "struct2pseudo_opcode": {}}'
    )
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "drop"


def generate(
    capsys: pytest.CaptureFixture[str], drop: Path, out: Path, *argv: str
) -> tuple[int, str, str]:
    code = main(["generate", "--headers", str(drop), "--out", str(out), *argv])
    o, e = capsys.readouterr()
    assert "Traceback" not in e and "internal error" not in e, e
    return code, o, e


def edited_templates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, template: str, old: str, new: str
) -> None:
    """The templates, copied, with `old` replaced by `new` in runtime/gen/`template`."""
    root = tmp_path / "templates"
    shutil.copytree(templating.template_root(), root, ignore=shutil.ignore_patterns("__pycache__"))
    path = root / "runtime" / "gen" / template
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    monkeypatch.setattr(templating, "template_root", lambda: root)
    monkeypatch.setattr(render, "template_root", lambda: root)


@pytest.mark.parametrize(
    ("new", "what"),
    [
        ("GENERATION: Final[str] = 0x-1\n", "SyntaxError: invalid hexadecimal literal"),
        ("GENERATION: Final[str] = {}['x']\n", "KeyError: 'x'"),
    ],
    ids=["does-not-compile", "raises-on-import"],
)
def test_a_package_that_does_not_import_is_refused_located_and_not_written(
    drop: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    new: str,
    what: str,
) -> None:
    edited_templates(
        tmp_path,
        monkeypatch,
        "executor.py.j2",
        "GENERATION: Final[str] = {{ g.name | pyrepr }}\n",
        new,
    )
    out = tmp_path / "out"
    code, _, err = generate(capsys, drop, out, "--no-verify-cc")
    assert code == 2, err
    m = re.search(r"tpb_isa/toy/executor\.py:(\d+):\d+: error \[emitted-module\]: (.*)", err)
    assert m and what in m.group(2) and "nothing was written" in m.group(2), err
    assert not out.exists()
    # and nothing was cached: the next run, with the templates fixed, renders and imports
    monkeypatch.undo()
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    code, _, err = generate(capsys, drop, out, "--no-verify-cc")
    assert code == 0, err
    text = (out / "tpb_isa" / "toy" / "executor.py").read_text()
    assert "GENERATION: Final[str] = 'toy'" in text


def negative_accumulator(tpb: Path) -> None:
    """mariana's packed ACCUM_CMD enum made signed: an `_INVALID = -1` enumerator."""
    common = tpb / "aws_neuron_isa_tpb_common.h"
    text = common.read_text()
    old = "    NEURON_ISA_TPB_ACCUM_CMD_IDLE = 0,\n"
    assert old in text
    common.write_text(text.replace(old, "    NEURON_ISA_TPB_ACCUM_CMD_INVALID = -1,\n" + old))


def test_a_negative_enumerator_generates_a_package_that_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once `0x-1` in executor.py (exit 0, a package that failed to import): every value the
    executor's table renders goes through the enum formatter, and the package imports."""
    src = HEADER_ROOT / "neuron_mariana_arch_isa"
    drop = tmp_path / "drop"
    shutil.copytree(src, drop / src.name)
    negative_accumulator(drop / src.name / "tpb")
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    code, _, err = generate(capsys, drop, out, "--no-verify-cc")
    assert code == 0, err
    executor = (out / "tpb_isa" / "mariana" / "executor.py").read_text()
    assert "            'INVALID': -0x01,\n            'IDLE': 0x00," in executor
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from tpb_isa.mariana import enums, executor\n"
        "c_enum, values = executor.ENUM_VALUES['accum_cmd']\n"
        "print(c_enum, values['INVALID'], enums.AccumCmd(-1).name)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe, str(out)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["NEURON_ISA_TPB_ACCUM_CMD", "-1", "INVALID"], run.stdout


# -- the formatters -------------------------------------------------------------------------------

INTEGERS = [
    0, 1, 15, 16, 127, 255, 256, 0xFFFF, 2**31 - 1, 2**31, 2**32 - 1, 2**63 - 1, 2**63, 2**64 - 1,
    2**80, -1, -2, -16, -128, -129, -(2**31), -(2**63), -(2**63) - 1, -(2**80),
]  # fmt: skip


@pytest.mark.parametrize("name", templating.VALUE_FILTERS)
def test_each_value_formatter_reads_back_exactly(name: str) -> None:
    """Each formatter's text is a Python literal (C's too, for the enum one) of exactly the value:
    negative, past every C integer width, and for two names of one value (an alias) the same."""
    fmt = templating.environment().filters[name]
    for v in INTEGERS:
        text = fmt(v)
        assert ast.literal_eval(text) == v, (name, v, text)
        assert "0x-" not in text and " " not in text
    assert fmt(-1) == fmt(-1) and fmt(0x7F) == fmt(127)  # an alias renders as its value does
    if name == "hexint":
        for x in (0.5, -0.0, 1e300, -3.25, (1, -2, 2**70)):
            assert ast.literal_eval(fmt(x)) == x
        assert fmt(float("inf")) == "float('inf')" and fmt(float("-inf")) == "float('-inf')"


def test_no_template_formats_a_number_itself() -> None:
    """Code templates render numbers only through VALUE_FILTERS: no `%` or `format` of their own
    (a `'0x%02X' % value` gave `0x-1`)."""
    root = templating.template_root() / "runtime"
    found = []
    for path in sorted(root.rglob("*.j2")):
        if path.name.endswith((".md.j2", ".html.j2")):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"{{[^}]*(%|\|\s*format\b)[^}]*}}", line):
                found.append(f"{path.relative_to(root)}:{n}: {line.strip()}")
    assert found == []
