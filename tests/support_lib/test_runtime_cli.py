"""`python -m tpb_isa` on bad input and broken environments, as a user's shell gives them: real
subprocesses, real words (the README's), real traces. Every fault is a located message and exit
2 (or the documented 1), never a traceback; `run --save-state` and a partial `--init`;
`trace-diff` by instruction, field and byte, also across `null` lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from emit.runtime_import import gen_module

from tpb_paths import REPO

ENV = {**os.environ, "PYTHONPATH": str(REPO / "generated")}


def _cli(
    *args: str, stdin: object = subprocess.DEVNULL, cwd: Path | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tpb_isa", *args],
        capture_output=True,
        text=True,
        stdin=stdin,  # type: ignore[arg-type]
        env={**ENV, **env},
        cwd=cwd,
        timeout=120,
    )


def _shell(script: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """A shell line (redirections a subprocess argument cannot say: `>&-`, `<&-`)."""
    return subprocess.run(
        ["sh", "-c", script],
        capture_output=True,
        text=True,
        env={**ENV, "PY": sys.executable, **env},
        cwd=cwd,
        timeout=120,
    )


def _clean(r: subprocess.CompletedProcess[str], code: int, *says: str) -> None:
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr
    for s in says:
        assert s in r.stderr or s in r.stdout, (s, r.stderr, r.stdout)


def _words() -> tuple[bytes, bytes]:
    """The README's two TensorScalar words: x * 2 in place at 0x0, (1 - x) * 0.5 to 0x1000."""
    m = gen_module("mariana")
    S, E = m.structs, m.enums
    t = S.Tensor3D(S.Addr4.of_addr_immediate(0x0), step_elem=(1, 1, 1), num_elem=(64, 1, 1))
    dst = S.MemPattern3D.of_t(S.Tensor3D(S.Addr4.of_addr_immediate(0x1000), (1, 1, 1), (64, 1, 1)))
    header = S.Header(E.Opcode.TENSOR_SCALAR_ARITH_OP, 16)
    one = S.S3D3_TS(header=header, src_mem_pattern=S.MemPattern3D.of_t(t),
                    in_dtype=E.Dtype.FP32, out_dtype=E.Dtype.FP32, num_active_channels=128,
                    op0=E.AluOp.MULT, op1=E.AluOp.BYPASS,
                    imm0=S.ImmValInstField.of_imm_arith_fp32(2.0),
                    dst_mem_pattern=S.MemPattern3D.of_t(t))  # fmt: skip
    two = S.S3D3_TS(header=header, src_mem_pattern=S.MemPattern3D.of_t(t), dst_mem_pattern=dst,
                    in_dtype=E.Dtype.FP32, out_dtype=E.Dtype.BFLOAT16, num_active_channels=128,
                    op0=E.AluOp.SUBTRACT, op1=E.AluOp.MULT,
                    reverse_operands=E.TensScalarRevOps.FIRST,
                    imm0=S.ImmValInstField.of_imm_arith_fp32(1.0),
                    imm1=S.ImmValInstField.of_imm_arith_fp32(0.5))  # fmt: skip
    return one.to_bytes(), two.to_bytes()


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("cli")
    one, two = _words()
    (d / "prog.bin").write_bytes(one + two + one)
    x = np.arange(128 * 64, dtype=np.float32).reshape(128, 64)
    np.savez(d / "part.npz", **{"sbuf[0]+0x0": x.view(np.uint8)})  # 2-D: rows to partitions
    r = _cli("run", "prog.bin", "--gen", "mariana", "--trace", "a.jsonl", cwd=d)
    _clean(r, 0, "run: 3 instructions executed")
    r = _cli("run", "prog.bin", "--gen", "mariana", "--init", "part.npz", "--trace", "b.jsonl",
             "--save-state", "b.npz", cwd=d)  # fmt: skip
    _clean(r, 0)
    return d


