"""The predicate proof: every translated back end held to the drop's own C at generate time.

For each top-level validator the drop's C (checks/cpredicates.py, compiled with the C compiler
on this machine) is the ground truth. Its scalar Python translation and its numpy batch
translation, as the generated package's `validators` and `batch` modules (imported by the driver
from its staged tree, staged.py; nothing here runs code from strings), are run in-process on a
corpus of words (checks/corpus.py: random words, boundary
words, and words aimed at each term, built from accepted words the C itself found), and the
dispatch `validate()` uses (each opcode to the validators whose gate admits it) is held to "some
top-level C validator accepts" on every word of every corpus. At least MIN_WORDS words per
generation, each validator at least MIN_PER_VALIDATOR.

A disagreement is never shipped: the validator goes to the C path (the runtime decides it with
the headers' C; translate/validators.py `to_the_c_path`) with a located warning naming the first
word that disagreed (an error under --strict). A translation that raises on a word (other than
UntranslatedPredicate, the documented answer of an untranslated helper) disagrees too. The result
is cached by everything it depends on: the IR's inputs, the translation, the compiler.
"""

from __future__ import annotations

import base64
import hashlib
import math
import re
import zlib
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..cache import Cache
from ..errors import Diagnostic, Severity
from ..ir.model import Generation
from ..runtime.cbuild import BUILD_DEPENDENT, MEANING_ARGS
from ..translate.validators import TranslatedGen, to_the_c_path
from .seeds import PIECES, score_code

if TYPE_CHECKING:  # cpredicates.py needs numpy, which the generator only uses when it is there
    from .cpredicates import Ahead

MIN_WORDS = 10_000  # per generation
MIN_PER_VALIDATOR = 2048
SEEDS = 16  # accepted words the term-aimed words are made from, per validator
CLIMBS = 3  # searches for a first accepted word (seeds.py), when no other word is one
PROOF_VERSION = 5  # 5: where the drop's C reads a build-dependent name


@dataclass(frozen=True)
class Disagreement:
    validator: str
    backend: str  # "scalar", "batch" or "dispatch"
    word: str  # the first disagreeing word, hex
    detail: str  # what each side said
    opcodes: tuple[int, ...] = ()  # dispatch: opcodes the C accepts the validator on, off its gate


@dataclass(frozen=True)
class Proof:
    """What the proof found for one generation; `ran` False with `why` when it could not run."""

    ran: bool
    why: str = ""
    compiler: str = ""
    words: int = 0
    validators: int = 0
    disagreements: tuple[Disagreement, ...] = ()
    unaccepted: tuple[str, ...] = ()  # validators the C accepted no word of the corpus of
    untranslated: tuple[str, ...] = ()  # validators with no translation: their dispatch alone held
    # where the drop's headers read a name whose meaning depends on the build (NDEBUG, assert,
    # __OPTIMIZE__, ...): (file relative to the root, line, column, name)
    build_uses: tuple[tuple[str, int, int, str], ...] = ()
    # the validators whose corpus and back ends ran in this run (the others' results came from
    # the per-validator cache, or the whole proof did); not part of what the proof found
    proven: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        """The summary line `generate` prints: on how many words the predicates were held to
        which compiler, which validators no accepted word was found for, which are untranslated
        (only their dispatch held), and which disagreed and ship decided in C; or why the proof
        did not run."""
        if not self.ran:
            return f"predicates not proven: {self.why}"
        held = f"predicates held to {self.compiler} on {self.words} words ({self.validators} validators"
        if self.unaccepted:
            held += f"; no word found that the C accepts for {', '.join(self.unaccepted)}"
        if self.untranslated:
            held += f"; only the dispatch of untranslated {', '.join(self.untranslated)}"
        held += ")"
        if not self.disagreements:
            return held
        names = sorted({d.validator for d in self.disagreements})
        return f"{held}: {len(names)} disagree, decided in C: {', '.join(names)}"


def not_run(why: str) -> Proof:
    """A proof that did not run, and why (no compiler, no numpy, `--no-verify-cc`)."""
    return Proof(False, why)


