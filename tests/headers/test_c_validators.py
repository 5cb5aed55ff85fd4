"""The C validators of aws_neuron_isa_tpb_assert.h, compiled and called through ctypes on documented
cases: at least one case per validator term (ts-tsm-facts.md §2, founding doc §4c/§5b).

Words are built by tests/headers/tpb_words.py from the documented offsets, not by tpbgen."""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

import pytest

from tpb_paths import GENERATIONS, run_checked, tpb_dir

from . import tpb_words as w

CM = ("mariana", "maverick")  # the MEM_PATTERN3D / Exponential generations


def core_version(gen: str) -> int:
    """The generation's own NeuronCore version, as its common.h banner states it ("NC-v4"):
    what a validator that takes one (RangeSelect's `is_valid_range_select(i, nc)`, R8) is
    called with for that generation's words."""
    banner = (tpb_dir(gen) / "aws_neuron_isa_tpb_common.h").read_text()
    found = re.search(r"NC-v(\d+)", banner)
    assert found, f"{gen}: common.h states no NC-vN"
    return int(found.group(1))


#: Instruction-level validators: of the word alone, or of the word and a core version.
INST_FN = r"STATIC inline bool (\w+)\(NEURON_ISA_TPB_INST_UNION i\)"
INST_NC_FN = r"STATIC inline bool (\w+)\(NEURON_ISA_TPB_INST_UNION i, NEURON_ISA_TPB_NEURON_CORE_VERSION nc\)"


def inst_calls(gen: str, text: str) -> dict[str, str]:
    """Each instruction-level validator of `text` -> its C call on the word `u` (a core version
    argument is the generation's own)."""
    calls = {f: f"{f}(u)" for f in re.findall(INST_FN, text)}
    for f in re.findall(INST_NC_FN, text):
        calls[f] = f"{f}(u, (NEURON_ISA_TPB_NEURON_CORE_VERSION){core_version(gen)})"
    return calls


class CLib:
    """One generation's assert.h compiled into a shared object with byte-pointer wrappers."""

    def __init__(self, gen: str, workdir: Path, cc: str) -> None:
        self.gen = gen
        text = (tpb_dir(gen) / "aws_neuron_isa_tpb_assert.h").read_text()
        self.calls = inst_calls(gen, text)
        self.inst_fns = list(self.calls)
        self.nc_fns = re.findall(INST_NC_FN, text)
        self.op_fns = re.findall(r"STATIC inline bool (\w+)\(NEURON_ISA_TPB_ALU_OP op\)", text)
        enums = (tpb_dir(gen) / "aws_neuron_isa_tpb_enums.h").read_text()
        self.enum_fns = re.findall(r"STATIC inline bool is_valid_enum_(\w+)\(uint8_t v\)", enums)
        src = ["#include <string.h>", '#include "aws_neuron_isa_tpb_assert.h"']
        for f, call in self.calls.items():
            src.append(
                f"int w_{f}(const unsigned char *b) {{ NEURON_ISA_TPB_INST_UNION u; "
                f"memcpy(&u, b, 64); return {call} ? 1 : 0; }}"
            )
        for f in self.nc_fns:  # the same, for another core version than the generation's own
            src.append(
                f"int nc_{f}(const unsigned char *b, unsigned nc) {{ NEURON_ISA_TPB_INST_UNION u; "
                f"memcpy(&u, b, 64); return {f}(u, (NEURON_ISA_TPB_NEURON_CORE_VERSION)nc) ? 1 : 0; }}"
            )
        for f in self.op_fns:
            src.append(
                f"int op_{f}(unsigned v) {{ return {f}((NEURON_ISA_TPB_ALU_OP)v) ? 1 : 0; }}"
            )
        for f in self.enum_fns:
            src.append(f"int e_{f}(unsigned v) {{ return is_valid_enum_{f}((uint8_t)v) ? 1 : 0; }}")
        src += [
            "int h_addr_aligned_dtype(unsigned a, unsigned d) { "
            "return addr_aligned_dtype(a, (NEURON_ISA_TPB_DTYPE)d) ? 1 : 0; }",
            "unsigned h_type_size(unsigned d) { return type_size((NEURON_ISA_TPB_DTYPE)d); }",
            "int h_is_valid_dtype(unsigned d, unsigned allow) { return is_valid_dtype("
            "(NEURON_ISA_TPB_DTYPE)d, (NEURON_ISA_TPB_DTYPE_ALLOW_FP32R)allow) ? 1 : 0; }",
        ]
        c = workdir / f"harness_{gen}.c"
        c.write_text("\n".join(src) + "\n")
        so = workdir / f"libharness_{gen}.so"
        run_checked(
            [
                cc,
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-O1",
                "-shared",
                "-fPIC",
                "-I",
                str(tpb_dir(gen)),
                str(c),
                "-o",
                str(so),
            ]
        )
        self.lib = ctypes.CDLL(str(so))

    def has(self, name: str) -> bool:
        return name in self.inst_fns

    def __call__(self, name: str, word: bytes) -> bool:
        assert len(word) == 64
        assert name in self.inst_fns, f"{self.gen}: no {name}"
        fn = getattr(self.lib, f"w_{name}")
        fn.argtypes = [ctypes.c_char_p]
        return bool(fn(word))

    def for_core(self, name: str, word: bytes, nc: int) -> bool:
        """`name` (a validator that takes a core version) on `word` for core version `nc`."""
        assert name in self.nc_fns, f"{self.gen}: {name} takes no core version"
        fn = getattr(self.lib, f"nc_{name}")
        fn.argtypes = [ctypes.c_char_p, ctypes.c_uint]
        return bool(fn(word, nc))

    def op(self, name: str, v: int) -> bool:
        return bool(getattr(self.lib, f"op_{name}")(v))

    def enum(self, name: str, v: int) -> bool:
        return bool(getattr(self.lib, f"e_{name}")(v))

    def count(self, name: str) -> int:
        return sum(self.op(name, v) for v in range(256))


