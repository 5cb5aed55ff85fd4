"""Golden cases for every instruction kernel, on both backends, from the shelf's semantics."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from .engine_loader import PSUM, SB_PART, call, make_engine, sub

k = sub("kernels")
alu = sub("alu")
dt = sub("dtypes")
errors = sub("errors")
Imm, P = k.Imm, k.pattern

F32 = np.float32


def ts(e: Any, src: Any, dst: Any, op0: int, op1: int = 0, rev: int = 0, imm0: Any = None,
       imm1: Any = None, nch: int = 128, in_dt: int = dt.FP32, out_dt: int = dt.FP32,
       bitvec: bool = False) -> None:  # fmt: skip
    call(e, "tensor_scalar",
        bitvec=bitvec, src=src, dst=dst, in_dtype=in_dt, out_dtype=out_dt, num_active_channels=nch,
        op0=op0, op1=op1, reverse=rev, imm0=imm0 or Imm.f32(0.0), imm1=imm1 or Imm.f32(0.0),
    )  # fmt: skip


def data(n: int = 128, m: int = 16, seed: int = 0) -> np.ndarray[Any, np.dtype[np.float32]]:
    return np.random.default_rng(seed).uniform(-8, 8, size=(n, m)).astype(F32)


def same(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> None:
    assert a.shape == b.shape
    assert np.array_equal(
        np.ascontiguousarray(a).view(np.uint8), np.ascontiguousarray(b).view(np.uint8)
    )


# -- tensor_scalar: the NKI forms and the four reverse forms ------------------------------------


def test_nki_subtract_and_its_reverse(backend: str) -> None:
    e = make_engine(backend)
    a = data()
    e.write(0, a)
    ts(e, P(0, [1], [16]), P(1024, [1], [16]), alu.SUBTRACT, imm0=Imm.f32(1.0))
    same(e.read(1024, F32, (128, 16)), a - F32(1))
    ts(e, P(0, [1], [16]), P(2048, [1], [16]), alu.SUBTRACT, rev=k.REV_FIRST, imm0=Imm.f32(1.0))
    same(e.read(2048, F32, (128, 16)), F32(1) - a)


def test_nki_multiply_by_partition_tile_then_add(backend: str) -> None:
    """tensor_scalar(e, multiply, f, add, 2.5) with f a (P, 1) tile: e * f + 2.5."""
    e = make_engine(backend)
    a = data()
    f = np.random.default_rng(1).uniform(-2, 2, size=(128, 1)).astype(F32)
    e.write(0, a)
    e.write(8192, f)  # one fp32 per partition at byte 8192 of partitions 0..127
    ts(
        e,
        P(0, [1], [16]),
        P(1024, [1], [16]),
        alu.MULT,
        alu.ADD,
        imm0=Imm.ptr(8192),
        imm1=Imm.f32(2.5),
    )
    same(e.read(1024, F32, (128, 16)), a * f + F32(2.5))


@pytest.mark.parametrize(
    ("rev", "expr"),
    [
        (0, lambda t, s0, s1: (t - s0) / s1),  # NONE: (t op0 s0) op1 s1  (op1 = MULT by 1/s1 below)
        (1, lambda t, s0, s1: (s0 - t) / s1),  # FIRST
        (2, lambda t, s0, s1: s1 - (t - s0)),  # SECOND
        (3, lambda t, s0, s1: s1 - (s0 - t)),  # BOTH
    ],
)
def test_the_four_reverse_forms(backend: str, rev: int, expr: Any) -> None:
    e = make_engine(backend)
    a = data(seed=rev)
    e.write(0, a)
    s0, s1 = F32(1.25), F32(4.0)
    op1 = alu.SUBTRACT if rev >= 2 else alu.MULT
    imm1 = Imm.f32(float(s1)) if rev >= 2 else Imm.f32(0.25)
    ts(
        e,
        P(0, [1], [16]),
        P(4096, [1], [16]),
        alu.SUBTRACT,
        op1,
        rev=rev,
        imm0=Imm.f32(float(s0)),
        imm1=imm1,
    )
    want = expr(a, s0, s1) if rev >= 2 else (expr(a, s0, F32(1)) * F32(0.25))
    same(e.read(4096, F32, (128, 16)), want.astype(F32))


def test_intermediate_stays_fp32(backend: str) -> None:
    """(x * 3) - x for bf16 output: the product is not rounded to bf16 before the subtraction."""
    e = make_engine(backend)
    x = np.full((4, 8), 1.0 + 2.0**-20, dtype=F32)
    e.write(0, x)
    ts(e, P(0, [1], [8]), P(512, [1], [8]), alu.MULT, alu.ADD, imm0=Imm.f32(3.0), imm1=Imm.f32(-3.0),
       nch=4, out_dt=dt.FP32)  # fmt: skip
    assert e.read(512, F32, (4, 8))[0, 0] == F32(x[0, 0] * F32(3) - F32(3))


def test_comparison_results_are_one_and_zero_in_the_out_dtype(backend: str) -> None:
    e = make_engine(backend)
    e.write(0, np.array([[-1.0, 0.0, 2.0, 5.0]], dtype=F32))
    ts(e, P(0, [1], [4]), P(64, [1], [4]), alu.IS_GT, imm0=Imm.f32(0.5), nch=1, out_dt=dt.UINT8)
    assert e.read(64, np.uint8, (1, 4)).tolist() == [[0, 0, 1, 1]]


def test_int_input_goes_through_fp32(backend: str) -> None:
    e = make_engine(backend)
    e.write(0, np.array([[-7, 100, 2**24 + 1]], dtype=np.int32))
    ts(
        e,
        P(0, [1], [3]),
        P(64, [1], [3]),
        alu.ADD,
        imm0=Imm.f32(0.0),
        nch=1,
        in_dt=dt.INT32,
        out_dt=dt.INT32,
    )
    assert e.read(64, np.int32, (1, 3)).tolist() == [[-7, 100, 2**24]]


def test_bf16_output(backend: str) -> None:
    e = make_engine(backend)
    e.write(0, np.array([[1.0, 1.0 + 2.0**-8, 3.0]], dtype=F32))
    ts(e, P(0, [1], [3]), P(64, [1], [3]), alu.MULT, imm0=Imm.f32(1.0), nch=1, out_dt=dt.BFLOAT16)
    assert e.read(64, np.uint16, (1, 3)).tolist() == [[0x3F80, 0x3F80, 0x4040]]
    assert e.read(64, dt.BFLOAT16, (1, 3)).astype(F32).tolist() == [[1.0, 1.0, 3.0]]


# -- immediate sources ------------------------------------------------------------------------


def test_pointer_scalar_each_partition_reads_its_own(backend: str) -> None:
    """imm_src = 1: lane p reads the scalar at the pointer's byte offset in partition p0 + p."""
    e = make_engine(backend)
    a = data(32)
    scal = np.arange(128, dtype=F32).reshape(128, 1)
    e.write(0, a)
    e.write(4096, scal)
    ptr = 32 * SB_PART + 4096  # scalars of partitions 32..63 for data of partitions 0..31
    ts(e, P(0, [1], [16]), P(1024, [1], [16]), alu.ADD, imm0=Imm.ptr(ptr), nch=32)
    same(e.read(1024, F32, (32, 16)), a + scal[32:64])