def test_save_state_holds_the_final_state_and_a_partial_init_places_bytes(work: Path) -> None:
    mod = gen_module("mariana")
    ex = mod.Executor(backend="numpy")
    x = np.arange(128 * 64, dtype=np.float32).reshape(128, 64)
    ex.write(0x0, x)
    ex.run_program((work / "prog.bin").read_bytes())
    with np.load(work / "b.npz") as saved:
        assert sorted(saved.files) == ["accumulators", "psum", "registers", "sbuf"]
        for name in saved.files:
            assert np.array_equal(saved[name], getattr(ex, name)), name
    # the saved state is an --init file: running nothing from it saves the same bytes
    (work / "empty.bin").write_bytes(b"")
    r = _cli("run", "empty.bin", "--gen", "mariana", "--init", "b.npz", "--save-state",
             "again.npz", cwd=work)  # fmt: skip
    _clean(r, 0)
    assert (work / "again.npz").read_bytes() == (work / "b.npz").read_bytes()  # deterministic
    # a place in another partition, as 1-D bytes, and a register, on top of a whole psum
    regs = np.arange(64, dtype=np.uint32)
    np.savez(work / "mix.npz", **{"registers": regs, "sbuf[5]+0x10": np.array([7, 8, 9])})
    r = _cli("run", "empty.bin", "--gen", "mariana", "--init", "mix.npz", "--save-state",
             "mix_out.npz", cwd=work)  # fmt: skip
    _clean(r, 0)
    with np.load(work / "mix_out.npz") as out:
        assert np.array_equal(out["registers"], regs)
        assert out["sbuf"][5, 0x10:0x13].tolist() == [7, 8, 9]
        assert int(out["sbuf"].sum()) == 24 and not out["psum"].any()


def test_trace_diff_names_instruction_field_and_byte(work: Path) -> None:
    r = _cli("trace-diff", "a.jsonl", "b.jsonl", cwd=work)
    _clean(r, 1, "instruction 0 (offset 0x0) differs:", "A and B: TENSOR_SCALAR_ARITH_OP")
    assert "memory: first byte written differently: sbuf[0]+0x4: A=0x00 B=0x00" not in r.stdout
    ex = gen_module("mariana").Executor(backend="numpy")
    ex.write(0x0, np.arange(128 * 64, dtype=np.float32).reshape(128, 64))
    ex.run(_words()[0])
    first = int(np.flatnonzero(ex.sbuf[0, :256])[0])  # 0 * 2 = 0 stays: the first is byte 6
    want = f"sbuf[0]+{first:#x}: A=0x00 B={ex.sbuf[0, first]:#04x}"
    assert f"memory: first byte written differently: {want}" in r.stdout
    assert "at a.jsonl:1 and b.jsonl:1" in r.stdout
    # a one-field edit of the second word: named by field, both values, and both text forms
    lines = (work / "a.jsonl").read_text().splitlines()
    rec = json.loads(lines[1])
    word = bytearray.fromhex(rec["word"])
    word[36] = gen_module("mariana").enums.AluOp.ADD  # op0 SUBTRACT -> ADD
    rec["word"] = word.hex()
    (work / "edit.jsonl").write_text("\n".join([lines[0], json.dumps(rec), lines[2]]) + "\n")
    r = _cli("trace-diff", "a.jsonl", "edit.jsonl", cwd=work)
    _clean(r, 1, "instruction 1 (offset 0x40) differs:", "field op0: A=SUBTRACT B=ADD",
           "at a.jsonl:2 and edit.jsonl:2")  # fmt: skip
    assert r.stdout.count("field ") == 1
    assert "A: TENSOR_SCALAR_ARITH_OP" in r.stdout and "B: TENSOR_SCALAR_ARITH_OP" in r.stdout
    assert "op0=SUBTRACT" in r.stdout and "op0=ADD" in r.stdout


