"""`python -m tpb_isa`: listings, assembly and explanations from the command line.

    python -m tpb_isa disasm FILE [--gen G] [--format text|json] [--explain]
                             [--no-addresses] [--no-show-encoding] [--text-only] [--compact]
    python -m tpb_isa asm FILE.s -o FILE.bin [--gen G]
    python -m tpb_isa explain HEX [--gen G]
    python -m tpb_isa cover STIM.bin [--gen G] [--html OUT.html]
    python -m tpb_isa run PROG [--gen G] [--init STATE.npz] [--trace OUT.jsonl]
                          [--save-state OUT.npz]
    python -m tpb_isa trace-diff A.jsonl B.jsonl [--gen G]
    python -m tpb_isa program -n N -o OUT.bin [--gen G] [--seed S] [--dependent D] [--cover]
    python -m tpb_isa --version

`disasm` reads raw binary or hex text (whitespace, newlines and a `0x` per word allowed; `-` is
standard input) and prints one line per 64-byte word, as objdump does: the byte offset and a
colon, the word's hex, its text form, and whether the generation's validators accept it as a
`;` comment (`--explain`: why not). `--no-addresses` and `--no-show-encoding` leave out the
first two columns, `--text-only` both and the comment (plain assembler source); `--compact`
leaves out every field at its default. `asm` reads its own listings back: a leading `OFFSET:`
and a 128-digit encoding column are skipped, so `disasm prog.bin > prog.s; asm prog.s` gives
the same bytes, whichever options made the listing. `--format json` prints one JSON object per
line instead (JSON Lines). Validity comes from the batch validators, so a listing costs the text
form per word and little else; files of 10^6 words or more report progress on standard error.

Exit codes, as tpbgen's: 0 done and every word valid; 1 done, some word invalid (or, for
`explain`, this word; for `run`, an instruction refused; for `trace-diff`, the traces differ);
2 bad input (unreadable file, odd hex, a line `asm` cannot read, a special file, an input over
`TPB_ISA_MAX_INPUT_MB`) or an output that cannot be written (standard output closed or full, a
reader gone away), with a located message and no traceback.
"""

from __future__ import annotations

import argparse
import errno
import io
import json
import os
import re
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any, TextIO

import numpy as np

from . import programcli
from .inputs import FileInputError, read_bytes, replace_whole, writable_target
from .state import load_state, save_state
from .text import AsmError

OK, FINDINGS, BAD_INPUT = 0, 1, 2
PROGRESS_FROM = 1_000_000  # words
PROGRESS_EVERY = 250_000

_HEX_TEXT = re.compile(rb"\A(?:\s|0[xX]|[0-9a-fA-F])*\Z")


class InputError(Exception):
    """Input the command cannot use; the message says where."""


