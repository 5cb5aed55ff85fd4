"""Validation throughput: scalar Python validators, the numpy batch path and the compiled C predicates.

    python benchmarks/validate.py [--gen mariana] [--words 1000000] [--scalar-words 1000000]

One run, one mixed corpus: valid TensorScalar-family words of every top-level validator, each
with 0-3 random byte mutations (so verdicts are mixed), in random order. Words per second for
each path, as ratios against the compiled C predicates (the baseline). --scalar-words can time
the scalar path on a prefix only, for a quicker run. All three must agree on every timed word.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "generated"))
sys.path.insert(0, str(REPO / "tests"))  # the compiled-C harness lives with the tests (support/cpredicates.py)


def seed_words(m) -> list[bytes]:  # type: ignore[no-untyped-def]
    """Accepted words for each top-level validator, built from the generated struct classes."""
    S, E = m.structs, m.enums
    mem = S.S3D3_TS.__dataclass_fields__["src_mem_pattern"].type == "MemPattern3D"  # mariana+ use the union

    def t3(addr: int, n: int):  # type: ignore[no-untyped-def]
        t = S.Tensor3D(S.Addr4.of_addr_immediate(addr), (1, 1, 1), (n, 1, 1))
        return S.MemPattern3D.of_t(t) if mem else t

    def ts(op: int, **kw: object) -> bytes:
        base = dict(header=S.Header(op, 16), src_mem_pattern=t3(0, 64), in_dtype=E.Dtype.FP32, out_dtype=E.Dtype.FP32,
                    num_active_channels=128, op0=E.AluOp.ADD, op1=E.AluOp.BYPASS, imm0=S.ImmValInstField.of_imm_arith_fp32(2.0),
                    dst_mem_pattern=t3(0x1000, 64))
        base.update(kw)
        return S.S3D3_TS(**base).to_bytes()

    def t4(addr: int, w: int):  # type: ignore[no-untyped-def]
        return S.Tensor4D(S.Addr4.of_addr_immediate(addr), (1, 16, 32, 64), (16, 2, 2, w))

    words = [ts(0x43), ts(0x44, imm0=S.ImmValInstField.of_imm_ptr(0x100), imm1=S.ImmValInstField.of_imm_ptr(0x200)),
             ts(0x9A, accumulator_cmd=E.AccumCmd.ZERO_ACCUMULATE, op0=E.AluOp.MULT, op1=E.AluOp.ADD),
             ts(0xE6, accumulator_cmd=E.AccumCmd.ZERO_ACCUMULATE, op0=E.AluOp.MULT, op1=E.AluOp.ADD),
             S.S4D4_TSM(S.Header(0x4F, 16), src_mem_pattern=t4(0, 8), in_dtype=E.Dtype.FP32, out_dtype=E.Dtype.FP32, num_active_channels=128,
                        op=E.AluOp.MULT, op_dim=E.TensorSubdim.XYZ, dst_mem_pattern=t4(0x4000, 8)).to_bytes(),
             S.S2_BN(S.Header(0x70, 16), src_mem_pattern=S.Tensor2D(S.Addr4.of_addr_immediate(0), (1, 8), (8, 1)), dtype=E.Dtype.FP32,
                     num_active_channels=128).to_bytes()]
    if 0x30 in m.validators.DISPATCH:
        words.append(ts(0x30, op0=E.AluOp.BYPASS, imm0=S.ImmValInstField.of_imm_arith_fp32(0.0)))
    return words


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", default="mariana")
    ap.add_argument("--words", type=int, default=1_000_000)
    ap.add_argument("--scalar-words", type=int, default=1_000_000)
    args = ap.parse_args()
    from tpbgen import cpredicates

    m = importlib.import_module(f"tpb_isa.{args.gen}")
    batch = importlib.import_module(f"tpb_isa.{args.gen}.batch")
    seeds = np.frombuffer(b"".join(seed_words(m)), dtype=np.uint8).reshape(-1, 64)
    rng = np.random.default_rng(1)
    W = seeds[rng.integers(0, len(seeds), size=args.words)].copy()
    for _ in range(3):  # up to three random byte mutations per word
        rows = np.flatnonzero(rng.random(args.words) < 0.5)
        W[rows, rng.integers(1, 64, size=rows.size)] = rng.integers(0, 256, size=rows.size, dtype=np.uint8)
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        sys.exit("a C compiler is needed for the C baseline")
    tpb = REPO / "vendor_headers" / f"neuron_{args.gen}_arch_isa" / "tpb"
    with tempfile.TemporaryDirectory() as tmp:
        c = cpredicates.build(cc, tpb, tuple(m.TOP_LEVEL), Path(tmp))
        ops = W[:, 0]

        def c_validate(words: np.ndarray) -> np.ndarray:
            out = np.zeros(words.shape[0], dtype=bool)
            for name, opcodes in m.TOP_LEVEL.items():
                rows = np.flatnonzero(np.isin(words[:, 0], opcodes))
                out[rows] |= c.run(name, words[rows])
            return out

        t0 = time.perf_counter()
        want = c_validate(W)
        t_c = time.perf_counter() - t0
    t0 = time.perf_counter()
    got_b = batch.validate_batch(W)
    t_b = time.perf_counter() - t0
    n_s = min(args.scalar_words, args.words)
    rows = [bytes(r) for r in W[:n_s]]
    t0 = time.perf_counter()
    got_s = [m.validate(r) for r in rows]
    t_s = time.perf_counter() - t0
    assert (got_b == want).all(), "batch disagrees with C"
    assert (np.array(got_s) == want[:n_s]).all(), "scalar disagrees with C"
    rate_c, rate_b, rate_s = args.words / t_c, args.words / t_b, n_s / t_s
    print(f"{args.gen}: {args.words} mixed words ({int(want.sum())} accepted, {len(set(ops.tolist()))} opcodes)")
    print(f"baseline  compiled C predicates (-O2, cffi) : {rate_c:14,.0f} words/s  1.000x")
    print(f"numpy     batch validators                  : {rate_b:14,.0f} words/s  {rate_b / rate_c:.3f}x")
    print(f"python    scalar validators ({n_s} words)  : {rate_s:14,.0f} words/s  {rate_s / rate_c:.4f}x  (batch is {rate_b / rate_s:.0f}x scalar)")


if __name__ == "__main__":
    main()
