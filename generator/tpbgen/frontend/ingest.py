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
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pycparser

from .. import __version__, collector
from ..cache import Cache, remember
from ..deep import run_deep
from ..errors import Diagnostic, Severity, TpbgenError, rebase
from ..ir import io as ir_io
from ..ir.consteval import CONSTEVAL_VERSION
from ..ir.model import IR_VERSION, Generation, SourceFile
from .build import build, line_token_columns
from .comments import SourceLines
from .dialect import reduce_dialect
from .discover import GenerationSource, discover
from .limits import DEFAULT as DEFAULT_LIMITS
from .limits import Limits
from .mapping_json import read_mapping
from .parse import parse
from .preprocess import (
    TU_NAME,
    Preprocessed,
    Preprocessor,
    available_preprocessor,
    fake_libc_dir,
    predefined_macros,
    preprocess,
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


def read_inputs(src: GenerationSource) -> InputFiles:
    """Raises OSError when a header cannot be read."""
    headers = tuple((h.relative_to(src.root).as_posix(), h.read_bytes()) for h in src.all_headers())
    mapping_path = src.mapping_file()
    try:
        mapping: bytes | None = mapping_path.read_bytes()
    except FileNotFoundError:
        mapping = None
    return InputFiles(headers, mapping_path.relative_to(src.root).as_posix(), mapping)


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


def ingest(
    src: GenerationSource,
    use_cache: bool = True,
    preprocessor: Preprocessor | None = None,
    cache: Cache | None = None,
    limits: Limits = DEFAULT_LIMITS,
    preprocessing: Callable[[], Future[Preprocessed] | None] | None = None,
) -> Ingested:
    """One generation's IR, from the cache when an entry for exactly these inputs is there. Every
    diagnostic says which directory its file is relative to (the include root). `preprocessing`
    is called when the cache misses: it starts this generation's preprocessing elsewhere (and
    may start the next one's: ingest_root does) and returns it under way; None (or no callable)
    preprocesses here."""
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
    store = (cache if cache is not None else Cache()) if use_cache else None
    seen = len(store.warnings) if store is not None else 0
    full_key = cache_key(key)
    gen: Generation | None = None
    if store is not None:
        gen = _from_cache(store, src.name, full_key, key)
    from_cache = gen is not None
    warnings: list[Diagnostic] = []
    if gen is None:
        preprocessed = preprocessing() if preprocessing is not None else None
        # The collector stays paused until the cache entry is written and the bodies are text
        # (the payload's lists are short-lived and acyclic; a body's text is one object where its
        # tree is a list per AST node): its first pass afterwards has little left to walk.
        with collector.paused():
            try:
                gen, warnings = _ingest_uncached(
                    src, key, files, preprocessor, limits, preprocessed
                )
            except TpbgenError as exc:
                raise TpbgenError(rebase(exc.diagnostics, src.root), exc.exit_code) from None
            if store is not None:
                try:
                    payload, blobs = ir_io.to_cache(gen)
                except RecursionError:  # a body deeper than this Python's json takes: not kept
                    pass
                else:
                    store.put("ir", src.name, full_key, payload, blobs)
                    del payload
                    for f in gen.functions:
                        f.code.release_tree()
    if store is not None:
        remember(gen, store, full_key)  # facts derived from this IR are cached under its key
        warnings.extend(store.warnings[seen:])
    return Ingested(gen, tuple(rebase(warnings, src.root)), from_cache, src.root)


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


def _ingest_uncached(
    src: GenerationSource,
    key: str,
    inputs: InputFiles,
    preprocessor: Preprocessor | None,
    limits: Limits = DEFAULT_LIMITS,
    preprocessed: Future[Preprocessed] | None = None,
) -> tuple[Generation, list[Diagnostic]]:
    root = src.root.resolve()
    for rel, data in inputs.headers:
        _refuse_control_bytes(data, rel)
    # What needs only the header bytes is done while the preprocessor runs (elsewhere, when it
    # was started there); its errors are raised in the order they were before: the preprocessor's
    # and the parser's first, the mapping's after.
    lines = SourceLines(root, dict(inputs.headers))
    files = [
        SourceFile(rel, hashlib.sha256(data).hexdigest(), data.count(b"\n"), lines.banner(rel))
        for rel, data in inputs.headers
    ]
    spec = tuple(sc for f in files if f.path.endswith(".h") for sc in lines.spec_comments(f.path))
    pre = (
        preprocessed.result() if preprocessed is not None else preprocess(src, preprocessor, limits)
    )
    changed = _changed_since(src, inputs)  # the preprocessor has read the tree: was it this one?
    if changed is not None:
        raise TpbgenError([changed])
    relpath = functools.cache(
        src.rel
    )  # called for every AST coordinate: resolve each file name once
    text, dialect = reduce_dialect(pre.text, relpath)

    tpb_rel = src.rel_tpb_dir
    gen_rel = src.gen_dir.relative_to(src.root).as_posix()

    def is_ours(rel: str) -> bool:  # tpb/ and sibling trees of this generation (common/), not libc
        return rel.startswith(gen_rel + "/")

    with collector.paused():
        ast = parse(text, TU_NAME, relpath)
        tree = build(ast, relpath, is_ours, lines, dialect, pre.macros)
        del ast  # freed here: the collector's first pass after the block then sees only the IR
    mapping = read_mapping(inputs.mapping, inputs.mapping_rel)
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
    return gen, warnings


def _changed_since(src: GenerationSource, inputs: InputFiles) -> Diagnostic | None:
    """The first header that is not what `inputs` holds any more, read again once the
    preprocessor has read the tree (a header edited, added or removed meanwhile): the IR would
    mix two versions of the drop (its comments come from `inputs`, its syntax from what the
    preprocessor read) and its cache entry would be filed under the key of the other one. Both
    reads agreeing leaves the preprocessor's read, made between them, seeing the same bytes."""

    def changed(rel: str) -> Diagnostic:
        return Diagnostic(
            "changed while tpbgen was reading the headers; nothing was kept from this run of "
            "them: run again",
            rel,
            code="changed-during-read",
        )

    before = dict(inputs.headers)
    try:
        now = dict(read_inputs(src).headers)
    except OSError as exc:  # listed, then gone (or unreadable) before it was read
        gone = Path(str(exc.filename))
        return changed(
            gone.relative_to(src.root).as_posix()
            if gone.is_relative_to(src.root)
            else src.rel_tpb_dir
        )
    differ = sorted(rel for rel in before.keys() | now.keys() if before.get(rel) != now.get(rel))
    return changed(differ[0]) if differ else None


_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1f\x7f]")


