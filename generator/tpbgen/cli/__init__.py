"""The `tpbgen` command: parse arguments, run a command, print its outcome, pick the exit code.

This package is the only place that prints (see output.py). Exit codes, for every command:
0 ok; 1 findings (error-level findings, a stale generated/ for --check, breaking audit changes);
2 input or environment tpbgen cannot use (bad headers or JSON, a refused --out, a file system
fault), always with a located message and no traceback; 3 a bug in tpbgen.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import __version__
from ..deep import run_deep
from ..errors import Diagnostic, ExitCode, Severity, TpbgenError
from .output import FORMATS, Outcome, print_diagnostics, print_outcome

DEFAULT_HEADERS = Path("vendor_headers")

Register = Callable[[Any, Callable[[argparse.ArgumentParser], None]], None]


def _commands() -> list[Register]:
    from . import audit, cache, generate, inspect, reconcile

    return [generate.register, inspect.register, reconcile.register, audit.register, cache.register]


def _error_format(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument(
        "--error-format",
        choices=FORMATS,
        default=default,
        help="how diagnostics are printed (github: workflow annotations); for every command, "
        "before or after its name",
    )


def build_parser() -> argparse.ArgumentParser:
    """The `tpbgen` argument parser: the global --version and --error-format, and one subcommand per
    cli module, each given the common --headers option."""
    p = argparse.ArgumentParser(
        prog="tpbgen",
        description="AWS Neuron TPB arch-ISA headers -> typed, validated, executable Python runtime.",
    )
    p.add_argument("--version", action="version", version=f"tpbgen {__version__}")
    _error_format(p, "text")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--headers",
            type=Path,
            default=DEFAULT_HEADERS,
            help="header root holding neuron_<gen>_arch_isa/tpb/ (default: vendor_headers/)",
        )
        parser.add_argument(
            "--no-cache", action="store_true", help="neither read nor write the IR cache"
        )

    for register in _commands():
        register(sub, common)
    for sp in sub.choices.values():  # anywhere on the line: `tpbgen audit --error-format github`
        # SUPPRESS: given after the command it overrides, not given it leaves the one before
        _error_format(sp, argparse.SUPPRESS)
    return p


_LEXER = f"{__package__.rpartition('.')[0]}.frontend.lexer"


def with_lexer_note(outcome: Outcome) -> Outcome:
    """The outcome, and one note when this run parsed headers with pycparser's own lexer because
    FastLexer did not pass its check against the installed one (slower, the same IR)."""
    if _LEXER not in sys.modules:  # nothing was parsed (a warm run never loads the lexer)
        return outcome
    from ..frontend.lexer import parsed_with

    choice = parsed_with()
    if choice is None or choice.fast:
        return outcome
    note = Diagnostic(choice.why, choice.where, severity=Severity.INFO, code="lexer")
    return replace(outcome, diagnostics=[*outcome.diagnostics, note])


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line `argv` (sys.argv when None) and return its exit code: diagnostics
    printed in the chosen format, a TpbgenError as its located diagnostics and exit code, an
    OSError as a located user error, Ctrl-C as 130; no traceback."""
    parser = build_parser()
    args = parser.parse_args(argv)
    fmt: str = args.error_format
    try:
        outcome: Outcome = run_deep(
            lambda: args.func(args)
        )  # room for deeply nested C (see deep.py)
        try:
            return print_outcome(with_lexer_note(outcome), fmt)
        except OSError as exc:  # standard output closed early (`| head`) or full
            return _stdout_failed(exc, fmt)
    except TpbgenError as exc:
        print_diagnostics(exc.diagnostics, fmt)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        return 130
    except OSError as exc:  # the environment, not tpbgen: a located user error
        from ..emit.writer import os_error

        print_diagnostics(os_error(exc).diagnostics, fmt)
        return int(ExitCode.BAD_INPUT)
    except Exception as exc:  # a bug: say so plainly, show the traceback only when asked
        if os.environ.get("TPBGEN_DEBUG"):
            raise
        print(
            f"tpbgen: internal error: {type(exc).__name__}: {exc} (set TPBGEN_DEBUG=1 for a traceback)",
            file=sys.stderr,
        )
        return int(ExitCode.INTERNAL)


def _stdout_failed(exc: OSError, fmt: str) -> int:
    """A write to standard output failed (its reader went away, its disk is full): said on
    standard error, located at `<stdout>`, exit 2; what is still buffered is dropped rather than
    raised again at exit."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    what = exc.strerror or type(exc).__name__
    if isinstance(exc, BrokenPipeError):
        what += ": its reader stopped reading, so the output is cut short"
    with contextlib.suppress(OSError):
        print_diagnostics([Diagnostic(what, "<stdout>", code="os-error")], fmt)
    return int(ExitCode.BAD_INPUT)
