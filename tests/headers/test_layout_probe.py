"""A probe compiled by the C compiler prints sizeof/offsetof of every field of the operand structs
and the shared types they use; the values must equal the shelf's compile-verified tables:
founding doc §4 (`S4D4_TSM sizeof=64 ...`) and §5 (`S3D3_TS sizeof=64 ...`), ts-tsm-facts.md §1a/§1b/§5
(S2_BN `src=16 imm1=28 dtype=32 nac=34 imm0_ptr=44 imm0_src=48`), common-h-facts.md §4.1/§4.2/§4.6."""

from __future__ import annotations

from pathlib import Path

import pytest

from tpb_paths import run_checked, tpb_dir

# struct -> [(field, offset, size)]
EXPECTED: dict[str, list[tuple[str, int, int]]] = {
    "NEURON_ISA_TPB_S3D3_TS_STRUCT": [
        ("header", 0, 4),
        ("events", 4, 8),
        ("accumulator_cmd", 12, 1),
        ("reserved0", 13, 3),
        ("src_mem_pattern", 16, 16),
        ("in_dtype", 32, 1),
        ("out_dtype", 33, 1),
        ("num_active_channels", 34, 1),
        ("imm0_src", 35, 1),
        ("op0", 36, 1),
        ("op1", 37, 1),
        ("reverse_operands", 38, 1),
        ("imm1_src", 39, 1),
        ("imm0", 40, 4),
        ("imm1", 44, 4),
        ("dst_mem_pattern", 48, 16),
    ],
    "NEURON_ISA_TPB_S4D4_TSM_STRUCT": [
        ("header", 0, 4),
        ("events", 4, 8),
        ("src_mem_pattern", 12, 20),
        ("in_dtype", 32, 1),
        ("out_dtype", 33, 1),
        ("num_active_channels", 34, 1),
        ("reserved0", 35, 1),
        ("op", 36, 1),
        ("op_dim", 37, 1),
        ("reverse_operands", 38, 1),
        ("reserved1", 39, 5),
        ("dst_mem_pattern", 44, 20),
    ],
    "NEURON_ISA_TPB_S2_BN_STRUCT": [
        ("header", 0, 4),
        ("events", 4, 8),
        ("reserved0", 12, 4),
        ("src_mem_pattern", 16, 12),
        ("imm1", 28, 4),
        ("dtype", 32, 1),
        ("reserved1", 33, 1),
        ("num_active_channels", 34, 1),
        ("reserved2", 35, 9),
        ("imm0_ptr", 44, 4),
        ("imm0_src", 48, 1),
        ("reserved3", 49, 15),
    ],
    "NEURON_ISA_TPB_EVENTS": [
        ("wait_mode", 0, 1),
        ("wait_idx", 1, 1),
        ("update_mode", 2, 1),
        ("update_idx", 3, 1),
        ("semaphore_value", 4, 4),
    ],
    "NEURON_ISA_TPB_TENSOR2D": [("start_addr", 0, 4), ("step_elem", 4, 4), ("num_elem", 8, 4)],
    "NEURON_ISA_TPB_TENSOR3D": [("start_addr", 0, 4), ("step_elem", 4, 6), ("num_elem", 10, 6)],
    "NEURON_ISA_TPB_TENSOR4D": [("start_addr", 0, 4), ("step_elem", 4, 8), ("num_elem", 12, 8)],
    "NEURON_ISA_TPB_UNKNOWN_STRUCT": [("header", 0, 4), ("events", 4, 8), ("payload", 12, 52)],
}
SIZES = {
    "NEURON_ISA_TPB_S3D3_TS_STRUCT": 64,
    "NEURON_ISA_TPB_S4D4_TSM_STRUCT": 64,
    "NEURON_ISA_TPB_S2_BN_STRUCT": 64,
    "NEURON_ISA_TPB_HEADER": 4,
    "NEURON_ISA_TPB_EVENTS": 8,
    "NEURON_ISA_TPB_TENSOR2D": 12,
    "NEURON_ISA_TPB_TENSOR3D": 16,
    "NEURON_ISA_TPB_TENSOR4D": 20,
    "NEURON_ISA_TPB_UNKNOWN_STRUCT": 64,
    "NEURON_ISA_TPB_INST_UNION": 64,
    "NEURON_ISA_TPB_IMM_VAL_INST_FIELD": 4,
    "NEURON_ISA_TPB_DTYPE": 1,
    "NEURON_ISA_TPB_IMM_SRC": 1,
    "NEURON_ISA_TPB_ALU_OP": 1,
    "NEURON_ISA_TPB_ACCUM_CMD": 1,
    "NEURON_ISA_TPB_TENSOR_SUBDIM": 1,
    "NEURON_ISA_TPB_TENS_SCALAR_REV_OPS": 1,
}
# The S3D3_TS mem-pattern field type per generation (ts-tsm-facts.md §1a, conflict C1 -> TENSOR3D).
MEM3_TYPE = {
    "sunda": "NEURON_ISA_TPB_TENSOR3D",
    "cayman": "NEURON_ISA_TPB_TENSOR3D",
    "mariana": "NEURON_ISA_TPB_MEM_PATTERN3D",
    "maverick": "NEURON_ISA_TPB_MEM_PATTERN3D",
}