def test_trace_diff_reads_past_null_lines_and_locates_bad_records(work: Path) -> None:
    lines = (work / "a.jsonl").read_text().splitlines()
    other = (work / "b.jsonl").read_text().splitlines()
    # both with a `null` at line 2, then different records: not "the traces agree"
    (work / "n1.jsonl").write_text(f"{lines[0]}\nnull\n{lines[1]}\n")
    (work / "n2.jsonl").write_text(f"{lines[0]}\nnull\n{other[1]}\n")
    _clean(_cli("trace-diff", "n1.jsonl", "n2.jsonl", cwd=work), 2,
           "error: n1.jsonl:2: a trace record is a JSON object, not null")  # fmt: skip
    rec = json.loads(lines[0])
    rec["offset"] = None
    (work / "off.jsonl").write_text("\n\n" + json.dumps(rec) + "\n")  # blank lines still count
    _clean(_cli("trace-diff", "a.jsonl", "off.jsonl", cwd=work), 2,
           "error: off.jsonl:3: offset is null, not an integer")  # fmt: skip
    (work / "arr.jsonl").write_text(f"{lines[0]}\n[1, 2]\n")
    _clean(_cli("trace-diff", "a.jsonl", "arr.jsonl", cwd=work), 2,
           "error: arr.jsonl:2: a trace record is a JSON object, not an array")  # fmt: skip
    (work / "bad.jsonl").write_text(f"{lines[0]}\n{lines[1]}\n{{nope\n")
    _clean(_cli("trace-diff", "bad.jsonl", "a.jsonl", cwd=work), 2,
           "error: bad.jsonl:3: not JSON")  # fmt: skip
    (work / "short.jsonl").write_text(f"{lines[0]}\n")
    _clean(_cli("trace-diff", "a.jsonl", "short.jsonl", cwd=work), 1,
           "the traces differ in length: A goes on after 1 records (a.jsonl:2)")  # fmt: skip
    _clean(_cli("trace-diff", "a.jsonl", "a.jsonl", cwd=work), 0, "the traces agree")
    r = _cli("run", "prog.bin", "--gen", "mariana", "--trace", "h.jsonl", "--trace-bytes", "hash",
             "--init", "part.npz", cwd=work)  # fmt: skip
    _clean(r, 0)
    _clean(_cli("trace-diff", "a.jsonl", "h.jsonl", cwd=work), 1,
           "memory: the bytes written differ (hashed")  # fmt: skip


def test_files_that_are_not_files(work: Path) -> None:
    (work / "file").write_bytes(b"")
    for args, says in [
        (("trace-diff", "a.jsonl", "/dev/zero"), "/dev/zero: a character device, not a regular"),
        (("trace-diff", str(work), "a.jsonl"), f"{work}: a directory, not a regular file"),
        (("trace-diff", "a.jsonl", "missing.jsonl"), "missing.jsonl: No such file"),
        (("disasm", "/dev/zero", "--gen", "mariana"), "/dev/zero: a character device"),
        (("run", "prog.bin", "-g", "mariana", "--init", "/dev/zero"), "/dev/zero: a character"),
        (("run", "prog.bin", "-g", "mariana", "--trace", str(work)), "a directory, not a file"),
        (("run", "prog.bin", "-g", "mariana", "--trace", "file/t.jsonl"), "file/t.jsonl: Not a"),
        (("run", "prog.bin", "-g", "mariana", "--save-state", str(work)), "a directory"),
        (("run", "prog.bin", "-g", "mariana", "--trace", "/proc/version"), "/proc/version: "),
        (("asm", "-", "-o", str(work), "-g", "mariana"), f"{work}: a directory"),
        (("cover", "prog.bin", "-g", "mariana", "--html", str(work)), f"{work}: a directory"),
    ]:
        _clean(_cli(*args, cwd=work, stdin=None if args[0] != "asm" else subprocess.DEVNULL), 2,
               says)  # fmt: skip
    fifo = work / "fifo"
    os.mkfifo(fifo)
    _clean(_cli("disasm", str(fifo), "-g", "mariana", cwd=work), 2, "fifo: a FIFO, not a regular")
    _clean(_cli("run", "prog.bin", "-g", "mariana", "--trace", str(fifo), cwd=work), 2,
           "fifo: a FIFO, not a file to write")  # fmt: skip


