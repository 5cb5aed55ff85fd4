# What tpbgen's numpy back end (translate/to_numpy.py) emits for input.h: the constants the
# code names, then one batch function per C function. Checked byte for byte by
# tests/translate/test_golden.py; rewrite with TPBGEN_UPDATE_GOLDEN=1, do not edit.

NEURON_ISA_TPB_KIND_X = 1
NEURON_ISA_TPB_KIND_Z = 7
NEURON_ISA_TPB_OPCODE_INVALID = 255


_K_kind_valid_0 = _Members((1, 2, 7))


@_memo
def _v_kind_valid(k: Any) -> Any:
    return _isin(k, _K_kind_valid_0)


@_memo
def _v_enum_compare(i_W: Any, i_o: Any) -> Any:
    return np.logical_or(_byte(i_W, i_o + 1) == np.int32(7), np.logical_and(_byte(i_W, i_o + 1) > np.int32(1), _byte(i_W, i_o + 1) < np.int32(5)))


@_memo
def _v_enum_valid(i_W: Any, i_o: Any) -> Any:
    return np.logical_and(_v_kind_valid(_byte(i_W, i_o + 1)), _byte(i_W, i_o) != np.int32(255))


@_memo
def _v_enum_arith(i_W: Any, i_o: Any) -> Any:
    return (np.asarray(_byte(i_W, i_o + 1)).astype(np.int32) - np.int32(7)) < np.int32(0)
