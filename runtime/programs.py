"""Constrained-random programs: valid words the executor runs, in an order where a requested
share of them read bytes an earlier word wrote (read-after-write dependencies).

The footprints are the executor's own (`info.Info`: what `Executor.run` reads and writes). A
program is built a word at a time from a pool of valid words of the stimulus search
(`stimulus.Stimulus.random_words`) whose footprint is known and not empty. For a word meant to
depend on an earlier one: a pool word whose reads already overlap the bytes written so far, or
else a pool word with one of its immediate addresses (`*.addr_immediate`) set to one of an
earlier writer's, kept when the validators still accept it, its footprint is known and its
reads overlap that writer's writes. For a word meant to be independent: a pool word whose reads
touch no byte written so far. A word is dependent when it reads a byte some earlier word wrote;
`Program.dependencies` names, for each such read, the last writer of those bytes.
Deterministic for a seed; numpy only.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .stimulus import Stimulus

Words = npt.NDArray[np.uint8]
#: How many pool words a step looks at before it settles for one that misses its aim.
TRIES = 24


class LastWriter:
    """Which word last wrote each byte: per (region, partition), sorted disjoint intervals
    [start, stop) with the index of the word that wrote them."""

    def __init__(self) -> None:
        self._starts: dict[tuple[str, int], list[int]] = {}
        self._runs: dict[tuple[str, int], list[tuple[int, int, int]]] = {}

    def __bool__(self) -> bool:
        return bool(self._runs)

    def writers(self, spans: Iterable[Any]) -> set[int]:
        """The words that last wrote some byte of `spans` (`info.Span`s)."""
        out: set[int] = set()
        for s in spans:
            key = (s.region, s.partition)
            runs = self._runs.get(key)
            if not runs:
                continue
            k = max(0, bisect.bisect_right(self._starts[key], s.start) - 1)
            while k < len(runs) and runs[k][0] < s.stop:
                if runs[k][1] > s.start:
                    out.add(runs[k][2])
                k += 1
        return out

    def write(self, spans: Iterable[Any], writer: int) -> None:
        """Word `writer` wrote `spans`: they are its bytes now."""
        for s in spans:
            if s.stop <= s.start:
                continue
            key = (s.region, s.partition)
            runs = self._runs.setdefault(key, [])
            starts = self._starts.setdefault(key, [])
            # the runs the span touches are runs[lo:hi]; the ends of the first and the last
            # that stick out of it are kept
            lo = bisect.bisect_right(starts, s.start) - 1
            if lo < 0 or runs[lo][1] <= s.start:
                lo += 1
            hi = bisect.bisect_left(starts, s.stop)
            new: list[tuple[int, int, int]] = []
            if lo < hi and runs[lo][0] < s.start:
                new.append((runs[lo][0], s.start, runs[lo][2]))
            new.append((s.start, s.stop, writer))
            if lo < hi and runs[hi - 1][1] > s.stop:
                new.append((s.stop, runs[hi - 1][1], runs[hi - 1][2]))
            runs[lo:hi] = new
            starts[lo:hi] = [a for a, _, _ in new]


def read_after_write(infos: Sequence[Any]) -> tuple[tuple[int, int], ...]:
    """(writer, reader) index pairs of a program's words, in order: the reader read bytes the
    writer was the last to write before it (`infos`: each word's `InstructionInfo`; a word whose
    footprint is unknown reads and writes nothing here)."""
    mem = LastWriter()
    out: list[tuple[int, int]] = []
    for i, inf in enumerate(infos):
        if not inf.footprint_known:
            continue
        out += [(j, i) for j in sorted(mem.writers(inf.reads))]
        mem.write(inf.writes, i)
    return tuple(out)


def pairs_by_opcode(words: Words, pairs: Iterable[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """(writer's opcode, reader's opcode) -> how many of `pairs` (index pairs into `words`)."""
    out: dict[tuple[int, int], int] = {}
    for j, i in pairs:
        key = (int(words[j, 0]), int(words[i, 0]))
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class Program:
    """A program: its `words` ((n, 64) uint8, in the order they run), each word's `infos`, and
    `dependencies`, the (writer, reader) index pairs of `read_after_write`."""

    words: Words
    infos: tuple[Any, ...]
    dependencies: tuple[tuple[int, int], ...]

    @property
    def dependent(self) -> float:
        """The share of the words after the first that read a byte an earlier word wrote."""
        if len(self.words) < 2:
            return 0.0
        return len({i for _, i in self.dependencies}) / (len(self.words) - 1)

    def by_opcode(self) -> dict[tuple[int, int], int]:
        """The read-after-write pairs by (writer's opcode, reader's opcode)."""
        return pairs_by_opcode(self.words, self.dependencies)


class Programs:
    """`random_program` for one generation: its stimulus and its `Info` (footprints)."""

    def __init__(self, stimulus: Stimulus, info: Any) -> None:
        self.stimulus = stimulus
        self.info = info

    def _pool(self, n: int, opcodes: Sequence[int] | None, seed: int) -> tuple[Words, list[Any]]:
        stim = self.stimulus
        m = max(256, 4 * n)
        if opcodes is None:
            W = stim.random_words(m, seed=seed)
        else:
            ops = sorted({int(op) for op in opcodes})
            share = [m // len(ops) + (1 if k < m % len(ops) else 0) for k in range(len(ops))]
            W = np.vstack(
                [
                    stim.random_words(k, opcode=op, seed=seed)
                    for op, k in zip(ops, share, strict=True)
                ]
            )
        infos = self.info.info_batch(W)
        keep = [k for k, i in enumerate(infos) if i.footprint_known and (i.reads or i.writes)]
        if not keep:
            what = "any opcode" if opcodes is None else ", ".join(f"{op:#04x}" for op in opcodes)
            raise ValueError(
                f"{stim.generation}: no valid word of {what} has a footprint the executor "
                "runs (info(word).footprint_known)"
            )
        return np.ascontiguousarray(W[keep]), [infos[k] for k in keep]

    def random_program(
        self,
        n: int,
        *,
        seed: int = 0,
        opcodes: Sequence[int] | None = None,
        dependent: float = 0.5,
    ) -> Program:
        """`n` valid words the executor runs, of `opcodes` (None: every opcode whose words it
        runs), about `dependent` of them (after the first) reading bytes an earlier word wrote.
        ValueError when `n` or `dependent` is out of range, or no word of `opcodes` runs."""
        if n < 0:
            raise ValueError(f"n is a count of words, not {n}")
        if not 0.0 <= dependent <= 1.0:
            raise ValueError(f"dependent is a share between 0 and 1, not {dependent}")
        rng = np.random.default_rng([seed, 0x9A0])
        pool, pinfo = self._pool(n, opcodes, seed)
        mem = LastWriter()
        words: list[Words] = []
        infos: list[Any] = []
        got = 0  # words after the first that read an earlier word's writes, so far
        for k in range(n):
            # the aim leans against the drift so far: a step that had to settle for a word
            # missing its aim (a full memory leaves few independent words) is made up later
            aim = dependent + (dependent * (k - 1) - got) if k else dependent
            want = bool(k and mem and rng.random() < aim)
            w, inf = self._step(pool, pinfo, mem, words, infos, want, rng)
            got += bool(k and mem.writers(inf.reads))
            mem.write(inf.writes, k)
            words.append(w)
            infos.append(inf)
        W = np.vstack(words) if words else np.zeros((0, 64), dtype=np.uint8)
        return Program(W, tuple(infos), read_after_write(infos))

    def _step(
        self,
        pool: Words,
        pinfo: list[Any],
        mem: LastWriter,
        words: list[Words],
        infos: list[Any],
        want: bool,
        rng: np.random.Generator,
    ) -> tuple[Words, Any]:
        """The next word: one that reads earlier writes (`want`) or one that does not."""
        picks = rng.integers(0, len(pool), size=TRIES)
        for p in picks:
            if bool(mem.writers(pinfo[p].reads)) == want:
                return pool[p], pinfo[p]
        if want:
            writers = [j for j in range(len(infos)) if infos[j].writes][-8:]
            for p in picks[:8]:
                if writers:
                    j = writers[int(rng.integers(0, len(writers)))]
                    got = self._relocated(pool[p], words[j], infos[j], rng)
                    if got is not None:
                        return got
        p = int(picks[0])
        return pool[p], pinfo[p]

    def _addresses(self, opcode: int) -> list[Any]:
        return [s for s in self.stimulus.space(opcode).slots if s.name.endswith("addr_immediate")]

    def _relocated(
        self, word: Words, writer: Words, winfo: Any, rng: np.random.Generator
    ) -> tuple[Words, Any] | None:
        """`word` with one of its immediate addresses set to one of `writer`'s, such that it is
        still valid, runs, and reads some byte `writer` wrote; None if no such variant."""
        mine = self._addresses(int(word[0]))
        theirs = self._addresses(int(writer[0]))
        if not mine or not theirs:
            return None
        pools = self.stimulus.space(int(word[0])).pools
        values = [int(pools.read(writer[None, :], slice(None), s)[0]) for s in theirs]
        V = np.repeat(word[None, :], len(mine) * len(values), axis=0)
        for a, s in enumerate(mine):
            rows = slice(a * len(values), (a + 1) * len(values))
            vals = np.array(values, dtype=np.uint64) & np.uint64((1 << s.bits) - 1)
            pools.put(V, rows, s, vals)
        V = V[self.stimulus.accepts(V)]
        if not len(V):
            return None
        V = V[rng.permutation(len(V))]
        mem = LastWriter()
        mem.write(winfo.writes, 0)
        for w, inf in zip(V, self.info.info_batch(V), strict=True):
            if inf.footprint_known and mem.writers(inf.reads):
                return np.ascontiguousarray(w), inf
        return None
