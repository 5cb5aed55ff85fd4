"""Ingest: one `tpb/` tree -> one verified `Generation` IR (discover -> preprocess -> parse -> build).

The IR is cached by a hash of every input byte (headers, JSON, tpbgen's stand-in libc, the IR
version and tpbgen's version), so an unchanged drop is not parsed again. The cache holds the IR's
JSON form, data only (see tpbgen.cache); an entry is used only if its recorded keys match and it
converts back to a Generation.
"""

from __future__ import annotations

import functools
import hashlib
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pycparser

from .. import __version__, collector
from ..cache import Cache, remember
from ..deep import run_deep
from ..errors import Diagnostic, Severity, TpbgenError, rebase
from ..input_files import read_optional, read_regular
from ..ir import io as ir_io
from ..ir.consteval import CONSTEVAL_VERSION
from ..ir.model import IR_VERSION, Generation, Mapping, SourceFile, SpecComment
from .comments import SourceLines
from .dialect import reduce_dialect
from .discover import GenerationSource, discover
from .limits import DEFAULT as DEFAULT_LIMITS
from .limits import Limits
from .mapping_json import read_mapping
from .preprocess import (
    TU_NAME,
    Preprocessed,
    Preprocessing,
    Preprocessor,
    available_preprocessor,
    fake_libc_dir,
    predefined_macros,
)


@dataclass(frozen=True)
class Ingested:
    gen: Generation
    warnings: tuple[Diagnostic, ...]
    from_cache: bool
    root: Path  # the include root the IR's file names are relative to


@dataclass(frozen=True)
class InputFiles:
    """One generation's input bytes, read once: the cache key hashes them, and a cold ingest
    checks, records and reads its comments from the same bytes."""

    headers: tuple[tuple[str, bytes], ...]  # every header below the generation directory, sorted
    mapping_rel: str
    mapping: bytes | None  # None: instruction_mapping.json is missing
    # the files outside those headers the preprocessor read (an include-root header, a `.def`
    # #included inside an enum), by path relative to the include root; also in `headers`
    extra: tuple[str, ...] = ()

    def with_extra(self, src: GenerationSource, extra: tuple[str, ...]) -> InputFiles:
        """These inputs and the files `extra` names, read now (raises OSError)."""
        have = {rel for rel, _ in self.headers}
        more = tuple((rel, read_regular(src.root / rel, rel)) for rel in extra if rel not in have)
        return InputFiles(
            tuple(sorted((*self.headers, *more))), self.mapping_rel, self.mapping, extra
        )


def read_inputs(src: GenerationSource) -> InputFiles:
    """Raises OSError when a header cannot be read."""
    headers = tuple((src.shown(h), read_regular(h, src.shown(h))) for h in src.all_headers())
    mapping_path = src.mapping_file()
    mapping = read_optional(mapping_path, src.shown(mapping_path))
    return InputFiles(headers, src.shown(mapping_path), mapping)


def inputs_hash(src: GenerationSource, files: InputFiles | None = None) -> str:
    """One hash over every input byte: headers, JSON and tpbgen's stand-in libc (content only, so
    the MANIFEST is the same on any machine)."""
    if files is None:
        files = read_inputs(src)
    h = _libc_hashed().copy()
    for rel, data in (*files.headers, (files.mapping_rel, files.mapping)):
        h.update(rel.encode() + b"\n")
        h.update(data if data is not None else b"<missing>")
    return h.hexdigest()


@functools.cache
def _libc_hashed() -> hashlib._Hash:
    """The hash of tpbgen's stand-in libc, the first input of every `inputs_hash` (package data,
    fixed for the life of the process: read once, the state copied for each generation)."""
    h = hashlib.sha256()
    for f in sorted(fake_libc_dir().glob("*.h")):
        h.update(f"libc/{f.name}\n".encode())
        h.update(f.read_bytes())
    return h


def cache_key(inputs: str) -> str:
    """The IR cache key: the inputs, and what shapes the IR from them. The IR holds pycparser ASTs
    (function bodies), which another pycparser may shape differently."""
    return hashlib.sha256(f"{_tools()}\n{inputs}".encode()).hexdigest()


