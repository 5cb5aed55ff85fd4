"""The text form of instruction words: `asm(disasm(w)) == w` for every word, located assembler
errors, the dict form, reprs, and `python -m tpb_isa` on large files."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headers import tpb_words as w
from tpb_paths import GENERATIONS, REPO
from tpb_scale import scale, sweep

from .runtime_import import gen_module

ROUND_TRIP_WORDS = scale(20_000, 100_000)  # per generation (tpb_scale: 10^5 in CI)
LARGE_FILE_WORDS = scale(20_000, 100_000)  # the CLI's listing of one file
F32_EDGES = (
    0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7FA00001, 0x7F800001,
    0xFFFFFFFF, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0x3F800000, 0x3DCCCCCD,
)  # fmt: skip


def corpus(gen: str, n: int, seed: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """`n` words: random bytes under every decodable opcode, sparse ones (mostly zero, so
    reserved fields, padding and default arms are exercised), float edge values (NaN payloads,
    signalling NaNs, -0.0, infinities, subnormals) at every 4-byte offset, all-0xFF words, and
    words of every opcode byte (defined or not); `n` is at least 1,280."""
    decode = gen_module(gen, "decode")
    ops = np.array(sorted(decode.OPCODE_STRUCT), dtype=np.uint8)
    rng = np.random.default_rng(seed)
    W = rng.integers(0, 256, size=(n, 64), dtype=np.uint8)
    k = n // 5
    W[:k, 0] = rng.choice(ops, size=k)  # random fields under a decodable opcode
    sparse = rng.random((k, 64)) < 0.85
    W[k : 2 * k][sparse] = 0
    W[k : 2 * k, 0] = rng.choice(ops, size=k)
    edges = np.array(F32_EDGES, dtype="<u4").view(np.uint8).reshape(-1, 4)
    for r in range(2 * k, 3 * k):
        W[r, 0] = ops[r % len(ops)]
        for off in range(4, 64, 4):
            if rng.random() < 0.5:
                W[r, off : off + 4] = edges[rng.integers(len(edges))]
    W[3 * k : 3 * k + 256, 0] = np.arange(256, dtype=np.uint8)  # every opcode byte, random rest
    W[3 * k + 256 : 3 * k + 512] = 0xFF
    W[3 * k + 256 : 3 * k + 512, 0] = np.resize(ops, 256)
    # the rest stays plain random bytes (mostly opcodes that do not decode: .word)
    return W


def _round_trip_chunk(args: tuple[str, int, int, int]) -> tuple[int, list[str]]:
    gen, n, seed, _start = args
    sys.path.insert(0, str(REPO / "generated"))
    m = gen_module(gen)
    W = corpus(gen, n, seed)
    bad = []
    for i in range(W.shape[0]):
        word = W[i].tobytes()
        text = m.disasm(word)
        if "\n" in text or m.asm(text) != word:
            bad.append(f"{word.hex()} -> {text!r}")
    return W.shape[0], bad[:5]


@pytest.mark.parametrize("gen", GENERATIONS)
def test_round_trip_every_word(gen: str) -> None:
    """asm(disasm(w)) == w over ROUND_TRIP_WORDS words per generation (10^5 at the full scale;
    two processes share the work)."""
    half = ROUND_TRIP_WORDS // 2
    with ProcessPoolExecutor(2) as pool:
        results = list(pool.map(_round_trip_chunk, [(gen, half, 1, 0), (gen, half, 2, half)]))
    assert sum(n for n, _ in results) == ROUND_TRIP_WORDS
    bad = [b for _, bs in results for b in bs]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("gen", GENERATIONS)
def test_batch_listing_is_the_scalar_text(gen: str) -> None:
    """`disasm_rows` (the batch path the listing reads) gives `disasm`'s text byte for byte,
    full and compact, over the corpus (random, sparse, float edges, every opcode byte, 0xFF),
    in batches that cross its chunk size and in a batch of one row."""
    m = gen_module(gen)
    form = gen_module(gen, "decode").TEXT
    W = corpus(gen, 6000, 11)
    for compact in (False, True):
        batch = list(form.disasm_rows(W, compact=compact))
        scalar = [m.disasm(W[i], compact=compact) for i in range(W.shape[0])]
        bad = [i for i in range(W.shape[0]) if batch[i] != scalar[i]]
        assert not bad, f"row {bad[0]}: {batch[bad[0]]!r} != {scalar[bad[0]]!r}"
        assert list(form.disasm_rows(W[5:6], compact=compact)) == scalar[5:6]
    assert list(form.disasm_rows(W[:0])) == []


# what to_dict gave before it walked the fields itself: the word's text, re-parsed


def text_module(name: str) -> Any:
    """A module of the runtime's text package (`grammar`, `batch_asm`, ...: what they hold is
    not the package's API)."""
    package = type(gen_module("mariana", "decode").TEXT).__module__.rsplit(".", 1)[0]
    return sys.modules[f"{package}.{name}"]


def reparsed_value(tk: Any) -> Any:
    tok = tk.next()
    kind = text_module("grammar").num_kind(tok)
    if kind == "int":
        return int(tok, 0)
    if kind == "float":
        return tok if tok.startswith("nan") else float(tok)
    if tok == "{":
        fields = reparsed_fields(tk, "}")
        tk.expect("}")
        return fields
    if tok == "[":
        items: list[Any] = []
        while tk.peek() != "]":
            if items:
                tk.expect(",")
            items.append(reparsed_value(tk))
        tk.next()
        return items
    if tok.lower() in ("sbuf", "psum") and tk.peek() == "[":
        tk.next()
        part = tk.next()
        tk.expect("]")
        tk.expect("+")
        return f"{tok}[{part}]+{tk.next()}"
    return {"true": True, "false": False}.get(tok, tok)