_LIBS: dict[str, CLib] = {}


@pytest.fixture
def lib(cc: str, gen: str, tmp_path_factory: pytest.TempPathFactory) -> CLib:
    if gen not in _LIBS:
        _LIBS[gen] = CLib(gen, tmp_path_factory.mktemp(f"c_{gen}"), cc)
    return _LIBS[gen]


def _only(gens: tuple[str, ...], gen: str) -> None:
    if gen not in gens:
        pytest.skip(f"not applicable on {gen}")


# ---------------------------------------------------------------- header / events / op classes


def test_header_and_events(lib: CLib) -> None:
    ok = w.s3d3_ts()
    assert lib("has_valid_neuron_header", ok)
    assert not lib("has_valid_neuron_header", w.s3d3_ts(opcode=0x80))  # a hole in every gen
    assert not lib("has_valid_neuron_header", w.s3d3_ts(inst_word_len=15))
    assert lib("has_valid_neuron_events", ok)
    assert not lib("has_valid_neuron_events", w.s3d3_ts(wait_mode=0x50))
    assert not lib("has_valid_neuron_events", w.s3d3_ts(update_mode=0x50))
    assert not lib("is_valid_tensor_scalar_op", w.s3d3_ts(inst_word_len=32))
    assert not lib("is_valid_tensor_scalar_op", w.s3d3_ts(wait_mode=0x50))


def test_dual_opcode_byte_per_gen(lib: CLib) -> None:
    word = w.s4d4_tsm(w.DUAL_ARITH, w=4)
    assert lib("has_valid_neuron_header", word) == (lib.gen == "sunda")


def test_op_class_sizes(lib: CLib) -> None:
    """Member counts from common-h-facts.md §5 / ts-tsm-facts.md §2f."""
    k = GENERATIONS.index(lib.gen)
    assert lib.count("is_bitvec_op") == 10
    assert lib.count("is_general_bitvec_op") == 9
    assert lib.count("is_general_arith_op") == (17, 17, 21, 21)[k]
    assert lib.count("is_arith_op") == (24, 26, 30, 30)[k]
    assert lib.count("is_valid_int_aluop") == (4, 26, 26, 26)[k]
    assert lib.count("is_valid_cache_reduce_op") == 5
    assert lib.count("is_valid_aluop") == (33, 60, 64, 65)[k]
    assert ("is_valid_int_aluop_dve" in lib.op_fns) == (lib.gen == "maverick")
    if lib.gen == "maverick":
        assert lib.count("is_valid_int_aluop_dve") == 15
    assert sum(lib.enum("opcode", v) for v in range(256)) == (145, 150, 159, 165)[k]
    assert sum(lib.enum("dtype", v) for v in range(256)) == (16, 16, 24, 30)[k]
    assert sum(lib.enum("tens_scalar_rev_ops", v) for v in range(256)) == 4
    assert sum(lib.enum("tensor_subdim", v) for v in range(256)) == 5


