"""Constrained-random stimulus from the headers' own predicates: valid words, and near misses that
fail exactly one named rule.

The rules are the terms of each top-level validator's chain (`chains.Chain`: the operands of its
C `&&`, translated to batch functions). Words are found by sampling with repair: every field of
the opcode's struct (its `LAYOUT`, unions by every arm) draws from a pool made of its enum's
members, the integer constants the validator's predicates name (and their neighbours), small
numbers and random bits; a word that fails re-draws a field its first failing term depends on
(learnt by perturbation, then from every change seen), keeping the change unless fewer terms
hold. The valid words found seed the generation proper: fields re-drawn and fields swapped
between valid words, every result checked against the whole chain (so a word returned as valid
is one the translated validator accepts, the compiled C's verdict word for word).

The search depends on nothing but the generated code: its results (`stimcache.Found`: seeds,
valid variants, learnt values, dependencies, the terms that fail alone) are kept on disk by the
code's content, so a fresh process reads them instead of searching; a search that runs longer
than a second says so on standard error. What `random_words` returns depends on its seed and
those results only: the same words whether they were searched now or read. Numpy only.
"""

from __future__ import annotations

import contextlib
import functools
import struct as _struct
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .chains import Chain, Terms, evaluate
from .stimcache import Found, Store

Words = npt.NDArray[np.uint8]

_FLOATS = tuple(
    _struct.unpack("<I", _struct.pack("<f", x))[0]
    for x in (0.0, 1.0, -1.0, 0.5, 2.0, -2.5, 1e30, float("inf"), float("nan"))
)


@dataclass(frozen=True)
class Slot:
    """One scalar field of a word (an array element, a union arm's field): bytes
    [offset, offset+size), or bits [bit_offset, bit_offset+bit_width) of them."""

    name: str
    offset: int
    size: int
    bits: int
    bit_offset: int | None
    values: tuple[int, ...]  # the enum's members, () for a plain scalar
    is_float: bool


def slots_of(cls: Any, base: int = 0, prefix: str = "") -> list[Slot]:
    """Every scalar field of a generated struct class, recursively (all arms of a union)."""
    out: list[Slot] = []
    for f in cls.LAYOUT:
        name = prefix + f.name
        n = f.count
        es = f.size // n
        for k in range(n):
            off = base + f.offset + k * es
            sub = f"{name}[{k}]" if f.dims else name
            if f.kind == "struct":
                out += slots_of(f.cls, off, sub + ".")
            elif f.bit_width is not None:
                out.append(Slot(sub, off, f.size, f.bit_width, f.bit_offset or 0, (), False))
            else:
                values = tuple(int(m) for m in f.cls) if f.kind == "enum" and f.cls else ()
                out.append(Slot(sub, off, es, 8 * es, None, values, f.kind == "float"))
    seen: set[tuple[int, int, int | None, int]] = set()
    unique = []
    for s in out:
        key = (s.offset, s.size, s.bit_offset, s.bits)
        if key not in seen:
            seen.add(key)
            unique.append(s)
    return unique


def _simplest_first(words: Words) -> Words:
    """The distinct rows of `words`, fewest non-zero bytes first; read-only."""
    words = np.unique(words, axis=0)
    order = np.lexsort((np.arange(len(words)), np.count_nonzero(words, axis=1)))
    out = np.ascontiguousarray(words[order])
    out.flags.writeable = False
    return out


def slot_key(slot: Slot) -> int:
    """The key of a slot's learnt values (its place in the word)."""
    return slot.offset * 1000 + (slot.bit_offset or 0) * 10 + slot.size


#: How many drawn values of each field `Stimulus.valid` picks from (`Space.bank`).
BANK = 256
#: Seconds a search runs before it says so, and between two of its lines.
PROGRESS_EVERY = 1.0
#: How many valid variants the search keeps for each alternative (the pool words are drawn from).
ENRICHED = 4096


class _Progress:
    """A line on standard error every second once a search has run for one: what it searches,
    how far it is, where its results will be kept."""

    def __init__(self, generation: str, where: str) -> None:
        self.generation = generation
        self.where = where
        self.start = time.monotonic()
        self.last = self.start
        self.said = False
        self.step = ""

    def tick(self) -> None:
        now = time.monotonic()
        if now - self.last < PROGRESS_EVERY:
            return
        self.last = now
        first = "" if self.said else f" (once; {self.where})"
        self.said = True
        print(
            f"tpb_isa: {self.generation}: searching for valid words{first}: {self.step}, "
            f"{now - self.start:.0f} s",
            file=sys.stderr,
            flush=True,
        )

    def done(self) -> None:
        if self.said:
            print(
                f"tpb_isa: {self.generation}: search done in {time.monotonic() - self.start:.1f} s",
                file=sys.stderr,
                flush=True,
            )