def reparsed_fields(tk: Any, closer: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    while tk.peek() != closer:
        key = tk.next()
        if key == "@":
            key += tk.next()
        elif tk.peek() == ".":
            tk.next()
            key += "." + tk.next()
        tk.expect("=")
        out[key] = reparsed_value(tk)
    return out


@pytest.mark.parametrize("gen", GENERATIONS)
def test_dict_form_is_its_text_read_back(gen: str) -> None:
    """`to_dict` walks the fields (no text, no parse) and gives what reading its own `disasm`
    text back gives: the same keys, order, arms, value types and values, over the corpus."""
    text = gen_module(gen, "decode").TEXT
    W = corpus(gen, 3000, 5)
    for i in range(W.shape[0]):
        b = W[i].tobytes()
        got = text.to_dict(b)
        if text.decoder.structs.get(b[0]) is None:
            assert got == {"opcode": None, "hex": b.hex()}
            continue
        tk = text_module("grammar").Tokens(text.disasm(b), 1)
        tk.next()
        want = {"opcode": tk.toks[0], "fields": reparsed_fields(tk, ""), "hex": b.hex()}
        assert json.dumps(got) == json.dumps(want), b.hex()


def test_text_of_a_valid_word() -> None:
    m = gen_module("mariana")
    word = w.s3d3_ts(op0=w.MULT, op1=w.ADD, imm1=1.5, rev=w.BOTH)
    text = m.disasm(word)
    assert text.startswith(
        "TENSOR_SCALAR_ARITH_OP header={inst_word_len=16 debug_cmd=0 debug_hint=0} "
    )
    for part in ("src_mem_pattern={start_addr=sbuf[0]+0x0 step_elem=[1,1,1] num_elem=[64,1,1]}",
                 "in_dtype=FP32", "op0=MULT", "op1=ADD", "reverse_operands=BOTH", "imm0=2.0", "imm1=1.5",
                 "dst_mem_pattern={start_addr=sbuf[0]+0x1000"):  # fmt: skip
        assert part in text.split(" ") or part in text, part
    assert "reserved" not in text and "@" not in text
    ptr = m.disasm(w.s3d3_ts(imm0_src=w.PTR_IMM, imm0=0x100))
    assert "imm0=sbuf[0]+0x100" in ptr


@pytest.mark.parametrize(
    ("bits", "shown"),
    [(0x3FC00000, "1.5"), (0x80000000, "-0.0"), (0x7F800000, "inf"), (0xFF800000, "-inf"),
     (0x7FC00000, "nan:0x7fc00000"), (0x7FA00001, "nan:0x7fa00001"), (0xFFC00001, "nan:0xffc00001"),
     (0x00000001, "1e-45"), (0x3DCCCCCD, "0.1")],
)  # fmt: skip
def test_float_immediates_exact(bits: int, shown: str) -> None:
    m = gen_module("mariana")
    word = bytearray(w.s3d3_ts())
    struct.pack_into("<I", word, 40, bits)
    text = m.disasm(bytes(word))
    assert f" imm0={shown} " in text
    assert m.asm(text) == bytes(word)


def test_bytes_no_field_shows() -> None:
    m = gen_module("mariana")
    word = bytearray(w.s3d3_ts())
    word[13] = 0x5A  # reserved0[0]
    word[32] = 0xEE  # in_dtype: not a DTYPE enumerator
    word[36] = 0x7E  # op0: not an ALU_OP enumerator
    text = m.disasm(bytes(word))
    assert "reserved0=[90,0,0]" in text and "in_dtype=0xee" in text and "op0=0x7e" in text
    assert m.asm(text) == bytes(word)
    # a register-form address: the marker byte is set, so the register arm is shown
    word = bytearray(w.s3d3_ts())
    word[16:20] = bytes([5, 0, 0, 0x80])
    text = m.disasm(bytes(word))
    assert "start_addr.addr_reg={regnum=5 marker=128}" in text
    assert m.asm(text) == bytes(word)


def test_undecodable_words_are_raw() -> None:
    cayman = gen_module("cayman")
    dual = w.s4d4_tsm(w.DUAL_ARITH)  # 0x87: SUNDA only
    assert cayman.disasm(dual) == ".word 0x" + dual.hex()
    assert cayman.asm(cayman.disasm(dual)) == dual
    assert gen_module("sunda").disasm(dual).startswith("TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH ")
    assert cayman.disasm(bytes(64)) == ".word 0x" + "00" * 64


def test_assembly_grammar() -> None:
    m = gen_module("mariana")
    program = """
        ; a comment line, then a blank one

        tensor_scalar_arith_op In_Dtype=fp32 out_dtype=FP32 num_active_channels=128 op0=mult imm0=2.0  ; trailing
        TENSOR_SCALAR_ARITH_OP imm0.imm_bitvec_uint32=0x3fc00000 imm1=nan src_mem_pattern={start_addr=psum[1]+0x40}
    """
    text_form = gen_module("mariana", "decode").TEXT
    words = text_form.asm_lines(program)
    assert len(words) == 2 and m.asm(program) == b"".join(words)
    a = m.decode(words[0])
    assert (
        a.header.inst_word_len == 16
        and a.op0 == m.enums.AluOp.MULT
        and a.num_active_channels == 128
    )
    assert a.imm0.imm_arith_fp32 == 2.0 and a.op1 == m.enums.AluOp.BYPASS  # omitted: the default
    b = m.decode(words[1])
    assert b.imm0.imm_arith_fp32 == 1.5 and words[1][44:48] == bytes.fromhex("0000c07f")
    assert b.src_mem_pattern.t.start_addr.addr_immediate == text_form.addresses.psum_addr(1, 0x40)


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("FROB x=1", "1:1", "'FROB' is not a mariana opcode"),
        ("TENSOR_SCALAR_ARITH_OP op0=FOO", "1:28", "'FOO' is not a member of AluOp"),
        (
            "TENSOR_SCALAR_ARITH_OP num_active_channels=300",
            "1:44",
            "num_active_channels (uint8_t) is 0..255, not 300",
        ),
        ("TENSOR_SCALAR_ARITH_OP imm0=1.5 imm0=2", "1:33", "field imm0 is given twice"),
        (
            "TENSOR_SCALAR_ARITH_OP src_mem_pattern={step_elem=[1,2]}",
            "1:41",
            "step_elem takes 3 elements, 2 given",
        ),
        ("TENSOR_SCALAR_ARITH_OP op0=$", "1:28", "expected a value for op0, found '$'"),
        (
            "TENSOR_SCALAR_ARITH_OP in_dtype=1.5",
            "1:33",
            "in_dtype is an integer field (NEURON_ISA_TPB_DTYPE), not a float",
        ),
        (
            "TENSOR_SCALAR_ARITH_OP src_mem_pattern={start_addr=sbuf[200]+0}",
            "1:52",
            "SBUF partition 200 does not exist (0..127)",
        ),
        ("TENSOR_SCALAR_ARITH_OP header={opcode=3}", "1:32", "the opcode is the mnemonic"),
        ("TENSOR_SCALAR_ARITH_OP imm0.foo=1", "1:24", "imm0 has no arm 'foo'"),
        (
            "TENSOR_SCALAR_ARITH_OP src_mem_pattern={",
            "1:41",
            "expected '}', found the end of the line",
        ),
        ("TENSOR_SCALAR_ARITH_OP nope=1", "1:24", "S3D3_TS has no field 'nope'"),
        (".word 0x12", "1:7", ".word takes 0x and the word's 64 bytes"),
        (".byte 1", "1:1", "unknown directive .byte"),
        ("\n\nTENSOR_SCALAR_ARITH_OP @64=1", "3:25", "a byte offset is 0..63, not 64"),
        (
            "TENSOR_SCALAR_ARITH_OP imm0=nan:0x1ffffffff",
            "1:29",
            "is wider than imm_arith_fp32's 4 bytes",
        ),
        (  # C reads 016 as octal 14; the text form never writes it, so it is refused, located
            "TENSOR_SCALAR_ARITH_OP num_active_channels=016",
            "1:44",
            "a decimal with a leading zero",
        ),
    ],
)
def test_assembler_errors_are_located(text: str, where: str, message: str) -> None:
    m = gen_module("mariana")
    with pytest.raises(m.AsmError) as exc:
        m.asm(text)
    assert exc.value.where == where and message in exc.value.message, str(exc.value)