def test_dtype_helpers(lib: CLib) -> None:
    f = lib.lib.h_addr_aligned_dtype
    assert f(0x1001, w.INT8) and f(0x1001, w.FP8_EXP3)
    assert f(0x1002, w.FP16) and not f(0x1001, w.BF16)
    assert f(0x1004, w.FP32) and not f(0x1002, w.INT32)
    assert f(0x1008, w.INT64) and not f(0x1004, w.UINT64)
    assert not f(0x1000, w.INVALID)
    assert lib.lib.h_type_size(w.FP32R) == 4 and lib.lib.h_type_size(w.UINT64) == 8
    dt = lib.lib.h_is_valid_dtype
    assert dt(w.FP32, 0) and not dt(w.FP32R, 0) and dt(w.FP32R, 1)
    assert not dt(w.INVALID, 1) and not dt(w.UINT64, 1) and not dt(w.INT64, 1)
    assert not dt(0x10, 1) or lib.gen in CM  # FP4_EXP2 exists from MARIANA on
    if lib.gen == "maverick":
        assert not dt(0x10, 1) and not dt(0x13, 1)  # FP4 and scale dtypes need permission


# ---------------------------------------------------------------- TensorScalar 0x43/0x53/0x93


def test_tensor_scalar_valid_words(lib: CLib) -> None:
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts())
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(op0=w.MULT, op1=w.ADD, imm1=1.5))
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(out_dtype=w.FP32R))
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(in_dtype=w.BF16, out_dtype=w.FP16))
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(rev=w.BOTH))
    bv = w.s3d3_ts(w.TS_BITVEC, in_dtype=w.INT32, out_dtype=w.INT32, op0=w.BITWISE_AND, imm0=0xFF)
    assert lib("is_valid_tensor_scalar_op", bv)
    # the other validators reject the opcode
    assert not lib("is_valid_tensor_scalar_ptr_op", w.s3d3_ts())
    assert not lib("is_valid_tensor_scalar_cache_reduce", w.s3d3_ts())


@pytest.mark.parametrize(
    ("why", "kwargs"),
    [
        ("op0 Bypass with op1 Add (composition rule)", {"op0": w.BYPASS, "op1": w.ADD}),
        ("op0 Divide", {"op0": w.DIVIDE}),
        ("op1 Divide", {"op1": w.DIVIDE}),
        ("op0 not an AluOp", {"op0": 0x80}),
        ("bitvec op on arith opcode", {"op0": w.BITWISE_AND}),
        ("accumulator engaged", {"accum": w.ZERO_ACCUMULATE}),
        ("reserved0 non-zero", {"reserved0": (0, 1, 0)}),
        ("in_dtype FP32R", {"in_dtype": w.FP32R}),
        ("in_dtype INVALID", {"in_dtype": w.INVALID}),
        ("out_dtype UINT64", {"out_dtype": w.UINT64}),
        ("no active channel", {"n": 0}),
        ("129 channels", {"n": 129}),
        ("reverse_operands 4", {"rev": 4}),
        ("imm0_src 3", {"imm0_src": 3}),
        ("misaligned fp32 dst", {"dst_addr": 0x1002}),
        ("element counts differ", {"dst_nums": (63, 1, 1)}),
        ("src outside SBUF/PSUM", {"src_addr": 0x1F000000}),
        ("address register 64", {"src_addr": w.reg_addr(64)}),
        ("Rsqrt with a non-zero imm0", {"op0": w.RSQRT, "imm0": 1.0}),
        ("pointer imm0 not 4-byte aligned", {"imm0_src": w.PTR_IMM, "imm0": 0x102}),
        ("register imm0 out of range", {"imm0_src": w.REG_PTR_IMM, "imm0": 64}),
        ("register imm0 reserved bytes", {"imm0_src": w.REG_PTR_IMM, "imm0": 0x0100_0003}),
        ("int op on arith (no DVE int arm)", {"op0": w.ADD_INT}),
    ],
)
def test_tensor_scalar_rejects(lib: CLib, why: str, kwargs: dict[str, object]) -> None:
    if why.startswith("int op") and lib.gen == "maverick":
        pytest.skip("MAVERICK's int arm accepts this (see test_maverick_int_arm)")
    assert not lib("is_valid_tensor_scalar_op", w.s3d3_ts(**kwargs)), why  # type: ignore[arg-type]