def test_register_pointer_and_psum_scalars(backend: str) -> None:
    e = make_engine(backend)
    a = data(8)
    scal = np.linspace(1, 2, 8, dtype=F32).reshape(8, 1)
    e.write(0, a)
    e.write(PSUM + 64, scal)
    e.set_register(5, PSUM + 64)
    ts(e, P(0, [1], [16]), P(1024, [1], [16]), alu.MULT, imm0=Imm.reg(5), nch=8)
    same(e.read(1024, F32, (8, 16)), a * scal)


def test_bitvec_inline_immediate_is_masked_to_the_width(backend: str) -> None:
    e = make_engine(backend)
    e.write(0, np.array([[0x12, 0xF0, 0xFF]], dtype=np.uint8))
    ts(e, P(0, [1], [3]), P(64, [1], [3]), alu.BITWISE_XOR, imm0=Imm(0, 0xABCD0F), nch=1,
       in_dt=dt.UINT8, out_dt=dt.UINT8, bitvec=True)  # fmt: skip
    assert e.read(64, np.uint8, (1, 3)).tolist() == [[0x1D, 0xFF, 0xF0]]


def test_bitvec_pointer_reads_dtype_width(backend: str) -> None:
    e = make_engine(backend)
    e.write(0, np.array([[0x00FF, 0x0F0F]] * 2, dtype=np.uint16))
    e.write(100, np.array([[1], [4]], dtype=np.uint16))  # shift amounts, 2-byte aligned
    ts(e, P(0, [1], [2]), P(64, [1], [2]), alu.LOGICAL_SHIFT_LEFT, imm0=Imm.ptr(100), nch=2,
       in_dt=dt.UINT16, out_dt=dt.UINT16, bitvec=True)  # fmt: skip
    assert e.read(64, np.uint16, (2, 2)).tolist() == [[0x01FE, 0x1E1E], [0x0FF0, 0xF0F0]]


