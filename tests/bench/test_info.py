"""`info`: the footprint guarantee against the executor on random memory, both backends, every
executable opcode of every generation (the generated package's EXECUTABLE): every byte `run()`
changes lies in `writes`, and bytes outside `reads` cannot change what it writes (two machines
that agree only on `reads`, and on the state besides memory, write the same bytes). A word whose
footprint is not known must be refused by `run()`, changing nothing; so must a word `run()`
refuses on the bytes it reads (e.g. a shift count of 32 or more).

The words are `random_words(n, opcode=...)`, n = FOOTPRINT_WORDS per opcode: 200 by default,
10^4 (the issue's scale) at the full scale (TPBGEN_FULL=1, which .ci/run sets; tpb_scale), or
what TPBGEN_FOOTPRINT_WORDS says. The footprints are `footprint_runs` (the arrays `info` makes
its Spans from; that the two agree is test_info_batch_is_info_of_each_word's and
test_footprint_runs_are_the_spans' part), worked out once a word on the machine's state and
checked on both backends in lock-step. The
writes are restored after each word and every machine compared whole with its pristine image
at the end of an opcode, so a byte changed outside `writes` by any word is still there to find.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from emit.runtime_import import gen_module

from tpb_paths import GENERATIONS
from tpb_scale import env_int, sweep

FOOTPRINT_WORDS = env_int("TPBGEN_FOOTPRINT_WORDS", 200, 10_000)
BACKENDS = ("numpy", "c")
EXECUTABLE = [(g, op) for g in GENERATIONS for op in gen_module(g, "executor").EXECUTABLE]

Block = tuple[int, int, int, int, int]  # region index (0 psum, 1 sbuf), partitions p0:p1, bytes a:b


def _blocks(runs: np.ndarray) -> list[Block]:
    """Merged runs (group, start, stop) as 2-D blocks: runs with the same bytes on consecutive
    partitions of one region joined (a walk over n partitions is one block a run, not n)."""
    if not len(runs):
        return []
    region, part, a, b = runs[:, 0] >> 20, runs[:, 0] & 0xFFFFF, runs[:, 1], runs[:, 2]
    o = np.lexsort((part, b, a, region))
    region, part, a, b = region[o], part[o], a[o], b[o]
    new = np.ones(len(o), dtype=np.bool_)
    new[1:] = (region[1:] != region[:-1]) | (a[1:] != a[:-1]) | (b[1:] != b[:-1])
    new[1:] |= part[1:] != part[:-1] + 1
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, len(o) - 1)
    cols = (region[first], part[first], part[last] + 1, a[first], b[first])
    return list(zip(*(c.tolist() for c in cols), strict=True))


class Bench:
    """One generation's machines on one backend: A on a random image, B on another random
    image that is given A's bytes over a word's reads; their pristine images; the state
    besides memory both start each opcode from."""

    def __init__(self, mod: Any, backend: str, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.A, self.B = mod.Executor(backend=backend), mod.Executor(backend=backend)
        for ex in (self.A, self.B):
            ex.sbuf[:] = rng.integers(0, 256, ex.sbuf.shape, dtype=np.uint8)
            ex.psum[:] = rng.integers(0, 256, ex.psum.shape, dtype=np.uint8)
        self.regions = {id(ex): (ex.psum, ex.sbuf) for ex in (self.A, self.B)}
        self.pristine = {id(ex): (ex.psum.copy(), ex.sbuf.copy()) for ex in (self.A, self.B)}

    def reset(self, state: dict[str, Any]) -> None:
        for ex in (self.A, self.B):
            m = ex.engine.memory
            for name, value in state.items():
                if isinstance(value, np.ndarray):
                    getattr(m, name)[:] = value
                else:
                    setattr(m, name, value)
            ex.engine.instructions_executed = 0

    def restore(self, ex: Any, blocks: list[Block]) -> None:
        mine, pristine = self.regions[id(ex)], self.pristine[id(ex)]
        for r, p0, p1, a, b in blocks:
            mine[r][p0:p1, a:b] = pristine[r][p0:p1, a:b]

    def changed(self) -> str:
        """'' when both machines are their pristine images, else where they are not (and
        they are made pristine again, for the next opcode)."""
        where = []
        for name, ex in (("A", self.A), ("B", self.B)):
            for r, (mine, pristine) in enumerate(
                zip(self.regions[id(ex)], self.pristine[id(ex)], strict=True)
            ):
                if np.array_equal(mine.view(np.uint64), pristine.view(np.uint64)):
                    continue  # 8 bytes a compare: a fifth of the time of the bytes'
                diff = np.argwhere(mine != pristine)
                if len(diff):
                    where.append(f"{name} {('psum', 'sbuf')[r]} bytes {diff[:4].tolist()}")
                    mine[:] = pristine
        return "; ".join(where)


@functools.lru_cache(maxsize=1)  # 4 images of 26 MB a generation: one generation at a time
def _benches(gen: str) -> dict[str, Bench]:
    mod = gen_module(gen)
    return {b: Bench(mod, b, seed=len(gen)) for b in BACKENDS}


def _run(ex: Any, w: bytes) -> str:
    try:
        ex.run(w)
    except Exception as e:  # any error: what it is, for the comparison of the two machines
        return f"{type(e).__name__}: {e}"
    return ""


def _check_word(b: Bench, w: bytes, R: list[Block], W: list[Block]) -> None:
    """Run `w` on A and on B made to agree with A over the reads `R`: the same outcome, and
    the same bytes over the writes `W`. A word refused when it runs (a data-dependent refusal,
    e.g. TensorTensorIntWide's shift count of 32 or more, decided on bytes in `R`) must change
    nothing: each machine's `W` is then its own bytes from before the run (which differ between
    A and B outside `R`, so comparing A's with B's would blame the footprint for them)."""
    a_mem, b_mem = b.regions[id(b.A)], b.regions[id(b.B)]
    for r, p0, p1, lo, hi in R:  # B agrees with A on the reads only
        b_mem[r][p0:p1, lo:hi] = a_mem[r][p0:p1, lo:hi]
    b.B.engine.instructions_executed = b.A.engine.instructions_executed
    before = [(a_mem[r][p0:p1, lo:hi].copy(), b_mem[r][p0:p1, lo:hi].copy())
              for r, p0, p1, lo, hi in W]  # fmt: skip
    err_a, err_b = _run(b.A, w), _run(b.B, w)
    backend = b.A.engine.backend.name
    assert err_a == err_b, f"{backend} {w.hex()}: {err_a!r} vs {err_b!r}"
    for (r, p0, p1, lo, hi), (a_was, b_was) in zip(W, before, strict=True):
        a_now, b_now = a_mem[r][p0:p1, lo:hi], b_mem[r][p0:p1, lo:hi]
        if err_a:
            assert np.array_equal(a_now, a_was) and np.array_equal(b_now, b_was), (
                f"{backend} {w.hex()}: refused ({err_a}) but changed {r, p0, p1, lo, hi}"
            )
        else:
            assert np.array_equal(a_now, b_now), (
                f"{backend} {w.hex()}: writes {r, p0, p1, lo, hi} differ"
            )


@pytest.mark.parametrize(
    ("gen", "opcode"), EXECUTABLE, ids=[f"{g}-{op:#04x}" for g, op in EXECUTABLE]
)
def test_footprint_holds_on_random_memory(gen: str, opcode: int) -> None:
    mod = gen_module(gen)
    benches = _benches(gen)
    rng = np.random.default_rng(opcode)
    ref = benches["numpy"].A.engine.memory
    # the state besides memory: random address registers (small aligned offsets: register-held
    # addresses land in partition 0 of SBUF), accumulators and ImmLd flops, all 8 scalars
    # loaded on every channel (arith for the first half of the words, bitvec for the second)
    state: dict[str, Any] = {
        "registers": (rng.integers(0, 64, ref.registers.shape) * 64).astype(np.uint32),
        "accumulators": rng.standard_normal(ref.accumulators.shape).astype(np.float32),
        "imm_flops": rng.integers(0, 1 << 32, ref.imm_flops.shape, dtype=np.uint32),
        "imm_count": ref.imm_flops.shape[1],
        "imm_channels": ref.channels,
        "imm_kind": "arith",
    }
    for b in benches.values():
        b.reset(state)
    fp = mod.bench.INFO.footprint_runs
    words = mod.random_words(FOOTPRINT_WORDS, opcode=opcode, seed=opcode)
    known = refused = 0
    try:
        for k, word in enumerate(words):
            if k == FOOTPRINT_WORDS // 2:
                state["imm_kind"] = "bitvec"
                for b in benches.values():
                    b.reset(state)
            w = word.tobytes()
            ok, why, reads, writes, _ = fp(w, benches["c"].A)
            if not ok:  # not executed: run() refuses it and changes nothing (checked below)
                for b in benches.values():
                    err = _run(b.A, w)
                    assert err, f"{gen} {w.hex()}: info says not executed ({why}), run() ran it"
                refused += 1
                continue
            known += 1
            R, W = _blocks(reads), _blocks(writes)
            for b in benches.values():
                _check_word(b, w, R, W)
                b.restore(b.A, W)  # put back what it may change; anything else stays changed
                b.restore(b.B, W + R)
    finally:
        changed = {backend: b.changed() for backend, b in benches.items()}
    for backend, where in changed.items():
        assert not where, f"{gen} {opcode:#04x} {backend}: bytes outside writes changed: {where}"
    assert known + refused == FOOTPRINT_WORDS


# TENSOR_TENSOR_INT_WIDE (maverick 0xf3), ARITH_SHIFT_LEFT of UINT8 by UINT16 into INT32/INT32,
# 17 channels: src0, dst0 and dst1 all start at sbuf[16]+0 (the outputs overlap each other and
# the source). The random stimulus found it: on random memory its shift counts are 32 or more, so
# run() refuses it, and the bench compared A's unwritten bytes with B's.
WIDE_ALIASED = bytes.fromhex(
    "f310000d000017070100000053880211000000010000020208000400080400010600020108000400"
    "000000010600020208000400000000010600000208000400"
)


def _wide_word(mod: Any, src0: int, src1: int, dst0: int, dst1: int, op: str) -> bytes:
    """A hand-made TENSOR_TENSOR_INT_WIDE word: UINT32 sources, UINT32 outputs, 2 channels,
    8 elements a walk at these sbuf offsets."""
    S, E = gen_module("maverick", "structs"), gen_module("maverick", "enums")

    def m2(x: int) -> Any:
        return S.MemPattern2D.of_t(S.Tensor2D(S.Addr4.of_addr_immediate(x), (1, 8), (8, 1)))

    u32 = S.DtypePair(dtype_lo=int(E.Dtype.UINT32), dtype_hi=int(E.Dtype.UINT32))
    inst = S.S2S2D2D2_TT(header=S.Header(opcode=E.Opcode.TENSOR_TENSOR_INT_WIDE, inst_word_len=16),
                         in0_in1_dtype=u32, out0_out1_dtype=u32, op=getattr(E.AluOp, op),
                         num_active_channels=2, src0_mem_pattern=m2(src0),
                         src1_mem_pattern=m2(src1), dst0_mem_pattern=m2(dst0),
                         dst1_mem_pattern=m2(dst1))  # fmt: skip
    assert not mod.explain(inst), mod.explain(inst)
    return bytes(inst.to_bytes())


def _small_counts(ex: Any, w: bytes) -> None:
    """Make every shift count `w`'s src1 reads (UINT16, the second span of each pair of bytes
    from 0x408 on) less than 32 on `ex`, so that the word runs."""
    for s in gen_module("maverick").info(w).reads:
        if s.region == "sbuf" and s.start >= 0x408:
            ex.sbuf[s.partition, s.start : s.stop : 2] &= 0x1F
            ex.sbuf[s.partition, s.start + 1 : s.stop : 2] = 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_aliased_outputs_keep_the_footprint(backend: str) -> None:
    """Regression: words whose outputs overlap each other and their sources hold the footprint
    guarantee, run or refused when they run, on each backend; and where they run, both backends
    leave the same bytes (the documented order: both results from the sources as they were,
    dst0 written, then dst1 over it)."""
    mod = gen_module("maverick")
    words = [
        WIDE_ALIASED,  # shift counts 32 or more on random memory: refused when it runs
        _wide_word(mod, 0x0, 0x100, 0x0, 0x4, "ADD_INT"),  # dst0 = src0, dst1 one element on
        _wide_word(mod, 0x0, 0x100, 0x100, 0x0, "MULT_UINT"),  # dst0 = src1, dst1 = src0
    ]
    bench = Bench(mod, backend, seed=7)
    for made_to_run in (False, True):
        if made_to_run:  # the aliased shift word again, with counts that let it run
            for ex in (bench.A, bench.B):
                _small_counts(ex, WIDE_ALIASED)
        for w in words:
            ok, why, reads, writes, _ = mod.bench.INFO.footprint_runs(w, bench.A)
            assert ok, why
            _check_word(bench, w, _blocks(reads), _blocks(writes))
    assert _run(mod.Executor(backend=backend), words[1]) == ""


def test_aliased_outputs_are_the_same_on_both_backends() -> None:
    """The aliased words leave the same memory on the numpy and the C backend."""
    mod = gen_module("maverick")
    words = [
        WIDE_ALIASED,
        _wide_word(mod, 0x0, 0x100, 0x0, 0x4, "ADD_INT"),
        _wide_word(mod, 0x0, 0x100, 0x100, 0x0, "MULT_UINT"),
    ]
    rng = np.random.default_rng(11)
    image = rng.integers(0, 256, mod.Executor(backend="numpy").sbuf.shape, dtype=np.uint8)
    after = {}
    for backend in BACKENDS:
        ex = mod.Executor(backend=backend)
        ex.sbuf[:] = image
        _small_counts(ex, WIDE_ALIASED)
        for w in words:
            assert _run(ex, w) == ""
        after[backend] = ex.sbuf.copy()
    assert np.array_equal(after["numpy"], after["c"])


def test_footprint_runs_are_the_spans() -> None:
    """`footprint_runs` is `info`'s footprint: the same verdict, and one Span a run."""
    mod = gen_module("maverick")
    ex = mod.Executor(backend="numpy")
    ex.set_register(3, 0x100)
    words = mod.random_words(300, seed=4)
    from tpb_isa._runtime import info as I

    for w in words:
        inf = mod.info(w, ex)
        ok, why, reads, writes, regs = mod.bench.INFO.footprint_runs(w, ex)
        assert (ok, why, regs) == (inf.footprint_known, inf.why, inf.registers)
        assert (tuple(I._spans(reads)), tuple(I._spans(writes))) == (inf.reads, inf.writes)