class _Pools:
    """Value draws for the slots of one opcode's struct."""

    def __init__(self, slots: Sequence[Slot], constants: Sequence[int]) -> None:
        self.slots = slots
        self.constants = np.array(sorted({0, *constants}), dtype=np.uint64)
        self._fitting: dict[int, Any] = {}
        self.learnt: dict[int, Any] = {}

    def draw(self, slot: Slot, m: int, rng: np.random.Generator, wild: bool = False) -> Any:
        """`m` values for `slot`: enum members, the predicates' constants and their neighbours,
        small numbers, a constant with random low bits, random bits (`wild`: more of those)."""
        mask = (1 << slot.bits) - 1
        kinds = rng.integers(0, 11, size=m)
        fit = self._fitting.get(slot.bits)
        if fit is None:
            fit = self._fitting[slot.bits] = self.constants[self.constants <= np.uint64(mask)]
        c = fit[rng.integers(0, fit.size, size=m)]
        v = np.where(kinds == 10, np.uint64(0), c)
        if slot.values:
            members = np.array(slot.values, dtype=np.uint64)
            pick = members[rng.integers(0, members.size, size=m)]
            v = np.where(kinds < (3 if wild else 6), pick, v)
        near = (c + rng.integers(-2, 3, size=m).astype(np.uint64)) & np.uint64(mask)
        v = np.where(kinds == 6, near, v)
        v = np.where(kinds == 7, rng.integers(0, 17, size=m).astype(np.uint64), v)
        low = rng.integers(1, max(2, slot.bits - 4), size=m).astype(np.uint64)
        lowbits = rng.integers(0, 1 << 62, size=m, dtype=np.uint64) & (
            (np.uint64(1) << low) - np.uint64(1)
        )
        v = np.where(kinds == 8, c | lowbits, v)
        rand = rng.integers(0, 1 << 62, size=m, dtype=np.uint64) & np.uint64(mask)
        v = np.where(kinds == 9, rand, v)
        if slot.is_float:
            fl = np.array(_FLOATS, dtype=np.uint64)[rng.integers(0, len(_FLOATS), size=m)]
            v = np.where(kinds < 3, fl, v)
        if wild:
            v = np.where(rng.random(m) < 0.3, rand, v)
        learnt = self.learnt.get(slot_key(slot))
        if learnt is not None and not wild:
            pick = learnt[rng.integers(0, learnt.size, size=m)]
            v = np.where(rng.random(m) < 0.5, pick, v)
        return v & np.uint64(mask)

    def learn(self, slot: Slot, values: Any) -> None:
        """Values of `slot` that made a term hold: later draws favour them."""
        key = slot_key(slot)
        old = self.learnt.get(key)
        vals = np.unique(np.asarray(values, dtype=np.uint64))
        both = vals if old is None else np.union1d(old, vals)
        self.learnt[key] = both[:256] if both.size > 256 else both

    @staticmethod
    def read(W: Words, rows: Any, slot: Slot) -> Any:
        """The values of `slot` in the rows `rows` of `W`."""
        v = np.zeros(W[rows, 0].shape, dtype=np.uint64)
        for k in range(slot.size):
            v |= W[rows, slot.offset + k].astype(np.uint64) << np.uint64(8 * k)
        if slot.bit_offset is not None:
            v = (v >> np.uint64(slot.bit_offset)) & np.uint64((1 << slot.bits) - 1)
        return v

    @staticmethod
    def put(W: Words, rows: Any, slot: Slot, values: Any) -> None:
        """Write `values` into `slot` of the rows `rows` of `W`."""
        vals = np.asarray(values, dtype=np.uint64)
        if slot.bit_offset is None:
            for k in range(slot.size):
                W[rows, slot.offset + k] = ((vals >> np.uint64(8 * k)) & np.uint64(0xFF)).astype(
                    np.uint8
                )
            return
        old = np.zeros(W[rows, 0].shape, dtype=np.uint64)
        for k in range(slot.size):
            old |= W[rows, slot.offset + k].astype(np.uint64) << np.uint64(8 * k)
        field = np.uint64(((1 << slot.bits) - 1) << slot.bit_offset)
        new = (old & ~field) | ((vals << np.uint64(slot.bit_offset)) & field)
        for k in range(slot.size):
            W[rows, slot.offset + k] = ((new >> np.uint64(8 * k)) & np.uint64(0xFF)).astype(
                np.uint8
            )