@pytest.mark.parametrize("gen", GENERATIONS)
def test_dict_form_round_trips_through_json(gen: str) -> None:
    m = gen_module(gen)
    W = corpus(gen, 3000, 7)
    for i in range(W.shape[0]):
        word = W[i].tobytes()
        d = json.loads(json.dumps(m.to_dict(word)))
        assert m.from_dict(d) == word, d
    d = (
        m.to_dict(w.s3d3_ts(op0=w.MULT, op1=w.ADD, imm1=1.5, rev=w.BOTH))
        if gen != "sunda"
        else None
    )
    if d is not None:
        assert d["opcode"] == "TENSOR_SCALAR_ARITH_OP" and d["fields"]["op0"] == "MULT"
        assert (
            d["fields"]["imm1"] == 1.5
            and d["fields"]["src_mem_pattern"]["start_addr"] == "sbuf[0]+0x0"
        )


def test_repr_shows_arms_and_values() -> None:
    m = gen_module("mariana")
    s = m.decode(w.s3d3_ts(op0=w.MULT, op1=w.ADD, imm1=1.5, rev=w.BOTH))
    r = repr(s)
    assert "op0=AluOp.MULT" in r and "imm1=ImmValInstField.of_imm_arith_fp32(1.5)" in r
    assert "src_mem_pattern=MemPattern3D.of_t(Tensor3D(start_addr=Addr4.of_addr_immediate(0)" in r
    assert "bytes.fromhex" not in r
    ns = {name: getattr(m.structs, name) for name in dir(m.structs)} | {
        n: getattr(m.enums, n) for n in dir(m.enums)
    }
    assert eval(r, ns) == s  # the repr is Python that rebuilds the struct


def test_numpy_inputs_everywhere() -> None:
    m = gen_module("mariana")
    good = w.s3d3_ts(op0=w.MULT)
    bad = w.s3d3_ts(op0=w.DIVIDE)
    W = np.frombuffer(good + bad, dtype=np.uint8).reshape(2, 64)
    batch = m.decode_batch(W)
    for row in (W[0], batch.words[0], memoryview(good), bytearray(good), m.decode(good)):
        assert m.validate(row) and m.decode(row).to_bytes() == good and m.explain(row) == ""
        assert m.disasm(row) == m.disasm(good) and m.to_dict(row)["hex"] == good.hex()
    assert not m.validate(W[1]) and m.explain(W[1]) == m.explain(bad)
    record = batch.view(m.structs.S3D3_TS)[0]  # a numpy void record of the structured view
    assert m.validate(record)
    for words in (W, good + bad, [good, bad], [W[0], W[1]], [m.decode(good), bad], W.reshape(-1)):
        assert m.validate_batch(words).tolist() == [True, False]
        assert list(m.explain_batch(words)) == [1]
    with pytest.raises(TypeError, match="one row of uint8 bytes"):
        m.validate(W)
    with pytest.raises(TypeError, match="not float"):
        m.decode(1.5)  # type: ignore[arg-type]


def test_np_fromfile_runs(tmp_path: Path) -> None:
    m = gen_module("mariana")
    ex = m.Executor(backend="numpy")
    path = tmp_path / "prog.bin"
    path.write_bytes(w.s3d3_ts(op0=w.MULT) * 2)
    assert ex.run_program(np.fromfile(path, dtype=np.uint8)) == 2
    assert ex.run_program(path.read_bytes()) == 2
    for row in np.fromfile(path, dtype=np.uint8).reshape(-1, 64):
        ex.run(row)
    with pytest.raises(m.executor.InvalidInstructionError) as exc:
        ex.run_program([w.s3d3_ts(), w.s3d3_ts(), w.s3d3_ts(op0=w.DIVIDE)])
    assert exc.value.index == 2 and str(exc.value).startswith(
        "instruction 2 (offset 0x80): mariana:"
    )


def test_construction_errors_name_the_field() -> None:
    m = gen_module("mariana")
    S, E = m.structs, m.enums
    with pytest.raises(
        ValueError, match=r"S3D3_TS.num_active_channels \(uint8_t\) is 0..255, not 300"
    ):
        S.S3D3_TS(num_active_channels=300)
    with pytest.raises(
        ValueError, match=r"S3D3_TS.op0 \(NEURON_ISA_TPB_ALU_OP\): 'FOO' is not a member of AluOp"
    ):
        S.S3D3_TS(op0="FOO")
    with pytest.raises(TypeError, match=r"takes an integer, not float"):
        S.S3D3_TS(num_active_channels=1.5)
    with pytest.raises(TypeError, match=r"imm0 .* use one of ImmValInstField.of_imm_ptr"):
        S.S3D3_TS(imm0=5)  # three integer arms: ambiguous
    with pytest.raises(ValueError, match=r"Tensor3D.step_elem takes 3 elements, not 2"):
        S.Tensor3D(step_elem=(1, 2))
    with pytest.raises(
        ValueError, match=r"Tensor3D.step_elem \(int16_t\) is -32768..32767, not 40000"
    ):
        S.Tensor3D(step_elem=(1, 2, 40000))
    s = S.S3D3_TS(op0="mult", op1=E.AluOp.ADD, imm0=1.5)
    assert s.op0 is E.AluOp.MULT and s.imm0.imm_arith_fp32 == 1.5
    s.op0 = "bypass"
    assert s.op0 is E.AluOp.BYPASS
    with pytest.raises(ValueError, match=r"is 0\.\.255"):
        s.header.inst_word_len = 256
    assert S.Header(opcode="TENSOR_SCALAR_ARITH_OP").inst_word_len == 16
    assert S.S3D3_TS(op0=0x7E).op0 == 0x7E  # a value the enum does not name is still a byte


def test_executor_addressing() -> None:
    m = gen_module("mariana")
    ex = m.Executor(backend="numpy")
    a = ex.sbuf_addr(3, 0x40)
    assert str(ex.locate(a)) == "sbuf[3]+0x40" and ex.locate(ex.psum_addr(2, 0x10)).region == "PSUM"
    with pytest.raises(
        m.executor.AddressError, match=r"SBUF partition 128 does not exist \(0..127\)"
    ):
        ex.sbuf_addr(128)
    ex.write_at("SBUF", 2, 0x100, np.arange(8, dtype=np.float32).reshape(2, 4))
    assert ex.read_at("SBUF", 3, 0x100, E_FP32(m), (1, 4)).tolist() == [[4.0, 5.0, 6.0, 7.0]]
    with pytest.raises(ValueError, match="give partitions=N"):
        ex.write(0, np.zeros(8, dtype=np.float32))
    ex.write(0, np.zeros(8, dtype=np.float32), partitions=2)
    with pytest.raises(TypeError, match="float64 has no TPB dtype"):
        ex.write(0, np.zeros((2, 4)))
    ex.write(0, np.zeros((2, 4)), any_dtype=True)


def E_FP32(m: Any) -> Any:
    return m.enums.Dtype.FP32


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO / "generated")}
    return subprocess.run(
        [sys.executable, "-m", "tpb_isa", *args], capture_output=True, env=env, input=stdin
    )


