"""Every header of every generation compiles alone as C11 and as C++11 with warnings as errors.

Compiling a header alone also evaluates its ISA_STATIC_ASSERTs, so the 64-byte struct sizes hold.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tpb_paths import GENERATIONS, run_checked, tpb_dir

OWN_HEADERS = (
    "aws_neuron_isa_tpb_s3d3_ts.h",
    "aws_neuron_isa_tpb_s4d4_tsm.h",
    "aws_neuron_isa_tpb_s2_bn.h",
    "aws_neuron_isa_tpb_enums.h",
    "aws_neuron_isa_tpb_util.h",
    "aws_neuron_isa_tpb_assert.h",
)
FLAGS = ["-Wall", "-Wextra", "-Werror"]


def _all_headers() -> list[tuple[str, str]]:
    out = []
    for gen in GENERATIONS:
        names = {p.name for p in tpb_dir(gen).glob("*.h")} | set(OWN_HEADERS)
        out += [(gen, name) for name in sorted(names)]
    return out


@pytest.mark.parametrize(("gen", "header"), _all_headers())
def test_header_compiles_alone_c11(cc: str, tmp_path: Path, gen: str, header: str) -> None:
    tu = tmp_path / "tu.c"
    tu.write_text(f'#include "{header}"\n')
    run_checked(
        [
            cc,
            "-std=c11",
            *FLAGS,
            "-I",
            str(tpb_dir(gen)),
            "-c",
            str(tu),
            "-o",
            str(tmp_path / "tu.o"),
        ]
    )


@pytest.mark.parametrize(("gen", "header"), _all_headers())
def test_header_compiles_alone_cxx11(cxx: str, tmp_path: Path, gen: str, header: str) -> None:
    tu = tmp_path / "tu.cpp"
    tu.write_text(f'#include "{header}"\n')
    run_checked(
        [
            cxx,
            "-std=c++11",
            *FLAGS,
            "-I",
            str(tpb_dir(gen)),
            "-c",
            str(tu),
            "-o",
            str(tmp_path / "tu.o"),
        ]
    )


@pytest.mark.parametrize("gen", GENERATIONS)
def test_all_headers_together_c11(cc: str, tmp_path: Path, gen: str) -> None:
    """Including every header in one TU works too (guards, no duplicate definitions)."""
    tu = tmp_path / "all.c"
    tu.write_text("".join(f'#include "{h}"\n' for h in (*OWN_HEADERS, *OWN_HEADERS)))
    run_checked(
        [
            cc,
            "-std=c11",
            *FLAGS,
            "-I",
            str(tpb_dir(gen)),
            "-c",
            str(tu),
            "-o",
            str(tmp_path / "all.o"),
        ]
    )
