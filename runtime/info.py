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

import gc
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from itertools import repeat
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .codec import as_bytes, enum_or_int
from .decoding import Decoder, OpcodeStatus
from .executor import access, kernels
from .executor.dtypes import DtypeError
from .executor.errors import ExecutorError, InvalidInstructionError
from .executor.operands import EngineOperands


class _Resolved(Exception):
    """Raised where the engine calls its backend while recording: every access is resolved."""


class _NoKernels:
    """The backend of the scratch machine while recording: any kernel ends the run."""

    def __getattr__(self, name: str) -> Any:
        def stop(*args: Any, **kwargs: Any) -> Any:
            raise _Resolved(name)

        return stop


_NO_KERNELS = _NoKernels()


class Span(NamedTuple):
    """Bytes [start, stop) of one partition of a region ("sbuf" or "psum").

    A tuple (made in bulk by `tuple.__new__`, a fifth of a frozen dataclass's cost: info_batch
    makes tens a word) that keeps the frozen dataclass's API: its fields, repr, hash, and its
    equality and order, a Span against a Span only (never equal to a plain tuple)."""

    region: str
    partition: int
    start: int
    stop: int

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Span and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return tuple.__hash__(self)

    def _order(self, other: object, op: str) -> tuple[Any, ...]:
        if other.__class__ is not Span:
            raise TypeError(
                f"'{op}' not supported between instances of 'Span' and '{type(other).__name__}'"
            )
        return tuple(other)

    def __lt__(self, other: object) -> bool:
        return tuple(self) < self._order(other, "<")

    def __le__(self, other: object) -> bool:
        return tuple(self) <= self._order(other, "<=")

    def __gt__(self, other: object) -> bool:
        return tuple(self) > self._order(other, ">")

    def __ge__(self, other: object) -> bool:
        return tuple(self) >= self._order(other, ">=")


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


class _SpanColumns:
    """The merged runs of every word of one `info_batch` call, as columns, and their Spans,
    made all at once (`_make_spans`) the first time any word's spans are read."""

    __slots__ = ("cols", "spans")

    def __init__(self, *cols: npt.NDArray[np.int64]) -> None:
        self.cols: tuple[npt.NDArray[np.int64], ...] | None = cols
        self.spans: tuple[Span, ...] | None = None

    def get(self, a: int, b: int) -> tuple[Span, ...]:
        spans = self.spans
        if spans is None:
            assert self.cols is not None
            # hundreds of thousands of tuples, none in a cycle: the cyclic collector's passes
            # over them as they pile up would cost twice the making (as in info_batch)
            was = gc.isenabled()
            gc.disable()
            try:
                spans = self.spans = tuple(_make_spans(*self.cols))
            finally:
                if was:
                    gc.enable()
            self.cols = None
        return spans[a:b]


class _Pending(tuple[_SpanColumns, int, int]):
    """The Spans a word's `reads` or `writes` will be: rows [a, b) of a `_SpanColumns`."""

    __slots__ = ()