def test_tensor_scalar_accepts_variants(lib: CLib) -> None:
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(op0=w.RSQRT, imm0=0))
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(imm0_src=w.PTR_IMM, imm0=0x100))
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(imm0_src=w.REG_PTR_IMM, imm0=63))
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(src_addr=w.reg_addr(5)))
    # a shape taken from a register skips the static element-count check
    assert lib(
        "is_valid_tensor_scalar_op",
        w.s3d3_ts(dst_nums=(63, 1, 1), dst_addr=w.marker_addr(w.MARKER_SHAPE_REG, 0x1000)),
    )
    # start partition + channels must fit in the 128 partitions
    part = w.SBUF_PARTITION_SIZE[lib.gen]
    assert not lib("is_valid_tensor_scalar_op", w.s3d3_ts(dst_addr=64 * part))
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(dst_addr=64 * part, n=64))


def test_tensor_scalar_psum(lib: CLib) -> None:
    _only(("sunda", "cayman", "mariana"), lib.gen)  # MAVERICK has no PSUM range (PSUM_BUF_SZ 0)
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(dst_addr=w.PSUM_BASE))
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(src_addr=w.PSUM_BASE, in_dtype=w.FP16))
    # writing a 2-byte dtype to PSUM is not allowed
    assert not lib("is_valid_tensor_scalar_op", w.s3d3_ts(dst_addr=w.PSUM_BASE, out_dtype=w.FP16))


def test_tensor_scalar_bitvec_rules(lib: CLib) -> None:
    def bv(**kw: object) -> bytes:
        base: dict[str, object] = {
            "in_dtype": w.INT32,
            "out_dtype": w.INT32,
            "op0": w.BITWISE_AND,
            "imm0": 0xFF,
        }
        base.update(kw)
        return w.s3d3_ts(w.TS_BITVEC, **base)  # type: ignore[arg-type]

    v = "is_valid_tensor_scalar_op"
    assert not lib(v, bv(out_dtype=w.UINT32))  # in == out
    assert not lib(v, bv(in_dtype=w.FP32, out_dtype=w.FP32))  # integer dtypes only
    assert not lib(v, bv(op0=w.ADD))  # bitvec ops only
    assert lib(v, bv(in_dtype=w.UINT8, out_dtype=w.UINT8, imm0=0xFF))
    assert not lib(v, bv(in_dtype=w.UINT8, out_dtype=w.UINT8, imm0=0x100))  # 8-bit imm
    assert lib(v, bv(in_dtype=w.UINT16, out_dtype=w.UINT16, imm0=0xFFFF))
    assert not lib(v, bv(in_dtype=w.UINT16, out_dtype=w.UINT16, imm0=0x10000))  # 16-bit imm
    assert lib(v, bv(imm0=0xFFFFFFFF))  # 32-bit dtype: any pattern
    # shift pairs: a left shift followed by a right shift needs a 4-byte dtype
    sh = {"op0": w.ASL, "op1": w.LSR, "imm0": 1, "imm1": 1}
    assert lib(v, bv(**sh))
    assert not lib(v, bv(in_dtype=w.INT16, out_dtype=w.INT16, **sh))
    assert not lib(v, bv(in_dtype=w.INT16, out_dtype=w.INT16, op0=w.LSR, op1=w.ASL, imm0=1, imm1=1))
    assert lib(v, bv(in_dtype=w.INT16, out_dtype=w.INT16, op0=w.LSL, op1=w.ASL, imm0=1, imm1=1))
    assert not lib(v, bv(in_dtype=w.INT16, out_dtype=w.INT16, op0=w.ASR, imm0=1))
    assert lib(v, bv(in_dtype=w.INT16, out_dtype=w.INT16, op0=w.LSR, imm0=1))


def test_transpose_tensor_scalar(lib: CLib) -> None:
    v = "is_valid_tensor_scalar_op"
    assert lib(v, w.s3d3_ts(w.TRANSPOSE_TS, n=32))
    assert lib(v, w.s3d3_ts(w.TRANSPOSE_TS, n=96))
    assert not lib(v, w.s3d3_ts(w.TRANSPOSE_TS, n=33))
    assert not lib(v, w.s3d3_ts(w.TRANSPOSE_TS, n=32, src_nums=(33, 1, 1), dst_nums=(33, 1, 1)))
    assert lib(v, w.s3d3_ts(n=33, src_nums=(33, 1, 1), dst_nums=(33, 1, 1)))  # plain 0x43 is fine


