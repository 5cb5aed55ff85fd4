"""What the differ derives from one generation on its own, computed once and kept in tpbgen's
data-only cache (tpbgen.cache) beside the IR it was derived from.

Per function: a hash of its body without source coordinates (equal hashes, equal code) and the
identifiers it reads; on demand, its predicate terms (terms.function_terms) and the signs of its
call sites (for polarity); per generation, the stale JSON names `reconcile` finds. Two sides are
compared by body hash, so a pycparser AST is rebuilt only for a body whose hash differs from the
other side's (its terms) and for the callers polarity needs, and only until that fact is cached.

A generation `ingest` read from or stored in the cache is remembered with the cache and its IR
key (`cache.provenance`); its facts entry is keyed by that IR key and by the source of the code
that derives the facts, so a changed tpbgen never reads facts of an older one. Any other
generation (built or edited in memory) gets its facts computed in memory only. An entry that is
missing, stale or not shaped as below is recomputed: it is JSON, never code.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from .. import cache as tcache
from ..checks.reconcile import reconcile
from ..ir.model import Function, Generation
from . import terms as T

KIND = "facts"
FACTS_FORMAT = 1

Signs = dict[str, set[int]]

_ID = re.compile(r'"_t":"ID","name":("(?:[^"\\]|\\.)*")\}')


@cache
def code_hash() -> str:
    """A hash over the source of everything that shapes a fact: this module, the term folding,
    the C printer and AST rebuild it uses, and reconcile."""
    from ..checks import reconcile as rc
    from ..ir import cast, cprint

    h = hashlib.sha256(f"facts {FACTS_FORMAT}\n".encode())
    for mod in (__file__, T.__file__, cprint.__file__, cast.__file__, rc.__file__):
        h.update(Path(str(mod)).read_bytes())
    return h.hexdigest()


def body_facts(fn: Function) -> tuple[str, frozenset[str]]:
    """(hash of the body without coordinates, the identifiers it reads), from one encoding."""
    canon = T.canonical_body(fn)
    ids = frozenset(json.loads(m.group(1)) for m in _ID.finditer(canon))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()[:32], ids


class GenFacts:
    """One generation's facts: loaded from its cache entry when there is one, computed for what is
    missing, and written back (`save`) when something was computed."""

    def __init__(self, gen: Generation) -> None:
        self.gen = gen
        self._store: tcache.Cache | None = None
        self._key = ""
        self._hash: dict[str, str] = {}
        self._ids: dict[str, frozenset[str]] = {}
        self._terms: dict[str, list[T.Term]] = {}
        self._signs: dict[str, Signs] = {}
        self._stale: dict[tuple[str, str], tuple[str, int]] | None = None
        self._readers: dict[str, list[str]] = {}
        self._polarity: T.Polarity | None = None
        self._memo: dict[str, Any] = {}
        self.rebuilt: list[str] = []  # the functions whose AST this object rebuilt (for tests)
        self._dirty = False
        loaded = False
        made = tcache.provenance(gen)
        if made is not None:
            store, ir_key = made
            self._store = store
            self._key = hashlib.sha256(f"{ir_key}\n{code_hash()}".encode()).hexdigest()
            loaded = self._load(store.get(KIND, gen.name, self._key))
        if not loaded:
            for f in gen.functions:
                self._hash[f.name], self._ids[f.name] = body_facts(f)
            self._dirty = True

    # -- the facts ----------------------------------------------------------------------------
    def body_hash(self, f: Function) -> str:
        return self._hash[f.name]

    def terms(self, f: Function) -> list[T.Term]:
        got = self._terms.get(f.name)
        if got is None:
            self.rebuilt.append(f.name)
            got = self._terms[f.name] = T.function_terms(f)
            self._dirty = True
        return got

    def readers(self, name: str) -> list[str]:
        """The functions whose bodies read the identifier `name`."""
        got = self._readers.get(name)
        if got is None:
            got = self._readers[name] = [
                f.name for f in self.gen.functions if name in self._ids[f.name]
            ]
        return got

    def _site_signs(self, f: Function) -> Signs:
        got = self._signs.get(f.name)
        if got is None:
            self.rebuilt.append(f.name)
            got = self._signs[f.name] = T.call_signs(f)
            self._dirty = True
        return got

    def polarity(self, name: str) -> int:
        if self._polarity is None:
            self._polarity = T.Polarity(self.gen.functions, self._site_signs)
        return self._polarity(name)

    def stale(self) -> dict[tuple[str, str], tuple[str, int]]:
        if self._stale is None:
            self._stale = {}
            for f in reconcile(self.gen):
                if f.kind == "stale":
                    self._stale.setdefault((f.struct, f.name), (f.file, max(f.line, 1)))
            self._dirty = True
        return self._stale

    def memo(self, what: str, make: Callable[[], Any]) -> Any:
        """An in-memory value derived from the generation (not cached on disk)."""
        if what not in self._memo:
            self._memo[what] = make()
        return self._memo[what]

    # -- the cache entry ----------------------------------------------------------------------
    def save(self) -> None:
        """Write the entry back when this object computed something it did not load."""
        if self._store is None or not self._dirty:
            return
        self._dirty = False
        self._store.put(KIND, self.gen.name, self._key, self._payload())

    def _payload(self) -> dict[str, Any]:
        return {
            "functions": {n: [h, sorted(self._ids[n])] for n, h in self._hash.items()},
            "terms": {
                n: [[t.text, list(t.arms), t.kind] for t in ts] for n, ts in self._terms.items()
            },
            "signs": {
                n: {c: sorted(s) for c, s in sg.items()} for n, sg in self._signs.items()
            },
            "stale": None
            if self._stale is None
            else [[s, n, file, line] for (s, n), (file, line) in self._stale.items()],
        }

    def _load(self, doc: Any) -> bool:
        """Take the entry's facts if every one of them has the shape `_payload` writes (and
        names exactly this generation's functions); else none of them."""
        try:
            parsed = _parse(doc, [f.name for f in self.gen.functions])
        except (TypeError, ValueError, KeyError):
            return False
        self._hash, self._ids, self._terms, self._signs, self._stale = parsed
        return True