@functools.cache
def _tools() -> str:
    """What shapes an IR besides its inputs: tpbgen's and pycparser's versions, the IR's layout
    and this machine's compiler's predefined macros (each fixed for the life of the process)."""
    macros = hashlib.sha256(repr(predefined_macros()).encode()).hexdigest()
    layout = hashlib.sha256(ir_io.cache_layout().encode()).hexdigest()[:16]
    return f"tpbgen {__version__} ir {IR_VERSION} layout {layout} consteval {CONSTEVAL_VERSION} pycparser {pycparser.__version__} macros {macros}"


@dataclass(frozen=True)
class Probed:
    """One generation's inputs, read, and the IR the cache holds for exactly them (or None)."""

    src: GenerationSource
    files: InputFiles
    key: str  # inputs_hash: what the IR records
    full_key: str  # cache_key: what the cache files it under
    cached: Generation | None
    warnings: tuple[Diagnostic, ...]  # the cache's, about this generation's entry
    tree_key: str = ""  # cache_key of the tree's own headers: its `sources` entry's key


def _remembered_sources(store: Cache, name: str, tree_key: str) -> tuple[str, ...]:
    """The files outside the generation's tree its last ingest found the preprocessor reading
    (a `sources` entry, kept only when there are some)."""
    got = store.get("sources", name, tree_key)
    extra = got.get("extra") if isinstance(got, dict) else None
    if isinstance(extra, list) and all(isinstance(x, str) for x in extra):
        return tuple(extra)
    return ()


def probe(src: GenerationSource, store: Cache | None) -> Probed:
    """Read a generation's inputs once and look its IR up in the cache (None: no cache)."""
    try:
        files = read_inputs(src)
        key = inputs_hash(src, files)
    except OSError as exc:
        raise TpbgenError(
            [
                Diagnostic(
                    f"cannot read: {exc.strerror}",
                    str(exc.filename or src.tpb_dir),
                    code="os-error",
                )
            ]
        ) from None
    except TpbgenError as exc:  # (a FIFO, a device, a directory where a file belongs)
        raise TpbgenError(rebase(exc.diagnostics, src.root), exc.exit_code) from None
    tree_key = full_key = cache_key(key)
    if store is None:
        return Probed(src, files, key, full_key, None, (), tree_key)
    seen = len(store.warnings)
    # the key covers every file the preprocessor read: those outside the tree, as its last
    # ingest found them, are read and hashed too (one gone or unreadable: a cold ingest finds
    # what it reads now)
    extra = _remembered_sources(store, src.name, tree_key)
    if extra:
        try:
            files = files.with_extra(src, extra)
            key = inputs_hash(src, files)
            full_key = cache_key(key)
        except (OSError, TpbgenError):  # (one no longer a file: the cold ingest refuses it)
            return Probed(src, files, key, full_key, None, tuple(store.warnings[seen:]), tree_key)
    gen = _from_cache(store, src.name, full_key, key)
    return Probed(src, files, key, full_key, gen, tuple(store.warnings[seen:]), tree_key)