# ---------------------------------------------------------------- TensorScalarPtr 0x44/0x54


def test_tensor_scalar_ptr(lib: CLib) -> None:
    v = "is_valid_tensor_scalar_ptr_op"
    ok = w.s3d3_ts(w.TS_PTR_ARITH, imm0=0x100, imm1=0x200)
    assert lib(v, ok)
    assert not lib("is_valid_tensor_scalar_op", ok)
    assert not lib(v, w.s3d3_ts(w.TS_PTR_ARITH, imm0_src=w.PTR_IMM, imm0=0x100, imm1=0x200))
    assert not lib(v, w.s3d3_ts(w.TS_PTR_ARITH, imm1_src=w.PTR_IMM, imm0=0x100, imm1=0x200))
    assert not lib(v, w.s3d3_ts(w.TS_PTR_ARITH, imm0=0x101, imm1=0x200))  # 4-byte alignment
    assert not lib(v, w.s3d3_ts(w.TS_PTR_ARITH, imm0=0x1F000000, imm1=0x200))  # not a TPB address
    assert not lib(v, w.s3d3_ts(w.TS_PTR_ARITH, imm0=0x100, imm1=0x200, accum=w.ACCUMULATE))
    bv = w.s3d3_ts(
        w.TS_PTR_BITVEC,
        in_dtype=w.UINT16,
        out_dtype=w.UINT16,
        op0=w.BITWISE_AND,
        imm0=0x102,
        imm1=0x202,
    )
    assert lib(v, bv)  # bitvec pointers are aligned to the dtype only


# ---------------------------------------------------------------- cache reduce / cumulative


def _cache(opcode: int = w.CACHE_REDUCE, **kw: object) -> bytes:
    base: dict[str, object] = {
        "accum": w.ZERO_ACCUMULATE,
        "op0": w.MULT,
        "op1": w.ADD,
        "imm0": 2.0,
        "imm1": 0,
    }
    base.update(kw)
    return w.s3d3_ts(opcode, **base)  # type: ignore[arg-type]


def test_cache_reduce(lib: CLib) -> None:
    v = "is_valid_tensor_scalar_cache_reduce"
    assert lib(v, _cache())
    assert lib(v, _cache(accum=w.ACCUMULATE))
    assert lib(v, _cache(accum=w.LOAD_ACCUMULATE, imm1=3.0))
    assert not lib(v, _cache(accum=w.IDLE))
    assert not lib(v, _cache(accum=w.ZERO))
    assert not lib(v, _cache(imm1=3.0))  # imm1 only seeds LoadAccumulate
    assert not lib(v, _cache(imm1_src=w.PTR_IMM))
    assert lib(v, _cache(accum=w.LOAD_ACCUMULATE, imm1_src=w.PTR_IMM, imm1=0x100))
    assert not lib(v, _cache(op1=w.DIVIDE))
    assert not lib(v, _cache(op1=w.BITWISE_AND))
    assert lib(v, _cache(op1=w.MAX))
    assert not lib(v, _cache(op0=w.RSQRT))
    assert not lib(v, _cache(rev=w.FIRST))
    assert not lib(v, _cache(in_dtype=w.INT32))
    assert lib(v, _cache(in_dtype=w.INT16, out_dtype=w.INT16))
    assert not lib(v, _cache(w.CACHE_CUMULATIVE))
    assert not lib(v, _cache(op0=w.ADD_INT))  # C3: no int arm in the cache op set


def test_cache_cumulative(lib: CLib) -> None:
    v = "is_valid_tensor_scalar_cache_cumulative"
    assert lib(v, _cache(w.CACHE_CUMULATIVE))
    assert not lib(v, _cache())
    assert not lib(v, _cache(w.CACHE_CUMULATIVE, accum=w.IDLE))
    assert not lib(v, _cache(w.CACHE_CUMULATIVE, rev=w.SECOND))


# ---------------------------------------------------------------- Exponential (MARIANA, MAVERICK)


def _exp(**kw: object) -> bytes:
    base: dict[str, object] = {"op0": w.BYPASS, "op1": w.BYPASS, "imm0": 0.0, "imm1": 0}
    base.update(kw)
    return w.s3d3_ts(w.EXPONENTIAL, **base)  # type: ignore[arg-type]