@dataclass
class Space:
    """What the search knows of one top-level alternative of one opcode's validator: the chain
    (the alternative's terms), the slots and pools, and, over the terms and then the sub-terms
    of its split terms (`universal`), which slots each has been seen to depend on and which
    seem never to hold on this opcode (`dead`: false on every word tried, whatever one field
    changed)."""

    opcode: int
    alt: int  # index of the alternative in the validator's chain
    full: Chain  # the validator's chain (every alternative)
    chain: Chain  # this alternative
    index: tuple[int, ...]  # chain term -> its index in `full`
    slots: list[Slot]
    pools: _Pools
    universal: Terms
    split: dict[int, list[list[int]]]  # chain term -> its disjuncts as universal indices
    deps: list[set[int]]
    dead: set[int]
    _bytes: npt.NDArray[np.bool_] | None = None
    _banks: dict[bool, tuple[Words, Words]] = field(default_factory=dict)

    def sequence(self, rng: np.random.Generator | None) -> list[int]:
        """The universal terms one repair pass satisfies in turn: the chain's, each split term
        replaced by the sub-terms of one of its disjuncts or left whole (picked at random, a
        disjunct seen `dead` rarely); every term whole for `rng` None."""
        out: list[int] = []
        for j in range(len(self.chain.terms)):
            ds = self.split.get(j, []) if rng is not None else []
            if not ds or rng is None:
                out.append(j)
                continue
            live = [d for d in ds if not self.dead & set(d)] or ds
            pick = [*live, [j]] if rng.random() < 0.9 else [*ds, [j]]
            out += pick[int(rng.integers(0, len(pick)))]
        return out

    def matrix(self, W: Words, seq: Sequence[int]) -> npt.NDArray[np.bool_]:
        return evaluate(tuple(self.universal[u] for u in seq), W)

    def bank(self, wild: bool = False) -> tuple[Words, Words]:
        """(slots, BANK, 64) words, each with one slot set to one of its enumerators or the
        predicates' constants or to a value `pools.draw` gives (made once, from a generator of
        its own; `wild`: the draws that break terms), and (slots, 64) the bits each slot lies
        in."""
        got = self._banks.get(wild)
        if got is None:
            rng = np.random.default_rng([self.opcode, self.alt, 0xBA4, int(wild)])
            bank = np.zeros((len(self.slots), BANK, 64), dtype=np.uint8)
            masks = np.zeros((len(self.slots), 64), dtype=np.uint8)
            every = np.arange(BANK)
            for k, s in enumerate(self.slots):
                values = self.pools.draw(s, BANK, rng, wild=wild)
                # every enumerator and every constant of the predicates that fits, then draws:
                # a rule that fails on one value only (`op != POW`) gets it
                fit = self.pools.constants[self.pools.constants <= np.uint64((1 << s.bits) - 1)]
                special = np.unique(np.concatenate([np.array(s.values, np.uint64), fit]))
                values[: min(special.size, BANK // 2)] = special[: BANK // 2]
                self.pools.put(bank[k], every, s, values)
                ones = np.array([(1 << s.bits) - 1], dtype=np.uint64)
                self.pools.put(masks[k : k + 1], slice(None), s, ones)
            got = self._banks[wild] = (bank, masks)
        return got

    def bytes_of_slots(self) -> npt.NDArray[np.bool_]:
        """(slots, 64): the bytes each slot lies in."""
        if self._bytes is None:
            self._bytes = np.zeros((len(self.slots), 64), dtype=np.bool_)
            for k, s in enumerate(self.slots):
                self._bytes[k, s.offset : s.offset + s.size] = True
        return self._bytes


def _reassign(
    need: npt.NDArray[np.int64],
    tried: npt.NDArray[np.float64],
    hits: npt.NDArray[np.float64],
    have: npt.NDArray[np.int64],
) -> bool:
    """Give the share of a rule broken alone too rarely to the others, evenly: of a pair no
    batch hits in 16384 tries, all of it; of one hit less than once in 256 tries (after 4096),
    all but one word until it has one (so every rule still shows). False when nothing is left
    that a batch could find."""
    hopeless = (tried >= 16384) & (hits == 0)
    rare = (tried >= 4096) & (hits * 256 < tried) & ~hopeless
    keep = np.where(rare & (have == 0), 1, 0)
    cut = np.where(hopeless | rare, np.maximum(need - keep, 0), 0)
    if not cut.any():
        return True
    others = np.flatnonzero(~hopeless & ~rare)
    if not others.size:
        return bool((need[~hopeless] > 0).any())  # the rare ones carry on alone
    spare = int(cut.sum())
    need -= cut
    need[others] += spare // others.size
    need[others[: spare % others.size]] += 1
    return True


class Stimulus:
    """`random_words` for one generation: `chains` by validator, `dispatch` the validator(s)
    each opcode byte runs, `opcode_struct` the struct each decodes to."""

    def __init__(
        self,
        generation: str,
        chains: Mapping[str, Chain],
        dispatch: Mapping[int, tuple[str, ...]],
        opcode_struct: Mapping[int, type[Any]],
        executor: Any = None,
    ) -> None:
        self.generation = generation
        self.executor = executor  # the generation's Executor class: random_words(executable=)
        self.chains = chains
        self.dispatch = dispatch
        self.opcode_struct = opcode_struct
        self._spaces: dict[tuple[int, int], Space] = {}
        self._unreached: dict[int, str] | None = None
        modules = {cls.__module__ for cls in opcode_struct.values()}
        package = modules.pop().rsplit(".", 1)[0] if len(modules) == 1 else ""
        self.store = Store(generation, package)
        self._progress: _Progress | None = None

    def opcodes(self) -> tuple[int, ...]:
        """The opcode bytes some validator runs on and a chain describes."""
        return tuple(
            op
            for op in sorted(self.dispatch)
            if len(self.dispatch[op]) == 1 and self.dispatch[op][0] in self.chains
        )

    def reached(self) -> tuple[int, ...]:
        """The opcodes of `opcodes()` the search found valid words for: what `random_words`
        without an opcode spreads over (`unreached()` names the others)."""
        return tuple(op for op in self.opcodes() if op not in self.unreached())

    def unreached(self) -> dict[int, str]:
        """Opcodes of `opcodes()` whose validator the search found no valid word for, with the
        validator's name. The search samples and repairs; it is not a solver, so a validator
        whose C does accept words could be here."""
        if self._unreached is None:
            missed: dict[int, str] = {}
            with self._searching():
                ops = self.opcodes()
                for k, op in enumerate(ops):
                    if self._progress is not None:
                        self._progress.step = f"opcode {op:#04x} ({k + 1} of {len(ops)})"
                    try:
                        self.seeds(op)
                    except ValueError:
                        missed[op] = self.dispatch[op][0]
            self._unreached = missed
        return self._unreached

    @contextlib.contextmanager
    def _searching(self) -> Iterator[None]:
        """One progress report over the searches made inside (nested: the outermost's)."""
        if self._progress is not None:
            yield
            return
        d = self.store.directory
        where = f"results kept in {d}" if d is not None else "results not kept"
        self._progress = _Progress(self.generation, where)
        try:
            yield
        finally:
            self._progress.done()
            self._progress = None

    def _tick(self) -> None:
        if self._progress is not None:
            self._progress.tick()

    def chain(self, opcode: int) -> Chain:
        """The chain of the validator `opcode` runs (every alternative); ValueError naming the
        opcode when it has none."""
        names = self.dispatch.get(opcode, ())
        if len(names) != 1 or names[0] not in self.chains or opcode not in self.opcode_struct:
            raise ValueError(
                f"{self.generation}: opcode {opcode:#04x} has no valid word (no translated "
                "top-level validator accepts it)"
            )
        return self.chains[names[0]]

    def accepts(self, words: Words) -> npt.NDArray[np.bool_]:
        """(N,): whether the validator each word's opcode runs accepts it, by its chain (False
        for an opcode without one)."""
        W = np.asarray(words, dtype=np.uint8).reshape(-1, 64)
        out = np.zeros(len(W), dtype=np.bool_)
        for op in np.unique(W[:, 0]):
            rows = np.flatnonzero(W[:, 0] == op)
            try:
                chain = self.chain(int(op))
            except ValueError:
                continue
            out[rows] = chain.accepts(np.ascontiguousarray(W[rows]))
        return out

    def alternatives(self, opcode: int) -> tuple[int, ...]:
        """The top-level alternatives (indices into the chain's `alternatives`, 0 for a
        validator with one) the search found valid words of `opcode` for."""
        return tuple(a for a, s in enumerate(self._alt_seeds_all(opcode)) if len(s))

    def space(self, opcode: int, alt: int | None = None) -> Space:
        """The search space of alternative `alt` of `opcode`'s validator (None: the first the
        search reached, or the first)."""
        if alt is None:
            reached = self.alternatives(opcode) if self._searchable(opcode) else ()
            alt = reached[0] if reached else 0
        space = self._spaces.get((opcode, alt))
        if space is None:
            space = self._new_space(opcode, alt)
            if self._searchable(opcode):
                found = self._found(opcode)[alt]
                space.pools.learnt = {k: v.copy() for k, v in found.learnt.items()}
                space.deps = [set(d) for d in found.deps]
                space.dead = set(found.dead)
            self._spaces[(opcode, alt)] = space
        return space

    def _searchable(self, opcode: int) -> bool:
        try:
            self.chain(opcode)
        except ValueError:
            return False
        return True

    def _new_space(self, opcode: int, alt: int) -> Space:
        full = self.chain(opcode)
        chains = full.alternative_chains()
        chain = chains[alt]
        index = full.alternatives[alt][1] if len(chains) > 1 else tuple(range(len(full.terms)))
        slots = [s for s in slots_of(self.opcode_struct[opcode]) if s.offset > 0]
        universal = list(chain.terms)
        split: dict[int, list[list[int]]] = {}
        for j, disjuncts in chain.splits:
            split[j] = []
            for d in disjuncts:
                split[j].append(list(range(len(universal), len(universal) + len(d))))
                universal += d
        return Space(
            opcode,
            alt,
            full,
            chain,
            tuple(index),
            slots,
            _Pools(slots, chain.constants),
            tuple(universal),
            split,
            [],
            set(),
        )

    # -- valid words ----------------------------------------------------------------------
    def seeds(self, opcode: int) -> Words:
        """Distinct valid words of `opcode` found by sampling with repair (the seeds the
        generation mutates), of every alternative the search reached, simplest first (fewest
        non-zero bytes); ValueError naming the opcode when none is found."""
        found = [s for s in self._alt_seeds_all(opcode) if len(s)]
        if not found:
            raise ValueError(
                f"{self.generation}: no valid word found for opcode {opcode:#04x} "
                f"({self.chain(opcode).validator})"
            )
        return _simplest_first(np.vstack(found))

    def _alt_seeds_all(self, opcode: int) -> tuple[Words, ...]:
        return tuple(f.seeds for f in self._found(opcode))

    @functools.lru_cache(maxsize=256)  # noqa: B019 - one Stimulus per generation, kept for the process
    def _found(self, opcode: int) -> tuple[Found, ...]:
        """What the search finds for each alternative of `opcode`'s validator: read from the
        store, or searched now (on scratch spaces, nothing else changing them) and stored."""
        alts = len(self.chain(opcode).alternative_chains())
        slots = len(self._new_space(opcode, 0).slots)
        kept = self.store.load(opcode, alts, slots)
        if kept is not None:
            return kept
        with self._searching():
            assert self._progress is not None
            outer = self._progress.step
            found = []
            for a in range(alts):
                label = outer or f"opcode {opcode:#04x}"
                self._progress.step = label + (
                    f", alternative {a + 1} of {alts}" if alts > 1 else ""
                )
                found.append(self._search(opcode, a))
            self._progress.step = outer
        self.store.save(opcode, found)
        return tuple(found)

    def _search(self, opcode: int, alt: int) -> Found:
        """The whole search of one alternative: seeds, their valid variants, the calibration of
        the terms near misses fail."""
        space = self._new_space(opcode, alt)
        seeds = self._alt_seeds(space)
        enriched = seeds
        alone: tuple[int, ...] = ()
        anyhow: tuple[int, ...] = ()
        if len(seeds):
            enriched = self._search_enriched(space, seeds)
            alone, anyhow = self._search_calibrate(space, seeds)
        return Found(
            seeds,
            enriched,
            {k: v.copy() for k, v in space.pools.learnt.items()},
            tuple(frozenset(d) for d in space.deps),
            frozenset(space.dead),
            alone,
            anyhow,
        )

    def _alt_seeds(self, space: Space) -> Words:
        """The seeds of one alternative ((0, 64) when the search finds none)."""
        opcode, alt = space.opcode, space.alt
        rng = np.random.default_rng([opcode, 0x5EED] + ([alt] if alt else []))
        W = self._initial(space, 384, rng)
        if not space.deps:
            space.deps, space.dead = self._sensitivity(space, W[:256].copy(), rng)
        found: list[Words] = []
        # with split terms: half the rows repaired along the chain's own terms, half along a
        # sequence drawn afresh each sweep (a disjunct, or the whole term, for each split term)
        halves = [slice(0, len(W) // 2), slice(len(W) // 2, len(W))]
        parts = halves if space.split else [slice(0, len(W))]
        for sweep in range(12):
            self._tick()
            for g, rows in enumerate(parts):
                part = W[rows]  # a view: repaired in place
                seq = space.sequence(rng if g else None)
                held = np.ones(len(part), dtype=np.bool_)
                for j in range(len(seq)):
                    held = self._satisfy(space, part, seq, j, held, rng)
                    if not held.any():
                        break  # no word holds seq[:j+1]: nothing further to repair
            ok = space.chain.matrix(W).all(axis=0)
            found.append(W[ok].copy())
            if sum(len(f) for f in found) >= 128:
                break
            if sweep >= 5 and sum(len(f) for f in found) >= 16:
                break
            W[ok] = self._initial(space, int(ok.sum()), rng)
        words = np.vstack(found)
        if not len(words):
            words.flags.writeable = False
        return _simplest_first(words) if len(words) else words

    def _initial(self, space: Space, m: int, rng: np.random.Generator) -> Words:
        W = np.zeros((m, 64), dtype=np.uint8)
        W[:, 0] = space.opcode
        for s in space.slots:
            rows = np.flatnonzero(rng.random(m) < 0.5)
            if rows.size:
                space.pools.put(W, rows, s, space.pools.draw(s, rows.size, rng))
        return W

    def _sensitivity(
        self, space: Space, W: Words, rng: np.random.Generator
    ) -> tuple[list[set[int]], set[int]]:
        """For each universal term, the slots whose re-draw changed it on some of the words `W`
        or on the all-zero word of the opcode (where a rule like "reserved bytes are zero"
        holds); and the terms false on all those words and every re-draw."""
        Z = np.zeros_like(W[:32])
        Z[:, 0] = space.opcode
        both = np.vstack([W, Z])
        n = len(both)
        V = np.tile(both, (len(space.slots), 1))  # one copy of the words per slot, re-drawn there
        for k, s in enumerate(space.slots):
            rows = slice(k * n, (k + 1) * n)
            space.pools.put(V, rows, s, space.pools.draw(s, n, rng, wild=True))
        every = range(len(space.universal))
        base = space.matrix(both, every)
        moved = space.matrix(V, every)
        changed = moved != np.tile(base, (1, len(space.slots)))
        deps: list[set[int]] = [set() for _ in every]
        for j, k in zip(
            *np.nonzero(changed.reshape(len(deps), len(space.slots), n).any(axis=2)),
            strict=True,
        ):
            deps[int(j)].add(int(k))
        dead = {j for j in every if not deps[j] and not base[j].any() and not moved[j].any()}
        return deps, dead

    def _candidates(self, space: Space, u: int) -> list[int]:
        return sorted(space.deps[u]) if space.deps[u] else list(range(len(space.slots)))

    def _satisfy(
        self,
        space: Space,
        W: Words,
        seq: Sequence[int],
        j: int,
        held: npt.NDArray[np.bool_],
        rng: np.random.Generator,
    ) -> npt.NDArray[np.bool_]:
        """Make universal term `seq[j]` hold where `seq[:j]` hold (`held`) and it does not,
        re-drawing the slots it depends on (a few tries); a try stands only where `seq[:j+1]`
        all hold after it. The dependencies a try shows are learnt. Returns where `seq[:j+1]`
        hold afterwards."""
        now = space.matrix(W, seq[j : j + 1])[0]
        rows = np.flatnonzero(held & ~now)
        done: npt.NDArray[np.bool_] = np.logical_and(held, now)
        cand = np.array(self._candidates(space, seq[j]))
        tries = 12
        if not rows.size:
            return done
        idx = np.repeat(rows, tries)  # each failing word tried `tries` ways at once
        V = W[idx].copy()
        chosen = cand[rng.integers(0, cand.size, size=idx.size)]
        two = rng.random(idx.size) < 0.3
        chosen2 = cand[rng.integers(0, cand.size, size=idx.size)]
        for k in np.unique(np.concatenate([chosen, chosen2[two]])):
            r = np.flatnonzero((chosen == k) | (two & (chosen2 == k)))
            s = space.slots[int(k)]
            space.pools.put(V, r, s, space.pools.draw(s, r.size, rng))
        # or zero the slots the term depends on (all, or about half): the simplest values, and
        # what "reserved bytes are zero" needs at once
        zero = rng.random(idx.size)
        for k in cand:
            r = np.flatnonzero((zero < 0.15) | ((zero < 0.3) & (rng.random(idx.size) < 0.5)))
            if r.size:
                space.pools.put(V, r, space.slots[int(k)], np.zeros(r.size, dtype=np.uint64))
        good = space.matrix(V, seq[: j + 1]).all(axis=0)
        for k in np.unique(chosen[good]):
            s = space.slots[int(k)]
            space.pools.learn(s, space.pools.read(V, np.flatnonzero(good & (chosen == k)), s))
        g = good.reshape(rows.size, tries)
        hit = g.any(axis=1)
        first = np.argmax(g, axis=1)
        W[rows[hit]] = V[(np.arange(rows.size) * tries + first)[hit]]
        done[rows[hit]] = True
        return done

    def valid(self, n: int, opcode: int, seed: int = 0) -> Words:
        """`n` valid words of `opcode`, spread over the alternatives the search reached: their
        seeds with fields re-drawn and fields swapped between them, each kept only when the
        alternative's whole chain accepts it."""
        alts = self.alternatives(opcode) if self._searchable(opcode) else ()
        if not alts:
            self.seeds(opcode)  # the ValueError naming the opcode
        share = [n // len(alts) + (1 if k < n % len(alts) else 0) for k in range(len(alts))]
        parts = [self._valid(m, opcode, a, seed) for a, m in zip(alts, share, strict=True)]
        W = np.vstack(parts)
        if len(alts) > 1:
            W = W[np.random.default_rng([seed, opcode, 0xA17]).permutation(len(W))]
        return W

    def _valid(self, n: int, opcode: int, alt: int, seed: int) -> Words:
        space = self.space(opcode, alt)
        rng = np.random.default_rng([seed, opcode, 0xA11] + ([alt] if alt else []))
        out: list[Words] = []
        have = 0
        live = self._enriched(opcode, alt).copy()
        bank, masks = space.bank()
        S = len(space.slots)
        rate = 0.5  # the share of a batch the chain accepts, as last seen
        while have < n:
            m = int(max(256, min(8192, 1.25 * (n - have) / max(rate, 0.05))))
            B = live[rng.integers(0, len(live), size=m)].copy()
            other = live[rng.integers(0, len(live), size=m)]
            # a quarter of the fields from another valid word (all at once: a byte is swapped
            # when a field it belongs to is), then one field a word, and half the time a
            # second, set to one of its drawn values (`Space.bank`)
            swap = rng.random((m, S)) < 0.25
            B = np.where(np.matmul(swap, space.bytes_of_slots()), other, B)
            for rows in (np.arange(m), np.flatnonzero(rng.random(m) < 0.5)):
                k = rng.integers(0, S, size=rows.size)
                mask = masks[k]
                drawn = bank[k, rng.integers(0, bank.shape[1], size=rows.size)]
                B[rows] = (B[rows] & ~mask) | (drawn & mask)
            ok = space.chain.matrix(B).all(axis=0)
            rate = float(ok.mean())
            good = B[ok]
            out.append(good)
            have += len(good)
            if len(good):
                live = np.vstack([live, good])[-4096:]
        return np.vstack(out)[:n] if out else np.zeros((0, 64), dtype=np.uint8)

    def enriched(self, opcode: int) -> Words:
        """The seeds and, beside them, valid variants with zero fields made non-zero (a zero
        element count, a zero channel count are corners the repair's zeroing favours), of
        every alternative the search reached."""
        self.seeds(opcode)  # the ValueError naming the opcode
        return np.vstack([self._enriched(opcode, a) for a in self.alternatives(opcode)])

    def _enriched(self, opcode: int, alt: int) -> Words:
        return self._found(opcode)[alt].enriched

    def _search_enriched(self, space: Space, live: Words) -> Words:
        rng = np.random.default_rng([space.opcode, 0xE17] + ([space.alt] if space.alt else []))
        found = [live]
        # fields of one name in different places (the src and dst element counts, every index
        # of them) are set together, to small non-zero values: the rules that compare them
        # ("the same element count") then hold away from zero too
        families: dict[tuple[str, int], dict[str, list[Slot]]] = {}
        for s in space.slots:
            leaf = s.name.rsplit(".", 1)[-1]
            families.setdefault((leaf.split("[")[0], s.size), {}).setdefault(leaf, []).append(s)
        twins = [list(f.values()) for f in families.values() if any(len(g) > 1 for g in f.values())]
        moves: list[list[list[Slot]]] = twins + [[[s]] for s in space.slots]
        for _ in range(32):  # one move per word and round: local steps keep most words valid
            self._tick()
            B = live[rng.integers(0, len(live), size=2048)].copy()
            pick = rng.integers(0, len(moves), size=len(B))
            if twins:  # half the moves set a family of twins
                pair = rng.random(len(B)) < 0.5
                pick[pair] = rng.integers(0, len(twins), size=int(pair.sum()))
            for k in np.unique(pick):
                rows = np.flatnonzero(pick == k)
                for group in moves[int(k)]:
                    value = rng.integers(1, 9, size=rows.size).astype(np.uint64)
                    for s in group:
                        space.pools.put(B, rows, s, value)
            good = B[space.chain.matrix(B).all(axis=0)]
            if len(good):
                found.append(good)
                live = np.vstack([live, good])[-4096:]
        out = np.unique(np.vstack(found), axis=0)
        if len(out) > ENRICHED:  # a sample, in the order found (what the store keeps)
            out = out[np.sort(rng.choice(len(out), size=ENRICHED, replace=False))]
        out.flags.writeable = False
        return out

    # -- near misses ----------------------------------------------------------------------
    def near_misses(self, n: int, opcode: int, seed: int = 0) -> tuple[Words, tuple[str, ...]]:
        """`n` words of `opcode` that fail exactly one term of its validator's chain, spread
        over every term a re-drawn field was seen to make fail, and the term each fails."""
        return self._misses(n, opcode, seed, alone=True)

    def misses(self, n: int, opcode: int, seed: int = 0) -> tuple[Words, tuple[str, ...]]:
        """`n` words of `opcode`, each failing its named term (others may fail with it), spread
        over every term a re-drawn field makes fail: with the valid words, they reach both ways
        the terms that never fail alone (an enum check a stricter one repeats)."""
        return self._misses(n, opcode, seed, alone=False)

    def _misses(self, n: int, opcode: int, seed: int, alone: bool) -> tuple[Words, tuple[str, ...]]:
        """Equal shares of `n` over the (alternative, term) pairs the calibration found: words
        of the cached valid variants with a field the term depends on re-drawn, in batches
        sized by each pair's hit rate so far; a word that fails another pair's term (alone) is
        kept for that pair. A pair no batch hits gives its share to the others."""
        alts = self.alternatives(opcode)
        rng = np.random.default_rng([seed, opcode, 0xBAD if alone else 0xBAE])
        # the (alternative, term) pairs to fail: a word fails a term of one alternative (and,
        # for a validator with several, every other alternative fails too)
        pairs = [(a, j) for a in alts for j in (self._calibrate(opcode, a)[0 if alone else 1])]
        if not pairs:
            raise ValueError(
                f"{self.generation}: no near miss of opcode {opcode:#04x} fails one rule alone"
            )
        need = np.full(len(pairs), n // len(pairs), dtype=np.int64)
        need[: n % len(pairs)] += 1
        got: list[list[Words]] = [[] for _ in pairs]
        tried = np.zeros(len(pairs))
        hits = np.zeros(len(pairs))
        for _ in range(256):
            live = np.flatnonzero(need > 0)
            if not live.size:
                break
            rate = np.maximum(hits[live] + 1, 1) / (tried[live] + 4)
            tries = np.clip(np.ceil(need[live] / rate * 1.25), 16, 8192).astype(np.int64)
            for a in alts:
                mine = [
                    (int(k), int(t)) for k, t in zip(live, tries, strict=True) if pairs[k][0] == a
                ]
                if mine:
                    self._miss_round(opcode, a, pairs, mine, need, got, tried, hits, alone, rng)
            have = np.array([sum(len(w) for w in g) for g in got], dtype=np.int64)
            if not _reassign(need, tried, hits, have):
                break
        if need.sum():
            raise RuntimeError(
                f"{self.generation}: opcode {opcode:#04x}: {int(need.sum())} near misses not found"
            )
        return self._shuffled(opcode, pairs, got, rng)

    def _shuffled(
        self,
        opcode: int,
        pairs: Sequence[tuple[int, int]],
        got: list[list[Words]],
        rng: np.random.Generator,
    ) -> tuple[Words, tuple[str, ...]]:
        """The words found for each pair, and the rule each fails, in a random order."""
        names = self.chain(opcode).names
        words = [w for g in got for w in g]
        W = np.vstack(words) if words else np.zeros((0, 64), dtype=np.uint8)
        rules = [
            names[self.space(opcode, a).index[j]]
            for (a, j), g in zip(pairs, got, strict=True)
            for w in g
            for _ in range(len(w))
        ]
        perm = rng.permutation(len(W))
        return W[perm], tuple(rules[int(k)] for k in perm)

    def _miss_round(
        self,
        opcode: int,
        alt: int,
        pairs: Sequence[tuple[int, int]],
        mine: Sequence[tuple[int, int]],
        need: npt.NDArray[np.int64],
        got: list[list[Words]],
        tried: npt.NDArray[np.float64],
        hits: npt.NDArray[np.float64],
        alone: bool,
        rng: np.random.Generator,
    ) -> None:
        """One batch of attempts at the pairs `mine` ((pair, tries)) of alternative `alt`."""
        space = self.space(opcode, alt)
        full = space.full
        target = np.repeat([pairs[k][1] for k, _ in mine], [t for _, t in mine])
        base = self._enriched(opcode, alt)
        V = base[rng.integers(0, len(base), size=target.size)].copy()
        self._break_drawn(space, V, target, rng)
        if len(full.alternatives) > 1:
            Mf = full.matrix(V)
            M = Mf[list(space.index)]
            rejected = ~np.any([Mf[list(idx)].all(axis=0) for _, idx in full.alternatives], axis=0)
        else:
            M = space.chain.matrix(V)
            rejected = np.ones(target.size, dtype=np.bool_)
        fails = ~M
        if alone:
            ok = rejected & (fails.sum(axis=0) == 1)
            term = np.argmax(fails, axis=0)
        else:
            ok = rejected & fails[target, np.arange(target.size)]
            term = target
        start = 0
        for k, t in mine:
            seg = slice(start, start + t)
            tried[k] += t
            hits[k] += int((ok[seg] & (term[seg] == pairs[k][1])).sum())
            start += t
        for k, (a, j) in enumerate(pairs):
            if a != alt or need[k] <= 0:
                continue
            rows = np.flatnonzero(ok & (term == j))[: need[k]]
            if rows.size:
                got[k].append(V[rows])
                need[k] -= rows.size

    def _break(
        self, space: Space, V: Words, target: npt.NDArray[np.intp], rng: np.random.Generator
    ) -> None:
        chosen = np.empty(len(V), dtype=np.intp)
        for j in np.unique(target):
            rows = np.flatnonzero(target == j)
            cand = self._candidates(space, int(j))
            chosen[rows] = np.array(cand)[rng.integers(0, len(cand), size=rows.size)]
        for k in np.unique(chosen):
            rows = np.flatnonzero(chosen == k)
            s = space.slots[int(k)]
            space.pools.put(V, rows, s, space.pools.draw(s, rows.size, rng, wild=True))

    def _break_drawn(
        self, space: Space, V: Words, target: npt.NDArray[np.intp], rng: np.random.Generator
    ) -> None:
        """`_break` with the values from the wild bank (`Space.bank`): one field each word
        depends on, for its target term, set at once over the batch."""
        chosen = np.empty(len(V), dtype=np.intp)
        for j in np.unique(target):
            rows = np.flatnonzero(target == j)
            cand = self._candidates(space, int(j))
            chosen[rows] = np.array(cand)[rng.integers(0, len(cand), size=rows.size)]
        bank, masks = space.bank(wild=True)
        mask = masks[chosen]
        V[:] = (V & ~mask) | (bank[chosen, rng.integers(0, bank.shape[1], size=len(V))] & mask)

    def failable(self, opcode: int) -> tuple[int, ...]:
        """The chain terms of `opcode` (indices into its validator's chain, over every
        alternative the search reached) some re-drawn field of a valid word makes fail alone."""
        return self._global(opcode, 0)

    def falsifiable(self, opcode: int) -> tuple[int, ...]:
        """The chain terms of `opcode` (indices into its validator's chain) some re-drawn field
        of a valid word makes fail."""
        return self._global(opcode, 1)

    def _global(self, opcode: int, which: int) -> tuple[int, ...]:
        return tuple(
            sorted(
                self.space(opcode, a).index[j]
                for a in self.alternatives(opcode)
                for j in self._calibrate(opcode, a)[which]
            )
        )

    def _calibrate(self, opcode: int, alt: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        found = self._found(opcode)[alt]
        return found.alone, found.anyhow

    def _search_calibrate(
        self, space: Space, base: Words
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """For one alternative: the terms (its own indices) a re-drawn field of a valid word
        makes fail alone, and those it makes fail (part of the search: seed-independent)."""
        opcode, alt = space.opcode, space.alt
        several = len(space.full.alternatives) > 1
        rng = np.random.default_rng([0, opcode, 0xFA1] + ([alt] if alt else []))
        k = len(space.chain.terms)
        learnt, _ = self._sensitivity(space, base[rng.integers(0, len(base), size=256)], rng)
        for j, d in enumerate(learnt):
            space.deps[j] |= d
        alone = np.zeros(k, dtype=bool)
        anyhow = np.zeros(k, dtype=bool)
        quiet = 0
        for _ in range(24):
            self._tick()
            before = int(alone.sum()) + int(anyhow.sum())
            target = np.repeat(np.arange(k), 64)
            V = base[rng.integers(0, len(base), size=target.size)].copy()
            self._break(space, V, target, rng)
            M = space.chain.matrix(V)
            one = M.sum(axis=0) == k - 1
            if several:
                one &= ~space.full.accepts(V)
            anyhow |= ~M.all(axis=1)
            for t in np.flatnonzero(~M.all(axis=1)):
                alone[t] |= bool((one & ~M[t]).any())
            quiet = quiet + 1 if int(alone.sum()) + int(anyhow.sum()) == before else 0
            if alone.all() or quiet >= 4:
                break
        return (
            tuple(int(j) for j in np.flatnonzero(alone)),
            tuple(int(j) for j in np.flatnonzero(anyhow)),
        )

    # -- the public entry -----------------------------------------------------------------
    def random_words(
        self,
        n: int,
        *,
        opcode: int | None = None,
        valid: bool = True,
        seed: int = 0,
        executable: bool = False,
    ) -> Words:
        """An (n, 64) uint8 array: valid words (`valid=True`), or near misses that each fail
        exactly one rule of their validator; of `opcode`, or spread over every opcode the search
        found a valid word for (`reached()`; `unreached()` names the rest). ValueError naming
        the opcode where no valid word is found. `executable=True`: valid words the executor runs
        from its reset state, spread over every opcode it runs (`runnable.executable_words`)."""
        if n < 0:
            raise ValueError(f"n is a count of words, not {n}")
        if executable:
            from .runnable import executable_words

            return executable_words(self, self.executor, n, opcode, seed)
        ops = (opcode,) if opcode is not None else self.reached()
        if not ops:
            raise ValueError(f"{self.generation}: the search found a valid word for no opcode")
        if opcode is not None and not 0 <= opcode <= 0xFF:
            raise ValueError(f"opcode {opcode} is not a byte")
        share = [n // len(ops) + (1 if k < n % len(ops) else 0) for k in range(len(ops))]
        parts = []
        for op, m in zip(ops, share, strict=True):
            if not m and opcode is None:
                continue
            if valid:
                parts.append(self.valid(m, op, seed))
            else:
                parts.append(self.near_misses(m, op, seed)[0])
        W = np.vstack(parts) if parts else np.zeros((0, 64), dtype=np.uint8)
        if opcode is None and len(W):
            W = W[np.random.default_rng([seed, 0x5A]).permutation(len(W))]
        return np.ascontiguousarray(W)
