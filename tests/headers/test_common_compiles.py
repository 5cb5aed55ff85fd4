"""Each generation's aws_neuron_isa_tpb_common.h compiles on its own (C11 and C++11, warnings as
errors), and the compiled sizes/offsets of the shared types match the spec shelf
(common-h-facts.md §1, §4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tpb_paths import run_checked, tpb_dir

FLAGS = ["-Wall", "-Wextra", "-Werror"]

# (expression, expected) — sizeof/offsetof values as documented.
LAYOUT = [
    ("sizeof(NEURON_ISA_TPB_HEADER)", 4),
    ("offsetof(NEURON_ISA_TPB_HEADER, opcode)", 0),
    ("offsetof(NEURON_ISA_TPB_HEADER, inst_word_len)", 1),
    ("offsetof(NEURON_ISA_TPB_HEADER, debug_cmd)", 2),
    ("sizeof(NEURON_ISA_TPB_EVENTS)", 8),
    ("offsetof(NEURON_ISA_TPB_EVENTS, wait_mode)", 0),
    ("offsetof(NEURON_ISA_TPB_EVENTS, wait_idx)", 1),
    ("offsetof(NEURON_ISA_TPB_EVENTS, update_mode)", 2),
    ("offsetof(NEURON_ISA_TPB_EVENTS, update_idx)", 3),
    ("offsetof(NEURON_ISA_TPB_EVENTS, semaphore_value)", 4),
    ("sizeof(NEURON_ISA_TPB_EVENTS_EXTENDED)", 12),
    ("offsetof(NEURON_ISA_TPB_EVENTS_EXTENDED, sem_wait_value)", 4),
    ("offsetof(NEURON_ISA_TPB_EVENTS_EXTENDED, sem_update_value)", 8),
    ("sizeof(NEURON_ISA_TPB_PARTITION_OFFSET)", 4),
    ("sizeof(NEURON_ISA_TPB_ADDR4)", 4),
    ("offsetof(NEURON_ISA_TPB_ADDR_REG4, regnum)", 0),
    ("offsetof(NEURON_ISA_TPB_ADDR_REG4, marker)", 3),
    ("sizeof(NEURON_ISA_TPB_IMM_REG)", 4),
    ("sizeof(NEURON_ISA_TPB_IMM_VAL_INST_FIELD)", 4),
    ("sizeof(NEURON_ISA_TPB_TENSOR1D)", 8),
    ("sizeof(NEURON_ISA_TPB_TENSOR2D)", 12),
    ("sizeof(NEURON_ISA_TPB_TENSOR3D)", 16),
    ("offsetof(NEURON_ISA_TPB_TENSOR3D, step_elem)", 4),
    ("offsetof(NEURON_ISA_TPB_TENSOR3D, num_elem)", 10),
    ("sizeof(NEURON_ISA_TPB_TENSOR4D)", 20),
    ("offsetof(NEURON_ISA_TPB_TENSOR4D, step_elem)", 4),
    ("offsetof(NEURON_ISA_TPB_TENSOR4D, num_elem)", 12),
    ("sizeof(NEURON_ISA_TPB_DTYPE_PAIR)", 1),
    ("sizeof(NEURON_ISA_TPB_BOUND_CHECK_REG)", 1),
    ("sizeof(NEURON_ISA_TPB_DMA_CONFIGS)", 1),
    ("sizeof(NEURON_ISA_TPB_ADDR8)", 8),
]
LAYOUT_CPLUS = [
    ("sizeof(NEURON_ISA_TPB_INDIRECT12B)", 12),
    ("sizeof(NEURON_ISA_TPB_INDIRECT16B)", 16),
    ("sizeof(NEURON_ISA_TPB_INDIRECT20B)", 20),
    ("offsetof(NEURON_ISA_TPB_INDIRECT16B, data_addr)", 4),
    ("offsetof(NEURON_ISA_TPB_INDIRECT16B, num_elem)", 8),
    ("sizeof(NEURON_ISA_TPB_MEM_PATTERN2D)", 12),
    ("sizeof(NEURON_ISA_TPB_MEM_PATTERN3D)", 16),
    ("sizeof(NEURON_ISA_TPB_MEM_PATTERN4D)", 20),
]
LAYOUT_MAVERICK = [
    ("sizeof(NEURON_ISA_TPB_MXTENSOR_V2)", 16),
    ("offsetof(NEURON_ISA_TPB_MXTENSOR_V2, scale_addr)", 4),
    ("offsetof(NEURON_ISA_TPB_MXTENSOR_V2, num_elem)", 8),
    ("offsetof(NEURON_ISA_TPB_MXTENSOR_V2, step_elem_data_1)", 10),
    ("offsetof(NEURON_ISA_TPB_MXTENSOR_V2, step_elem_scale_1)", 12),
    ("offsetof(NEURON_ISA_TPB_MXTENSOR_V2, p_f_dim)", 14),
    ("offsetof(NEURON_ISA_TPB_MXTENSOR_V2, scale_dtype)", 15),
    ("offsetof(NEURON_ISA_TPB_HEADER, inst_flags)", 3),
]


def header(gen: str) -> Path:
    return tpb_dir(gen) / "aws_neuron_isa_tpb_common.h"


def enum_names(gen: str) -> list[str]:
    return re.findall(r"^typedef enum (NEURON_ISA_TPB_\w+) \{$", header(gen).read_text(), re.M)


def test_c11_alone(cc: str, gen: str, tmp_path: Path) -> None:
    src = tmp_path / "only_common.c"
    src.write_text('#include "aws_neuron_isa_tpb_common.h"\n')
    run_checked(
        [
            cc,
            "-std=c11",
            *FLAGS,
            "-I",
            str(tpb_dir(gen)),
            "-c",
            str(src),
            "-o",
            str(tmp_path / "o.o"),
        ]
    )


def test_cxx11_alone(cxx: str, gen: str, tmp_path: Path) -> None:
    src = tmp_path / "only_common.cpp"
    src.write_text('#include "aws_neuron_isa_tpb_common.h"\n')
    run_checked(
        [
            cxx,
            "-std=c++11",
            *FLAGS,
            "-I",
            str(tpb_dir(gen)),
            "-c",
            str(src),
            "-o",
            str(tmp_path / "o.o"),
        ]
    )


def probe_source(gen: str) -> tuple[str, list[tuple[str, int]]]:
    rows = list(LAYOUT)
    if gen != "sunda":
        rows += LAYOUT_CPLUS
    if gen == "maverick":
        rows += LAYOUT_MAVERICK
    else:
        rows.append(("offsetof(NEURON_ISA_TPB_HEADER, debug_hint)", 3))
    rows += [(f"sizeof({e})", 1) for e in enum_names(gen)]
    body = "\n".join(f'    printf("%s=%zu\\n", "{expr}", (size_t)({expr}));' for expr, _ in rows)
    src = (
        '#include "aws_neuron_isa_tpb_common.h"\n#include <stddef.h>\n#include <stdio.h>\n'
        f"int main(void) {{\n{body}\n    return 0;\n}}\n"
    )
    return src, rows


def check_probe(out: str, rows: list[tuple[str, int]]) -> None:
    got = dict(line.rsplit("=", 1) for line in out.splitlines())
    bad = [(expr, int(got[expr]), want) for expr, want in rows if int(got[expr]) != want]
    assert not bad, bad


@pytest.mark.parametrize("lang", ["c11", "c++11"])
def test_layout_probe(cc: str, cxx: str, gen: str, lang: str, tmp_path: Path) -> None:
    src, rows = probe_source(gen)
    assert (
        sum(1 for e, _ in rows if e.startswith("sizeof(NEURON_ISA_TPB_") and e.endswith(")")) > 20
    )
    path = tmp_path / ("probe.c" if lang == "c11" else "probe.cpp")
    path.write_text(src)
    exe = tmp_path / "probe"
    compiler = cc if lang == "c11" else cxx
    run_checked(
        [compiler, f"-std={lang}", *FLAGS, "-I", str(tpb_dir(gen)), str(path), "-o", str(exe)]
    )
    check_probe(run_checked([str(exe)]), rows)


def test_enum_count_in_probe(gen: str) -> None:
    assert len(enum_names(gen)) >= 25
