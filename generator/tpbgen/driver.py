"""`generate` as the list of its stages: ingest, check, prove the layouts, translate, render and
stage (every emitted module compiled and imported, staged.py), prove the predicates on the staged
modules, and render again when the proof sent a validator to the C path.

No printing and no writing: `generate` returns the files and every diagnostic as values (cli/
prints them and writes the files). It reports what `reconcile` and `inspect` report, at the same
severity: error findings (an opcode bound twice, a duplicated JSON key, a stale name under
--strict) make the build fail, stale names and annotation typos are warnings. A failed build has
no files: nothing is written.

The translated and rendered results are cached (`render_cache.py`): on a hit nothing is
translated or rendered, while the checks (reconcile, annotations, the layout proof) still run,
so the diagnostics and the exit code are those of a cold run.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import naming
from .cache import Cache
from .checks import predicates
from .checks.annotations import check_annotations
from .checks.executor import check_executor
from .checks.reconcile import Finding, reconcile, waivers_for
from .checks.verify_cc import Probes, compiler, prove_layouts
from .errors import Diagnostic, ExitCode, Severity, TpbgenError, rebase
from .frontend.firmware import OVERLAY_NAME, read_overlay
from .frontend.ingest import Ingested, ingest_root
from .frontend.limits import DEFAULT as DEFAULT_LIMITS
from .frontend.limits import Limits
from .frontend.shipped import shipped_headers
from .ir.firmware import FirmwareOverlay
from .ir.model import Generation
from .isa.binding import executor_coverage
from .render_cache import (
    GenNotes,
    Rendered,
    code_hash,
    render_key,
    rendered_from_cache,
    rendered_payload,
    validator_keys,
)
from .staged import Staged
from .translate.chain import forget as forget_chains
from .translate.validators import TranslatedGen, translate

if TYPE_CHECKING:  # imported when the proof runs (it needs numpy)
    from .checks.cpredicates import Ahead


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
    predicates: str  # how the translated predicates were held to the C, or why they were not
    executor: str = ""  # what the executor runs and refuses on this generation, in counts


@dataclass
class Build:
    """What `generate` decided: the file set (empty when the build failed), one summary per
    generation, every diagnostic, and (keep_translated) the translations."""

    files: dict[str, str]
    summaries: list[GenSummary]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    translated: list[tuple[Generation, TranslatedGen]] = field(default_factory=list)
    unusable: bool = (
        False  # an error is about input tpbgen cannot use (exit 2), not a finding (exit 1)
    )
    # (generation, validator) for every top-level validator whose predicate proof ran in this
    # run: not served by the render cache, the generation's cached proof or the per-validator
    # store (a drop that changes one validator proves that one)
    proven: list[tuple[str, str]] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """Whether any diagnostic is an error."""
        return any(d.severity == Severity.ERROR for d in self.diagnostics)

    @property
    def exit_code(self) -> ExitCode:
        """OK, else BAD_INPUT when the input could not be used, else FINDINGS."""
        if not self.failed:
            return ExitCode.OK
        return ExitCode.BAD_INPUT if self.unusable else ExitCode.FINDINGS


@dataclass(frozen=True)
class Options:
    """How `generate` runs (its command-line options)."""

    use_cache: bool = True
    strict: bool = False  # stale names and untranslated predicates are errors
    waivers: Path | None = None
    verify: bool = True  # prove layouts and predicates against the C compiler (--no-verify-cc)
    limits: Limits = DEFAULT_LIMITS
    keep_translated: bool = (
        False  # always translate, to return the translations (tests, benchmarks)
    )


DEFAULT_OPTIONS = Options()


@dataclass
class _Translation:
    """One generation's translator output as the rest of the build needs it: fresh (`translated`
    set, as it ships: after the predicate proof) or from the render cache (notes and counts)."""

    notes: GenNotes
    translated: TranslatedGen | None = None
    rerender: bool = False  # the proof changed the translation (a validator to the C path)
    proven: tuple[str, ...] = ()  # the validators the predicate proof ran for in this run


def generate(headers: Path, options: Options = DEFAULT_OPTIONS) -> Build:
    """Everything `generate` decides, stage by stage, with the cyclic garbage collector paused:
    a cold run makes millions of objects that live to its end (the IR, the syntax trees, the
    lowered and translated code), and the collector's passes over them cost ~0.3 s CPU of ~4
    for the ~4,600 objects in cycles it would free (4 MB of peak memory, measured on the
    vendored drop). Reference counting frees everything else as usual."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _generate(headers, options)
    finally:
        forget_chains()
        if paused:
            gc.enable()


