"""What one instruction word is and what it touches: `InstructionInfo`.

The access sets are the executor's own: the word is prepared and run on a scratch machine of
its generation while the access walks it resolves (`executor.access.walk`) and the registers it
reads are recorded, so a footprint is exactly what `Executor.run` reads and writes, never a
second model of it. The run stops where the engine hands its operands to the backend: every
method resolves and bounds-checks all its accesses before it computes (kernels.py's three
phases), so nothing is left to record and the arithmetic is not done (the scratch machine's
memory stays as it was made, zero); tests/bench/test_info.py runs the real kernels against
the footprints. Where the semantics are not pinned (an opcode the executor refuses, a word
the validators reject, an address form it does not model, a register-held address with no
machine state given) `footprint_known` is False and `why` says so; the spans are then empty,
not a guess. The recording replaces two module globals for the length of one call (under a
lock); nothing is recorded, and nothing costs, outside `info`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .codec import as_bytes
from .decoding import Decoder, OpcodeStatus
from .executor import access, kernels
from .executor.dtypes import DtypeError
from .executor.errors import ExecutorError, InvalidInstructionError

_RECORD = threading.Lock()


class _Resolved(Exception):
    """Raised where the engine calls its backend while recording: every access is resolved."""


class _NoKernels:
    """The backend of the scratch machine while recording: any kernel ends the run."""

    def __getattr__(self, name: str) -> Any:
        def stop(*args: Any, **kwargs: Any) -> Any:
            raise _Resolved(name)

        return stop


_NO_KERNELS = _NoKernels()


@dataclass(frozen=True, order=True)
class Span:
    """Bytes [start, stop) of one partition of a region ("sbuf" or "psum")."""

    region: str
    partition: int
    start: int
    stop: int


@dataclass(frozen=True)
class Semaphore:
    """One events-field effect: the mode (its enum name), the semaphore or event index, the value."""

    mode: str
    index: int
    value: int


@dataclass(frozen=True)
class InstructionInfo:
    opcode: int
    mnemonic: str
    struct: str
    status: OpcodeStatus
    footprint_known: bool
    why: str  # "" when the footprint is known, else why not
    reads: tuple[Span, ...]
    writes: tuple[Span, ...]
    registers: tuple[int, ...]  # address registers read
    waits: tuple[Semaphore, ...]
    updates: tuple[Semaphore, ...]


def merge(spans: list[Span]) -> tuple[Span, ...]:
    """Sorted, with touching or overlapping spans of one partition joined."""
    out: list[Span] = []
    for s in sorted(spans):
        last = out[-1] if out else None
        if (
            last
            and (last.region, last.partition) == (s.region, s.partition)
            and s.start <= last.stop
        ):
            if s.stop > last.stop:
                out[-1] = Span(s.region, s.partition, last.start, s.stop)
        else:
            out.append(s)
    return tuple(out)


def walk_spans(w: access.Walk) -> list[Span]:
    """The bytes a resolved walk touches, as runs per partition."""
    return _spans(_walk_runs([w]))


_REGIONS = ("psum", "sbuf")  # in Span order (a Span sorts by its region's name first)
_BIG = np.int64(1 << 40)  # above any byte offset within a partition


def _walk_runs(walks: list[access.Walk]) -> npt.NDArray[np.int64]:
    """(K, 3) int64: for each run of touched bytes of each partition of `walks`, its group
    (region index * 2^20 + partition), start and stop."""
    parts: list[npt.NDArray[np.int64]] = []
    for w in walks:
        if w.slc is not None:
            elems = np.arange(w.slc.start or 0, w.slc.stop, w.slc.step or 1, dtype=np.int64)
        else:
            assert w.offsets is not None
            elems = w.elem0 + np.asarray(w.offsets, dtype=np.int64)
        if not elems.size or not w.nparts:
            continue
        elems = np.unique(elems) * w.itemsize
        breaks = np.flatnonzero(np.diff(elems) != w.itemsize) + 1
        starts = elems[np.concatenate([[0], breaks])]
        ends = elems[np.concatenate([breaks - 1, [elems.size - 1]])] + w.itemsize
        region = _REGIONS.index(w.region.name.lower())
        groups = region * (1 << 20) + np.arange(w.partition, w.partition + w.nparts)
        block = np.empty((w.nparts * starts.size, 3), dtype=np.int64)
        block[:, 0] = np.repeat(groups, starts.size)
        block[:, 1] = np.tile(starts, w.nparts)
        block[:, 2] = np.tile(ends, w.nparts)
        parts.append(block)
    return np.concatenate(parts) if parts else np.zeros((0, 3), dtype=np.int64)


def _merged(runs: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """`runs` sorted (by group, start, stop) with touching or overlapping runs of one group
    joined: what `merge` does to the Spans they are, in numpy."""
    if len(runs) <= 1:
        return runs
    runs = runs[np.lexsort((runs[:, 2], runs[:, 1], runs[:, 0]))]
    lo = runs[:, 1] + runs[:, 0] * _BIG
    hi = runs[:, 2] + runs[:, 0] * _BIG
    reach = np.maximum.accumulate(hi)
    new = np.ones(len(runs), dtype=np.bool_)
    new[1:] = lo[1:] > reach[:-1]
    first = np.flatnonzero(new)
    out = np.empty((first.size, 3), dtype=np.int64)
    out[:, 0] = runs[first, 0]
    out[:, 1] = runs[first, 1]
    out[:, 2] = np.maximum.reduceat(hi, first) - out[:, 0] * _BIG
    return out


def _spans(runs: npt.NDArray[np.int64]) -> list[Span]:
    return [
        Span(_REGIONS[g >> 20], g & 0xFFFFF, a, b)
        for g, a, b in zip(*(runs[:, k].tolist() for k in range(3)), strict=True)
    ]


@contextmanager
def _recording(engine: Any) -> Iterator[tuple[list[tuple[str, access.Walk]], list[int]]]:
    walks: list[tuple[str, access.Walk]] = []
    regs: list[int] = []
    names = vars(kernels)  # the module globals the engine's access methods call
    walk, resolve = names["walk"], names["resolve_addr4"]
    pointer = engine._pointer

    def recorded_walk(*a: Any) -> access.Walk:
        w: access.Walk = walk(*a)
        walks.append((str(a[-1]), w))
        return w

    def recorded_resolve(raw: int, memory: Any, what: str = "start_addr") -> int:
        if (int(raw) >> 24) & access.MARKER_ADDR_REG and not (
            int(raw) >> 24
        ) & access.MARKER_INDIRECT:
            regs.append(int(raw) & 0xFF)
        return int(resolve(raw, memory, what))

    def recorded_pointer(imm: Any, what: str) -> int:
        if imm.src == kernels.IMM_REG_POINTER:
            regs.append(int(imm.bits) & 0xFF)
        return int(pointer(imm, what))

    backend = engine.backend
    with _RECORD:
        names["walk"], names["resolve_addr4"] = recorded_walk, recorded_resolve
        engine._pointer = recorded_pointer
        engine.backend = _NO_KERNELS
        try:
            yield walks, regs
        finally:
            names["walk"], names["resolve_addr4"] = walk, resolve
            del engine._pointer
            engine.backend = backend


_NO_RUNS: npt.NDArray[np.int64] = np.zeros((0, 3), dtype=np.int64)
_NO_RUNS.flags.writeable = False
Footprint = tuple[bool, str, npt.NDArray[np.int64], npt.NDArray[np.int64], tuple[int, ...]]


class Info:
    """`info` / `info_batch` for one generation: its decoder and Executor class."""

    def __init__(self, decoder: Decoder, executor_cls: Any) -> None:
        self.decoder = decoder
        self.executor_cls = executor_cls
        self._scratch: Any = None

    def _events(self, b: bytes, cls: Any) -> tuple[tuple[Semaphore, ...], tuple[Semaphore, ...]]:
        f = next((f for f in cls.LAYOUT if f.name == "events"), None)
        if f is None:
            return (), ()
        ev = f.cls.from_bytes(b, f.offset)
        waits, updates = [], []
        value = int(getattr(ev, "semaphore_value", getattr(ev, "sem_wait_value", 0)))
        wm, um = ev.wait_mode, ev.update_mode
        if int(wm) not in (0, 0xFF):
            waits.append(Semaphore(getattr(wm, "name", hex(int(wm))), int(ev.wait_idx), value))
        if int(um) not in (0, 0xFF):
            updates.append(Semaphore(getattr(um, "name", hex(int(um))), int(ev.update_idx), value))
        return tuple(waits), tuple(updates)

    def info(self, word: Any, executor: Any = None) -> InstructionInfo:
        """What `word` is and what it reads and writes; `executor`: the machine whose state
        (address registers, ImmLd flops, accumulators) the footprint is worked out on, without
        one the reset state (and a register-held address is then not known).
        DecodeError (a ValueError) for a word the generation does not decode."""
        b = as_bytes(word)
        cls = self.decoder.structs.get(b[0]) if len(b) == 64 else None
        if cls is None:
            self.decoder.decode(b)  # raises, saying why
        status = self.decoder.status(b[0])
        waits, updates = self._events(b, cls)
        known, why, reads, writes, regs = self._footprint(b, executor)
        return InstructionInfo(
            b[0],
            status.name,
            status.struct,
            status,
            known,
            why,
            reads,
            writes,
            regs,
            waits,
            updates,
        )

    def _footprint(
        self, b: bytes, executor: Any
    ) -> tuple[bool, str, tuple[Span, ...], tuple[Span, ...], tuple[int, ...]]:
        known, why, reads, writes, registers = self.footprint_runs(b, executor)
        return known, why, tuple(_spans(reads)), tuple(_spans(writes)), registers

    def footprint_runs(self, word: Any, executor: Any = None) -> Footprint:
        """`info(word, executor)`'s footprint as arrays: (footprint_known, why, reads, writes,
        registers), `reads` and `writes` each a merged (K, 3) int64 array of runs (region index
        * 2^20 + partition, start, stop), region index 0 for PSUM and 1 for SBUF: the arrays
        `info` makes its Spans from, one Span a row, in the same order (for masks over memory
        without a Span object a run). The word must decode."""
        b = as_bytes(word)
        none = _NO_RUNS
        ex_cls = self.executor_cls
        if b[0] in ex_cls.REFUSED:
            return False, f"not executed: {ex_cls.REFUSED[b[0]]}", none, none, ()
        if self._scratch is None:
            self._scratch = ex_cls(backend="numpy")
        ex = self._scratch
        mine = ex.engine.memory
        theirs = None if executor is None else executor.engine.memory
        # the state besides SBUF and PSUM the footprint may depend on: the given machine's
        # (address registers, accumulators, ImmLd flops), else the reset state
        for name in ("registers", "accumulators", "imm_flops"):
            getattr(mine, name)[:] = 0 if theirs is None else getattr(theirs, name)
        for name, reset in (("imm_count", 0), ("imm_channels", 0), ("imm_kind", None)):
            setattr(mine, name, reset if theirs is None else getattr(theirs, name))
        ex._prepared.clear()
        try:
            # _Resolved: the kernel would run now, every access is resolved
            with _recording(ex.engine) as (walks, regs), suppress(_Resolved):
                ex._prepare(b)()
        except InvalidInstructionError as e:
            return False, str(e), none, none, ()
        except (ExecutorError, DtypeError) as e:  # not executed: nothing is read or written
            return False, f"{type(e).__name__}: {e}", none, none, tuple(sorted(set(regs)))
        registers = tuple(sorted(set(regs)))
        if registers and executor is None:
            return (
                False,
                f"addresses held in registers {list(registers)}: give executor=",
                none,
                none,
                registers,
            )
        reads = _walk_runs([w for what, w in walks if not what.startswith("dst")])
        writes = _walk_runs([w for what, w in walks if what.startswith("dst")])
        return True, "", _merged(reads), _merged(writes), registers

    def info_batch(self, words: Any, executor: Any = None) -> list[InstructionInfo]:
        """`info` of each word of an (N, 64) array or byte stream, equal to `[info(w) for w in
        words]`: a word repeated is worked out once (one InstructionInfo shared), the events'
        effects once per opcode and events bytes; the footprints by the executor's own walks
        (never a second model of its address rules), their runs merged in numpy. DecodeError
        for the first word the generation does not decode."""
        from .vector import as_words

        W = as_words(words)
        structs = self.decoder.structs
        events: dict[tuple[int, bytes], tuple[tuple[Semaphore, ...], tuple[Semaphore, ...]]] = {}
        fields = {
            op: next((f for f in cls.LAYOUT if f.name == "events"), None)
            for op, cls in structs.items()
        }
        done: dict[bytes, InstructionInfo] = {}
        out: list[InstructionInfo] = []
        for b in map(bytes, W):  # a repeated word is worked out once
            got = done.get(b)
            if got is None:
                op = b[0]
                cls = structs.get(op)
                if cls is None:
                    self.decoder.decode(b)  # raises, saying why
                status = self.decoder.status(op)
                f = fields[op]
                key = (op, b[f.offset : f.offset + f.size] if f is not None else b"")
                ev = events.get(key)
                if ev is None:
                    ev = events[key] = self._events(b, cls)
                known, why, reads, writes, regs = self._footprint(b, executor)
                got = done[b] = InstructionInfo(
                    op, status.name, status.struct, status, known, why, reads, writes, regs, *ev
                )
            out.append(got)
        return out