def test_two_bitvec_ops_and_reverse(backend: str) -> None:
    e = make_engine(backend)
    e.write(0, np.array([[1, 2, 3]], dtype=np.int32))
    # s1 op1 (s0 op0 t) = 0xF0 | (1 << t)
    ts(e, P(0, [1], [3]), P(64, [1], [3]), alu.LOGICAL_SHIFT_LEFT, alu.BITWISE_OR, rev=k.REV_BOTH,
       imm0=Imm(0, 1), imm1=Imm(0, 0xF0), nch=1, in_dt=dt.INT32, out_dt=dt.INT32, bitvec=True)  # fmt: skip
    assert e.read(64, np.int32, (1, 3)).tolist() == [[0xF2, 0xF4, 0xF8]]


# -- access patterns --------------------------------------------------------------------------


def test_strided_negative_and_reshaped_walks(backend: str) -> None:
    e = make_engine(backend)
    a = data(4, 32)
    e.write(0, a)
    # every other element, backwards: start at element 31, step -2, 16 elements
    ts(e, P(31 * 4, [-2], [16]), P(1024, [1], [16]), alu.BYPASS, nch=4)
    same(e.read(1024, F32, (4, 16)), a[:, 31::-2])
    # src walked as (4 x 2 x 4) with a transposing step pattern, dst as a flat run
    ts(e, P(0, [8, 1, 4], [4, 4, 2]), P(2048, [1], [32]), alu.BYPASS, nch=4)
    i0, i1, i2 = np.meshgrid(np.arange(4), np.arange(4), np.arange(2), indexing="ij")
    order = (i0 * 8 + i1 * 1 + i2 * 4).transpose(2, 1, 0).reshape(-1)  # dim 0 fastest
    same(e.read(2048, F32, (4, 32)), a[:, order])


def test_zero_step_broadcast_read(backend: str) -> None:
    e = make_engine(backend)
    e.write(0, np.array([[3.0], [4.0]], dtype=F32))
    ts(e, P(0, [0], [5]), P(64, [1], [5]), alu.MULT, imm0=Imm.f32(2.0), nch=2)
    assert e.read(64, F32, (2, 5)).tolist() == [[6.0] * 5, [8.0] * 5]


def test_overlapping_destination_last_write_wins(backend: str) -> None:
    e = make_engine(backend)
    e.write(0, np.array([[1.0, 2.0, 3.0, 4.0]], dtype=F32))
    ts(e, P(0, [1], [4]), P(64, [0], [4]), alu.ADD, imm0=Imm.f32(10.0), nch=1)
    assert e.read(64, F32, (1, 1)).tolist() == [[14.0]]
    ts(
        e, P(0, [1], [4]), P(128, [1, 1], [2, 2]), alu.ADD, imm0=Imm.f32(10.0), nch=1
    )  # dsts 0,1,1,2
    assert e.read(128, F32, (1, 3)).tolist() == [[11.0, 13.0, 14.0]]


