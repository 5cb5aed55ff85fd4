"""`python -m tpb_isa program`: a constrained-random program (`programs.Programs`) written as
64-byte words, with its dependency rate, and optionally its coverage (opcodes, read-after-write
pairs by opcode, the validators' terms).

    python -m tpb_isa program -n N -o OUT.bin [--gen G] [--seed S] [--dependent D]
                              [--opcodes 0x41,0x43] [--cover] [--html OUT.html]
"""

from __future__ import annotations

import argparse
from types import ModuleType
from typing import Any, TextIO


def _opcodes(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(t, 0) for t in text.split(",") if t.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"opcodes are numbers separated by commas (0x41,0x43), not {text!r}"
        ) from None


def _share(text: str) -> float:
    try:
        d = float(text)
    except ValueError:
        d = -1.0
    if not 0.0 <= d <= 1.0:
        raise argparse.ArgumentTypeError(f"a share between 0 and 1, not {text!r}")
    return d


def add_parser(sub: Any) -> None:
    """The `program` subcommand's arguments, on the CLI's subparsers `sub`."""
    p = sub.add_parser(
        "program", help="write a constrained-random program (valid words the executor runs)"
    )
    p.add_argument("-n", type=int, required=True, help="how many words")
    p.add_argument("-o", "--output", required=True, help="the program's 64-byte words go here")
    p.add_argument("--gen", "-g", help="generation (sunda, cayman, mariana, maverick)")
    p.add_argument("--seed", type=int, default=0, help="the same seed gives the same program")
    p.add_argument(
        "--dependent",
        type=_share,
        default=0.5,
        help="the share of words (after the first) that read an earlier word's writes",
    )
    p.add_argument(
        "--opcodes", type=_opcodes, help="only these opcodes, e.g. 0x41,0x43 (default: all)"
    )
    p.add_argument(
        "--cover",
        action="store_true",
        help="also print its coverage: opcodes, read-after-write pairs, validator terms",
    )
    p.add_argument("--html", help="also write its coverage as an HTML page here")


def command(args: argparse.Namespace, package: ModuleType, out: TextIO, err: TextIO) -> int:
    """Write the program, say its dependency rate; `--cover`/`--html`: its coverage."""
    from .cli import OK, InputError, _generation, _output, _write_file

    m = _generation(package, args.gen)
    _output(args.output)
    if args.html:
        _output(args.html)
    if args.n < 0:
        raise InputError(f"-n is a count of words, not {args.n}")
    try:
        prog = m.random_program(
            args.n, seed=args.seed, opcodes=args.opcodes, dependent=args.dependent
        )
    except ValueError as e:
        raise InputError(str(e)) from None
    _write_file(args.output, prog.words.tobytes())
    deps = len({i for _, i in prog.dependencies})
    out.write(
        f"program: {args.n} {m.NAME} words written to {args.output} (seed {args.seed}); "
        f"{deps} of {max(0, args.n - 1)} after the first read an earlier word's writes "
        f"({prog.dependent:.0%}, asked {args.dependent:.0%})\n"
    )
    if args.cover or args.html:
        report = m.coverage(prog.words, program=True)
        if args.cover:
            out.write(report.text())
        if args.html:
            _write_file(args.html, report.html().encode("utf-8"))
    return int(OK)