def test_info_fields() -> None:
    mod = gen_module("mariana")
    from tpb_isa.mariana import enums as E
    from tpb_isa.mariana import structs as S

    t = S.Tensor3D(S.Addr4.of_addr_immediate(0x40), step_elem=(1, 1, 1), num_elem=(8, 1, 1))
    inst = S.S3D3_TS(
        header=S.Header(E.Opcode.TENSOR_SCALAR_ARITH_OP, 16),
        events=S.Events(wait_mode=E.WaitMode.WAIT_FOR_SEM_GE_IMM, wait_idx=3, semaphore_value=7),
        src_mem_pattern=S.MemPattern3D.of_t(t),
        in_dtype=E.Dtype.FP32,
        out_dtype=E.Dtype.BFLOAT16,
        num_active_channels=2,
        op0=E.AluOp.MULT,
        op1=E.AluOp.BYPASS,
        imm0=S.ImmValInstField.of_imm_arith_fp32(2.0),
        dst_mem_pattern=S.MemPattern3D.of_t(
            S.Tensor3D(S.Addr4.of_addr_immediate(0x1000), (1, 1, 1), (8, 1, 1))
        ),
    )
    inf = mod.info(inst.to_bytes())
    assert inf.mnemonic == "TENSOR_SCALAR_ARITH_OP" and inf.struct == "S3D3_TS"
    assert inf.footprint_known and inf.registers == ()
    Span = mod.bench.Span
    assert inf.reads == (Span("sbuf", 0, 0x40, 0x60), Span("sbuf", 1, 0x40, 0x60))
    assert inf.writes == (Span("sbuf", 0, 0x1000, 0x1010), Span("sbuf", 1, 0x1000, 0x1010))
    assert [(s.mode, s.index, s.value) for s in inf.waits] == [("WAIT_FOR_SEM_GE_IMM", 3, 7)]
    assert inf.updates == ()
    # a refused opcode: known to decode, footprint not known, never guessed
    t93 = bytearray(inst.to_bytes())
    t93[0] = 0x93
    refused = mod.info(bytes(t93))
    assert not refused.footprint_known and refused.reads == () and "not executed" in refused.why
    # a register-held address needs the machine's registers
    reg = bytearray(inst.to_bytes())
    reg[16:20] = bytes([5, 0, 0, 0x80])  # src start_addr: register 5
    assert mod.info(bytes(reg)).registers == (5,) and not mod.info(bytes(reg)).footprint_known
    ex = mod.Executor(backend="numpy")
    ex.set_register(5, 0x80)
    with_reg = mod.info(bytes(reg), ex)
    assert with_reg.footprint_known and with_reg.reads[0] == Span("sbuf", 0, 0x80, 0xA0)
    assert mod.info_batch(np.frombuffer(inst.to_bytes() * 3, dtype=np.uint8))[2] == inf
    with pytest.raises(ValueError):
        mod.info(bytes(64))