def test_init_files_that_are_no_state(work: Path) -> None:
    np.save(work / "one.npy", np.zeros(3, np.uint8))
    (work / "random.npz").write_bytes(bytes(range(256)) * 8)
    whole = (work / "b.npz").read_bytes()
    (work / "cut.npz").write_bytes(whole[: len(whole) // 2])
    np.savez(work / "f64.npz", sbuf=np.zeros((128, 262144)))
    neg = np.zeros((128, 262144), np.int64)
    neg[3, 17] = -5
    np.savez(work / "neg.npz", sbuf=neg)
    np.savez(work / "huge.npz", accumulators=np.full(128, 1.7e300))
    np.savez(work / "obj.npz", registers=np.array([object()] * 64))
    np.savez(work / "where.npz", **{"sbuf[127]+0x3fffe": np.zeros(4, np.uint8)})
    np.savez(work / "name.npz", **{"dram": np.zeros(4, np.uint8)})
    for path, says in [
        ("one.npy", "one.npy: one .npy array, not an .npz archive"),
        ("random.npz", "random.npz: not an .npz archive"),
        ("cut.npz", "cut.npz: a damaged .npz archive"),
        ("f64.npz", "f64.npz#sbuf: float64 values; the machine holds uint8 here"),
        ("neg.npz", "neg.npz#sbuf[3, 17]: -5 is outside uint8 (0..255)"),
        ("huge.npz", "huge.npz#accumulators[0]: 1.7e+300 is not a float32 value exactly"),
        ("obj.npz", "obj.npz#registers: an object array"),
        ("where.npz", "where.npz#sbuf[127]+0x3fffe: 1 partitions x 4 bytes from partition 127"),
        ("name.npz", "name.npz#dram: not a part of the state"),
    ]:
        r = _cli("run", "prog.bin", "-g", "mariana", "--init", path, "--trace", "no.jsonl",
                 cwd=work)  # fmt: skip
        _clean(r, 2, f"error: {says}")
        assert "pickled" not in r.stderr
        assert not (work / "no.jsonl").exists()  # nothing written for a refused state


def test_closed_and_full_standard_streams(work: Path) -> None:
    run = '"$PY" -m tpb_isa'
    _clean(_shell(f"{run} disasm prog.bin -g mariana >&-", work), 2,
           "error: standard output: closed")  # fmt: skip
    _clean(_shell(f"{run} disasm prog.bin -g mariana >/dev/full", work), 2,
           "error: standard output: No space left on device")  # fmt: skip
    _clean(_shell(f"{run} disasm - -g mariana <&-", work), 2, "error: standard input: closed")
    _clean(_shell(f"{run} disasm - -g mariana </dev/zero", work), 2,
           "error: standard input: a character device")  # fmt: skip
    r = _shell(f"head -c 3000000 /dev/zero | {run} disasm - -g mariana", work,
               TPB_ISA_MAX_INPUT_MB="1")  # fmt: skip
    _clean(r, 2, "error: standard input: more than 1 MB (TPB_ISA_MAX_INPUT_MB")
    r = _shell(f"{run} disasm prog.bin -g mariana | head -c 1 >/dev/null", work)
    _clean(r, 0)  # the shell's status is head's; the point is no traceback on EPIPE
    # commands that write no standard output run with it closed
    _clean(_shell(f"{run} asm - -o out.bin -g mariana <&- >&-", work), 2,
           "standard input: closed")  # fmt: skip
    _clean(_shell(f"{run} run prog.bin -g mariana >&-", work), 0)


def test_every_option_has_help() -> None:
    """Every option and argument of every command says what it is (`--gen` did not)."""
    import tpb_isa
    from tpb_isa._runtime import cli

    p = cli.parser(tpb_isa)
    subs = next(a for a in p._actions if a.dest == "command").choices
    assert all(a.help for a in p._actions)
    seen = 0
    for name, sp in subs.items():
        for action in sp._actions:
            if action.dest == "help":
                continue
            seen += 1
            assert action.help, (name, action.option_strings or action.dest)
    assert seen >= 20
    r = _cli("run", "--help")
    _clean(r, 0, "--gen G", "--save-state OUT.npz", "sbuf[P]+OFF")