def _header_expected(gen: str) -> list[tuple[str, int, int]]:
    last = "inst_flags" if gen == "maverick" else "debug_hint"
    return [("opcode", 0, 1), ("inst_word_len", 1, 1), ("debug_cmd", 2, 1), (last, 3, 1)]


def _probe_source(gen: str) -> str:
    lines = [
        "#include <stdio.h>",
        "#include <stddef.h>",
        '#include "aws_neuron_isa_tpb_util.h"',
        '#define M(T, f) printf(#T "." #f " %u %u\\n", (unsigned)offsetof(T, f), '
        "(unsigned)sizeof(((T *)0)->f))",
        '#define S(T) printf(#T " %u\\n", (unsigned)sizeof(T))',
        "int main(void) {",
    ]
    structs = dict(EXPECTED)
    structs["NEURON_ISA_TPB_HEADER"] = _header_expected(gen)
    for t, fields in structs.items():
        lines += [f"    M({t}, {f});" for f, _, _ in fields]
    lines += [f"    S({t});" for t in SIZES]
    lines.append(
        '    printf("same_type %d\\n", (int)_Generic(((NEURON_ISA_TPB_S3D3_TS_STRUCT *)0)->'
        f"src_mem_pattern, {MEM3_TYPE[gen]}: 1, default: 0));"
    )
    lines += ["    return 0;", "}"]
    return "\n".join(lines) + "\n"


def test_layout_matches_shelf(cc: str, tmp_path: Path, gen: str) -> None:
    src = tmp_path / "probe.c"
    src.write_text(_probe_source(gen))
    exe = tmp_path / "probe"
    run_checked(
        [
            cc,
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-I",
            str(tpb_dir(gen)),
            str(src),
            "-o",
            str(exe),
        ]
    )
    out = run_checked([str(exe)])
    got: dict[str, tuple[int, ...]] = {}
    for line in out.splitlines():
        key, *vals = line.split()
        got[key] = tuple(int(v) for v in vals)
    structs = dict(EXPECTED)
    structs["NEURON_ISA_TPB_HEADER"] = _header_expected(gen)
    for t, fields in structs.items():
        for f, off, size in fields:
            assert got[f"{t}.{f}"] == (off, size), f"{gen}: {t}.{f}"
    for t, size in SIZES.items():
        assert got[t] == (size,), f"{gen}: sizeof({t})"
    assert got["same_type"] == (1,), f"{gen}: S3D3_TS mem-pattern type is not {MEM3_TYPE[gen]}"


@pytest.mark.parametrize("struct_name", ["S3D3_TS", "S4D4_TSM"])
def test_founding_doc_offset_lines(cc: str, tmp_path: Path, gen: str, struct_name: str) -> None:
    """Reproduce the founding document's one-line gcc outputs verbatim (field order included)."""
    want = {
        "S3D3_TS": "S3D3_TS sizeof=64 header=0 events=4 accumulator_cmd=12 src_mem_pattern=16 "
        "in_dtype=32 out_dtype=33 num_active_channels=34 imm0_src=35 op0=36 op1=37 "
        "reverse_operands=38 imm1_src=39 imm0=40 imm1=44 dst_mem_pattern=48",
        "S4D4_TSM": "S4D4_TSM sizeof=64 header=0 events=4 src_mem_pattern=12 in_dtype=32 "
        "out_dtype=33 num_active_channels=34 reserved0=35 op=36 op_dim=37 "
        "reverse_operands=38 reserved1=39 dst_mem_pattern=44",
    }[struct_name]
    fields = [kv.split("=")[0] for kv in want.split()[2:]]
    t = f"NEURON_ISA_TPB_{struct_name}_STRUCT"
    body = "".join(f'    printf(" {f}=%u", (unsigned)offsetof({t}, {f}));\n' for f in fields)
    src = tmp_path / "p.c"
    src.write_text(
        '#include <stdio.h>\n#include <stddef.h>\n#include "aws_neuron_isa_tpb_util.h"\n'
        f'int main(void) {{\n    printf("{struct_name} sizeof=%u", (unsigned)sizeof({t}));\n'
        f'{body}    printf("\\n");\n    return 0;\n}}\n'
    )
    exe = tmp_path / "p"
    run_checked([cc, "-std=c11", "-I", str(tpb_dir(gen)), str(src), "-o", str(exe)])
    assert run_checked([str(exe)]).strip() == want
