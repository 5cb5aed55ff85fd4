"""Differential: `run_program` of a long program (admitted as columns, its TensorScalar words of
the prepared fast path run by one C call, executor/program.py) does what the same program does
word by word (`_prepare` and each word's prepared call, the path of short and traced programs),
bit for bit: memory, registers, accumulators and flops after it, the instruction count, and the
error (type, text and index), on every generation and both backends.

The programs are random valid words: TensorScalar arith and bitvec words with addresses in SBUF
and PSUM (the partitions' first and last bytes, misaligned now and then), forward, backward,
broadcast and multi-dimensional walks, overlapping source and destination, every dtype pair,
immediate, pointer and register scalars and register addresses; then cache, ImmLd and PtrMulti
words between them; some programs carry a word that is refused (not valid, or an enumerator the
executor does not implement) or one that fails as it runs (a register pointing nowhere)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from .engine_loader import c_available
from .test_executor_e2e import GENS, Gen, errors

BACKENDS = ["numpy", "c"] if c_available() else ["numpy"]


@pytest.fixture(scope="module", params=GENS)
def g(request: pytest.FixtureRequest) -> Gen:
    return Gen(str(request.param))


def _address(g: Gen, rng: np.random.Generator, nch: int, area: int) -> int:
    C = g.C
    psum = int(getattr(C, "PSUM_BUF_SZ", 0)) > 0 and rng.integers(0, 5) == 0
    pre = "PSUM_BUF" if psum else "STATE_BUF"
    parts = int(getattr(C, f"{pre}_NUM_PARTITIONS", C.STATE_BUF_NUM_PARTITIONS))
    active = int(getattr(C, f"{pre}_PARTITION_ACTIVE_SIZE"))
    size = int(getattr(C, f"{pre}_PARTITION_SIZE"))
    base = int(getattr(C, f"{pre}_OFFSET"))
    part = (
        int(rng.integers(0, 6)) if rng.integers(0, 4) else int(rng.integers(parts - nch - 1, parts))
    )
    near = area if rng.integers(0, 5) else 0  # mostly apart, now and then over one another
    off = (
        near + int(rng.integers(0, 96)) * 4
        if rng.integers(0, 4)
        else active - int(rng.integers(1, 48)) * 4
    )
    off += int(rng.integers(1, 4)) if rng.integers(0, 25) == 0 else 0
    return base + max(part, 0) * size + off


def _walk(g: Gen, rng: np.random.Generator, nch: int, area: int) -> Any:
    if rng.integers(0, 3):  # a plain walk
        steps, nums = (int(rng.choice([1, 1, 2, -1])), 0, 0), (int(rng.integers(1, 13)), 1, 1)
    else:
        steps = tuple(int(s) for s in rng.choice([1, 1, 2, -1, -2, 0, 3, 8], 3))
        nums = tuple(int(n) for n in rng.integers(0, 5, 3))
    reg = 3 if rng.integers(0, 12) == 0 else None
    return g.t3(_address(g, rng, nch, area), steps, nums, reg=reg)


def _ts_word(g: Gen, rng: np.random.Generator) -> Any:
    E = g.E
    bitvec = rng.integers(0, 3) == 0
    nch = int(rng.choice([1, 2, 3, 4, 16]))
    if bitvec:
        code = rng.choice([E.Dtype.UINT8, E.Dtype.INT16, E.Dtype.UINT32, E.Dtype.INT32])
        in_dt = out_dt = code
        ops = [E.AluOp.BITWISE_AND, E.AluOp.BITWISE_XOR, E.AluOp.LOGICAL_SHIFT_LEFT, E.AluOp.BYPASS]
        opcode = E.Opcode.TENSOR_SCALAR_BITVEC_OP
    else:
        dts = [E.Dtype.FP32, E.Dtype.BFLOAT16, E.Dtype.FP16, E.Dtype.FP8_EXP4, E.Dtype.INT8,
               E.Dtype.UINT16, E.Dtype.INT32]  # fmt: skip
        in_dt, out_dt = rng.choice(dts), rng.choice(dts)
        ops = [E.AluOp.MULT, E.AluOp.ADD, E.AluOp.SUBTRACT, E.AluOp.MAX, E.AluOp.BYPASS,
               E.AluOp.ABSOLUTE_VALUE, E.AluOp.IS_GT]  # fmt: skip
        opcode = E.Opcode.TENSOR_SCALAR_ARITH_OP
    src = rng.choice([0] * 10 + [1, 2])
    imm0 = g.ptr(64) if src == 1 else g.u(4) if src == 2 else g.u(int(rng.integers(0, 2**32)))
    imm1 = g.u(int(rng.integers(0, 2**32)))
    src_w, dst_w = _walk(g, rng, nch, 0), _walk(g, rng, nch, 1024)
    if rng.integers(0, 6) == 0:  # the destination starts on the source's last element
        t = src_w.t if hasattr(src_w, "t") else src_w
        E = g.E
        isz = 4 if in_dt in (E.Dtype.FP32, E.Dtype.INT32, E.Dtype.UINT32) else 2
        isz = 1 if in_dt in (E.Dtype.FP8_EXP4, E.Dtype.INT8, E.Dtype.UINT8) else isz
        last = t.start_addr.addr_immediate + (t.num_elem[0] - 1) * t.step_elem[0] * isz
        dst_w = g.t3(max(last, 0), tuple(t.step_elem), tuple(t.num_elem))
    return g.ts(opcode, src_w, dst_w, n=nch, op0=rng.choice(ops),
                op1=rng.choice(ops), rev=int(rng.integers(0, 4)), in_dt=in_dt, out_dt=out_dt,
                imm0=imm0, imm1=imm1, src0=int(src))  # fmt: skip


def _other_words(g: Gen) -> list[Any]:
    """Words of the other handlers (prepared word by word in either path)."""
    E = g.E
    out = [
        g.ts(E.Opcode.TENSOR_SCALAR_CACHE_CUMULATIVE, g.t3(0, (1, 0, 0), (8, 1, 1)),
             g.t3(4096, (1, 0, 0), (8, 1, 1)), n=4, op0=E.AluOp.SUBTRACT, op1=E.AluOp.ADD,
             imm0=g.f(0.1), accum=E.AccumCmd.ZERO_ACCUMULATE),
        g.ts(E.Opcode.TENSOR_SCALAR_PTR_ARITH_OP, g.t3(0, (1, 0, 0), (8, 1, 1)),
             g.t3(8192, (1, 0, 0), (8, 1, 1)), n=4, op0=E.AluOp.MULT, op1=E.AluOp.ADD,
             imm0=g.ptr(64), imm1=g.ptr(128)),
        g.immld(E.Opcode.TENSOR_SCALAR_IMM_LD_ARITH, g.t2(0, (1, 1), (2, 2)), n=4,
                dtype=E.Dtype.FP32),
    ]  # fmt: skip
    return [w for w in out if g.mod.explain(w) == ""]


def _program(g: Gen, rng: np.random.Generator, n: int) -> list[bytes]:
    """n valid words that each run without error on their own (so that the program runs to
    its end; the tests put in the words that fail)."""
    others = [bytes(w.to_bytes()) for w in _other_words(g)]
    scratch = _fresh(g, "numpy", False, batch=False)
    words: list[bytes] = []
    while len(words) < n:
        w = bytes(_ts_word(g, rng).to_bytes())
        if not g.mod.validate(w):
            continue
        try:
            scratch.run(w)
        except errors.ExecutorError:
            continue
        words.append(w)
        if others and rng.integers(0, 10) == 0:
            words.append(others[int(rng.integers(0, len(others)))])
    return words[:n]


def _fresh(g: Gen, backend: str, stochastic: bool, batch: bool) -> Any:
    ex = g.executor(backend=backend)
    if stochastic:
        ex.engine.numerics = dataclasses.replace(ex.engine.numerics, rounding="stochastic", seed=9)
    if not batch:
        ex.PROGRAM_BATCH = 1 << 30  # word by word: the reference
    rng = np.random.default_rng(1)
    for region in (ex.sbuf, ex.psum):
        if region.size:
            region[:, :1536] = rng.integers(0, 256, (region.shape[0], 1536), dtype=np.uint8)
            region[:, -512:] = rng.integers(0, 256, (region.shape[0], 512), dtype=np.uint8)
    ex.set_register(3, 64)
    ex.set_register(4, 128)
    ex.set_register(5, 0x1FFFFFF0)  # nowhere
    return ex


def _outcome(ex: Any, program: Any) -> tuple[Any, ...]:
    try:
        ran: Any = ex.run_program(program)
    except (errors.ExecutorError, ValueError) as exc:
        ran = (type(exc).__name__, str(exc), getattr(exc, "index", None))
    return ran, ex.engine.memory.snapshot(), ex.engine.instructions_executed


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_long_program_runs_as_it_does_word_by_word(g: Gen, backend: str) -> None:
    rng = np.random.default_rng(hash((g.name, backend)) & 0xFFFF)
    for k in range(4):
        program = _program(g, rng, 150)
        if k == 2:  # a register that points nowhere: fails as it runs, midway
            program.insert(90, program[0])
            program[70] = bytes(
                g.ts(g.E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (4, 1, 1), reg=5),
                     g.t3(4096, (1, 0, 0), (4, 1, 1)), n=1, op0=g.E.AluOp.ADD).to_bytes()
            )  # fmt: skip
        stochastic = k % 2 == 1
        want = _outcome(_fresh(g, backend, stochastic, batch=False), program)
        got = _outcome(_fresh(g, backend, stochastic, batch=True), b"".join(program))
        assert got[0] == want[0], (g.name, k)
        assert got[2] == want[2], (g.name, k)
        assert got[1] == want[1], (g.name, k)
        if k == 2:
            assert isinstance(want[0], tuple) and want[0][2] == 70, want[0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_refused_word_stops_a_long_program_before_it_runs(g: Gen, backend: str) -> None:
    """A word not valid, or with an enumerator the executor does not implement, is named by
    index with the word-by-word text, and nothing has run."""
    E = g.E
    rng = np.random.default_rng(3)
    program = _program(g, rng, 40)
    invalid = bytearray(program[0])
    invalid[1:] = bytes(63)  # zero fields: rejected by the validators (zero channels)
    refused = bytes(
        g.ts(E.Opcode.TENSOR_SCALAR_ARITH_OP, g.t3(0, (1, 0, 0), (4, 1, 1)), g.t3(4096, (1, 0, 0), (4, 1, 1)),
             n=1, op0=E.AluOp.ADD, in_dt=E.Dtype.INT64 if hasattr(E.Dtype, "INT64") else 0).to_bytes()
    )  # fmt: skip
    for bad, at in ((bytes(invalid), 31), (refused, 17)):
        p = list(program)
        p[at] = bad
        ref = _fresh(g, backend, False, batch=False)
        before = ref.engine.memory.snapshot()
        want = _outcome(ref, p)
        assert isinstance(want[0], tuple) and want[0][2] == at, want[0]
        assert want[1] == before
        got = _outcome(_fresh(g, backend, False, batch=True), np.frombuffer(b"".join(p), np.uint8))
        assert got == want


def test_the_plan_is_the_prepared_fast_path(g: Gen) -> None:
    """Row by row, a word is planned (run by `tpb_run_ts`) exactly when `run()` would prepare
    it as the fast path (`Engine._prepared_tensor_scalar`): on valid words, including those that
    fail as they run (a walk out of bounds, counts that differ, a register pointing nowhere)."""
    if not c_available():
        pytest.skip("C backend unavailable")
    import functools
    import importlib

    prog = importlib.import_module(f"{errors.__name__.rsplit('.', 1)[0]}.program")
    ex = _fresh(g, "c", False, batch=False)
    rng = np.random.default_rng(7)
    words: list[bytes] = []
    while len(words) < 600:
        w = bytes(_ts_word(g, rng).to_bytes())
        if g.mod.validate(w):
            words.append(w)
    W = np.frombuffer(b"".join(words), np.uint8).reshape(-1, 64)
    planned = 0
    for op in np.unique(W[:, 0]).tolist():
        rows = np.flatnonzero(W[:, 0] == op)
        binder = ex._batch_binder(op)
        cols, ok = binder.columns(W[rows])
        fast, _ = prog.PLANNERS[binder.record](ex.engine, dict(binder.fixed), cols, rows.size)
        for j, i in enumerate(rows.tolist()):
            want = not isinstance(ex._prepare(words[i]), functools.partial)
            assert bool(fast[j] and ok[j]) == want, (g.name, i, g.mod.decode(words[i]))
        planned += int((fast & ok).sum())
    assert planned >= 40, planned


def test_the_plan_is_the_fast_path_on_any_operands() -> None:
    """The same, on operands no validator filtered (the engine's own checks decide): counts
    that differ, channels out of range, every dtype and ALU code, any reversal, walks of zero
    elements, walks past the partition or the region, misaligned addresses, on a small
    machine where every edge is near."""
    if not c_available():
        pytest.skip("C backend unavailable")
    from .engine_loader import operands as record_of
    from .engine_loader import small_geometry, sub

    k, prog, access, errs = sub("kernels"), sub("program"), sub("access"), sub("errors")
    engine = k.Engine(small_geometry(16, 1024, 512, 256, 128), backend="c")
    rng = np.random.default_rng(13)
    n = 3000

    def pattern() -> Any:
        part = np.where(rng.integers(0, 4, n) > 0, rng.integers(0, 8, n), rng.integers(0, 17, n))
        region = rng.integers(0, 5, n) == 0
        base = np.where(region, small_geometry(1, 1, 1, 1, 1)["PSUM_BUF_OFFSET"], 0)
        size = np.where(region, 256, 1024)
        off = rng.integers(0, 140, n) * rng.choice([1, 2, 4], n) + (rng.integers(0, 9, n) == 0)
        start = base + part * size + np.where(rng.integers(0, 8, n) == 0, 500, off)
        start = np.where(rng.integers(0, 15, n) == 0, start | (access.MARKER_ADDR_REG << 24), start)
        steps = rng.choice([1, 1, 2, -1, 0, 3, 8], (n, 3))
        nums = np.where(rng.integers(0, 3, (n, 1)) > 0, [[1, 1, 1]], rng.integers(0, 5, (n, 3)))
        nums[:, 0] = np.where(rng.integers(0, 2, n) > 0, rng.integers(0, 13, n), nums[:, 0])
        return prog.PatternColumn(
            start.astype(np.int64), steps.astype(np.int64), nums.astype(np.int64)
        )

    def imm() -> Any:
        return prog.ImmColumn(rng.choice([0] * 8 + [1, 2], n).astype(np.int64),
                              rng.integers(0, 2**32, n).astype(np.int64))  # fmt: skip

    alu = sub("alu")

    def ops(bitvec: bool) -> Any:
        known = sorted(alu.BITVEC_OPS if bitvec else alu.ARITH_OPS)
        return np.where(rng.integers(0, 5, n) > 0, rng.choice(known, n), rng.integers(0, 0x24, n))

    for bitvec in (False, True):
        dtypes = rng.choice([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 1, 12], (n, 2))
        if bitvec:  # mostly one integer dtype in and out
            dtypes[: n // 2, 0] = dtypes[: n // 2, 1] = rng.choice([2, 3, 4, 5, 8, 9], n // 2)
        cols = {
            "src": pattern(), "dst": pattern(), "in_dtype": dtypes[:, 0], "out_dtype": dtypes[:, 1],
            "num_active_channels": rng.choice([0, 1, 1, 2, 4, 4, 16, 17], n),
            "op0": ops(bitvec), "op1": ops(bitvec),
            "reverse": rng.integers(0, 5, n), "imm0": imm(), "imm1": imm(),
        }  # fmt: skip
        fixed = {"bitvec": bitvec}
        fast, _ = prog.plan_tensor_scalar(engine, fixed, cols, n)
        rows = {p: prog.values(c) for p, c in cols.items()}
        for i in range(n):
            operands = dict(fixed, **{p: v[i] for p, v in rows.items()})
            try:
                want = (
                    engine._prepared_tensor_scalar(record_of("tensor_scalar", **operands))
                    is not None
                )
            except (errs.ExecutorError, ValueError):
                want = False
            assert bool(fast[i]) == want, (i, operands)
        assert fast.sum() >= 20, fast.sum()


def test_info_batch_takes_the_planned_walks(g: Gen) -> None:
    """`info_batch` of a program's words (TensorScalar words of the planned fast path among
    gathers, register addresses and the other handlers) is `info` of each, on the reset state
    and on the program's machine; and the planned rows are there to be taken."""
    from tpb_isa._runtime.executor import program as prog

    words = _program(g, np.random.default_rng(7), 300)
    W = np.frombuffer(b"".join(words), np.uint8).reshape(-1, 64)
    ex = _fresh(g, "numpy", False, batch=False)
    assert g.mod.info_batch(W) == [g.mod.info(w) for w in words]
    assert g.mod.info_batch(W, ex) == [g.mod.info(w, ex) for w in words]
    ts = W[np.isin(W[:, 0], [int(g.E.Opcode.TENSOR_SCALAR_ARITH_OP)])]
    binder = g.mod.Executor._batch_binder(int(ts[0, 0]))
    cols, ok = binder.columns(ts)
    planned, _ = prog.walks_tensor_scalar(ex.engine, dict(binder.fixed), cols, len(ts))
    assert (planned & ok).sum() >= 10