def _generate(headers: Path, options: Options) -> Build:
    cache = Cache() if options.use_cache else None
    results = ingest_root(headers, use_cache=options.use_cache, cache=cache, limits=options.limits)
    build = Build({}, [], [w for r in results for w in r.warnings])
    firmware = _read_firmware(headers, results, build, cache)
    cc = compiler() if options.verify else None
    key = render_key(
        [r.gen for r in results], _proof_setting(options, cc), firmware.sha256 if firmware else ""
    )
    hit = _cached_rendering(cache, key, results, options, build)
    fresh = _check_and_translate(results, hit, options, cc, cache, build, firmware)
    build.translated = [(r.gen, t.translated) for r, t in fresh if t.translated is not None]
    if build.failed:
        build.files = {}
        return build
    if hit is not None:
        build.files = dict(hit.files)
        return build
    if cache is not None:
        done = {r.gen.name: t.notes for r, t in fresh}
        cache.put("render", "package", key, rendered_payload(done, build.files))
    return build


@dataclass
class _Gen:
    """One generation on its way through `_check_and_translate`: what the checks found, the
    layout proof's summary, its translation, and where its notes go among the diagnostics."""

    ingested: Ingested
    findings: list[Finding]
    layouts: str
    translation: _Translation
    cut: int


def _check_and_translate(
    results: list[Ingested],
    hit: Rendered | None,
    options: Options,
    compiler: tuple[str, str] | None,
    cache: Cache | None,
    build: Build,
    firmware: FirmwareOverlay | None,
) -> list[tuple[Ingested, _Translation]]:
    """Per generation, in order: the JSON checks, the layout proof and the translation (or its
    cached notes); then, unless that failed or the rendering is cached, the package rendered
    and staged (every module compiled and imported) and the predicate proof run on the staged
    modules (`build.files`: the package as it ships). Each generation's notes and summary go
    where a run that proved each generation in turn would put them. Returns the freshly
    translated generations. The proof's C compiles run one generation ahead, beside the
    translator, and only when there is something to prove (a cached rendering needs neither)."""
    accepted: dict[str, Any] = {}  # words each validator's C accepted, for the next generation
    ahead = probes = None
    if compiler is not None and options.verify:
        probes = Probes(compiler, [(r.gen, r.root) for r in results], cache)
    if hit is None and compiler is not None and options.verify:
        # not those an earlier run left a per-validator store for: their C is compiled only
        # if the proof needs it (a drop that changed another generation needs none of it)
        unseen = [r for r in results if not predicates.has_store(cache, r.gen, *compiler)]
        ahead = predicates.compile_ahead(compiler[0], [(r.gen, r.root) for r in unseen])
    gens: list[_Gen] = []
    try:
        for r in results:
            findings = _check(r, options, build)
            layouts = _prove_layouts(r, options, compiler, cache, build, probes)
            tr = _translate(r, hit, build)
            if tr is not None:
                gens.append(_Gen(r, findings, layouts, tr, len(build.diagnostics)))
        fresh = [g for g in gens if g.translation.translated is not None]
        if fresh and not build.failed:
            _render_and_prove(fresh, options, compiler, cache, accepted, ahead, firmware, build)
    finally:
        if ahead is not None:
            ahead.close()
        if probes is not None:
            probes.close()
    _place_notes(gens, options, build)
    return [(g.ingested, g.translation) for g in gens if g.translation.translated is not None]


def _render_and_prove(
    fresh: list[_Gen],
    options: Options,
    compiler: tuple[str, str] | None,
    cache: Cache | None,
    accepted: dict[str, Any],
    ahead: Ahead | None,
    firmware: FirmwareOverlay | None,
    build: Build,
) -> None:
    """Render the package, stage it (compile and import every module: a failure is a located
    error), prove each generation's predicates on its staged modules, and, when the proof sent
    a validator to the C path, render and stage again: `build.files` is what ships."""
    results = [g.ingested for g in fresh]
    audit_md = _audit(results, firmware)
    files = _render(results, [(g.ingested, g.translation) for g in fresh], firmware, audit_md)
    with Staged(files) as staged:
        if _staging_failed(staged, build):
            return
        for g in fresh:
            g.translation = _prove_predicates(
                g.ingested, g.translation, options, compiler, cache, accepted, ahead, staged
            )
            build.proven += [(g.ingested.gen.name, v) for v in g.translation.proven]
    if any(g.translation.rerender for g in fresh):
        files = _render(results, [(g.ingested, g.translation) for g in fresh], firmware, audit_md)
        with Staged(files) as staged:
            if _staging_failed(staged, build):
                return
    build.files = files


