"""`tpbgen audit OLD NEW [--format text|md|json|html] [--out FILE] [--fail-on breaking|any|none]`
and `tpbgen audit --all`. Exit 0: nothing at the --fail-on level; 1: something is; 2: unusable input."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .. import collector
from ..errors import Diagnostic, ExitCode, Severity, TpbgenError, fail, shown_path
from ..ir.model import Generation
from .output import Outcome

if TYPE_CHECKING:
    from ..audit.classify import Finding
    from ..audit.diff import Side
    from ..audit.report import AuditReport


def register(
    sub: argparse._SubParsersAction,  # type: ignore[type-arg]
    common: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Add the `audit` subcommand and its arguments (OLD and NEW, --all, --format, --out, --fail-on)
    to `sub`."""
    sp = sub.add_parser(
        "audit",
        help="what changed between two generations or two header drops, classified by what it breaks",
        description="Compare two header drops structurally (enums, opcodes, constants, struct layouts, validator terms, "
        "JSON bindings) and classify every change: encoding-breaking, api-breaking, additive, informational.",
    )
    common(sp)
    sp.add_argument(
        "old",
        nargs="?",
        metavar="OLD",
        help="a generation name under --headers, or the path of a tpb/ tree",
    )
    sp.add_argument("new", nargs="?", metavar="NEW", help="likewise")
    sp.add_argument(
        "--all",
        action="store_true",
        help="walk every generation under --headers: sunda -> cayman -> mariana -> maverick",
    )
    sp.add_argument(
        "--format",
        choices=("text", "md", "json", "html"),
        default="text",
        help="report format: text, markdown, JSON (report.schema.json) or an HTML page (default text)",
    )
    sp.add_argument("--out", type=Path, help="write the report here instead of stdout")
    sp.add_argument(
        "--fail-on",
        choices=("breaking", "any", "none"),
        default="breaking",
        help="exit 1 when a finding at this level exists (default: breaking = encoding- or api-breaking)",
    )
    sp.set_defaults(func=run)


Resolved = tuple[Generation, list[Diagnostic], Path]  # the IR, its warnings, its header root


def _resolve(spec: str, headers: Path, use_cache: bool) -> Resolved:
    """An audit side (a generation name under `headers`, a tpb/ directory, or a directory holding
    exactly one) ingested: its IR, warnings and header root. A path that is not a directory, or
    that holds several generations, is a located error."""
    from ..frontend.discover import discover, source_for_tpb_dir
    from ..frontend.ingest import ingest, ingest_root

    p = Path(spec)
    looks_like_path = (
        "/" in spec
        or spec.startswith(".")
        or (p.is_dir() and (p.name == "tpb" or (p / "tpb").is_dir()))
    )
    if looks_like_path and p.is_dir():
        if p.name != "tpb" and (p / "tpb").is_dir():
            p = p / "tpb"
        if p.name == "tpb":
            r = ingest(source_for_tpb_dir(p), use_cache)
            return r.gen, list(r.warnings), r.root
        sources = discover(p)
        if len(sources) != 1:
            raise fail(
                f"{spec} holds {len(sources)} generations ({', '.join(s.name for s in sources)}); name one tpb/ tree",
                spec,
                code="ambiguous",
            )
        r = ingest(sources[0], use_cache)
        return r.gen, list(r.warnings), r.root
    if looks_like_path:
        raise fail(
            f"not a directory: {spec} (expected a generation name or the path of a tpb/ tree)",
            spec,
            code="not-tpb",
        )
    r = ingest_root(headers, [spec], use_cache)[0]
    return r.gen, list(r.warnings), r.root


def run(args: argparse.Namespace) -> Outcome:
    """`tpbgen audit` (see `_run`), with the cycle collector paused while the IRs load and diff."""
    # Loading the IRs and auditing them makes no reference cycles; a full collection in the
    # middle of either walks every object of every IR loaded so far.
    with collector.paused():
        return _run(args)


def _run(args: argparse.Namespace) -> Outcome:
    """The audit the arguments ask for: the generations walked (all of them, or OLD and NEW),
    the report rendered and written or returned, and the exit code `--fail-on` gives."""
    from ..audit.classify import counts, fails
    from ..audit.report import render

    use_cache = not args.no_cache
    if args.all:
        report, roots, warnings = _walk_all(args, use_cache)
    else:
        report, roots, warnings = _walk_pair(args, use_cache)
    report = located_from_here(report, roots)
    colour = (
        args.format == "text"
        and args.out is None
        and sys.stdout.isatty()
        and not os.environ.get("NO_COLOR")
    )
    text = render(report, args.format, colour=colour, fail_on=args.fail_on)
    if args.out is not None:
        _write_report(args.out, text)
    code = ExitCode.FINDINGS if fails(report.findings(), args.fail_on) else ExitCode.OK
    annotations = (
        [
            annotation(f, args.fail_on, f"{t.old.label} -> {t.new.label}")
            for t in report.transitions
            for f in t.findings
        ]
        if args.error_format == "github"
        else []
    )
    note = _why_exit(code, args.fail_on)
    if args.out is None:
        return Outcome(code, text, warnings, annotations, note)
    found = ", ".join(f"{n} {cls}" for cls, n in counts(report.findings()).items())
    return Outcome(
        code, f"{args.out}: {args.format} report written ({found})\n", warnings, annotations, note
    )