@pytest.mark.parametrize("gen", sweep(GENERATIONS, (GENERATIONS[0], GENERATIONS[-1])))
def test_info_batch_is_info_of_each_word(gen: str) -> None:
    """`info_batch` gives exactly `[info(w) for w in words]` on valid words of every opcode,
    valid words with a byte changed (mostly invalid), words with random bytes under a decodable
    opcode, and repeats."""
    mod = gen_module(gen)
    rng = np.random.default_rng(5)
    valid = mod.random_words(600, seed=5)
    near = valid[:200].copy()
    near[np.arange(200), rng.integers(1, 64, 200)] ^= rng.integers(1, 256, 200, dtype=np.uint8)
    assert not mod.validate_batch(near, backend="numpy").all()
    noise = rng.integers(0, 256, (200, 64), dtype=np.uint8)
    noise[:, 0] = rng.choice(np.unique(valid[:, 0]), size=200)
    W = np.vstack([valid, near, noise, valid[:50]])
    W = W[rng.permutation(len(W))]
    assert mod.info_batch(W) == [mod.info(w) for w in W]
    assert mod.info_batch(W[:0]) == []
    # random valid words of every opcode the executor runs (most of them are not the plain
    # strides the batch takes from the planner's walks: gathers, errors, registers, pointers,
    # refused values), on the reset state and on a machine's (registers, ImmLd flops loaded)
    per_op = np.vstack(
        [mod.random_words(60, opcode=op, seed=op) for op in mod.Executor.executable()]
    )
    assert mod.info_batch(per_op) == [mod.info(w) for w in per_op]
    # the executable opcodes' words with a byte changed (most then fail a validator: `info`'s
    # own path, beside the called and planned rows of the same opcodes in one batch)
    changed = per_op.copy()
    k = len(changed)
    changed[np.arange(k), rng.integers(1, 64, k)] ^= rng.integers(1, 256, k, dtype=np.uint8)
    mixed = np.vstack([changed, per_op[::2]])
    assert not mod.validate_batch(changed, backend="numpy").all()
    assert mod.info_batch(mixed) == [mod.info(w) for w in mixed]
    ex = mod.Executor(backend="numpy")
    m = ex.engine.memory
    m.registers[:] = (rng.integers(0, 64, m.registers.shape) * 64).astype(np.uint32)
    m.imm_flops[:] = rng.integers(0, 1 << 32, m.imm_flops.shape, dtype=np.uint32)
    m.imm_count, m.imm_channels, m.imm_kind = m.imm_flops.shape[1], m.channels, "arith"
    assert mod.info_batch(per_op, ex) == [mod.info(w, ex) for w in per_op]
    assert mod.info_batch(mixed, ex) == [mod.info(w, ex) for w in mixed]
    assert mod.info_batch(W, ex) == [mod.info(w, ex) for w in W]
    with pytest.raises(ValueError):
        mod.info_batch(np.vstack([valid[:3], np.zeros((1, 64), dtype=np.uint8)]))


