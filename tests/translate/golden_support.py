"""What the golden translator corpus (tests/translate/golden/) shares: the common header every
case's input.h includes, the header tree a case is ingested from, the text the golden files hold,
the namespaces that run it, and the words a case is held to gcc on.

A case is a folder golden/<construct>/ with input.h (its predicates; it includes
"aws_neuron_isa_tpb_common.h", the COMMON text below), expected.py and expected_numpy.py (what
the scalar and the numpy back ends emit for it) and, for a known translator bug, XFAIL (the
reason; the case's differential test is then a strict xfail).
"""

from __future__ import annotations

import json
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tpb_paths import REPO
from tpbgen.checks.corpus import constants, edge_values, elements, fields_read, place
from tpbgen.frontend.ingest import ingest_root
from tpbgen.translate.lir import LFunction
from tpbgen.translate.to_numpy import NpEmitter
from tpbgen.translate.validators import (
    BATCH_HELPERS,
    INST_UNION,
    VALIDATOR_HELPERS,
    member_sets_code,
    translate,
)

GOLDEN = Path(__file__).parent / "golden"
UPDATE_ENV = "TPBGEN_UPDATE_GOLDEN"

# The layout every case reads (offsets in the comments; the static asserts hold gcc to them).
COMMON = """\
/*
 * Shared header of the golden translator corpus (tests/translate/golden/).
 * ISA header for NC-v9.
 */
#ifndef GOLDEN_COMMON_H
#define GOLDEN_COMMON_H
#include <stdint.h>
#include <stdbool.h>
#define NEURON_ISA_PACKED __attribute__((__packed__))
typedef enum NEURON_ISA_TPB_OPCODE {
    NEURON_ISA_TPB_OPCODE_A = 0x10, // Y
    NEURON_ISA_TPB_OPCODE_INVALID = 0xff,
} NEURON_ISA_PACKED NEURON_ISA_TPB_OPCODE;
typedef enum NEURON_ISA_TPB_KIND {
    NEURON_ISA_TPB_KIND_X = 1,
    NEURON_ISA_TPB_KIND_Y = 2,
    NEURON_ISA_TPB_KIND_Z = 7,
} NEURON_ISA_PACKED NEURON_ISA_TPB_KIND;
typedef enum NEURON_ISA_TPB_SIGN {
    NEURON_ISA_TPB_SIGN_NEG = -2,
    NEURON_ISA_TPB_SIGN_ZERO = 0,
    NEURON_ISA_TPB_SIGN_POS = 3,
} NEURON_ISA_PACKED NEURON_ISA_TPB_SIGN;
static const uint32_t NEURON_ISA_TPB_LIMIT = 100U;
static const int32_t NEURON_ISA_TPB_NEG = -3;
static const uint8_t NEURON_ISA_TPB_TABLE[8] = { 1, 2, 4, 8, 16, 32, 64, 128 };
static const int16_t NEURON_ISA_TPB_GRID[2][3] = { { -1, 2, -3 }, { 4, -5 } };
typedef struct NEURON_ISA_TPB_BITS { uint8_t lo : 3; uint8_t mid : 4; uint8_t hi : 1; } NEURON_ISA_PACKED NEURON_ISA_TPB_BITS;
typedef struct NEURON_ISA_TPB_SBITS { int16_t s5 : 5; uint16_t u7 : 7; int16_t s4 : 4; } NEURON_ISA_PACKED NEURON_ISA_TPB_SBITS;
typedef struct NEURON_ISA_TPB_PAIR { int16_t s; uint16_t u; } NEURON_ISA_TPB_PAIR;
typedef struct NEURON_ISA_TPB_INNER { NEURON_ISA_TPB_PAIR p; uint8_t tag; uint8_t v[3]; } NEURON_ISA_TPB_INNER;
typedef struct NEURON_ISA_TPB_WORD {
    NEURON_ISA_TPB_OPCODE opcode;   /* 0 */
    NEURON_ISA_TPB_KIND kind;       /* 1 */
    uint8_t a;                      /* 2 */
    int8_t b;                       /* 3 */
    NEURON_ISA_TPB_BITS bits;       /* 4 */
    NEURON_ISA_TPB_SIGN sign;       /* 5 */
    NEURON_ISA_TPB_SBITS sbits;     /* 6..7 */
    NEURON_ISA_TPB_PAIR pairs[4];   /* 8..23 */
    uint32_t u32;                   /* 24 */
    int32_t i32;                    /* 28 */
    float f;                        /* 32 */
    uint16_t u16;                   /* 36 */
    int16_t i16;                    /* 38 */
    double d;                       /* 40 */
    NEURON_ISA_TPB_INNER inner;     /* 48..55 */
    uint8_t m[2][4];                /* 56..63 */
} NEURON_ISA_TPB_WORD;
typedef struct NEURON_ISA_TPB_WIDE {
    uint8_t head[8];                /* 0..7 */
    uint64_t u64;                   /* 8 */
    int64_t i64;                    /* 16 */
    uint8_t rest[40];               /* 24..63 */
} NEURON_ISA_TPB_WIDE;
typedef union NEURON_ISA_TPB_INST_UNION { NEURON_ISA_TPB_WORD w; NEURON_ISA_TPB_WIDE x; uint8_t raw[64]; } NEURON_ISA_TPB_INST_UNION;
_Static_assert(sizeof(NEURON_ISA_TPB_WORD) == 64, "64");
_Static_assert(sizeof(NEURON_ISA_TPB_WIDE) == 64, "64");
_Static_assert(sizeof(NEURON_ISA_TPB_INST_UNION) == 64, "64");
#endif
"""