class _SpansField:
    """`InstructionInfo.reads` / `.writes`: the tuple of Spans as given, or made from the
    `_Pending` that `info_batch` stores there on the first read (then kept). Equality, hash,
    repr, `dataclasses.replace` and `asdict` read the field, so they see the Spans; `info`'s
    are tuples from the start."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        if obj is None:
            return self
        d = obj.__dict__
        v = d[self.name]
        if v.__class__ is _Pending:
            v = d[self.name] = v[0].get(v[1], v[2])
        return v

    def __set__(self, obj: Any, value: Any) -> None:  # the dataclass's __init__ (frozen after)
        obj.__dict__[self.name] = value


def _getstate(self: InstructionInfo) -> dict[str, Any]:
    """The fields, the Spans made (a pickle or copy holds its own, not the batch's columns)."""
    return {**self.__dict__, "reads": self.reads, "writes": self.writes}


for _name in ("reads", "writes"):
    setattr(InstructionInfo, _name, _SpansField(_name))
setattr(InstructionInfo, "__getstate__", _getstate)  # noqa: B010


def _expand(counts: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Group k repeated counts[k] times, and each element's index within its group: the rows
    of a ragged expansion (counts >= 0)."""
    counts = np.asarray(counts, np.int64)
    group = np.repeat(np.arange(counts.size, dtype=np.int64), counts)
    index = np.arange(group.size, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    return group, index


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
        if w.slc is not None:  # elem0 + step * k, k < count (the slice's stop may be None)
            elems = w.elem0 + (w.slc.step or 1) * np.arange(w.count, dtype=np.int64)
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
    g = runs[:, 0]
    return _make_spans(g >> 20, g & 0xFFFFF, runs[:, 1], runs[:, 2])


_REGION_NAMES = np.array(_REGIONS, dtype=object)


def _make_spans(
    region: npt.NDArray[np.int64],
    partition: npt.NDArray[np.int64],
    start: npt.NDArray[np.int64],
    stop: npt.NDArray[np.int64],
) -> list[Span]:
    """Span(region, partition, start, stop) of each row (region an index of _REGIONS), made
    by `tuple.__new__` over the columns (no Python frame a Span)."""
    cols = (_REGION_NAMES[region].tolist(), partition.tolist(), start.tolist(), stop.tolist())
    return list(map(tuple.__new__, repeat(Span), zip(*cols, strict=True)))


@contextmanager
def _recording(engine: Any) -> Iterator[tuple[list[tuple[str, access.Walk]], list[int]]]:
    walks: list[tuple[str, access.Walk]] = []
    regs: list[int] = []
    # the engine's observer seam: the access functions its methods call (Engine.walk,
    # Engine.resolve_addr4) and its immediate-pointer read, wrapped on this engine only
    walk, resolve = engine.walk, engine.resolve_addr4
    pointer = engine._pointer

    # `access.walk` is a function of its arguments and the memory's geometry: a walk made
    # again with the same ones (TensorScalar's prepare walks, then its call when it is not
    # the fast path) is the Walk made before (an error is raised again by `walk` itself)
    made: dict[tuple[Any, ...], access.Walk] = {}

    def recorded_walk(*a: Any) -> access.Walk:
        key = a[1:]
        try:
            w = made.get(key)
        except TypeError:  # steps or nums given as a list
            key, w = (), None
        if w is None:
            w = walk(*a)
            if key:
                made[key] = w
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
    engine.walk, engine.resolve_addr4 = recorded_walk, recorded_resolve
    engine._pointer = recorded_pointer
    engine.backend = _NO_KERNELS
    try:
        yield walks, regs
    finally:
        engine.walk, engine.resolve_addr4 = walk, resolve
        del engine._pointer
        engine.backend = backend


def _set_state(scratch: Any, executor: Any) -> None:
    """The scratch machine's state besides SBUF and PSUM, which a footprint may depend on: the
    given machine's (address registers, accumulators, ImmLd flops), else the reset state."""
    mine = scratch.engine.memory
    theirs = None if executor is None else executor.engine.memory
    for name in ("registers", "accumulators", "imm_flops"):
        getattr(mine, name)[:] = 0 if theirs is None else getattr(theirs, name)
    for name, reset in (("imm_count", 0), ("imm_channels", 0), ("imm_kind", None)):
        setattr(mine, name, reset if theirs is None else getattr(theirs, name))


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

    def _executor_arg(self, executor: Any) -> None:
        if executor is not None and not isinstance(executor, self.executor_cls):
            raise TypeError(
                f"executor: a {self.decoder.generation} Executor or None, "
                f"not {type(executor).__name__}"
            )

    def info(self, word: Any, executor: Any = None) -> InstructionInfo:
        """What `word` is and what it reads and writes; `executor`: the machine whose state
        (address registers, ImmLd flops, accumulators) the footprint is worked out on, without
        one the reset state (and a register-held address is then not known).
        DecodeError (a ValueError) for a word the generation does not decode; TypeError for
        an `executor` that is not this generation's Executor."""
        b = as_bytes(word)
        self._executor_arg(executor)
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
        _set_state(ex, executor)
        ex._prepared.clear()
        ran_whole = False  # a handler with no kernel (Iota, Memset, ...) writes the scratch
        try:
            # _Resolved: the kernel would run now, every access is resolved
            with _recording(ex.engine) as (walks, regs), suppress(_Resolved):
                ex._prepare(b)()
                ran_whole = True
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
        if ran_whole:  # its writes put back to zero: the next word's refusals may read them
            for group, lo, hi in writes.tolist():
                getattr(ex, _REGIONS[group >> 20])[group & 0xFFFFF, lo:hi] = 0
        return True, "", _merged(reads), _merged(writes), registers

    def info_batch(self, words: Any, executor: Any = None) -> list[InstructionInfo]:
        """`info` of each word of an (N, 64) array or byte stream, equal to `[info(w) for w in
        words]` (a word repeated is worked out once, one InstructionInfo shared). The distinct
        words are worked out as columns, the way `Executor.run_program` admits a program: the
        opcodes, the C validators' batch and each handler's operands (`BatchBinder`), the
        events fields by opcode. The footprints are the executor's walks: the rows a column
        planner of program.PLANNED_WALKS finds cannot fail (a method's success conditions over
        the columns; immediate addresses) take their walks from `access.walk_columns`, the
        column form of `access.walk` (its rules) `run_program` plans with; every other admitted
        row calls its Engine method on the scratch machine from the same columns (no word
        decoded, validated or bound again), so every error is the method's own; an operand
        value the executor refuses is worked out by `info` once per opcode, operand and value.
        The walks' runs of every word are then merged in one numpy pass, and each word's
        `reads` and `writes` are Spans made from those columns when first read (every word's
        at once). Without the C validators every word goes through `info`'s path.
        DecodeError for the first word the generation does not decode."""
        from .vector import as_words

        self._executor_arg(executor)
        W = as_words(words)
        n = int(W.shape[0])
        if not n:
            return []
        structs = self.decoder.structs
        decodable = np.zeros(256, np.bool_)
        decodable[list(structs)] = True
        bad = ~decodable[W[:, 0]]
        if bad.any():
            self.decoder.decode(W[int(np.argmax(bad))].tobytes())  # raises, saying why
        # the distinct words, each worked out once
        V = np.ascontiguousarray(W).view(np.dtype((np.void, 64))).reshape(n)
        _, first, inverse = np.unique(V, return_index=True, return_inverse=True)
        D = W[first]
        ops = D[:, 0]
        # tens of objects a word (Spans, Semaphores, InstructionInfos, the engine's operands),
        # none in a cycle: the cyclic collector's passes over them all, again and again as
        # they pile up, were most of the cost (as in Executor._prepare); it runs again after
        was = gc.isenabled()
        gc.disable()
        try:
            events = self._events_batch(D)
            fps = self._footprints_batch(D, executor)
            status = {op: self.decoder.status(op) for op in np.unique(ops).tolist()}
            # each InstructionInfo made without the frozen dataclass's __init__ (its
            # object.__setattr__ a field is most of its cost): the same object, fields set
            new = object.__new__
            infos: list[InstructionInfo] = []
            for k, op in enumerate(ops.tolist()):
                st = status[op]
                known, why, reads, writes, regs = fps[k]
                waits, updates = events[k]
                inf = new(InstructionInfo)
                d = inf.__dict__
                (
                    d["opcode"], d["mnemonic"], d["struct"], d["status"],
                    d["footprint_known"], d["why"], d["reads"], d["writes"], d["registers"],
                    d["waits"], d["updates"],
                ) = (op, st.name, st.struct, st, known, why, reads, writes, regs, waits, updates)  # fmt: skip
                infos.append(inf)
            return [infos[k] for k in inverse.reshape(-1).tolist()]
        finally:
            if was:
                gc.enable()

    def _events_batch(
        self, D: npt.NDArray[np.uint8]
    ) -> list[tuple[tuple[Semaphore, ...], tuple[Semaphore, ...]]]:
        """`_events` of each row: its events fields read as columns (`layout.columns_reader`,
        the values `from_bytes` reads), a mode's name as `from_bytes` makes it."""
        from .layout import columns_reader

        none: tuple[tuple[Semaphore, ...], tuple[Semaphore, ...]] = ((), ())
        out = [none] * D.shape[0]
        ops = D[:, 0]
        for op in np.unique(ops).tolist():
            cls = self.decoder.structs[op]
            f = next((f for f in cls.LAYOUT if f.name == "events"), None)
            if f is None:
                continue
            rows = np.flatnonzero(ops == op)
            layout = {g.name: g for g in f.cls.LAYOUT}
            value = next((v for v in ("semaphore_value", "sem_wait_value") if v in layout), None)
            paths = ("wait_mode", "update_mode", "wait_idx", "update_idx") + (
                (value,) if value else ()
            )
            cols = columns_reader(f.cls, paths)(D[rows, f.offset : f.offset + f.size])
            wm, um = cols[0], cols[1]
            active = ((wm != 0) & (wm != 0xFF)) | ((um != 0) & (um != 0xFF))
            if not active.any():
                continue
            js = np.flatnonzero(active)
            vals = [c[js].tolist() for c in cols]
            if not value:
                vals.append([0] * js.size)
            # a mode's name as from_bytes reads it: the enum member's, else the value in hex
            wcls, ucls = layout["wait_mode"].cls, layout["update_mode"].cls
            wn = {w: _mode_name(wcls, w) for w in set(vals[0])}
            un = {u: _mode_name(ucls, u) for u in set(vals[1])}
            for j, w, u, wi, ui, v in zip(js.tolist(), *vals, strict=True):
                waits = (Semaphore(wn[w], wi, v),) if w not in (0, 0xFF) else ()
                updates = (Semaphore(un[u], ui, v),) if u not in (0, 0xFF) else ()
                out[int(rows[j])] = (waits, updates)
        return out

    def _footprints_batch(self, D: npt.NDArray[np.uint8], executor: Any) -> list[FootprintSpans]:
        """`_footprint` of each (distinct) row of D."""
        ex_cls = self.executor_cls
        if self._scratch is None:
            self._scratch = ex_cls(backend="numpy")
        batch = _Batch(D.shape[0])
        _set_state(self._scratch, executor)  # a refusal may read it (program.REFUSALS)
        self._admit_batch(D, batch)
        self._call_batch(batch, executor)
        self._share_refusals(batch, executor)
        out = batch.out
        for r in batch.reference:
            out[r] = self._footprint(D[r].tobytes(), executor)
        for rs in batch.shared.values():  # the refusal names the opcode, the operand, its value
            fp = self._footprint(D[rs[0]].tobytes(), executor)
            for r in rs:
                out[r] = fp
        spans = batch.walks.spans()
        for r, registers in batch.known:
            out[r] = (True, "", spans.get(2 * r, ()), spans.get(2 * r + 1, ()), registers)
        return out

    def _admit_batch(self, D: npt.NDArray[np.uint8], batch: _Batch) -> None:
        """Each row of D refused by its opcode, left to `info`'s path (not validated, or an
        operand value refused: once per opcode, operand and value), planned, or to call."""
        from .executor import program as prog

        ex_cls = self.executor_cls
        engine = self._scratch.engine
        ops = D[:, 0]
        c = ex_cls._validators.c
        valid = c.validate_batch(D) if c is not None and c.resolve("auto") == "c" else None
        for op in np.unique(ops).tolist():
            rows = np.flatnonzero(ops == op)
            if op in ex_cls.REFUSED:
                fp: FootprintSpans = (False, f"not executed: {ex_cls.REFUSED[op]}", (), (), ())
                for r in rows.tolist():
                    batch.out[r] = fp
                continue
            if valid is None:
                batch.reference += rows.tolist()
                continue
            batch.reference += rows[~valid[rows]].tolist()
            rows = rows[valid[rows]]
            if not rows.size:
                continue
            binder = ex_cls._batch_binder(op)
            cols, ok, refused_at, raw = binder.admit(D[rows])
            for j in np.flatnonzero(~ok).tolist():
                k = int(refused_at[j])
                at = binder.slots[k]
                cells = tuple(raw[i][j].tolist() for i in range(at.start, at.stop))
                batch.shared.setdefault((op, k, cells), []).append(int(rows[j]))
            fixed = dict(binder.fixed)
            planned = np.zeros(rows.size, np.bool_)
            planner = prog.PLANNED_WALKS.get(binder.record)
            if planner is not None:
                planned, pws = planner(engine, fixed, cols, rows.size)
                planned &= ok
                for pw in pws:
                    batch.walks.planned(rows[planned], pw, planned)
                batch.known += [(r, ()) for r in rows[planned].tolist()]
            rest = np.flatnonzero(ok & ~planned)
            refusals = prog.REFUSALS.get(binder.record)
            if refusals is not None and rest.size > 1:
                rest = self._refusal_groups(batch, binder.record, fixed, cols, rows, rest)
            if rest.size:
                batch.calls.append((binder.record, fixed, cols, rows, rest))

    def _refusal_groups(
        self,
        batch: _Batch,
        record: type[EngineOperands],
        fixed: dict[str, Any],
        cols: dict[str, Any],
        rows: npt.NDArray[np.int64],
        rest: npt.NDArray[np.int64],
    ) -> npt.NDArray[np.int64]:
        """`rest` (the rows to call) less the rows that raise as another one does: the rows of
        one key of the method's refusals (program.REFUSALS) but the first (`batch.followers`,
        given its error when it raises, else called). The rows to call, in order."""
        from .executor import program as prog

        keys = prog.REFUSALS[record](self._scratch.engine, fixed, cols, rows.size)[rest]
        claimed = keys[:, 0] >= 0
        if int(claimed.sum()) < 2:
            return rest
        js = rest[claimed]
        _, first, inverse = np.unique(keys[claimed], axis=0, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
        order = np.argsort(inverse, kind="stable")  # each key's rows together, the first first
        bounds = np.flatnonzero(np.diff(inverse[order])) + 1
        for group in np.split(js[order], bounds):
            if group.size > 1:
                batch.followers.append((record, fixed, cols, rows, int(group[0]), group[1:]))
        return np.sort(np.concatenate([rest[~claimed], js[first]]))

    def _share_refusals(self, batch: _Batch, executor: Any) -> None:
        """Each follower's footprint: its first row's error when that row raised reading no
        register (the error is a function of the key, which they share); else each is called."""
        again = []
        out = batch.out
        for record, fixed, cols, rows, first, follow in batch.followers:
            fp = out[int(rows[first])]
            if fp is not None and not fp[0] and not fp[4]:
                for r in rows[follow].tolist():
                    out[r] = fp
            else:
                again.append((record, fixed, cols, rows, follow))
        if again:
            batch.calls = again
            self._call_batch(batch, executor)

    def _call_batch(self, batch: _Batch, executor: Any) -> None:
        """The rows to call: each its Engine method on the scratch machine, recording the walks,
        stopped at the first kernel. The method itself, not `Engine.prepare` and the call that
        `info` makes: a `prepare_<method>` works out the method's own walks and checks ahead
        for its fast path, or hands back the method, which then does them again; either way
        the accesses, registers and errors are the method's (test_info_batch_is_info_of_each_word
        holds the two equal)."""
        from .executor import program as prog

        scratch = self._scratch
        engine = scratch.engine
        out = batch.out
        _set_state(scratch, executor)
        with _recording(engine) as (recorded, regs):
            for record, fixed, cols, rows, rest in batch.calls:
                keys = list(cols)
                # each operand's value of each row to call, then a row's operands zipped
                picked = [prog.values(cols[p], rest) for p in keys]
                for r, row in zip(rows[rest].tolist(), zip(*picked, strict=True), strict=True):
                    recorded.clear()
                    regs.clear()
                    try:
                        record(**fixed, **dict(zip(keys, row, strict=True))).run(engine)
                    except _Resolved:  # every access resolved, the state untouched
                        pass
                    except (ExecutorError, DtypeError) as e:
                        _set_state(scratch, executor)
                        why = f"{type(e).__name__}: {e}"
                        out[r] = (False, why, (), (), tuple(sorted(set(regs))))
                        continue
                    else:  # it ran to its end without a kernel (ImmLd): it changed the state
                        _set_state(scratch, executor)
                    registers = tuple(sorted(set(regs)))
                    if registers and executor is None:
                        why = f"addresses held in registers {list(registers)}: give executor="
                        out[r] = (False, why, (), (), registers)
                        continue
                    for what, w in recorded:
                        batch.walks.walk(r, what.startswith("dst"), w)
                    batch.known.append((r, registers))


FootprintSpans = tuple[bool, str, tuple[Span, ...], tuple[Span, ...], tuple[int, ...]]


class _Batch:
    """`info_batch`'s work on its distinct words: each row's footprint (`out`, None until
    known) and the rows still to work out, by how."""

    def __init__(self, m: int) -> None:
        self.out: list[Any] = [None] * m
        self.reference: list[int] = []  # rows worked out by `info`'s own path
        self.shared: dict[tuple[Any, ...], list[int]] = {}  # a refused operand value -> rows
        self.known: list[tuple[int, tuple[int, ...]]] = []  # (row, registers) known footprints
        self.walks = _Walks()
        # (operand record, fixed operands, columns, the opcode's rows, the ones to call)
        self.calls: list[
            tuple[
                type[EngineOperands],
                dict[str, Any],
                dict[str, Any],
                npt.NDArray[np.int64],
                npt.NDArray[np.int64],
            ]
        ] = []
        # rows that raise as another does: (record, fixed operands, columns, the opcode's rows,
        # that row, these rows), indices into the opcode's rows
        self.followers: list[
            tuple[
                type[EngineOperands], dict[str, Any], dict[str, Any], npt.NDArray[np.int64], int,
                npt.NDArray[np.int64],
            ]
        ] = []  # fmt: skip


def _mode_name(cls: Any, v: int) -> str:
    e = enum_or_int(cls, v) if cls is not None else v
    return str(getattr(e, "name", hex(int(e))))


_BATCH_BIG = np.int64(1 << 32)  # above any byte offset within a partition


class _Walks:
    """The walks of many words, as columns: (word row, whether written, region index,
    partition, partitions, item size) and the elements, `e0 + step * k` (k < count) for a plain
    stride, a list for a gather; `spans` merges them into each word's reads and writes."""

    def __init__(self) -> None:
        self.strides: list[npt.NDArray[np.int64]] = []  # (K, 9) blocks
        self.one: list[tuple[int, ...]] = []  # rows of the same, one walk each
        self.gathers: list[tuple[int, ...]] = []  # (K, 6) rows
        self.elements: list[npt.NDArray[np.int64]] = []  # each gather's elements
        # planned gathers: (K, 6) rows, each one's element count, their elements end to end
        self.gather_blocks: list[
            tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]
        ] = []

    def planned(self, rows: npt.NDArray[np.int64], pw: Any, mask: npt.NDArray[np.bool_]) -> None:
        """A program.PlannedWalk's rows `mask` (the words `rows`, one a row of `mask` set): a
        plain stride as one, a gather as its elements (`access.element_offsets` of each row's
        pattern, over all the rows at once)."""
        w = pw.walk
        if pw.active is not None:  # a walk only some of the rows make
            rows = rows[pw.active[mask]]
            mask = mask & pw.active
        gather = w.gather[mask]
        head = np.empty((rows.size, 6), np.int64)
        head[:, 0] = rows
        head[:, 1] = int(pw.writes)
        head[:, 2] = _REGIONS.index("sbuf") - w.region[mask]  # program's 0 is SBUF, 1 PSUM
        head[:, 3] = w.part[mask]
        head[:, 4] = pw.nparts[mask]
        head[:, 5] = pw.itemsize[mask]
        s = ~gather
        if s.any():
            block = np.empty((int(s.sum()), 9), np.int64)
            block[:, :6] = head[s]
            block[:, 6] = w.lo[mask][s] // head[s, 5]  # the lowest element (lo: its byte)
            block[:, 7] = np.abs(w.es[mask][s])
            block[:, 8] = w.count[mask][s]
            self.strides.append(block)
        if gather.any():
            nums = pw.nums[mask][gather]
            steps = pw.steps[mask][gather]
            count = w.count[mask][gather]
            at, k = _expand(count)
            off = np.zeros(at.size, np.int64)
            for d in range(nums.shape[1]):  # k in mixed radix, dimension 0 fastest
                n = nums[at, d]
                off += (k % n) * steps[at, d]
                k //= n
            self.gather_blocks.append((head[gather], count, w.elem0[mask][gather][at] + off))

    def walk(self, row: int, writes: bool, w: access.Walk) -> None:
        """One resolved `access.Walk` of word `row`."""
        if not w.count or not w.nparts:
            return
        region = _REGIONS.index(w.region.name.lower())
        if w.slc is not None:
            step = w.slc.step or 1
            e0 = w.elem0 if step > 0 else w.elem0 + step * (w.count - 1)
            self.one.append(
                (row, int(writes), region, w.partition, w.nparts, w.itemsize, e0, abs(step),
                 w.count)
            )  # fmt: skip
        else:
            assert w.offsets is not None
            self.gathers.append((row, int(writes), region, w.partition, w.nparts, w.itemsize))
            self.elements.append(w.elem0 + w.offsets)

    def runs(self) -> npt.NDArray[np.int64]:
        """(K, 7): (row, writes, region, partition, partitions, start, stop) of each run of
        consecutive bytes of each walk, before the walk's partitions are spread."""
        parts: list[npt.NDArray[np.int64]] = []
        blocks = self.strides + ([np.array(self.one, np.int64)] if self.one else [])
        if blocks:
            A = np.concatenate(blocks)
            A = A[A[:, 8] > 0]
            isz, e0, step, count = A[:, 5], A[:, 6], A[:, 7], A[:, 8]
            one = (step == 1) | (count == 1)
            R = np.empty((int(one.sum()), 7), np.int64)
            R[:, :5] = A[one, :5]
            R[:, 5] = e0[one] * isz[one]
            R[:, 6] = (e0[one] + (count[one] - 1) * step[one] + 1) * isz[one]
            parts.append(R)
            M = A[~one]  # a stride of more than one element: each element a run of its own
            if len(M):
                cnt = M[:, 8]
                at, k = _expand(cnt)
                R = np.empty((at.size, 7), np.int64)
                R[:, :5] = M[at, :5]
                R[:, 5] = (M[at, 6] + M[at, 7] * k) * M[at, 5]
                R[:, 6] = R[:, 5] + M[at, 5]
                parts.append(R)
        if self.gathers or self.gather_blocks:
            heads = [np.array(self.gathers, np.int64).reshape(-1, 6)]
            sizes_l = [np.array([e.size for e in self.elements], np.int64)]
            elements = list(self.elements)
            for head, count, elems in self.gather_blocks:
                heads.append(head)
                sizes_l.append(count)
                elements.append(elems)
            G = np.concatenate(heads)
            sizes = np.concatenate(sizes_l)
            at = np.repeat(np.arange(len(G), dtype=np.int64), sizes)
            keys = np.unique((at << 32) | np.concatenate(elements))
            at, e = keys >> 32, keys & 0xFFFFFFFF
            new = np.ones(keys.size, np.bool_)
            new[1:] = (at[1:] != at[:-1]) | (e[1:] != e[:-1] + 1)
            first = np.flatnonzero(new)
            last = np.append(first[1:] - 1, keys.size - 1)
            isz = G[at[first], 5]
            R = np.empty((first.size, 7), np.int64)
            R[:, :5] = G[at[first], :5]
            R[:, 5] = e[first] * isz
            R[:, 6] = (e[last] + 1) * isz
            parts.append(R)
        return np.concatenate(parts) if parts else np.zeros((0, 7), np.int64)

    def spans(self) -> dict[int, Any]:
        """2 * row + writes -> the word's merged Spans (what `_merged` and `_spans` make of one
        word's runs), for every word with a run: a `_Pending`, the Spans of every word made
        together when the first is read.

        Every partition of a walk has the same runs, so the runs are merged once for each
        stretch of partitions the same walks of a word cover (the partitions between two of
        the word's walks' first or past-the-last partitions), then spread over its partitions:
        the merge's cost is the walks', not the partitions'."""
        R = self.runs()
        if not len(R):
            return {}
        # (word, writes, region) and partition as one key; the stretches' bounds, sorted
        part_bits = max(int((R[:, 3] + R[:, 4]).max()).bit_length(), 1)
        gkey = (R[:, 0] * 2 + R[:, 1]) * 2 + R[:, 2]
        k0 = (gkey << part_bits) + R[:, 3]
        k1 = k0 + R[:, 4]
        bounds = np.unique(np.concatenate([k0, k1]))
        i0 = np.searchsorted(bounds, k0)
        width = np.searchsorted(bounds, k1) - i0  # the stretches a walk's run covers
        at, within = _expand(width)
        stretch = i0[at] + within
        start, stop = R[at, 5], R[at, 6]
        # sorted by stretch and start (the order of stops that start alike does not change
        # the merge): one key when it fits in 62 bits
        sbits = max(int(start.max()).bit_length(), 1)
        if int(stretch.max()).bit_length() + sbits <= 62:
            o = np.argsort((stretch << sbits) | start)
        else:
            o = np.lexsort((start, stretch))
        stretch, start, stop = stretch[o], start[o], stop[o]
        key = np.ones(stretch.size, np.bool_)
        key[1:] = stretch[1:] != stretch[:-1]
        d = np.cumsum(key) * _BATCH_BIG
        lo, hi = start + d, stop + d
        reach = np.maximum.accumulate(hi)
        new = np.ones(stretch.size, np.bool_)
        new[1:] = lo[1:] > reach[:-1]
        first = np.flatnonzero(new)
        stretch, start = stretch[first], start[first]
        stop = np.maximum.reduceat(hi, first) - d[first]
        # each stretch's merged runs, partition by partition
        block = np.flatnonzero(np.r_[True, stretch[1:] != stretch[:-1]])
        runs_in = np.diff(np.r_[block, stretch.size])
        s_of = stretch[block]
        parts_in = bounds[s_of + 1] - bounds[s_of]
        size = runs_in * parts_in
        b, local = _expand(size)
        q = local // runs_in[b]
        src = block[b] + (local - q * runs_in[b])
        g = bounds[s_of] >> part_bits
        partition = (bounds[s_of] & ((1 << part_bits) - 1))[b] + q
        seg, region = (g >> 1)[b], (g & 1)[b]
        columns = _SpanColumns(region, partition, start[src], stop[src])
        edges = np.flatnonzero(np.diff(seg)) + 1
        lo_b = [0, *edges.tolist()]
        hi_b = [*edges.tolist(), seg.size]
        pending = map(tuple.__new__, repeat(_Pending), zip(repeat(columns), lo_b, hi_b))
        return dict(zip(seg[lo_b].tolist(), pending, strict=True))