def ingest(
    src: GenerationSource,
    use_cache: bool = True,
    preprocessor: Preprocessor | None = None,
    cache: Cache | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Ingested:
    """One generation's IR, from the cache when an entry for exactly these inputs is there. Every
    diagnostic says which directory its file is relative to (the include root)."""
    store = (cache if cache is not None else Cache()) if use_cache else None
    return _complete(probe(src, store), store, preprocessor, limits)


def _complete(
    probed: Probed,
    store: Cache | None,
    preprocessor: Preprocessor | None,
    limits: Limits,
    preprocessing: Preprocessing | None = None,
    facts: HeaderFacts | TpbgenError | None = None,
) -> Ingested:
    """The IR of a probed generation: the cached one, or one built now (and cached).
    `preprocessing`: its preprocessing, started elsewhere (after `probe` read its inputs); None
    runs it here. `facts`: its `header_facts` made already (or the error making them gave)."""
    src, gen = probed.src, probed.cached
    warnings: list[Diagnostic] = list(probed.warnings)
    seen = len(store.warnings) if store is not None else 0
    if gen is None:
        # The collector stays paused until the cache entry is written and the bodies are text
        # (the payload's lists are short-lived and acyclic; a body's text is one object where its
        # tree is a list per AST node): its first pass afterwards has little left to walk.
        with collector.paused():
            try:
                if isinstance(facts, TpbgenError):
                    raise facts
                gen, built, read = _ingest_uncached(
                    src, probed.key, probed.files, preprocessor, limits, preprocessing, facts
                )
            except TpbgenError as exc:
                raise TpbgenError(rebase(exc.diagnostics, src.root), exc.exit_code) from None
            warnings.extend(built)
            full_key = probed.full_key
            if gen.inputs_sha256 != probed.key:  # the preprocessor read files outside the tree
                full_key = cache_key(gen.inputs_sha256)
            if store is not None:
                if read.extra:
                    store.put("sources", src.name, probed.tree_key, {"extra": list(read.extra)})
                try:
                    payload, blobs = ir_io.to_cache(gen)
                except RecursionError:  # a body deeper than this Python's json takes: not kept
                    pass
                else:
                    store.put("ir", src.name, full_key, payload, blobs)
                    del payload
                    for f in gen.functions:
                        f.code.release_tree()
    if store is not None:  # facts derived from this IR are cached under its key
        remember(gen, store, cache_key(gen.inputs_sha256))
        warnings.extend(store.warnings[seen:])
    return Ingested(gen, tuple(rebase(warnings, src.root)), probed.cached is not None, src.root)


def _from_cache(store: Cache, name: str, full_key: str, inputs: str) -> Generation | None:
    error: Exception | None = None
    with collector.paused():  # thousands of small acyclic objects: nothing for the collector
        got = store.get_with_blobs("ir", name, full_key)
        if got is None:
            return None
        try:
            gen = ir_io.from_cache(*got)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            error = exc
        del got  # the decoded JSON, freed while the collector is still off: its next pass sees only the IR
    if error is not None:
        store._warn(
            f"ignored cache entry (does not convert to IR: {type(error).__name__}); rebuilt it",
            store.path("ir", name, full_key),
        )
        return None
    return gen if isinstance(gen, Generation) and gen.inputs_sha256 == inputs else None


@dataclass(frozen=True)
class HeaderFacts:
    """What a cold ingest takes from a generation's input bytes alone, before (or while) the
    preprocessor runs: the headers checked for control bytes, their lines, recorded files and
    `// fn` specs, and the mapping file read (or the error reading it gave, raised in its turn:
    after the preprocessor's and the parser's)."""

    lines: SourceLines
    files: tuple[SourceFile, ...]
    spec: tuple[SpecComment, ...]
    mapping: Mapping | TpbgenError


def header_facts(src: GenerationSource, inputs: InputFiles) -> HeaderFacts:
    """Raises TpbgenError for a control byte in a header."""
    for rel, data in inputs.headers:
        _refuse_control_bytes(data, rel)
    lines = SourceLines(src.root.resolve(), dict(inputs.headers))
    files = tuple(
        SourceFile(rel, hashlib.sha256(data).hexdigest(), data.count(b"\n"), lines.banner(rel))
        for rel, data in inputs.headers
    )
    spec = tuple(sc for f in files if f.path.endswith(".h") for sc in lines.spec_comments(f.path))
    mapping: Mapping | TpbgenError
    try:
        mapping = read_mapping(inputs.mapping, inputs.mapping_rel)
    except TpbgenError as exc:
        mapping = exc
    return HeaderFacts(lines, files, spec, mapping)


def _ingest_uncached(
    src: GenerationSource,
    key: str,
    inputs: InputFiles,
    preprocessor: Preprocessor | None,
    limits: Limits = DEFAULT_LIMITS,
    preprocessing: Preprocessing | None = None,
    facts: HeaderFacts | None = None,
) -> tuple[Generation, list[Diagnostic], InputFiles]:
    """`facts`: the generation's `header_facts`, when made already (while its preprocessor ran).
    Also returns the inputs the IR is made of: `inputs` and every other file the preprocessor
    read (its `inputs_sha256` hashes them all)."""
    from .build import build  # (a cache hit builds nothing: a warm run never loads it)
    from .parse import parse

    if preprocessing is None:
        preprocessing = Preprocessing(src, preprocessor, limits, dict(inputs.headers))
    pre = _preprocessed(src, inputs, preprocessing)
    have = {rel for rel, _ in inputs.headers}
    extra = tuple(s for s in pre.sources if s not in have)
    if extra:
        # Files tpbgen had not read before the preprocessor did: read now, then preprocessed
        # again, so that these reads too come before and after the preprocessor's (the second
        # run reads nothing else, or the tree changed meanwhile).
        try:
            inputs = inputs.with_extra(src, tuple(sorted({*inputs.extra, *extra})))
        except OSError as exc:
            raise TpbgenError([_changed(_rel_of(src, exc))]) from None
        key, facts = inputs_hash(src, inputs), None
        again = Preprocessing(src, preprocessing.which, limits, dict(inputs.headers))
        pre = _preprocessed(src, inputs, again)
        more = sorted(set(pre.sources) - {rel for rel, _ in inputs.headers})
        if more:
            raise TpbgenError([_changed(more[0])])
    if facts is None:
        facts = header_facts(src, inputs)
    lines, spec = facts.lines, facts.spec
    files = list(facts.files)
    relpath = functools.cache(
        src.rel
    )  # called for every AST coordinate: resolve each file name once
    text, dialect = reduce_dialect(pre.text, relpath)

    tpb_rel = src.rel_tpb_dir
    gen_rel = src.gen_dir.relative_to(src.root).as_posix()

    sources = {rel for rel, _ in inputs.headers}

    def is_ours(rel: str) -> bool:  # what the drop's files declare (tpb/, an include-root
        # header, a `.def`), not tpbgen's stand-in libc
        return rel in sources or rel.startswith(gen_rel + "/")

    with collector.paused():
        ast = parse(text, TU_NAME, relpath)
        tree = build(ast, relpath, is_ours, lines, dialect, pre.macros)
        del ast  # freed here: the collector's first pass after the block then sees only the IR
    mapping = facts.mapping
    if isinstance(mapping, TpbgenError):
        raise mapping
    assert inputs.mapping is not None  # (read_mapping refuses a missing file)
    files.append(SourceFile(mapping.file, mapping.sha256, inputs.mapping.count(b"\n"), ""))
    core = next(
        (f.banner for f in files if f.path.endswith("_common.h") and "NC-v" in f.banner), ""
    )
    # the core version is a name, never text to copy: NC-v, then letters, digits and dots
    found = re.search(r"NC-v[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*", core)
    core_version = found.group(0) if found else ""
    gen = Generation(
        name=src.name,
        tpb_dir=tpb_rel,
        core_version=core_version,
        files=tuple(files),
        enums=tree.enums,
        constants=tree.constants,
        typedefs=tree.typedefs,
        structs=tree.structs,
        static_asserts=tree.static_asserts,
        functions=tree.functions,
        spec_comments=spec,
        mapping=mapping,
        inputs_sha256=key,
        generator=__version__,
    )
    warnings = [*tree.warnings]
    if not gen.enums and not gen.structs:
        raise TpbgenError(
            [
                Diagnostic(
                    "the headers define no enums and no structs",
                    tpb_rel,
                    0,
                    0,
                    Severity.ERROR,
                    "empty",
                )
            ]
        )
    return gen, warnings, inputs


def _preprocessed(
    src: GenerationSource, inputs: InputFiles, preprocessing: Preprocessing
) -> Preprocessed:
    """The preprocessor's result, once the tree is read again and found to be what `inputs`
    holds. (Read here, not in the thread that ran cpp: a thread's every file read waits for this
    one to let go of the interpreter.) Asked when it failed too: a header removed under it fails
    it, and the change is the cause to name."""
    failed: TpbgenError | None = None
    try:
        pre = preprocessing.result()
    except TpbgenError as exc:
        failed = exc
    changed = _changed_since(src, inputs)
    if changed is not None:
        raise TpbgenError([changed])
    if failed is not None:
        raise failed
    return pre


def _changed(rel: str) -> Diagnostic:
    return Diagnostic(
        "changed while tpbgen was reading the headers; nothing was kept from this run of "
        "them: run again",
        rel,
        code="changed-during-read",
    )


def _rel_of(src: GenerationSource, exc: OSError) -> str:
    """The file an OSError names, as diagnostics name it (the tpb/ directory when none)."""
    gone = Path(str(exc.filename))
    return (
        gone.relative_to(src.root).as_posix() if gone.is_relative_to(src.root) else src.rel_tpb_dir
    )


def _changed_since(src: GenerationSource, inputs: InputFiles) -> Diagnostic | None:
    """The first header that is not what `inputs` holds any more, read again once the
    preprocessor has read the tree (a header edited, added or removed meanwhile): the IR would
    mix two versions of the drop (its comments come from `inputs`, its syntax from what the
    preprocessor read) and its cache entry would be filed under the key of the other one. Both
    reads agreeing leaves the preprocessor's read, made between them, seeing the same bytes."""

    before = dict(inputs.headers)
    try:
        now = dict(read_inputs(src).with_extra(src, inputs.extra).headers)
    except OSError as exc:  # listed, then gone (or unreadable) before it was read
        return _changed(_rel_of(src, exc))
    differ = sorted(rel for rel in before.keys() | now.keys() if before.get(rel) != now.get(rel))
    return _changed(differ[0]) if differ else None


_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1f\x7f]")
# every control byte _CONTROL matches to NUL, every other byte to "x": found by two passes in C,
# each several times the regex's speed (it is run over every header byte of a cold ingest)
_TO_NUL = bytes(0 if _CONTROL.match(bytes([b])) else ord("x") for b in range(256))


