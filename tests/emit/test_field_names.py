"""Field names that once broke the struct code: the write code used to be a template string with
a `VALUE` placeholder, so a field named `VALUE_PAIR` (or `VALUE`) came out corrupted. Reads and
writes are now the runtime's, driven by each class's LAYOUT, and these names are ordinary."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tpbgen.cli import main

HEADER = """/*
 * toy
 * ISA header for NC-v9.
 */
#include <stdint.h>
typedef enum NEURON_ISA_TPB_OPCODE { NEURON_ISA_TPB_OPCODE_A = 1, } __attribute__((__packed__)) NEURON_ISA_TPB_OPCODE;
typedef struct NEURON_ISA_TPB_PAIR { uint16_t VALUE; uint16_t other; } NEURON_ISA_TPB_PAIR;
typedef union NEURON_ISA_TPB_ARMS { uint32_t VALUE_PAIR; uint8_t VALUE[4]; } NEURON_ISA_TPB_ARMS;
typedef struct NEURON_ISA_TPB_TOY_STRUCT {
    NEURON_ISA_TPB_OPCODE opcode;
    uint8_t VALUE;
    uint16_t VALUE_PAIR;
    NEURON_ISA_TPB_PAIR VALUES[2];
    NEURON_ISA_TPB_ARMS arms;
    uint32_t VALUE_BITS : 12;
    uint32_t VALUE_REST : 20;
} NEURON_ISA_TPB_TOY_STRUCT;
_Static_assert(sizeof(NEURON_ISA_TPB_TOY_STRUCT) == 20, "20");
"""

PROBE = """
import sys
sys.path.insert(0, {out!r})
from tpb_isa.toy import structs as S
t = S.TOY(VALUE=7, VALUE_PAIR=0x1234, VALUES=(S.Pair(1, 2), S.Pair(VALUE=3, other=4)),
          arms=S.Arms.of_VALUE_PAIR(0xA1B2C3D4), VALUE_BITS=0xABC, VALUE_REST=0x12345)
raw = t.to_bytes()
assert raw[1] == 7 and raw[2:4] == bytes([0x34, 0x12]), raw.hex()
assert raw[4:6] == bytes([1, 0]) and raw[10:12] == bytes([4, 0]), raw.hex()
assert raw[12:16] == bytes([0xD4, 0xC3, 0xB2, 0xA1]), raw.hex()
assert int.from_bytes(raw[16:20], "little") == 0xABC | (0x12345 << 12), raw.hex()
back = S.TOY.from_bytes(raw)
assert back == t and back.VALUE_PAIR == 0x1234 and back.VALUES[1].VALUE == 3
assert back.arms.VALUE_PAIR == 0xA1B2C3D4 and back.arms.VALUE == (0xD4, 0xC3, 0xB2, 0xA1)
print("ok")
"""


def test_fields_named_value_round_trip(tmp_path: Path) -> None:
    tpb = tmp_path / "drop" / "neuron_toy_arch_isa" / "tpb"
    tpb.mkdir(parents=True)
    (tpb / "aws_neuron_isa_tpb_common.h").write_text(HEADER)
    (tpb / "instruction_mapping.json").write_text(
        '{"struct2opcode": {"NEURON_ISA_TPB_TOY_STRUCT": ["NEURON_ISA_TPB_OPCODE_A"]}, "struct2pseudo_opcode": {}}'
    )
    out = tmp_path / "gen"
    assert (
        main(["generate", "--headers", str(tmp_path / "drop"), "--out", str(out), "--no-cache"])
        == 0
    )
    run = subprocess.run(
        [sys.executable, "-c", PROBE.format(out=str(out))], capture_output=True, text=True
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr
