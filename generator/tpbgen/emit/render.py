"""Render the generated package into an in-memory tree: {relative path: text}.

Two kinds of input: the support library (`templates/support/`, real Python and C) is copied
verbatim into `tpb_isa/_runtime/`; the templates under `templates/runtime/` render what differs
per drop: `package/` to the package root, `gen/` once per generation. The Jinja environment is
strict (an undefined name is an error). Output is deterministic: sorted inputs, no timestamps,
no absolute paths.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import jinja2

from .. import __version__
from ..ir.model import Generation
from ..resolve import MaintenanceStatus
from ..templating import environment, runtime_api, support_files, template_root
from ..translate.chain import chains
from ..translate.to_numpy import BatchUnsupported, NpEmitter
from ..translate.validators import TranslatedGen
from .context import GenCtx, build_context


@dataclass(frozen=True)
class RenderInput:
    gens: list[tuple[Generation, TranslatedGen]]
    audit_md: str
    manifest: dict[str, Any]
    headers: dict[str, dict[str, str]] = field(
        default_factory=dict
    )  # gen -> {path under the root: text}, shipped for the C validators


def _templates(root: Traversable | Path, prefix: str = "") -> list[tuple[str, Traversable | Path]]:
    out = []
    for child in sorted(root.iterdir(), key=lambda c: c.name):
        rel = f"{prefix}{child.name}"
        if child.is_dir():
            out += _templates(child, rel + "/")
        elif not child.name.startswith(".") and "__pycache__" not in rel:
            out.append((rel, child))
    return out


# The runtime helpers translated code may call, under the names the translator gives them
# (translate/to_python.py, to_numpy.py). Every generated module binds all of them: a binding
# that is not used costs one line, where deciding which are used meant searching the output.
VALIDATOR_HELPERS = (
    ("S_H", "_U16"),
    ("S_I", "_U32"),
    ("S_Q", "_U64"),
    ("S_d", "_F64"),
    ("S_f", "_F32"),
    ("S_h", "_I16"),
    ("S_i", "_I32"),
    ("S_q", "_I64"),
    ("cdiv", "_cdiv"),
    ("cmod", "_cmod"),
    ("f32", "_f32"),
    ("fdiv", "_fdiv"),
)
BATCH_HELPERS = (
    "Members",
    "all_of",
    "any_of",
    "byte",
    "col",
    "colv",
    "fdiv",
    "fill",
    "gather",
    "gather_as",
    "isin",
    "lookup",
    "memo",
    "select",
    "vdiv",
    "vmod",
)


def gen_context(gen: Generation, tr: TranslatedGen, has_executor: bool) -> GenCtx:
    ctx = build_context(gen, tr)
    em = NpEmitter()
    batch = []
    batch_stubs = []
    for lf in tr.lowered:
        try:
            batch.append("\n".join(em.function(lf)))
        except BatchUnsupported as exc:
            # the scalar translation runs it; the batch path raises UntranslatedPredicate for it
            batch_stubs.append((lf.name, f"{lf.loc.file}:{lf.loc.line}", f"not vectorised: {exc}"))
    # the test-bench toolkit's chains: each top-level validator's terms as batch functions
    chain_rows = []
    for ch in chains(gen, tr):
        try:
            terms = [("\n".join(em.function(t.fn)), t.name, t.fn.name) for t in ch.terms]
        except BatchUnsupported:
            continue  # its validator is not vectorised: no stimulus or coverage through it
        batch += [code for code, _, _ in terms]
        chain_rows.append((ch.validator, [(n, f) for _, n, f in terms], ch.constants))
    family = importlib.import_module("tpbgen.templates.support.family")
    extra: dict[str, Any] = {
        "batch_functions": batch,
        "chains": chain_rows,
        "batch_stubs": batch_stubs,
        "executes": [op for op, member, _ in ctx.decode if member in family.HANDLERS],
        "refuses": [op for op, member, _ in ctx.decode if member not in family.HANDLERS],
        "dispatch": sorted(
            {
                op: tuple(t.name for t in tr.top if op in t.opcodes)
                for t in tr.top
                for op in t.opcodes
            }.items()
        ),
        "decode_classes": sorted({cls for _, _, cls in ctx.decode}),
        # how the C entry points pass the word to each top-level validator: by value or by address
        "c_arg": {
            f.name: ("&u" if f.params and f.params[0].by_pointer else "u") for f in gen.functions
        },
        # the tpb/ headers, by name, in the order the ingest preprocessed them
        "c_headers": [
            f.path[len(gen.tpb_dir) + 1 :]
            for f in gen.files
            if f.path.startswith(gen.tpb_dir + "/") and f.path.endswith(".h")
        ],
        "opcode_rows": _opcode_rows(ctx),
        "has_executor": has_executor,
    }
    for k, v in extra.items():
        setattr(ctx, k, v)
    return ctx


@dataclass(frozen=True)
class OpcodeRow:
    value: int
    name: str
    status: str  # "maintained", "not maintained: <note>", "no marker"
    struct: str  # class it decodes to, "outside: <C struct>", or "-"


def _opcode_rows(ctx: GenCtx) -> list[OpcodeRow]:
    enum = next((e for e in ctx.enums if e.cls == ctx.opcode_cls), None)
    if enum is None:
        return []
    decode = {op: cls for op, _, cls in ctx.decode}
    outside = {op: st for op, _, st in ctx.bound_outside}
    rows = []
    for m in sorted(enum.members, key=lambda m: m.value):
        status = MaintenanceStatus.of_flag(m.maintained).label + (f": {m.note}" if m.note else "")
        struct = (
            f"`{decode[m.value]}`"
            if m.value in decode
            else (f"outside: `{outside[m.value]}`" if m.value in outside else "-")
        )
        rows.append(OpcodeRow(m.value, m.name, status, struct))
    return rows


@functools.cache
def _environment(root: str) -> jinja2.Environment:
    """One Jinja environment per template directory and process, so each template is compiled
    once (Jinja still reloads a template whose file changed since)."""
    return environment()


def render(inp: RenderInput) -> dict[str, str]:
    env = _environment(str(template_root()))
    base = template_root() / "runtime"
    has_executor = (base / "gen" / "executor.py.j2").is_file()
    contexts = [gen_context(g, tr, has_executor) for g, tr in inp.gens]
    common: dict[str, Any] = {
        "runtime_api": runtime_api(),
        "validator_helpers": VALIDATOR_HELPERS,
        "batch_helpers": BATCH_HELPERS,
        "generator_version": __version__,
        "gens": contexts,
        "audit_md": inp.audit_md,
        "manifest": inp.manifest,
    }
    out: dict[str, str] = {f"tpb_isa/_runtime/{rel}": text for rel, text in support_files().items()}
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
        elif top == "gen":
            for ctx in contexts:
                out[f"tpb_isa/{ctx.module}/{rest}"] = template.render(**common, g=ctx)
    for ctx in contexts:  # each generation's headers, as they are, for its C validators
        for header, text in inp.headers.get(ctx.name, {}).items():
            out[f"tpb_isa/{ctx.module}/_c/{header}"] = text
        # anything else directly under runtime/ is a fragment that other templates include
    return out
