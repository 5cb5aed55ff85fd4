"""The generated package as a file set: ingest every generation, check it, translate, render.

No printing and no writing: `build_package` returns the files and every diagnostic as values.
It reports what `reconcile` and `inspect` report, at the same severity: error findings (an opcode
bound twice, a duplicated JSON key, a stale name under --strict) make the build fail, stale names
and annotation typos are warnings. A failed build has no files: nothing is written.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from .. import __version__
from ..cache import Cache
from ..checks.annotations import check_annotations
from ..checks.reconcile import Finding, reconcile, waivers_for
from ..checks.verify_cc import find_cc, verify_cc
from ..errors import Diagnostic, ExitCode, Severity, TpbgenError, rebase
from ..frontend.firmware import OVERLAY_NAME, FirmwareOverlay, read_overlay
from ..frontend.ingest import Ingested, cache_key, ingest_root
from ..frontend.limits import DEFAULT as DEFAULT_LIMITS
from ..frontend.limits import Limits
from ..ir.model import Generation
from ..translate.validators import TranslatedGen, translate
from .writer import MANIFEST, MANIFEST_FORMAT, manifest_files


@dataclass(frozen=True)
class GenSummary:
    """One line of `generate`'s summary."""

    name: str
    core_version: str
    enums: int
    structs: int
    functions: int
    top_validators: int
    stale_names: tuple[str, ...]
    layouts: str  # how the computed layouts were proven: "verified with cc (N facts)", or why not


@dataclass
class Build:
    files: dict[str, str]  # relative path -> text; empty when the build failed
    summaries: list[GenSummary]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    translated: list[tuple[Generation, TranslatedGen]] = field(default_factory=list)
    unusable: bool = (
        False  # an error is about input tpbgen cannot use (exit 2), not a finding (exit 1)
    )

    @property
    def failed(self) -> bool:
        return any(d.severity == Severity.ERROR for d in self.diagnostics)

    @property
    def exit_code(self) -> ExitCode:
        if not self.failed:
            return ExitCode.OK
        return ExitCode.BAD_INPUT if self.unusable else ExitCode.FINDINGS


def manifest(gens: list[Generation]) -> dict[str, Any]:
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


def audit_markdown(gens: list[Generation], firmware: FirmwareOverlay | None = None) -> str:
    from ..audit import render_audit_markdown

    return render_audit_markdown(gens, firmware.states() if firmware else None)


def shown(findings: list[Finding]) -> list[Diagnostic]:
    """The findings `reconcile` prints by default (not the informational ones)."""
    return [f.diagnostic() for f in findings if f.severity != Severity.INFO]


def verify_layouts(r: Ingested, cache: Cache | None) -> tuple[list[Diagnostic], str]:
    """Prove the computed layouts against the C compiler (the verify-cc probe), when there is one.
    A proof is cached by the inputs and the compiler's identity; a mismatch is never cached."""
    cc = find_cc()
    if cc is None:
        return [], "layouts not verified: no C compiler on PATH (static asserts only)"
    try:
        ident = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        ident = cc
    key = hashlib.sha256(
        f"verify-cc {__version__}\n{r.gen.inputs_sha256}\n{cc}\n{ident}".encode()
    ).hexdigest()
    hit = cache.get("verifycc", r.gen.name, key) if cache is not None else None
    if isinstance(hit, dict) and isinstance(hit.get("facts"), int):
        return [], f"layouts verified with {cc} ({hit['facts']} facts)"
    try:
        mismatches, facts = verify_cc(r.gen, r.root, cc)
    except RuntimeError as exc:
        return [
            Diagnostic(
                f"cannot verify layouts with {cc}: {exc}",
                r.gen.tpb_dir,
                severity=Severity.ERROR,
                code="verify-cc",
            )
        ], "layouts not verified"
    if mismatches:
        return mismatches, f"layouts DISAGREE with {cc} ({len(mismatches)} of {facts} facts)"
    if cache is not None:
        cache.put("verifycc", r.gen.name, key, {"facts": facts})
    return [], f"layouts verified with {cc} ({facts} facts)"


def build_package(
    headers: Path,
    use_cache: bool = True,
    strict: bool = False,
    waivers: Path | None = None,
    verify: bool = True,
    limits: Limits = DEFAULT_LIMITS,
    keep_translated: bool = False,
) -> Build:
    """Everything `generate` decides. `verify=False` (--no-verify-cc) skips the compiler probe.

    The translated and rendered results are cached (kind `render`, data only like the IR) by
    `render_key`: every generation's IR key, the hash of tpbgen's own code and templates and the
    versions of what renders. On a hit nothing is translated or rendered; the checks (reconcile,
    annotations, the layout proof) still run, so the diagnostics and the exit code are the same.
    `keep_translated=True` (tests, benchmarks) always translates, to return the translations."""
    from .render import RenderInput, render

    cache = Cache() if use_cache else None
    results = ingest_root(headers, use_cache=use_cache, cache=cache, limits=limits)
    diagnostics: list[Diagnostic] = [w for r in results for w in r.warnings]
    summaries: list[GenSummary] = []
    translated: list[tuple[Generation, TranslatedGen]] = []
    unusable = False
    firmware = None
    try:
        firmware = read_overlay(headers, [r.gen for r in results], str(headers / OVERLAY_NAME))
    except TpbgenError as exc:
        diagnostics += exc.diagnostics
        unusable = True
    key = render_key([r.gen for r in results], firmware.sha256 if firmware else "")
    hit = None
    if cache is not None and not keep_translated:
        seen = len(cache.warnings)
        hit = _rendered_from_cache(cache, key, [r.gen.name for r in results])
        diagnostics += cache.warnings[seen:]
    done: dict[str, tuple[list[Diagnostic], int, int]] = {}  # gen -> translator notes, counts
    for r in results:
        g = r.gen
        ws, wfile = waivers_for(waivers, g.name)
        findings = reconcile(g, strict=strict, waivers=ws, waiver_file=wfile)
        diagnostics += rebase([*shown(findings), *check_annotations(g)], r.root)
        layouts = "layouts not verified (--no-verify-cc)"
        if verify:
            wrong, layouts = verify_layouts(r, cache)
            diagnostics += rebase(wrong, r.root)
            unusable = unusable or bool(wrong)
        if hit is not None:
            warnings, n_functions, n_top = hit.gens[g.name]
        else:
            try:
                tr = translate(g)
            except TpbgenError as exc:
                diagnostics += rebase(exc.diagnostics, r.root)
                unusable = True
                continue
            translated.append((g, tr))
            warnings, n_functions, n_top = list(tr.warnings), len(tr.functions), len(tr.top)
            done[g.name] = (warnings, n_functions, n_top)
        # --strict: a predicate the runtime cannot run is an error, not a stub
        notes = [
            replace(w, severity=Severity.ERROR) if strict and w.code == "untranslated" else w
            for w in warnings
        ]
        diagnostics += rebase(notes, r.root)
        stale = tuple(f.name for f in findings if f.kind == "stale")
        summaries.append(
            GenSummary(
                g.name,
                g.core_version,
                len(g.enums),
                len(g.structs),
                n_functions,
                n_top,
                stale,
                layouts,
            )
        )
    build = Build({}, summaries, diagnostics, translated, unusable)
    if build.failed:
        return build
    if hit is not None:
        build.files = dict(hit.files)
        return build
    gens = [r.gen for r in results]
    man = manifest(gens)
    shipped = shipped_headers(results)
    files = render(RenderInput(translated, audit_markdown(gens, firmware), man, shipped, firmware))
    man["files"] = manifest_files(files)
    files[MANIFEST] = json.dumps(man, indent=2, sort_keys=True) + "\n"
    build.files = files
    if cache is not None:
        cache.put("render", "package", key, _rendered_payload(done, files))
    return build


def shipped_headers(results: list[Ingested]) -> dict[str, dict[str, str]]:
    """Each generation's headers as the package ships them (its C validators are compiled from
    them), read from the drop again and held to the hashes its IR recorded: a header edited since
    it was ingested is refused by name rather than shipped beside an IR of its other version."""
    out: dict[str, dict[str, str]] = {}
    changed: list[Diagnostic] = []
    for r in results:
        texts: dict[str, str] = {}
        for f in r.gen.files:
            if not f.path.endswith(".h"):
                continue
            try:
                data: bytes | None = (r.root / f.path).read_bytes()
            except OSError:
                data = None
            if data is None or hashlib.sha256(data).hexdigest() != f.sha256:
                message = "changed since tpbgen read the headers; nothing was written: run again"
                changed += rebase([Diagnostic(message, f.path, code="changed-during-read")], r.root)
                continue
            texts[f.path] = data.decode("utf-8", "replace")
        out[r.gen.name] = texts
    if changed:
        raise TpbgenError(changed)
    return out


