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
import weakref
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
def code_hash() -> str | None:
    """A hash over the source of everything that shapes a fact: this module, the term folding,
    the C printer and AST rebuild it uses, and reconcile with the bindings it reads. (The IR key
    already holds tpbgen's, the IR's and pycparser's versions.)"""
    from .. import resolve
    from ..checks import reconcile as rc
    from ..ir import cast, cprint

    h = hashlib.sha256(f"facts {FACTS_FORMAT}\n".encode())
    for mod in (
        __file__,
        T.__file__,
        cprint.__file__,
        cast.__file__,
        rc.__file__,
        resolve.__file__,
    ):
        try:
            h.update(Path(str(mod)).read_bytes())
        except OSError:  # no source to hash (a bytecode-only install): facts stay in memory
            return None
    return h.hexdigest()


def body_facts(fn: Function) -> tuple[str, frozenset[str]]:
    """(hash of the body without coordinates, the identifiers it reads), from one encoding."""
    canon = T.canonical_body(fn)
    ids = frozenset(json.loads(m.group(1)) for m in _ID.finditer(canon))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()[:32], ids


class GenFacts:
    """One generation's facts: loaded from its cache entry when there is one, computed for what is
    missing, and written back (`save`) when something was computed. An entry's terms and signs
    are checked and converted when first asked for (an audit asks for a few); one that is not
    shaped right is recomputed."""

    def __init__(self, gen: Generation) -> None:
        """Load `gen`'s facts from the cache entry for this IR and this code when there is one and
        it is shaped right; else hash every body and collect the identifiers it reads now (terms and
        signs wait until asked for) and mark the facts to be saved."""
        self._gen = weakref.ref(gen)  # the facts go when the generation goes
        self._store: tcache.Cache | None = None
        self._key = ""
        self._hash: dict[str, str] = {}
        self._ids: dict[str, str] = {}  # the identifiers, space-separated, sorted
        self._idsets: dict[str, frozenset[str]] = {}
        self._terms: dict[str, Any] = {}  # name -> the entry's JSON form (checked on use)
        self._signs: dict[str, Any] = {}
        self._got_terms: dict[str, list[T.Term]] = {}
        self._got_signs: dict[str, Signs] = {}
        self._stale: dict[tuple[str, str], tuple[str, int]] | None = None
        self._readers: dict[str, list[str]] = {}
        self._polarity: T.Polarity | None = None
        self._memo: dict[str, Any] = {}
        # ("terms" | "signs", function) for every body whose AST this object rebuilt (for tests)
        self.rebuilt: list[tuple[str, str]] = []
        self._dirty = False
        loaded = False
        made = tcache.provenance(gen)
        code = code_hash()
        if made is not None and code is not None:
            store, ir_key = made
            self._store = store
            self._key = hashlib.sha256(f"{ir_key}\n{code}".encode()).hexdigest()
            loaded = self._load(store.get(KIND, gen.name, self._key))
        if not loaded:
            for f in gen.functions:
                h, ids = body_facts(f)
                self._hash[f.name], self._ids[f.name] = h, " ".join(sorted(ids))
                self._idsets[f.name] = ids
            self._dirty = True

    @property
    def gen(self) -> Generation:
        """The generation these facts are of; asking after it was collected is a bug
        (AssertionError)."""
        gen = self._gen()
        assert gen is not None, "facts asked of a generation that is gone"
        return gen

    # -- the facts ----------------------------------------------------------------------------
    def body_hash(self, f: Function) -> str:
        """The hash of `f`'s body without coordinates (equal bodies, moved or not, hash equal)."""
        return self._hash[f.name]

    def terms(self, f: Function) -> list[T.Term]:
        """`f`'s conjuncts (terms.function_terms): from the cache entry when it holds a well-formed
        list, else computed from the body and marked to be saved."""
        got = self._got_terms.get(f.name)
        if got is None:
            got = _terms_of(self._terms.get(f.name))
            if got is None:
                self.rebuilt.append(("terms", f.name))
                got = T.function_terms(f)
                self._terms[f.name] = [[t.text, list(t.arms), t.kind] for t in got]
                self._dirty = True
            self._got_terms[f.name] = got
        return got

    def ids(self, name: str) -> frozenset[str]:
        """The identifiers the body of function `name` reads."""
        got = self._idsets.get(name)
        if got is None:
            got = self._idsets[name] = frozenset(self._ids[name].split())
        return got

    def readers(self, name: str) -> list[str]:
        """The functions whose bodies read the identifier `name`."""
        got = self._readers.get(name)
        if got is None:
            got = self._readers[name] = [
                f.name for f in self.gen.functions if name in self.ids(f.name)
            ]
        return got

    def _site_signs(self, f: Function) -> Signs:
        got = self._got_signs.get(f.name)
        if got is None:
            got = _signs_of(self._signs.get(f.name))
            if got is None:
                self.rebuilt.append(("signs", f.name))
                got = T.call_signs(f)
                self._signs[f.name] = {c: sorted(s) for c, s in got.items()}
                self._dirty = True
            self._got_signs[f.name] = got
        return got

    def polarity(self, name: str) -> int:
        """Function `name`'s effective polarity (terms.Polarity): the product of the call-site
        signs along every path from a top-level validator, 0 when the paths disagree."""
        if self._polarity is None:
            me = weakref.ref(self)  # the Polarity is ours: a bound method would make a cycle

            def site_signs(f: Function) -> Signs:
                facts = me()
                assert facts is not None
                return facts._site_signs(f)

            self._polarity = T.Polarity(self.gen.functions, site_signs)
        return self._polarity(name)

    def stale(self) -> dict[tuple[str, str], tuple[str, int]]:
        """The stale annotations reconcile finds in the generation, by (struct, field): (file,
        line)."""
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
            "functions": {n: [h, self._ids[n]] for n, h in self._hash.items()},
            "terms": {n: t for n, t in self._terms.items() if _terms_of(t) is not None},
            "signs": {n: s for n, s in self._signs.items() if _signs_of(s) is not None},
            "stale": None
            if self._stale is None
            else [[s, n, file, line] for (s, n), (file, line) in self._stale.items()],
        }

    def _load(self, doc: Any) -> bool:
        """Take the entry if it has the shape `_payload` writes and names exactly this
        generation's functions; its terms and signs are checked when used."""
        if not isinstance(doc, dict):
            return False
        fns, terms, signs, stale = (doc.get(k) for k in ("functions", "terms", "signs", "stale"))
        if not (isinstance(fns, dict) and isinstance(terms, dict) and isinstance(signs, dict)):
            return False
        names = [f.name for f in self.gen.functions]
        if len(fns) != len(names):
            return False
        hashes: dict[str, str] = {}
        ids: dict[str, str] = {}
        for n in names:
            v = fns.get(n)
            if not (
                isinstance(v, list)
                and len(v) == 2
                and isinstance(v[0], str)
                and isinstance(v[1], str)
            ):
                return False
            hashes[n], ids[n] = v
        got_stale = _stale_of(stale) if stale is not None else None
        if stale is not None and got_stale is None:
            return False
        self._hash, self._ids, self._terms, self._signs = hashes, ids, terms, signs
        self._stale = got_stale
        return True


