"""The translator keeps C's semantics: tricky C predicates, compiled by gcc and translated by
tpbgen, agree bit for bit on random words, on the scalar path and the numpy path.

The header is synthetic on purpose: it exercises constructs the vendored drop uses little or not
at all (signed/unsigned comparisons, wrap-around, truncating division, shifts of negative
values, switch fall-through labels, loops with locals, const tables, bitfields, floats, NaN).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from support import cpredicates
from tpbgen.frontend.ingest import ingest_root
from tpbgen.translate.to_numpy import NpEmitter
from tpbgen.translate.validators import member_sets_code, translate

from . import runtime_import  # noqa: F401  (puts generated/ on sys.path)

COMMON = """\
/*
 * Synthetic header for translator tests.
 * ISA header for NC-v9.
 */
#ifndef T_COMMON_H
#define T_COMMON_H
#include <stdint.h>
#include <stdbool.h>
#define NEURON_ISA_PACKED __attribute__((__packed__))
typedef enum NEURON_ISA_TPB_OPCODE {
    NEURON_ISA_TPB_OPCODE_A = 0x10, // Y
    NEURON_ISA_TPB_OPCODE_INVALID = 0xff,
} NEURON_ISA_PACKED NEURON_ISA_TPB_OPCODE;
typedef enum NEURON_ISA_TPB_KIND { NEURON_ISA_TPB_KIND_X = 1, NEURON_ISA_TPB_KIND_Y = 2, NEURON_ISA_TPB_KIND_Z = 7, } NEURON_ISA_PACKED NEURON_ISA_TPB_KIND;
static const uint32_t NEURON_ISA_TPB_LIMIT = 100U;
static const int32_t NEURON_ISA_TPB_NEG = -3;
static const uint8_t NEURON_ISA_TPB_TABLE[8] = { 1, 2, 4, 8, 16, 32, 64, 128 };
static const int16_t NEURON_ISA_TPB_GRID[2][3] = { { -1, 2, -3 }, { 4, -5 } };
typedef struct NEURON_ISA_TPB_BITS { uint8_t lo : 3; uint8_t mid : 4; uint8_t hi : 1; } NEURON_ISA_PACKED NEURON_ISA_TPB_BITS;
typedef struct NEURON_ISA_TPB_PAIR { int16_t s; uint16_t u; } NEURON_ISA_TPB_PAIR;
typedef struct NEURON_ISA_TPB_WIDEBITS { uint32_t lo : 5; uint32_t wide : 24; uint32_t top : 3; int32_t sgn : 20; int32_t rest : 12; } NEURON_ISA_PACKED NEURON_ISA_TPB_WIDEBITS;
typedef struct NEURON_ISA_TPB_WORD {
    NEURON_ISA_TPB_OPCODE opcode;
    NEURON_ISA_TPB_KIND kind;
    uint8_t a;
    int8_t b;
    NEURON_ISA_TPB_BITS bits;
    uint8_t pad[3];
    NEURON_ISA_TPB_PAIR pairs[4];
    uint32_t u32;
    int32_t i32;
    float f;
    NEURON_ISA_TPB_WIDEBITS wb;
    uint8_t rest[16];
} NEURON_ISA_TPB_WORD;
typedef union NEURON_ISA_TPB_INST_UNION { NEURON_ISA_TPB_WORD w; uint8_t raw[64]; } NEURON_ISA_TPB_INST_UNION;
_Static_assert(sizeof(NEURON_ISA_TPB_INST_UNION) == 64, "64");
#endif
"""

ASSERT = """\
#ifndef T_ASSERT_H
#define T_ASSERT_H
#include "aws_neuron_isa_tpb_common.h"
#ifndef STATIC
#define STATIC static
#endif
STATIC inline bool signed_vs_unsigned(NEURON_ISA_TPB_INST_UNION i) { return( (int32_t)i.w.b < (uint32_t)i.w.a ); }
STATIC inline bool wraps(NEURON_ISA_TPB_INST_UNION i) { return( (uint8_t)(i.w.a + 200) > 100 && (uint32_t)(i.w.u32 * 3U + 7U) < 0x80000000U ); }
STATIC inline bool divides(NEURON_ISA_TPB_INST_UNION i) {
    int32_t x = (int32_t)i.w.a - 100;
    int32_t y = (i.w.b == 0) ? 7 : (int32_t)i.w.b;
    return( (x / y) * y + (x % y) == x && (x / y) != NEURON_ISA_TPB_NEG && (i.w.u32 % 10U) < 5U );
}
STATIC inline bool shifts(NEURON_ISA_TPB_INST_UNION i) { return( ((i.w.a << 3) >> 2) > 40 && (i.w.b >> 1) < -5 ); }
STATIC inline bool inverts(NEURON_ISA_TPB_INST_UNION i) { return( (~i.w.a & 0xFF) == (uint8_t)i.w.b || -(uint32_t)i.w.a > 5U || !i.w.pad[0] ); }
STATIC inline uint32_t weight(uint8_t k) {
    switch (k) {
    case NEURON_ISA_TPB_KIND_X:
    case NEURON_ISA_TPB_KIND_Y:
        return 10U;
    case NEURON_ISA_TPB_KIND_Z:
        return 70U;
    default:
        return 0U;
    }
}
STATIC inline bool switches(NEURON_ISA_TPB_INST_UNION i) { return( weight(i.w.kind) + i.w.a > NEURON_ISA_TPB_LIMIT ); }
STATIC inline int32_t pair_sum(NEURON_ISA_TPB_PAIR p) { return( p.s + (int32_t)p.u ); }
STATIC inline bool loops(NEURON_ISA_TPB_INST_UNION i) {
    int32_t total = 0;
    uint32_t count = 0U;
    for (int k = 0; k < 4; k++) {
        if (i.w.pairs[k].s < 0) {
            continue;
        }
        total += pair_sum(i.w.pairs[k]);
        count++;
    }
    if (count == 0U) {
        return false;
    }
    return( total > 1000 && count >= 2U );
}
STATIC inline bool tables(NEURON_ISA_TPB_INST_UNION i) {
    uint8_t k = i.w.a & 7;
    return( NEURON_ISA_TPB_TABLE[k] > 8 && NEURON_ISA_TPB_GRID[i.w.a & 1][k % 3] < 0 && NEURON_ISA_TPB_TABLE[3] == 8 );
}
STATIC inline bool wide_bitfields(NEURON_ISA_TPB_INST_UNION i) { return( i.w.wb.wide > 0x800000U && i.w.wb.top != 5U && i.w.wb.sgn < -1000 ); }
STATIC inline bool bitfields(NEURON_ISA_TPB_INST_UNION i) { return( i.w.bits.lo == 5 || (i.w.bits.mid > 9 && i.w.bits.hi) ); }
STATIC inline bool floats(NEURON_ISA_TPB_INST_UNION i) { return( (i.w.f == 0.0f || i.w.f > 1.5f) && !(i.w.f != i.w.f) ); }
STATIC inline bool wide(NEURON_ISA_TPB_INST_UNION i) { return( (int64_t)i.w.i32 * (int64_t)i.w.i32 > 1000000000000000000LL && (uint64_t)i.w.u32 << 32 > 0x8000000000000000ULL ); }
STATIC inline bool casts(NEURON_ISA_TPB_INST_UNION i) { return( (bool)(i.w.a & 4) != (bool)(i.w.b & 8) && (int16_t)(i.w.u32 >> 8) < 0 ); }
STATIC inline bool fdivides(NEURON_ISA_TPB_INST_UNION i) {
    float q = i.w.f / (float)(i.w.a & 3U);
    return( (q > 1.5f) || (q != q) || (1.0f / i.w.f < -0.5f) || (i.w.f * 1e38f == 1e39f) );
}
STATIC inline bool chars(NEURON_ISA_TPB_INST_UNION i) { return( (i.w.b == '\\377') || ((int32_t)i.w.a + '\\200' > 0) || (i.w.b < '\\x90') ); }
STATIC inline bool once(NEURON_ISA_TPB_INST_UNION i) {
    int32_t r = 0;
    do {
        (void)r;
        if (i.w.a < 64U) break;
        r = 1;
        if (i.w.b < 0) continue;
        r = 2;
    } while (0);
    return( r == 1 || (r == 0 && (i.w.b & 1)) );
}
#endif
"""

NAMES = (
    "signed_vs_unsigned",
    "wraps",
    "divides",
    "shifts",
    "inverts",
    "switches",
    "loops",
    "tables",
    "bitfields",
    "wide_bitfields",
    "floats",
    "wide",
    "casts",
    "fdivides",
    "chars",
    "once",
)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tdrop")
    tpb = root / "neuron_synth_arch_isa" / "tpb"
    tpb.mkdir(parents=True)
    (tpb / "aws_neuron_isa_tpb_common.h").write_text(COMMON)
    (tpb / "aws_neuron_isa_tpb_assert.h").write_text(ASSERT)
    (tpb / "instruction_mapping.json").write_text(
        json.dumps({"struct2opcode": {}, "struct2pseudo_opcode": {}})
    )
    return root


def _scalar_namespace(code: str) -> dict[str, Any]:
    from tpb_isa._runtime import codec
    from tpbgen.translate.validators import VALIDATOR_HELPERS

    ns: dict[str, Any] = {alias: getattr(codec, name) for name, alias in VALIDATOR_HELPERS}
    exec(code, ns)
    return ns


def _vector_namespace(code: str) -> dict[str, Any]:
    from tpb_isa._runtime import vector
    from tpbgen.translate.validators import BATCH_HELPERS

    ns: dict[str, Any] = {
        "np": np,
        "Any": Any,
        "_ALL": True,
        **{f"_{n}": getattr(vector, n) for n in BATCH_HELPERS},
    }
    exec(code, ns)
    return ns


def test_tricky_c_agrees(tree: Path, cc: str, tmp_path: Path) -> None:
    gen = ingest_root(tree, use_cache=False)[0].gen
    table = next(c for c in gen.constants if c.name == "NEURON_ISA_TPB_GRID")
    assert table.dims == (2, 3) and table.value == (-1, 2, -3, 4, -5, 0)
    tr = translate(gen)
    consts = "\n".join(f"{n} = {v!r}" for n, v in tr.consts)
    sets = member_sets_code(tr)  # the frozensets its membership tests read
    scalar = _scalar_namespace(consts + "\n" + sets + "\n\n".join(f.code for f in tr.functions))
    em = NpEmitter()
    vector = _vector_namespace(
        consts + "\n" + "\n\n".join("\n".join(em.function(lf)) for lf in tr.lowered)
    )
    c = cpredicates.build(cc, tree / "neuron_synth_arch_isa" / "tpb", NAMES, tmp_path, opt="-O0")
    rng = np.random.default_rng(7)
    words = rng.integers(0, 256, size=(20_000, 64), dtype=np.uint8)
    words[:2000, 8:24] = 0  # some all-zero pair arrays, for the loop's count == 0 path
    floats = (
        np.array([0.0, -0.0, 1.0, 1.5, 2.0, np.inf, -np.inf, np.nan], dtype=np.float32)
        .view(np.uint8)
        .reshape(-1, 4)
    )
    words[2000:4000, 32:36] = floats[rng.integers(0, len(floats), size=2000)]
    for name in NAMES:
        want = c.run(name, words)
        got_s = np.array([scalar[f"_{name}"](bytes(w), 0) for w in words], dtype=bool)
        with np.errstate(
            over="ignore", divide="ignore", invalid="ignore"
        ):  # IEEE results, as in C (vector.ieee)
            got_v = np.broadcast_to(
                np.asarray(vector[f"_v_{name}"](words, 0), dtype=bool), (len(words),)
            )
        assert (got_s == want).all(), (
            f"{name}: scalar differs from C on {int((got_s != want).sum())} words"
        )
        assert (got_v == want).all(), (
            f"{name}: numpy differs from C on {int((got_v != want).sum())} words"
        )
        assert 0 < want.sum() < len(words), f"{name}: not discriminating"