def test_footprint_planners_plan() -> None:
    """The column planners `info_batch` takes footprints from (program.PLANNED_WALKS) plan
    most of the random valid words of their methods that `info` finds a footprint for, with
    the walks they exist for among them (gathers, empty walks, scalars behind pointers), so
    test_info_batch_is_info_of_each_word holds them to `info`, not only the per-word path."""
    from tpb_isa._runtime.executor import program

    mod = gen_module("mariana")
    ex_cls = mod.Executor
    engine = ex_cls(backend="numpy").engine
    seen = {"gather": 0, "empty": 0, "pointer": 0}
    for op in ex_cls.executable():
        binder = ex_cls._batch_binder(op)
        planner = program.PLANNED_WALKS.get(binder.record)
        if planner is None:
            continue
        W = mod.random_words(120, opcode=op, seed=op)
        cols, ok, _, _ = binder.admit(W)
        planned, walks = planner(engine, dict(binder.fixed), cols, len(W))
        planned &= ok
        known = np.array([mod.info(w).footprint_known for w in W])
        assert not (planned & ~known).any(), f"{op:#x}: planned a word info has no footprint for"
        assert planned.sum() >= 0.8 * known.sum(), f"{op:#x}: {planned.sum()} of {known.sum()}"
        for pw in walks:
            rows = planned & (pw.active if pw.active is not None else True)
            seen["gather"] += int((rows & pw.walk.gather).sum())
            seen["empty"] += int((rows & (pw.walk.count == 0)).sum())
            seen["pointer"] += int(rows.sum()) if pw.active is not None else 0
    assert all(seen.values()), seen