def _staging_failed(staged: Staged, build: Build) -> bool:
    """Whether the staged package failed to compile or import (its errors are in `build`)."""
    errors = staged.check()
    build.diagnostics += errors
    build.unusable = build.unusable or bool(errors)
    return bool(errors)


def _place_notes(gens: list[_Gen], options: Options, build: Build) -> None:
    """Each generation's translator and proof notes (errors under --strict) right after its
    own checks, and its summary line, in order."""
    placed: list[Diagnostic] = []
    start = 0
    for g in gens:
        placed += build.diagnostics[start : g.cut]
        placed += _notes(g.ingested, g.translation, options)
        start = g.cut
        tr = g.translation
        if not tr.notes.predicates:  # translated, but an error stopped generate before the proof
            why = predicates.not_run("an error above stopped generate before the proof").summary
            tr = replace(tr, notes=replace(tr.notes, predicates=why))
        build.summaries.append(_summary(g.ingested.gen, g.findings, tr, g.layouts))
    build.diagnostics = placed + build.diagnostics[start:]


def _read_firmware(
    headers: Path, results: list[Ingested], build: Build, cache: Cache | None
) -> FirmwareOverlay | None:
    """The drop's optional firmware overlay, checked against its generations; a bad one is an
    input error (the build fails, nothing is written)."""
    try:
        gens = [r.gen for r in results]
        return read_overlay(headers, gens, str(headers / OVERLAY_NAME), cache)
    except TpbgenError as exc:
        build.diagnostics += exc.diagnostics
        build.unusable = True
        return None


def _cached_rendering(
    cache: Cache | None, key: str, results: list[Ingested], options: Options, build: Build
) -> Rendered | None:
    """The rendered package of an earlier run on these inputs and this code, if cached."""
    if cache is None or options.keep_translated:
        return None
    seen = len(cache.warnings)
    hit = rendered_from_cache(cache, key, [r.gen.name for r in results])
    build.diagnostics += cache.warnings[seen:]
    return hit


def _check(ingested: Ingested, options: Options, build: Build) -> list[Finding]:
    """Reconcile the JSON against the opcode enums and the annotations against the layouts."""
    ws, wfile = waivers_for(options.waivers, ingested.gen.name)
    findings = reconcile(ingested.gen, strict=options.strict, waivers=ws, waiver_file=wfile)
    shown = [f.diagnostic() for f in findings if f.severity != Severity.INFO]
    build.diagnostics += rebase(
        [*shown, *check_annotations(ingested.gen), *check_executor(ingested.gen)], ingested.root
    )
    return findings


def _prove_layouts(
    ingested: Ingested,
    options: Options,
    compiler: tuple[str, str] | None,
    cache: Cache | None,
    build: Build,
    probes: Probes | None = None,
) -> str:
    """The layout proof (verify-cc) with `compiler` (its probe started in `probes`); what the
    summary says about it."""
    if not options.verify:
        return "layouts not verified (--no-verify-cc)"
    wrong, layouts = prove_layouts(ingested.gen, ingested.root, cache, compiler, probes)
    build.diagnostics += rebase(wrong, ingested.root)
    build.unusable = build.unusable or bool(wrong)
    return layouts


def _translate(ingested: Ingested, hit: Rendered | None, build: Build) -> _Translation | None:
    """Translate the predicates (or take the counts and notes of the cached rendering); None when
    a predicate cannot be expressed (its diagnostics are in the build)."""
    if hit is not None:
        return _Translation(hit.gens[ingested.gen.name])
    try:
        tr = translate(ingested.gen)
    except TpbgenError as exc:
        build.diagnostics += rebase(exc.diagnostics, ingested.root)
        build.unusable = True
        return None
    return _Translation(GenNotes(list(tr.warnings), len(tr.functions), len(tr.top), ""), tr)


def _proof_setting(options: Options, compiler: tuple[str, str] | None) -> str:
    """What the predicate proof runs with (part of the render cache's key)."""
    if not options.verify:
        return "off (--no-verify-cc)"
    return "no C compiler on PATH" if compiler is None else f"{compiler[0]} {compiler[1]}"