def test_in_place_and_shifted_overlap_read_before_write(backend: str) -> None:
    e = make_engine(backend)
    a = np.arange(8, dtype=F32).reshape(1, 8)
    e.write(0, a)
    ts(e, P(0, [1], [7]), P(4, [1], [7]), alu.ADD, imm0=Imm.f32(0.0), nch=1)  # shift right by one
    assert e.read(0, F32, (1, 8)).tolist() == [[0, 0, 1, 2, 3, 4, 5, 6]]
    ts(e, P(0, [1], [8]), P(0, [1], [8]), alu.MULT, imm0=Imm.f32(2.0), nch=1)
    assert e.read(0, F32, (1, 8)).tolist() == [[0, 0, 2, 4, 6, 8, 10, 12]]


def test_different_partition_starts_and_psum_output(backend: str) -> None:
    e = make_engine(backend)
    a = data(64)
    e.write(64 * SB_PART, a)  # partitions 64..127
    ts(e, P(64 * SB_PART, [1], [16]), P(PSUM, [1], [16]), alu.ADD, imm0=Imm.f32(1.0), nch=64)
    same(e.read(PSUM, F32, (64, 16)), a + F32(1))
    assert e.psum[0].view(F32)[:16].tolist() == (a[0] + F32(1)).tolist()


# -- out of range: nothing changes --------------------------------------------------------------


OUT_OF_RANGE = [
    ("dst beyond active SBUF bytes", P(0, [1], [16]), P(192 * 1024 - 32, [1], [16]), 128, 0),
    ("dst partition past 127", P(0, [1], [16]), P(100 * SB_PART, [1], [16]), 64, 0),
    ("negative walk below byte 0", P(8, [-1], [16]), P(1024, [1], [16]), 1, 0),
    ("PSUM beyond its active bytes", P(0, [1], [16]), P(PSUM + 16 * 1024 - 8, [1], [16]), 1, 0),
    ("not in SBUF or PSUM", P(0, [1], [16]), P(0x3000000, [1], [16]), 1, 0),
    ("misaligned fp32 start", P(2, [1], [4]), P(1024, [1], [4]), 1, 0),
    ("pointer scalar out of range", P(0, [1], [16]), P(1024, [1], [16]), 128, 192 * 1024),
    ("marker bits set", P(0, [1], [16]), P(0x20000000, [1], [16]), 1, 0),
]


@pytest.mark.parametrize(
    ("why", "src", "dst", "nch", "ptr"), OUT_OF_RANGE, ids=[c[0] for c in OUT_OF_RANGE]
)
def test_out_of_range_leaves_state_untouched(
    backend: str, why: str, src: Any, dst: Any, nch: int, ptr: int
) -> None:
    e = make_engine(backend)
    e.write(0, data())
    e.set_register(3, 0x1234)
    before = e.memory.snapshot()
    imm0 = Imm.ptr(ptr) if ptr else Imm.f32(1.0)
    with pytest.raises((errors.AddressError, errors.UnsupportedError)):
        ts(e, src, dst, alu.ADD, imm0=imm0, nch=nch)
    assert e.memory.snapshot() == before
    assert e.instructions_executed == 0


def test_maverick_has_no_psum() -> None:
    e = make_engine("numpy", "maverick")
    assert e.psum.shape == (128, 0)
    assert e.sbuf.shape == (128, 512 * 1024)
    # 0x2000000 is plain SBUF on maverick (partition 32), since PSUM_BUF_SZ is 0
    assert e.memory.decode(PSUM) == sub("memory").Location("SBUF", 32, 0)
    with pytest.raises(errors.AddressError):
        e.memory.decode(0x8000000)


# -- cache reduce / cumulative and every accumulator command ----------------------------------


def cache(e: Any, cumulative: bool, cmd: int, op0: int, op1: int, src: Any, dst: Any, nch: int,
          imm0: Any = None, imm1: Any = None, out_dt: int = dt.FP32) -> None:  # fmt: skip
    call(e, "tensor_scalar_cache",
        cumulative=cumulative, src=src, dst=dst, in_dtype=dt.FP32, out_dtype=out_dt,
        num_active_channels=nch, op0=op0, op1=op1, reverse=0, accumulator_cmd=cmd,
        imm0=imm0 or Imm.f32(0.0), imm1=imm1 or Imm.f32(0.0),
    )  # fmt: skip