def _refuse_control_bytes(data: bytes, rel: str) -> None:
    """Header text is C source: a NUL or another control byte (tab, line ends, form feed and
    vertical tab aside) is refused where it stands rather than carried into the package."""
    m = _CONTROL.search(data)
    if m is None:
        return
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
    sources = discover(root)
    if only:
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
        sources = [s for s in sources if s.name in only]
    out: list[Ingested] = []
    errors: list[Diagnostic] = []
    if use_cache and cache is None:
        cache = Cache()
    # The system cpp is a process of its own: when a generation misses the cache its headers are
    # preprocessed in a thread (waiting on cpp) while this one does what needs only their bytes,
    # and the next generation's start too, to run while this one is parsed; a warm run starts
    # none. pcpp runs in this process (and changes directory): not ahead.
    ahead: dict[int, Future[Preprocessed]] = {}
    pool = ThreadPoolExecutor(max_workers=2) if available_preprocessor() == "cpp" else None

    def start(i: int) -> None:
        if pool is not None and i < len(sources) and i not in ahead:
            ahead[i] = pool.submit(preprocess, sources[i], None, limits)

    def preprocessing(i: int) -> Future[Preprocessed] | None:
        start(i)
        start(i + 1)
        return ahead.pop(i, None)

    try:
        for i, s in enumerate(sources):
            try:
                out.append(
                    ingest(
                        s,
                        use_cache,
                        cache=cache,
                        limits=limits,
                        preprocessing=functools.partial(preprocessing, i),
                    )
                )
            except TpbgenError as exc:
                errors.extend(exc.diagnostics)
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        line_token_columns.cache_clear()  # a drop's body lines, not kept past its ingest
    if errors:
        raise TpbgenError(errors)
    return out
