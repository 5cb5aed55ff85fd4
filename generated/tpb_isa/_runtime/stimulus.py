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
is one the translated validator accepts, the compiled C's verdict word for word). Deterministic
for a seed; numpy only.
"""

from __future__ import annotations

import functools
import struct as _struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .chains import Chain, Terms, evaluate

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
        learnt = self.learnt.get(slot.offset * 1000 + (slot.bit_offset or 0) * 10 + slot.size)
        if learnt is not None and not wild:
            pick = learnt[rng.integers(0, learnt.size, size=m)]
            v = np.where(rng.random(m) < 0.5, pick, v)
        return v & np.uint64(mask)

    def learn(self, slot: Slot, values: Any) -> None:
        """Values of `slot` that made a term hold: later draws favour them."""
        key = slot.offset * 1000 + (slot.bit_offset or 0) * 10 + slot.size
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
            for op in self.opcodes():
                try:
                    self.seeds(op)
                except ValueError:
                    missed[op] = self.dispatch[op][0]
            self._unreached = missed
        return self._unreached

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
            space = self._spaces[(opcode, alt)] = self._new_space(opcode, alt)
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

    @functools.lru_cache(maxsize=256)  # noqa: B019 - one Stimulus per generation, kept for the process
    def _alt_seeds_all(self, opcode: int) -> tuple[Words, ...]:
        return tuple(
            self._alt_seeds(opcode, a) for a in range(len(self.chain(opcode).alternative_chains()))
        )

    def _alt_seeds(self, opcode: int, alt: int) -> Words:
        """The seeds of one alternative ((0, 64) when the search finds none)."""
        space = self.space(opcode, alt)
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
        while have < n:
            m = max(256, min(8192, 2 * (n - have)))
            B = live[rng.integers(0, len(live), size=m)].copy()
            other = live[rng.integers(0, len(live), size=m)]
            p = 1.5 / max(1, len(space.slots))
            for s in space.slots:
                swap = np.flatnonzero(rng.random(m) < 0.25)
                if swap.size:
                    B[swap, s.offset : s.offset + s.size] = other[
                        swap, s.offset : s.offset + s.size
                    ]
                rows = np.flatnonzero(rng.random(m) < p)
                if rows.size:
                    space.pools.put(B, rows, s, space.pools.draw(s, rows.size, rng))
            ok = space.chain.matrix(B).all(axis=0)
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

    @functools.lru_cache(maxsize=256)  # noqa: B019
    def _enriched(self, opcode: int, alt: int) -> Words:
        space = self.space(opcode, alt)
        rng = np.random.default_rng([opcode, 0xE17] + ([alt] if alt else []))
        live = self._alt_seeds_all(opcode)[alt]
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
        full = self.chain(opcode)
        alts = self.alternatives(opcode)
        rng = np.random.default_rng([seed, opcode, 0xBAD if alone else 0xBAE])
        # the (alternative, term) pairs to fail: a word fails a term of one alternative (and,
        # for a validator with several, every other alternative fails too)
        pairs = [
            (a, j) for a in alts for j in (self._calibrate(opcode, seed, a)[0 if alone else 1])
        ]
        if not pairs:
            raise ValueError(
                f"{self.generation}: no near miss of opcode {opcode:#04x} fails one rule alone"
            )
        base = {a: self._valid(max(512, min(n, 8192)), opcode, a, seed) for a in alts}
        want = np.arange(n) % len(pairs)
        p_alt = np.array([a for a, _ in pairs])
        p_term = np.array([j for _, j in pairs])
        out = np.zeros((n, 64), dtype=np.uint8)
        done = np.zeros(n, dtype=bool)
        for round_ in range(1000):
            todo = np.flatnonzero(~done)
            if not todo.size:
                break
            if round_ and round_ % 200 == 0:  # a rule rarely broken alone: its rows go to others
                want[todo] = rng.integers(0, len(pairs), size=todo.size)
            tries = 8  # each missing row tried 8 ways at once
            idx = np.repeat(todo, tries)
            hit = np.zeros(idx.size, dtype=bool)
            V = np.zeros((idx.size, 64), dtype=np.uint8)
            for a in np.unique(p_alt[want[idx]]):
                space = self.space(opcode, int(a))
                r = np.flatnonzero(p_alt[want[idx]] == a)
                target = p_term[want[idx[r]]]
                B = base[int(a)]
                Va = B[rng.integers(0, len(B), size=r.size)].copy()
                self._break(space, Va, target, rng)
                M = space.chain.matrix(Va)
                h = ~M[target, np.arange(r.size)]
                if alone:
                    h &= M.sum(axis=0) == len(space.chain.terms) - 1
                if len(alts) > 1 or len(full.alternatives) > 1:
                    h &= ~full.accepts(Va)
                V[r] = Va
                hit[r] = h
            g = hit.reshape(todo.size, tries)
            got = g.any(axis=1)
            pick = (np.arange(todo.size) * tries + np.argmax(g, axis=1))[got]
            out[todo[got]] = V[pick]
            done[todo[got]] = True
        if not done.all():
            raise RuntimeError(
                f"{self.generation}: opcode {opcode:#04x}: {int((~done).sum())} near misses not found"
            )
        perm = rng.permutation(n)
        names = full.names
        rules = tuple(
            names[self.space(opcode, int(p_alt[w])).index[int(p_term[w])]] for w in want[perm]
        )
        return out[perm], rules

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

    def failable(self, opcode: int, seed: int = 0) -> tuple[int, ...]:
        """The chain terms of `opcode` (indices into its validator's chain, over every
        alternative the search reached) some re-drawn field of a valid word makes fail alone."""
        return self._global(opcode, seed, 0)

    def falsifiable(self, opcode: int, seed: int = 0) -> tuple[int, ...]:
        """The chain terms of `opcode` (indices into its validator's chain) some re-drawn field
        of a valid word makes fail."""
        return self._global(opcode, seed, 1)

    def _global(self, opcode: int, seed: int, which: int) -> tuple[int, ...]:
        return tuple(
            sorted(
                self.space(opcode, a).index[j]
                for a in self.alternatives(opcode)
                for j in self._calibrate(opcode, seed, a)[which]
            )
        )

    @functools.lru_cache(maxsize=64)  # noqa: B019
    def _calibrate(
        self, opcode: int, seed: int, alt: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """For one alternative: the terms (its own indices) a re-drawn field of a valid word
        makes fail alone, and those it makes fail."""
        space = self.space(opcode, alt)
        base = self._alt_seeds_all(opcode)[alt]
        several = len(space.full.alternatives) > 1
        rng = np.random.default_rng([seed, opcode, 0xFA1] + ([alt] if alt else []))
        k = len(space.chain.terms)
        learnt, _ = self._sensitivity(space, base[rng.integers(0, len(base), size=256)], rng)
        for j, d in enumerate(learnt):
            space.deps[j] |= d
        alone = np.zeros(k, dtype=bool)
        anyhow = np.zeros(k, dtype=bool)
        quiet = 0
        for _ in range(24):
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
