"""The `tpbgen` command: parse arguments, call a stage, print its diagnostics, pick the exit code."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import Diagnostic, ExitCode, Severity, TpbgenError

DEFAULT_HEADERS = Path("vendor_headers")


ERROR_FORMAT = "text"  # set from --error-format before a command runs


def _print_diags(diags: Sequence[Diagnostic], stream: object = None) -> None:
    out = stream or sys.stderr
    for d in diags:
        print(render_diagnostic(d, ERROR_FORMAT), file=out)  # type: ignore[arg-type]


def render_diagnostic(d: Diagnostic, fmt: str) -> str:
    """text: `file:line:col: severity [code]: message`; json: one object per line;
    github: a workflow command, so CI annotates the header line."""
    if fmt == "json":
        return json.dumps({"file": d.file, "line": d.line, "col": d.col, "severity": d.severity.value, "code": d.code,
                           "pointer": d.pointer, "message": d.message}, sort_keys=True)
    if fmt == "github":
        level = {"error": "error", "warning": "warning"}.get(d.severity.value, "notice")
        where = ",".join(x for x in (f"file={d.file}" if d.file else "", f"line={d.line}" if d.line else "", f"col={d.col}" if d.col else "") if x)
        message = d.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        return f"::{level} {where}::{d.code + ': ' if d.code else ''}{message}" if where else f"::{level}::{message}"
    return d.render()


# -- inspect ------------------------------------------------------------------------------------
def cmd_inspect(args: argparse.Namespace) -> int:
    from ..checks.annotations import check_annotations
    from ..frontend.ingest import ingest_root
    from ..ir import io as ir_io
    from .summary import render_text

    result = ingest_root(args.headers, [args.gen], use_cache=not args.no_cache)[0]
    gen = result.gen
    warnings = [*result.warnings, *check_annotations(gen)]
    if args.format == "json":
        _print_diags(warnings)
        sys.stdout.write(ir_io.dumps(gen))
    else:
        from ..translate.validators import translate

        tops: list[tuple[str, tuple[int, ...]]] | None
        try:
            tops = [(t.name, t.opcodes) for t in translate(gen).top]
        except TpbgenError as exc:  # the IR is still worth showing; the diagnostics say why no validators
            warnings.extend(exc.diagnostics)
            tops = None
        _print_diags(warnings)
        sys.stdout.write(render_text(gen, tops))
    if args.verify_cc:
        from ..checks.verify_cc import verify_cc

        try:
            mismatches, compared = verify_cc(gen, _include_root(args.headers, gen.tpb_dir))
        except RuntimeError as exc:
            raise TpbgenError([Diagnostic(str(exc), code="verify-cc")]) from None
        _print_diags(mismatches)
        print(f"verify-cc: {gen.name}: {compared} layout facts compared with the C compiler, {len(mismatches)} mismatches", file=sys.stderr)
        if mismatches:
            return ExitCode.FINDINGS
    return ExitCode.OK


def _include_root(headers: Path, tpb_rel: str) -> Path:
    from ..frontend.discover import discover

    for s in discover(headers):
        if s.rel_tpb_dir == tpb_rel:
            return s.root
    return headers


# -- reconcile ----------------------------------------------------------------------------------
def cmd_reconcile(args: argparse.Namespace) -> int:
    from ..checks.reconcile import Finding, read_waivers, reconcile
    from ..frontend.ingest import ingest_root

    results = ingest_root(args.headers, args.gen or None, use_cache=not args.no_cache)
    findings: list[Finding] = []
    for r in results:
        waivers = []
        wfile = ""
        if args.waivers:
            path = args.waivers / f"{r.gen.name}.waivers"
            if path.exists():
                waivers = read_waivers(path)
                wfile = str(path)
        findings.extend(reconcile(r.gen, strict=args.strict, waivers=waivers, waiver_file=wfile))
    shown = [f for f in findings if args.verbose or f.severity != Severity.INFO]
    if args.format == "json":
        doc = [
            {k: (v.value if isinstance(v, Severity) else v) for k, v in f.__dict__.items()}
            for f in findings
        ]
        sys.stdout.write(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    else:
        for f in shown:
            d = f.diagnostic()
            print(f"{f.gen}: {d.render()}" if ERROR_FORMAT == "text" else render_diagnostic(d, ERROR_FORMAT))
        counts: dict[str, int] = {}
        for f in findings:
            counts[f.kind] = counts.get(f.kind, 0) + 1
        print("reconcile: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return ExitCode.FINDINGS if any(f.severity == Severity.ERROR for f in findings) else ExitCode.OK


# -- entry point --------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tpbgen", description="AWS Neuron TPB arch-ISA headers -> typed, validated, executable Python runtime.")
    p.add_argument("--version", action="version", version=f"tpbgen {__version__}")
    p.add_argument("--error-format", choices=("text", "json", "github"), default="text",
                   help="how diagnostics are printed on stderr (github: workflow annotations)")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--headers", type=Path, default=DEFAULT_HEADERS, help="header root holding neuron_<gen>_arch_isa/tpb/ (default: vendor_headers/)")
        sp.add_argument("--no-cache", action="store_true", help="ignore and do not write the IR cache")

    sp = sub.add_parser("inspect", help="show one generation's IR (json) or a readable summary (text)")
    common(sp)
    sp.add_argument("--gen", required=True, help="generation name, e.g. mariana")
    sp.add_argument("--format", choices=("text", "json"), default="text")
    sp.add_argument("--verify-cc", action="store_true", help="compare every computed layout with the C compiler")
    sp.set_defaults(func=cmd_inspect)

    sp = sub.add_parser("reconcile", help="check instruction_mapping.json against each generation's OPCODE enum")
    common(sp)
    sp.add_argument("--gen", action="append", help="generation to check (repeatable; default: all)")
    sp.add_argument("--format", choices=("text", "json"), default="text")
    sp.add_argument("--strict", action="store_true", help="stale names are errors, not warnings")
    sp.add_argument("--waivers", type=Path, help="directory of <gen>.waivers files accepting named findings")
    sp.add_argument("-v", "--verbose", action="store_true", help="also print informational findings")
    sp.set_defaults(func=cmd_reconcile)

    for register in _EXTRA_COMMANDS:
        register(sub, common)
    return p


# Later stages add their commands here, each from its own module.
def _extra_commands() -> list[Callable[[Any, Callable[[argparse.ArgumentParser], None]], None]]:
    from .audit import register as audit
    from .generate import register as generate

    return [generate, audit]


_EXTRA_COMMANDS = _extra_commands()


def main(argv: Sequence[str] | None = None) -> int:
    global ERROR_FORMAT
    parser = build_parser()
    args = parser.parse_args(argv)
    ERROR_FORMAT = args.error_format
    try:
        code = int(args.func(args))
    except TpbgenError as exc:
        _print_diags(exc.diagnostics)
        code = int(exc.exit_code)
    except KeyboardInterrupt:
        code = 130
    except Exception as exc:  # a bug: say so plainly, show the traceback only when asked
        if os.environ.get("TPBGEN_DEBUG"):
            raise
        print(f"tpbgen: internal error: {type(exc).__name__}: {exc} (set TPBGEN_DEBUG=1 for a traceback)", file=sys.stderr)
        code = int(ExitCode.INTERNAL)
    return code