def _walk_all(
    args: argparse.Namespace, use_cache: bool
) -> tuple[AuditReport, list[Path], list[Diagnostic]]:
    """`audit --all`: every generation under --headers, in order, with the firmware overlay's
    states when the root has one; their include roots; the ingest's warnings."""
    from ..audit.run import audit_walk
    from ..cache import Cache
    from ..frontend.firmware import OVERLAY_NAME, read_overlay
    from ..frontend.ingest import ingest_root

    if args.old or args.new:
        raise fail(
            "audit --all walks every generation under --headers; it takes no OLD/NEW",
            code="usage",
        )
    results = ingest_root(args.headers, use_cache=use_cache)
    gens = [r.gen for r in results]
    warnings = [w for r in results for w in r.warnings]
    if len(gens) < 2:
        raise fail(
            f"audit --all needs two or more generations under {args.headers}, found {len(gens)}",
            str(args.headers),
            code="usage",
        )
    report = audit_walk(gens)
    cache = Cache() if use_cache else None
    overlay = read_overlay(args.headers, gens, str(args.headers / OVERLAY_NAME), cache)
    if overlay is not None:
        report = replace(report, firmware=overlay.states())
    return report, [r.root for r in results], warnings


def _refuse_unknown_names(specs: list[str], headers: Path) -> None:
    """Each side given as a name (not a path) that is neither a generation under `headers` nor a
    directory, refused by the argument the user gave (both sides at once)."""
    from ..frontend.discover import discover

    names = [s for s in specs if "/" not in s and not s.startswith(".") and not Path(s).is_dir()]
    if not names:
        return
    known = [g.name for g in discover(headers)] if headers.is_dir() else []
    bad = [s for s in names if s not in known]
    if bad:
        have = f"it has {', '.join(known)}" if known else "it does not exist"
        raise TpbgenError(
            [
                Diagnostic(
                    f"no generation '{s}' under the header root {headers} ({have}), "
                    "and no directory of that name",
                    s,
                    code="unknown-gen",
                )
                for s in bad
            ]
        )


def _walk_pair(
    args: argparse.Namespace, use_cache: bool
) -> tuple[AuditReport, list[Path], list[Diagnostic]]:
    """`audit OLD NEW`: the two generations (names under --headers or tpb/ trees); their include
    roots; the ingest's warnings."""
    from ..audit.run import audit_walk

    if not (args.old and args.new):
        raise fail(
            "audit needs OLD and NEW (generation names under --headers or paths of tpb/ trees), or --all",
            code="usage",
        )
    _refuse_unknown_names([args.old, args.new], args.headers)
    old, w_old, root_old = _resolve(args.old, args.headers, use_cache)
    new, w_new, root_new = _resolve(args.new, args.headers, use_cache)
    report = audit_walk([old, new], [args.old, args.new])
    return report, [root_old, root_new], [*w_old, *w_new]


def _write_report(out: Path, text: str) -> None:
    """The report written to `out` (its directory made); a located error when it cannot be."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise TpbgenError(
            [
                Diagnostic(
                    f"cannot write the report: {exc.strerror}",
                    str(out),
                    severity=Severity.ERROR,
                    code="out",
                )
            ]
        ) from None


def located_from_here(report: AuditReport, roots: Sequence[Path]) -> AuditReport:
    """The report with each finding's OLD and NEW files as they open from the current directory
    (the IR names them relative to each drop's header root, so two drops' files would read
    alike). `roots[i]` is the header root of `report.generations[i]`."""
    bases = [str(r.resolve()) for r in roots]

    def side(s: Side, base: str) -> Side:
        return dataclasses.replace(s, file=shown_path(s.file, base))

    def finding(f: Finding, old: str, new: str) -> Finding:
        return dataclasses.replace(f, old=side(f.old, old), new=side(f.new, new))

    transitions = tuple(
        dataclasses.replace(
            t, findings=tuple(finding(f, bases[i], bases[i + 1]) for f in t.findings)
        )
        for i, t in enumerate(report.transitions)
    )
    return dataclasses.replace(report, transitions=transitions)


def annotation(f: Finding, fail_on: str, pair: str) -> Diagnostic:
    """A finding of the audit `pair` ("OLD -> NEW") as a diagnostic for `--error-format github`:
    at its NEW place (its OLD one when NEW lacks it); an error when it alone makes the audit
    fail (--fail-on), a warning when it is breaking, else a notice."""
    from ..audit.classify import BREAKING, fails

    at = f.new if f.new.present or not f.old.present else f.old
    severity = (
        Severity.ERROR
        if fails([f], fail_on)
        else Severity.WARNING
        if f.cls in BREAKING
        else Severity.INFO
    )
    return Diagnostic(f"{f.cls} ({pair}): {f.summary}", at.file, at.line, 0, severity, f.kind)


def _why_exit(code: int, fail_on: str) -> str:
    """The last line when the audit exits 1: which findings made it, and how to change that."""
    if code != ExitCode.FINDINGS:
        return ""
    what = "breaking (encoding- or api-breaking)" if fail_on == "breaking" else "any"
    return (
        f"audit: exit 1: {what} findings, as --fail-on {fail_on} asks"
        " (--fail-on none reports without failing)\n"
    )