def test_cli_listing_of_a_large_file(tmp_path: Path) -> None:
    """LARGE_FILE_WORDS (10^5 at the full scale) through `python -m tpb_isa disasm`, text and
    json; the listing re-assembles."""
    m = gen_module("mariana")
    n = LARGE_FILE_WORDS
    W = corpus("mariana", n, 11)
    W[:1000] = np.frombuffer(w.s3d3_ts(op0=w.MULT), dtype=np.uint8)
    path = tmp_path / "words.bin"
    path.write_bytes(W.tobytes())
    text = _cli("disasm", str(path), "--gen", "mariana")
    assert text.returncode == 1, text.stderr  # some words are invalid
    lines = text.stdout.decode().splitlines()
    assert len(lines) == n
    valid = m.validate_batch(W)
    for i in (0, 1, 999, 1000, n // 2 + 4321, n - 1):
        offset, hexw, rest = lines[i].split("  ", 2)
        body, verdict = rest.rsplit("  ; ", 1)
        assert offset == f"{64 * i:08x}:" and hexw == W[i].tobytes().hex()
        assert verdict == ("valid" if valid[i] else "INVALID") and m.asm(body) == W[i].tobytes()
    source = tmp_path / "words.s"  # the listing as it is: asm skips its offset and hex columns
    source.write_bytes(text.stdout)
    out = tmp_path / "again.bin"
    assembled = _cli("asm", str(source), "-o", str(out), "--gen", "mariana")
    assert assembled.returncode == 0, assembled.stderr
    assert out.read_bytes() == path.read_bytes()
    js = _cli("disasm", str(path), "--gen", "mariana", "--format", "json", "--explain")
    records = [json.loads(x) for x in js.stdout.decode().splitlines()]
    assert len(records) == n and js.returncode == 1
    assert [r["valid"] for r in records] == valid.tolist()
    bad = next(i for i in range(n) if not valid[i])
    assert records[bad]["reason"] == m.explain(W[bad].tobytes()) and records[0]["text"] == m.disasm(
        W[0]
    )


LISTING_OPTIONS = [
    (),
    ("--compact", "--explain"),
    ("--no-addresses",),
    ("--no-show-encoding", "--compact"),
    ("--text-only",),
]


@pytest.mark.parametrize("gen", ["mariana", "sunda"])
def test_cli_listings_reassemble_whatever_their_columns(gen: str, tmp_path: Path) -> None:
    """10^4 words (half plain random bytes, half the round-trip corpus: valid or not, decodable
    or not), split among the listing options, through `disasm` and then `asm`: the same bytes.
    The text is what the library says, the columns are where each option puts them."""
    m = gen_module(gen)
    n = 10_000 // 2  # per generation
    rng = np.random.default_rng(23)
    W = np.concatenate([corpus(gen, n // 2, 5), rng.integers(0, 256, (n - n // 2, 64), np.uint8)])
    W[0] = np.frombuffer(w.s3d3_ts(op0=w.MULT), dtype=np.uint8)
    rng.shuffle(W[1:])
    parts = np.array_split(W, len(LISTING_OPTIONS))
    for opts, part in zip(LISTING_OPTIONS, parts, strict=True):
        path = tmp_path / "words.bin"
        path.write_bytes(part.tobytes())
        listing = _cli("disasm", str(path), "--gen", gen, *opts)
        assert listing.returncode in (0, 1), listing.stderr
        lines = listing.stdout.decode().splitlines()
        assert len(lines) == part.shape[0]
        source, out = tmp_path / "words.s", tmp_path / "again.bin"
        source.write_bytes(listing.stdout)
        assembled = _cli("asm", str(source), "-o", str(out), "--gen", gen)
        assert assembled.returncode == 0, (opts, assembled.stderr)
        assert out.read_bytes() == path.read_bytes(), opts
        for i in (0, 1, part.shape[0] - 1):
            word = part[i].tobytes()
            text = m.disasm(word, compact="--compact" in opts)
            cols = lines[i].split("  ")
            if "--text-only" in opts:
                assert lines[i] == text and ";" not in text
                continue
            assert cols[-1] in ("; valid", "; INVALID") or cols[-1].startswith("; INVALID: ")
            expected = [f"{i * 64:08x}:", word.hex(), text]
            if "--no-addresses" in opts:
                expected.remove(f"{i * 64:08x}:")
            if "--no-show-encoding" in opts:
                expected.remove(word.hex())
            assert "  ".join(cols[:-1]) == "  ".join(expected), (opts, lines[i])


def test_compact_form_is_shorter_and_exact() -> None:
    """`compact=True` leaves out fields at their defaults: a typical word's line is well under
    half as long, every word still reads back, and a default word is its mnemonic alone."""
    m = gen_module("mariana")
    word = w.s3d3_ts(op0=w.MULT)
    full, compact = m.disasm(word), m.disasm(word, compact=True)
    assert m.asm(compact) == word and len(compact) * 2 < len(full)
    assert "header=" not in compact and "op0=MULT" in compact
    S = gen_module("mariana", "structs")
    E = gen_module("mariana", "enums")
    plain = S.S3D3_TS(header=S.Header(E.Opcode.TENSOR_SCALAR_ARITH_OP)).to_bytes()
    assert m.disasm(plain, compact=True) == "TENSOR_SCALAR_ARITH_OP"
    W = corpus("mariana", 2000, 9)
    for i in range(W.shape[0]):
        assert m.asm(m.disasm(W[i], compact=True)) == W[i].tobytes()


def test_asm_reads_listing_columns_and_only_them() -> None:
    """A leading `OFFSET:` and a 128-digit encoding column are skipped; anything else that is
    not a statement is still an error, located in the line as written."""
    m = gen_module("mariana")
    word = w.s3d3_ts(op0=w.MULT)
    text = m.disasm(word)
    for line in (
        f"00000000:  {word.hex()}  {text}  ; valid",
        f"  40: {word.hex()} {text}",
        f"{word.hex()}  {text}",
        f"1c0:\t{text} ; INVALID: why",
        f"00000000:  .word 0x{word.hex()}",
    ):
        assert m.asm(line) == word, line
    with pytest.raises(m.AsmError, match="without its instruction") as e:
        m.asm(f"{text}\n00000000:  {word.hex()}  ; valid")
    assert e.value.where == "2:142"  # just after the columns
    with pytest.raises(m.AsmError, match="expected a mnemonic") as e:
        m.asm(f"00000000 {text}")  # an offset without objdump's colon is not a column
    with pytest.raises(m.AsmError, match="expected a mnemonic"):
        m.asm(word.hex()[:-2] + "  " + text)  # 126 digits: not an encoding column


def test_cli_version(tmp_path: Path) -> None:
    """`python -m tpb_isa --version`: the package's version, its generator, runtime API and
    generations, on one line, exit 0."""
    import tpb_isa

    r = _cli("--version")
    assert r.returncode == 0, r.stderr
    api = ".".join(map(str, tpb_isa.RUNTIME_API))
    assert r.stdout.decode() == (
        f"tpb_isa {tpb_isa.__version__} (generated by tpbgen {tpb_isa.__version__}; "
        f"runtime API {api}; generations: {', '.join(tpb_isa.GENERATIONS)})\n"
    )
    from tpbgen import __version__

    assert tpb_isa.__version__ == __version__


def test_cli_hex_input_explain_and_errors(tmp_path: Path) -> None:
    good, bad = w.s3d3_ts(op0=w.MULT), w.s3d3_ts(op0=w.DIVIDE)
    hexfile = tmp_path / "words.hex"
    hexfile.write_text(f"0x{good.hex()}\n{bad.hex()}\n")
    r = _cli("disasm", str(hexfile), "-g", "mariana", "--explain")
    out = r.stdout.decode().splitlines()
    assert (
        r.returncode == 1
        and len(out) == 2
        and out[0].endswith("; valid")
        and "INVALID: is_valid_tensor_scalar_op" in out[1]
    )
    assert _cli("disasm", "-", "-g", "mariana", stdin=good).returncode == 0
    r = _cli("explain", good.hex(), "--gen", "mariana")
    assert r.returncode == 0 and r.stdout.decode().splitlines()[1] == "valid"
    r = _cli("explain", bad.hex(), "--gen", "mariana")
    assert r.returncode == 1 and "op0 = 7 (DIVIDE)" in r.stdout.decode()
    (tmp_path / "odd.bin").write_bytes(b"\x01" * 65)
    for args, message in [
        (
            ("disasm", str(tmp_path / "odd.bin"), "-g", "mariana"),
            "65 bytes is not a whole number of 64-byte words",
        ),
        (("disasm", str(tmp_path / "missing.bin"), "-g", "mariana"), "missing.bin: No such file"),
        (("disasm", str(hexfile)), "say which generation with --gen"),
        (("disasm", str(hexfile), "-g", "nc9"), "unknown generation 'nc9'"),
        (("explain", "abc", "-g", "mariana"), "odd number of digits"),
    ]:
        r = _cli(*args)
        assert (
            r.returncode == 2
            and message in r.stderr.decode()
            and "Traceback" not in r.stderr.decode()
        ), r.stderr
    src = tmp_path / "bad.s"
    src.write_text("TENSOR_SCALAR_ARITH_OP op0=MULT\nTENSOR_SCALAR_ARITH_OP op0=NOPE\n")
    r = _cli("asm", str(src), "-o", str(tmp_path / "x.bin"), "-g", "mariana")
    assert r.returncode == 2 and f"{src}:2:28: 'NOPE' is not a member of AluOp" in r.stderr.decode()
    assert not (tmp_path / "x.bin").exists()


def test_cli_reports_progress_on_large_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files of PROGRESS_FROM words or more report a count on stderr (the threshold lowered here
    so the test stays small); smaller files print nothing there."""
    import io

    import tpb_isa
    from tpb_isa._runtime import cli

    path = tmp_path / "w.bin"
    path.write_bytes(w.s3d3_ts() * 10)
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["disasm", str(path), "-g", "mariana"], tpb_isa, out, err) == 0
    assert err.getvalue() == "" and out.getvalue().count("\n") == 10
    monkeypatch.setattr(cli, "PROGRESS_FROM", 10)
    monkeypatch.setattr(cli, "PROGRESS_EVERY", 4)
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["disasm", str(path), "-g", "mariana"], tpb_isa, out, err) == 0
    assert err.getvalue().splitlines() == ["disasm: 4 of 10 words", "disasm: 8 of 10 words"]


# the batch assembler (`_FastAsm`) against the per-line parser

_PIECES = [" ", "  ", "\t", "{", "}", "[", "]", ",", "=", ";", "0", "7", "x", "-", ".", "@", "_"]
_PIECES += ["a", "Z", "+", "e", "nan", "inf", "0x", "sbuf[1]+", "1.5", "999999999999", "true"]


def _mutated(rng: np.random.Generator, line: str, other: str) -> str:
    """`line` changed a little: a character replaced, dropped or added, a field moved, doubled
    or taken from another line, a name's case, a number's spelling, a comment, columns."""
    k = int(rng.integers(len(line))) if line else 0
    pick = int(rng.integers(11))
    if pick == 0:
        return line[:k] + str(rng.choice(_PIECES)) + line[k + 1 :]
    if pick == 1:
        return line[:k] + line[k + 1 :]
    if pick == 2:
        return line[:k] + str(rng.choice(_PIECES)) + line[k:]
    parts = line.split(" ")
    if pick == 3 and len(parts) > 2:  # two neighbouring texts swapped
        i = int(rng.integers(1, len(parts) - 1))
        parts[i], parts[i + 1] = parts[i + 1], parts[i]
        return " ".join(parts)
    if pick == 4 and len(parts) > 1:  # a text given twice, or one of another line's
        donor = other.split(" ")
        parts.insert(int(rng.integers(1, len(parts) + 1)), str(rng.choice(donor[1:] or donor)))
        return " ".join(parts)
    if pick == 5:
        return line.lower() if rng.random() < 0.5 else line[:k] + line[k:].upper()
    if pick == 6:  # a number respelled: hex, a leading zero or sign, out of range
        nums = [m for m in __import__("re").finditer(r"(?<=[=\[,])\d+", line)]
        if nums:
            m = nums[int(rng.integers(len(nums)))]
            v = int(m.group())
            new = str(rng.choice([hex(v), "0" + m.group(), "-" + m.group(), str(v + 2**31)]))
            return line[: m.start()] + new + line[m.end() :]
    if pick == 7:
        return line + str(rng.choice(["  ; a comment", ";x", " ", "\t; c {"]))
    if pick == 8:
        return f"{k * 64:08x}:  " + ("ab" * 64 + "  " if rng.random() < 0.5 else "") + line
    if pick == 9 and len(parts) > 1:  # a text left out
        del parts[int(rng.integers(1, len(parts)))]
        return " ".join(parts)
    return line.replace(" ", str(rng.choice(["  ", "\t", " \t"])), 1 + int(rng.integers(3)))


def _has_split(fast: Any) -> Any:
    """Whether a line's mnemonic has a skeleton learned and split into as many tokens as the
    line has at its blanks (`_FastAsm.probe`'s rule: the lines the text scanner takes)."""

    def has(line: str) -> bool:
        tokens = line.split(" ")
        st = fast.statements.get(tokens[0])
        return st is not None and len(tokens) in st.splits

    return has


def _outcome(fn: Any, text: str) -> Any:
    try:
        return ("words", fn(text))
    except Exception as e:  # the same exception, the same text (an AsmError's place too)
        return ("error", type(e).__name__, str(e))


FRONT_ENDS = ("scanner", "python")
#: The generations the batch assembler's two front ends are swept on: every one at the full
#: scale; the first and the last (the TENSOR and the MEM_PATTERN layouts) at the default.
FRONT_END_GENERATIONS = sweep(GENERATIONS, (GENERATIONS[0], GENERATIONS[-1]))


def textscan_module() -> Any:
    """The runtime's textscan.py (the C text scanner's loader)."""
    return sys.modules[text_module("grammar").__name__.rsplit(".", 2)[0] + ".textscan"]


def batch_front(form: Any, front: str) -> Any:
    """`form`'s batch assembler made afresh, its lines split by the C text scanner ("scanner":
    which must be built here; every text, whether it gains or not) or in Python ("python");
    it learns its skeletons in Python."""
    if front == "scanner":
        assert textscan_module().load() is not None, textscan_module().error()
    fast = form._fast = text_module("batch_asm")._FastAsm(form)
    fast.scanner = "always" if front == "scanner" else "never"
    return fast


@pytest.mark.parametrize("front", FRONT_ENDS)
@pytest.mark.parametrize("gen", FRONT_END_GENERATIONS)
def test_batch_assembler_is_the_line_parser(gen: str, front: str) -> None:
    """`asm_lines` on a listing (the batch path: lines in `disasm`'s spelling matched per
    mnemonic, each field's text read once) gives the per-line parser's words for every line,
    and the same exception at the same line and column where a line is bad: random, sparse
    and float-edge words, full and compact, as listings with columns and comments, and the
    same lines mutated (valid or not); with the lines split by the C text scanner and in
    Python."""
    form = gen_module(gen, "decode").TEXT
    fast = batch_front(form, front)
    W = corpus(gen, scale(1300, 2000), 29)
    full = list(form.disasm_rows(W))
    compact = list(form.disasm_rows(W, compact=True))
    columns = [f"{i * 64:08x}:  {W[i].tobytes().hex()}  {t}  ; valid" for i, t in enumerate(full)]
    scanned = 0
    for lines in (full, compact, columns, full):
        text = "\n".join(lines)
        assert form.asm_lines(text) == form._asm_scalar(text) == [r.tobytes() for r in W]
        assert form._fast.declined == 0  # every line in disasm's spelling took the batch path
        scanned += fast.scanned
    # the scanner splits the lines of the skeletons learned (not the columns': no mnemonic
    # first); random words have many skeletons, so a tenth
    assert scanned > len(W) // 10 if front == "scanner" else scanned == 0
    _mutated_lines_read_alike(form, fast, front, full + compact + columns, 41, 0.01)


def _mutated_lines_read_alike(
    form: Any, fast: Any, front: str, sources: list[str], seed: int, split: float
) -> None:
    """`sources` mutated (`_mutated`), valid or not: the batch path gives the per-line
    parser's words for the valid ones together, the scanner splitting exactly the lines of a
    learned skeleton's number of tokens (none by the "python" front end), more than `split` of
    them, and each bad line among good ones the parser's error at the same line and column."""
    rng = np.random.default_rng(seed)
    mutated = [_mutated(rng, sources[i], sources[i - 1]) for i in rng.permutation(len(sources))]
    good, bad = [], []
    for line in mutated:
        (good if _outcome(lambda t: form._asm_line(t, 1), line)[0] == "words" else bad).append(line)
    assert len(good) > 500 and len(bad) > 500, (len(good), len(bad))
    text = "\n".join(good)
    splittable = sum(map(_has_split(fast), good))  # before the call: the splits it scans with
    assert _outcome(form.asm_lines, text) == _outcome(form._asm_scalar, text)
    batch_took = len(good) - form._fast.declined
    assert batch_took > len(good) // 4  # mutated lines still in its spelling went the fast way
    if front == "scanner":  # it splits every line a learned skeleton splits, and no other
        assert fast.scanned == splittable > split * len(good), (splittable, len(good))
    else:
        assert fast.scanned == 0
    for line in bad[:: max(1, len(bad) // 150)]:  # each bad line among good ones
        at = int(rng.integers(len(good) - 40))
        text = "\n".join([*good[at : at + 20], line, *good[at + 20 : at + 40]])
        want = _outcome(form._asm_scalar, text)
        assert want[0] == "error" and _outcome(form.asm_lines, text) == want, line


def program(n: int, seed: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """`n` words of a program: valid TensorScalar-family words, each with up to three random
    byte mutations (as benchmarks/text.py's program corpus: few skeletons, new field texts)."""
    seeds = [w.s3d3_ts(op, op0=op0) for op in (w.TS_ARITH, w.TS_PTR_ARITH, w.CACHE_REDUCE,
             w.CACHE_CUMULATIVE, w.EXPONENTIAL) for op0 in (w.ADD, w.MULT)]  # fmt: skip
    seeds += [w.s4d4_tsm(), w.s2_bn()]
    rng = np.random.default_rng(seed)
    S = np.frombuffer(b"".join(seeds), dtype=np.uint8).reshape(-1, 64)
    W = S[rng.integers(0, len(S), size=n)].copy()
    for _ in range(3):
        rows = np.flatnonzero(rng.random(n) < 0.5)
        W[rows, rng.integers(1, 64, size=rows.size)] = rng.integers(0, 256, rows.size, np.uint8)
    return W


@pytest.mark.parametrize("front", FRONT_ENDS)
def test_batch_assembler_reads_a_program_as_the_line_parser(front: str) -> None:
    """A program's listing (`program`: the lines the scanner is for, most of them of a
    mnemonic's few skeletons) reads as the per-line parser reads it, full and compact, and
    mutated (valid or not); split by the C text scanner, most lines are its."""
    form = gen_module("mariana", "decode").TEXT
    fast = batch_front(form, front)
    W = program(2000, 43)
    full = list(form.disasm_rows(W))
    compact = list(form.disasm_rows(W, compact=True))
    for lines, share in ((full, 0.0), (full, 0.9), (compact, 0.0), (compact, 0.5)):
        text = "\n".join(lines)
        assert form.asm_lines(text) == form._asm_scalar(text) == [r.tobytes() for r in W]
        assert form._fast.declined == 0
        # once learned, the scanner splits most lines (compact ones have more skeletons)
        assert fast.scanned >= share * len(W) if front == "scanner" else fast.scanned == 0
    _mutated_lines_read_alike(form, fast, front, full + compact, 47, 0.3)


@pytest.mark.parametrize("gen", GENERATIONS)
def test_one_line_at_a_time_reads_as_the_line_parser(gen: str) -> None:
    """`asm(line)` and a text of a few lines (the batch reader's expressions a line at a time,
    `_FastAsm.line`, with the deltas it keeps across calls) give the per-line parser's word,
    or its exception at the same line and column: random, sparse and float-edge words, full
    and compact, each line read twice (the second time from what was kept), and mutated."""
    form = gen_module(gen, "decode").TEXT
    W = corpus(gen, scale(1300, 1500), 53)
    full = list(form.disasm_rows(W))
    compact = list(form.disasm_rows(W, compact=True))
    taken = 0
    for lines in (full, compact, full):
        for i, line in enumerate(lines):
            assert form.asm(line) == W[i].tobytes(), line
            taken += form._fast.line(line) is not None
        few = "\n".join(lines[:20])
        assert form.asm_lines(few) == form._asm_scalar(few) == [r.tobytes() for r in W[:20]]
    assert taken > len(full)  # the lines in disasm's spelling went the batch reader's way
    rng = np.random.default_rng(59)
    sources = full + compact
    for i in rng.permutation(len(sources))[:1500].tolist():
        line = _mutated(rng, sources[i], sources[i - 1])
        assert _outcome(form.asm, line) == _outcome(
            lambda t: b"".join(form._asm_scalar(t)), line
        ), line
        few = "\n".join([sources[i - 2], line, sources[i - 1]])
        assert _outcome(form.asm_lines, few) == _outcome(form._asm_scalar, few), few


def test_a_tab_after_the_mnemonic_is_read_as_the_line_parser_reads_it() -> None:
    """A line whose mnemonic a tab follows (not the blank `disasm` writes) reads as the
    per-line parser reads it, where its mnemonic's lines are split at their blanks for a
    skeleton (`_Split`): the text after the mnemonic up to the first blank is a field, not
    the mnemonic's place (the batch path once dropped that field)."""
    form = gen_module("mariana", "decode").TEXT
    form._fast = None
    W = program(1000, 43)
    compact = list(form.disasm_rows(W, compact=True))  # the first field shown is not a default
    assert form.asm_lines("\n".join(compact)) == [r.tobytes() for r in W]  # skeletons learned
    assert any(st.splits for st in form._fast.statements.values())
    text = "\n".join(line.replace(" ", "\t", 1) for line in compact)
    assert form.asm_lines(text) == form._asm_scalar(text) == [r.tobytes() for r in W]


_VALUES = ["{", "}", "{}", " ", "  ", ";", "x;", "{a=1}", "[1,2]", "[", "]", "-0", "0x", "00"]
_VALUES += ["nan", "inf", "-inf", "1e999", "sbuf[1]+0", "psum[0]+0x10", "true", "=", "a=b", ""]
_VALUES += ["0x" + "f" * 20, "1.5", "-1", "ADD", "add", "{b=2 c=3}", ".", "@1=2", "\t"]


def _respelled(rng: np.random.Generator, line: str) -> str:
    """`line` with a field's value (or its name's tail) replaced: what a line of the same
    skeleton, or one that just misses it, looks like."""
    import re

    spots = [m for m in re.finditer(r"(?<==)[^\s{};]*", line)]
    if not spots:
        return line
    m = spots[int(rng.integers(len(spots)))]
    new = str(rng.choice(_VALUES)) if rng.random() < 0.7 else m.group()[::-1]
    if rng.random() < 0.15:  # the name's spelling: `name.arm=`, a case, a letter more
        k = line.rfind(" ", 0, m.start()) + 1
        name = line[k : m.start() - 1]
        alt = str(rng.choice([name + ".x", name.upper(), name + "s", name[:-1], "@3"]))
        return line[:k] + alt + "=" + line[m.start() :]
    return line[: m.start()] + new + line[m.end() :]


@pytest.mark.parametrize("front", FRONT_ENDS)
@pytest.mark.parametrize("gen", FRONT_END_GENERATIONS)
def test_skeleton_expressions_are_the_statement_expression(gen: str, front: str) -> None:
    """A mnemonic's skeleton expressions (`_Skeleton`: the literal text of the lines seen
    most, tried before the statement's expression) match only lines the statement's own
    expression matches, with the same groups: every skeleton learned, on lines of every
    skeleton with values respelled (valid or not) and mutated; and the batch path reading
    them gives the per-line parser's words and errors (the lines split by the C text scanner
    and in Python)."""
    form = gen_module(gen, "decode").TEXT
    batch_front(form, front)
    rng = np.random.default_rng(53)
    W = corpus(gen, scale(1300, 1500), 31)
    full = list(form.disasm_rows(W))
    compact = list(form.disasm_rows(W, compact=True))
    columns = [f"{i * 64:08x}:  {t}  ; c" for i, t in enumerate(full[:300])]
    text = "\n".join(full + compact + columns)
    assert form.asm_lines(text) == form._asm_scalar(text)  # learns the skeletons
    fast = form._fast
    shapes = [(st, sk) for st in fast.statements.values() for sk in st.skeletons.values()]
    for _, sk in shapes:
        if sk.rx is None:
            sk.compile()
    assert len(shapes) >= len(fast.statements) > 10
    sources = full + compact + columns
    lines = [_respelled(rng, sources[i]) for i in rng.integers(len(sources), size=6000)]
    lines += [_mutated(rng, sources[i], sources[i - 1]) for i in rng.permutation(len(sources))]
    head = text_module("grammar").HEAD.match
    same = differ = 0
    for line in lines:
        h = head(line)
        st = fast.statements.get(h.group(1)) if h is not None else None
        if st is None:
            continue
        want = st.rx.match(line, h.end())  # type: ignore[union-attr]
        for owner, sk in shapes:
            if owner is st:
                got = sk.rx.match(line, h.end())  # type: ignore[union-attr]
                if got is not None:
                    assert want is not None and got.groups() == want.groups(), line
                    same += 1
                elif want is not None:
                    differ += 1
    assert same > 2000 and differ > 2000, (same, differ)
    good, bad = [], []
    for line in lines:
        (good if _outcome(lambda t: form._asm_line(t, 1), line)[0] == "words" else bad).append(line)
    assert len(good) > 1000 and len(bad) > 1000, (len(good), len(bad))
    text = "\n".join(good)
    assert _outcome(form.asm_lines, text) == _outcome(form._asm_scalar, text)
    assert len(good) - form._fast.declined > len(good) // 4
    for line in bad[:: max(1, len(bad) // 100)]:
        at = int(rng.integers(len(good) - 40))
        text = "\n".join([*good[at : at + 20], line, *good[at + 20 : at + 40]])
        want_out = _outcome(form._asm_scalar, text)
        assert want_out[0] == "error" and _outcome(form.asm_lines, text) == want_out, line


@pytest.mark.parametrize("front", FRONT_ENDS)
def test_batch_assembler_in_threads(front: str) -> None:
    """Calls on one form from several threads at once each get their own lines' words (what
    a call gathers is its own; what the memos hold is the same whichever call read it)."""
    from concurrent.futures import ThreadPoolExecutor

    form = gen_module("mariana", "decode").TEXT
    batch_front(form, front)
    listings = []
    for seed in range(4):
        W = corpus("mariana", 1500, 100 + seed)
        listings.append(("\n".join(form.disasm_rows(W, compact=seed % 2 == 1)), W.tobytes()))
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda lw: form.asm(lw[0]) == lw[1], listings * 3))
    assert all(got)


@pytest.mark.parametrize("front", FRONT_ENDS)
def test_batch_assembler_over_many_batches(front: str) -> None:
    """A text longer than one batch of the batch path (`_FAST_LINES`) reads as the per-line
    parser reads it: the same words, and a bad line in a later batch gives the same error,
    its line number counted from the text's start, not the batch's (the lines split by the
    C text scanner and in Python)."""
    form = gen_module("mariana", "decode").TEXT
    fast = batch_front(form, front)
    batch = text_module("batch_asm")._FAST_LINES
    W = corpus("mariana", batch + batch // 4, 61)
    lines = list(form.disasm_rows(W))
    text = "\n".join(lines)
    assert form.asm(text) == W.tobytes()
    assert form.asm(text) == W.tobytes()
    assert fast.scanned > 0 if front == "scanner" else fast.scanned == 0
    if front != "scanner":
        return
    # with `scanner` "auto": a listing with columns (no mnemonic first) is not scanned (`probe`);
    # after a batch the scanner mostly did not split, the next is probed again
    fast.scanner = "auto"
    text_py = text_module("batch_asm")  # where `_FastAsm.batches` finds `scans`
    scans = text_py.scans
    made: list[int] = []

    def counted(text: str, max_lines: int, start: int = 0) -> Any:
        got = scans(text, max_lines, start)
        return None if got is None else (made.append(len(s)) or s for s in got)

    P = program(batch, 67)  # a program's lines: of the skeletons the scanner splits
    plain = list(form.disasm_rows(P))
    assert form.asm("\n".join(plain)) == P.tobytes()  # its skeletons learned
    columns = [f"{i * 64:08x}:  {t}" for i, t in enumerate(plain)]
    mixed = "\n".join(plain + columns + plain[:100])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(text_py, "scans", counted)
        assert form.asm("\n".join(columns)) == P.tobytes() and fast.scanned == 0
        assert made == []
        assert form.asm(mixed) == P.tobytes() + P.tobytes() + P[:100].tobytes()
        assert made == [batch, batch, 100]  # the columns' batch scanned, then probed again
        made.clear()
        fresh = batch_front(form, "scanner")  # nothing learned: the first batch teaches
        fresh.scanner = "auto"
        assert form.asm("\n".join(plain + plain[:200])) == P.tobytes() + P[:200].tobytes()
        assert made == [200] and fresh.scanned > 150
    for at, bad in ((batch + 7, " no_such_field=1"), (batch - 1, "  x=1")):
        broken = lines.copy()
        broken[at] = broken[at].split(" ", 1)[0] + bad
        text = "\n".join(broken)
        want = _outcome(form._asm_scalar, text)
        assert want[0] == "error" and want[2].startswith(f"{at + 1}:"), want
        assert _outcome(form.asm_lines, text) == want


_SCAN_TEXT = st.text(alphabet=st.sampled_from(list("  \n\n\ta=b{}x;\r")), max_size=300)


@given(text=_SCAN_TEXT, max_lines=st.integers(1, 9), tokens=st.integers(1, 40))
@settings(max_examples=400, deadline=None)
def test_text_scanner_reads_what_split_reads(text: str, max_lines: int, tokens: int) -> None:
    """The C text scanner's lines are `text.split("\\n")` and each line's tokens
    `line.split(" ")` (other blanks are a token's characters), in scans of at most `max_lines`
    lines (fewer where a scan's `tokens` would not hold the next line; one line is then
    scanned alone, whatever it holds); two tokens have the same id iff they are at the same
    place in their lines with the same text, ids given in the order they first occur."""
    ts = textscan_module()
    assert ts.load() is not None, ts.error()
    old = ts.SCAN_TOKENS
    ts.SCAN_TOKENS = tokens
    try:
        scans = list(ts.scans(text, max_lines))
    finally:
        ts.SCAN_TOKENS = old
    assert [line for scan in scans for line in scan] == text.split("\n")
    assert all(1 <= len(scan) <= max_lines for scan in scans)
    for scan in scans:
        assert [scan[k] for k in range(len(scan))] == list(scan) == scan[:]
        ids = [scan.tokens[scan.starts[k] : scan.starts[k + 1]].tolist() for k in range(len(scan))]
        pairs = [(q, t) for line in scan for q, t in enumerate(line.split(" "))]
        flat = [d for row in ids for d in row]
        assert [(int(scan.places[d]), scan.token(d)) for d in flat] == pairs
        first: dict[tuple[int, str], int] = {}
        for pair in pairs:
            first.setdefault(pair, len(first))
        assert flat == [first[pair] for pair in pairs]
        assert len(scan.places) == len(first)
    assert ts.scans("caf\u00e9\n" * 3, 8) is None  # not ASCII: split in Python


_EDITS = st.sampled_from(["drop", "double", "swap", "blank", "tab", "respell", "comment", "cut"])


@given(
    picks=st.lists(st.integers(0, 1499), min_size=40, max_size=60),
    edits=st.lists(st.tuples(st.integers(0, 59), _EDITS, st.integers(0, 10**6)), max_size=12),
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_text_scanner_lines_read_as_python_lines(
    picks: list[int], edits: list[tuple[int, str, int]]
) -> None:
    """A program's listing lines (`program`, taken in any order, some edited: a token left
    out, given twice, two swapped, a blank doubled or made a tab, a value respelled, a
    comment, a line cut short)
    read the same with the lines split by the C text scanner, split in Python, and by the
    per-line parser: the same words, or the same error at the same line and column."""
    form = gen_module("mariana", "decode").TEXT
    if "rows" not in _SCANNER_ROWS:  # a program's lines, full and compact
        W = program(750, 71)
        _SCANNER_ROWS["rows"] = [*form.disasm_rows(W), *form.disasm_rows(W, compact=True)]
    rows = _SCANNER_ROWS["rows"]
    lines = [rows[i] for i in picks]
    for at, edit, r in edits:
        at %= len(lines)
        parts = lines[at].split(" ")
        k = 1 + r % max(1, len(parts) - 1)
        if edit == "drop" and len(parts) > 2:
            del parts[k]
        elif edit == "double":
            parts.insert(k, parts[min(k, len(parts) - 1)])
        elif edit == "swap" and len(parts) > 2:
            k = min(k, len(parts) - 2)
            parts[k], parts[k + 1] = parts[k + 1], parts[k]
        elif edit == "blank":
            parts.insert(k, "")
        elif edit == "tab":
            parts[k - 1 : k + 1] = ["\t".join(parts[k - 1 : k + 1])]
        elif edit == "respell":
            name, _, value = parts[min(k, len(parts) - 1)].partition("=")
            new = str(_VALUES[r % len(_VALUES)])
            parts[min(k, len(parts) - 1)] = f"{name}={new}" if value else new
        elif edit == "comment":
            parts.append(";" + parts[k % len(parts)])
        elif edit == "cut":
            parts = parts[:k]
        lines[at] = " ".join(parts)
    text = "\n".join(lines)
    want = _outcome(form._asm_scalar, text)
    got = {}
    for front in FRONT_ENDS:
        fast = _SCANNER_ROWS.get(front)
        if fast is None:  # one batch assembler a front end, its skeletons learned once
            fast = _SCANNER_ROWS[front] = batch_front(form, front)
            form.asm_lines("\n".join(rows))
        form._fast = fast
        got[front] = _outcome(form.asm_lines, text)
        assert (fast.scanned > 0) == (front == "scanner"), fast.scanned
    assert got["scanner"] == got["python"] == want


_SCANNER_ROWS: dict[str, Any] = {}  # the listing and the two batch assemblers, made once


def test_text_scanner_unavailable(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    """Where the text scanner cannot be built (here: its build raises), asm says so once on
    standard error and splits the lines in Python: the same words; a text that is not ASCII
    is split in Python too."""
    form = gen_module("mariana", "decode").TEXT
    ts = textscan_module()
    W = program(300, 83)
    text = "\n".join(form.disasm_rows(W))
    fast = batch_front(form, "scanner")
    assert form.asm(text) == form.asm(text) == W.tobytes() and fast.scanned > len(W) // 2
    fast.scanner = "auto"  # a text the probe finds of learned skeletons: scanned
    assert form.asm(text) == W.tobytes() and fast.scanned > len(W) // 2
    assert form.asm(text + "  ; caf\u00e9") == W.tobytes() and fast.scanned == 0

    def no_build(spec: Any) -> Any:
        raise OSError("no compiler here")

    monkeypatch.setattr(ts, "_loaded", None)
    monkeypatch.setattr(ts, "_error", None)
    monkeypatch.setattr(ts.cbuild, "load", no_build)
    capsys.readouterr()
    assert form.asm(text) == form.asm(text) == W.tobytes() and fast.scanned == 0
    err = capsys.readouterr().err
    assert err.count("the assembler's text scanner is unavailable (OSError: no compiler") == 1, err
