"""The rendered-package cache: what `generate` translated and rendered, reused by the very inputs,
code and templates that made it.

Entries are data only like the IR (kind `render`), keyed by `render_key`: every generation's IR
key, the hash of tpbgen's own code and templates and the versions of what renders. A damaged
entry is rebuilt with one warning.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Any

from pycparser import c_ast

from . import __version__
from .cache import Cache
from .errors import Diagnostic, Severity
from .frontend.ingest import cache_key
from .ir.body import slots
from .ir.model import Generation
from .translate.validators import TranslatedGen


def code_hash() -> str:
    """One hash over tpbgen's own source, its templates and its runtime library (every file, by
    path and content): a rendered package is reused only by the very code, templates and runtime
    that rendered it. Read again on every call (a few milliseconds), so an edit within one
    process counts too."""
    from .templating import runtime_root, template_root

    h = hashlib.sha256()
    pkg = Path(__file__).resolve().parent
    roots = (
        ("tpbgen", pkg),
        ("templates", template_root().resolve()),
        ("runtime", runtime_root().resolve()),
    )
    for label, root in roots:
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root)
            if "__pycache__" in rel.parts or not path.is_file():
                continue
            if label == "tpbgen" and rel.parts[0] in ("templates", "runtime"):
                continue  # hashed from where it really is, below
            h.update(f"{label}/{rel.as_posix()}\n".encode())
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def render_key(gens: list[Generation], proof: str, firmware_sha256: str = "") -> str:
    """What a rendered package depends on: every generation's IR key (its inputs and what shaped
    its IR), tpbgen's code and templates, the versions of Python and Jinja, and `proof`: what
    the predicate proof runs with (the compiler's identity, or why it does not run), since a
    predicate it finds wrong is rendered on the C path; and the firmware overlay's bytes."""
    import jinja2

    parts = [
        f"render {RENDER_CACHE_VERSION} tpbgen {__version__} code {code_hash()}",
        f"python {sys.version} jinja2 {jinja2.__version__}",
        f"predicate proof: {proof}",
        *(f"{g.name} {cache_key(g.inputs_sha256)}" for g in gens),
        *([f"firmware {firmware_sha256}"] if firmware_sha256 else []),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


RENDER_CACHE_VERSION = 2


@dataclass(frozen=True)
class GenNotes:
    """What a rendering remembers of one generation: the translator's and the predicate proof's
    diagnostics, the counts the summary shows, and the proof's summary line."""

    notes: list[Diagnostic]
    functions: int
    top: int
    predicates: str


@dataclass(frozen=True)
class Rendered:
    gens: dict[str, GenNotes]
    files: dict[str, str]


def _diag_json(diag: Diagnostic) -> dict[str, Any]:
    return {f.name: getattr(diag, f.name) for f in fields(Diagnostic)}


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


def rendered_payload(done: dict[str, GenNotes], files: dict[str, str]) -> dict[str, Any]:
    """The render cache's entry: per generation the translator's notes and counts, and every
    rendered file by path."""
    return {
        "gens": {
            name: {
                "warnings": [_diag_json(w) for w in g.notes],
                "functions": g.functions,
                "top": g.top,
                "predicates": g.predicates,
            }
            for name, g in done.items()
        },
        "files": files,
    }


def rendered_from_cache(cache: Cache, key: str, names: list[str]) -> Rendered | None:
    """The cached rendering for `key`, checked field by field; None (render again) otherwise."""
    doc = cache.get("render", "package", key)
    if doc is None:
        return None
    try:
        gens = {}
        for name in names:
            g = doc["gens"][name]
            nf, nt, proof = g["functions"], g["top"], g["predicates"]
            if not (isinstance(nf, int) and isinstance(nt, int) and isinstance(proof, str)):
                raise TypeError("counts")
            gens[name] = GenNotes([_diag_from(w) for w in g["warnings"]], nf, nt, proof)
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
    return Rendered(gens, files)


# -- what one validator's predicate proof depends on ----------------------------------------------

# fields of the IR that say where a thing is written or what a comment says, not what the C means
_NOT_MEANING = frozenset({"loc", "end_line", "doc", "comment", "maintenance", "code", "section"})
_IDENT = re.compile(r"[A-Za-z_]\w*")


def _meaning(obj: Any) -> Any:
    """`obj` (IR dataclasses, tuples, scalars) as plain data without coordinates or comments."""
    if is_dataclass(obj) and not isinstance(obj, type):
        return [
            type(obj).__name__,
            *(
                [f.name, _meaning(getattr(obj, f.name))]
                for f in fields(obj)
                if f.name not in _NOT_MEANING
            ),
        ]
    if isinstance(obj, (tuple, list)):
        return [_meaning(x) for x in obj]
    return repr(obj)


_SHAPES: dict[str, tuple[bool, ...]] = {}  # node class -> whether each slot is an attribute


def _bare(node: Any) -> Any:
    """A compact body node (ir/body.py: [class, coord, slot, ...]) without its coordinates, its
    children likewise; attribute slots as they are."""
    name = node[0] if isinstance(node, list) and node else None
    shape = _SHAPES.get(name) if isinstance(name, str) else None
    if shape is None:
        cls = getattr(c_ast, name, None) if isinstance(name, str) else None
        if not (isinstance(cls, type) and issubclass(cls, c_ast.Node)):
            raise ValueError(f"not a body node: {str(node)[:80]}")
        shape = _SHAPES[cls.__name__] = tuple(a for _, a in slots(cls))
    out: list[Any] = [name]
    for attribute, value in zip(shape, node[2:], strict=True):
        if attribute or value is None:
            out.append(value)
        elif value and isinstance(value[0], list):  # a list of child nodes
            out.append([_bare(v) for v in value])
        elif value:
            out.append(_bare(value))
        else:
            out.append([])
    return out


def _declarations_hash(gen: Generation) -> str:
    """Every struct layout, enum, constant and typedef of the generation, without coordinates or
    comments: a validator's C may read any of them (conservatively, all of them count)."""
    data = [_meaning(gen.structs), _meaning(gen.enums), _meaning(gen.constants)]
    data.append(_meaning(gen.typedefs))
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()


def _closure(gen: Generation, name: str) -> list[str]:
    """`name` and every function of the generation it can call, sorted."""
    by_name = {f.name: f for f in gen.functions}
    seen: set[str] = set()
    todo = [name]
    while todo:
        n = todo.pop()
        if n in seen or n not in by_name:
            continue
        seen.add(n)
        todo += by_name[n].calls
    return sorted(seen)


def validator_keys(gen: Generation, tr: TranslatedGen, proof: str, code: str) -> dict[str, str]:
    """Per top-level validator, a hash of every byte its predicate proof depends on: the C body
    of the validator and of each function it reaches (without coordinates: a body that only
    moved keeps its key), their signatures, the generation's struct layouts, enums, constants
    and typedefs, its scalar and batch translations and what of the translation's
    tables they name, its opcode gate, tpbgen's code and templates (`code`), and what the
    proof runs with (`proof`: the compiler's identity and flags)."""
    by_name = {f.name: f for f in gen.functions}
    scalar = {f.name: f for f in tr.functions}
    batch: dict[str, str] = {}
    for text in tr.batch_functions:
        m = re.search(r"def _v_(\w+)\(", text)
        if m:
            batch[m.group(1)] = text
    head = "\n".join([f"validator proof {code}", proof, gen.name, _declarations_hash(gen)])
    shared = repr((tr.rowwise, tr.batch_tables, tr.helpers, tr.batch_helpers))
    done: dict[str, tuple[bytes, str]] = {}  # function -> (hash of its part, the code's text)

    def part(n: str) -> tuple[bytes, str]:
        if n not in done:
            fn = by_name[n]
            body = json.dumps(_bare(fn.code.tree()[1]), separators=(",", ":"))
            sig = json.dumps([_meaning(fn.returns), _meaning(fn.params)])
            py = scalar.get(n)
            # the code the proof runs (not the explanations and wrappers: they name lines)
            texts = "\n".join([py.code if py is not None else "-", batch.get(n, "-")])
            text = f"function {n}\n{sig}\n{body}\n{texts}"
            done[n] = (hashlib.sha256(text.encode()).digest(), texts)
        return done[n]

    keys: dict[str, str] = {}
    for top in tr.top:
        h = hashlib.sha256(f"{head}\n{shared}\n{top!r}\n".encode())
        reached = _closure(gen, top.name)
        said: list[str] = []
        for n in reached:
            digest, texts = part(n)
            h.update(digest)
            said.append(texts)
        ids = set(_IDENT.findall("\n".join(said)))
        named = [
            [c for c in tr.consts if c[0] in ids],
            [m for m in tr.member_sets if m[0] in ids],
            [u for u in tr.untranslated if u.name in reached],
            [s for s in tr.batch_stubs if s.name in reached],
        ]
        h.update(repr(named).encode())
        keys[top.name] = h.hexdigest()
    return keys
