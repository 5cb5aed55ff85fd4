"""decode / opcode_decodable / opcode_status / validate / explain on documented words."""

from __future__ import annotations

import pytest

from headers import tpb_words as w

from .runtime_import import gen_module


def test_decode_picks_the_bound_struct() -> None:
    m = gen_module("mariana")
    assert type(m.decode(w.s3d3_ts())) is m.structs.S3D3_TS
    assert type(m.decode(w.s4d4_tsm())) is m.structs.S4D4_TSM
    assert type(m.decode(w.s2_bn())) is m.structs.S2_BN
    assert m.decode(w.s3d3_ts()).to_bytes() == w.s3d3_ts()


def test_dual_is_decodable_only_on_sunda() -> None:
    assert gen_module("sunda").opcode_decodable(0x87)
    for g in ("cayman", "mariana", "maverick"):
        m = gen_module(g)
        assert not m.opcode_decodable(0x87)
        with pytest.raises(ValueError, match="0x87 is not defined by the " + g):
            m.decode(w.s4d4_tsm(w.DUAL_ARITH))


def test_stale_and_outside_bindings() -> None:
    m = gen_module("cayman")
    st = m.opcode_status(0x64)  # BATCH_NORM_PARAM_LOAD: S2_BN, ingested
    assert st.decodable and st.struct == "S2_BN"
    # the JSON spells PSEUDO_DMA_BARRIER, the enum PSEUDO_DMABARRIER: the opcode is defined but bound to nothing
    st = m.opcode_status(m.enums.Opcode.PSEUDO_DMABARRIER)
    assert st.defined and not st.decodable and st.struct == ""


def test_deprecation_status() -> None:
    for g in ("sunda", "cayman", "mariana", "maverick"):
        m = gen_module(g)
        st = m.opcode_status(0x44)
        assert st.maintained is False and st.note == "use TensorScalarArithOp instead"
        assert m.opcode_status(0x43).maintained is True
        assert m.opcode_status(0x4F).note == "ucode/kaenadve exists, not maintained/used"
        assert m.enums.Opcode.EXPONENTIAL.info.maintained is None
        assert (
            m.enums.Opcode.TENSOR_SCALAR_ARITH_OP.c_name
            == "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP"
        )
    assert gen_module("sunda").enums.Opcode.TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH.info.line == 221


@pytest.mark.smoke
def test_validate_and_explain_documented_cases() -> None:
    for g in ("sunda", "cayman", "mariana", "maverick"):
        m = gen_module(g)
        assert m.validate(w.s3d3_ts()) and m.explain(w.s3d3_ts()) == ""
        assert not m.validate(w.s3d3_ts(op0=w.BYPASS, op1=w.ADD))
        assert m.validate(w.s4d4_tsm(w=8))
        bad = w.s4d4_tsm(w=9)
        assert not m.validate(bad)
        # the issue's own example, to the letter, then the condition that failed
        assert m.explain(bad) == (
            "is_valid_tensor_scalar_ptr_multi -> has_valid_src_slices_tsm_singular: src_mem_pattern.num_elem[3] = 9"
            " (needs src_mem_pattern.num_elem[3] <= 8)"
        )
    s = gen_module("sunda")
    assert s.validate(w.s4d4_tsm(w.DUAL_ARITH, w=4, rev=w.FIRST))
    assert "has_valid_src_slices_tsm_dual" in s.explain(w.s4d4_tsm(w.DUAL_ARITH, w=5))


def test_explain_names_fields_and_enums() -> None:
    m = gen_module("maverick")
    why = m.explain(w.s3d3_ts(w.TS_PTR_ARITH, imm0_src=w.PTR_IMM, imm0=0x100, imm1=0x200))
    assert why.startswith("is_valid_tensor_scalar_ptr_op -> ") and "imm0_src = 1" in why
    assert "no validator" in m.explain(bytes([0x64, 16]) + bytes(62))
    assert "64 bytes" in m.explain(b"\x43")


def test_top_level_validators_accept_objects_and_bytes() -> None:
    m = gen_module("cayman")
    word = w.s3d3_ts()
    obj = m.decode(word)
    assert m.validators.is_valid_tensor_scalar_op(obj) and m.validators.is_valid_tensor_scalar_op(
        word
    )
    assert m.validators_for(0x43) == ("is_valid_tensor_scalar_op",)
    assert m.TOP_LEVEL["is_valid_tensor_scalar_ptr_multi"] == (0x4F, 0x5F)


def test_batch_decode() -> None:
    import numpy as np

    m = gen_module("mariana")
    words = np.frombuffer(
        w.s3d3_ts() + w.s4d4_tsm() + bytes([0x87, 16]) + bytes(62), dtype=np.uint8
    ).reshape(3, 64)
    d = m.decode_batch(words)
    assert list(d.decodable) == [True, True, False]
    view = d.view(m.structs.S4D4_TSM)
    assert view.shape == (1,) and int(view["src_mem_pattern"]["num_elem"][0][3]) == 8
    assert list(m.validate_batch(words)) == [True, True, False]


def test_explain_follows_if_return_bodies_and_locals() -> None:
    # tensor_scalar_ptr_multi_reverse_chk is if/return in C; has_valid_src_slices_tsm_singular reads
    # the field through a local: both still name the field, its value and the condition that failed
    s = gen_module("sunda")
    assert s.explain(w.s4d4_tsm(rev=w.FIRST)).endswith(
        "tensor_scalar_ptr_multi_reverse_chk: reverse_operands = 1 (FIRST) (needs (reverse_operands == "
        "NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_NONE) || (reverse_operands == NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_BOTH))"
    )
    bad_rev = bytearray(w.s4d4_tsm())
    bad_rev[38] = 9  # not a TENS_SCALAR_REV_OPS value: the early `return false` branch
    assert "reverse_operands = 9 (returns false at line" in s.explain(bytes(bad_rev))
    assert s.explain(w.s4d4_tsm(w=0)).endswith(
        "src_mem_pattern.num_elem[3] = 0 (needs src_mem_pattern.num_elem[3] >= 1)"
    )