def _prove_predicates(
    ingested: Ingested,
    translation: _Translation,
    options: Options,
    compiler: tuple[str, str] | None,
    cache: Cache | None,
    accepted: dict[str, Any],
    ahead: Ahead | None,
    staged: Staged,
) -> _Translation:
    """Hold every translated back end, as the staged package runs it, to the drop's C
    (checks/predicates.py); a validator they disagree on ships on the C path, with a located
    warning."""
    assert translation.translated is not None
    tr = translation.translated
    if not options.verify:
        proof = predicates.not_run("--no-verify-cc")
    elif compiler is None:
        proof = predicates.not_run("no C compiler on PATH")
    else:

        def load() -> predicates.Namespaces:
            return proof_namespaces(staged, ingested.gen, tr)

        code = code_hash()
        own = validator_keys(ingested.gen, tr, _proof_setting(options, compiler), code)
        proof = predicates.prove(
            ingested.gen,
            ingested.root,
            tr,
            compiler[0],
            compiler[1],
            cache,
            accepted,
            ahead,
            load,
            own,
            code,
        )
    notes = [*translation.notes.notes, *predicates.findings(ingested.gen, proof)]
    shipped = predicates.apply(ingested.gen, tr, proof)
    return _Translation(
        replace(translation.notes, notes=notes, predicates=proof.summary),
        shipped,
        shipped is not tr,
        proof.proven,
    )


def proof_namespaces(staged: Staged, gen: Generation, tr: TranslatedGen) -> predicates.Namespaces:
    """The staged generation's scalar translation with the proof's search scores beside it (one
    more module, `_proof_scores`, staged but never shipped, which imports what it reads from
    `validators` by name) and its batch translation."""
    module = naming.module_name(gen.name)
    validators = vars(staged.module(f"{module}.validators"))
    staged.add(f"tpb_isa/{module}/_proof_scores.py", predicates.scores_module(gen, tr, validators))
    scores = staged.module(f"{module}._proof_scores")
    batch = staged.module(f"{module}.batch")
    # the prover looks up the translated functions and the scores by name: both modules' names
    return {**validators, **vars(scores)}, vars(batch)


# --strict: a predicate the runtime cannot run, or one decided in C because its translation was
# wrong, is an error rather than a warning
STRICT_CODES = ("untranslated", "predicate-proof")


def _notes(ingested: Ingested, translation: _Translation, options: Options) -> list[Diagnostic]:
    """The translator's and the predicate proof's notes (errors under --strict)."""
    notes = [
        replace(w, severity=Severity.ERROR) if options.strict and w.code in STRICT_CODES else w
        for w in translation.notes.notes
    ]
    return rebase(notes, ingested.root)


def _summary(
    gen: Generation, findings: list[Finding], translation: _Translation, layouts: str
) -> GenSummary:
    stale = tuple(f.name for f in findings if f.kind == "stale")
    return GenSummary(
        gen.name,
        gen.core_version,
        len(gen.enums),
        len(gen.structs),
        translation.notes.functions,
        translation.notes.top,
        stale,
        layouts,
        translation.notes.predicates,
        _executor_summary(gen),
    )


def _executor_summary(gen: Generation) -> str:
    coverage = executor_coverage(gen)
    return (
        f"executor runs {len(coverage.runs)} opcodes, refuses {len(coverage.refuses)} opcodes and "
        f"{len(coverage.enumerators)} enumerators (tpbgen inspect --gen {gen.name} lists them)"
    )


def _audit(results: list[Ingested], firmware: FirmwareOverlay | None) -> str:
    """The audit page the package carries. (The audit is imported here: a warm run, served by
    the cache, never loads it.)"""
    from .audit import render_audit_markdown

    gens = [r.gen for r in results]
    return render_audit_markdown(gens, firmware.states() if firmware else None)


def _render(
    results: list[Ingested],
    fresh: list[tuple[Ingested, _Translation]],
    firmware: FirmwareOverlay | None,
    audit_md: str,
) -> dict[str, str]:
    """The package: every generation's tables, the audit page and the headers it ships. (The
    renderer is imported here: a warm run, served by the cache, never loads it.)"""
    from .emit.render import RenderInput, render

    shipped = shipped_headers(results)
    translated = [(r.gen, t.translated) for r, t in fresh if t.translated is not None]
    return render(RenderInput(translated, audit_md, shipped, firmware))


def build_files(
    headers: Path, use_cache: bool = True
) -> tuple[dict[str, str], list[tuple[Generation, TranslatedGen]], list[Diagnostic]]:
    """The file set alone (for tests and benchmarks); a failed build raises its diagnostics."""
    b = generate(headers, Options(use_cache=use_cache, keep_translated=True))
    if b.failed:
        raise TpbgenError([d for d in b.diagnostics if d.severity == Severity.ERROR], b.exit_code)
    return b.files, b.translated, b.diagnostics