def prove(
    gen: Generation,
    root: Path,
    tr: TranslatedGen,
    cc: str,
    ident: str,
    cache: Cache | None,
    accepted: dict[str, Any] | None = None,
    ahead: Ahead | None = None,
    load: Callable[[], Namespaces] | None = None,
    own: dict[str, str] | None = None,
    code: str = "",
) -> Proof:
    """The proof for one generation, from the cache when these inputs, this translation and
    this compiler were proven before. `accepted` ({validator: words its C accepted}) is shared
    by the generations of one run: a validator of the same name in the next generation tries
    them first (the C decides), which spares most searches for a first accepted word. Since the
    words shape the corpus, they are part of the cache key, and a cached proof hands on the
    words it found, so a run says the same whatever the cache held. `ahead` is the compiles
    the driver started early (the C compiles while the translator runs). `load` imports the
    translation as the package ships it (the driver's staged tree: the generation's
    `validators` module with the search scores of `scores_module` beside it, and its `batch`
    module), called only when some validator is proven again. `own` holds each validator's
    own key (render_cache.validator_keys: every byte its proof depends on); a validator whose
    key and handed-on words match an earlier run's takes that run's corpus and verdicts from
    the per-validator store (`predproof-v`), so a drop that changes one validator proves that
    one again (and runs the dispatch, C only, on every word). `code` is the hash of tpbgen's own
    code (render_cache.code_hash): the whole generation's cached proof is keyed by it too, as
    each validator's is, so a change to the proof's search or checks proves again."""
    if not numpy_installed():
        return not_run("numpy is not installed (it runs the batch back end)")
    names = tuple(t.name for t in tr.top)
    if not names:
        return Proof(True, compiler=cc)
    accepted = {} if accepted is None else accepted
    key = _key(gen, tr, cc, ident, accepted, code)
    hit = cache.get("predproof", gen.name, key) if cache is not None else None
    cached = _from_payload(hit, cc)
    if cached is not None:
        accepted.update(_accepted_from(hit))
        return cached
    from .cpredicates import CompileError, CPredicates, build

    compiled: list[CPredicates] = []

    def c_predicates() -> CPredicates:
        """The drop's C, compiled when first needed (a proof served by the per-validator
        store, for inputs compiled before, compiles nothing)."""
        if not compiled:
            took = ahead.take(gen, root, names) if ahead is not None else None
            compiled.append(took or build(cc, gen, root, names))
        return compiled[0]

    found_before = dict(accepted)
    store_key = _store_key(gen, cc, ident)
    doc = cache.get("predproof-v", gen.name, store_key) if cache is not None else None
    store = doc if isinstance(doc, dict) else {}
    prover = _Prover(
        gen, tr, lambda n, w: c_predicates().run(n, w), accepted, load, own or {}, store
    )
    try:
        proof = prover.run(cc)
        uses = _stored_uses(store, gen)
        proof = replace(proof, build_uses=c_predicates().build_uses if uses is None else uses)
    except (CompileError, OSError) as exc:
        _restore(accepted, found_before)
        return not_run(f"the drop's predicates do not compile with {cc}: {exc}")
    except _LoadFailed as exc:  # the translation itself does not load: a translator bug
        _restore(accepted, found_before)
        return not_run(f"the translated code does not load ({_exc(exc.__cause__ or exc)})")
    if cache is not None:
        found = {n: w for n, w in accepted.items() if found_before.get(n) is not w}
        cache.put("predproof", gen.name, key, {**_payload(proof), "accepted": _hex(found)})
        uses_doc = {"inputs": gen.inputs_sha256, "uses": [list(u) for u in proof.build_uses]}
        kept = {"validators": prover.kept, "dispatch": prover.kept_dispatch, "build_uses": uses_doc}
        cache.put("predproof-v", gen.name, store_key, kept)
    return proof


def _restore(accepted: dict[str, Any], before: dict[str, Any]) -> None:
    """Hand on what was handed in: a proof that did not run hands on nothing of its own (the
    stored validators it took before the compile or the import failed included), as in a cold
    run, where it fails before any validator."""
    accepted.clear()
    accepted.update(before)


def has_store(cache: Cache | None, gen: Generation, cc: str, ident: str) -> bool:
    """Whether an earlier run left a per-validator store for `gen` (then its C is compiled
    only when the proof needs it, not ahead)."""
    return (
        cache is not None
        and cache.path("predproof-v", gen.name, _store_key(gen, cc, ident)).is_file()
    )


def _stored_uses(
    store: dict[str, Any], gen: Generation
) -> tuple[tuple[str, int, int, str], ...] | None:
    """The build-dependent names an earlier compile of these very inputs found; None when the
    store holds none for them (then the C is compiled for them)."""
    doc = store.get("build_uses")
    try:
        if not isinstance(doc, dict) or doc["inputs"] != gen.inputs_sha256 or not gen.inputs_sha256:
            return None
        return tuple((str(f), int(ln), int(col), str(n)) for f, ln, col, n in doc["uses"])
    except (KeyError, TypeError, ValueError):
        return None