def _refuse_control_bytes(data: bytes, rel: str) -> None:
    """Header text is C source: a NUL or another control byte (tab, line ends, form feed and
    vertical tab aside) is refused where it stands rather than carried into the package."""
    if 0 not in data.translate(_TO_NUL):
        return
    m = _CONTROL.search(data)
    assert m is not None
    line = data.count(b"\n", 0, m.start()) + 1
    col = m.start() - (data.rfind(b"\n", 0, m.start()) + 1) + 1
    raise TpbgenError(
        [
            Diagnostic(
                f"control byte 0x{m.group(0)[0]:02x} in header text",
                rel,
                line,
                col,
                Severity.ERROR,
                "control-byte",
            )
        ]
    )


def ingest_root(
    root: Path,
    only: list[str] | None = None,
    use_cache: bool = True,
    cache: Cache | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> list[Ingested]:
    """Every generation under `root` (or those named in `only`); all errors of all gens together.
    Runs with room for deeply nested C (tpbgen.deep), whoever calls it."""
    return run_deep(lambda: _ingest_root(root, only, use_cache, cache, limits))


def _ingest_root(
    root: Path, only: list[str] | None, use_cache: bool, cache: Cache | None, limits: Limits
) -> list[Ingested]:
    """Every generation is probed first, in order (its inputs read, its key made, the cache
    looked up), so a generation's preprocessing starts only after tpbgen has read what it will
    check the preprocessor's reading against; then each is completed in turn, its preprocessing
    run ahead by `_CppAhead`. While the first cpp runs, the rest are probed, every miss's
    header_facts made (what needs only the bytes) and the lexer checked."""
    sources = _selected(discover(root), only, root)
    store = (cache if cache is not None else Cache()) if use_cache else None
    errors: list[Diagnostic] = []
    out: list[Ingested] = []
    ahead = _CppAhead(limits)
    try:
        jobs = [_Job.probe(s, store, ahead) for s in sources]
        if ahead.misses:  # the lexer's check against pycparser's runs while the first cpp does
            from .lexer import lexer_choice

            lexer_choice()
        for job in jobs:
            try:
                out.append(job.complete(store, limits, ahead))
            except TpbgenError as exc:
                errors.extend(exc.diagnostics)
    finally:
        ahead.shutdown()
        built = sys.modules.get(f"{__package__}.build")  # (loaded by a cache miss)
        if built is not None:
            built.line_token_columns.cache_clear()  # a drop's body lines, not kept past its ingest
    if errors:
        raise TpbgenError(errors)
    return out


def _selected(
    sources: list[GenerationSource], only: list[str] | None, root: Path
) -> list[GenerationSource]:
    """The generations `only` names (all when it names none); one it names that `root` does
    not hold is an error."""
    if not only:
        return sources
    known = {s.name for s in sources}
    missing = [g for g in only if g not in known]
    if missing:
        raise TpbgenError(
            [
                Diagnostic(
                    f"no generation '{g}' under the header root (found: {', '.join(sorted(known))})",
                    str(root),
                    code="unknown-gen",
                )
                for g in missing
            ]
        )
    return [s for s in sources if s.name in only]


@dataclass
class _Job:
    """One generation's ingest as `_ingest_root` schedules it: its probe (or the error probing
    gave, raised in its turn, so errors come in the generations' order) and, for a cache miss,
    its header facts and its preprocessing once started."""

    probed: Probed | TpbgenError
    facts: HeaderFacts | TpbgenError | None = None
    preprocessing: Preprocessing | None = None

    @classmethod
    def probe(cls, src: GenerationSource, store: Cache | None, ahead: _CppAhead) -> _Job:
        """The generation probed; a miss handed to `ahead` (which may start its cpp at once)
        and then its header facts made, while that cpp runs."""
        try:
            probed = probe(src, store)
        except TpbgenError as exc:
            return cls(exc)
        job = cls(probed)
        if probed.cached is None:
            ahead.add(job)
            try:
                job.facts = header_facts(probed.src, probed.files)
            except TpbgenError as exc:
                job.facts = exc
        return job

    def complete(self, store: Cache | None, limits: Limits, ahead: _CppAhead) -> Ingested:
        """The generation's IR (raises the probe's error, or the ingest's)."""
        if isinstance(self.probed, TpbgenError):
            raise self.probed
        if self.probed.cached is not None:
            return _complete(self.probed, store, None, limits)
        running = ahead.take(self)
        facts, self.facts = self.facts, None
        return _complete(self.probed, store, None, limits, running, facts)


class _CppAhead:
    """The cache misses' preprocessing, run ahead of the parse. The system cpp is a process of
    its own: a miss's cpp runs in a thread that only waits for it (see Preprocessing), at most
    two at a time, the one whose output is parsed next and the one after (so the first two
    start as soon as they are found, each later one while the miss before it is parsed). pcpp
    runs in this process (and changes directory): never ahead, each runs when its miss is
    completed. A warm run starts none."""

    WINDOW = 2

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.pool = ThreadPoolExecutor(max_workers=2) if available_preprocessor() == "cpp" else None
        self.misses: list[_Job] = []  # in the generations' order
        self.started = 0  # misses[:started] have their preprocessing started
        self.taken = 0  # misses[:taken] have been handed to their completion

    def add(self, job: _Job) -> None:
        """A new miss: started now if it falls in the window."""
        self.misses.append(job)
        self._fill()

    def take(self, job: _Job) -> Preprocessing | None:
        """The preprocessing of the next miss, `job` (None: it runs in the caller's thread), once
        the one after it has started too."""
        assert self.misses[self.taken] is job
        self._fill()
        self.taken += 1
        running, job.preprocessing = job.preprocessing, None
        return running

    def _fill(self) -> None:
        if self.pool is None:
            return
        while self.started < min(self.taken + self.WINDOW, len(self.misses)):
            job = self.misses[self.started]
            p = job.probed
            assert isinstance(p, Probed)
            job.preprocessing = Preprocessing(
                p.src, "cpp", self.limits, dict(p.files.headers)
            ).start(self.pool)
            self.started += 1

    def shutdown(self) -> None:
        """Waits for a cpp still running; those not started are not."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
