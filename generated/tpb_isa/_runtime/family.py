"""The TensorScalar family the executor implements, by OPCODE enumerator name (without the
`NEURON_ISA_TPB_OPCODE_` prefix): the one table that says which opcodes run and why others are
refused. The executor binds it to each generation's decoder (an opcode executes on a generation
when that generation decodes it and it is listed here); tpbgen imports it for the README table.

Plain Python with no imports, so the generator can load it without the runtime's dependencies.
"""

#: enumerator name -> Executor handler method
HANDLERS: dict[str, str] = {
    "TENSOR_SCALAR_ARITH_OP": "_ts_arith",
    "TENSOR_SCALAR_BITVEC_OP": "_ts_bitvec",
    "TENSOR_SCALAR_PTR_ARITH_OP": "_ts_ptr_arith",
    "TENSOR_SCALAR_PTR_BITVEC_OP": "_ts_ptr_bitvec",
    "TENSOR_SCALAR_CACHE_REDUCE": "_cache_reduce",
    "TENSOR_SCALAR_CACHE_CUMULATIVE": "_cache_cumulative",
    "EXPONENTIAL": "_exponential",
    "TENSOR_SCALAR_IMM_LD_ARITH": "_imm_ld_arith",
    "TENSOR_SCALAR_IMM_LD_BITVEC": "_imm_ld_bitvec",
    "TENSOR_SCALAR_PTR_MULTI_ARITH": "_ptr_multi_arith",
    "TENSOR_SCALAR_PTR_MULTI_BITVEC": "_ptr_multi_bitvec",
    "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH": "_ptr_multi_dual",
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
}


def refusal(name: str) -> str:
    """Why the executor does not run a decodable opcode that HANDLERS does not list."""
    return REFUSED.get(
        name, f"{name} is not part of the TensorScalar family the executor implements"
    )
