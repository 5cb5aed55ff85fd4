"""numpy support for the generated batch modules: column reads out of an (N, 64) uint8 array
for the translated predicates, and the batch validate / decode drivers."""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from .codec import as_bytes
from .cvalidators import BackendUnavailable, CValidators

Words = npt.NDArray[np.uint8]


def as_words(words: Any) -> Words:
    """An (N, 64) C-contiguous uint8 array from a byte stream (bytes, bytearray, memoryview), an
    (N, 64) or flat uint8 array, or a sequence of words (anything `as_bytes` takes)."""
    if isinstance(words, (bytes, bytearray, memoryview)):
        arr = np.frombuffer(bytes(words), dtype=np.uint8)
        if arr.size % 64:
            raise ValueError(f"words: {arr.size} bytes is not a whole number of 64-byte words")
        return arr.reshape(-1, 64)
    if isinstance(words, np.ndarray):
        if words.dtype.kind in "iu" and words.dtype.itemsize != 1:
            if words.size and (words.min() < 0 or words.max() > 255):
                raise ValueError(f"words: given as {words.dtype} hold values outside 0..255")
            words = words.astype(np.uint8)
        elif words.dtype.itemsize != 1 and words.dtype.kind != "V":
            raise TypeError(f"words: given as an array are uint8 bytes, not {words.dtype}")
        if words.dtype.kind == "V":
            words = np.frombuffer(np.ascontiguousarray(words).tobytes(), dtype=np.uint8)
        arr = np.ascontiguousarray(words).view(np.uint8)
        if arr.ndim == 1:
            if arr.size % 64:
                raise ValueError(f"words: {arr.size} bytes is not a whole number of 64-byte words")
            arr = arr.reshape(-1, 64)
        if arr.ndim != 2 or arr.shape[1] != 64:
            raise ValueError(f"words: expected shape (N, 64), got {arr.shape}")
        return arr
    if not isinstance(words, Iterable) or isinstance(words, str):
        raise TypeError(
            "words: a byte stream, an (N, 64) uint8 array or a sequence of words, "
            f"not {type(words).__name__}"
        )
    parts = []
    for i, w in enumerate(words):
        b = as_bytes(w, f"words[{i}]")
        if len(b) != 64:
            raise ValueError(f"words: word {i} has {len(b)} bytes, not 64")
        parts.append(b)
    return as_words(b"".join(parts))


class ReadPlan:
    """How often one run of a translated top-level validator reads each of its columns and
    memoised answers, so that a run on other rows drops each the moment its last read is done
    instead of at the end of the run. A column is named by its (offset, dtype), an answer by
    its function and arguments, an array argument by the number of the column or answer it is
    (passing one on is a read of it): names that do not depend on the rows, numbered in the
    order first read (`number`). `BatchValidators` learns a validator's plan from a run on rows
    of its own; a `Cols` without a learnt plan learns one, keeping everything for its run (as
    `chains` runs its terms). A plan is a forecast, never an answer: a read past the count (a
    loop that runs longer on other rows) computes the value again, a count not reached keeps
    the value to the end of the run; the verdicts are the same either way."""

    __slots__ = ("learnt", "names", "reads", "row_bytes")

    def __init__(self) -> None:
        self.names: dict[Any, int] = {}
        self.reads: list[int] = []  # by number: the reads of it in the run learnt from
        self.learnt = False
        #: the most bytes a row a run with the plan held at once in its columns and memoised
        #: answers (read straight from the words: no transposed copy; the values in flight
        #: between two calls are not in it)
        self.row_bytes = 0.0

    def number(self, name: Any) -> int:
        k = self.names.get(name)
        if k is None:
            k = self.names[name] = len(self.reads)
            self.reads.append(0)
        return k


class Cols:
    """The words of one batch (`rows` of `W`, or all of it) as contiguous columns, each made
    on its first read and kept (read-only) until its last: a translated predicate reads a field
    as a contiguous array, never a 64-byte-strided or gathered one, and makes it once however
    many terms name it. A batch of more than TRANSPOSED rows reads its columns out of the
    words' eight 8-byte columns (`t`), gathered and transposed at once on the first read (a
    field inside one of them is an every-8th-element view of it, cheap to copy); a smaller one
    straight from the words (as fast there, without the transposed copy's 64 bytes a row).
    `memo` holds the answers of translated functions called again with the same arguments (see
    `memo`) until their last read, which `plan` (a `ReadPlan`) forecasts; `shape` is
    (rows, 64)."""

    __slots__ = (
        "_W",
        "_cols",
        "_held",
        "_home",
        "_left",
        "_names",
        "_owned",
        "_rows",
        "_t",
        "_unplanned",
        "memo",
        "peak",
        "plan",
        "shape",
    )

    #: a batch of more rows than this reads its columns from the transposed words (`t`): at
    #: 2^15 rows a column costs half as much from them, at 4,096 and below as much either way
    TRANSPOSED = 8192

    def __init__(
        self, W: Words, rows: npt.NDArray[np.intp] | None = None, plan: ReadPlan | None = None
    ) -> None:
        self._W = np.ascontiguousarray(W)
        self._rows = rows
        self.shape = (self._W.shape[0] if rows is None else rows.size, 64)
        self._cols: dict[tuple[int, str], Any] = {}
        self._t: dict[int, Any] = {}
        # id -> [array, its plan number, how many columns and answers it is]: the arrays a
        # memo key names, by number
        self._owned: dict[int, list[Any]] = {}
        self._home: dict[int, tuple[dict[Any, Any], Any]] = {}  # plan number -> where it is kept
        self.memo: dict[tuple[Any, ...], Any] = {}
        self.plan = plan if plan is not None else ReadPlan()
        self._names = self.plan.names
        self._left = self.plan.reads.copy() if self.plan.learnt else None  # None: learning
        self._unplanned: dict[Any, int] = {}  # names a learnt plan never saw: numbers past it
        self._held = 0  # bytes of the columns, transposed words and answers kept
        self.peak = 0  # the most of them at once

    @property
    def W(self) -> Words:
        """The batch's words as an (N, 64) array (a copy of the rows when there is a selection)."""
        if self._rows is not None:  # made once, on the first per-row gather that needs it
            self._W = np.take(self._W.view(np.uint64), self._rows, axis=0).view(np.uint8)
            self._rows = None  # the columns read so far are of these rows, in this order
            self._grow(self._W.nbytes)
        return self._W

    def _number(self, name: Any) -> int:
        """The plan number of `name`: learning, the plan's (numbered now if new); with a learnt
        plan, one past the plan's numbers for a name it never saw, this run's own (a learnt
        plan is shared by every run of its validator, in any thread: it is never changed)."""
        if self._left is None:
            return self.plan.number(name)
        k = self.plan.names.get(name)
        if k is None:
            k = self._unplanned.get(name)
            if k is None:
                k = self._unplanned[name] = len(self.plan.reads) + len(self._unplanned)
        return k

    def _read(self, k: int) -> int:
        """Note a read of plan number `k`; the reads of it left after this one (0: drop it
        now, -1: past its count, or never counted; learning: 1, keep everything)."""
        if self._left is None:
            self.plan.reads[k] += 1
            return 1
        if k >= len(self._left):  # a name the run the plan was learnt from never read
            return -1
        left = self._left[k] - 1
        self._left[k] = left
        if left < 0:
            return -1
        if not left and k in self._home:
            where, key = self._home.pop(k)
            self._release(where.pop(key))
        return left

    def _keep(self, k: int, where: dict[Any, Any], key: Any, value: Any) -> None:
        """Keep `value` (plan number `k`) in `where` under `key` until its last read."""
        where[key] = value
        self._home[k] = (where, key)
        if not isinstance(value, np.ndarray):
            return
        entry = self._owned.get(id(value))
        if entry is not None and entry[0] is value:
            entry[2] += 1
            return
        self._owned[id(value)] = [value, k, 1]
        self._grow(value.nbytes)

    def _release(self, value: Any) -> None:
        entry = self._owned.get(id(value))
        if entry is not None and entry[0] is value:
            entry[2] -= 1
            if not entry[2]:
                del self._owned[id(value)]
                self._held -= value.nbytes

    def _grow(self, nbytes: int) -> None:
        self._held += nbytes
        self.peak = max(self.peak, self._held)

    def t(self, j: int) -> Any:
        """Bytes [8j, 8j+8) of every word, as one contiguous uint64 array (its memory the
        words' own bytes, in order)."""
        c = self._t.get(j)
        if c is None:
            # all eight at once: the rows gathered whole (one pass over their bytes) and
            # transposed, cheaper than eight strided passes over the words
            W = self._W.view(np.uint64)
            T = np.ascontiguousarray((W if self._rows is None else W.take(self._rows, axis=0)).T)
            self._t = {k: T[k] for k in range(8)}
            self._grow(T.nbytes)
            c = self._t[j]
        return c

    def col(self, off: int, dtype: str) -> Any:
        """Bytes [off, off+itemsize) of every word as one contiguous `dtype` array."""
        key = (off, dtype)
        k = self._names.get(key)
        if k is None:
            k = self._number(key)
        c = self._cols.get(key)
        if c is None:
            c = self._column(off, np.dtype(dtype))
            c.flags.writeable = False
            if self._read(k) > 0:
                self._keep(k, self._cols, key, c)
            return c
        self._read(k)
        return c

    def _column(self, off: int, dt: np.dtype[Any]) -> Any:
        size = dt.itemsize
        if off % size or off % 8 + size > 8:  # across an 8-byte boundary, or unaligned
            buf = np.empty((self.shape[0], size), dtype=np.uint8)
            for k in range(size):
                buf[:, k] = self.col(off + k, "u1")
            return buf.view(dt)[:, 0]
        j = off // 8
        left = self._read(self._number(("t", j)))  # a read of the transposed column j
        if self.shape[0] <= self.TRANSPOSED:
            v = self._W.view(dt)[:, off // size]
            return v.copy() if self._rows is None else v[self._rows]
        c = np.ascontiguousarray(self.t(j).view(dt)[(off % 8) // size :: 8 // size])
        if not left:  # the last column read out of it: it goes with the last of the eight
            del self._t[j]
            if not self._t:
                self._held -= 64 * self.shape[0]
        return c

    def named(self, a: Any) -> int | None:
        """The plan number of `a` when the batch keeps it (a column or a memoised answer), the
        passing on of it read; None for any other array."""
        entry = self._owned.get(id(a))
        if entry is None or entry[0] is not a:
            return None
        k: int = entry[1]
        self._read(k)
        return k

    def recall(self, key: tuple[Any, ...], fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """`fn(*args)`, kept under `key` (the batch's `memo`) until its last planned read."""
        k = self._names.get(key)
        if k is None:
            k = self._number(key)
        out = self.memo.get(key)
        if out is not None:
            self._read(k)
            return out
        out = fn(*args)
        if isinstance(out, np.ndarray):
            out.flags.writeable = False
        if self._read(k) > 0:
            self._keep(k, self.memo, key, out)
        return out


def _uniform(off: Any) -> int | None:
    """A per-row offset array that holds one value (a loop index every lane shares), as that int."""
    a = np.asarray(off)
    if a.ndim == 0:
        return int(a)
    if a.size and a[0] == a[-1] and a.min() == a.max():
        return int(a[0])
    return None


def byte(W: Words | Cols, off: Any) -> Any:
    """Byte `off` of every row; `off` is one offset or one per row (a struct passed by value
    from an array element chosen at run time)."""
    if isinstance(off, (int, np.integer)):
        return W.col(int(off), "u1") if isinstance(W, Cols) else W[:, off]
    return gather(W, off, 1)


def col(W: Words | Cols, off: Any, size: int) -> Any:
    """The little-endian unsigned integer in bytes [off, off+size) of every row; a size numpy has
    no integer for (the 3, 5, 6 or 7 bytes a wide bitfield spans) is assembled byte by byte into
    the next wider unsigned integer."""
    if size in (1, 2, 4, 8):
        return colv(W, off, f"<u{size}")
    if not isinstance(off, (int, np.integer)):
        return gather(W, off, size)
    if isinstance(W, Cols):
        W = W.W
    wide = np.dtype("<u4" if size < 4 else "<u8")
    out = np.zeros(W.shape[0], dtype=wide)
    for k in range(size):
        out |= W[:, off + k].astype(wide) << wide.type(8 * k)
    return out


def colv(W: Words | Cols, off: Any, dtype: str) -> Any:
    """Bytes [off, off+itemsize) of every row as `dtype`: a strided view when the field is
    aligned to its size (no copy), a copy of the column bytes otherwise, a gather when the
    offset differs per row."""
    size = np.dtype(dtype).itemsize
    if not isinstance(off, (int, np.integer)):
        return gather_as(W, off, size, dtype)
    if isinstance(W, Cols):
        return W.col(int(off), dtype)
    if off % size == 0 and W.flags.c_contiguous:
        return W.view(dtype)[:, off // size]
    return np.ascontiguousarray(W[:, off : off + size]).view(dtype)[:, 0]


def gather(W: Words | Cols, off: Any, size: int) -> Any:
    """Bytes [off, off+size) of each row at a per-row offset, as an unsigned integer (offsets are
    clipped into the row: lanes where C would not have read are discarded by the caller). On
    `Cols`, an offset every row shares (a loop index) reads the column instead."""
    if isinstance(W, Cols):
        one = _uniform(off)
        if one is not None and 0 <= one <= W.shape[1] - size:
            return col(W, one, size)
        W = W.W
    rows = np.arange(W.shape[0])
    off = np.clip(
        np.broadcast_to(np.asarray(off, dtype=np.int64), (W.shape[0],)), 0, W.shape[1] - size
    )
    out = np.zeros(W.shape[0], dtype=np.uint64)
    for k in range(size):
        out |= W[rows, off + k].astype(np.uint64) << np.uint64(8 * k)
    return out.astype(f"<u{size}") if size in (1, 2, 4, 8) else out


def gather_as(W: Words | Cols, off: Any, size: int, dtype: str) -> Any:
    return np.asarray(gather(W, off, size)).astype(f"<u{size}").view(dtype)


class Members:
    """A set of integers a translated predicate tests a value against (an `is_valid_enum_*`
    switch, a chain of `==` terms, a switch case's labels): tested as a few ranges (two
    comparisons each, no copy) or, when it has more ranges and lies in 0..255, as one 256-entry
    table indexed by the byte itself."""

    __slots__ = ("ranges", "table", "tests")

    def __init__(self, values: tuple[int, ...]) -> None:
        ranges: list[list[int]] = []
        for v in sorted(set(values)):
            if ranges and v == ranges[-1][1] + 1:
                ranges[-1][1] = v
            else:
                ranges.append([v, v])
        self.ranges = tuple((lo, hi) for lo, hi in ranges)
        self.table: npt.NDArray[np.bool_] | None = None
        self.tests: dict[Any, Any] = {}  # dtype -> its range tests (vector._range_tests)
        if len(self.ranges) > 4 and self.ranges[0][0] >= 0 and self.ranges[-1][1] <= 255:
            self.table = np.zeros(256, dtype=np.bool_)
            self.table[sorted(set(values))] = True


def isin(v: Any, m: Members) -> Any:
    """Is each lane of the integer `v` in `m`?"""
    a = np.asarray(v)
    if a.dtype == np.bool_:
        a = a.view(np.uint8)
    if m.table is not None:
        if a.dtype == np.uint8:
            return m.table.take(a)
        return (a >= 0) & (a <= 255) & m.table.take(np.clip(a, 0, 255))
    tests = m.tests.get(a.dtype)
    if tests is None:
        tests = m.tests[a.dtype] = _range_tests(m.ranges, a.dtype)
    if tests is True:
        return np.ones(a.shape, dtype=np.bool_)
    out: Any = None
    for lo, hi in tests:
        if lo is None:
            t = a <= hi
        elif hi is None:
            t = a >= lo
        elif lo == hi:
            t = a == lo
        else:
            t = (a >= lo) & (a <= hi)
        out = t if out is None else out | t
    return np.zeros(a.shape, dtype=np.bool_) if out is None else out


def _range_tests(ranges: tuple[tuple[int, int], ...], dtype: Any) -> Any:
    """`ranges` clipped to the integer `dtype`, as (lo, hi) bounds of typed scalars (None: no
    bound on that side); True when one range holds every value of the type."""
    info = np.iinfo(dtype)
    typ = np.dtype(dtype).type
    out: list[tuple[Any, Any]] = []
    for lo, hi in ranges:
        lo, hi = max(lo, int(info.min)), min(hi, int(info.max))
        if lo > hi:
            continue  # no value of this type is in the range
        if lo == int(info.min) and hi == int(info.max):
            return True
        out.append(
            (None if lo == int(info.min) else typ(lo), None if hi == int(info.max) else typ(hi))
        )
    return out


def lookup(v: Any, table: Any, default: Any) -> Any:
    """`table[v]` for each lane of the integer `v` (a switch whose every case returns a
    constant), `default` where `v` is outside the table's 0..255."""
    a = np.asarray(v)
    if a.dtype == np.uint8:
        return table.take(a)
    return np.where((a >= 0) & (a <= 255), table.take(np.clip(a, 0, 255)), default)


def fill(x: Any, n: int, dtype: Any) -> Any:
    """A local's new value in every lane: `x` itself when it already is n values of `dtype` (no
    copy: values are never changed in place), else `x` broadcast to n lanes and converted."""
    a = np.asarray(x)
    if a.dtype == dtype and a.shape == (n,):
        return a
    return np.broadcast_to(a, (n,)).astype(dtype)


def select(m: Any, a: Any, b: Any) -> Any:
    """`np.where(m, a, b)` (same values, same dtype) without its branch per lane: for bool and
    integer results, `b ^ ((a ^ b) & mask)` (np.where on a random mask costs 20-30x the
    bitwise form); float results use np.where."""
    dt = np.result_type(a, b)
    m = np.asarray(m)
    if m.dtype != np.bool_:
        m = m != 0
    if dt == np.bool_:
        return np.bitwise_xor(b, np.bitwise_and(np.bitwise_xor(a, b), m))
    if dt.kind in "iu":
        ones = m.astype(dt)
        np.negative(ones, out=ones)  # 0 or all ones
        return np.bitwise_xor(b, np.bitwise_and(np.bitwise_xor(a, b), ones)).astype(dt, copy=False)
    return np.where(m, a, b)


def all_of(*terms: Any) -> Any:
    """A C `&&` chain over lanes: each term's truth, and-ed left to right (no lane short-circuits:
    the translated terms are total)."""
    out = terms[0]
    for t in terms[1:]:
        out = np.logical_and(out, t)
    return out


def any_of(*terms: Any) -> Any:
    """A C `||` chain over lanes (see all_of)."""
    out = terms[0]
    for t in terms[1:]:
        out = np.logical_or(out, t)
    return out


def vdiv(a: Any, b: Any) -> Any:
    """C division (truncating) on integer arrays; a zero divisor yields 0 in that lane."""
    a = np.asarray(a)
    b = np.asarray(b)
    safe = np.where(b == 0, np.ones_like(b), b)
    if np.issubdtype(a.dtype, np.signedinteger):
        q = np.abs(a) // np.abs(safe)
        q = np.where((a < 0) != (safe < 0), -q, q)
    else:
        q = a // safe
    return np.where(b == 0, np.zeros_like(q), q).astype(np.result_type(a, b))


def fdiv(a: Any, b: Any) -> Any:
    """IEEE division of float arrays, as C's: by zero an infinity or NaN, without numpy's warning."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.divide(a, b)


def vmod(a: Any, b: Any) -> Any:
    a = np.asarray(a)
    b = np.asarray(b)
    if np.issubdtype(a.dtype, np.floating):
        return np.fmod(a, b)
    safe = np.where(b == 0, np.ones_like(b), b)
    return (a - safe * vdiv(a, safe)).astype(np.result_type(a, b))


VectorCheck = Callable[[Any, int], Any]  # a translated top-level validator over (N, 64) words

F = TypeVar("F", bound=Callable[..., Any])


_BATCH: contextvars.ContextVar[Cols | None] = contextvars.ContextVar("tpb_isa_batch", default=None)


def memo(fn: F) -> F:
    """A translated function called again with the same arguments in one batch answers from the
    batch's `Cols.memo` instead of evaluating again (the headers' predicates share helpers: one
    validator calls its tensor checks two or three times over, and every check its dtype
    helpers). An argument is part of the key by value (an offset, a numpy scalar) or, for an
    array, only when the batch keeps it (one of its columns or a memoised answer), by its
    number in the batch's `ReadPlan`; any other array argument evaluates as usual, and so does
    every call outside a batch (`batch()`). The functions are pure, so a memoised answer is the
    answer; it is read-only, shared by every caller, and kept until its last planned read."""
    name = fn.__name__

    def wrapper(*args: Any) -> Any:
        cols = _BATCH.get()
        if cols is None:
            return fn(*args)
        key: list[Any] = [name]
        for a in args:
            if isinstance(a, np.ndarray):
                k = cols.named(a)
                if k is None:
                    return fn(*args)
                key.append(k)
            elif isinstance(a, Cols):
                key.append(None if a is cols else id(a))
            elif isinstance(a, (int, float, np.generic)):
                key.append((type(a), a))
            else:
                return fn(*args)
        return cols.recall(tuple(key), fn, args)

    wrapper.__name__ = name
    wrapper.__doc__ = fn.__doc__
    return cast(F, wrapper)


def rowwise(scalar: Callable[[bytes, int], Any]) -> VectorCheck:
    """A top-level validator whose C recurses, as a batch check that runs its scalar
    translation word by word. The recursion ends in C (and in the scalar translation) because
    `&&`, `||` and `?:` evaluate one side only; a batch evaluates both sides for every word, so
    its recursion would not end."""

    def check(words: Any, offset: int) -> npt.NDArray[np.bool_]:
        W = words.W if isinstance(words, Cols) else as_words(words)
        return np.fromiter(
            (bool(scalar(W[i].tobytes(), offset)) for i in range(W.shape[0])),
            dtype=np.bool_,
            count=W.shape[0],
        )

    check.__name__ = getattr(scalar, "__name__", "rowwise")
    return check


def run_batch(check: VectorCheck, words: Words | Cols) -> npt.NDArray[np.bool_]:
    """One translated top-level validator over (N, 64) words (or a `Cols` of them), as a
    batch: contiguous columns, answers memoised for the batch, C's float semantics; one verdict
    per word."""
    cols = words if isinstance(words, Cols) else Cols(words)
    token = _BATCH.set(cols)
    try:
        with ieee():
            verdict = np.asarray(check(cols, 0), dtype=np.bool_)
    finally:
        _BATCH.reset(token)
    return np.broadcast_to(verdict, (cols.shape[0],))


def ieee() -> Any:
    """Float arithmetic in the translated bodies is C's, IEEE: an overflow to inf, a division by
    zero, a NaN are results there, not events to warn about."""
    return np.errstate(over="ignore", divide="ignore", invalid="ignore")


class BatchValidators:
    """`validate_batch` / `run_validator_batch` over one generation's vectorised validators.

    `top_level` maps each top-level validator to the opcodes its gate admits; `vector` each one
    to its translated array function."""

    def __init__(
        self,
        top_level: Mapping[str, tuple[int, ...]],
        vector: Mapping[str, VectorCheck],
        c: CValidators | None = None,
        scalar: Callable[[bytes], bool] | None = None,
        by_opcode: Sequence[Sequence[Callable[[bytes, int], Any]]] | None = None,
    ) -> None:
        self.top_level = top_level
        self.vector = vector
        self.c = c  # the generation's headers compiled (cvalidators.py), when it ships them
        self.scalar = scalar  # the scalar `validate`, for backend="python"
        # what `validate` runs on a word of each opcode byte (Validators.by_opcode): the words
        # the numpy backend leaves to the scalar translation are checked with these directly
        self.by_opcode = by_opcode
        self._gates: dict[str, npt.NDArray[np.bool_]] = {}  # validator -> opcode byte -> runs it
        self._gated: npt.NDArray[np.bool_] | None = None  # opcode byte -> some validator runs it
        self._plans: dict[str, ReadPlan] = {}  # validator -> its reads (see `_plan`)

    def backend(self, backend: str = "auto") -> str:
        """The backend `validate_batch(..., backend)` runs: "c", "numpy" or "python"."""
        if self.c is not None:
            return self.c.resolve(backend)
        if backend in ("auto", "numpy", "python"):
            return "numpy" if backend == "auto" else backend
        raise BackendUnavailable(f"backend {backend!r}: this generation ships no C validators")

    def validate_batch(self, words: Any, backend: str = "auto") -> npt.NDArray[np.bool_]:
        """One verdict per 64-byte word: the same answer `validate` gives for each. `backend`:
        "auto" (C when it builds here, else numpy), "c", "numpy" or "python"."""
        W = as_words(words)
        chosen = self.backend(backend)
        if chosen == "c":
            assert self.c is not None
            return self.c.validate_batch(W)
        if chosen == "python":
            assert self.scalar is not None
            return np.fromiter(
                (self.scalar(W[i].tobytes()) for i in range(W.shape[0])),
                dtype=np.bool_,
                count=W.shape[0],
            )
        # the bytes a validator's piece may hold (see TEMPORARIES)
        allowance = self.TEMPORARIES * W.nbytes - self.DISPATCH_BYTES
        if self.scalar is not None and (
            W.shape[0] < self.SCALAR_BELOW or allowance < self.SCALAR_BELOW * self.ROW_SLACK
        ):
            # no opcode can have SCALAR_BELOW words, or no validator's pieces could hold
            # SCALAR_BELOW rows (each row holds ROW_SLACK bytes at least): every word through
            # the scalar translation, as `_numpy_chunk` would run them (a word no validator
            # gates is False in both), without its opcode counts and row indices
            return self._scalar_rows(W, None)
        out = np.zeros(W.shape[0], dtype=np.bool_)
        # in chunks of words, each validator on its rows of a chunk in pieces (see ROWS and
        # TEMPORARIES), so that the temporaries stay bounded whatever the batch
        for lo in range(0, W.shape[0], self.CHUNK):
            self._numpy_chunk(W[lo : lo + self.CHUNK], out[lo : lo + self.CHUNK], allowance)
        return out

    #: an opcode with fewer words than this in a chunk is validated word by word by the scalar
    #: translation (the same verdicts): a translated validator issues a few hundred numpy calls
    #: whatever its rows, 0.3-1.3 ms, where a word costs the scalar code ~3.5-4 us since its
    #: helpers are inlined (6.5 us before: 128 then); the first of mariana's seven breaks even
    #: at ~250 words, 1,000 mixed words (~140 an opcode) take 3.6 ms by scalar, 4.9 ms at 128.
    #: So are the words of a validator whose pieces (see TEMPORARIES) would be smaller than this
    SCALAR_BELOW = 192

    #: words a chunk of the numpy backend holds (8 MiB of words; its opcode bytes and row
    #: indices are ~1 MiB)
    CHUNK = 1 << 17

    #: words the scalar translation's rows are copied out in at once (128 B): the copy stays
    #: small beside any batch (100 words: 0.22x their bytes in all; 16 words, 0.48x), at no
    #: measurable cost (a word's own `tobytes` costs ~0.3 us more than a slice)
    SCALAR_ROWS = 2

    #: rows one translated validator runs on at once at most: its working set, a few dozen
    #: bytes a row (the columns and memoised answers it still reads, its values in flight),
    #: stays a few MiB
    ROWS = 1 << 15

    #: the share of the batch's bytes a validator's piece may hold (its plan's `row_bytes` and
    #: ROW_SLACK a row): pieces are made that small, down to SCALAR_BELOW rows, below which the
    #: rows go to the scalar translation; the rest of 0.25x is the dispatch's own arrays (an
    #: opcode byte, a mask byte and a verdict a word, the row indices of one validator)
    TEMPORARIES = 0.15

    #: bytes of that share the dispatch of a chunk holds itself whatever its words (its opcode
    #: counts and tables, a scalar word's bytes and row indices): ~7 KiB at 300-3,000 words
    DISPATCH_BYTES = 8192

    #: bytes a row a translated validator holds beyond its plan's `row_bytes`: the values in
    #: flight (a chain's terms before they are and-ed, a select's masks); mariana's seven
    #: validators on 1,000 and 4,000 of their words held 36-56 bytes a row more than their
    #: plans' `row_bytes` at their peaks (tracemalloc)
    ROW_SLACK = 48

    #: rows the plan of a validator is learnt from (`_plan`): random words under its opcodes
    PROBE_ROWS = 64

    def _plan(self, name: str) -> ReadPlan:
        """Validator `name`'s `ReadPlan`, learnt on its first use from PROBE_ROWS random words
        (a fixed seed) under the opcodes its gate admits: one run counting its reads, one with
        them for the bytes a row it holds."""
        plan = self._plans.get(name)
        if plan is None:
            plan = ReadPlan()
            W = np.random.default_rng(0).integers(0, 256, (self.PROBE_ROWS, 64), dtype=np.uint8)
            gate = np.asarray(self.top_level[name] or (0,), dtype=np.uint8)
            W[:, 0] = np.resize(gate, W.shape[0])
            check = self.vector[name]
            run_batch(check, Cols(W, plan=plan))
            plan.learnt = True
            cols = Cols(W, plan=plan)
            run_batch(check, cols)
            plan.row_bytes = cols.peak / W.shape[0]
            self._plans[name] = plan
        return plan

    def _piece_rows(self, name: str, n: int, allowance: float) -> int:
        """The rows validator `name` runs on at once, of its `n` rows in a chunk: at most ROWS,
        and few enough that its working set stays within `allowance` bytes (without a scalar
        translation to leave smaller pieces' rows to, SCALAR_BELOW at least)."""
        if n <= 1:
            return max(n, 1)
        per_row = self._plan(name).row_bytes + self.ROW_SLACK
        rows = int(allowance // per_row)
        if rows > Cols.TRANSPOSED:  # read out of the transposed words: 64 bytes a row more
            rows = max(Cols.TRANSPOSED, int(allowance // (per_row + 64)))
        if self.scalar is None:
            rows = max(rows, self.SCALAR_BELOW)
        return max(1, min(rows, self.ROWS, n))

    def _numpy_chunk(self, W: Words, out: npt.NDArray[np.bool_], allowance: float) -> None:
        """The numpy backend's verdicts on W, or-ed into `out` (a view of the batch's)."""
        ops = np.ascontiguousarray(W[:, 0])
        counts = np.bincount(ops, minlength=256)
        few = self._few(counts, allowance)
        # each validator's rows in the array code (its gate's words the scalar code leaves)
        rows_of = {
            name: int(counts[self._gate(name) if few is None else self._gate(name) & ~few].sum())
            for name, opcodes in self.top_level.items()
            if opcodes  # a validator with no gate is not dispatched (its generation says so)
        }
        del counts
        by_scalar = None
        if few is not None:  # word by word through the scalar translation (see SCALAR_BELOW)
            by_scalar = few.take(ops)
            out[by_scalar] |= self._scalar_rows(W, by_scalar)
        for name, n in rows_of.items():
            if not n:
                continue
            table = self._gate(name)
            check = self.vector[name]
            size = self._piece_rows(name, n, allowance)
            plan = self._plan(name)
            pieces = -(-n // size)
            if n == W.shape[0]:  # every word of the chunk: its pieces are slices of it
                for k in range(pieces):
                    lo, hi = k * n // pieces, (k + 1) * n // pieces
                    out[lo:hi] |= run_batch(check, Cols(W[lo:hi], plan=plan))
                continue
            admitted = table.take(ops)
            if by_scalar is not None:
                admitted &= ~by_scalar
            rows = np.flatnonzero(admitted)
            del admitted
            # each validator's rows in pieces: its columns, memoised answers and temporaries
            # stay bounded whatever the words
            for part in np.array_split(rows, pieces) if pieces > 1 else [rows]:
                out[part] |= run_batch(check, Cols(W, part, plan))

    def _gate(self, name: str) -> npt.NDArray[np.bool_]:
        """The opcode bytes (a 256-entry table) validator `name`'s gate admits."""
        table = self._gates.get(name)
        if table is None:
            table = self._gates[name] = np.zeros(256, dtype=np.bool_)
            table[list(self.top_level[name])] = True
        return table

    def _scalar_rows(self, W: Words, rows: npt.NDArray[np.bool_] | None) -> npt.NDArray[np.bool_]:
        """`validate`'s verdict on each of W's rows `rows` selects (all of them for None), in
        order, through the scalar translation."""
        n = W.shape[0] if rows is None else int(np.count_nonzero(rows))
        return np.fromiter(self._scalar_verdicts(W, rows), dtype=np.bool_, count=n)

    def _scalar_verdicts(self, W: Words, rows: npt.NDArray[np.bool_] | None) -> Iterator[bool]:
        # the rows' bytes SCALAR_ROWS words at a time (a slice of bytes is cheaper than a
        # word's own `tobytes`), or 8x that for selected rows (a gather costs ~1 us a call),
        # their indices found a window of 1/16 of the rows at a time (~1/128 of the words'
        # bytes; at least 64 rows); the verdicts written by np.fromiter (no list, no element
        # stores): a word is the checks' own time and ~0.2 us
        scalar, checks, size, step = self.scalar, self.by_opcode, W.shape[1], self.SCALAR_ROWS
        assert scalar is not None
        n = W.shape[0]
        window = n if rows is None else max(64, -(-n // 16))
        for start in range(0, n, window):
            at = None
            if rows is not None:
                at = np.flatnonzero(rows[start : start + window])
                at += start
            if at is not None:
                step = 8 * self.SCALAR_ROWS
            for lo in range(0, min(window, n - start) if at is None else at.size, step):
                if at is None:
                    b = W[start + lo : start + lo + step].tobytes()
                else:
                    # a take, not W[...]: the fancy index's own buffers doubled the peak
                    b = W.take(at[lo : lo + step], axis=0).tobytes()
                for k in range(0, len(b), size):
                    w = b[k : k + size]
                    if checks is None:
                        yield scalar(w)
                        continue
                    for check in checks[w[0]]:  # as `validate`: the first that accepts it
                        if check(w, 0):
                            yield True
                            break
                    else:
                        yield False

    def _few(self, counts: npt.NDArray[np.intp], allowance: float) -> npt.NDArray[np.bool_] | None:
        """The opcodes (a 256-entry table) whose words go to the scalar translation, given each
        opcode's words in the chunk (`counts`): those with fewer than SCALAR_BELOW words and a
        validator, and those of a validator whose pieces would hold fewer than SCALAR_BELOW
        rows (see TEMPORARIES); None when there is none (or no scalar translation to run them)."""
        if self.scalar is None or self.SCALAR_BELOW <= 0:
            return None
        if self._gated is None:
            self._gated = np.zeros(256, dtype=np.bool_)
            for opcodes in self.top_level.values():
                self._gated[list(opcodes)] = True
        few = (counts < self.SCALAR_BELOW) & (counts > 0) & self._gated
        for name, opcodes in self.top_level.items():
            if not opcodes:
                continue
            table = self._gate(name)
            n = int(counts[table & ~few].sum())
            size = self._piece_rows(name, n, allowance) if n else n
            if size < n and size < self.SCALAR_BELOW:
                few |= table & (counts > 0)
        return few if few.any() else None

    def explain_batch(self, words: Any, explain: Callable[[bytes], str]) -> dict[int, str]:
        """Why each rejected word is rejected: {row index: explain()'s answer}, for the rows
        `validate_batch` rejects (the accepted rows cost nothing beyond the batch verdict)."""
        W = as_words(words)
        bad = np.flatnonzero(~self.validate_batch(W))
        return {int(i): explain(W[i].tobytes()) for i in bad}

    def run_validator_batch(self, name: str, words: Any) -> npt.NDArray[np.bool_]:
        """One top-level validator over every word, whatever its opcode (for differential testing)."""
        W = as_words(words)
        return run_batch(self.vector[name], W).copy()


@dataclass(frozen=True)
class BatchDecode:
    words: npt.NDArray[np.uint8]
    opcode: npt.NDArray[np.uint8]
    decodable: npt.NDArray[np.bool_]
    structs: Mapping[int, type[Any]] = field(default_factory=dict, repr=False, compare=False)

    def rows_of(self, cls: type[Any]) -> npt.NDArray[np.intp]:
        """Indices of the words that decode to `cls`."""
        ops = [op for op, c in self.structs.items() if c is cls]
        return np.flatnonzero(np.isin(self.opcode, ops))

    def view(self, cls: type[Any]) -> Any:
        """The words that decode to `cls`, as a structured array of `cls.DTYPE`."""
        rows = self.rows_of(cls)
        return np.ascontiguousarray(self.words[rows]).view(cls.DTYPE)[:, 0]


def decode_batch(words: Any, structs: Mapping[int, type[Any]]) -> BatchDecode:
    """The words with their opcodes and which of them decode (`structs`: opcode -> class)."""
    W = as_words(words)
    ops = W[:, 0]
    return BatchDecode(W, ops, np.isin(ops, list(structs)), structs)
