"""`info`: the footprint guarantee against the executor on random memory, both backends, every
generation: every byte `run()` changes lies in `writes`, and bytes outside `reads` cannot change
what it writes (two machines that agree only on `reads` write the same bytes). Batched: the
writes are restored after each word and the whole memory compared once per opcode, so a byte
changed outside `writes` by any word of the batch is still there to find."""

from __future__ import annotations

import numpy as np
import pytest
from emit.runtime_import import gen_module

from tpb_paths import GENERATIONS

WORDS_PER_OPCODE = 100


def _region(ex: object, name: str) -> np.ndarray:
    return ex.sbuf if name == "sbuf" else ex.psum  # type: ignore[attr-defined]


@pytest.mark.parametrize("backend", ["numpy", "c"])
@pytest.mark.parametrize("gen", GENERATIONS)
def test_footprint_holds_on_random_memory(gen: str, backend: str) -> None:
    mod = gen_module(gen)
    ex_mod = gen_module(gen, "executor")
    rng = np.random.default_rng(len(gen))
    A, B = mod.Executor(backend=backend), mod.Executor(backend=backend)
    for ex in (A, B):
        ex.sbuf[:] = rng.integers(0, 256, ex.sbuf.shape, dtype=np.uint8)
        ex.psum[:] = rng.integers(0, 256, ex.psum.shape, dtype=np.uint8)
    pristine = {id(ex): (ex.sbuf.copy(), ex.psum.copy()) for ex in (A, B)}
    checked = writing = 0
    stim = mod.bench.STIMULUS
    for op in stim.reached():
        if op not in ex_mod.EXECUTABLE:
            continue
        words = mod.random_words(WORDS_PER_OPCODE * 4, opcode=op, seed=11)
        done = 0
        for w in words:
            inf = mod.info(w, A)
            if not inf.footprint_known:
                continue  # refused, a dtype or address form not modelled, no ImmLd before it
            writing += bool(inf.writes)
            for s in inf.reads:  # B agrees with A on the reads only
                _region(B, s.region)[s.partition, s.start : s.stop] = _region(A, s.region)[
                    s.partition, s.start : s.stop
                ]
            A.run(w)
            B.run(w)
            for s in inf.writes:
                a = _region(A, s.region)[s.partition, s.start : s.stop]
                b = _region(B, s.region)[s.partition, s.start : s.stop]
                assert np.array_equal(a, b), f"{gen} {op:#04x} {bytes(w).hex()}: {s} differs"
            for ex in (A, B):  # put back what it may have changed; anything else stays changed
                sb, ps = pristine[id(ex)]
                for s in inf.writes + (inf.reads if ex is B else ()):
                    src = sb if s.region == "sbuf" else ps
                    _region(ex, s.region)[s.partition, s.start : s.stop] = src[
                        s.partition, s.start : s.stop
                    ]
            done += 1
            if done == WORDS_PER_OPCODE:
                break
        for ex in (A, B):
            sb, ps = pristine[id(ex)]
            assert np.array_equal(ex.sbuf, sb) and np.array_equal(ex.psum, ps), (
                f"{gen} {op:#04x}: a byte outside the writes of some word changed"
            )
        checked += done
    assert checked >= WORDS_PER_OPCODE * 5 and writing >= 25, (checked, writing)


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


@pytest.mark.parametrize("gen", GENERATIONS)
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
    with pytest.raises(ValueError):
        mod.info_batch(np.vstack([valid[:3], np.zeros((1, 64), dtype=np.uint8)]))


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