def test_exponential_presence(lib: CLib) -> None:
    assert lib.has("is_valid_exponential") == (lib.gen in CM)


def test_exponential(lib: CLib) -> None:
    _only(CM, lib.gen)
    v = "is_valid_exponential"
    assert lib(v, _exp())
    assert not lib(v, _exp(op0=w.ADD))  # ops forced Bypass
    assert not lib(v, _exp(op1=w.MULT))
    assert not lib(v, _exp(rev=w.FIRST))
    assert lib(v, _exp(accum=w.ZERO_ACCUMULATE))
    assert not lib(v, _exp(accum=w.ACCUMULATE, imm1=1.0))  # imm1 zero unless LoadAccumulate
    assert lib(v, _exp(accum=w.LOAD_ACCUMULATE, imm1=1.0))
    # with the accumulator engaged a packed (2-byte, unit-step) x dim must be even
    half = {"in_dtype": w.FP16, "accum": w.ZERO_ACCUMULATE}
    assert lib(v, _exp(**half))
    assert not lib(v, _exp(src_nums=(63, 1, 1), dst_nums=(63, 1, 1), **half))
    assert lib(v, _exp(src_nums=(63, 1, 1), dst_nums=(63, 1, 1), src_steps=(2, 1, 1), **half))
    assert lib(v, _exp(src_nums=(63, 1, 1), dst_nums=(63, 1, 1), in_dtype=w.FP16))  # Idle
    assert not lib(v, _exp(src_nums=(8, 3, 1), dst_nums=(24, 1, 1), **half))  # odd upper dim
    assert not lib(v, _exp(reserved0=(1, 0, 0)))
    assert not lib("is_valid_tensor_scalar_op", _exp())


def test_indirect_patterns(lib: CLib) -> None:
    _only(CM, lib.gen)
    v = "is_valid_tensor_scalar_op"
    part = w.SBUF_PARTITION_SIZE[lib.gen]
    # INDIRECT16B src: index table in SBUF at +0, data start at +4, count at +8
    src = bytearray(w.s3d3_ts())
    src[16:20] = w.marker_addr(w.MARKER_INDIRECT_IMM, 0x2000).to_bytes(4, "little")
    src[20:24] = (0x3000).to_bytes(4, "little")
    src[24:26] = (64).to_bytes(2, "little")
    assert lib(v, bytes(src))
    far = bytearray(src)
    far[20:24] = (64 * part).to_bytes(4, "little")  # data in another quadrant than the index table
    assert not lib(v, bytes(far))


# ---------------------------------------------------------------- MAVERICK specifics


def test_maverick_int_arm(lib: CLib) -> None:
    word = w.s3d3_ts(op0=w.ADD_INT, op1=w.BYPASS)
    assert lib("is_valid_tensor_scalar_op", word) == (lib.gen == "maverick")
    both = w.s3d3_ts(op0=w.ADD_INT, op1=0xC5)  # ADD_INT then MULT_INT
    assert lib("is_valid_tensor_scalar_op", both) == (lib.gen == "maverick")
    assert not lib("is_valid_tensor_scalar_op", w.s3d3_ts(op0=0xC7))  # DIVIDE_INT: not a DVE int op


def test_maverick_tile_rule(lib: CLib) -> None:
    _only(("maverick",), lib.gen)
    assert not lib("is_valid_tensor_scalar_op", w.s3d3_ts(inst_flags=1))
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(inst_flags=1, n=64))
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(inst_flags=2))
    assert not lib("is_valid_tensor_scalar_ptr_multi", w.s4d4_tsm(inst_flags=1))
    assert lib("is_valid_tensor_scalar_ptr_multi", w.s4d4_tsm(inst_flags=1, n=64))


def test_inst_flags_byte_ignored_before_maverick(lib: CLib) -> None:
    _only(("sunda", "cayman", "mariana"), lib.gen)
    assert lib("is_valid_tensor_scalar_op", w.s3d3_ts(inst_flags=1))  # debug_hint there


# ---------------------------------------------------------------- TensorScalarPtrMulti 0x4F/0x5F


