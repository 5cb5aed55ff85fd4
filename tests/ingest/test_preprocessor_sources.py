"""What the IR is made of comes from the preprocessor: every file it read (an include-root header
outside the generation's tree, a `.def` #included inside an enum) is in the cache key, in
`Generation.files` (so in MANIFEST.json) and under the changed-during-read check, for cpp and
pcpp alike; and coordinates follow its line markers through the headers' own `#line`
directives, so comments and maintenance markers stay on their enumerators."""

from __future__ import annotations

from pathlib import Path

import pytest

import tpbgen.cache as cache_mod
from tpbgen.errors import TpbgenError
from tpbgen.frontend.ingest import ingest_root
from tpbgen.frontend.preprocess import physical_markers

from .synth import COMMON, make_tree

OUTSIDE = "shared/limits.h"
DEF = "ops.def"


def tree_with_outside_inputs(root: Path) -> Path:
    """The synthetic tree, its OPCODE enum's first two enumerators in a `.def` file and a
    constant in a header beside the generation directory (under the include root)."""
    alpha_beta = (
        "    NEURON_ISA_TPB_OPCODE_ALPHA = 0x43, // Y\n"
        "    NEURON_ISA_TPB_OPCODE_BETA = 0x44, // n, use Alpha instead\n"
    )
    assert alpha_beta in COMMON
    common = COMMON.replace(alpha_beta, f'#include "{DEF}"\n').replace(
        "#include <stdbool.h>\n", '#include <stdbool.h>\n#include "../../shared/limits.h"\n'
    )
    tpb = make_tree(root, common=common)
    (tpb / DEF).write_text(alpha_beta)
    (root / "shared").mkdir()
    (root / OUTSIDE).write_text("static const uint32_t NEURON_ISA_TPB_LIMIT = 7U;\n")
    return tpb


@pytest.mark.parametrize("preprocessor", ["cpp", "pcpp"])
def test_every_file_the_preprocessor_read_is_an_input(
    tmp_path: Path, preprocessor: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TPBGEN_PREPROCESSOR", preprocessor)
    tpb = tree_with_outside_inputs(tmp_path)
    gen = ingest_root(tmp_path, use_cache=False)[0].gen
    paths = {f.path for f in gen.files}
    assert {OUTSIDE, f"{tpb.relative_to(tmp_path).as_posix()}/{DEF}"} <= paths, paths
    assert [c.value for c in gen.constants if c.name == "NEURON_ISA_TPB_LIMIT"] == [7]
    opcodes = {m.name: m for m in gen.find_enum("OPCODE").members}  # type: ignore[union-attr]
    alpha, beta = opcodes["NEURON_ISA_TPB_OPCODE_ALPHA"], opcodes["NEURON_ISA_TPB_OPCODE_BETA"]
    assert alpha.loc.file.endswith(DEF) and alpha.loc.line == 1 and alpha.comment == "Y"
    assert beta.maintenance is not None and not beta.maintenance.maintained


def test_the_cache_key_covers_files_outside_the_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Edit the `.def` or the include-root header and the cached IR is not reused (it used to be:
    the key hashed only the tree's *.h); leave them and it is."""
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "drop"
    tpb = tree_with_outside_inputs(root)
    first = ingest_root(root)[0]
    assert not first.from_cache
    again = ingest_root(root)[0]
    assert again.from_cache and again.gen.inputs_sha256 == first.gen.inputs_sha256
    (root / OUTSIDE).write_text("static const uint32_t NEURON_ISA_TPB_LIMIT = 9U;\n")
    edited = ingest_root(root)[0]
    assert not edited.from_cache
    assert [c.value for c in edited.gen.constants if c.name == "NEURON_ISA_TPB_LIMIT"] == [9]
    (tpb / DEF).write_text((tpb / DEF).read_text().replace("0x44, // n,", "0x45, // n,"))
    moved = ingest_root(root)[0]
    assert not moved.from_cache
    values = {m.name: m.value for m in moved.gen.find_enum("OPCODE").members}  # type: ignore[union-attr]
    assert values["NEURON_ISA_TPB_OPCODE_BETA"] == 0x45
    assert ingest_root(root)[0].from_cache


def test_a_file_outside_the_tree_edited_during_the_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The `.def` saved just after the preprocessor read it: refused by name, nothing cached."""
    from tpbgen.frontend.preprocess import Preprocessing

    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "drop"
    tpb = tree_with_outside_inputs(root)
    real_run = Preprocessing.run
    runs: list[int] = []

    def run(self: Preprocessing) -> tuple[str, tuple[str, ...]]:
        done = real_run(self)
        runs.append(1)
        if len(runs) == 2:  # the run that reads what tpbgen read first
            (tpb / DEF).write_text((tpb / DEF).read_text() + "// saved meanwhile\n")
        return done

    monkeypatch.setattr(Preprocessing, "run", run)
    with pytest.raises(TpbgenError) as info:
        ingest_root(root)
    (d,) = info.value.diagnostics
    assert d.code == "changed-during-read" and d.file.endswith(DEF), d
    assert not list(cache_mod.Cache().entries())


LINE_TREE = """\
typedef enum NEURON_ISA_TPB_OPCODE {
    NEURON_ISA_TPB_OPCODE_ALPHA = 0x43, // Y
#line 500
    NEURON_ISA_TPB_OPCODE_BETA = 0x44, // n, use Alpha instead
# 9 "generated_from.in"
    NEURON_ISA_TPB_OPCODE_GAMMA =
        0x46, // n, wrapped
} NEURON_ISA_TPB_OPCODE;
"""


@pytest.mark.parametrize("preprocessor", ["cpp", "pcpp"])
def test_line_directives_do_not_move_comments(
    tmp_path: Path, preprocessor: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TPBGEN_PREPROCESSOR", preprocessor)
    common = COMMON.replace(
        "typedef enum NEURON_ISA_TPB_WIDE", '#line 1 "other.h"\ntypedef enum NEURON_ISA_TPB_WIDE'
    )
    tpb = make_tree(tmp_path, common=common, ops='#include "aws_neuron_isa_tpb_common.h"\n')
    (tpb / "aws_neuron_isa_tpb_lines.h").write_text(LINE_TREE.replace("OPCODE", "LINED"))
    gen = ingest_root(tmp_path, use_cache=False)[0].gen
    lined = {m.name: m for m in gen.find_enum("LINED").members}  # type: ignore[union-attr]
    got = {n.rsplit("_", 1)[1]: (m.loc.line, m.comment) for n, m in lined.items()}
    assert got == {
        "ALPHA": (2, "Y"),
        "BETA": (4, "n, use Alpha instead"),
        "GAMMA": (6, "n, wrapped"),
    }
    assert all(m.loc.file.endswith("aws_neuron_isa_tpb_lines.h") for m in lined.values())
    wide = gen.find_enum("WIDE")
    assert wide is not None and wide.loc.file.endswith("aws_neuron_isa_tpb_common.h")


def test_physical_markers_leave_a_tree_without_directives_alone() -> None:
    text = '# 1 "a.h" 1\nint a;\n# 7 "a.h"\nint b;\n# 2 "<stdin>" 2\n'
    assert physical_markers(text, lambda name: b"int a;\n\n\n\n\n\nint b;\n") is text
