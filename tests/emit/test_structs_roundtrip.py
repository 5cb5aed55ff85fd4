"""Every generated struct and union round-trips bytes exactly, and matches its numpy dtype."""

from __future__ import annotations

import copy
import itertools
import json
import operator
import pickle
import struct
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tpb_paths import GENERATIONS

from .runtime_import import gen_module


def all_classes() -> list[tuple[str, str, type[Any]]]:
    out = []
    for g in GENERATIONS:
        for c_name, cls in gen_module(g, "structs").STRUCTS.items():
            out.append((g, c_name, cls))
    return out


CLASSES = all_classes()


@pytest.mark.parametrize(("gen", "c_name", "cls"), CLASSES, ids=[f"{g}-{c}" for g, c, _ in CLASSES])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_bytes_round_trip(gen: str, c_name: str, cls: type[Any], data: st.DataObject) -> None:
    raw = data.draw(st.binary(min_size=cls.SIZE, max_size=cls.SIZE))
    obj = cls.from_bytes(raw)
    assert obj.to_bytes() == raw
    again = cls.from_bytes(obj.to_bytes())
    assert again == obj
    # at an offset inside a larger buffer, too
    pad = data.draw(st.binary(min_size=0, max_size=8))
    assert cls.from_bytes(pad + raw, len(pad)) == obj


@pytest.mark.parametrize(("gen", "c_name", "cls"), CLASSES, ids=[f"{g}-{c}" for g, c, _ in CLASSES])
def test_dtype_matches_layout(gen: str, c_name: str, cls: type[Any]) -> None:
    assert cls.DTYPE.itemsize == cls.SIZE
    raw = bytes(range(cls.SIZE))
    arr = np.frombuffer(raw, dtype=cls.DTYPE)
    assert arr.shape == (1,)
    obj = cls.from_bytes(raw)
    for f in cls.LAYOUT:
        assert f.offset + f.size <= cls.SIZE
        value = getattr(obj, f.name)
        if (
            f.bit_width is None
            and not f.dims
            and isinstance(value, int)
            and f.name in (cls.DTYPE.names or ())
        ):
            assert int(arr[f.name][0]) == int(value), f"{cls.__name__}.{f.name}"
        if f.bit_width is not None:
            word = int.from_bytes(raw[f.offset : f.offset + f.size], "little")
            assert int(value) & ((1 << f.bit_width) - 1) == (word >> f.bit_offset) & (
                (1 << f.bit_width) - 1
            )


@pytest.mark.smoke
def test_default_instance_is_zero_bytes_but_a_valid_header() -> None:
    """Defaults are zero, except the header's inst_word_len: it counts the word's 4-byte units,
    the value has_valid_neuron_header requires (NEURON_ISA_TPB_INST_NBYTES / 4)."""

    def word_len_offsets(cls: type[Any], base: int = 0) -> list[int]:
        if not hasattr(cls, "_codec"):  # a union's default is all zero
            return []
        out = []
        for f in cls.LAYOUT:
            if f.name == "inst_word_len":
                out.append(base + f.offset)
            elif f.kind == "struct" and not f.dims:
                out += word_len_offsets(f.cls, base + f.offset)
        return out

    for gen, _, cls in CLASSES:
        expected = bytearray(cls.SIZE)
        for off in word_len_offsets(cls):
            expected[off] = gen_module(gen).constants.INST_NBYTES // 4
        assert cls().to_bytes() == bytes(expected), cls.__name__
    m = gen_module("mariana")
    header = m.structs.Header(opcode="TENSOR_SCALAR_ARITH_OP")
    assert header.inst_word_len == 16
    assert m.validators.has_valid_neuron_header(m.structs.S3D3_TS(header=header).to_bytes())


def test_field_values_are_typed() -> None:
    m = gen_module("mariana")
    w = bytearray(64)
    w[0], w[1], w[36], w[32] = 0x43, 16, 0x06, 0x0B
    s = m.structs.S3D3_TS.from_bytes(bytes(w))
    assert s.header.opcode is m.enums.Opcode.TENSOR_SCALAR_ARITH_OP
    assert s.op0 is m.enums.AluOp.MULT and s.in_dtype is m.enums.Dtype.FP32R
    w[36] = 0x7E  # not an ALU_OP enumerator: kept as the plain byte
    s = m.structs.S3D3_TS.from_bytes(bytes(w))
    assert s.op0 == 0x7E and not isinstance(s.op0, m.enums.AluOp)
    assert s.to_bytes() == bytes(w)
    # mariana's mem patterns are unions with a tensor arm; sunda's are plain tensors
    assert isinstance(s.src_mem_pattern, m.structs.MemPattern3D)
    assert isinstance(s.src_mem_pattern.t, m.structs.Tensor3D)
    sunda = gen_module("sunda")
    assert isinstance(sunda.structs.S3D3_TS().src_mem_pattern, sunda.structs.Tensor3D)