def test_cumulative_zero_accumulate_and_operand_order(backend: str) -> None:
    """reg = op1(op0(in[i], imm0), reg): for subtract that is tmp - reg (semantics.md §10)."""
    e = make_engine(backend)
    e.write(0, np.array([[1.0, 2.0, 3.0, 10.0], [5.0, 1.0, 1.0, 1.0]], dtype=F32))
    cache(
        e,
        True,
        k.ACCUM_ZERO_ACCUMULATE,
        alu.BYPASS,
        alu.SUBTRACT,
        P(0, [1], [4]),
        P(64, [1], [4]),
        2,
    )
    assert e.read(64, F32, (2, 4)).tolist() == [[1, 1, 2, 8], [5, -4, 5, -4]]
    assert e.accumulators[:2].tolist() == [8.0, -4.0]


@pytest.mark.parametrize(
    ("op1", "identity"),
    [(alu.ADD, 0.0), (alu.SUBTRACT, 0.0), (alu.MULT, 1.0), (alu.MAX, -np.inf), (alu.MIN, np.inf)],
)
def test_zero_accumulate_seeds_op1_identity(backend: str, op1: int, identity: float) -> None:
    e = make_engine(backend)
    e.write(0, np.array([[2.0, -3.0, 0.5]], dtype=F32))
    e.accumulators[:] = 99.0
    cache(
        e,
        True,
        k.ACCUM_ZERO_ACCUMULATE,
        alu.MULT,
        op1,
        P(0, [1], [3]),
        P(64, [1], [3]),
        1,
        imm0=Imm.f32(2.0),
    )
    t = np.array([4.0, -6.0, 1.0], dtype=F32)
    reg, want = F32(identity), []
    for x in t:
        reg = F32({alu.ADD: x + reg, alu.SUBTRACT: x - reg, alu.MULT: x * reg,
                   alu.MAX: max(x, reg), alu.MIN: min(x, reg)}[op1])  # fmt: skip
        want.append(reg)
    assert e.read(64, F32, (1, 3))[0].tolist() == [float(w) for w in want]
    assert e.accumulators[0] == want[-1]


def test_accumulate_continues_across_instructions(backend: str) -> None:
    e = make_engine(backend)
    e.write(0, np.array([[1.0, 2.0], [3.0, 4.0]], dtype=F32))
    cache(e, True, k.ACCUM_ZERO_ACCUMULATE, alu.BYPASS, alu.ADD, P(0, [1], [2]), P(64, [1], [2]), 2)
    cache(e, True, k.ACCUM_ACCUMULATE, alu.BYPASS, alu.ADD, P(0, [1], [2]), P(128, [1], [2]), 2)
    assert e.read(64, F32, (2, 2)).tolist() == [[1, 3], [3, 7]]
    assert e.read(128, F32, (2, 2)).tolist() == [[4, 6], [10, 14]]
    assert e.accumulators[:2].tolist() == [6.0, 14.0]


def test_load_accumulate_seeds_imm1_from_any_source(backend: str) -> None:
    e = make_engine(backend)
    e.write(0, np.array([[1.0, 5.0], [1.0, 5.0]], dtype=F32))
    e.write(4096, np.array([[10.0], [-10.0]], dtype=F32))
    cache(e, True, k.ACCUM_LOAD_ACCUMULATE, alu.BYPASS, alu.MAX, P(0, [1], [2]), P(64, [1], [2]), 2,
          imm1=Imm.ptr(4096))  # fmt: skip
    assert e.read(64, F32, (2, 2)).tolist() == [[10, 10], [1, 5]]
    cache(e, True, k.ACCUM_LOAD_ACCUMULATE, alu.BYPASS, alu.ADD, P(0, [1], [2]), P(64, [1], [2]), 2,
          imm1=Imm.f32(0.5))  # fmt: skip
    assert e.read(64, F32, (2, 2)).tolist() == [[1.5, 6.5], [1.5, 6.5]]