def _str(v: Any) -> str:
    if not isinstance(v, str):
        raise TypeError("not a string")
    return v


def _strs(v: Any) -> list[str]:
    if not isinstance(v, list):
        raise TypeError("not a list")
    return [_str(x) for x in v]


def _dict(v: Any) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise TypeError("not an object")
    return v


def _parse(
    doc: Any, names: list[str]
) -> tuple[
    dict[str, str],
    dict[str, frozenset[str]],
    dict[str, list[T.Term]],
    dict[str, Signs],
    dict[tuple[str, str], tuple[str, int]] | None,
]:
    d = _dict(doc)
    fns = _dict(d["functions"])
    if sorted(fns) != sorted(names):
        raise ValueError("made for other functions")
    hashes: dict[str, str] = {}
    ids: dict[str, frozenset[str]] = {}
    for n in names:
        h, i = fns[n]
        hashes[n], ids[n] = _str(h), frozenset(_strs(i))
    known = set(names)
    terms: dict[str, list[T.Term]] = {}
    for n, ts in _dict(d["terms"]).items():
        if n not in known or not isinstance(ts, list):
            raise ValueError("bad terms")
        out = []
        for t in ts:
            text, arms, kind = t
            if kind not in ("cond", "let", "stmt"):
                raise ValueError("bad term kind")
            out.append(T.Term(_str(text), tuple(_strs(arms)), kind))
        terms[n] = out
    signs: dict[str, Signs] = {}
    for n, sg in _dict(d["signs"]).items():
        if n not in known:
            raise ValueError("bad signs")
        one: Signs = {}
        for callee, ss in _dict(sg).items():
            if not isinstance(ss, list) or not all(s in (-1, 0, 1) and s is not True and s is not False for s in ss):
                raise ValueError("bad sign")
            one[_str(callee)] = set(ss)
        signs[n] = one
    stale: dict[tuple[str, str], tuple[str, int]] | None = None
    if d["stale"] is not None:
        stale = {}
        if not isinstance(d["stale"], list):
            raise TypeError("bad stale")
        for s, n, file, line in d["stale"]:
            if not isinstance(line, int) or isinstance(line, bool):
                raise TypeError("bad line")
            stale[(_str(s), _str(n))] = (_str(file), line)
    return hashes, ids, terms, signs, stale


_FACTS: dict[int, GenFacts] = {}


def facts(gen: Generation) -> GenFacts:
    """The (small, most-recent-first) per-process table of facts, keyed by identity, holding the
    generation so that the identity cannot be reused while the entry lives."""
    got = _FACTS.get(id(gen))
    if got is None or got.gen is not gen:
        got = GenFacts(gen)
        _FACTS[id(gen)] = got
        while len(_FACTS) > 8:
            _FACTS.pop(next(iter(_FACTS)))
    return got