def read_words(data: bytes, name: str) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The (N, 64) words of a file: hex text when it is nothing but hex digits, `0x` prefixes
    and whitespace, else raw binary."""
    if data and _HEX_TEXT.match(data):
        digits = re.sub(rb"0[xX]|\s", b"", data)
        if len(digits) % 2:
            raise InputError(f"{name}: hex text with an odd number of digits ({len(digits)})")
        raw = bytes.fromhex(digits.decode("ascii"))
    else:
        raw = data
    if len(raw) % 64:
        raise InputError(
            f"{name}: {len(raw)} bytes is not a whole number of 64-byte words "
            f"({len(raw) // 64} words and {len(raw) % 64} bytes left over)"
        )
    return np.frombuffer(raw, dtype=np.uint8).reshape(-1, 64)


def _read(path: str, stdin: Any = None) -> bytes:
    """The bytes of an input file (`-`: standard input), refused by type, bounded."""
    try:
        return read_bytes(path, stdin)
    except FileInputError as e:
        raise InputError(str(e)) from None


def _output(path: str) -> None:
    """Refuse an output path by its type (a directory, a FIFO) before any work."""
    try:
        writable_target(path)
    except FileInputError as e:
        raise InputError(str(e)) from None


def _write_file(path: str, data: bytes) -> None:
    """`path` replaced whole by `data` (never half-written)."""
    try:
        replace_whole(path, lambda f: f.write(data))
    except FileInputError as e:
        raise InputError(str(e)) from None


def _line_col(data: bytes, at: int) -> str:
    """`line:col` (1-based; lines end at LF, columns count characters, as the assembler's
    errors do) of byte `at` of `data`, the first byte that is not UTF-8."""
    line_start = data.rfind(b"\n", 0, at) + 1
    line = data.count(b"\n", 0, at) + 1
    return f"{line}:{len(data[line_start:at].decode('utf-8')) + 1}"


def _generation(package: ModuleType, name: str | None) -> ModuleType:
    gens: tuple[str, ...] = package.GENERATIONS
    if name is None:
        if len(gens) == 1:
            name = gens[0]
        else:
            raise InputError(f"say which generation with --gen ({', '.join(gens)})")
    try:
        module: ModuleType = package.gen(name)
    except KeyError as e:
        raise InputError(str(e.args[0])) from None
    return module


def _text_form(m: ModuleType) -> Any:
    """The generation's TextForm (its `decode` module's TEXT: `m.decode` is the function)."""
    return sys.modules[f"{m.__name__}.decode"].TEXT


def disasm(args: argparse.Namespace, package: ModuleType, out: TextIO, err: TextIO) -> int:
    m = _generation(package, args.gen)
    W = read_words(_read(args.file, sys.stdin), args.file)
    n = W.shape[0]
    valid = m.validate_batch(W) if n else np.zeros(0, dtype=bool)
    progress = n >= PROGRESS_FROM
    addresses = not (args.no_addresses or args.text_only)
    encoding = not (args.no_show_encoding or args.text_only)
    verdicts = not args.text_only
    texts = _text_form(m).disasm_rows(W, compact=args.compact)
    for i, text in enumerate(texts):
        ok = bool(valid[i])
        why = m.explain(W[i]) if args.explain and not ok else ""
        if args.format == "json":
            rec: dict[str, Any] = {
                "offset": i * 64,
                "hex": W[i].tobytes().hex(),
                "text": text,
                "valid": ok,
            }
            if args.explain and not ok:
                rec["reason"] = why
            out.write(json.dumps(rec) + "\n")
        else:
            cols = [f"{i * 64:08x}:"] if addresses else []
            if encoding:
                cols.append(W[i].tobytes().hex())
            cols.append(text)
            if verdicts:
                cols.append("; " + ("valid" if ok else "INVALID" + (f": {why}" if why else "")))
            out.write("  ".join(cols) + "\n")
        if progress and (i + 1) % PROGRESS_EVERY == 0:
            err.write(f"disasm: {i + 1:,} of {n:,} words\n")
            err.flush()
    return OK if bool(valid.all()) else FINDINGS


def asm(args: argparse.Namespace, package: ModuleType, out: TextIO, err: TextIO) -> int:
    m = _generation(package, args.gen)
    if args.output != "-":
        _output(args.output)
    data = _read(args.file, sys.stdin)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"{args.file}:{_line_col(data, e.start)}: not UTF-8 text") from None
    try:
        words = m.asm(text)
    except AsmError as e:
        raise InputError(f"{args.file}:{e.where}: {e.message}") from None
    if args.output == "-":
        out.flush()
        getattr(out, "buffer", out).write(words)
    else:
        _write_file(args.output, words)
        n = len(words) // 64
        err.write(f"asm: {n} word{'s' * (n != 1)} written to {args.output}\n")
    return OK


def explain(args: argparse.Namespace, package: ModuleType, out: TextIO, err: TextIO) -> int:
    m = _generation(package, args.gen)
    W = read_words(args.hex.encode("ascii", "replace"), "HEX")
    if W.shape[0] != 1:
        raise InputError(f"HEX: one 64-byte word (128 hex digits), not {W.shape[0]} words")
    b = W[0].tobytes()
    why = m.explain(b)
    out.write(m.disasm(b) + "\n")
    out.write(("valid" if not why else f"INVALID: {why}") + "\n")
    return OK if not why else FINDINGS


def cover(args: argparse.Namespace, package: ModuleType, out: TextIO, err: TextIO) -> int:
    """Predicate coverage of a stimulus file (see coverage.py): the text report, and
    `--html FILE` the HTML page."""
    m = _generation(package, args.gen)
    if args.html:
        _output(args.html)
    report = m.coverage(read_words(_read(args.file), args.file))
    out.write(report.text())
    if args.html:
        _write_file(args.html, report.html().encode("utf-8"))
    return OK


def run(args: argparse.Namespace, package: ModuleType, out: TextIO, err: TextIO) -> int:
    """Run a program on a fresh machine, or on the state `--init STATE.npz` gives (whole
    regions, or bytes at places: see state.py), tracing each instruction to `--trace`, and
    `--save-state OUT.npz` the machine's state when the program stops."""
    m = _generation(package, args.gen)
    for path in (args.save_state, args.trace):
        if path:
            _output(path)
    words = read_words(_read(args.file), args.file)
    ex = m.Executor()
    if args.init:  # before the trace is created: a refused state writes nothing
        try:
            load_state(ex, args.init, _read(args.init))
        except ValueError as e:
            raise InputError(str(e)) from None
    if args.trace:
        from .trace import Tracer

        try:
            ex._trace = Tracer(args.trace, ex, args.trace_bytes)
        except OSError as e:
            raise InputError(f"{args.trace}: {e.strerror or e}") from None
        except ValueError as e:  # a directory or special file given as the trace
            raise InputError(str(e)) from None
    try:
        code = OK
        try:
            n = ex.run_program(words)
        except OSError as e:  # the trace file: full, gone
            raise InputError(f"{args.trace}: {e.strerror or e}") from None
        except Exception as e:  # an executor error names the instruction
            err.write(f"error: {args.file}: {e}\n")
            code, n = FINDINGS, -1
        if args.save_state:
            try:
                save_state(ex, args.save_state)
            except ValueError as e:
                raise InputError(str(e)) from None
    finally:
        if ex._trace is not None:
            ex._trace.close()
    if code == OK:
        err.write(f"run: {n} instructions executed\n")
    return code


