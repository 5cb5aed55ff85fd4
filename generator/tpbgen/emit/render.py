"""Render the generated package into an in-memory tree: {relative path: text}.

Two kinds of input: the runtime library (`runtime/`, real Python and C) is copied
verbatim into `tpb_isa/_runtime/`; the templates under `templates/runtime/` render what differs
per drop: `package/` to the package root, `gen/` once per generation. The Jinja environment is
strict (an undefined name is an error). Output is deterministic: sorted inputs, no timestamps,
no absolute paths.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import jinja2

from .. import __version__
from ..ir.firmware import FirmwareOverlay
from ..ir.model import Generation
from ..isa.lower import code_roles, lower_checks, lower_methods, runtime_imports
from ..templating import environment, runtime_api, runtime_files, template_root
from ..translate.validators import TranslatedGen
from .context import build_context, executor_readme
from .writer import MANIFEST, MANIFEST_FORMAT, manifest_files


@dataclass(frozen=True)
class RenderInput:
    """Everything the package is rendered from: each generation's IR and translation, the audit
    page, and the headers it ships."""

    gens: list[tuple[Generation, TranslatedGen]]
    audit_md: str
    headers: dict[str, dict[str, str]] = field(
        default_factory=dict
    )  # gen -> {path under the root: text}, shipped for the C validators
    firmware: FirmwareOverlay | None = None  # the drop's firmware_status.json, when it has one


def _templates(root: Traversable | Path, prefix: str = "") -> list[tuple[str, Traversable | Path]]:
    out = []
    for child in sorted(root.iterdir(), key=lambda c: c.name):
        rel = f"{prefix}{child.name}"
        if child.is_dir():
            out += _templates(child, rel + "/")
        elif not child.name.startswith(".") and "__pycache__" not in rel:
            out.append((rel, child))
    return out


@functools.cache
def _environment(root: str) -> jinja2.Environment:
    """One Jinja environment per template directory and process, so each template is compiled
    once (Jinja still reloads a template whose file changed since)."""
    return environment()


def manifest(gens: list[Generation]) -> dict[str, Any]:
    """The MANIFEST's record of what the package was generated from (its files come after)."""
    inputs = []
    for g in gens:
        for f in g.files:
            inputs.append({"path": f.path, "sha256": f.sha256})
    return {
        "format": MANIFEST_FORMAT,
        "generator": f"tpbgen {__version__}",
        "generations": [g.name for g in gens],
        "inputs": sorted(inputs, key=lambda x: x["path"]),
        "inputs_sha256": hashlib.sha256(
            "".join(g.inputs_sha256 for g in gens).encode()
        ).hexdigest(),
    }


def render(inp: RenderInput) -> dict[str, str]:
    """The whole file set, MANIFEST.json (every other file with its sha256) included."""
    man = manifest([g for g, _ in inp.gens])
    files = _render_files(inp, man)
    man["files"] = manifest_files(files)
    files[MANIFEST] = json.dumps(man, indent=2, sort_keys=True) + "\n"
    return files


def _render_files(inp: RenderInput, man: dict[str, Any]) -> dict[str, str]:
    """Every file of the package, by relative path: the runtime library copied, each per-generation
    template rendered once per generation and each package-level template once, with the
    generation contexts, the executor table, AUDIT.md and the manifest."""
    env = _environment(str(template_root()))
    base = template_root() / "runtime"
    has_executor = (base / "gen" / "executor.py.j2").is_file()
    fw = inp.firmware
    contexts = [
        build_context(g, tr, has_executor, fw.facts(g.name) if fw else {}) for g, tr in inp.gens
    ]
    common: dict[str, Any] = {
        "runtime_api": runtime_api(),
        "generator_version": __version__,
        "gens": contexts,
        "executor": executor_readme(contexts),
        "codes": code_roles(),
        "checks": lower_checks(),
        "check_imports": runtime_imports(),
        "methods": lower_methods(),
        "audit_md": inp.audit_md,
        "manifest": man,
    }
    out: dict[str, str] = {f"tpb_isa/_runtime/{rel}": text for rel, text in runtime_files().items()}
    for rel, path in _templates(base):
        if not rel.endswith(".j2"):
            # a static package file (no templating), copied as it is
            top, _, rest = rel.partition("/")
            if top == "package":
                out[rest] = path.read_text(encoding="utf-8")
            continue
        name = rel[: -len(".j2")]
        template = env.get_template(f"runtime/{rel}")
        top, _, rest = name.partition("/")
        if top == "package":
            out[rest] = template.render(**common)
        elif top == "runtime":  # emitted into the runtime library (the executor's codes)
            out[f"tpb_isa/_runtime/{rest}"] = template.render(**common)
        elif top == "gen":
            for ctx in contexts:
                out[f"tpb_isa/{ctx.module}/{rest}"] = template.render(**common, g=ctx)
    for ctx in contexts:  # each generation's headers, as they are, for its C validators
        for header, text in inp.headers.get(ctx.name, {}).items():
            out[f"tpb_isa/{ctx.module}/_c/{header}"] = text
        # anything else directly under runtime/ is a fragment that other templates include
    return out
