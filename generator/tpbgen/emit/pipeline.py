"""The generated package as a file set: ingest every generation, translate, render (no printing, no writing)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import Diagnostic, TpbgenError
from ..frontend.ingest import ingest_root
from ..ir.model import Generation
from ..translate.validators import TranslatedGen, translate


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
    from ..audit import render_audit_markdown

    return render_audit_markdown(gens)


def build_files(headers: Path, use_cache: bool = True) -> tuple[dict[str, str], list[tuple[Generation, TranslatedGen]], list[Diagnostic]]:
    from .render import RenderInput, render

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
