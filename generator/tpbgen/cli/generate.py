"""`tpbgen generate`: build the package, then write it into --out (or compare: --check)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import Diagnostic, ExitCode, fail
from ..frontend.limits import DEFAULT as DEFAULT_LIMITS
from ..frontend.limits import Limits
from .output import Outcome

if TYPE_CHECKING:  # the pipeline is imported when generate runs: other commands do not load it
    from ..driver import Build

DEFAULT_OUT = Path("generated")


def positive_limit(text: str) -> float:
    """A limit option's value: a finite number above zero (not `nan`, `inf` or `0`)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, not {text!r}")
    return value


def register(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the `generate` subcommand and its options (--out, --check, --diff, --strict, --waivers,
    --no-verify-cc and the preprocessing limits) to `sub`."""
    sp = sub.add_parser(
        "generate", help="render the tpb_isa runtime package from the headers into generated/"
    )
    common(sp)
    sp.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help="output directory: new, empty, or written by tpbgen before (default: generated/)",
    )
    sp.add_argument(
        "--check",
        action="store_true",
        help="compare with --out instead of writing; exit 1 when stale",
    )
    sp.add_argument(
        "--diff",
        action="store_true",
        help="with --check: print a unified diff of what generate would change (patch -p1 applies it)",
    )
    sp.add_argument(
        "--strict",
        action="store_true",
        help="stale JSON names and predicates outside the translator's subset are errors",
    )
    sp.add_argument(
        "--waivers",
        type=Path,
        help="directory of <gen>.waivers files accepting named findings (as reconcile)",
    )
    sp.add_argument(
        "--no-verify-cc",
        action="store_true",
        help="do not prove the computed layouts and the translated predicates against the C "
        "compiler (the summary says so)",
    )
    d = DEFAULT_LIMITS
    sp.add_argument(
        "--max-preprocessed-mb",
        type=positive_limit,
        default=d.preprocessed_bytes / 2**20,
        help=f"refuse headers that preprocess to more (default {d.preprocessed_bytes // 2**20} MB)",
    )
    sp.add_argument(
        "--max-line-kb",
        type=positive_limit,
        default=d.line_bytes / 1024,
        help=f"refuse a preprocessed line (a macro expansion) longer than this (default {d.line_bytes // 1024} KB)",
    )
    sp.add_argument(
        "--max-preprocess-seconds",
        type=positive_limit,
        default=d.preprocess_seconds,
        help=f"refuse headers the preprocessor takes longer on (default {d.preprocess_seconds:g} s)",
    )
    sp.set_defaults(func=run)


def summary(build: Build) -> str:
    """`generate`'s summary: per generation its counts, the layout proof, the stale JSON names, the
    predicate proof and (when run) the executor's."""
    lines = []
    for s in build.summaries:
        stale = f"stale JSON names {len(s.stale_names)}" + (
            f": {', '.join(s.stale_names)} (details: tpbgen reconcile)" if s.stale_names else ""
        )
        lines.append(
            f"{s.name:9s} {s.core_version:6s} enums {s.enums:3d}  structs {s.structs:3d}  functions {s.functions:3d}  top-level validators {s.top_validators:2d}"
        )
        lines.append(f"{'':16s} {s.layouts}; {stale}")
        lines.append(f"{'':16s} {s.predicates}")
        if s.executor:
            lines.append(f"{'':16s} {s.executor}")
    return "".join(line + "\n" for line in lines)


def run(args: argparse.Namespace) -> Outcome:
    """`tpbgen generate`: refuse an output directory tpbgen does not own before any work, run the
    driver, then write the package (or with --check, compare it and say what is stale); the
    outcome carries the summary and the exit code."""
    from ..driver import Options, generate
    from ..emit.writer import MANIFEST, check_out_path, diff_tree, ownership, tree_patch, write_tree

    out: Path = args.out
    if args.diff and not args.check:
        raise fail("--diff goes with --check: it shows what generate would change", code="usage")
    check_out_path(out, args.headers)
    if not args.check:
        ownership(out, {})  # refuse a directory tpbgen does not own before the work, not after
    limits = Limits(
        int(args.max_preprocessed_mb * 2**20),
        int(args.max_line_kb * 1024),
        args.max_preprocess_seconds,
    )
    options = Options(
        use_cache=not args.no_cache,
        strict=args.strict,
        waivers=args.waivers,
        verify=not args.no_verify_cc,
        limits=limits,
    )
    build = generate(args.headers, options)
    if build.failed:
        return Outcome(int(build.exit_code), summary(build), build.diagnostics)
    if args.check:
        d = diff_tree(build.files, out)
        if d.clean:
            return Outcome(
                ExitCode.OK,
                f"{out}/ is current: {len(d.unchanged)} files match their inputs\n",
                build.diagnostics,
            )
        stale = [
            Diagnostic(what, str(out / n), code="stale-output")
            for what, names in (
                ("missing: the headers generate it", d.added),
                ("differs from what the headers generate", d.changed),
                (f"no longer generated (its {MANIFEST} lists it)", d.removed),
            )
            for n in names
        ]
        stale.append(
            Diagnostic(
                f"stale: {len(d.added)} missing, {len(d.changed)} differ, {len(d.removed)} extra; run `tpbgen generate`",
                str(out),
                code="stale-output",
            )
        )
        patch = tree_patch(build.files, out, d) if args.diff else ""
        return Outcome(ExitCode.FINDINGS, patch, build.diagnostics + stale)
    result = write_tree(build.files, out)
    d = result.diff
    report = (
        summary(build)
        + f"{out}: {len(d.added) + len(d.changed)} files written, {len(d.unchanged)} unchanged, {len(d.removed)} removed\n"
    )
    return Outcome(ExitCode.OK, report, build.diagnostics + result.notes)
