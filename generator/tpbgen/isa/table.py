"""The executor's semantics, declared once: the table every executor form is emitted from.

* :data:`ENUMS`: each enum an operand reads (its *role*: ALU op, dtype, immediate source, operand
  reversal, accumulator command, ...), the enumerator names the executor implements, each with the
  *semantic code* the engine and the C kernels use, and the names it knows and refuses, with why.
  Names are the enumerators' C names without the enum's prefix (``NEURON_ISA_TPB_ALU_OP_ADD`` is
  ``ADD``). A drop's values never reach the engine: each generation's package records, from its
  IR, every enumerator's value by name, and the executor maps a word's value to the name and the
  name to the semantic code. A value whose name is not implemented refuses the instruction.
* :data:`OPERAND_KINDS`: how an operand's fields become an engine argument (``isa.lower`` holds
  the one lowering of each kind to the scalar and the column code).
* :data:`HANDLERS`: each OPCODE enumerator name the executor runs -> the engine method that runs
  it and its operands: each field of that method's operand record, the struct fields it is read
  from (by name) and how (its *kind*).
* :data:`REFUSED`: decodable opcodes of the family that are refused, with why.
* :data:`CHECKS`: admission checks an engine method makes of its operands, each declared once
  and emitted as the scalar check and its column form (``_runtime/executor/admission.py``).
* :func:`numerics_defaults`: a generation's `Numerics` defaults from its drop's core version.

From this table `tpbgen generate` emits, per generation, the binder of each executed opcode
(fields -> the engine method's operand record, real code in ``<gen>/executor_binding.py``) and
the refusal list, and once the record of each engine method's operands
(``_runtime/executor/operands.py``: its signature, declared nowhere else), the runtime's
semantic codes (``_runtime/executor/codes.py``) and the C header the kernels include
(``_runtime/executor/tpb_codes.h``). It is checked against each drop's IR at
generate time (``isa.binding``): a field path, union arm or enum role a handler names that the
drop lacks is a located warning and a refusal, never an error at run time.

Adding an instruction family: a :class:`Handler` entry here, then its engine method (taking the
record ``generate`` emits for it, ``<Method>Operands``) and kernel arithmetic in the runtime; a
new enum role is an :class:`EnumRole` entry (its implemented names
with their semantic codes, and ``c_prefix`` when the C kernels switch on them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# -- enums, by role ------------------------------------------------------------------------------

_NOT_TS = "rejected by every TensorScalar validator"
_INT_BAND = (
    "an integer-band ALU op: its operand width, signedness and immediate interpretation on the "
    "DVE are not documented, nor is whether a TensorTensor runs it on POOL's native integers or "
    "the Vector Engine's fp32 path (tt-stt-facts.md §3d, §4)"
)
_NOT_DATAPATH = (
    "not a 1-, 2- or 4-byte TensorScalar datapath type (64-bit, FP4, CPTC and scale formats are "
    "refused)"
)
_INT_BAND_NAMES = [
    "ADD_INT",
    "MULT_INT",
    "SUBTRACT_INT",
    "DIVIDE_INT",
    "MOD_INT",
    "IS_EQUAL_INT",
    "IS_NE_INT",
    "ABS_MAX_INT",
    "ABS_MIN_INT",
    "ABS_DIFF_INT",
    "ABS_VALUE_INT",
    "MAX_INT",
    "MIN_INT",
    "IS_GT_INT",
    "IS_GE_INT",
    "IS_LE_INT",
    "IS_LT_INT",
    "MAX_UINT",
    "MIN_UINT",
    "IS_GT_UINT",
    "IS_GE_UINT",
    "IS_LE_UINT",
    "IS_LT_UINT",
    "MULT_UINT",
    "DIVIDE_UINT",
    "MOD_UINT",
    "AMAX_INT",
    "AMIN_INT",
    "AMAX_UINT",
    "AMIN_UINT",
]


@dataclass(frozen=True)
class EnumRole:
    """One enum the executor reads: the C enum its fields are declared with (used when a field is
    declared as a plain integer), the names it implements with their semantic codes, and the
    names it knows and refuses."""

    what: str  # how messages name a value of it ("ALU op", "dtype", ...)
    c_enum: str
    codes: dict[str, int]
    refused: dict[str, str] = field(default_factory=dict)
    #: the prefix of its codes in the C kernels' header (``OP_ADD``), None when C needs none
    c_prefix: str | None = None

    def refusal(self, name: str) -> str:
        """Why a value named `name` is not executed."""
        return self.refused.get(name, "the executor does not implement it")


ENUMS: dict[str, EnumRole] = {
    "alu_op": EnumRole(
        "ALU op",
        "NEURON_ISA_TPB_ALU_OP",
        {
            "BYPASS": 0x00,
            "BITWISE_NOT": 0x01,
            "ARITH_SHIFT_LEFT": 0x02,
            "ARITH_SHIFT_RIGHT": 0x03,
            "ADD": 0x04,
            "SUBTRACT": 0x05,
            "MULT": 0x06,
            "MAX": 0x08,
            "MIN": 0x09,
            "BITWISE_AND": 0x0A,
            "BITWISE_OR": 0x0B,
            "BITWISE_XOR": 0x0C,
            "LOGICAL_AND": 0x0D,
            "LOGICAL_OR": 0x0E,
            "LOGICAL_XOR": 0x0F,
            "LOGICAL_SHIFT_LEFT": 0x10,
            "LOGICAL_SHIFT_RIGHT": 0x11,
            "IS_EQ": 0x12,
            "IS_GT": 0x13,
            "IS_GE": 0x14,
            "IS_LE": 0x15,
            "IS_LT": 0x16,
            "ABSOLUTE_DIFF": 0x17,
            "IS_NE": 0x18,
            "ABSOLUTE_VALUE": 0x19,
            "RSQRT": 0x1D,
            "ABS_MAX": 0x20,
            "ABS_MIN": 0x21,
            "RE_LU": 0x22,
            "SQUARE": 0x23,
        },
        {
            "CRC32": "its polynomial, initial value and reflection are not documented "
            "(semantics.md §9.12; §8 C7 says it is Pool-only)",
            "DIVIDE": _NOT_TS + " and by the TensorTensor ones (tt-stt-facts.md §3c)",
            "POW": _NOT_TS + "; TensorTensor arith admits it, but it is POOL's polynomial whose "
            "error is not documented (semantics.md §2.1)",
            "MOD": _NOT_TS + "; TensorTensor arith admits it, but its sign rule and division by "
            "zero are not documented (tt-stt-facts.md Q12)",
            "SYMMETRIC_CLAMP": "not a general arith op the TensorScalar validators admit",
            **dict.fromkeys(_INT_BAND_NAMES, _INT_BAND),
        },
        "OP_",
    ),
    "dtype": EnumRole(
        "dtype",
        "NEURON_ISA_TPB_DTYPE",
        {
            "INT8": 0x02,
            "UINT8": 0x03,
            "INT16": 0x04,
            "UINT16": 0x05,
            "BFLOAT16": 0x06,
            "FP16": 0x07,
            "INT32": 0x08,
            "UINT32": 0x09,
            "FP32": 0x0A,
            "FP32R": 0x0B,
            "FP8_EXP3": 0x0D,
            "FP8_EXP4": 0x0E,
            "FP8_EXP5": 0x0F,
        },
        {
            "INVALID": "INVALID is no data type",
            **dict.fromkeys(
                [
                    "UINT64",
                    "INT64",
                    "FP4_EXP2",
                    "FP8_EXP2",
                    "INT4",
                    "CPTC1",
                    "CPTC2",
                    "CPTC3",
                    "CPTC4",
                    "CPTC5",
                    "CPTC6",
                    "CPTC7",
                    "SFP8_E8",
                    "SFP8_E7",
                    "SFP8_E6",
                    "SFP8_E5",
                ],
                _NOT_DATAPATH,
            ),
        },
        "D_",
    ),
    "imm_src": EnumRole(
        "immediate source",
        "NEURON_ISA_TPB_IMM_SRC",
        {"INSTRUCTION_IMMEDIATE": 0, "POINTER_IMMEDIATE": 1, "REG_PTR_IMMEDIATE": 2},
    ),
    "rev_ops": EnumRole(
        "operand reversal",
        "NEURON_ISA_TPB_TENS_SCALAR_REV_OPS",
        {"NONE": 0, "FIRST": 1, "SECOND": 2, "BOTH": 3},
    ),
    "accum_cmd": EnumRole(
        "accumulator command",
        "NEURON_ISA_TPB_ACCUM_CMD",
        {"IDLE": 0, "ZERO": 1, "ACCUMULATE": 2, "ZERO_ACCUMULATE": 3, "LOAD_ACCUMULATE": 4},
    ),
}

# A DTYPE_PAIR nibble (a two-source instruction's src0/src1 dtypes): the dtype names and codes
# again, as its own role because mariana+ type the nibbles with a 16-code enum (DTYPE_BASIC) of
# their own; the names are the same, so the codes are.
ENUMS["dtype_pair"] = EnumRole(
    "source dtype",
    "NEURON_ISA_TPB_DTYPE",
    dict(ENUMS["dtype"].codes),
    dict(ENUMS["dtype"].refused),
)
# TensorReduce's op_dim: the semantic code is the number of innermost dims folded.
ENUMS["subdim"] = EnumRole(
    "reduced sub-dimension",
    "NEURON_ISA_TPB_TENSOR_SUBDIM",
    {"X": 1, "XY": 2, "XYZ": 3, "XYZW": 4},
    {"UNUSED": "rejected by every TensorReduce validator (has_valid_tensor_reduce_op_dim)"},
)
# TensorTensorIntWide's op (maverick 0xf3): the ALU op names it runs, as codes of its own (the
# integer band stays refused for every other instruction).
_WIDE_CODES = {
    "ADD_INT": 0xC4,
    "MULT_INT": 0xC5,
    "SUBTRACT_INT": 0xC6,
    "MULT_UINT": 0xDB,
    "ARITH_SHIFT_LEFT": 0x02,
    "LOGICAL_SHIFT_LEFT": 0x10,
}
_WIDE_RIGHT = (
    "the high word of a right shift in TensorTensorIntWide is not documented (tt-stt-facts.md Q5)"
)
ENUMS["wide_op"] = EnumRole(
    "int-wide ALU op",
    "NEURON_ISA_TPB_ALU_OP",
    _WIDE_CODES,
    {
        **{
            name: "not a TensorTensorIntWide op (is_valid_tt_int_wide_op admits add, subtract, "
            "mult and shifts only)"
            for name in [*ENUMS["alu_op"].codes, *ENUMS["alu_op"].refused]
            if name not in _WIDE_CODES
        },
        "ARITH_SHIFT_RIGHT": _WIDE_RIGHT,
        "LOGICAL_SHIFT_RIGHT": _WIDE_RIGHT,
    },
    "W_",
)

# Operators an engine method applies that no drop's enum names: semantic codes of their own, in
# the ALU op's code space (c_prefix OP_), above every ALU_OP value of the drops (at most 0xE1)
# and below 256 (the column path's code tables), read from no field.
# RECIPROCAL (0x48's 1/x in fp32, next-families-facts.md §2b) is a unary stage of the fp32 hub.
ENUMS["engine_op"] = EnumRole(
    "engine operator",
    "",
    {"RECIPROCAL": 0xFE},
    c_prefix="OP_",
)

# -- operands and handlers -----------------------------------------------------------------------


@dataclass(frozen=True)
class OperandKind:
    """A way of reading fields into one engine argument: how many fields it reads, the Python
    type of the argument (a name the runtime's executor defines, or ``int``) and what it makes
    of them (``isa.lower`` lowers each kind to its scalar and column code)."""

    fields: int
    value: str
    what: str


#: How an operand's fields become the Engine's argument. An enum role (a key of ENUMS) is one
#: field mapped to its semantic code (an ``int``); the others:
OPERAND_KINDS: dict[str, OperandKind] = {
    "int": OperandKind(1, "int", "one field, its value"),
    "pattern": OperandKind(3, "Pattern", "start address, element steps, element counts"),
    "imm": OperandKind(2, "Imm", "immediate source (imm_src), its raw 32 bits"),
    "imm_ptr": OperandKind(
        1, "Imm", "raw 32 bits of a PartitionOffset pointer (POINTER_IMMEDIATE)"
    ),
}


def value_type(kind: str) -> str:
    """The Python type of an operand of `kind` as its Engine method takes it."""
    return OPERAND_KINDS[kind].value if kind in OPERAND_KINDS else "int"


@dataclass(frozen=True)
class Operand:
    """One field of an Engine method's operand record and the struct fields it is read from
    (``layout.fields_reader`` paths; ``a.t?.b`` goes through union arm ``t`` when there is one)."""

    param: str
    kind: str  # a key of OPERAND_KINDS or of ENUMS
    fields: tuple[str, ...]


@dataclass(frozen=True)
class Handler:
    """How the executor runs one opcode: ``Engine.<engine>(record)``, the record of the method's
    operands (``_runtime/executor/operands.py``, emitted from the handlers of that method: its
    fixed arguments, then its operands) made from the fixed values and the word's fields."""

    engine: str
    operands: tuple[Operand, ...]
    fixed: tuple[tuple[str, bool], ...] = ()


def _pattern(param: str, field_name: str) -> Operand:
    """A MEM_PATTERN (its TENSOR arm, mariana+) or TENSOR field (sunda/cayman)."""
    return Operand(
        param,
        "pattern",
        (
            f"{field_name}.t?.start_addr.addr_immediate",
            f"{field_name}.t?.step_elem",
            f"{field_name}.t?.num_elem",
        ),
    )


def _enum(param: str, role: str, field_name: str | None = None) -> Operand:
    return Operand(param, role, (field_name or param,))


_WALKS = (
    _pattern("src", "src_mem_pattern"),
    _pattern("dst", "dst_mem_pattern"),
    _enum("in_dtype", "dtype"),
    _enum("out_dtype", "dtype"),
    Operand("num_active_channels", "int", ("num_active_channels",)),
)
_TS = (
    *_WALKS,
    _enum("op0", "alu_op"),
    _enum("op1", "alu_op"),
    _enum("reverse", "rev_ops", "reverse_operands"),
)
_IMMS = (
    Operand("imm0", "imm", ("imm0_src", "imm0.imm_bitvec_uint32")),
    Operand("imm1", "imm", ("imm1_src", "imm1.imm_bitvec_uint32")),
)
_PTRS = (
    Operand("imm0", "imm_ptr", ("imm0.imm_ptr",)),
    Operand("imm1", "imm_ptr", ("imm1.imm_ptr",)),
)
_ACCUM = _enum("accumulator_cmd", "accum_cmd")
_IMM_LD = (
    _pattern("src", "src_mem_pattern"),
    _enum("dtype", "dtype"),
    Operand("num_active_channels", "int", ("num_active_channels",)),
)
_PTR_MULTI = (*_WALKS, _enum("op", "alu_op"), _enum("reverse", "rev_ops", "reverse_operands"))
_ARITH = (("bitvec", False),)
_BITVEC = (("bitvec", True),)
_NCH = Operand("num_active_channels", "int", ("num_active_channels",))


def _nibbles(lo: str, hi: str, field_name: str) -> tuple[Operand, Operand]:
    """The two dtypes of a DTYPE_PAIR field (``dtype_lo`` the first source's)."""
    return (
        Operand(lo, "dtype_pair", (f"{field_name}.dtype_lo",)),
        Operand(hi, "dtype_pair", (f"{field_name}.dtype_hi",)),
    )


_TWO_SOURCES = (
    _pattern("src0", "src0_mem_pattern"),
    _pattern("src1", "src1_mem_pattern"),
    _pattern("dst", "dst_mem_pattern"),
    *_nibbles("in0_dtype", "in1_dtype", "in0_in1_dtype"),
    _enum("out_dtype", "dtype"),
    _NCH,
)
_TT = (*_TWO_SOURCES, _enum("op", "alu_op"))
_STT = (
    *_TWO_SOURCES,
    _enum("op0", "alu_op"),
    _enum("op1", "alu_op"),
    _enum("reverse", "rev_ops", "reverse_operands"),
    Operand("imm0", "imm", ("imm0_src", "imm0.imm_bitvec_uint32")),
    _enum("imm0_dtype", "dtype"),
    _ACCUM,
)
_TR = (
    _pattern("src", "src_mem_pattern"),
    _pattern("dst", "dst_mem_pattern"),
    _enum("in_dtype", "dtype"),
    _enum("out_dtype", "dtype"),
    _NCH,
    Operand("negated", "int", ("negated",)),
    _enum("op", "alu_op"),
    _enum("op_dim", "subdim"),
)
# Copy and Cast (S4D4_TR): the validators pin op = BYPASS, op_dim X, negated and mask_enable
# to zero, and Copy's dtypes equal (next-families-facts.md §2a), so only these are read
_COPY = (
    _pattern("src", "src_mem_pattern"),
    _pattern("dst", "dst_mem_pattern"),
    _enum("in_dtype", "dtype"),
    _enum("out_dtype", "dtype"),
    _NCH,
)
# Iota (D4_IOTA): the DATA4D ramp (base, step_elem, num_elem: computed, not read) as a pattern
# whose start_addr is the base, the destination walk, its dtype, the channel multiplier
_IOTA = (
    Operand(
        "ramp",
        "pattern",
        ("src_data_pattern.base", "src_data_pattern.step_elem", "src_data_pattern.num_elem"),
    ),
    _pattern("dst", "dst_mem_pattern"),
    _enum("out_dtype", "dtype"),
    _NCH,
    Operand("channel_multiplier", "int", ("channel_multiplier",)),
)
_WIDE = (
    _pattern("src0", "src0_mem_pattern"),
    _pattern("src1", "src1_mem_pattern"),
    _pattern("dst0", "dst0_mem_pattern"),
    _pattern("dst1", "dst1_mem_pattern"),
    *_nibbles("in0_dtype", "in1_dtype", "in0_in1_dtype"),
    *_nibbles("out0_dtype", "out1_dtype", "out0_out1_dtype"),
    _NCH,
    _enum("op", "wide_op"),
)

#: OPCODE enumerator name -> how the executor runs it.
HANDLERS: dict[str, Handler] = {
    "TENSOR_SCALAR_ARITH_OP": Handler("tensor_scalar", (*_TS, *_IMMS), _ARITH),
    "TENSOR_SCALAR_BITVEC_OP": Handler("tensor_scalar", (*_TS, *_IMMS), _BITVEC),
    "TENSOR_SCALAR_PTR_ARITH_OP": Handler("tensor_scalar", (*_TS, *_PTRS), _ARITH),
    "TENSOR_SCALAR_PTR_BITVEC_OP": Handler("tensor_scalar", (*_TS, *_PTRS), _BITVEC),
    "TENSOR_SCALAR_CACHE_REDUCE": Handler(
        "tensor_scalar_cache", (*_TS, _ACCUM, *_IMMS), (("cumulative", False),)
    ),
    "TENSOR_SCALAR_CACHE_CUMULATIVE": Handler(
        "tensor_scalar_cache", (*_TS, _ACCUM, *_IMMS), (("cumulative", True),)
    ),
    "EXPONENTIAL": Handler("exponential", (*_WALKS, _ACCUM, *_IMMS)),
    "TENSOR_SCALAR_IMM_LD_ARITH": Handler("imm_load", _IMM_LD, _ARITH),
    "TENSOR_SCALAR_IMM_LD_BITVEC": Handler("imm_load", _IMM_LD, _BITVEC),
    "TENSOR_SCALAR_PTR_MULTI_ARITH": Handler("ptr_multi", _PTR_MULTI, _ARITH),
    "TENSOR_SCALAR_PTR_MULTI_BITVEC": Handler("ptr_multi", _PTR_MULTI, _BITVEC),
    "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH": Handler("ptr_multi_dual", _PTR_MULTI),
    "TENSOR_TENSOR_ARITH_OP": Handler("tensor_tensor", _TT, _ARITH),
    "TENSOR_TENSOR_BITVEC_OP": Handler("tensor_tensor", _TT, _BITVEC),
    # SUNDA's BF16 forms: TensorTensor arith whose validator pins op to the opcode's and both
    # sources to BF16 (tt-stt-facts.md §3g, §4); the pair-wise read is a rate, not a result
    "TENSOR_TENSOR_ADD_BF16": Handler("tensor_tensor", _TT, _ARITH),
    "TENSOR_TENSOR_MULT_BF16": Handler("tensor_tensor", _TT, _ARITH),
    "TENSOR_TENSOR_SUB_BF16": Handler("tensor_tensor", _TT, _ARITH),
    "SCALAR_TENSOR_TENSOR_ARITH": Handler("scalar_tensor_tensor", _STT, _ARITH),
    "SCALAR_TENSOR_TENSOR_BITVEC": Handler("scalar_tensor_tensor", _STT, _BITVEC),
    "TENSOR_TENSOR_SCAN_ARITH": Handler("tensor_tensor_scan", _STT),
    "TENSOR_REDUCE_ARITH_OP": Handler("tensor_reduce", _TR, _ARITH),
    "TENSOR_REDUCE_BITVEC_OP": Handler("tensor_reduce", _TR, _BITVEC),
    "TENSOR_REDUCE_ADD_BF16": Handler("tensor_reduce", _TR, _ARITH),
    "TENSOR_REDUCE_MAX_BF16": Handler("tensor_reduce", _TR, _ARITH),
    "COPY": Handler("tensor_copy", _COPY, (("cast", False),)),
    "CAST": Handler("tensor_copy", _COPY, (("cast", True),)),
    "RECIPROCAL": Handler("reciprocal", _COPY),
    "IOTA": Handler("iota", _IOTA),
    # D4_MR: serialization_mode is pinned to Serial and the reserved bytes to zero by the
    # validator (next-families-facts.md §6b), so only these are read
    "MEMSET": Handler(
        "memset",
        (
            _pattern("dst", "dst_mem_pattern"),
            _enum("dtype", "dtype"),
            _NCH,
            Operand("set_value", "int", ("set_value",)),
            Operand("dst_element_count", "int", ("dst_element_count",)),
        ),
    ),
    # S3S3D3_TT: src0 the predicate (dtype_lo), src1 the data (dtype_hi); the validator pins op
    # to BYPASS (next-families-facts.md §3), so op is not read
    "COPY_PREDICATED": Handler("copy_predicated", _TWO_SOURCES, (("cast", False),)),
    "CAST_PREDICATED": Handler("copy_predicated", _TWO_SOURCES, (("cast", True),)),
    "TENSOR_TENSOR_INT_WIDE": Handler("tensor_tensor_wide", _WIDE),
}

#: enumerator name -> why a decodable opcode of the family is refused
REFUSED: dict[str, str] = {
    "TRANSPOSE_TENSOR_SCALAR_ARITH_OP": (
        "TransposeTensorScalarArithOp: the shelf says only that it is TensorScalar arith with the "
        "source read transposed and needs a multiple of 32 channels (ts-tsm-facts.md §3); the "
        "transpose's block shape and element order are not documented"
    ),
    "TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC": (
        "TensorScalarPtrMultiDualBitvec is disabled in the SUNDA header (s4d4_tsm.h:289-291: no "
        "sensible fixed second bitvec op)"
    ),
    **dict.fromkeys(
        ["TRANSPOSE_TENSOR_REDUCE_ARITH_OP", "TRANSPOSE_TENSOR_REDUCE_BITVEC_OP"],
        "TransposeTensorReduce: the shelf says only that a 32 element x 32 channel transpose "
        "precedes the reduce (tt-stt-facts.md §9c); how the blocks tile a larger source and the "
        "element order inside a block are not documented",
    ),
    **dict.fromkeys(
        ["TENSOR_CUMULATIVE_ARITH_OP", "TENSOR_CUMULATIVE_BITVEC_OP"],
        "TensorCumulative: out[i] = out[i-1] op in[i] along op_dim, but the first element's seed "
        "and how op_dim orders a scan over more than one dimension are not stated "
        "(next-families-facts.md §2e, Q6)",
    ),
    "TENSOR_SCALAR_AFFINE_SELECT": (
        "AffineSelect: its fill value is read from register fill_reg, and which register file "
        "that is and how a program loads it are not stated; nor is which DATA4D step_elem is "
        "innermost (next-families-facts.md §6c, Q8, Q9)"
    ),
    "STREAM_SHUFFLE": (
        "StreamShuffle: the 32-entry shuffle mask is not a field of S4D4_TR; where it lives "
        "(LOAD_MASK_SELECT's immediate or a register) and how long it persists are not stated "
        "(next-families-facts.md §2c, Q3)"
    ),
    "STREAM_TRANSPOSE": (
        "StreamTranspose: its validator body and the element order inside and across its 32x32 "
        "tiles are not stated (next-families-facts.md §2d, Q4)"
    ),
    "SELECT_REDUCE": (
        "SelectReduce: the sources disagree on what a false lane gets (C5), and how on_false is "
        "encoded, what reverse_operands FIRST does and how the reduce result is read out are "
        "not stated (next-families-facts.md §4, Q5)"
    ),
    "RANGE_SELECT": (
        "RangeSelect: its max reduce goes to the DVE accumulators, whose read-out (0x9B) and "
        "identity are not stated (Q5), and the sources disagree on whether the value or the "
        "index is compared (next-families-facts.md §6d, C4)"
    ),
    "MAX8": (
        "Max8: the sources disagree on the order of the 8 values it writes (ascending in the "
        "header text, descending in NKI; next-families-facts.md §7b, C6)"
    ),
    **dict.fromkeys(
        ["MATCH_VALUE_LOAD", "FIND_INDEX8", "MATCH_REPLACE8"],
        "the 8-wide search cluster keeps hidden DVE state (the match-value keys and their matched "
        "flags) whose lifetime is not stated (Q10), and the sources disagree on how duplicate "
        "keys pair (next-families-facts.md §7, C7)",
    ),
    **dict.fromkeys(
        ["BATCH_NORM_STATS2", "BATCH_NORM_AGGREGATE", "TRANSPOSE_BATCH_NORM_STATS2"],
        "BatchNorm statistics: the mean uses a reciprocal table in the DVE parameter RAM (loaded "
        "by 0x66), and the exact arithmetic of the aggregate and its rounding are not stated "
        "(next-families-facts.md §7e, Q15)",
    ),
    **dict.fromkeys(
        ["BATCH_NORM_STATS", "BATCH_NORM_PARAM_LOAD", "BATCH_NORM_BACK_PROP"],
        "marked `// n` or without a documented validator body and semantics "
        "(next-families-facts.md §5b, §7e)",
    ),
    **dict.fromkeys(
        ["REG_STORE", "RNG", "DVE_READ_INDICES"],
        "a D4_MR member whose validator and semantics no source documents "
        "(next-families-facts.md §6b lists it only)",
    ),
    "TENSOR_REDUCE_RANGE_CHECK": (
        "TensorReduceRangeCheck is marked `// n` (to be removed) and its struct, validator and "
        "semantics are not documented (tt-stt-facts.md Q11)"
    ),
}


def refusal(name: str) -> str:
    """Why the executor does not run a decodable opcode that HANDLERS does not list."""
    return REFUSED.get(
        name,
        f"{name} is not part of the instruction families the executor implements (TensorScalar, "
        "TensorTensor, ScalarTensorTensor, TensorTensorScan, TensorReduce, Copy/Cast, Reciprocal, Iota, "
        "CopyPredicated/CastPredicated, Memset)",
    )


def roles(handler: Handler) -> dict[str, str]:
    """The enum-typed fields a handler reads: field name -> role."""
    return {o.fields[0]: o.kind for o in handler.operands if o.kind in ENUMS} | {
        o.fields[0]: "imm_src" for o in handler.operands if o.kind == "imm"
    }


# -- admission checks ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Between:
    """``lo <= arg <= hi`` (each bound an int, another of the check's arguments or a runtime
    constant's name)."""

    arg: str
    lo: int | str
    hi: int | str


@dataclass(frozen=True)
class OneOf:
    """``arg`` is one of `values` (ints, semantic codes as ``role.NAME``, or another of the
    check's arguments)."""

    arg: str
    values: tuple[int | str, ...]


@dataclass(frozen=True)
class In:
    """``arg`` is a member of `members`, a set the runtime defines (a key of RUNTIME_SETS)."""

    arg: str
    members: str


@dataclass(frozen=True)
class AllOf:
    """Every one of `parts` holds."""

    parts: tuple[Between | OneOf | In, ...]


Condition = Between | OneOf | In | AllOf

#: The runtime's names a check may read (a bound, or the members of `In`) -> the module of the
#: runtime's executor that defines them (``admission.py`` imports them from there).
RUNTIME_NAMES: dict[str, str] = {
    "IMM_FLOPS_PER_CHANNEL": "memory",
    "INT_CODES": "dtypes",  # the integer dtypes' semantic codes
}


@dataclass(frozen=True)
class Check:
    """One admission check of an engine method, declared once: `holds` (over the values
    `args`, as the method computes them from its operands) must be true, else the method raises
    `error` with `message` (a format string over `args`). `isa.lower` emits it as the scalar
    check the Engine method calls (``check_<name>``) and the column form `info_batch`'s
    refusals call (``refuse_<name>``, the message's values as the refusal's key)."""

    name: str
    method: str  # the Engine method that makes it
    args: tuple[str, ...]
    holds: Condition
    error: str  # "ExecutorError" or "UnsupportedError"
    message: str


CHECKS: tuple[Check, ...] = (
    Check(
        "channels", "every method (Engine._channels)", ("nch", "channels"),
        Between("nch", 1, "channels"), "ExecutorError",
        "num_active_channels {nch} is outside 1..{channels}",
    ),
    Check(
        "same_count", "the methods of one source and one destination (Engine._same_count)",
        ("src_count", "dst_count"), OneOf("src_count", ("dst_count",)), "UnsupportedError",
        "source has {src_count} elements per partition, destination {dst_count}: what the "
        "engine does when the counts differ is not stated",
    ),
    Check(
        "imm_load_count", "imm_load", ("count",),
        Between("count", 1, "IMM_FLOPS_PER_CHANNEL"), "UnsupportedError",
        "TensorScalarImmLd loads {count} values per channel: the executor models its 8 scalar "
        "flops per channel, 1..8 values, and what another count does is not stated",
    ),
    Check(
        "ptr_multi_dims", "ptr_multi", ("dims",), OneOf("dims", (4,)), "UnsupportedError",
        "PtrMulti needs a 4-D source pattern",
    ),
    Check(
        "ptr_multi_slices", "ptr_multi", ("wslices",),
        Between("wslices", 1, "IMM_FLOPS_PER_CHANNEL"), "UnsupportedError",
        "PtrMulti W = src num_elem[3] is {wslices}: the executor models 1..8, one ImmLd scalar "
        "a slice",
    ),
    Check(
        "ptr_multi_reverse", "ptr_multi", ("reverse",),
        OneOf("reverse", ("rev_ops.NONE", "rev_ops.BOTH")), "UnsupportedError",
        "PtrMulti reverses its single op only as NONE or BOTH (s4d4_tsm.h:99-107)",
    ),
    Check(
        "ts_bitvec_dtypes", "tensor_scalar (bitvec)", ("in_dtype", "out_dtype"),
        AllOf((OneOf("in_dtype", ("out_dtype",)), In("in_dtype", "INT_CODES"))),
        "UnsupportedError", "a bitvec TensorScalar needs in_dtype == out_dtype, an integer dtype",
    ),
    Check(
        "ptr_multi_bitvec_dtypes", "ptr_multi (bitvec)", ("in_dtype", "out_dtype"),
        AllOf((OneOf("in_dtype", ("out_dtype",)), In("in_dtype", "INT_CODES"))),
        "UnsupportedError", "a bitvec PtrMulti needs in_dtype == out_dtype, an integer dtype",
    ),
    Check(
        "reduce_bitvec_dtypes", "tensor_reduce (bitvec)", ("in_dtype", "out_dtype"),
        AllOf((OneOf("in_dtype", ("out_dtype",)), In("in_dtype", "INT_CODES"))),
        "UnsupportedError", "a bitvec TensorReduce needs in_dtype == out_dtype, an integer",
    ),
    Check(
        "reduce_negated", "tensor_reduce", ("negated",), OneOf("negated", (0, 1)),
        "UnsupportedError", "negated = {negated}: only 0 and 1 are encodings",
    ),
    Check(
        "reduce_bitvec_negated", "tensor_reduce", ("negated",), OneOf("negated", (0,)),
        "UnsupportedError", "negated applies to arith reduces only",
    ),
)  # fmt: skip


# -- numerics ------------------------------------------------------------------------------------

#: The first NeuronCore version (the number in the ``NC-vN`` core version common.h's banner
#: states) whose FP8_EXP4 is OCP e4m3fn (max 448, no Inf): Trn3's NeuronCore-v4 (semantics.md
#: §3.3, AWS FP8 notes); the versions before it (Trn2, NC-v3, and earlier) are IEEE-like E4M3
#: (max 240, has Inf). Later versions are taken to follow NC-v4 (maverick's NC-v5: inferred).
FP8_E4M3_OCP_FROM = 4


def numerics_defaults(core_version: str) -> dict[str, str]:
    """The executor's `Numerics` defaults a generation's drop implies, from the core version its
    common.h banner states (``NC-v4``): only ``fp8_e4m3`` differs; a drop that states none gets
    the `Numerics()` defaults."""
    found = re.fullmatch(r"NC-v(\d+)", core_version)
    if found is None or int(found.group(1)) < FP8_E4M3_OCP_FROM:
        return {}
    return {"fp8_e4m3": "ocp"}
