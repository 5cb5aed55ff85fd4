"""Mutations of a drop and of a `tpbgen` command line, drawn from a seeded random generator.

Each mutator edits one case directory in place (`d/` the drop: one generation and its firmware
overlay, `w/` a waivers directory, `out/` an output) and returns the argument vector to run and
a short name for the report. The mutations aim at the classes issue 39 found by hand: bytes that
are not UTF-8 or are control bytes, C that gcc refuses or that expands without bound, JSON with
duplicated keys, wrong types, deep nesting or NaN, enumerator aliases, special files (FIFOs,
directories, symlink loops, devices) where a file belongs, and option values that are not
numbers, paths that cannot be written, or names that do not exist.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path

GEN = "neuron_mariana_arch_isa"
OPCODE = "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_ARITH_OP"

Mutator = Callable[[random.Random, Path], tuple[str, list[str]]]

# C fragments that have broken a front end: an unterminated construct, a float where C wants an
# integer, a literal too large to expand, a macro without bound, includes of things that are not
# files, bytes that are not text, a negative enumerator
C_FRAGMENTS = (
    "[1.5]",
    "[1e999999999]",
    "0x1p999999999",
    "1e-999999999",
    "9" * 5000 + ".0",
    "(",
    "}",
    "{",
    "/*",
    '"',
    "'",
    "\\\n",
    "#define A A A\n",
    "#define B(x) B(x) B(x)\n",
    "#if\n",
    "#endif\n",
    '#include "/dev/zero"\n',
    '#include "/dev/null"\n',
    '#include "."\n',
    "#include <nonexistent.h>\n",
    "#line 999999999999\n",
    '_Static_assert(0, "no");\n',
    "= -1,",
    "= 0x7fffffffffffffffffff,",
    "__attribute__((aligned(3)))",
    "\x00",
    "\x0b",
    "\r",
    "\u2028",
    "\N{RIGHT-TO-LEFT OVERRIDE}",
)
BYTES = (b"\xff", b"\xfe\xff", b"\xc3", b"\x00", b"\x1b[31m", b"\xef\xbb\xbf")
JSON_VALUES: tuple[object, ...] = (
    None,
    True,
    -1,
    1e308,
    "",
    "\u0000",
    [],
    {},
    [[[]]],
    "x" * 10_000,
    {"firmware": "working"},
    {"firmware": "nope"},
)


def tpb(case: Path) -> Path:
    return case / "d" / GEN / "tpb"


def headers(case: Path) -> list[Path]:
    return sorted(tpb(case).glob("*.h"))


def _splice(rng: random.Random, data: bytes, piece: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    cut = rng.choice((0, 0, 0, 1, 2, 8))
    return data[:at] + piece + data[at + cut :]


def header_bytes(rng: random.Random, case: Path) -> tuple[str, list[str]]:
    """One header spliced with a C fragment or a raw byte string (or a line dropped or doubled)."""
    h = rng.choice(headers(case))
    data = h.read_bytes()
    how = rng.randrange(4)
    if how == 0:
        lines = data.split(b"\n")
        k = rng.randrange(len(lines))
        lines[k : k + 1] = [] if rng.random() < 0.5 else [lines[k], lines[k]]
        data, what = b"\n".join(lines), "line"
    elif how == 1:
        data, what = _splice(rng, data, rng.choice(BYTES)), "bytes"
    else:
        piece = rng.choice(C_FRAGMENTS).encode("utf-8", "surrogatepass")
        data, what = _splice(rng, data, piece), "c-fragment"
    h.write_bytes(data)
    return f"header-{what}", _command(rng)


def header_alias_or_negative(rng: random.Random, case: Path) -> tuple[str, list[str]]:
    """An enumerator alias of an opcode, or a negative enumerator, in the OPCODE enum."""
    common = tpb(case) / "aws_neuron_isa_tpb_common.h"
    text = common.read_text(encoding="utf-8")
    line = f"    {OPCODE} = 0x44,"
    assert line in text
    extra = rng.choice(
        (
            f"    TPBGEN_FUZZ_ALIAS = {OPCODE},",
            "    TPBGEN_FUZZ_NEG = -1,",
            "    TPBGEN_FUZZ_BIG = 0x100,",
        )
    )
    common.write_text(text.replace(line, f"{line}\n{extra}"), encoding="utf-8")
    if "ALIAS" in extra and rng.random() < 0.7:
        fw = case / "d" / "firmware_status.json"
        doc = json.loads(fw.read_text(encoding="utf-8"))
        doc["generations"]["mariana"]["TPBGEN_FUZZ_ALIAS"] = {"firmware": "absent"}
        fw.write_text(json.dumps(doc), encoding="utf-8")
    return "header-enum", _command(rng)


def _json_edit(rng: random.Random, path: Path) -> str:
    """A JSON file given a duplicated key, a wrong value, deep nesting, NaN, a byte that is not
    UTF-8, or cut short."""
    text = path.read_text(encoding="utf-8")
    how = rng.randrange(7)
    if how == 0:  # a key given twice: the first key of some object, repeated
        at = text.index('": ', rng.randrange(len(text) // 2))
        start = text.rindex('"', 0, at)
        key = text[start : at + 1]
        brace = text.index("{", 0) + 1
        text = text[:brace] + f"{key}: {json.dumps(rng.choice(JSON_VALUES))}, " + text[brace:]
        what = "duplicate-key"
    elif how == 1:
        doc = json.loads(text)
        node = doc
        while isinstance(node, dict) and node and rng.random() < 0.7:
            k = rng.choice(sorted(node))
            if not isinstance(node[k], dict) or rng.random() < 0.3:
                node[k] = rng.choice(JSON_VALUES)
                break
            node = node[k]
        text, what = json.dumps(doc), "wrong-value"
    elif how == 2:
        depth = rng.choice((65, 1000, 100_000))
        text, what = (
            text.replace("{", "{" + '"deep": ' + "[" * depth + "]" * depth + ", ", 1),
            "deep",
        )
    elif how == 3:
        text, what = text.replace(": ", ': NaN, "x": ', 1), "nan"
    elif how == 4:
        path.write_bytes(_splice(rng, text.encode(), rng.choice(BYTES)))
        return "bytes"
    elif how == 5:
        text, what = text[: rng.randrange(len(text))], "truncated"
    else:
        text, what = text.replace('"', "'", 1), "syntax"
    path.write_text(text, encoding="utf-8")
    return what


def mapping_json(rng: random.Random, case: Path) -> tuple[str, list[str]]:
    return f"mapping-{_json_edit(rng, tpb(case) / 'instruction_mapping.json')}", _command(rng)


def overlay_json(rng: random.Random, case: Path) -> tuple[str, list[str]]:
    what = _json_edit(rng, case / "d" / "firmware_status.json")
    return f"overlay-{what}", ["generate", "--headers", "d", "--out", "out", *_generate_flags(rng)]


def waivers(rng: random.Random, case: Path) -> tuple[str, list[str]]:
    """A waivers file of random lines: findings, unknown kinds, too many words, bytes that are
    not UTF-8, control bytes, a line without its reason."""
    lines = [
        "stale NEURON_ISA_TPB_OPCODE_PSEUDO_DMA_BARRIER  # tracked",
        "stale NEURON_ISA_TPB_OPCODE_PSEUDO_DMA_BARRIER NEURON_ISA_TPB_PSEUDO_DMA_BARRIER_STRUCT",
        "nope x",
        "a b c d e",
        "# a comment",
        "",
        "stale",
        "\x0bstale x\x0c",
        "stale x # \u2028 reason",
    ]
    data = "\n".join(rng.choice(lines) for _ in range(rng.randrange(1, 8))).encode()
    if rng.random() < 0.3:
        data = _splice(rng, data, rng.choice(BYTES))
    (case / "w" / "mariana.waivers").write_bytes(data)
    cmd = rng.choice(
        (
            [
                "reconcile",
                "--headers",
                "d",
                "--waivers",
                "w",
                *rng.sample(["--strict", "-v"], rng.randrange(3)),
            ],
            ["generate", "--headers", "d", "--out", "out", "--waivers", "w", *_generate_flags(rng)],
        )
    )
    return "waivers", cmd


def special_file(rng: random.Random, case: Path) -> tuple[str, list[str]]:
    """A FIFO, a directory, a symlink loop or a dangling symlink where a header, the mapping, the
    overlay or a waivers file belongs."""
    where = rng.choice(
        (
            tpb(case) / "fuzz.h",
            rng.choice(headers(case)),
            tpb(case) / "sub" / "nested.h",
            tpb(case) / "instruction_mapping.json",
            case / "d" / "firmware_status.json",
            case / "w" / "mariana.waivers",
        )
    )
    where.parent.mkdir(exist_ok=True)
    if where.exists() or where.is_symlink():
        where.unlink()
    kind = rng.choice(("fifo", "dir", "loop", "dangling", "devnull"))
    if kind == "fifo":
        os.mkfifo(where)
    elif kind == "dir":
        where.mkdir()
    elif kind == "loop":
        where.symlink_to(where.name)
    elif kind == "dangling":
        where.symlink_to("nowhere-" + where.name)
    else:
        where.symlink_to("/dev/null")
    cmd = (
        ["reconcile", "--headers", "d", "--waivers", "w"]
        if where.suffix == ".waivers"
        else ["generate", "--headers", "d", "--out", "out", *_generate_flags(rng)]
        if where.name == "firmware_status.json"
        else _command(rng)
    )
    return f"special-{kind}", cmd


LIMIT_VALUES = ("nan", "inf", "-inf", "-1", "0", "1e400", "0.000001", "lots", "", "1e-320", "3")
PATHS = ("d", "nope", "/dev/null", "/proc/x", "out", "w", ".", "/", "d/" + GEN + "/tpb", "\x7f")


def _generate_flags(rng: random.Random) -> list[str]:
    flags = ["--no-verify-cc"] if rng.random() < 0.7 else []
    if rng.random() < 0.3:
        flags.append("--no-cache")
    if rng.random() < 0.2:
        flags += ["--check"] + (["--diff"] if rng.random() < 0.5 else [])
    if rng.random() < 0.2:
        flags.append("--strict")
    return flags


def _command(rng: random.Random) -> list[str]:
    """A command that reads the whole drop."""
    return rng.choice(
        (
            ["generate", "--headers", "d", "--out", "out", *_generate_flags(rng)],
            ["inspect", "--gen", "mariana", "--headers", "d", "--no-cache"],
            ["reconcile", "--headers", "d", "--no-cache"],
        )
    )


def cli_arguments(rng: random.Random, case: Path) -> tuple[str, list[str]]:
    """A command line with option values that are not numbers, paths that cannot be used, names
    that do not exist, options out of place."""
    pick = rng.randrange(6)
    if pick == 0:
        opt = rng.choice(("--max-preprocessed-mb", "--max-line-kb", "--max-preprocess-seconds"))
        return "cli-limit", [
            "generate",
            "--headers",
            "d",
            "--out",
            "out",
            opt,
            rng.choice(LIMIT_VALUES),
            "--no-verify-cc",
        ]
    if pick == 1:
        return "cli-out", [
            "generate",
            "--headers",
            "d",
            "--out",
            rng.choice(PATHS),
            "--no-verify-cc",
        ]
    if pick == 2:
        return "cli-headers", [
            rng.choice(("inspect", "reconcile")),
            "--headers",
            rng.choice(PATHS),
        ] + (["--gen", rng.choice(("mariana", "nope", ""))] if rng.random() < 0.8 else [])
    if pick == 3:
        sides = [
            rng.choice(("mariana", "nope", "d", "d/" + GEN + "/tpb", "/dev/null", "out"))
            for _ in range(2)
        ]
        extra = rng.sample(
            ["--all", "--format", "md", "--fail-on", "none", "--out", "/proc/x"], rng.randrange(3)
        )
        return "cli-audit", ["audit", *sides, "--headers", "d", *extra]
    if pick == 4:
        return "cli-waivers", ["reconcile", "--headers", "d", "--waivers", rng.choice(PATHS)]
    words = [
        "generate",
        "inspect",
        "reconcile",
        "audit",
        "cache",
        "--gen",
        "--out",
        "--check",
        "--diff",
        "--format",
        "json",
        "--error-format",
        "github",
        "info",
        "mariana",
        "-v",
    ]
    return "cli-words", [rng.choice(words) for _ in range(rng.randrange(1, 6))]


MUTATORS: tuple[Mutator, ...] = (
    header_bytes,
    header_bytes,
    header_alias_or_negative,
    mapping_json,
    overlay_json,
    waivers,
    special_file,
    cli_arguments,
    cli_arguments,
)