def test_cache_reduce_writes_elementwise_and_reduces_into_the_accumulator(backend: str) -> None:
    e = make_engine(backend)
    a = np.array([[1.0, 2.0, 3.0], [-1.0, 4.0, 0.5]], dtype=F32)
    e.write(0, a)
    cache(
        e,
        False,
        k.ACCUM_ZERO_ACCUMULATE,
        alu.MULT,
        alu.ADD,
        P(0, [1], [3]),
        P(64, [1], [3]),
        2,
        imm0=Imm.f32(2.0),
    )
    assert e.read(64, F32, (2, 3)).tolist() == (a * 2).tolist()
    assert e.accumulators[:2].tolist() == [12.0, 7.0]
    cache(
        e,
        False,
        k.ACCUM_ACCUMULATE,
        alu.MULT,
        alu.ADD,
        P(0, [1], [3]),
        P(64, [1], [3]),
        2,
        imm0=Imm.f32(1.0),
    )
    assert e.accumulators[:2].tolist() == [18.0, 10.5]
    cache(
        e,
        False,
        k.ACCUM_IDLE,
        alu.MULT,
        alu.ADD,
        P(0, [1], [3]),
        P(128, [1], [3]),
        2,
        imm0=Imm.f32(3.0),
    )
    assert e.accumulators[:2].tolist() == [18.0, 10.5]  # idle: not using the accumulator
    assert e.read(128, F32, (2, 3)).tolist() == (a * 3).tolist()
    cache(
        e,
        False,
        k.ACCUM_ZERO,
        alu.MULT,
        alu.MIN,
        P(0, [1], [3]),
        P(128, [1], [3]),
        2,
        imm0=Imm.f32(3.0),
    )
    assert e.accumulators[:2].tolist() == [np.inf, np.inf]  # reset: identity, nothing accumulated


def test_cumulative_refuses_idle_and_zero(backend: str) -> None:
    e = make_engine(backend)
    before = e.memory.snapshot()
    for cmd in (k.ACCUM_IDLE, k.ACCUM_ZERO):
        with pytest.raises(errors.UnsupportedError):
            cache(e, True, cmd, alu.BYPASS, alu.ADD, P(0, [1], [2]), P(64, [1], [2]), 1)
    with pytest.raises(errors.UnsupportedError):
        cache(
            e,
            True,
            k.ACCUM_ZERO_ACCUMULATE,
            alu.BYPASS,
            alu.IS_EQ,
            P(0, [1], [2]),
            P(64, [1], [2]),
            1,
        )
    assert e.memory.snapshot() == before


def test_cumulative_subtract_zero_signs(backend: str) -> None:
    """Exact cancellations give +0 and -0 - (+0) gives -0, as a sequential loop does."""
    e = make_engine(backend)
    row = np.array([[2.0, 2.0, -0.0, -0.0, 0.0, 3.0, 3.0, -0.0]], dtype=F32)
    e.write(0, row)
    cache(
        e,
        True,
        k.ACCUM_ZERO_ACCUMULATE,
        alu.BYPASS,
        alu.SUBTRACT,
        P(0, [1], [8]),
        P(64, [1], [8]),
        1,
    )
    reg, want = F32(0.0), []
    for x in row[0]:
        reg = F32(x - reg)
        want.append(reg)
    got = e.read(64, F32, (1, 8))[0]
    assert got.view(np.uint32).tolist() == np.array(want, dtype=F32).view(np.uint32).tolist()


# -- exponential ------------------------------------------------------------------------------


def test_exponential_subtracts_max_and_sums(backend: str) -> None:
    e = make_engine(backend, "mariana")
    a = np.linspace(-10, 10, 64, dtype=F32).reshape(4, 16)
    e.write(0, a)
    e.write(8192, np.array([[1.0], [2.0], [0.0], [-1.0]], dtype=F32))
    call(e, "exponential", src=P(0, [1], [16]), dst=P(1024, [1], [16]), in_dtype=dt.FP32, out_dtype=dt.FP32,
                  num_active_channels=4, accumulator_cmd=k.ACCUM_ZERO_ACCUMULATE,
                  imm0=Imm.ptr(8192), imm1=Imm.f32(0.0))  # fmt: skip
    m = np.array([[1.0], [2.0], [0.0], [-1.0]], dtype=F32)
    want = np.exp((a - m).astype(np.float64))  # the subtraction is one fp32 operation
    got = e.read(1024, F32, (4, 16))
    assert np.allclose(got, want, rtol=3e-7, atol=0)
    assert np.allclose(e.accumulators[:4], want.sum(axis=1), rtol=1e-6)
    call(e, "exponential", src=P(0, [1], [16]), dst=P(1024, [1], [16]), in_dtype=dt.FP32, out_dtype=dt.BFLOAT16,
                  num_active_channels=4, accumulator_cmd=k.ACCUM_IDLE, imm0=Imm.f32(0.0),
                  imm1=Imm.f32(0.0))  # fmt: skip
    assert np.allclose(e.accumulators[:4], want.sum(axis=1), rtol=1e-6)  # idle keeps it


