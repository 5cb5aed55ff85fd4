"""`tpbgen inspect --gen G [--format text|json] [--verify-cc]`: one generation's IR."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..errors import Diagnostic, ExitCode, Severity, TpbgenError, rebase
from .output import Outcome


def register(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add `tpbgen inspect --gen NAME [--format text|json]` to the command line."""
    sp = sub.add_parser(
        "inspect", help="show one generation's IR (json) or a readable summary (text)"
    )
    common(sp)
    sp.add_argument("--gen", required=True, help="generation name, e.g. mariana")
    sp.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="a readable summary with byte maps, or the IR as JSON (ir/schema.json) (default text)",
    )
    sp.add_argument(
        "--verify-cc", action="store_true", help="compare every computed layout with the C compiler"
    )
    sp.set_defaults(func=run)


def run(args: argparse.Namespace) -> Outcome:
    """`tpbgen inspect`: ingest one generation and print its IR (JSON) or a text summary, with the
    annotation and executor checks as warnings, and the layout proof against the C compiler when
    asked."""
    from ..checks.annotations import check_annotations
    from ..checks.executor import check_executor, coverage_lines
    from ..frontend.ingest import ingest_root
    from ..ir import io as ir_io
    from .summary import render_text

    result = ingest_root(args.headers, [args.gen], use_cache=not args.no_cache)[0]
    gen = result.gen
    warnings = [
        *result.warnings,
        *rebase([*check_annotations(gen), *check_executor(gen)], result.root),
    ]
    if args.format == "json":
        text = ir_io.dumps(gen)
    else:
        from ..translate.validators import translate

        tops: list[tuple[str, tuple[int, ...]]] | None
        try:
            tops = [(t.name, t.opcodes) for t in translate(gen).top]
        except (
            TpbgenError
        ) as exc:  # the IR is still worth showing; the diagnostics say why no validators
            warnings.extend(rebase(exc.diagnostics, result.root))
            tops = None
        text = render_text(gen, result.root, tops) + "\n".join(coverage_lines(gen)) + "\n"
    code = ExitCode.OK
    if args.verify_cc:
        from ..checks.verify_cc import verify_cc

        try:
            mismatches, compared = verify_cc(gen, result.root)
        except RuntimeError as exc:
            raise TpbgenError([Diagnostic(str(exc), code="verify-cc")]) from None
        warnings += rebase(mismatches, result.root)
        warnings += rebase(
            [
                Diagnostic(
                    f"{compared} layout facts compared with the C compiler, {len(mismatches)} mismatches",
                    gen.tpb_dir,
                    severity=Severity.INFO,
                    code="verify-cc",
                )
            ],
            result.root,
        )
        if mismatches:
            code = ExitCode.FINDINGS
    return Outcome(code, text, warnings)