def test_ptr_multi_singular(lib: CLib) -> None:
    v = "is_valid_tensor_scalar_ptr_multi"
    assert lib(v, w.s4d4_tsm(w=8))
    assert lib(v, w.s4d4_tsm(w=1))
    assert not lib(v, w.s4d4_tsm(w=9))
    assert not lib(v, w.s4d4_tsm(w=0))
    assert not lib(v, w.s4d4_tsm(rev=w.FIRST))
    assert not lib(v, w.s4d4_tsm(rev=w.SECOND))
    assert lib(v, w.s4d4_tsm(rev=w.BOTH))
    assert not lib(v, w.s4d4_tsm(rev=7))
    assert not lib(v, w.s4d4_tsm(op_dim=w.SUBDIM_XY))
    assert not lib(v, w.s4d4_tsm(op=w.DIVIDE))
    assert not lib(v, w.s4d4_tsm(op=w.BITWISE_AND))
    assert not lib(v, w.s4d4_tsm(op=w.RSQRT))
    assert not lib(v, w.s4d4_tsm(reserved0=1))
    assert not lib(v, w.s4d4_tsm(reserved1=(0, 0, 0, 0, 1)))
    assert not lib(v, w.s4d4_tsm(dst_nums=(16, 2, 2, 7)))
    assert lib(v, w.s4d4_tsm(dst_nums=(32, 2, 1, 8)))  # same count, other shape
    assert not lib(v, w.s4d4_tsm(in_dtype=w.FP32R))
    assert lib(v, w.s4d4_tsm(out_dtype=w.FP32R))
    assert not lib(v, w.s4d4_tsm(n=0))
    assert not lib(v, w.s4d4_tsm(dst_addr=0x4002))
    bv = {"in_dtype": w.INT32, "out_dtype": w.INT32, "op": w.BITWISE_AND}
    assert lib(v, w.s4d4_tsm(w.PTR_MULTI_BITVEC, **bv))  # type: ignore[arg-type]
    assert not lib(
        v, w.s4d4_tsm(w.PTR_MULTI_BITVEC, in_dtype=w.UINT32, out_dtype=w.INT32, op=w.BITWISE_AND)
    )
    assert not lib(
        v, w.s4d4_tsm(w.PTR_MULTI_BITVEC, in_dtype=w.INT16, out_dtype=w.INT16, op=w.BITWISE_AND)
    )
    assert not lib(
        v, w.s4d4_tsm(w.PTR_MULTI_BITVEC, op=w.MULT, in_dtype=w.INT32, out_dtype=w.INT32)
    )


def test_ptr_multi_dual(lib: CLib) -> None:
    present = lib.has("is_valid_tensor_scalar_ptr_multi_dual")
    assert present == (lib.gen == "sunda")
    assert lib.has("has_tensor_scalar_ptr_multi_dual_opcode") == present
    assert lib.has("has_valid_src_slices_tsm_dual") == present
    singular = "is_valid_tensor_scalar_ptr_multi"
    assert not lib(singular, w.s4d4_tsm(w.DUAL_ARITH, w=4))
    if not present:
        return
    v = "is_valid_tensor_scalar_ptr_multi_dual"
    assert lib(v, w.s4d4_tsm(w.DUAL_ARITH, w=4))
    assert lib(v, w.s4d4_tsm(w.DUAL_ARITH, w=1))
    assert not lib(v, w.s4d4_tsm(w.DUAL_ARITH, w=5))
    assert lib(v, w.s4d4_tsm(w.DUAL_ARITH, w=4, rev=w.FIRST))  # any valid reverse for Dual
    assert lib(v, w.s4d4_tsm(w.DUAL_ARITH, w=4, rev=w.SECOND))
    assert not lib(v, w.s4d4_tsm(w.DUAL_ARITH, w=4, rev=4))
    assert not lib(v, w.s4d4_tsm(w.DUAL_ARITH, w=4, op=w.BITWISE_AND))
    assert not lib(v, w.s4d4_tsm(w.PTR_MULTI_ARITH, w=4))
    # the bitvec Dual is disabled: no validator accepts 0x88
    bv = {"in_dtype": w.INT32, "out_dtype": w.INT32, "op": w.BITWISE_AND, "w": 4}
    assert not lib(v, w.s4d4_tsm(w.DUAL_BITVEC, **bv))  # type: ignore[arg-type]
    assert not lib(singular, w.s4d4_tsm(w.DUAL_BITVEC, **bv))  # type: ignore[arg-type]
    assert lib("tensor_scalar_ptr_multi_bitvec", w.s4d4_tsm(w.DUAL_BITVEC, **bv))  # type: ignore[arg-type]


# ---------------------------------------------------------------- TensorScalarImmLd 0x70/0x71


