"""Enum facts of the reconstructed aws_neuron_isa_tpb_common.h, checked against the spec shelf.

The header text is parsed with regular expressions (one enumerator per line is part of the dialect),
so these tests do not depend on tpbgen. Every (gen, line, text) row below is a line number quoted on
the shelf (common-h-facts.md §1 "Notable line numbers", §2.1-§2.3 bold cells, §3; the founding doc §3).
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from tpb_paths import GENERATIONS, tpb_dir

ENUM_OPEN = re.compile(r"^typedef enum (NEURON_ISA_TPB_\w+) \{$")
ENUMERATOR = re.compile(r"^    (\w+) = (0x[0-9A-Fa-f]+|\d+),(?: (//.*))?$")


@cache
def lines(gen: str) -> tuple[str, ...]:
    text = (tpb_dir(gen) / "aws_neuron_isa_tpb_common.h").read_text()
    return tuple(text.split("\n"))


@cache
def enums(gen: str) -> dict[str, dict]:
    """name -> {"open": line, "close": line, "items": [(line, enumerator, value, comment)]}"""
    out: dict[str, dict] = {}
    src = lines(gen)
    i = 0
    while i < len(src):
        m = ENUM_OPEN.match(src[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        items = []
        j = i + 1
        while not src[j].startswith("}"):
            e = ENUMERATOR.match(src[j])
            assert e, f"{gen}:{j + 1}: not an enumerator line: {src[j]!r}"
            items.append((j + 1, e.group(1), int(e.group(2), 0), e.group(3)))
            j += 1
        assert src[j] == f"}} NEURON_ISA_PACKED {name};", f"{gen}:{j + 1}: {src[j]!r}"
        out[name] = {"open": i + 1, "close": j + 1, "items": items}
        i = j + 1
    return out


def names(gen: str, enum: str) -> dict[str, int]:
    return {n: v for _, n, v, _ in enums(gen)[f"NEURON_ISA_TPB_{enum}"]["items"]}


def opcode_values(gen: str) -> set[int]:
    return set(names(gen, "OPCODE").values())


def line(gen: str, n: int) -> str:
    return lines(gen)[n - 1]


# --------------------------------------------------------------------------- OPCODE

# common-h-facts.md §2.3: every bold (doc-quoted) cell, as (gen, line, enumerator = value).
OPCODE_BOLD = [
    ("sunda", 174, "NEURON_ISA_TPB_OPCODE_RECIPROCAL = 0x48"),
    ("sunda", 175, "NEURON_ISA_TPB_OPCODE_MEMSET = 0x49"),
    ("sunda", 182, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_ARITH = 0x4f"),
    ("sunda", 183, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_BITVEC = 0x5f"),
    ("sunda", 192, "NEURON_ISA_TPB_OPCODE_POOL_BUFFER_LOAD = 0x67"),
    ("sunda", 194, "NEURON_ISA_TPB_OPCODE_LOAD_MASK_SELECT = 0x69"),
    ("sunda", 195, "NEURON_ISA_TPB_OPCODE_STREAM_SHUFFLE = 0x6a"),
    ("sunda", 203, "NEURON_ISA_TPB_OPCODE_COPY_PREDICATED = 0x72"),
    ("sunda", 205, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ADDR = 0x74"),
    ("sunda", 210, "NEURON_ISA_TPB_OPCODE_LOAD_POOL_ARGUMENT = 0x7a"),
    ("sunda", 215, "NEURON_ISA_TPB_OPCODE_DROPOUT = 0x7f"),
    ("sunda", 216, "NEURON_ISA_TPB_OPCODE_TRANSPOSE_BATCH_NORM_STATS2 = 0x82"),
    ("sunda", 219, "NEURON_ISA_TPB_OPCODE_CUSTOM_OP_HEADER = 0x85"),
    ("sunda", 220, "NEURON_ISA_TPB_OPCODE_CUSTOM_OP_PAYLOAD = 0x86"),
    ("sunda", 221, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH = 0x87"),
    ("sunda", 222, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC = 0x88"),
    ("sunda", 223, "NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_ADD_BF16 = 0x8a"),
    ("sunda", 224, "NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_MULT_BF16 = 0x8b"),
    ("sunda", 225, "NEURON_ISA_TPB_OPCODE_TENSOR_REDUCE_ADD_BF16 = 0x8c"),
    ("sunda", 226, "NEURON_ISA_TPB_OPCODE_TENSOR_REDUCE_MAX_BF16 = 0x8d"),
    ("sunda", 227, "NEURON_ISA_TPB_OPCODE_BATCH_NORM_PARAM_LOAD2 = 0x8e"),
    ("sunda", 228, "NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_SUB_BF16 = 0x8f"),
    ("sunda", 229, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_AFFINE_SELECT = 0x92"),
    ("sunda", 230, "NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_SCALAR_ARITH_OP = 0x93"),
    ("sunda", 232, "NEURON_ISA_TPB_OPCODE_MODIFY_POOL_CONFIG = 0x95"),
    ("sunda", 236, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_REDUCE = 0x9a"),
    ("sunda", 242, "NEURON_ISA_TPB_OPCODE_EXPONENTIAL = 0x30"),
    ("sunda", 293, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_CUMULATIVE = 0xe6"),
    ("cayman", 166, "NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_ARITH_OP = 0x41"),
    ("cayman", 167, "NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_BITVEC_OP = 0x51"),
    ("cayman", 170, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP = 0x43"),
    ("cayman", 171, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_BITVEC_OP = 0x53"),
    ("cayman", 219, "NEURON_ISA_TPB_OPCODE_JPEG_DECODE = 0x81"),
    ("cayman", 226, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_AFFINE_SELECT = 0x92"),
    ("cayman", 233, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_REDUCE = 0x9a"),
    ("cayman", 236, "NEURON_ISA_TPB_OPCODE_SCALAR_TENSOR_TENSOR_ARITH = 0x9d"),
    ("cayman", 237, "NEURON_ISA_TPB_OPCODE_SCALAR_TENSOR_TENSOR_BITVEC = 0x9e"),
    ("cayman", 240, "NEURON_ISA_TPB_OPCODE_EVENT_SEMAPHORE = 0xa0"),
    ("cayman", 255, "NEURON_ISA_TPB_OPCODE_POLL_SEM = 0xb3"),
    ("cayman", 259, "NEURON_ISA_TPB_OPCODE_RANGE_SELECT = 0xbc"),
    ("cayman", 263, "NEURON_ISA_TPB_OPCODE_PSEUDO_DMATRIGGER = 0xc1"),
    ("cayman", 286, "NEURON_ISA_TPB_OPCODE_PSEUDO_CORE_BARRIER = 0xd8"),
    ("cayman", 294, "NEURON_ISA_TPB_OPCODE_CONV_LUT_LOAD = 0xe4"),
    ("cayman", 296, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_CUMULATIVE = 0xe6"),
    ("mariana", 163, "NEURON_ISA_TPB_OPCODE_PE_MANAGE_SEED = 0x08"),
    ("mariana", 164, "NEURON_ISA_TPB_OPCODE_LDWEIGHTS_MX = 0x09"),
    ("mariana", 165, "NEURON_ISA_TPB_OPCODE_MATMUL_MX = 0x0a"),
    ("mariana", 175, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP = 0x43"),
    ("mariana", 176, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_BITVEC_OP = 0x53"),
    ("mariana", 177, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_ARITH_OP = 0x44"),
    ("mariana", 178, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_BITVEC_OP = 0x54"),
    ("mariana", 187, "NEURON_ISA_TPB_OPCODE_RNG = 0x4d"),
    ("mariana", 190, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_ARITH = 0x4f"),
    ("mariana", 191, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_BITVEC = 0x5f"),
    ("mariana", 214, "NEURON_ISA_TPB_OPCODE_RAND = 0x76"),
    ("mariana", 215, "NEURON_ISA_TPB_OPCODE_RAND_GET_STATE = 0x77"),
    ("mariana", 216, "NEURON_ISA_TPB_OPCODE_RAND_SET_STATE = 0x78"),
    ("mariana", 223, "NEURON_ISA_TPB_OPCODE_DROPOUT = 0x7f"),
    ("mariana", 231, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_AFFINE_SELECT = 0x92"),
    ("mariana", 238, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_REDUCE = 0x9a"),
    ("mariana", 265, "NEURON_ISA_TPB_OPCODE_RANGE_SELECT = 0xbc"),
    ("mariana", 302, "NEURON_ISA_TPB_OPCODE_RAND2 = 0xe2"),
    ("mariana", 304, "NEURON_ISA_TPB_OPCODE_CONV_LUT_LOAD = 0xe4"),
    ("mariana", 306, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_CUMULATIVE = 0xe6"),
    ("maverick", 158, "NEURON_ISA_TPB_OPCODE_LDWEIGHTS = 0x01"),
    ("maverick", 159, "NEURON_ISA_TPB_OPCODE_MATMUL = 0x02"),
    ("maverick", 160, "NEURON_ISA_TPB_OPCODE_PE_REG_WRITE = 0x03"),
    ("maverick", 163, "NEURON_ISA_TPB_OPCODE_LDTAGS = 0x06"),
    ("maverick", 164, "NEURON_ISA_TPB_OPCODE_MATMUL_SPARSE = 0x07"),
    ("maverick", 165, "NEURON_ISA_TPB_OPCODE_PE_MANAGE_SEED = 0x08"),
    ("maverick", 166, "NEURON_ISA_TPB_OPCODE_LDWEIGHTS_MX = 0x09"),
    ("maverick", 167, "NEURON_ISA_TPB_OPCODE_MATMUL_MX = 0x0a"),
    ("maverick", 172, "NEURON_ISA_TPB_OPCODE_ACTIVATE2 = 0x25"),
    ("maverick", 173, "NEURON_ISA_TPB_OPCODE_ACTIVATE_MULTIPASS = 0x26"),
    ("maverick", 185, "NEURON_ISA_TPB_OPCODE_RECIPROCAL = 0x48"),
    ("maverick", 186, "NEURON_ISA_TPB_OPCODE_MEMSET = 0x49"),
    ("maverick", 203, "NEURON_ISA_TPB_OPCODE_POOL_BUFFER_LOAD = 0x67"),
    ("maverick", 205, "NEURON_ISA_TPB_OPCODE_LOAD_MASK_SELECT = 0x69"),
    ("maverick", 206, "NEURON_ISA_TPB_OPCODE_STREAM_SHUFFLE = 0x6a"),
    ("maverick", 214, "NEURON_ISA_TPB_OPCODE_COPY_PREDICATED = 0x72"),
    ("maverick", 216, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ADDR = 0x74"),
    ("maverick", 217, "NEURON_ISA_TPB_OPCODE_RAND = 0x76"),
    ("maverick", 218, "NEURON_ISA_TPB_OPCODE_RAND_GET_STATE = 0x77"),
    ("maverick", 219, "NEURON_ISA_TPB_OPCODE_RAND_SET_STATE = 0x78"),
    ("maverick", 221, "NEURON_ISA_TPB_OPCODE_LOAD_POOL_ARGUMENT = 0x7a"),
    ("maverick", 222, "NEURON_ISA_TPB_OPCODE_TENSOR_DEQUANTIZE = 0x7b"),
    ("maverick", 231, "NEURON_ISA_TPB_OPCODE_CUSTOM_OP_HEADER = 0x85"),
    ("maverick", 232, "NEURON_ISA_TPB_OPCODE_CUSTOM_OP_PAYLOAD = 0x86"),
    ("maverick", 234, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_AFFINE_SELECT = 0x92"),
    ("maverick", 235, "NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_SCALAR_ARITH_OP = 0x93"),
    ("maverick", 237, "NEURON_ISA_TPB_OPCODE_MODIFY_POOL_CONFIG = 0x95"),
    ("maverick", 239, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_SELECT = 0x98"),
    ("maverick", 241, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_REDUCE = 0x9a"),
    ("maverick", 247, "NEURON_ISA_TPB_OPCODE_EXPONENTIAL = 0x30"),
    ("maverick", 266, "NEURON_ISA_TPB_OPCODE_COMPACT_CONTROL_INST = 0xb6"),
    ("maverick", 268, "NEURON_ISA_TPB_OPCODE_DMA_MEMCPY2 = 0xb9"),
    ("maverick", 269, "NEURON_ISA_TPB_OPCODE_DMA_IMMEDIATE = 0xba"),
    ("maverick", 271, "NEURON_ISA_TPB_OPCODE_RANGE_SELECT = 0xbc"),
    ("maverick", 308, "NEURON_ISA_TPB_OPCODE_RAND2 = 0xe2"),
    ("maverick", 309, "NEURON_ISA_TPB_OPCODE_QUANTIZE_MX = 0xe3"),
    ("maverick", 310, "NEURON_ISA_TPB_OPCODE_CONV_LUT_LOAD = 0xe4"),
    ("maverick", 312, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_CUMULATIVE = 0xe6"),
    ("maverick", 320, "NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_INT_WIDE = 0xf3"),
    ("maverick", 321, "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_INT_WIDE = 0xf4"),
]

# (gen, typedef line, closing line) of the OPCODE enum, common-h-facts.md §2 (OD §1).
OPCODE_SPAN = [
    ("sunda", 153, 299),
    ("cayman", 154, 305),
    ("mariana", 155, 315),
    ("maverick", 157, 323),
]
OPCODE_COUNT = {"sunda": 145, "cayman": 150, "mariana": 159, "maverick": 165}

# Maintenance markers as quoted (common-h-facts.md §2, §2.1-§2.3), checked on every gen that has the opcode.
MARKERS = [
    ("LDWEIGHTS", "// Y"),
    ("MATMUL", "// Y"),
    ("PE_REG_WRITE", "// Y"),
    ("LDTAGS", "// Y"),
    ("MATMUL_SPARSE", "// Y"),
    ("PE_MANAGE_SEED", "// Y"),
    ("LDWEIGHTS_MX", "// Y"),
    ("MATMUL_MX", "// Y"),
    ("ACTIVATE2", "// Y"),
    ("ACTIVATE_MULTIPASS", "// Y"),
    ("TENSOR_TENSOR_ARITH_OP", "// Y"),
    ("TENSOR_TENSOR_BITVEC_OP", "// Y"),
    ("TENSOR_SCALAR_ARITH_OP", "// Y"),
    ("TENSOR_SCALAR_BITVEC_OP", "// Y"),
    ("TENSOR_SCALAR_PTR_ARITH_OP", "// n, use TensorScalarArithOp instead"),
    ("TENSOR_SCALAR_PTR_BITVEC_OP", "// n, use TensorScalarBitvecOp instead"),
    ("RECIPROCAL", "// Y"),
    ("MEMSET", "// Y"),
    ("RNG", "// Y"),
    ("TENSOR_CUMULATIVE_ARITH_OP", "// Y"),
    ("TENSOR_CUMULATIVE_BITVEC_OP", "// Y"),
    ("TENSOR_SCALAR_PTR_MULTI_ARITH", "// n, ucode/kaenadve exists, not maintained/used"),
    ("TENSOR_SCALAR_PTR_MULTI_BITVEC", "// n, ucode/kaenadve exists, not maintained/used"),
    ("POOL_BUFFER_LOAD", "// Y"),
    ("LOAD_MASK_SELECT", "// Y"),
    ("STREAM_SHUFFLE", "// Y"),
    ("TENSOR_SCALAR_IMM_LD_ARITH", "// n, ucode/kaenadve exists, not maintained/used"),
    ("TENSOR_SCALAR_IMM_LD_BITVEC", "// n, ucode/kaenadve exists, not maintained/used"),
    ("COPY_PREDICATED", "// Y"),
    ("TENSOR_SCALAR_ADDR", "// Y"),
    ("RAND", "// n, ucode exists, not maintained/used"),
    ("RAND_GET_STATE", "// Y"),
    ("RAND_SET_STATE", "// Y"),
    ("LOAD_POOL_ARGUMENT", "// Y"),
    ("TENSOR_DEQUANTIZE", "// Y"),
    ("DROPOUT", "// Y"),
    ("CUSTOM_OP_HEADER", "// Y"),
    ("CUSTOM_OP_PAYLOAD", "// Y"),
    ("TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH", "// n, ucode/kaenadve exists, not maintained/used"),
    ("TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC", "// n, ucode/kaenadve exists, not maintained/used"),
    ("TENSOR_TENSOR_ADD_BF16", "// Y"),
    ("TENSOR_TENSOR_MULT_BF16", "// Y"),
    ("TENSOR_REDUCE_ADD_BF16", "// Y"),
    ("TENSOR_REDUCE_MAX_BF16", "// Y"),
    ("TENSOR_TENSOR_SUB_BF16", "// Y"),
    ("TENSOR_SCALAR_AFFINE_SELECT", "// Y"),
    ("TRANSPOSE_TENSOR_SCALAR_ARITH_OP", "// Y"),
    ("MODIFY_POOL_CONFIG", "// Y"),
    ("TENSOR_SCALAR_SELECT", "// SortMerge wip 0x97 // Y"),
    ("TENSOR_SCALAR_CACHE_REDUCE", "// Y"),
    ("COMPACT_CONTROL_INST", "// Y"),
    ("DMA_MEMCPY2", "// Y"),
    ("DMA_IMMEDIATE", "// Y"),
    ("RANGE_SELECT", "// Y"),
    ("RAND2", "// Y"),
    ("QUANTIZE_MX", "// Y"),
    ("CONV_LUT_LOAD", "// Y"),
    ("TENSOR_TENSOR_SCAN_ARITH", "// Y"),
    ("TENSOR_SCALAR_CACHE_CUMULATIVE", "// Y"),
    ("COPY_PREDICATED_SCALAR", "// Y"),
    ("TENSOR_TENSOR_INT_WIDE", "// Y"),
    ("TENSOR_SCALAR_INT_WIDE", "// Y"),
]


@pytest.mark.parametrize(("gen", "lineno", "fragment"), OPCODE_BOLD)
def test_opcode_quoted_lines(gen: str, lineno: int, fragment: str) -> None:
    assert fragment.lower() in line(gen, lineno).lower()


@pytest.mark.parametrize(("gen", "first", "last"), OPCODE_SPAN)
def test_opcode_enum_span_and_count(gen: str, first: int, last: int) -> None:
    e = enums(gen)["NEURON_ISA_TPB_OPCODE"]
    assert (e["open"], e["close"]) == (first, last)
    assert len(e["items"]) == OPCODE_COUNT[gen]
    assert [it[0] for it in e["items"]] == list(range(first + 1, last)), (
        "one enumerator per line, no gaps"
    )
    assert e["items"][-1][1:3] == ("NEURON_ISA_TPB_OPCODE_INVALID", 0xFF)


def test_dual_pair_only_on_sunda() -> None:
    for gen in GENERATIONS:
        have = names(gen, "OPCODE")
        dual = {
            "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH": 0x87,
            "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC": 0x88,
        }
        for n, v in dual.items():
            assert (have.get(n) == v) == (gen == "sunda"), (gen, n)
        assert ({0x87, 0x88} <= opcode_values(gen)) == (gen == "sunda")
        assert not ({0x87, 0x88} & opcode_values(gen)) or gen == "sunda"
    assert (
        line("sunda", 221)
        .strip()
        .startswith("NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH = 0x87,")
    )
    assert (
        line("sunda", 222)
        .strip()
        .startswith("NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC = 0x88,")
    )


@pytest.mark.parametrize(("name", "marker"), MARKERS)
def test_opcode_markers_verbatim(name: str, marker: str) -> None:
    seen = 0
    for gen in GENERATIONS:
        for _, n, _, comment in enums(gen)["NEURON_ISA_TPB_OPCODE"]["items"]:
            if n == f"NEURON_ISA_TPB_OPCODE_{name}":
                assert comment == marker, (gen, n, comment)
                seen += 1
    assert seen, name


def test_specific_marker_quotes() -> None:
    exp = {
        "TENSOR_SCALAR_PTR_ARITH_OP": "// n, use TensorScalarArithOp instead",
        "TENSOR_SCALAR_PTR_BITVEC_OP": "// n, use TensorScalarBitvecOp instead",
        "TENSOR_SCALAR_PTR_MULTI_ARITH": "// n, ucode/kaenadve exists, not maintained/used",
        "TENSOR_SCALAR_PTR_MULTI_BITVEC": "// n, ucode/kaenadve exists, not maintained/used",
        "TENSOR_SCALAR_IMM_LD_ARITH": "// n, ucode/kaenadve exists, not maintained/used",
        "TENSOR_SCALAR_IMM_LD_BITVEC": "// n, ucode/kaenadve exists, not maintained/used",
        "RAND": "// n, ucode exists, not maintained/used",
        "TENSOR_SCALAR_SELECT": "// SortMerge wip 0x97 // Y",
        "TENSOR_SCALAR_ARITH_OP": "// Y",
        "TENSOR_SCALAR_CACHE_REDUCE": "// Y",
    }
    for gen in GENERATIONS:
        items = {n: c for _, n, _, c in enums(gen)["NEURON_ISA_TPB_OPCODE"]["items"]}
        for n, c in exp.items():
            assert items[f"NEURON_ISA_TPB_OPCODE_{n}"] == c, (gen, n)
        assert items["NEURON_ISA_TPB_OPCODE_EXPONENTIAL"] is None, (
            "EXPONENTIAL carries no status comment"
        )
    sunda = {n: c for _, n, _, c in enums("sunda")["NEURON_ISA_TPB_OPCODE"]["items"]}
    for n in ("TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH", "TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC"):
        assert (
            sunda[f"NEURON_ISA_TPB_OPCODE_{n}"]
            == "// n, ucode/kaenadve exists, not maintained/used"
        )


def test_fixme_comment_on_cayman_263() -> None:
    assert (
        "FIXME: currently NRT relies on the fact that all pseudo instructions have upper three bits"
        in line("cayman", 263)
    )


def test_opcode_values_stable_and_deltas() -> None:
    by_gen = {g: names(g, "OPCODE") for g in GENERATIONS}
    merged: dict[str, int] = {}
    for g in GENERATIONS:
        for n, v in by_gen[g].items():
            assert merged.setdefault(n, v) == v, f"{n} changes value on {g}"
        assert len(set(by_gen[g].values())) == len(by_gen[g]), f"duplicate opcode value on {g}"
    assert len(merged) == 172
    vals = {g: set(by_gen[g].values()) for g in GENERATIONS}
    assert vals["sunda"] - vals["cayman"] == {0x87, 0x88, 0x8A, 0x8B, 0x8C, 0x8D, 0x8F}
    assert len(vals["cayman"] - vals["sunda"]) == 12
    assert vals["cayman"] - vals["mariana"] == set() and len(vals["mariana"] - vals["cayman"]) == 9
    assert (
        vals["mariana"] - vals["maverick"] == set() and len(vals["maverick"] - vals["mariana"]) == 6
    )
    assert all(0x80 not in v for v in vals.values())
    assert 0x81 not in vals["sunda"]
    for g in GENERATIONS:
        pseudo = [v for n, v in by_gen[g].items() if "_OPCODE_PSEUDO_" in n]
        assert pseudo and all(v >> 5 == 0b110 for v in pseudo)


# --------------------------------------------------------------------------- other enums

ALU_TYPEDEF = {"sunda": 917, "cayman": 939, "mariana": 1033, "maverick": 1188}
ALU_COUNT = {"sunda": 33, "cayman": 60, "mariana": 64, "maverick": 65}
DTYPE_COUNT = {"sunda": 16, "cayman": 16, "mariana": 24, "maverick": 30}

# MAVERICK DTYPE declaration order, common.h:850-879 (common-h-facts.md §3.2).
MAVERICK_DTYPE_LINES = {
    850: "INVALID",
    851: "FP8_EXP3",
    852: "FP8_EXP4",
    853: "FP8_EXP5",
    854: "FP16",
    855: "BFLOAT16",
    856: "FP32",
    857: "FP32R",
    858: "UINT8",
    859: "UINT16",
    860: "UINT32",
    861: "UINT64",
    862: "INT8",
    863: "INT16",
    864: "INT32",
    865: "INT64",
    866: "FP4_EXP2",
    867: "CPTC1",
    868: "CPTC2",
    869: "CPTC3",
    870: "CPTC4",
    871: "CPTC5",
    872: "CPTC6",
    873: "CPTC7",
    874: "FP8_EXP2",
    875: "INT4",
    876: "SFP8_E8",
    877: "SFP8_E7",
    878: "SFP8_E6",
    879: "SFP8_E5",
}
DTYPE_CODES = {
    "INVALID": 0x0,
    "UINT64": 0x1,
    "INT8": 0x2,
    "UINT8": 0x3,
    "INT16": 0x4,
    "UINT16": 0x5,
    "BFLOAT16": 0x6,
    "FP16": 0x7,
    "INT32": 0x8,
    "UINT32": 0x9,
    "FP32": 0xA,
    "FP32R": 0xB,
    "INT64": 0xC,
    "FP8_EXP3": 0xD,
    "FP8_EXP4": 0xE,
    "FP8_EXP5": 0xF,
    "FP4_EXP2": 0x10,
    "FP8_EXP2": 0x11,
    "INT4": 0x12,
    "SFP8_E8": 0x13,
    "SFP8_E7": 0x14,
    "SFP8_E6": 0x15,
    "SFP8_E5": 0x16,
    **{f"CPTC{i}": 0x18 + i for i in range(1, 8)},
}

# Line numbers from the "Notable line numbers in common.h" table (common-h-facts.md §1) and §3,
# as (gen, line, text fragment). Where the shelf names no gen, the gen chosen is recorded in PROVENANCE.md.
NOTABLE = [
    *[(g, 3, f"ISA header for NC-v{n}.") for g, n in zip(GENERATIONS, (2, 3, 4, 5), strict=True)],
    *[(g, 27, "static const uint32_t NEURON_ISA_TPB_INST_NBYTES = 64U;") for g in GENERATIONS],
    *[(g, 34, "NEURON_ISA_TPB_NUM_DGE_SHAPE_REGISTERS = 4U;") for g in GENERATIONS],
    *[(g, 35, "NEURON_ISA_TPB_POOLING_NUM_CHANNELS = 128U;") for g in GENERATIONS],
    *[(g, 35, "// const POOLING_NUM_CHANNELS = 128") for g in GENERATIONS],
    *[(g, 39, "NEURON_ISA_TPB_STATE_BUF_NUM_PARTITIONS") for g in GENERATIONS],
    *[(g, 69, "NEURON_ISA_TPB_DMA_ENGINE_COUNT_PER_TPB") for g in GENERATIONS],
    (
        "sunda",
        132,
        "NEURON_ISA_TPB_NEURON_CORE_VERSION_V2 = 2, // V1 ISA is maintained in separate package",
    ),
    ("cayman", 131, "typedef enum NEURON_ISA_TPB_NEURON_CORE_VERSION {"),
    ("maverick", 136, "NEURON_ISA_TPB_NEURON_CORE_VERSION_V5 = 5,"),
    ("sunda", 144, "NEURON_ISA_TPB_NEURON_ENGINE_TOP_SP = 5,"),
    ("cayman", 139, "typedef enum NEURON_ISA_TPB_NEURON_ENGINE {"),
    ("cayman", 140, "NEURON_ISA_TPB_NEURON_ENGINE_PE = 0,"),
    ("cayman", 145, "NEURON_ISA_TPB_NEURON_ENGINE_TOP_SP = 5,"),
    ("cayman", 146, "} NEURON_ISA_PACKED NEURON_ISA_TPB_NEURON_ENGINE;"),
    ("mariana", 146, "NEURON_ISA_TPB_NEURON_ENGINE_TOP_SP = 5,"),
    ("maverick", 142, "typedef enum NEURON_ISA_TPB_NEURON_ENGINE {"),
    ("maverick", 148, "NEURON_ISA_TPB_NEURON_ENGINE_TOP_SP = 5,"),
    ("maverick", 149, "} NEURON_ISA_PACKED NEURON_ISA_TPB_NEURON_ENGINE;"),
    ("cayman", 263, "// FIXME: currently NRT relies"),
    ("cayman", 313, "typedef enum NEURON_ISA_TPB_WAIT_MODE {"),
    ("cayman", 330, "} NEURON_ISA_PACKED NEURON_ISA_TPB_WAIT_MODE;"),
    ("cayman", 347, "typedef enum NEURON_ISA_TPB_UPDATE_MODE {"),
    ("cayman", 370, "} NEURON_ISA_PACKED NEURON_ISA_TPB_UPDATE_MODE;"),
    ("maverick", 382, "NEURON_ISA_TPB_UPDATE_MODE_SEM_SUB_REG_COMPLETE = 0x97,"),
    ("cayman", 411, "typedef struct NEURON_ISA_TPB_HEADER {"),
    ("cayman", 416, "} NEURON_ISA_TPB_HEADER;"),
    ("cayman", 418, "typedef struct NEURON_ISA_TPB_EVENTS {"),
    ("cayman", 424, "} NEURON_ISA_TPB_EVENTS;"),
    ("cayman", 432, "typedef struct NEURON_ISA_TPB_EVENTS_EXTENDED {"),
    ("cayman", 447, "typedef uint32_t NEURON_ISA_TPB_PARTITION_OFFSET;"),
    ("cayman", 462, "//"),
    ("cayman", 466, "//"),
    ("cayman", 486, "NEURON_ISA_TPB_ADDR4_MARKER_IMM = 0x00;"),
    ("cayman", 487, "NEURON_ISA_TPB_ADDR4_MARKER_SHAPE_REG = 0x40;"),
    ("cayman", 488, "NEURON_ISA_TPB_ADDR4_MARKER_ADDR_REG = 0x80;"),
    ("cayman", 489, "NEURON_ISA_TPB_ADDR4_MARKER_ADDR_SHAPE_REG = 0xC0;"),
    ("cayman", 490, "NEURON_ISA_TPB_ADDR4_MARKER_INDIRECT_IMM = 0x20;"),
    ("cayman", 491, "NEURON_ISA_TPB_ADDR4_MARKER_INDIRECT_REG = 0xA0;"),
    ("cayman", 499, "typedef union NEURON_ISA_TPB_ADDR4 {"),
    ("mariana", 532, "typedef union NEURON_ISA_TPB_ADDR4 {"),
    ("mariana", 603, "typedef union NEURON_ISA_TPB_ADDR8 {"),
    ("cayman", 649, "typedef struct NEURON_ISA_TPB_TENSOR3D {"),
    ("cayman", 660, "typedef struct NEURON_ISA_TPB_TENSOR4D {"),
    ("mariana", 682, "typedef struct NEURON_ISA_TPB_TENSOR3D {"),
    ("mariana", 693, "typedef struct NEURON_ISA_TPB_TENSOR4D {"),
    ("cayman", 713, "typedef struct NEURON_ISA_TPB_DMA_CONFIGS {"),
    ("cayman", 716, "} NEURON_ISA_PACKED NEURON_ISA_TPB_DMA_CONFIGS;"),
    ("cayman", 722, "typedef enum NEURON_ISA_TPB_DTYPE {"),
    ("mariana", 805, "typedef enum NEURON_ISA_TPB_DTYPE {"),
    ("cayman", 741, "typedef union NEURON_ISA_TPB_MEM_PATTERN4D {"),
    ("cayman", 745, "typedef union NEURON_ISA_TPB_MEM_PATTERN3D {"),
    ("cayman", 749, "typedef union NEURON_ISA_TPB_MEM_PATTERN2D {"),
    ("mariana", 832, "typedef union NEURON_ISA_TPB_MEM_PATTERN4D {"),
    ("mariana", 837, "typedef union NEURON_ISA_TPB_MEM_PATTERN3D {"),
    ("maverick", 906, "typedef union NEURON_ISA_TPB_MEM_PATTERN3D {"),
    ("cayman", 754, "typedef enum NEURON_ISA_TPB_DATA_SRC {"),
    ("cayman", 757, "} NEURON_ISA_PACKED NEURON_ISA_TPB_DATA_SRC;"),
    ("cayman", 777, "typedef enum NEURON_ISA_TPB_ACCUM_CMD {"),
    ("mariana", 870, "typedef enum NEURON_ISA_TPB_ACCUM_CMD {"),
    ("mariana", 876, "} NEURON_ISA_PACKED NEURON_ISA_TPB_ACCUM_CMD;"),
    ("cayman", 792, "typedef enum NEURON_ISA_TPB_COLLECTIVE_TYPE {"),
    ("cayman", 806, "typedef enum NEURON_ISA_TPB_DEQUANT_FMT {"),
    ("cayman", 815, "typedef enum NEURON_ISA_TPB_LNC_SIZE_FMT {"),
    ("cayman", 820, "} NEURON_ISA_PACKED NEURON_ISA_TPB_LNC_SIZE_FMT;"),
    ("cayman", 866, "typedef union NEURON_ISA_TPB_IMM_VAL_INST_FIELD {"),
    ("mariana", 959, "typedef union NEURON_ISA_TPB_IMM_VAL_INST_FIELD {"),
    ("sunda", 874, "typedef enum NEURON_ISA_TPB_RAND_ALGORITHM {"),
    ("sunda", 878, "} NEURON_ISA_PACKED NEURON_ISA_TPB_RAND_ALGORITHM;"),
    ("cayman", 894, "typedef enum NEURON_ISA_TPB_RAND_ALGORITHM {"),
    ("mariana", 987, "typedef enum NEURON_ISA_TPB_RAND_ALGORITHM {"),
    ("maverick", 1142, "typedef enum NEURON_ISA_TPB_RAND_ALGORITHM {"),
    ("mariana", 994, "typedef enum NEURON_ISA_TPB_RAND_POST_PROC {"),
    ("mariana", 1001, "typedef enum NEURON_ISA_TPB_RAND_SRC {"),
    ("sunda", 888, "NEURON_ISA_TPB_RAND_SRC_RNG_LFSR = 0,"),
    ("sunda", 889, "NEURON_ISA_TPB_RAND_SRC_RNG_PHILOX = 2,"),
    *[(g, ln, "typedef enum NEURON_ISA_TPB_ALU_OP {") for g, ln in ALU_TYPEDEF.items()],
    ("cayman", 1000, "} NEURON_ISA_PACKED NEURON_ISA_TPB_ALU_OP;"),
    ("cayman", 1056, "typedef enum NEURON_ISA_TPB_TENSOR_SUBDIM {"),
    ("cayman", 1062, "} NEURON_ISA_PACKED NEURON_ISA_TPB_TENSOR_SUBDIM;"),
    ("mariana", 1195, "typedef enum NEURON_ISA_TPB_TENSOR_SUBDIM {"),
    ("cayman", 1207, "typedef enum NEURON_ISA_TPB_IMM_SRC {"),
    ("cayman", 1211, "} NEURON_ISA_PACKED NEURON_ISA_TPB_IMM_SRC;"),
    ("mariana", 1351, "typedef enum NEURON_ISA_TPB_IMM_SRC {"),
    ("mariana", 1375, "typedef enum NEURON_ISA_TPB_IMM_SRC_N {"),
    ("cayman", 1246, "typedef enum NEURON_ISA_TPB_TENS_SCALAR_REV_OPS {"),
    ("mariana", 1383, "// tensor_scalar reverse operands options:"),
    ("mariana", 1387, "//"),
    ("maverick", 1256, "// CompressOp::Min = AluOp::Max"),
    ("maverick", 1288, "typedef enum NEURON_ISA_TPB_PE_SEED_MODE {"),
    ("maverick", 1292, "} NEURON_ISA_PACKED NEURON_ISA_TPB_PE_SEED_MODE;"),
    ("maverick", 1382, "MATMUL_FLAGS"),
    ("maverick", 1391, "LD_WEIGHT_FLAGS"),
    ("maverick", 1396, "typedef enum NEURON_ISA_TPB_MX_PERF_MODE {"),
    ("maverick", 1404, "} NEURON_ISA_PACKED NEURON_ISA_TPB_MX_PERF_MODE;"),
    # predicate spec comments (§1 table, §5)
    ("cayman", 1312, "// fn is_valid_dtype("),
    ("cayman", 1324, "// fn is_valid_dtype_64("),
    ("cayman", 1356, "// fn has_valid_immediates("),
    ("cayman", 1419, "// fn is_valid_int_aluop("),
    ("cayman", 1624, "// fn is_arith_op("),
    ("cayman", 1653, "// fn is_bitvec_op("),
    ("cayman", 1666, "// fn is_general_bitvec_op("),
    ("cayman", 1671, "// fn is_general_arith_op("),
    ("cayman", 1680, "// fn alu_shift_check("),
    ("cayman", 1862, "// fn same_or_fewer_element_count_t4d("),
    ("cayman", 2070, "priority_class <= 4"),
    ("cayman", 2071, "reserved_bitfield == 0"),
    ("cayman", 2075, "// fn is_valid_dge_shape_reg("),
    ("cayman", 2077, "NUM_DGE_SHAPE_REGISTERS"),
    ("cayman", 2343, "// fn check_active_channels("),
    ("cayman", 2451, "// fn is_valid_64b_int_dtype("),
    ("cayman", 2477, "// fn is_signed_alu_op("),
    ("cayman", 2497, "// fn is_unsigned_alu_op("),
    ("mariana", 1859, "// fn is_arith_op("),
    ("mariana", 1919, "// fn alu_shift_check("),
    ("maverick", 1948, "// fn is_valid_int_aluop_dve("),
    ("maverick", 3309, "// fn is_valid_int_dtype_datapath("),
    ("maverick", 3316, "// }"),
]

UPDATE_SUB_REG_READ = {"sunda": 350, "cayman": 356, "mariana": 366, "maverick": 374}


@pytest.mark.parametrize(("gen", "lineno", "fragment"), NOTABLE)
def test_notable_lines(gen: str, lineno: int, fragment: str) -> None:
    assert fragment in line(gen, lineno)


@pytest.mark.parametrize("gen", GENERATIONS)
def test_update_mode_0x87_on_every_gen(gen: str) -> None:
    lineno = UPDATE_SUB_REG_READ[gen]
    assert line(gen, lineno).strip() == "NEURON_ISA_TPB_UPDATE_MODE_SEM_SUB_REG_READ = 0x87,"
    e = enums(gen)["NEURON_ISA_TPB_UPDATE_MODE"]
    assert e["open"] < lineno < e["close"]
    assert names(gen, "UPDATE_MODE")["NEURON_ISA_TPB_UPDATE_MODE_SEM_SUB_REG_READ"] == 0x87


@pytest.mark.parametrize("gen", GENERATIONS)
def test_alu_op(gen: str) -> None:
    e = enums(gen)["NEURON_ISA_TPB_ALU_OP"]
    assert e["open"] == ALU_TYPEDEF[gen]
    assert len(e["items"]) == ALU_COUNT[gen]
    assert (
        sum(1 for ln in lines(gen) if re.search(r"NEURON_ISA_TPB_ALU_OP_.* = 0x", ln))
        == ALU_COUNT[gen]
    )
    ops = names(gen, "ALU_OP")
    assert ops["NEURON_ISA_TPB_ALU_OP_BYPASS"] == 0 and ops["NEURON_ISA_TPB_ALU_OP_MULT"] == 6
    assert ops["NEURON_ISA_TPB_ALU_OP_DIVIDE"] == 7 and ops["NEURON_ISA_TPB_ALU_OP_POW"] == 0x1A
    assert ops["NEURON_ISA_TPB_ALU_OP_MOD"] == 0x1B and ops["NEURON_ISA_TPB_ALU_OP_ADD_INT"] == 0xC4
    assert not {0x1E, 0x1F} & set(ops.values())
    assert not {v for v in ops.values() if 0x25 <= v <= 0xC3}


def test_alu_op_strictly_additive() -> None:
    prev: dict[str, int] = {}
    for gen in GENERATIONS:
        cur = names(gen, "ALU_OP")
        assert prev.items() <= cur.items(), gen
        prev = cur


@pytest.mark.parametrize("gen", GENERATIONS)
def test_dtype(gen: str) -> None:
    d = names(gen, "DTYPE")
    assert len(d) == DTYPE_COUNT[gen]
    for n, v in d.items():
        assert DTYPE_CODES[n.removeprefix("NEURON_ISA_TPB_DTYPE_")] == v, n
    if gen in ("mariana", "maverick"):
        basic = names(gen, "DTYPE_BASIC")
        assert len(basic) == 16
        assert sorted(basic.values()) == list(range(16))
    else:
        assert "NEURON_ISA_TPB_DTYPE_BASIC" not in enums(gen)


def test_maverick_dtype_declaration_order() -> None:
    for lineno, name in MAVERICK_DTYPE_LINES.items():
        assert line("maverick", lineno).strip().startswith(f"NEURON_ISA_TPB_DTYPE_{name} = "), (
            lineno
        )


@pytest.mark.parametrize("gen", GENERATIONS)
def test_small_enums(gen: str) -> None:
    assert names(gen, "IMM_SRC") == {
        "NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE": 0,
        "NEURON_ISA_TPB_IMM_SRC_POINTER_IMMEDIATE": 1,
        "NEURON_ISA_TPB_IMM_SRC_REG_PTR_IMMEDIATE": 2,
    }
    assert names(gen, "IMM_SRC_N") == {
        "NEURON_ISA_TPB_IMM_SRC_N_POINTER_IMMEDIATE": 0,
        "NEURON_ISA_TPB_IMM_SRC_N_INSTRUCTION_IMMEDIATE": 1,
        "NEURON_ISA_TPB_IMM_SRC_N_REG_PTR_IMMEDIATE": 2,
    }
    assert names(gen, "TENS_SCALAR_REV_OPS") == {
        f"NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_{n}": v
        for n, v in (("NONE", 0), ("FIRST", 1), ("SECOND", 2), ("BOTH", 3))
    }
    assert names(gen, "TENSOR_SUBDIM") == {
        f"NEURON_ISA_TPB_TENSOR_SUBDIM_{n}": v
        for n, v in (("UNUSED", 0), ("X", 2), ("XY", 3), ("XYZ", 4), ("XYZW", 5))
    }
    assert names(gen, "ACCUM_CMD") == {
        f"NEURON_ISA_TPB_ACCUM_CMD_{n}": v
        for n, v in (
            ("IDLE", 0),
            ("ZERO", 1),
            ("ACCUMULATE", 2),
            ("ZERO_ACCUMULATE", 3),
            ("LOAD_ACCUMULATE", 4),
        )
    }
    assert names(gen, "NEURON_ENGINE") == {
        f"NEURON_ISA_TPB_NEURON_ENGINE_{n}": i
        for i, n in enumerate(("PE", "ACT", "POOL", "DVE", "TPB_SP", "TOP_SP"))
    }
    ncv = {"sunda": 2, "cayman": 3, "mariana": 4, "maverick": 5}[gen]
    assert names(gen, "NEURON_CORE_VERSION") == {
        f"NEURON_ISA_TPB_NEURON_CORE_VERSION_V{v}": v for v in range(2, ncv + 1)
    }
    assert names(gen, "DEBUG_CMD_LEVELS") == {
        f"NEURON_ISA_TPB_DEBUG_CMD_LEVELS_{n}": v
        for n, v in (
            ("NONE", 0),
            ("NOTIFY", 1),
            ("START", 3),
            ("END", 5),
            ("START_END", 7),
            ("INS_FIELD", 9),
        )
    }
    assert set(names(gen, "PSEUDO_OPCODE").values()) == {0, 1, 2}
    for perm in (
        "DTYPE_ALLOW_FP32R",
        "DTYPE_ALLOW_U64",
        "DTYPE_ALLOW_I64",
        "WRITE_TENSOR",
        "ALLOWED_IN_PSUM",
        "ALLOWED_IN_SBUF",
    ):
        short = perm.removeprefix("DTYPE_")
        assert names(gen, perm) == {f"{short}_FALSE": 0, f"{short}_TRUE": 1}
    assert ("NEURON_ISA_TPB_DTYPE_ALLOW_FP4" in enums(gen)) == (gen == "maverick")
    assert ("NEURON_ISA_TPB_DTYPE_ALLOW_SCALE" in enums(gen)) == (gen == "maverick")
    rand = names(gen, "RAND_ALGORITHM")
    assert ("NEURON_ISA_TPB_RAND_ALGORITHM_XORWOW" in rand) == (gen != "sunda")


@pytest.mark.parametrize("gen", GENERATIONS)
def test_wait_and_update_modes(gen: str) -> None:
    w = names(gen, "WAIT_MODE")
    u = names(gen, "UPDATE_MODE")
    evt_w = {n for n in w if "_EVT_" in n}
    evt_u = {n for n in u if "_EVT_" in n}
    if gen == "maverick":
        assert not evt_w and not evt_u
        assert w["NEURON_ISA_TPB_WAIT_MODE_UNORDERED"] == 0xFE
        assert {v for v in w.values() if 0x91 <= v <= 0x95} == set(range(0x91, 0x96))
    else:
        assert len(w) == 16 and len(u) == 22
        assert sorted(w[n] for n in evt_w) == [6, 7, 14, 15]
    assert w["NEURON_ISA_TPB_WAIT_MODE_NONE"] == 0 and w["NEURON_ISA_TPB_WAIT_MODE_INVALID"] == 0xFF
    assert u["NEURON_ISA_TPB_UPDATE_MODE_SEM_SUB_REG_COMPLETE"] == 0x97
    assert u["NEURON_ISA_TPB_UPDATE_MODE_SEM_WR_REG_COMPLETE"] == 0x99


@pytest.mark.parametrize("gen", GENERATIONS)
def test_every_enum_fits_one_byte(gen: str) -> None:
    for name, e in enums(gen).items():
        assert e["items"], name
        for _, n, v, _ in e["items"]:
            assert 0 <= v <= 255, (name, n, v)
        assert len({n for _, n, _, _ in e["items"]}) == len(e["items"]), name


@pytest.mark.parametrize("gen", GENERATIONS)
def test_predicate_comments_are_rust_style(gen: str) -> None:
    src = lines(gen)
    fns = [i for i, ln in enumerate(src) if ln.startswith("// fn ")]
    assert len(fns) >= 30
    for i in fns:
        assert src[i].endswith("{"), src[i]
        j = i + 1
        while src[j] != "// }":
            assert src[j].startswith("//"), (gen, j + 1)
            j += 1