def numpy_installed() -> bool:
    """Whether numpy (the batch back end, and the proof's word arrays) is importable here."""
    import importlib.util

    return importlib.util.find_spec("numpy") is not None


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def scores_module(gen: Generation, tr: TranslatedGen, validators: Collection[str]) -> str:
    """The search scores (seeds.py) as a module beside the generation's `validators` module
    (whose top-level names are `validators`): they call the translated functions, and read the
    constants and helpers, by their names there, which the module imports by name (each
    identifier of its code that module defines; one the scores define themselves is not one of
    them: they are all ``_s_``/``_SCORE_`` names). The proof imports it from the staged tree; it
    never ships."""
    from ..translate.chain import chains

    chunks = score_code(tr.lowered, chains(gen, tr))
    used = {name for chunk in chunks for name in _IDENTIFIER.findall(chunk)}
    names = sorted(used & {n for n in validators if not n.startswith("__")})
    head = '"""The predicate proof\'s search scores (tpbgen checks/seeds.py); not shipped."""\n\n'
    if names:
        head += "from .validators import (\n" + "".join(f"    {n},\n" for n in names) + ")\n"
    return head + "".join(f"\n\n{chunk}\n" for chunk in chunks)


def compile_ahead(cc: str, gens: list[tuple[Generation, Path]]) -> Ahead | None:
    """Start compiling the generations' C predicates (one ahead of the proof, see
    cpredicates.Ahead); None when the proof cannot run here (no numpy)."""
    try:
        from .cpredicates import Ahead
    except ImportError:
        return None
    from ..translate.validators import top_names

    named = [(g, root, tuple(sorted(top_names(g)))) for g, root in gens]
    return Ahead(cc, [t for t in named if t[2]])


def findings(gen: Generation, proof: Proof) -> list[Diagnostic]:
    """A located warning per use of a build-dependent name in the drop's C, and per disagreeing
    validator, naming the first word it disagreed on."""
    out = [
        Diagnostic(
            f"{name}: the drop's C reads a name whose meaning depends on how it is built; tpbgen "
            "translates and proves it, and the package's C backend builds it, as the C compiler "
            "does without options (NDEBUG and __OPTIMIZE__ undefined, cbuild.MEANING_ARGS), "
            "whatever Python's own build flags say; a build of these headers with other flags "
            "may decide words otherwise",
            file,
            line,
            col,
            Severity.WARNING,
            "build-dependent",
        )
        for file, line, col, name in proof.build_uses
    ]
    seen: set[str] = set()
    for d in proof.disagreements:
        if d.validator in seen:
            continue
        seen.add(d.validator)
        loc = gen.function(d.validator).loc
        what = (
            "dispatch (its opcode gate)" if d.backend == "dispatch" else f"{d.backend} translation"
        )
        out.append(
            Diagnostic(
                f"{d.validator}: the {what} disagrees with the C on word {d.word} ({d.detail}); "
                f"the package decides {d.validator} with the headers' C (--strict makes this an error)",
                loc.file,
                loc.line,
                loc.col,
                Severity.WARNING,
                "predicate-proof",
            )
        )
    return out


def apply(gen: Generation, tr: TranslatedGen, proof: Proof) -> TranslatedGen:
    """The translation as it ships: each disagreeing validator on the C path."""
    routes: dict[str, tuple[tuple[str, str], tuple[int, ...]]] = {}
    for d in proof.disagreements:
        why, ops = routes.get(d.validator, (("", ""), ()))
        if not why[0]:
            loc = gen.function(d.validator).loc
            what = "opcode gate" if d.backend == "dispatch" else f"{d.backend} translation"
            why = (f"{loc.file}:{loc.line}", f"its {what} disagreed with the C on word {d.word}")
        routes[d.validator] = (why, tuple(sorted({*ops, *d.opcodes})))
    return to_the_c_path(tr, routes)


# -- running the back ends ------------------------------------------------------------------------

CRun = Callable[[str, Any], Any]  # (validator, words) -> the C's verdicts
# (the scalar translation's names with the search scores, the batch translation's names): the
# namespaces of the staged `scores` and `batch` modules
Namespaces = tuple[dict[str, Any], dict[str, Any]]


class _LoadFailed(Exception):
    """The staged translation did not import (its cause is the error)."""