SCALAR_BANNER = (
    "# What tpbgen's scalar back end (translate/to_python.py) emits for input.h: the constants the\n"
    "# code names, then one function per C function. Checked byte for byte by\n"
    "# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.\n"
)
NUMPY_BANNER = (
    "# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the\n"
    "# code names, then one batch function per C function. Checked byte for byte by\n"
    "# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.\n"
)


def case_dirs() -> list[Path]:
    return sorted(p for p in GOLDEN.iterdir() if (p / "input.h").is_file())


def xfail_reason(case: Path) -> str | None:
    f = case / "XFAIL"
    return f.read_text().strip() if f.is_file() else None


def write_tree(case: Path, root: Path) -> Path:
    """A one-generation header drop under `root` whose assert.h is the case's input.h; its tpb dir."""
    tpb = root / "neuron_golden_arch_isa" / "tpb"
    tpb.mkdir(parents=True, exist_ok=True)
    (tpb / "aws_neuron_isa_tpb_common.h").write_text(COMMON)
    (tpb / "aws_neuron_isa_tpb_assert.h").write_text((case / "input.h").read_text())
    (tpb / "instruction_mapping.json").write_text(
        json.dumps({"struct2opcode": {}, "struct2pseudo_opcode": {}})
    )
    return tpb


@dataclass(frozen=True)
class Translated:
    tpb: Path  # the header tree's tpb dir (gcc's include dir)
    scalar: str  # expected.py's text
    numpy: str  # expected_numpy.py's text
    lowered: tuple[LFunction, ...]
    predicates: tuple[str, ...]  # the functions that take one instruction word and answer a bool


def translate_case(case: Path, root: Path) -> Translated:
    tpb = write_tree(case, root)
    tr = translate(ingest_root(root, use_cache=False)[0].gen)
    consts = "".join(f"{n} = {v!r}\n" for n, v in tr.consts)
    em = NpEmitter()
    sets = member_sets_code(
        tr
    )  # one emitter for the whole module, as translate/validators.py has it
    batch = ["\n".join(em.function(lf)) for lf in tr.lowered]
    scalar = _module(SCALAR_BANNER, consts + sets, [f.code for f in tr.functions])
    vector = _module(NUMPY_BANNER, consts, batch)
    predicates = tuple(
        lf.name
        for lf in tr.lowered
        if lf.returns.kind == "bool" and len(lf.params) == 1 and lf.params[0].struct == INST_UNION
    )
    return Translated(tpb, scalar, vector, tr.lowered, predicates)


def _module(banner: str, consts: str, functions: list[str]) -> str:
    """The banner, the constants, then the functions two blank lines apart (as in a module)."""
    head = banner + ("\n" + consts if consts else "")
    return head + "\n\n" + "\n\n\n".join(functions) + "\n"


def scalar_namespace(text: str) -> dict[str, Any]:
    """Run expected.py's text with the helpers the generated validators module gives it."""
    _runtime_on_path()
    from tpb_isa._runtime import codec

    ns: dict[str, Any] = {alias: getattr(codec, name) for name, alias in VALIDATOR_HELPERS}
    exec(text, ns)
    return ns


def vector_namespace(text: str) -> dict[str, Any]:
    """Run expected_numpy.py's text with the helpers the generated batch module gives it."""
    _runtime_on_path()
    from tpb_isa._runtime import vector

    ns: dict[str, Any] = {
        "np": np,
        "Any": Any,
        "_ALL": True,
        **{f"_{n}": getattr(vector, n) for n in BATCH_HELPERS},
    }
    exec(text, ns)
    return ns


def vector_batch(fn: Any, words: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """A translated predicate run as validate_batch runs it (vector.run_batch: the words as
    contiguous columns, answers memoised for the batch)."""
    _runtime_on_path()
    from tpb_isa._runtime import vector

    return np.asarray(vector.run_batch(fn, words), dtype=np.bool_)


def _runtime_on_path() -> None:
    """The committed generated package (generated/tpb_isa) holds the runtime helpers."""
    if str(REPO / "generated") not in sys.path:
        sys.path.insert(0, str(REPO / "generated"))


# -- the words a case is tested on ------------------------------------------------------------
# (the fields a case reads and their edge values: tpbgen.checks.corpus, which generate's own
# predicate proof builds its words from)
N_RANDOM = 1024
N_EDGE = 2048


def words_for(case: Path, tr: Translated) -> npt.NDArray[np.uint8]:
    """N_RANDOM random words, an all-zero and an all-ones word, and N_EDGE words whose fields read
    by the case mostly hold edge values; seeded by the case's name, so a failure repeats."""
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    fields = fields_read(tr.lowered, tr.predicates)
    ints, floats = constants(tr.lowered)
    choices = [edge_values(f, ints, floats) for f in fields]
    rand = rng.integers(0, 256, size=(N_RANDOM, 64), dtype=np.uint8)
    edge = rng.integers(0, 256, size=(N_EDGE, 64), dtype=np.uint8)
    for w in edge:
        for k in rng.permutation(len(fields)):
            f = fields[k]
            for off in elements(f):
                if rng.random() < 0.8:
                    place(w, off, f, choices[k][int(rng.integers(len(choices[k])))])
    special = np.array([[0] * 64, [0xFF] * 64], dtype=np.uint8)
    return np.concatenate([rand, special, edge])
