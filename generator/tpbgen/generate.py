"""`tpbgen generate`: ingest every generation, reconcile, translate, render, write (or --check)."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import __version__
from .errors import Diagnostic, ExitCode, TpbgenError
from .ingest import ingest_root
from .ir.model import Generation
from .mapping import reconcile
from .translate.validators import TranslatedGen, translate

DEFAULT_OUT = Path("generated")


def manifest(gens: list[Generation]) -> dict[str, Any]:
    inputs = []
    for g in gens:
        for f in g.files:
            inputs.append({"path": f.path, "sha256": f.sha256})
    return {
        "generator": f"tpbgen {__version__}",
        "generations": [g.name for g in gens],
        "inputs": sorted(inputs, key=lambda x: x["path"]),
        "inputs_sha256": hashlib.sha256("".join(g.inputs_sha256 for g in gens).encode()).hexdigest(),
    }


def audit_markdown(gens: list[Generation]) -> str:
    from .audit import render_audit_markdown

    return render_audit_markdown(gens)


def build_files(headers: Path, use_cache: bool = True) -> tuple[dict[str, str], list[tuple[Generation, TranslatedGen]], list[Diagnostic]]:
    from .emit.render import RenderInput, render

    results = ingest_root(headers, use_cache=use_cache)
    gens = [r.gen for r in results]
    warnings: list[Diagnostic] = [w for r in results for w in r.warnings]
    translated: list[tuple[Generation, TranslatedGen]] = []
    errors: list[Diagnostic] = []
    for g in gens:
        try:
            tr = translate(g)
        except TpbgenError as exc:
            errors.extend(exc.diagnostics)
            continue
        warnings.extend(tr.warnings)
        translated.append((g, tr))
    if errors:
        raise TpbgenError(errors)
    man = manifest(gens)
    files = render(RenderInput(translated, audit_markdown(gens), man))
    files["MANIFEST.json"] = json.dumps(man, indent=2, sort_keys=True) + "\n"
    return files, translated, warnings


def cmd_generate(args: argparse.Namespace) -> int:
    from .emit.writer import diff_tree, write_tree

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

