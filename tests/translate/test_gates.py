"""Opcode gates computed from validator bodies (translate/gates.py), held to gcc: for every opcode
byte, the C validator accepts some word with that opcode exactly when the byte is in the gate
(sound: never leaves an accepting opcode out; exact for these shapes)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from support import cpredicates
from tpbgen.frontend.ingest import ingest_root
from tpbgen.translate.gates import opcode_gate
from tpbgen.translate.validators import translate

COMMON = """\
/*
 * Synthetic header for gate tests.
 * ISA header for NC-v9.
 */
#ifndef G_COMMON_H
#define G_COMMON_H
#include <stdint.h>
#include <stdbool.h>
#define NEURON_ISA_PACKED __attribute__((__packed__))
typedef enum NEURON_ISA_TPB_OPCODE {
    NEURON_ISA_TPB_OPCODE_A = 0x10, // Y
    NEURON_ISA_TPB_OPCODE_B = 0x11, // Y
    NEURON_ISA_TPB_OPCODE_C = 0x20, // Y
    NEURON_ISA_TPB_OPCODE_D = 0x21, // Y
    NEURON_ISA_TPB_OPCODE_INVALID = 0xff,
} NEURON_ISA_PACKED NEURON_ISA_TPB_OPCODE;
typedef struct NEURON_ISA_TPB_HEADER { NEURON_ISA_TPB_OPCODE opcode; uint8_t len; uint8_t pad[2]; } NEURON_ISA_PACKED NEURON_ISA_TPB_HEADER;
typedef struct NEURON_ISA_TPB_WORD {
    NEURON_ISA_TPB_HEADER header;
    uint8_t a;
    uint8_t b;
    uint8_t rest[58];
} NEURON_ISA_TPB_WORD;
typedef union NEURON_ISA_TPB_INST_UNION { NEURON_ISA_TPB_WORD w; uint8_t raw[64]; } NEURON_ISA_TPB_INST_UNION;
_Static_assert(sizeof(NEURON_ISA_TPB_INST_UNION) == 64, "64");
#endif
"""

ASSERT = """\
#ifndef G_ASSERT_H
#define G_ASSERT_H
#include "aws_neuron_isa_tpb_common.h"
#define STATIC static
STATIC inline bool plain(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.w.header.opcode == NEURON_ISA_TPB_OPCODE_A || i.w.header.opcode == NEURON_ISA_TPB_OPCODE_B) && i.w.a < 200 );
}
STATIC inline bool early(NEURON_ISA_TPB_INST_UNION i) {
    if (i.w.header.opcode != NEURON_ISA_TPB_OPCODE_C) { return false; }
    if (i.w.a > 100) return false;
    return true;
}
STATIC inline bool switched(NEURON_ISA_TPB_INST_UNION i) {
    switch (i.w.header.opcode) {
    case NEURON_ISA_TPB_OPCODE_A:
        return i.w.a != 0;
    case NEURON_ISA_TPB_OPCODE_D:
        break;
    default:
        return false;
    }
    return i.w.b > 3;
}
STATIC inline bool op_is(NEURON_ISA_TPB_HEADER h, uint8_t want) { return h.opcode == want; }
STATIC inline bool through_header(NEURON_ISA_TPB_INST_UNION i) { return( op_is(i.w.header, 0x20) || op_is(i.w.header, 0x21) ) && i.w.b != 7; }
STATIC inline bool accumulated(NEURON_ISA_TPB_INST_UNION i) {
    bool ok = true;
    int n = 0;
    for (int k = 0; k < 4; k++) { if (i.w.rest[k] > 250) { n++; } }
    ok = ok && n < 4;
    ok = ok && (i.w.header.opcode & 0xF0) == 0x10;
    return ok;
}
STATIC inline bool per_a(NEURON_ISA_TPB_INST_UNION i) { return i.w.a > 1; }
STATIC inline bool per_d(NEURON_ISA_TPB_INST_UNION i) { return i.w.b > 1; }
STATIC inline bool dispatcher(NEURON_ISA_TPB_INST_UNION i) {
    uint8_t op = i.w.header.opcode;
    if (op == NEURON_ISA_TPB_OPCODE_A) return per_a(i);
    if (op == NEURON_ISA_TPB_OPCODE_D) return per_d(i);
    return false;
}
STATIC inline bool arithmetic(NEURON_ISA_TPB_INST_UNION i) { return ((i.w.header.opcode >> 4) * 3 + 1) % 7 == 0 && i.w.a != 5; }
STATIC inline bool any_opcode(NEURON_ISA_TPB_INST_UNION i) { return i.w.a == i.w.b; }
STATIC inline bool never(NEURON_ISA_TPB_INST_UNION i) { return i.w.header.opcode == 0x10 && i.w.header.opcode == 0x11; }
#endif
"""

NAMES = (
    "plain",
    "early",
    "switched",
    "through_header",
    "accumulated",
    "dispatcher",
    "arithmetic",
    "any_opcode",
    "never",
)
EXPECTED = {
    "plain": {0x10, 0x11},
    "early": {0x20},
    "switched": {0x10, 0x21},
    "through_header": {0x20, 0x21},
    "accumulated": set(range(0x10, 0x20)),
    "dispatcher": {0x10, 0x21},
    "arithmetic": {v for v in range(256) if ((v >> 4) * 3 + 1) % 7 == 0},
    "any_opcode": set(range(256)),
    "never": set(),
}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gdrop")
    tpb = root / "neuron_synth_arch_isa" / "tpb"
    tpb.mkdir(parents=True)
    (tpb / "aws_neuron_isa_tpb_common.h").write_text(COMMON)
    (tpb / "aws_neuron_isa_tpb_assert.h").write_text(ASSERT)
    (tpb / "instruction_mapping.json").write_text(
        json.dumps({"struct2opcode": {}, "struct2pseudo_opcode": {}})
    )
    return root


def test_gates_equal_what_gcc_accepts(tree: Path, cc: str, tmp_path: Path) -> None:
    gen = ingest_root(tree, use_cache=False)[0].gen
    tr = translate(gen)
    by_name = {f.name: f for f in tr.lowered}
    c = cpredicates.build(cc, tree / "neuron_synth_arch_isa" / "tpb", NAMES, tmp_path, opt="-O0")
    rng = np.random.default_rng(3)
    words = rng.integers(0, 256, size=(256 * 64, 64), dtype=np.uint8)
    words[:, 0] = np.repeat(np.arange(256, dtype=np.uint8), 64)  # 64 words per opcode byte
    words[::4, 4:6] = rng.integers(0, 8, size=(len(words[::4]), 2))  # small a, b too
    words[1::4, 5] = words[1::4, 4]  # a == b
    for name in NAMES:
        gate = opcode_gate(by_name[name], by_name)
        accepted = set(np.unique(words[c.run(name, words), 0]).tolist())
        assert accepted <= gate, (
            f"{name}: gcc accepts opcodes outside the gate: {sorted(accepted - gate)}"
        )
        assert gate == EXPECTED[name], f"{name}: gate {sorted(gate)}"
        assert accepted == gate, (
            f"{name}: the gate has opcodes gcc never accepted: {sorted(gate - accepted)}"
        )
    tops = {t.name: t.opcodes for t in tr.top}
    assert (
        tops["dispatcher"] == (0x10, 0x21) and "per_a" not in tops
    )  # per_a is called: not top-level
    messages = [w.message for w in tr.warnings]
    assert any("never can never return true" in m for m in messages), messages
