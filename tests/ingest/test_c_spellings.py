"""Every spelling of a C scalar type means what the compiler says it means, in fields and in
predicate bodies alike (one table, tpbgen.ir.ctypes), and a type tpbgen does not model is refused
by name, where it stands."""

from __future__ import annotations

from pathlib import Path

import pytest

from tpbgen.cli import main
from tpbgen.frontend.ingest import ingest_root
from tpbgen.ir import ctypes

from .synth import COMMON, OPS, make_tree

SPELLED = """\
typedef struct NEURON_ISA_TPB_SPELLED {
    unsigned short int a;
    long long int b;
    signed long c;
    short signed d;
    unsigned e;
    signed char f;
    long unsigned int g;
} NEURON_ISA_TPB_SPELLED;
"""


def test_field_spellings(tmp_path: Path) -> None:
    make_tree(
        tmp_path,
        common=COMMON.replace("// A header-like struct.", SPELLED + "// A header-like struct."),
    )
    s = ingest_root(tmp_path, use_cache=False)[0].gen.struct("NEURON_ISA_TPB_SPELLED")
    assert [(f.name, f.type.name, f.offset) for f in s.fields] == [
        ("a", "uint16", 0),
        ("b", "int64", 8),
        ("c", "int64", 16),
        ("d", "int16", 24),
        ("e", "uint32", 28),
        ("f", "int8", 32),
        ("g", "uint64", 40),
    ]
    assert s.size == 48


def test_local_spellings_in_a_predicate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ops = OPS.replace(
        "    return( is_alpha(h) && (h.len == 16) );",
        "    unsigned short int n = h.len;\n    long long int big = (long long int)n * 3;\n    return( is_alpha(h) && (big == 48) );",
    )
    make_tree(tmp_path / "drop", ops=ops)
    assert (
        main(
            [
                "generate",
                "--headers",
                str(tmp_path / "drop"),
                "--out",
                str(tmp_path / "gen"),
                "--no-cache",
            ]
        )
        == 0
    ), capsys.readouterr().err


def test_long_double_is_refused_where_it_stands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = COMMON.replace(
        "// A header-like struct.",
        "typedef struct NEURON_ISA_TPB_LD { long double x; } NEURON_ISA_TPB_LD;\n// A header-like struct.",
    )
    make_tree(tmp_path, common=common)
    line = common[: common.index("long double")].count("\n") + 1
    assert main(["inspect", "--gen", "synth", "--headers", str(tmp_path), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert (
        f"aws_neuron_isa_tpb_common.h:{line}:" in err
        and "long double" in err
        and "Traceback" not in err
    )


def test_the_table_covers_every_integer_spelling() -> None:
    for base, size in (("short", 2), ("int", 4), ("long", 8), ("long long", 8)):
        for sign, signed in (("", True), ("signed ", True), ("unsigned ", False)):
            s = ctypes.scalar(f"{sign}{base}".split())
            assert s is not None and s.size == size and s.signed == signed, (sign, base)
    assert ctypes.scalar(["char"]) == ctypes.scalar(["signed", "char"])
