"""Mutations of the inputs and command lines of the generated runtime's CLI, `python -m tpb_isa`,
drawn from a seeded random generator.

Each mutator edits one case directory in place (made by the harness: `k.s` an example kernel's
assembly, `k.bin` its words, `l.s` a `disasm --explain` listing of random words, `t.jsonl` the
kernel's `run --trace`, `s.npz` its `run --save-state`) and returns a `Case`: a short name for
the report, the argument vector, the file a failure must name (with `:LINE` when the input has
lines) and the output files the run may write. The mutations aim at what a user's files do:
flipped bytes, swapped or truncated tokens, huge numbers, bytes that are not ASCII or are
control bytes, very long lines, odd hex, JSON Lines records dropped, repeated, reordered, of the
wrong type or nested without bound, .npz archives with the wrong members, and special files
(directories, FIFOs, /dev/null, missing paths) where a file belongs.
"""

from __future__ import annotations

import io
import json
import os
import random
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

GEN = "mariana"


@dataclass
class Case:
    what: str
    argv: list[str]
    names: str = ""  # the file an exit-2 message must name ("": any argument will do)
    lined: bool = False  # and with a line number (file:LINE)
    outputs: list[str] = field(default_factory=list)


Mutator = Callable[[random.Random, Path], Case]

TEXT_PIECES = (
    "\x00",
    "\x0b",
    "\r",
    "\r\n",
    "\x0c",
    "\u2028",
    "\ufeff",
    "\N{RIGHT-TO-LEFT OVERRIDE}",
    "é",
    "\N{FULLWIDTH DIGIT ZERO}",  # str.isdigit says yes
    "٣",  # an Arabic-Indic digit
    "=",
    "{",
    "}",
    "[",
    "]",
    ",",
    ";",
    ":",
    "+",
    "0x",
    "sbuf[",
    "psum[999999999999]",
)
NUMBERS = (
    "-1",
    "0",
    "1e400",
    "nan",
    "inf",
    "-0x1",
    "0x" + "f" * 40,
    "9" * 400,
    "1_000",
    "0b102",
    "0o9",
    "1.5",
    "4294967296",
    "18446744073709551616",
    "2**64",
)
JSON_VALUES: tuple[object, ...] = (
    None,
    True,
    -1,
    2**70,
    -(2**70),
    1e308,
    1.5,
    "",
    "zz",
    "\u0000",
    [],
    {},
    [["sbuf", 0, 5, 1]],
    [["psum", -1, 0, 1]],
    [["sbuf", 0, 0, 2**64]],
    [[[]]],
    "x" * 10_000,
)