def test_exp_polynomial_accuracy() -> None:
    npb = sub("npbackend")
    x = np.concatenate(
        [np.linspace(-104, 89, 200_001, dtype=F32), np.array([-np.inf, np.inf, np.nan, 0.0], F32)]
    )
    got = npb.exp_f32(x)
    with np.errstate(all="ignore"):
        want = np.exp(x.astype(np.float64)).astype(F32)
    fin = np.isfinite(want) & (want > np.finfo(F32).tiny)
    ulp = np.abs(
        got[fin].view(np.int32).astype(np.int64) - want[fin].view(np.int32).astype(np.int64)
    )
    assert ulp.max() <= 2
    assert got[-4:-1].tolist()[:2] == [0.0, np.inf] and np.isnan(got[-2]) and got[-1] == 1.0


# -- ImmLd, PtrMulti, Dual ----------------------------------------------------------------------


def test_ptr_multi_swaps_the_scalar_per_w_slice(backend: str) -> None:
    e = make_engine(backend)
    scal = np.array([[1.0, 10.0, 100.0], [2.0, 20.0, 200.0]], dtype=F32)
    e.write(0, scal)
    call(
        e, "imm_load", bitvec=False, src=P(0, [1, 1], [3, 1]), dtype=dt.FP32, num_active_channels=2
    )
    a = np.arange(24, dtype=F32).reshape(2, 12)
    e.write(1024, a)
    # src [W=3, Z=1, Y=2, X=2]: 4 elements per slice
    call(e, "ptr_multi", bitvec=False, src=P(1024, [1, 2, 4, 4], [2, 2, 1, 3]), dst=P(2048, [1], [12]), in_dtype=dt.FP32,
                out_dtype=dt.FP32, num_active_channels=2, op=alu.MULT, reverse=k.REV_NONE)  # fmt: skip
    want = a.reshape(2, 3, 4) * scal[:, :, None]
    assert e.read(2048, F32, (2, 12)).tolist() == want.reshape(2, 12).tolist()
    call(e, "ptr_multi", bitvec=False, src=P(1024, [1, 2, 4, 4], [2, 2, 1, 3]), dst=P(2048, [1], [12]), in_dtype=dt.FP32,
                out_dtype=dt.FP32, num_active_channels=2, op=alu.SUBTRACT, reverse=k.REV_BOTH)  # fmt: skip
    want = scal[:, :, None] - a.reshape(2, 3, 4)
    assert e.read(2048, F32, (2, 12)).tolist() == want.reshape(2, 12).tolist()


def test_ptr_multi_bitvec_with_raw_scalars(backend: str) -> None:
    e = make_engine(backend)
    e.write(0, np.array([[0x0F, 0xF0]], dtype=np.uint8))
    call(
        e, "imm_load", bitvec=True, src=P(0, [1, 1], [2, 1]), dtype=dt.UINT8, num_active_channels=1
    )
    assert e.imm_flops[0, :2].tolist() == [0x0F, 0xF0]
    e.write(64, np.array([[0xFF, 0xFF, 0xAA, 0xAA]], dtype=np.uint8))
    call(e, "ptr_multi", bitvec=True, src=P(64, [1, 2, 2, 2], [2, 1, 1, 2]), dst=P(128, [1], [4]), in_dtype=dt.UINT8,
                out_dtype=dt.UINT8, num_active_channels=1, op=alu.BITWISE_AND, reverse=0)  # fmt: skip
    assert e.read(128, np.uint8, (1, 4)).tolist() == [[0x0F, 0x0F, 0xA0, 0xA0]]


