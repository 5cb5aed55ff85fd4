"""instruction_mapping.json of the reconstructed drop: shape, documented bindings, and exactly the
documented stale opcode names (ts-tsm-facts.md §4; founding doc §6)."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest

from tpb_paths import GENERATIONS, tpb_dir

OP = "NEURON_ISA_TPB_OPCODE_"
DUAL = {OP + "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH", OP + "TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC"}
DMA_BARRIER_STALE = OP + "PSEUDO_DMA_BARRIER"
# The only JSON opcode names allowed to be missing from the same gen's OPCODE enum.
STALE = {
    "sunda": {DMA_BARRIER_STALE},
    "cayman": DUAL | {DMA_BARRIER_STALE},
    "mariana": DUAL | {DMA_BARRIER_STALE},
    "maverick": DUAL | {DMA_BARRIER_STALE},
}
S3D3_TS = [
    OP + n
    for n in (
        "TENSOR_SCALAR_ARITH_OP",
        "TENSOR_SCALAR_BITVEC_OP",
        "TENSOR_SCALAR_PTR_ARITH_OP",
        "TENSOR_SCALAR_PTR_BITVEC_OP",
        "TRANSPOSE_TENSOR_SCALAR_ARITH_OP",
        "TENSOR_SCALAR_CACHE_REDUCE",
        "TENSOR_SCALAR_CACHE_CUMULATIVE",
        "EXPONENTIAL",
    )
]
S4D4_TSM = [
    OP + n
    for n in (
        "TENSOR_SCALAR_PTR_MULTI_ARITH",
        "TENSOR_SCALAR_PTR_MULTI_BITVEC",
        "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH",
        "TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC",
    )
]


@cache
def raw(gen: str) -> str:
    return (tpb_dir(gen) / "instruction_mapping.json").read_text()


@cache
def mapping(gen: str) -> dict:
    return json.loads(raw(gen))


@cache
def opcode_enum(gen: str) -> frozenset[str]:
    text = (tpb_dir(gen) / "aws_neuron_isa_tpb_common.h").read_text()
    body = re.search(
        r"typedef enum NEURON_ISA_TPB_OPCODE \{\n(.*?)\n\} NEURON_ISA_PACKED", text, re.S
    )
    assert body
    return frozenset(re.findall(r"^\s+(NEURON_ISA_TPB_OPCODE_\w+) = ", body.group(1), re.M))


def all_names(gen: str) -> set[str]:
    m = mapping(gen)
    return {n for part in m.values() for lst in part.values() for n in lst}


@pytest.mark.smoke
@pytest.mark.parametrize("gen", GENERATIONS)
def test_shape(gen: str) -> None:
    m = mapping(gen)
    assert set(m) == {"struct2opcode", "struct2pseudo_opcode"}
    assert raw(gen) == json.dumps(m, indent=4) + "\n", "4-space indent"
    for part in m.values():
        for key, lst in part.items():
            assert re.fullmatch(r"NEURON_ISA_TPB_\w+_STRUCT", key), key
            assert lst and all(n.startswith(OP) for n in lst), key
            assert len(set(lst)) == len(lst), key
    assert len(m["struct2pseudo_opcode"]) == 2
    assert m["struct2pseudo_opcode"]["NEURON_ISA_TPB_PSEUDO_MEM_2D_STRUCT"] == [
        OP + "PSEUDO_TENSOR_LOAD",
        OP + "PSEUDO_TENSOR_STORE",
    ]


@pytest.mark.parametrize("gen", GENERATIONS)
def test_stale_names_exactly_as_documented(gen: str) -> None:
    missing = all_names(gen) - opcode_enum(gen)
    assert missing == STALE[gen]
    assert DMA_BARRIER_STALE not in opcode_enum(gen)
    assert OP + "PSEUDO_DMABARRIER" in opcode_enum(gen)


@pytest.mark.parametrize("gen", GENERATIONS)
def test_documented_bindings(gen: str) -> None:
    s2o = mapping(gen)["struct2opcode"]
    n_ts = 8 if gen in ("mariana", "maverick") else 7
    assert s2o["NEURON_ISA_TPB_S3D3_TS_STRUCT"] == S3D3_TS[:n_ts]
    assert s2o["NEURON_ISA_TPB_S4D4_TSM_STRUCT"] == S4D4_TSM
    assert s2o["NEURON_ISA_TPB_S2_BN_STRUCT"] == [
        OP + n
        for n in (
            "BATCH_NORM_PARAM_LOAD",
            "MATCH_VALUE_LOAD",
            "TENSOR_SCALAR_IMM_LD_ARITH",
            "TENSOR_SCALAR_IMM_LD_BITVEC",
        )
    ]
    assert s2o["NEURON_ISA_TPB_S3D3_TS_SELECT_STRUCT"] == [OP + "TENSOR_SCALAR_SELECT"]
    assert s2o["NEURON_ISA_TPB_S2D2_TS_AS_STRUCT"] == [OP + "TENSOR_SCALAR_AFFINE_SELECT"]
    assert s2o["NEURON_ISA_TPB_S2S2D2_STT_STRUCT"] == [
        OP + n
        for n in (
            "SCALAR_TENSOR_TENSOR_ARITH",
            "SCALAR_TENSOR_TENSOR_BITVEC",
            "TENSOR_TENSOR_SCAN_ARITH",
            "SELECT_REDUCE",
        )
    ]
    assert ("NEURON_ISA_TPB_S2D2D2_TS_WIDE_STRUCT" in s2o) == (gen == "maverick")
    for key in (
        "NEURON_ISA_TPB_CUSTOM_OP_HEADER_STRUCT",
        "NEURON_ISA_TPB_CUSTOM_OP_PAYLOAD_STRUCT",
    ):
        assert (key in s2o) == (gen == "sunda")
    bf16 = {
        OP + "TENSOR_TENSOR_ADD_BF16",
        OP + "TENSOR_TENSOR_MULT_BF16",
        OP + "TENSOR_TENSOR_SUB_BF16",
    }
    assert (bf16 <= set(s2o["NEURON_ISA_TPB_S3S3D3_TT_STRUCT"])) == (gen == "sunda")
    assert any(DMA_BARRIER_STALE in lst for lst in s2o.values())


def test_no_opcode_bound_to_two_structs() -> None:
    for gen in GENERATIONS:
        seen: dict[str, str] = {}
        for part in mapping(gen).values():
            for key, lst in part.items():
                for n in lst:
                    assert n not in seen, (gen, n, key, seen.get(n))
                    seen[n] = key


def test_keys_only_grow_except_custom_op() -> None:
    prev: set[str] = set()
    for gen in GENERATIONS:
        cur = set(mapping(gen)["struct2opcode"])
        removed = prev - cur
        assert removed <= {
            "NEURON_ISA_TPB_CUSTOM_OP_HEADER_STRUCT",
            "NEURON_ISA_TPB_CUSTOM_OP_PAYLOAD_STRUCT",
        }
        prev = cur