def test_immld(lib: CLib) -> None:
    v = "is_valid_tsm_immediates_load"
    assert lib(v, w.s2_bn())
    assert lib(v, w.s2_bn(src_nums=(4, 2)))
    assert lib(v, w.s2_bn(src_nums=(1, 1)))
    assert not lib(v, w.s2_bn(src_nums=(9, 1)))
    assert not lib(v, w.s2_bn(src_nums=(3, 3)))
    assert not lib(v, w.s2_bn(src_nums=(0, 5)))
    assert not lib(v, w.s2_bn(src_nums=(65535, 65535)))  # product computed without overflow
    assert not lib(v, w.s2_bn(w.BATCH_NORM_PARAM_LOAD))
    assert not lib(v, w.s2_bn(imm1=1.0))
    assert not lib(v, w.s2_bn(imm0_ptr=0x100))
    assert lib(v, w.s2_bn(imm0_ptr=-0.0))  # compared as fp32: -0.0 == 0.0
    assert not lib(v, w.s2_bn(imm0_src=w.PTR_IMM))
    assert not lib(v, w.s2_bn(n=0))
    assert not lib(v, w.s2_bn(n=129))
    assert not lib(v, w.s2_bn(reserved3_last=1))
    assert not lib(v, w.s2_bn(dtype=w.FP32R))
    assert not lib(v, w.s2_bn(src_addr=0x1002))  # fp32 source alignment
    assert lib(v, w.s2_bn(w.IMMLD_BITVEC, dtype=w.UINT16))
    assert lib(v, w.s2_bn(w.IMMLD_BITVEC, dtype=w.INT32))
    assert not lib(v, w.s2_bn(w.IMMLD_BITVEC, dtype=w.FP32))
    assert not lib(v, w.s2_bn(w.IMMLD_BITVEC, dtype=w.INT16))
    assert lib(v, w.s2_bn(dtype=w.INT16))


def test_immld_shape_from_register(lib: CLib) -> None:
    word = w.s2_bn(src_nums=(9, 1), src_addr=w.marker_addr(w.MARKER_SHAPE_REG))
    assert lib("is_valid_tsm_immediates_load", word) == (lib.gen != "sunda")


# ---------------------------------------------------------------- defined for every input

UB_DRIVER = r"""
#include <stdio.h>
#include <string.h>
#include "aws_neuron_isa_tpb_assert.h"
static unsigned long long s = 0x9E3779B97F4A7C15ULL;
static unsigned char next(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (unsigned char)s; }
int main(void) {
    static const unsigned char opcodes[] = {0x43, 0x53, 0x44, 0x54, 0x93, 0x9a, 0xe6, 0x30,
                                            0x4f, 0x5f, 0x87, 0x88, 0x70, 0x71};
    unsigned long hits = 0;
    for (int n = 0; n < 60000; n++) {
        NEURON_ISA_TPB_INST_UNION u;
        for (int k = 0; k < 64; k++) u.raw[k] = next();
        if (n % 2) { u.raw[0] = opcodes[n % sizeof opcodes]; u.raw[1] = 16; }
        if (n % 3 == 0) { u.raw[4] = 0; u.raw[6] = 0; memset(&u.raw[12], 0, (size_t)(next() % 4)); }
CALLS
    }
    printf("%lu\n", hits);
    return 0;
}
"""


def test_validators_defined_for_random_words_ubsan(cc: str, tmp_path: Path, gen: str) -> None:
    """Random and opcode-seeded words through every instruction-level C function under UBSan."""
    text = (tpb_dir(gen) / "aws_neuron_isa_tpb_assert.h").read_text()
    calls = "\n".join(f"        hits += {call};" for call in inst_calls(gen, text).values())
    src = tmp_path / "ub.c"
    src.write_text(UB_DRIVER.replace("CALLS", calls))
    exe = tmp_path / "ub"
    probe = tmp_path / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    try:
        run_checked([cc, "-fsanitize=undefined", str(probe), "-o", str(tmp_path / "p")])
    except pytest.fail.Exception:
        pytest.skip("compiler has no UBSan runtime")
    run_checked(
        [
            cc,
            "-std=c11",
            "-O1",
            "-fsanitize=undefined",
            "-fno-sanitize-recover=all",
            "-I",
            str(tpb_dir(gen)),
            str(src),
            "-o",
            str(exe),
        ]
    )
    out = run_checked([str(exe)])
    assert int(out) > 0  # some seeded words pass some predicate