def test_immld_arith_converts_to_fp32(backend: str) -> None:
    e = make_engine(backend)
    e.write(0, np.array([[3, -2]], dtype=np.int16))
    call(
        e, "imm_load", bitvec=False, src=P(0, [1, 1], [2, 1]), dtype=dt.INT16, num_active_channels=1
    )
    assert e.imm_flops[0, :2].view(F32).tolist() == [3.0, -2.0]
    assert (e.memory.imm_count, e.memory.imm_kind) == (2, "arith")


def test_dual_folds_pairs_with_op1_fixed_to_multiply(backend: str) -> None:
    e = make_engine(backend)
    pairs = np.array([[1.0, 2.0, 10.0, 0.5]], dtype=F32)  # (s0, s1) per W slice
    e.write(0, pairs)
    call(
        e, "imm_load", bitvec=False, src=P(0, [1, 1], [4, 1]), dtype=dt.FP32, num_active_channels=1
    )
    a = np.array([[1.0, 2.0, 3.0, 4.0]], dtype=F32)
    e.write(64, a)
    src = P(64, [1, 2, 2, 2], [2, 1, 1, 2])
    call(e, "ptr_multi_dual", src=src, dst=P(128, [1], [4]), in_dtype=dt.FP32, out_dtype=dt.FP32, num_active_channels=1,
                     op=alu.ADD, reverse=0)  # fmt: skip
    assert e.read(128, F32, (1, 4)).tolist() == [
        [(1 + 1) * 2, (2 + 1) * 2, (3 + 10) * 0.5, (4 + 10) * 0.5]
    ]
    call(e, "ptr_multi_dual", src=src, dst=P(128, [1], [4]), in_dtype=dt.FP32, out_dtype=dt.FP32, num_active_channels=1,
                     op=alu.SUBTRACT, reverse=k.REV_FIRST)  # fmt: skip
    assert e.read(128, F32, (1, 4)).tolist() == [[0.0, -2.0, 3.5, 3.0]]


def test_ptr_multi_needs_matching_immld(backend: str) -> None:
    e = make_engine(backend)
    src, dst = P(64, [1, 2, 2, 2], [2, 1, 1, 3]), P(128, [1], [6])
    args = dict(
        src=src,
        dst=dst,
        in_dtype=dt.FP32,
        out_dtype=dt.FP32,
        num_active_channels=1,
        op=alu.ADD,
        reverse=0,
    )
    with pytest.raises(errors.ExecutorError, match="nothing"):
        call(e, "ptr_multi", bitvec=False, **args)
    call(
        e, "imm_load", bitvec=False, src=P(0, [1, 1], [2, 1]), dtype=dt.FP32, num_active_channels=1
    )
    with pytest.raises(errors.ExecutorError, match="needs 3 scalars"):
        call(e, "ptr_multi", bitvec=False, **args)
    with pytest.raises(errors.ExecutorError, match="bitvec"):
        call(e, "ptr_multi", bitvec=True, **{**args, "in_dtype": dt.INT32, "out_dtype": dt.INT32})
    with pytest.raises(errors.UnsupportedError):
        call(e, "ptr_multi", bitvec=False, **{**args, "reverse": k.REV_FIRST})


# -- stochastic rounding through an instruction --------------------------------------------------


def test_stochastic_rounding_reproducible_per_seed_and_instruction(backend: str) -> None:
    def run(seed: int, times: int) -> list[np.ndarray[Any, Any]]:
        e = make_engine(backend, rounding="stochastic", seed=seed)
        e.write(0, np.full((128, 64), 1.0 + 2.0**-10, dtype=F32))
        out = []
        for _ in range(times):
            ts(e, P(0, [1], [64]), P(1024, [1], [64]), alu.BYPASS, out_dt=dt.BFLOAT16)
            out.append(e.read(1024, np.uint16, (128, 64)))
        return out

    a1, a2 = run(3, 2)
    b1, _ = run(3, 2)
    c1, _ = run(4, 2)
    same(a1, b1)
    assert not np.array_equal(a1, a2)  # the instruction number feeds the stream
    assert not np.array_equal(a1, c1)
    assert abs(float(np.mean(a1 == 0x3F81)) - 0.125) < 0.02