def _terms_of(doc: Any) -> list[T.Term] | None:
    """An entry's terms of one function, or None when they are not shaped as written."""
    if not isinstance(doc, list):
        return None
    out = []
    for t in doc:
        if not (isinstance(t, list) and len(t) == 3):
            return None
        text, arms, kind = t
        if not (
            isinstance(text, str)
            and kind in ("cond", "let", "stmt")
            and isinstance(arms, list)
            and all(isinstance(a, str) for a in arms)
        ):
            return None
        out.append(T.Term(text, tuple(arms), kind))
    return out


def _signs_of(doc: Any) -> Signs | None:
    """An entry's call-site signs of one function, or None when not shaped as written."""
    if not isinstance(doc, dict):
        return None
    out: Signs = {}
    for callee, ss in doc.items():
        if not (isinstance(ss, list) and all(type(x) is int and x in (-1, 0, 1) for x in ss)):
            return None
        out[callee] = set(ss)
    return out


def _stale_of(doc: Any) -> dict[tuple[str, str], tuple[str, int]] | None:
    if not isinstance(doc, list):
        return None
    out: dict[tuple[str, str], tuple[str, int]] = {}
    for e in doc:
        if not (
            isinstance(e, list)
            and len(e) == 4
            and all(isinstance(x, str) for x in e[:3])
            and type(e[3]) is int
        ):
            return None
        out[(e[0], e[1])] = (e[2], e[3])
    return out


_FACTS: dict[int, GenFacts] = {}


def facts(gen: Generation) -> GenFacts:
    """The facts of `gen`, made once per generation object (one generation takes part in two
    transitions of `audit --all`) and kept for as long as that object lives, no longer."""
    oid = id(gen)
    got = _FACTS.get(oid)
    if got is None or got._gen() is not gen:
        got = _FACTS[oid] = GenFacts(gen)
        weakref.finalize(gen, _FACTS.pop, oid, None)
    return got
