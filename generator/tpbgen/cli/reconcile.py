"""`tpbgen reconcile`: instruction_mapping.json against each generation's OPCODE enum."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import ExitCode, Severity, rebase
from .output import Outcome


def register(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add `tpbgen reconcile [--gen NAME ...] [--strict]` to the command line."""
    sp = sub.add_parser(
        "reconcile", help="check instruction_mapping.json against each generation's OPCODE enum"
    )
    common(sp)
    sp.add_argument("--gen", action="append", help="generation to check (repeatable; default: all)")
    sp.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="findings as text lines or one JSON document (default text)",
    )
    sp.add_argument("--strict", action="store_true", help="stale names are errors, not warnings")
    sp.add_argument(
        "--waivers", type=Path, help="directory of <gen>.waivers files accepting named findings"
    )
    sp.add_argument(
        "-v", "--verbose", action="store_true", help="also print informational findings"
    )
    sp.set_defaults(func=run)


def run(args: argparse.Namespace) -> Outcome:
    """`tpbgen reconcile`: hold each generation's IR to its instruction_mapping.json (with its
    waivers applied) and report the findings; exit FINDINGS when any is an error."""
    from ..checks.reconcile import Finding, reconcile, waivers_for
    from ..frontend.ingest import ingest_root

    results = ingest_root(args.headers, args.gen or None, use_cache=not args.no_cache)
    findings: list[tuple[Finding, Path]] = []
    warnings = [w for r in results for w in r.warnings]
    for r in results:
        ws, wfile = waivers_for(args.waivers, r.gen.name)
        findings.extend(
            (f, r.root) for f in reconcile(r.gen, strict=args.strict, waivers=ws, waiver_file=wfile)
        )
    code = (
        ExitCode.FINDINGS if any(f.severity == Severity.ERROR for f, _ in findings) else ExitCode.OK
    )
    if args.format == "json":
        doc = [
            {k: (v.value if isinstance(v, Severity) else v) for k, v in f.__dict__.items()}
            for f, _ in findings
        ]
        return Outcome(code, json.dumps(doc, indent=2, sort_keys=True) + "\n", warnings)
    shown = [
        d
        for f, root in findings
        if args.verbose or f.severity != Severity.INFO
        for d in rebase([f.diagnostic()], root)
    ]
    counts: dict[str, int] = {}
    for f, _ in findings:
        counts[f.kind] = counts.get(f.kind, 0) + 1
    return Outcome(
        code,
        "reconcile: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + "\n",
        warnings,
        shown,
    )