def test_info_batch_spans_made_when_read() -> None:
    """`info_batch` makes its Spans when a word's reads or writes are first read: whichever
    word and field is read first, in whatever order, each is the tuple `info` gives, and
    equality, hash, repr, pickling, `dataclasses.replace` and `asdict` see the Spans; the
    InstructionInfo stays frozen."""
    import dataclasses
    import pickle

    mod = gen_module("mariana")
    W = np.vstack([mod.random_words(30, opcode=op, seed=op) for op in mod.Executor.executable()])
    ref = [mod.info(w) for w in W]
    assert any(r.reads for r in ref) and any(r.writes for r in ref)
    rng = np.random.default_rng(3)
    for _ in range(3):
        got = mod.info_batch(W)
        for k in rng.permutation(len(W)).tolist():  # one field of each word, in random order
            field = "reads" if rng.integers(2) else "writes"
            assert getattr(got[k], field) == getattr(ref[k], field)
            assert type(getattr(got[k], field)) is tuple
        assert got == ref
    got = mod.info_batch(W)
    k = next(i for i, r in enumerate(ref) if r.reads)
    assert pickle.loads(pickle.dumps(got[k])) == ref[k]
    state = vars(pickle.loads(pickle.dumps(mod.info_batch(W)[k])))  # the Spans, not the batch's
    assert type(state["reads"]) is tuple and state["reads"] == ref[k].reads
    got = mod.info_batch(W)
    assert hash(got[k]) == hash(ref[k]) and repr(got[k]) == repr(ref[k])
    got = mod.info_batch(W)
    assert dataclasses.asdict(got[k]) == dataclasses.asdict(ref[k])
    assert dataclasses.replace(mod.info_batch(W)[k], why="x") == dataclasses.replace(
        ref[k], why="x"
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        got[k].reads = ()  # type: ignore[misc]


def test_span_keeps_the_dataclass_api() -> None:
    """Span (a NamedTuple since info_batch makes tens a word) keeps what the frozen ordered
    dataclass gave: its fields by name and keyword, repr, hash of its fields, equality and
    order against Spans only (a plain tuple is never equal, and does not order with it)."""
    Span = gen_module("mariana").bench.Span
    s = Span("sbuf", 3, 0x40, 0x60)
    assert (s.region, s.partition, s.start, s.stop) == ("sbuf", 3, 0x40, 0x60)
    assert Span(region="sbuf", partition=3, start=0x40, stop=0x60) == s
    assert repr(s) == "Span(region='sbuf', partition=3, start=64, stop=96)"
    assert hash(s) == hash(("sbuf", 3, 0x40, 0x60)) and {s: 1}[Span("sbuf", 3, 64, 96)] == 1
    t = ("sbuf", 3, 0x40, 0x60)
    assert s != t and t != s and not s == t and not t == s  # noqa: SIM201
    assert s != Span("sbuf", 3, 0x40, 0x61) and not s == Span("psum", 3, 0x40, 0x60)  # noqa: SIM201
    assert sorted([s, Span("psum", 9, 0, 1), Span("sbuf", 3, 0, 1)]) == [
        Span("psum", 9, 0, 1),
        Span("sbuf", 3, 0, 1),
        s,
    ]
    assert s <= s and s >= s and not s < s and Span("sbuf", 3, 0x40, 0x61) > s
    for op in ("__lt__", "__le__", "__gt__", "__ge__"):
        with pytest.raises(TypeError):
            getattr(s, op)(t)


def test_numpy_span_merge_is_the_span_merge() -> None:
    """The numpy merge `info` uses joins exactly what `merge` joins (touching, overlapping,
    nested, in any order, over regions and partitions)."""
    from tpb_isa._runtime import info as I

    rng = np.random.default_rng(8)
    for _ in range(300):
        k = int(rng.integers(0, 12))
        runs = np.zeros((k, 3), dtype=np.int64)
        runs[:, 0] = rng.integers(0, 2, k) * (1 << 20) + rng.integers(0, 3, k)
        runs[:, 1] = rng.integers(0, 40, k)
        runs[:, 2] = runs[:, 1] + rng.integers(1, 12, k)
        spans = I._spans(runs)
        assert tuple(I._spans(I._merged(runs))) == I.merge(spans)


def test_batch_span_merge_is_each_words_merge() -> None:
    """`info_batch`'s merge of many words' walks (merged once for each stretch of partitions
    the same walks cover, then spread) gives each word the Spans `_merged` gives its runs
    partition by partition: walks over overlapping, nested and apart partition ranges, both
    regions, strides of one and more elements, reads and writes."""
    from tpb_isa._runtime import info as I

    rng = np.random.default_rng(9)
    for _ in range(60):
        walks = I._Walks()
        want: dict[int, list[list[int]]] = {}
        for _ in range(int(rng.integers(1, 40))):
            row, writes, region = (
                int(rng.integers(0, 6)),
                int(rng.integers(0, 2)),
                int(rng.integers(0, 2)),
            )
            p0, nparts = int(rng.integers(0, 20)), int(rng.integers(1, 12))
            isz, e0 = int(rng.choice([1, 2, 4])), int(rng.integers(0, 30))
            step, count = int(rng.choice([1, 1, 2, 3])), int(rng.integers(1, 9))
            walks.one.append((row, writes, region, p0, nparts, isz, e0, step, count))
            for p in range(p0, p0 + nparts):
                for k in range(count):
                    b = (e0 + step * k) * isz
                    want.setdefault(2 * row + writes, []).append(
                        [region * (1 << 20) + p, b, b + isz]
                    )
        got = walks.spans()
        assert set(got) == set(want)
        for key, runs in want.items():
            ref = tuple(I._spans(I._merged(np.array(runs, np.int64))))
            pending = got[key]
            assert pending[0].get(pending[1], pending[2]) == ref, key


def test_refusal_keys_decide_the_error() -> None:
    """The rows one key of a method's refusals (program.REFUSALS) groups raise one error, the
    one `info` gives each of them (what lets `info_batch` call the method on one row of a key):
    on the reset state and on a machine whose flops hold an arith ImmLd; and the keys claim
    most of the rows of their methods that `info` finds no footprint for."""
    from tpb_isa._runtime.executor import program

    for gen in ("mariana", "sunda"):
        mod = gen_module(gen)
        ex_cls = mod.Executor
        for state in (None, "arith"):
            ex = ex_cls(backend="numpy")
            if state:
                m = ex.engine.memory
                m.imm_count, m.imm_channels, m.imm_kind = 3, 7, state
            claimed = failing = 0
            for op in ex_cls.executable():
                binder = ex_cls._batch_binder(op)
                refusals = program.REFUSALS.get(binder.record)
                if refusals is None:
                    continue
                W = mod.random_words(150, opcode=op, seed=op + 1)
                cols, ok, _, _ = binder.admit(W)
                keys = refusals(ex.engine, dict(binder.fixed), cols, len(W))
                infos = [mod.info(w, ex) for w in W]
                by_key: dict[tuple[int, ...], set[str]] = {}
                for i in np.flatnonzero(ok & (keys[:, 0] >= 0)).tolist():
                    assert not infos[i].footprint_known, (gen, op, i)
                    by_key.setdefault(tuple(keys[i].tolist()), set()).add(infos[i].why)
                assert all(len(whys) == 1 for whys in by_key.values()), (gen, op, by_key)
                fails = ok & ~np.array([i.footprint_known for i in infos])
                claimed += int((fails & (keys[:, 0] >= 0)).sum())
                failing += int(fails.sum())
            assert claimed >= 0.7 * failing, (gen, state, claimed, failing)