def trace_diff(args: argparse.Namespace, package: ModuleType, out: TextIO, err: TextIO) -> int:
    """The first divergence of two traces, by instruction, field and byte; exit 1 when they
    differ."""
    from .trace import diff

    gens: tuple[str, ...] = package.GENERATIONS
    if args.gen is not None and args.gen not in gens:
        raise InputError(f"--gen: one of {', '.join(gens)}, not {args.gen!r}")

    def describe(gen: str, word: bytes) -> tuple[str, dict[str, Any] | None]:
        if gen not in gens:
            return f"{word.hex()} (a generation this package lacks: {gen})", None
        m = package.gen(gen)
        text: str = m.disasm(word)
        try:
            m.decode(word)
        except ValueError:
            return text, None
        view: dict[str, Any] = m.to_dict(word)
        return text, view

    try:
        why = diff(args.a, args.b, describe, args.gen)
    except ValueError as e:
        raise InputError(str(e)) from None
    out.write((why or "the traces agree") + "\n")
    return FINDINGS if why else OK


def version(package: ModuleType) -> str:
    """What `--version` prints: the package's version, what generated it, the runtime API."""
    api = ".".join(map(str, package.RUNTIME_API))
    return (
        f"tpb_isa {package.__version__} (generated by tpbgen {package.__version__}; "
        f"runtime API {api}; generations: {', '.join(package.GENERATIONS)})"
    )


_GEN_HELP = "the generation ({}); needed when the package has more than one"
_FILE_HELP = "raw binary or hex text; - for standard input"


def _gen_option(p: argparse.ArgumentParser, gens: str) -> None:
    p.add_argument("--gen", "-g", metavar="G", help=_GEN_HELP.format(gens))