class _Prover:
    def __init__(
        self,
        gen: Generation,
        tr: TranslatedGen,
        c_run: CRun,
        earlier: dict[str, Any],
        load: Callable[[], Namespaces] | None,
        own: dict[str, str] | None = None,
        store: dict[str, Any] | None = None,
    ) -> None:
        """A proof of `gen`'s translations `tr` against its C (`c_run`), seeded with the words
        `earlier` generations' C accepted; `load` imports the staged modules. `own` gives each
        validator's own key (what its proof depends on) and `store` an earlier run's results by
        those keys: a validator whose key and handed-on words match is not proven again. Without
        them (a proof outside `prove`, as the score tests make) every validator is proven."""
        import numpy

        own = {} if own is None else own
        store = {} if store is None else store

        self.gen, self.tr, self.c_run = gen, tr, c_run
        self.earlier = earlier  # validator -> words its C accepted in an earlier generation
        self.np = numpy
        self.load = load
        self.scalar: dict[str, Any] = {}
        self.batch: dict[str, Any] = {}
        self.accepted: list[Any] = []  # words some validator's C accepted, to try on the next
        self.memo: dict[Any, Any] = {}  # encoded edge values, by the numbers they straddle
        self.own = own  # validator -> its own key (what its proof depends on)
        stored = store.get("validators")
        self.stored = stored if isinstance(stored, dict) else {}  # an earlier run's results
        self.stored_dispatch = store.get("dispatch")
        self.kept: dict[str, Any] = {}  # this run's results, by own key, for the next run
        self.kept_dispatch: Any = None
        self.proven: list[str] = []  # validators whose corpus and back ends ran this time
        # the corpus being built: which handed-on words it has read (`_cross`), its own first
        # two boundary words and the opcodes drawn for `other`, and the fingerprint
        self.level = ""
        self.pool2: Any = None
        self.drawn: Any = None
        self.cross: str | None = None
        self.state = ""
        self.untranslated_error: Any = None  # the staged package's UntranslatedPredicate
        self.run_batch: Any = None

    def _loaded(self) -> None:
        """Import the staged translation (once, when a validator is proven again)."""
        if self.scalar:
            return
        try:
            if self.load is None:
                raise RuntimeError("no staged translation to run")
            self.scalar, self.batch = self.load()
            # the staged package's own class: the one its translations raise
            self.untranslated_error = self.scalar["UntranslatedPredicate"]
            self.run_batch = self.batch["vector"].run_batch
        except Exception as exc:
            raise _LoadFailed() from exc

    def run(self, cc: str) -> Proof:
        """Hold every top-level validator's scalar and batch translations to the C on its
        corpus (at least MIN_PER_VALIDATOR words each, MIN_WORDS in all), then the dispatch on
        every word of every corpus; compiles the C with `cc` unless it was compiled ahead."""
        from . import corpus

        np = self.np
        tops = self.tr.top
        per = max(MIN_PER_VALIDATOR, math.ceil(MIN_WORDS / len(tops)))
        found: list[Disagreement] = []
        every: list[Any] = []
        unaccepted: list[str] = []
        untranslated = {u.name for u in self.tr.untranslated}
        for t in tops:
            hit = self._stored(t.name, t.opcodes, per)
            if hit is not None:
                words, none, mine, seeds = hit
                self.accepted.append(seeds)
                if seeds.shape[0]:
                    self.earlier[t.name] = seeds
            else:
                self._loaded()
                self.proven.append(t.name)
                rng = np.random.default_rng(zlib.crc32(f"{self.gen.name} {t.name}".encode()))
                self.level = "count"
                words = self._corpus(corpus, t.name, t.opcodes, rng, per)
                want = self.c_run(t.name, words)
                none = not want.any()
                mine = []
                if t.name not in untranslated:
                    mine = self._scalar(t.name, words, want) + self._batch(t.name, words, want)
                self._keep(t.name, per, words, none, mine)
            every.append(words)
            if none:
                unaccepted.append(t.name)
            found += mine
        W = np.concatenate(every)
        found += self._dispatch_once(W)
        return Proof(
            True,
            compiler=cc,
            words=int(W.shape[0]),
            validators=len(tops),
            disagreements=tuple(found),
            unaccepted=tuple(unaccepted),
            untranslated=tuple(t.name for t in tops if t.name in untranslated),
            proven=tuple(self.proven),
        )

    # -- the per-validator store: a validator's corpus, verdicts and seeds, reused when its own
    # key and the handed-on words its corpus read are those of the run that stored them

    def _cross(
        self, name: str, opcodes: tuple[int, ...], level: str, pool2: Any, drawn: Any
    ) -> str | None:
        """A fingerprint of what validator `name`'s corpus takes from the words other
        validators' C accepted (this generation's so far, and the earlier generations'), as far
        as it reads them (`level`): `count`, how many words `other` holds (its opcodes are drawn
        from the validator's own random stream, so the count shapes the rest); `other`, the
        seeds found among those words (when no boundary word is accepted); `all`, also the
        words `_handed_on` finds; `climb`, also the words of `other` themselves (a climb starts
        from one). `pool2` and `drawn` are the validator's own first two boundary words and the
        opcodes drawn for `other`; None when they do not fit."""
        np = self.np
        earlier = [self.earlier[name]] if name in self.earlier else []
        other = np.concatenate([pool2, *self.accepted, *earlier])[-SEEDS:]
        if drawn is not None:
            if drawn.shape[0] != other.shape[0]:
                return None
            other[:, 0] = drawn
        parts = [f"{other.shape[0]}".encode()]
        if level in ("other", "all", "climb"):
            parts.append(other[self.c_run(name, other)][:SEEDS].tobytes())
        if level in ("all", "climb"):
            parts.append(self._handed_on(name, opcodes).tobytes())
        if level == "climb":
            parts.append(other.tobytes())
        h = hashlib.sha256()
        for part in parts:
            h.update(hashlib.sha256(part).digest())
        return h.hexdigest()

    def _dispatch_once(self, W: Any) -> list[Disagreement]:
        """The dispatch's disagreements on `W`, from the store when every validator's own key
        and every word are those of the run that stored them."""
        keys = [self.own.get(t.name) for t in self.tr.top]
        if any(k is None for k in keys):
            return self._dispatch(W)
        h = hashlib.sha256(
            "\n".join(f"{t.name} {k}" for t, k in zip(self.tr.top, keys, strict=True)).encode()
        )
        h.update(W.tobytes())
        key = h.hexdigest()
        doc = self.stored_dispatch
        if isinstance(doc, dict) and doc.get("key") == key:
            got = _disagreements(doc.get("found"))
            if got is not None:
                self.kept_dispatch = doc
                return list(got)
        found = self._dispatch(W)
        self.kept_dispatch = {
            "key": key,
            "found": _payload(Proof(True, disagreements=tuple(found)))["disagreements"],
        }
        return found

    def _state(self, name: str, pool2: Any, drawn: Any) -> str:
        """A hash of everything `_cross` reads besides the C: equal states, equal fingerprints
        (so a stored validator whose state is unchanged needs no C to be reused)."""
        h = hashlib.sha256()
        for part in (pool2, b"" if drawn is None else drawn, *self.accepted):
            data = part if isinstance(part, bytes) else part.tobytes()
            h.update(f"{len(data)}\n".encode() + data)
        for n, w in self.earlier.items():
            h.update(f"{n} {w.nbytes}\n".encode() + w.tobytes())
        h.update(f"drawn {drawn is not None} for {name}".encode())
        return h.hexdigest()

    def _keep(
        self,
        name: str,
        per: int,
        words: Any,
        none: bool,
        mine: list[Disagreement],
    ) -> None:
        """Store validator `name`'s freshly proven results under its own key."""
        key = self.own.get(name)
        if key is None:
            return
        self.kept[key] = {
            "level": self.level,
            "cross": self.cross,
            "state": self.state,
            "pool2": bytes(self.pool2.tobytes()).hex(),
            "drawn": None if self.drawn is None else bytes(self.drawn.tobytes()).hex(),
            "per": per,
            "words": base64.b64encode(zlib.compress(words.tobytes(), 6)).decode(),
            "seeds": bytes(self.accepted[-1].tobytes()).hex(),
            "unaccepted": none,
            "disagreements": _payload(Proof(True, disagreements=tuple(mine)))["disagreements"],
        }

    def _stored(
        self, name: str, opcodes: tuple[int, ...], per: int
    ) -> tuple[Any, bool, list[Disagreement], Any] | None:
        """An earlier run's (corpus, no word accepted, disagreements, seeds) for validator
        `name`, if its own key and the handed-on words it read match; checked field by field."""
        key = self.own.get(name)
        entry = self.stored.get(key) if key is not None else None
        if key is None or not isinstance(entry, dict):
            return None
        try:
            level, none, drawn = entry["level"], entry["unaccepted"], entry["drawn"]
            pool2 = bytes.fromhex(entry["pool2"])
            if level not in ("count", "other", "all", "climb") or entry["per"] != per:
                return None
            if not isinstance(entry["cross"], str) or len(pool2) % 64:
                return None
            if not (drawn is None or isinstance(drawn, str)):
                return None
            np = self.np
            pool2_words = np.frombuffer(pool2, dtype=np.uint8).reshape(-1, 64)
            ops = None if drawn is None else np.frombuffer(bytes.fromhex(drawn), dtype=np.uint8)
            same = entry.get("state") == self._state(name, pool2_words, ops)
            if not same and self._cross(name, opcodes, level, pool2_words, ops) != entry["cross"]:
                return None
            raw = zlib.decompress(base64.b64decode(entry["words"], validate=True))
            seeds = bytes.fromhex(entry["seeds"])
            if len(raw) % 64 or len(seeds) % 64 or not isinstance(none, bool):
                return None
            mine = _disagreements(entry["disagreements"])
        except (KeyError, TypeError, ValueError, zlib.error):
            return None
        if mine is None or any(d.validator != name for d in mine):
            return None
        self.kept[key] = entry
        words = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 64).copy()
        found = np.frombuffer(seeds, dtype=np.uint8).reshape(-1, 64).copy()
        return words, none, list(mine), found

    def _corpus(
        self, corpus: Any, name: str, opcodes: tuple[int, ...], rng: Any, count: int
    ) -> Any:
        """`count` words for one validator: random (1/8), term-aimed (1/2: one field of an
        accepted word moved to each edge value), boundary (the rest), and the all-zero and
        all-ones words under each opcode of its gate."""
        from .seeds import climb, spread

        np = self.np
        numbers = corpus.constants(self._reachable(name))
        memo = self.memo.setdefault(repr(numbers), {})
        found = corpus.targets(self.tr.lowered, name, numbers, memo)
        rand = corpus.random_words(opcodes, rng, count // 8)
        pool = corpus.boundary_words(opcodes, found, rng, count)
        seeds = pool[self.c_run(name, pool)][:SEEDS]
        # words another validator accepts, under this one's opcodes (they often share terms)
        earlier = [self.earlier[name]] if name in self.earlier else []
        other = np.concatenate([pool[:2], *self.accepted, *earlier])[-SEEDS:]
        if opcodes:
            other[:, 0] = rng.choice(np.array(opcodes, dtype=np.uint8), size=other.shape[0])
        self.pool2, self.drawn = pool[:2].copy(), other[:, 0].copy() if opcodes else None
        if not seeds.shape[0]:
            self.level = "other"
            seeds = other[self.c_run(name, other)][:SEEDS]
        if not seeds.shape[0]:
            self.level = "all"
            seeds = self._handed_on(name, opcodes)
        for attempt in range(CLIMBS if f"_s_{name}" in self.scalar else 0):
            if seeds.shape[0]:
                break
            self.level = "climb"
            # climb from the all-zero word, then from a word another validator accepts (or a
            # boundary word), then from a boundary word
            starts = np.zeros((1, corpus.WORD), dtype=np.uint8)
            if attempt:
                starts[0] = other[-1] if attempt == 1 else pool[attempt]
            if opcodes:
                starts[:, 0] = opcodes[attempt % len(opcodes)]
            score = self.scalar[f"_s_{name}"]
            pieces = self.scalar[PIECES].get(score)
            accepts = lambda w: self.c_run(name, w)  # noqa: E731
            seeds = climb(score, accepts, starts, found, rng, pieces=pieces)[:SEEDS]
        seeds = spread(
            self.scalar, name, seeds, lambda w: self.c_run(name, w), found, rng, opcodes, SEEDS
        )
        self.cross = self._cross(name, opcodes, self.level, self.pool2, self.drawn)
        self.state = self._state(name, self.pool2, self.drawn)
        self.accepted.append(seeds)
        if seeds.shape[0]:
            self.earlier[name] = seeds
        aimed = corpus.term_words(seeds, found, rng, count // 4)
        more = aimed[self.c_run(name, aimed)] if aimed.shape[0] else aimed
        if more.shape[0]:  # accepted words one field away from the first: seeds of a second round
            more = more[rng.permutation(more.shape[0])[:SEEDS]]
        aimed = np.concatenate([seeds, aimed, corpus.term_words(more, found, rng, count // 4)])
        special = np.zeros((2 * max(len(opcodes), 1), corpus.WORD), dtype=np.uint8)
        special[1::2] = 0xFF
        for k, op in enumerate(opcodes):
            special[2 * k : 2 * k + 2, 0] = op
        edge = pool[: max(count - rand.shape[0] - aimed.shape[0], 0)]
        return np.ascontiguousarray(np.concatenate([special, aimed, edge, rand]))

    def _handed_on(self, name: str, opcodes: tuple[int, ...]) -> Any:
        """Words any validator's C accepted (this generation's, and the earlier generations'),
        each under every opcode of this validator's gate: those this validator's C accepts."""
        np = self.np
        known = [*self.accepted, *self.earlier.values()]
        words = np.concatenate([np.zeros((0, 64), dtype=np.uint8), *known])
        if not words.shape[0]:
            return words
        words = np.unique(words, axis=0)
        if opcodes:
            ops = np.array(opcodes, dtype=np.uint8)
            words = np.repeat(words, len(ops), axis=0)
            words[:, 0] = np.tile(ops, words.shape[0] // len(ops))
        return words[self.c_run(name, words)][:SEEDS]

    def _reachable(self, *names: str) -> tuple[Any, ...]:
        """The lowered functions `names` can call (themselves included)."""
        by_name = {f.name: f for f in self.tr.lowered}
        seen: dict[str, Any] = {}
        todo = list(names)
        while todo:
            n = todo.pop()
            if n in seen or n not in by_name:
                continue
            seen[n] = by_name[n]
            todo += by_name[n].calls
        return tuple(seen.values())

    def _scalar(self, name: str, words: Any, want: Any) -> list[Disagreement]:
        fn = self.scalar[f"_{name}"]
        data = words.tobytes()
        said = want.tolist()  # Python bools: indexing the array each word costs as much as a call
        for i, c_says in enumerate(said):
            try:
                got = bool(fn(data, 64 * i))
            except self.untranslated_error:
                continue  # an untranslated helper: the runtime raises rather than guess
            except Exception as exc:  # a crash at run time is a disagreement too
                return [
                    self._differs(
                        name,
                        "scalar",
                        words[i],
                        f"the C says {bool(want[i])}, the translation raises {_exc(exc)}",
                    )
                ]
            if got != c_says:
                return [
                    self._differs(
                        name,
                        "scalar",
                        words[i],
                        f"the C says {bool(want[i])}, the translation {got}",
                    )
                ]
        return []

    def _batch(self, name: str, words: Any, want: Any) -> list[Disagreement]:
        """The disagreements of validator `name`'s numpy translation with the C's verdicts
        `want` on `words`: the first differing word, or, when the batch raises, the word of the
        shortest prefix that raises (UntranslatedPredicate is the runtime's documented answer,
        not a disagreement)."""
        fn = self.batch[f"_v_{name}"]

        def verdicts(n: int) -> Any:
            return self.run_batch(fn, words[:n])

        try:
            got = verdicts(words.shape[0])
        except self.untranslated_error:
            return []  # it reaches a helper the batch back end does not run (the runtime raises)
        except Exception as exc:
            lo, hi = 0, words.shape[0]  # the shortest prefix that raises: its last word
            while hi - lo > 1:
                mid = (lo + hi) // 2
                try:
                    verdicts(mid)
                    lo = mid
                except Exception:
                    hi = mid
            return [
                self._differs(
                    name,
                    "batch",
                    words[hi - 1],
                    f"the C says {bool(want[hi - 1])}, the translation raises {_exc(exc)}",
                )
            ]
        bad = self.np.flatnonzero(got != want)
        if not bad.size:
            return []
        i = int(bad[0])
        return [
            self._differs(
                name,
                "batch",
                words[i],
                f"the C says {bool(want[i])}, the translation {bool(got[i])}",
            )
        ]

    def _dispatch(self, W: Any) -> list[Disagreement]:
        """validate() is "some top-level C validator accepts": the gates must not leave out an
        opcode on which a validator's C accepts a word."""
        np = self.np
        out: list[Disagreement] = []
        for t in self.tr.top:
            accepted = self.c_run(t.name, W)
            outside = accepted & ~np.isin(W[:, 0], np.array(t.opcodes, dtype=np.uint8))
            rows = np.flatnonzero(outside)
            if rows.size:
                ops = tuple(sorted({int(x) for x in W[rows, 0]}))
                shown = ", ".join(f"{op:#04x}" for op in ops)
                detail = (
                    f"the C accepts it, but validate() does not run {t.name} on opcode(s) {shown}"
                )
                out.append(Disagreement(t.name, "dispatch", bytes(W[rows[0]]).hex(), detail, ops))
        return out

    def _differs(self, name: str, backend: str, word: Any, detail: str) -> Disagreement:
        return Disagreement(name, backend, bytes(word).hex(), detail)


def _exc(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {str(exc)[:200]}"


# -- the cache ------------------------------------------------------------------------------------


def _key(
    gen: Generation, tr: TranslatedGen, cc: str, ident: str, accepted: dict[str, Any], code: str
) -> str:
    """Everything the proof's answer depends on: the inputs, the translation, the compiler and
    the flags that fix the C's meaning, the accepted words it starts from, tpbgen's code."""
    h = hashlib.sha256(
        f"predicate-proof {PROOF_VERSION} tpbgen {__version__} code {code}\n".encode()
    )
    h.update(f"{gen.inputs_sha256}\n{cc}\n{ident}\n".encode())
    h.update(f"flags {' '.join(MEANING_ARGS)} poisoned {' '.join(BUILD_DEPENDENT)}\n".encode())
    h.update(repr(sorted(_hex(accepted).items())).encode())
    for f in tr.functions:
        h.update(f.code.encode())
    for code in tr.batch_functions:
        h.update(code.encode())
    h.update(repr((tr.consts, tr.member_sets, tr.top, tr.untranslated, tr.batch_stubs)).encode())
    return h.hexdigest()


def _disagreements(doc: Any) -> tuple[Disagreement, ...] | None:
    """Disagreements as `_payload` writes them, checked; None when they are not."""
    base = {"words": 0, "validators": 0, "unaccepted": [], "untranslated": [], "build_uses": []}
    proof = _from_payload({**base, "disagreements": doc, "accepted": {}}, "")
    return None if proof is None else proof.disagreements


def _store_key(gen: Generation, cc: str, ident: str) -> str:
    """The key of a generation's per-validator store (one entry a generation, replaced by each
    run; each validator's own key is inside it)."""
    text = f"predicate-proof store {PROOF_VERSION} tpbgen {__version__}\n{gen.name}\n{cc}\n{ident}"
    return hashlib.sha256(text.encode()).hexdigest()


def _payload(proof: Proof) -> dict[str, Any]:
    return {
        "words": proof.words,
        "validators": proof.validators,
        "unaccepted": list(proof.unaccepted),
        "untranslated": list(proof.untranslated),
        "build_uses": [list(u) for u in proof.build_uses],
        "disagreements": [
            {
                "validator": d.validator,
                "backend": d.backend,
                "word": d.word,
                "detail": d.detail,
                "opcodes": list(d.opcodes),
            }
            for d in proof.disagreements
        ],
    }


def _from_payload(doc: Any, cc: str) -> Proof | None:
    """A cached proof, checked field by field; None (prove again) when it is not one."""
    if not isinstance(doc, dict) or not isinstance(doc.get("accepted"), dict):
        return None
    try:
        found = tuple(
            Disagreement(
                str(d["validator"]),
                str(d["backend"]),
                str(d["word"]),
                str(d["detail"]),
                tuple(int(x) for x in d["opcodes"]),
            )
            for d in doc["disagreements"]
        )
        words, validators = doc["words"], doc["validators"]
        unaccepted = tuple(str(n) for n in doc["unaccepted"])
        untranslated = tuple(str(n) for n in doc["untranslated"])
        uses = tuple((str(f), int(ln), int(col), str(n)) for f, ln, col, n in doc["build_uses"])
        if not (isinstance(words, int) and isinstance(validators, int)):
            return None
    except (KeyError, TypeError, ValueError):
        return None
    return Proof(True, "", cc, words, validators, found, unaccepted, untranslated, uses)


def _hex(accepted: dict[str, Any]) -> dict[str, list[str]]:
    return {n: [bytes(w).hex() for w in words] for n, words in accepted.items()}


def _accepted_from(doc: Any) -> dict[str, Any]:
    """The accepted words a cached proof found (checked; none when the entry has none)."""
    import numpy as np

    out: dict[str, Any] = {}
    try:
        for name, words in doc["accepted"].items():
            raw = b"".join(bytes.fromhex(w) for w in words)
            if len(raw) % 64 or not isinstance(name, str):
                return {}
            out[name] = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 64).copy()
    except (KeyError, TypeError, ValueError, AttributeError):
        return {}
    return out