# -- the rendered-package cache -------------------------------------------------------------------


def code_hash() -> str:
    """One hash over tpbgen's own source and its templates (every file, by path and content): a
    rendered package is reused only by the very code and templates that rendered it. Read again on
    every call (a few milliseconds), so an edit within one process counts too."""
    from ..templating import template_root

    h = hashlib.sha256()
    pkg = Path(__file__).resolve().parent.parent
    templates = template_root().resolve()
    for label, root in (("tpbgen", pkg), ("templates", templates)):
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root)
            if "__pycache__" in rel.parts or not path.is_file():
                continue
            if label == "tpbgen" and rel.parts[0] == "templates":
                continue  # hashed from where it really is, below
            h.update(f"{label}/{rel.as_posix()}\n".encode())
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def render_key(gens: list[Generation], firmware_sha256: str = "") -> str:
    """What a rendered package depends on: every generation's IR key (its inputs and what shaped
    its IR), the firmware overlay's bytes, tpbgen's code and templates, and the versions of
    Python and Jinja."""
    import jinja2

    parts = [
        f"render {RENDER_CACHE_VERSION} tpbgen {__version__} code {code_hash()}",
        f"python {sys.version} jinja2 {jinja2.__version__}",
        *(f"{g.name} {cache_key(g.inputs_sha256)}" for g in gens),
        *([f"firmware {firmware_sha256}"] if firmware_sha256 else []),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


RENDER_CACHE_VERSION = 1


@dataclass(frozen=True)
class _Rendered:
    gens: dict[str, tuple[list[Diagnostic], int, int]]
    files: dict[str, str]


def _diag_json(d: Diagnostic) -> dict[str, Any]:
    return {f.name: getattr(d, f.name) for f in fields(Diagnostic)}


def _diag_from(doc: dict[str, Any]) -> Diagnostic:
    kw = {f.name: doc[f.name] for f in fields(Diagnostic)}
    kw["severity"] = Severity(kw["severity"])
    for name in ("message", "file", "code", "base"):
        if not isinstance(kw[name], str):
            raise TypeError(name)
    for name in ("line", "col"):
        if not isinstance(kw[name], int):
            raise TypeError(name)
    if kw["pointer"] is not None and not isinstance(kw["pointer"], str):
        raise TypeError("pointer")
    return Diagnostic(**kw)


def _rendered_payload(
    done: dict[str, tuple[list[Diagnostic], int, int]], files: dict[str, str]
) -> dict[str, Any]:
    return {
        "gens": {
            name: {"warnings": [_diag_json(w) for w in ws], "functions": nf, "top": nt}
            for name, (ws, nf, nt) in done.items()
        },
        "files": files,
    }


def _rendered_from_cache(cache: Cache, key: str, names: list[str]) -> _Rendered | None:
    """The cached rendering for `key`, checked field by field; None (render again) otherwise."""
    doc = cache.get("render", "package", key)
    if doc is None:
        return None
    try:
        gens = {}
        for name in names:
            g = doc["gens"][name]
            nf, nt = g["functions"], g["top"]
            if not (isinstance(nf, int) and isinstance(nt, int)):
                raise TypeError("counts")
            gens[name] = ([_diag_from(w) for w in g["warnings"]], nf, nt)
        files = doc["files"]
        if not (
            isinstance(files, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in files.items())
        ):
            raise TypeError("files")
        if len(doc["gens"]) != len(names):
            raise ValueError("generations")
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        cache._warn(
            f"ignored cache entry (not a rendered package: {type(exc).__name__}); rebuilt it",
            cache.path("render", "package", key),
        )
        return None
    return _Rendered(gens, files)


def build_files(
    headers: Path, use_cache: bool = True
) -> tuple[dict[str, str], list[tuple[Generation, TranslatedGen]], list[Diagnostic]]:
    """The file set alone (for tests and benchmarks); a failed build raises its diagnostics."""
    b = build_package(headers, use_cache, keep_translated=True)
    if b.failed:
        raise TpbgenError([d for d in b.diagnostics if d.severity == Severity.ERROR], b.exit_code)
    return b.files, b.translated, b.diagnostics
