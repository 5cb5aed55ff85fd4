"""`tpbgen generate`: build the package's file set, then write it into --out (or compare: --check)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..checks.reconcile import reconcile
from ..emit.pipeline import build_files
from ..errors import ExitCode

DEFAULT_OUT = Path("generated")


def cmd_generate(args: argparse.Namespace) -> int:
    from ..emit.writer import diff_tree, write_tree

    files, translated, warnings = build_files(args.headers, use_cache=not args.no_cache)
    for w in warnings:
        print(w.render(), file=sys.stderr)
    out: Path = args.out
    if args.check:
        d = diff_tree(files, out)
        if d.clean:
            print(f"generated/ is current: {len(d.unchanged)} files match their inputs")
            return ExitCode.OK
        for label, names in (("missing", d.added), ("differs", d.changed), ("not generated (stale)", d.removed)):
            for n in names:
                print(f"{out / n}: {label}", file=sys.stderr)
        print(f"{out}: stale: {len(d.added)} missing, {len(d.changed)} differ, {len(d.removed)} extra; run `tpbgen generate`", file=sys.stderr)
        return ExitCode.FINDINGS
    d = write_tree(files, out)
    for g, tr in translated:
        stale = [f for f in reconcile(g) if f.kind == "stale"]
        print(
            f"{g.name:9s} {g.core_version:6s} enums {len(g.enums):3d}  structs {len(g.structs):3d}  "
            f"functions {len(tr.functions):3d}  top-level validators {len(tr.top):2d}  stale JSON names {len(stale)}"
        )
    print(f"{out}: {len(d.added) + len(d.changed)} files written, {len(d.unchanged)} unchanged, {len(d.removed)} removed")
    return ExitCode.OK


def register(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    sp = sub.add_parser("generate", help="render the tpb_isa runtime package from the headers into generated/")
    common(sp)
    sp.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory (default: generated/)")
    sp.add_argument("--check", action="store_true", help="compare with --out instead of writing; exit 1 when stale")
    sp.set_defaults(func=cmd_generate)