def parser(package: ModuleType | None = None) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m tpb_isa",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,  # --version on one line
    )
    gens = ", ".join(package.GENERATIONS) if package is not None else "sunda, cayman, ..."
    if package is not None:
        p.add_argument("--version", action="version", version=version(package))
    sub = p.add_subparsers(
        dest="command",
        required=True,
        metavar="COMMAND",
        help="what to do; `python -m tpb_isa COMMAND --help` says how",
    )
    d = sub.add_parser("disasm", help="list the words of a file, one per line")
    d.add_argument("file", help=_FILE_HELP)
    _gen_option(d, gens)
    d.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: objdump-like listing lines (default); json: one JSON object per word",
    )
    d.add_argument("--explain", action="store_true", help="say why each invalid word is invalid")
    d.add_argument("--no-addresses", action="store_true", help="leave out the byte-offset column")
    d.add_argument(
        "--no-show-encoding", action="store_true", help="leave out the column of the word's hex"
    )
    d.add_argument(
        "--text-only",
        action="store_true",
        help="the text form alone: no offset, no hex, no verdict comment (assembler source)",
    )
    d.add_argument(
        "--compact",
        action="store_true",
        help="leave out fields that hold their default (asm fills them in): short, as exact",
    )
    a = sub.add_parser("asm", help="assemble text (or a disasm listing) into 64-byte words")
    a.add_argument("file", help="assembly text or a disasm listing; - for standard input")
    a.add_argument("-o", "--output", required=True, help="output file; - for standard output")
    _gen_option(a, gens)
    e = sub.add_parser("explain", help="decode, disassemble and explain one word")
    e.add_argument("hex", help="the word as 128 hex digits")
    _gen_option(e, gens)
    c = sub.add_parser("cover", help="predicate coverage of a stimulus file")
    c.add_argument("file", help=_FILE_HELP)
    _gen_option(c, gens)
    c.add_argument("--html", metavar="OUT.html", help="also write the report as an HTML page here")
    r = sub.add_parser("run", help="execute a program, optionally tracing it")
    r.add_argument("file", help=_FILE_HELP)
    _gen_option(r, gens)
    r.add_argument(
        "--init",
        metavar="STATE.npz",
        help="initial state: an .npz of whole arrays (sbuf, psum, registers, accumulators) "
        "and/or bytes at places (sbuf[P]+OFF, psum[P]+OFF: 1-D bytes, or 2-D rows for "
        "partitions P, P+1, ...); the rest starts at zero",
    )
    r.add_argument("--trace", metavar="OUT.jsonl", help="write a JSON Lines trace here")
    r.add_argument(
        "--trace-bytes",
        choices=("bytes", "hash"),
        default="bytes",
        help="the trace records the bytes each instruction wrote (bytes, default) or their "
        "sha256 (hash)",
    )
    r.add_argument(
        "--save-state",
        metavar="OUT.npz",
        help="write the machine's state when the program stops (sbuf, psum, registers, "
        "accumulators): an --init file",
    )
    t = sub.add_parser("trace-diff", help="the first divergence of two traces")
    t.add_argument("a", metavar="A.jsonl", help="the first trace (tpb-isa-trace/1)")
    t.add_argument("b", metavar="B.jsonl", help="the second trace")
    t.add_argument(
        "--gen",
        "-g",
        metavar="G",
        help=f"the generation ({gens}) of records that do not name theirs, for the text form",
    )
    programcli.add_parser(sub)
    return p


COMMANDS = {
    "disasm": disasm,
    "asm": asm,
    "explain": explain,
    "cover": cover,
    "run": run,
    "trace-diff": trace_diff,
    "program": programcli.command,
}


class _Closed(io.StringIO):
    """Standard output or error when the process started with it closed: writing fails as
    writing to a closed descriptor does."""

    def write(self, s: str) -> int:
        raise OSError(errno.EBADF, "closed")


def _silence(stream: Any) -> None:
    """Point a failed standard stream's descriptor at /dev/null, so the interpreter's last
    flush at exit does not fail (and print) again."""
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (AttributeError, OSError, ValueError):
        pass


def main(
    argv: Sequence[str] | None,
    package: ModuleType,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out = out or sys.stdout or _Closed()
    err = err or sys.stderr or io.StringIO()
    return _main(argv, package, out, err)


def _main(argv: Sequence[str] | None, package: ModuleType, out: TextIO, err: TextIO) -> int:
    try:
        args = parser(package).parse_args(argv)
    except SystemExit as e:
        return BAD_INPUT if e.code else OK
    try:
        code = COMMANDS[args.command](args, package, out, err)
        out.flush()
        return code
    except InputError as e:
        err.write(f"error: {e}\n")
        return BAD_INPUT
    except OSError as e:  # writing standard output: closed, full, a reader gone away
        where = e.filename if e.filename is not None else "standard output"
        if e.filename is None:
            _silence(out)
        if e.errno != errno.EPIPE or e.filename is not None:
            err.write(f"error: {where}: {e.strerror or e}\n")
        return BAD_INPUT