def _splice(rng: random.Random, data: bytes, piece: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    cut = rng.choice((0, 0, 1, rng.randrange(1, 9)))
    return data[:at] + piece + data[at + cut :]


def _token_edit(rng: random.Random, text: str) -> tuple[str, str]:
    """One edit of a listing's text: (what, the new text)."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    toks = lines[i].split(" ")
    kind = rng.randrange(6)
    if kind == 0 and len(toks) > 1:
        a, b = rng.randrange(len(toks)), rng.randrange(len(toks))
        toks[a], toks[b] = toks[b], toks[a]
        what = "token-swap"
    elif kind == 1:
        j = rng.randrange(len(toks))
        toks[j] = toks[j][: rng.randrange(len(toks[j]) + 1)]
        what = "token-truncate"
    elif kind == 2:
        j = rng.randrange(len(toks))
        head = toks[j].split("=", 1)[0]
        toks[j] = f"{head}={rng.choice(NUMBERS)}" if "=" in toks[j] else rng.choice(NUMBERS)
        what = "number"
    elif kind == 3:
        j = rng.randrange(len(toks))
        toks.insert(j, toks[j] * rng.choice((2, 1000, 20_000)))
        what = "long-line"
    elif kind == 4:
        j = rng.randrange(len(toks))
        t = toks[j]
        at = rng.randrange(len(t) + 1)
        toks[j] = t[:at] + rng.choice(TEXT_PIECES) + t[at:]
        what = "text-piece"
    else:
        del toks[rng.randrange(len(toks))]
        what = "token-drop"
    lines[i] = " ".join(toks)
    return what, "\n".join(lines)


def listing(rng: random.Random, case: Path) -> Case:
    """(a) an assembly listing, from an example kernel or a `disasm --explain` listing."""
    name = rng.choice(("k.s", "l.s"))
    path = case / name
    kind = rng.randrange(4)
    if kind == 0:
        data = path.read_bytes()
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(data))
            data = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]
        path.write_bytes(data)
        what = "byte-flip"
    elif kind == 1:
        data = path.read_bytes()
        path.write_bytes(data[: rng.randrange(len(data))])
        what = "truncate"
    elif kind == 2:
        data = path.read_bytes()
        piece = rng.choice((b"\xff", b"\xc3", b"\xe2\x80", b"\x00", b"\x1b[31m", b"\xef\xbb\xbf"))
        path.write_bytes(_splice(rng, data, piece))
        what = "bytes"
    else:
        text = path.read_text(encoding="utf-8")
        what = ""
        for _ in range(rng.randrange(1, 4)):
            w, text = _token_edit(rng, text)
            what = what or w
        path.write_text(text, encoding="utf-8", newline="")
    out = rng.choice(("out.bin", "k.bin", "-"))
    return Case(
        f"listing-{what}",
        ["asm", name, "-o", out, "--gen", GEN],
        names=name,
        lined=True,
        outputs=[out] if out != "-" else [],
    )


def words(rng: random.Random, case: Path) -> Case:
    """(b) a word file, raw or hex: truncated, odd lengths, bytes that are not hex."""
    raw = (case / "k.bin").read_bytes()
    data = (
        raw.hex().encode()
        if rng.random() < 0.5
        else "\n".join(
            ("0x" if rng.random() < 0.3 else "") + raw[i : i + 64].hex()
            for i in range(0, len(raw), 64)
        ).encode()
    )
    kind = rng.randrange(5)
    if kind == 0:
        data = data[: rng.randrange(len(data) + 1)]
    elif kind == 1:
        data = _splice(rng, data, rng.choice((b"g", b"0x", b" ", b"\r", b"\x0b", b"\xff", b"-")))
    elif kind == 2:
        data = data + rng.choice((b"0", b"\x00", b"0x", b"\n\n", b"z" * 64))
    elif kind == 3:
        data = raw[: rng.randrange(len(raw) + 1)]
    else:
        data = bytes(rng.randrange(256) for _ in range(rng.choice((0, 1, 63, 64, 128, 129))))
    (case / "w.bin").write_bytes(data)
    command = rng.choice(("disasm", "cover", "run", "explain"))
    if command == "explain":
        # (an argument cannot hold a NUL)
        text = data.decode("ascii", "replace").replace("\x00", "")[: rng.choice((128, 130, 400))]
        return Case(f"words-explain-{kind}", ["explain", text, "--gen", GEN])
    extra: list[str] = []
    outs: list[str] = []
    if command == "disasm":
        extra = rng.choice(([], ["--explain"], ["--format", "json"], ["--text-only", "--compact"]))
    elif command == "cover" and rng.random() < 0.5:
        extra, outs = ["--html", "o.html"], ["o.html"]
    elif command == "run":
        extra, outs = ["--trace", "o.jsonl", "--save-state", "o.npz"], ["o.jsonl", "o.npz"]
    return Case(
        f"words-{command}-{kind}",
        [command, "w.bin", "--gen", GEN, *extra],
        names="w.bin",
        outputs=outs,
    )


def _json_record_edit(rng: random.Random, lines: list[bytes]) -> str:
    i = rng.randrange(len(lines))
    rec = json.loads(lines[i])
    key = rng.choice(sorted(rec))
    kind = rng.randrange(4)
    if kind == 0:
        rec[key] = rng.choice(JSON_VALUES)
    elif kind == 1:
        del rec[key]
    elif kind == 2:
        depth = rng.choice((50, 5000, 200_000))
        rec[key] = None
        lines[i] = json.dumps(rec).replace("null", "[" * depth + "]" * depth, 1).encode()
        return "deep-nesting"
    else:
        rec[key + "x"] = rec[key]
    lines[i] = json.dumps(rec).encode()
    return ("wrong-type", "missing-field", "", "extra-field")[kind] + f"-{key}"


def trace(rng: random.Random, case: Path) -> Case:
    """(c) a JSON Lines trace for `trace-diff`: lines dropped, repeated, reordered, `null`, not
    objects, fields of the wrong type or huge, nested without bound, the last line cut."""
    lines = (case / "t.jsonl").read_bytes().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    kind = rng.randrange(7)
    i = rng.randrange(len(lines))
    if kind == 0:
        del lines[i]
        what = "drop"
    elif kind == 1:
        lines.insert(i, lines[i])
        what = "duplicate"
    elif kind == 2:
        rng.shuffle(lines)
        what = "reorder"
    elif kind == 3:
        lines.insert(i, rng.choice((b"null", b"[]", b"1", b'"x"', b"{", b"", b"\xff", b"NaN")))
        what = "non-record-line"
    elif kind == 4:
        what = _json_record_edit(rng, lines)
    elif kind == 5:
        lines[-1] = lines[-1][: rng.randrange(len(lines[-1]))]
        what = "truncated-last"
    else:
        lines[i] = lines[i].replace(b"\n", b"") + rng.choice((b"\r", b"\x0b", b" \x00"))
        what = "control-byte"
    (case / "u.jsonl").write_bytes(b"\n".join(lines) + b"\n" * rng.randrange(2))
    a, b = ("t.jsonl", "u.jsonl") if rng.random() < 0.5 else ("u.jsonl", "t.jsonl")
    gen = rng.choice(([], ["--gen", GEN], ["--gen", "nope"]))
    if "nope" in gen:  # refused before either file is read: the message names --gen
        return Case(f"trace-{what}", ["trace-diff", a, b, *gen], names="--gen")
    return Case(f"trace-{what}", ["trace-diff", a, b, *gen], names="u.jsonl", lined=True)


def _npz(arrays: dict[str, np.ndarray]) -> bytes:  # type: ignore[type-arg]
    buf = io.BytesIO()
    np.savez(buf, **arrays)  # type: ignore[arg-type]
    return buf.getvalue()


def state(rng: random.Random, case: Path) -> Case:
    """(d) an `--init` state: members with the wrong names, dtypes or shapes, truncated,
    random bytes, a zip that holds no .npy."""
    base = dict(np.load(case / "s.npz"))
    kind = rng.randrange(7)
    key = rng.choice(sorted(base))
    if kind == 0:
        base[key + rng.choice(("x", "", "[0]+0x10", "[999]+0x0", "[0]+0xffffffffff"))] = base.pop(
            key
        )
        data = _npz(base)
    elif kind == 1:
        dt = rng.choice(("f8", "i8", "u2", "c16", "?", "U3", "V3", "O"))
        base[key] = base[key].astype(dt) if dt != "O" else np.array([None, 1], dtype=object)
        data = _npz(base)
    elif kind == 2:
        a = base[key].reshape(-1)
        base[key] = rng.choice((a[: rng.randrange(a.size + 1)], a.reshape(1, -1), a[:0]))
        data = _npz(base)
    elif kind == 3:
        place = rng.choice(("sbuf[0]+0x0", "psum[3]+0x10", "sbuf[127]+0xfffff", "sbuf[-1]+0x0"))
        shape = rng.choice(((16,), (2, 16), (200, 4), (1, 1, 1), ()))
        data = _npz({place: np.ones(shape, dtype=rng.choice(("u1", "f4")))})
    elif kind == 4:
        data = (case / "s.npz").read_bytes()
        data = data[: rng.randrange(len(data))]
    elif kind == 5:
        data = bytes(rng.randrange(256) for _ in range(rng.choice((0, 4, 100, 5000))))
    else:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            z.writestr(rng.choice(("sbuf.npy", "a.txt", "../x.npy", "sbuf")), b"\x93NUMPY junk")
        data = buf.getvalue()
    (case / "i.npz").write_bytes(data)
    return Case(
        f"state-{kind}",
        ["run", "k.bin", "--gen", GEN, "--init", "i.npz", "--trace", "o.jsonl"],
        names="i.npz",
        outputs=["o.jsonl"],
    )


SPECIALS = ("dir", "fifo", "/dev/null", "missing.bin", "-", "k.bin", "t.jsonl", "/dev/full")


def _special(case: Path, name: str) -> str:
    if name == "dir":
        (case / "dir").mkdir(exist_ok=True)
    elif name == "fifo" and not (case / "fifo").exists():
        os.mkfifo(case / "fifo")
    return name


VALID_ARGV = (
    ["disasm", "k.bin", "--gen", GEN, "--explain"],
    ["disasm", "k.bin", "--gen", GEN, "--format", "json"],
    ["asm", "k.s", "-o", "o.bin", "--gen", GEN],
    ["cover", "k.bin", "--gen", GEN, "--html", "o.html"],
    ["run", "k.bin", "--gen", GEN, "--trace", "o.jsonl", "--save-state", "o.npz"],
    [
        "run",
        "k.bin",
        "--gen",
        GEN,
        "--init",
        "s.npz",
        "--trace-bytes",
        "hash",
        "--trace",
        "o.jsonl",
    ],
    ["trace-diff", "t.jsonl", "t.jsonl", "--gen", GEN],
    ["explain", "0" * 128, "--gen", GEN],
)


def special_path(rng: random.Random, case: Path) -> Case:
    """(e) a valid command line with one path (input or output) replaced by a special file: a
    directory, a FIFO, /dev/null, /dev/full, a missing path, standard input."""
    argv = list(rng.choice(VALID_ARGV))
    paths = [i for i, a in enumerate(argv) if "." in a and a != "--"]
    outs = [a for a in argv if a.startswith("o.")]
    if paths:
        argv[rng.choice(paths)] = _special(case, rng.choice(SPECIALS))
    else:
        argv[1] = rng.choice(("", "0" * 127, "0" * 130, "0x" + "0" * 128, "g" * 128))
    return Case(f"special-{argv[0]}", argv, outputs=[o for o in outs if o in argv])


def arguments(rng: random.Random, case: Path) -> Case:
    """(e) argument salad: commands, options and values in random order and number, special
    files (a directory, a FIFO, /dev/null, a missing path) as inputs and outputs."""
    command = rng.choice(
        ("disasm", "asm", "explain", "cover", "run", "trace-diff", "program", "nope", "")
    )
    pool = [
        "--gen",
        GEN,
        "nope",
        "-g",
        "--format",
        "json",
        "xml",
        "--explain",
        "--text-only",
        "-o",
        "--output",
        "--html",
        "--init",
        "--trace",
        "--trace-bytes",
        "hash",
        "--save-state",
        "-n",
        "-1",
        "3",
        "99999999999999999999",
        "--seed",
        "--dependent",
        "1.5",
        "--opcodes",
        "0x41,zz",
        "--cover",
        "--version",
        "--",
        "-",
        "=",
        "\u00e9",
        "x" * 5000,
        "0" * 128,
    ]
    argv = [command] if command else []
    outs: list[str] = []
    for _ in range(rng.randrange(1, 7)):
        if rng.random() < 0.45:
            name = _special(case, rng.choice(SPECIALS))
            argv.append(name)
        else:
            argv.append(rng.choice(pool))
    for flag, out in (("-o", "o.bin"), ("--trace", "o.jsonl"), ("--html", "o.html")):
        if flag in argv and rng.random() < 0.5:
            argv.insert(argv.index(flag) + 1, out)
            outs.append(out)
    return Case("argv-" + (command or "none"), argv, outputs=outs)


MUTATORS: tuple[Mutator, ...] = (listing, words, trace, state, special_path, arguments)