def test_union_arms_share_bytes() -> None:
    m = gen_module("cayman")
    imm = m.structs.ImmValInstField.of_imm_arith_fp32(1.5)
    assert imm.imm_bitvec_uint32 == 0x3FC00000
    assert imm.imm_bitvec_uint8 == (0x00, 0x00, 0xC0, 0x3F)
    assert m.structs.ImmValInstField.of_imm_ptr(0x1234).imm_bitvec_uint16 == (0x1234, 0)


def test_out_of_range_values_are_refused() -> None:
    m = gen_module("sunda")
    with pytest.raises(ValueError, match=r"Header.inst_word_len \(uint8_t\) is 0..255, not 300"):
        m.structs.Header(opcode=m.enums.Opcode.TENSOR_SCALAR_ARITH_OP, inst_word_len=300)


F32_PATTERNS = (
    0x7F810000, 0xFF800001, 0x7FA00001, 0xFFC00001, 0x7FC00000, 0x80000000, 0x00000000,
    0x00000001, 0x807FFFFF, 0x7F800000, 0xFF800000, 0x3DCCCCCD,
)  # fmt: skip  # signalling NaNs, payloads, the quiet NaN, -0.0, 0.0, subnormals, inf, 0.1


def float_fields() -> list[tuple[str, type[Any], Any, int]]:
    """(generation, opcode struct, float field, an opcode decoding to it) for every plain
    float field of an instruction word."""
    out = []
    for g in GENERATIONS:
        opcode_of = {cls: op for op, cls in sorted(gen_module(g, "decode").OPCODE_STRUCT.items())}
        for cls, op in opcode_of.items():
            out += [(g, cls, f, op) for f in cls.LAYOUT if f.kind == "float"]
    return out


FLOAT_FIELDS = float_fields()


@pytest.mark.parametrize(
    ("gen", "cls", "f", "op"), FLOAT_FIELDS, ids=[f"{g}-{c.__name__}.{f.name}" for g, c, f, _ in FLOAT_FIELDS]
)  # fmt: skip
def test_float_fields_keep_their_bits(gen: str, cls: type[Any], f: Any, op: int) -> None:
    """A plain C float field reads, writes, compares and shows as its exact bits: a signalling
    NaN stays signalling, a payload stays, -0.0 stays -0.0, through bytes, assignment, copy,
    pickle, the text form and the dict form; its value is a float."""
    assert f.size == 4 and not f.dims
    m = gen_module(gen)
    base = bytearray(cls().to_bytes())
    base[0] = op
    words = []
    for bits in F32_PATTERNS:
        b = bytearray(base)
        struct.pack_into("<I", b, f.offset, bits)
        word = bytes(b)
        words.append(word)
        obj = cls.from_bytes(word)
        value = getattr(obj, f.name)
        assert isinstance(value, float)
        assert obj.to_bytes() == word
        assert obj == cls.from_bytes(word) and operator.ne(obj, cls.from_bytes(word)) is False
        assert copy.deepcopy(obj) == obj and pickle.loads(pickle.dumps(obj)).to_bytes() == word
        rebuilt = cls.from_bytes(bytes(base))
        setattr(rebuilt, f.name, value)  # the value read, assigned back: the same bits
        assert rebuilt.to_bytes() == word and rebuilt == obj
        text = m.disasm(word)
        if bits == 0x7F810000:
            assert f" {f.name}=nan:0x7f810000" in f" {text} "
        assert m.asm(text) == word, text
        assert m.from_dict(json.loads(json.dumps(m.to_dict(word)))) == word
    objs = [cls.from_bytes(word) for word in words]
    for i, j in itertools.combinations(range(len(objs)), 2):
        assert objs[i] != objs[j], (hex(F32_PATTERNS[i]), hex(F32_PATTERNS[j]))


def test_float_fields_round_what_they_are_given_as_c_does() -> None:
    """A float field set from a Python number holds that number rounded to float (beyond its
    range an infinity), and equals the struct read back from its bytes; a numpy float32 keeps
    its bits."""
    s = gen_module("cayman").structs.S2D2_RS()

    def field_bits() -> int:
        got: int = struct.unpack_from("<I", s.to_bytes(), 16)[0]
        return got

    s.base = 0.1
    assert field_bits() == 0x3DCCCCCD and s.base == np.float32(0.1)
    assert s == type(s).from_bytes(s.to_bytes())
    s.base = -1e40
    assert field_bits() == 0xFF800000 and s.base == -np.inf
    s.base = np.array([0x7F810001], dtype="<u4").view(np.float32)[0]
    assert field_bits() == 0x7F810001
    s.base = 3
    assert field_bits() == 0x40400000 and s.base == 3.0
    s.base, other = -0.0, type(s)(base=0.0)
    assert s != other and field_bits() == 0x80000000
    with pytest.raises(TypeError, match=r"S2D2_RS.base \(float\) takes a number, not str"):
        s.base = "1.5"
