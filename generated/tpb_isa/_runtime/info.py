"""What one instruction word is and what it touches: `InstructionInfo`.

The access sets are the executor's own: the word is prepared and run on a scratch machine of
its generation while the access walks it resolves (`executor.access.walk`) and the registers it
reads are recorded, so a footprint is exactly what `Executor.run` reads and writes, never a
second model of it. Where the semantics are not pinned (an opcode the executor refuses, a word
the validators reject, an address form it does not model, a register-held address with no
machine state given) `footprint_known` is False and `why` says so; the spans are then empty,
not a guess. The recording replaces two module globals for the length of one call (under a
lock); nothing is recorded, and nothing costs, outside `info`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from .codec import as_bytes
from .decoding import Decoder, OpcodeStatus
from .executor import access, kernels
from .executor.dtypes import DtypeError
from .executor.errors import ExecutorError, InvalidInstructionError

_RECORD = threading.Lock()


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
    if w.slc is not None:
        elems = np.arange(w.slc.start or 0, w.slc.stop, w.slc.step or 1, dtype=np.int64)
    else:
        assert w.offsets is not None
        elems = np.unique(w.elem0 + np.asarray(w.offsets, dtype=np.int64))
    elems = np.unique(elems) * w.itemsize
    runs: list[tuple[int, int]] = []
    if elems.size:
        breaks = np.flatnonzero(np.diff(elems) != w.itemsize) + 1
        starts = elems[np.concatenate([[0], breaks])]
        ends = elems[np.concatenate([breaks - 1, [elems.size - 1]])] + w.itemsize
        runs = list(zip(starts.tolist(), ends.tolist(), strict=True))
    name = w.region.name.lower()
    return [
        Span(name, p, a, b) for p in range(w.partition, w.partition + w.nparts) for a, b in runs
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

    with _RECORD:
        names["walk"], names["resolve_addr4"] = recorded_walk, recorded_resolve
        engine._pointer = recorded_pointer
        try:
            yield walks, regs
        finally:
            names["walk"], names["resolve_addr4"] = walk, resolve
            del engine._pointer


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
        ex_cls = self.executor_cls
        if b[0] in ex_cls.REFUSED:
            return False, f"not executed: {ex_cls.REFUSED[b[0]]}", (), (), ()
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
            with _recording(ex.engine) as (walks, regs):
                ex._prepare(b)()
        except InvalidInstructionError as e:
            return False, str(e), (), (), ()
        except (ExecutorError, DtypeError) as e:  # not executed: nothing is read or written
            return False, f"{type(e).__name__}: {e}", (), (), tuple(sorted(set(regs)))
        registers = tuple(sorted(set(regs)))
        if registers and executor is None:
            return (
                False,
                f"addresses held in registers {list(registers)}: give executor=",
                (),
                (),
                registers,
            )
        reads: list[Span] = []
        writes: list[Span] = []
        for what, w in walks:
            (writes if what.startswith("dst") else reads).extend(walk_spans(w))
        return True, "", merge(reads), merge(writes), registers

    def info_batch(self, words: Any, executor: Any = None) -> list[InstructionInfo]:
        """`info` of each word of an (N, 64) array or byte stream (a word repeated is worked
        out once)."""
        from .vector import as_words

        W = as_words(words)
        seen: dict[bytes, InstructionInfo] = {}
        out = []
        for row in W:
            b = row.tobytes()
            got = seen.get(b)
            if got is None:
                got = seen[b] = self.info(b, executor)
            out.append(got)
        return out
