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


class Cols:
    """The words of one batch (`rows` of `W`, or all of it) as contiguous columns, each made
    once, on its first read, and kept for the batch (read-only): a translated predicate reads a
    field as a contiguous array, never a 64-byte-strided or gathered one, and reads it once
    however many terms name it. The columns come from the words' eight 8-byte columns (`t`),
    each gathered from the words on its first read (only the ones the predicates read): a field
    inside one of them is an every-8th-element view of it, cheap to copy. `memo` holds the
    answers of translated functions called again with the same arguments (see `memo`); `shape`
    is (rows, 64)."""

    __slots__ = ("_W", "_cols", "_owned", "_rows", "_t", "memo", "shape")

    def __init__(self, W: Words, rows: npt.NDArray[np.intp] | None = None) -> None:
        self._W = np.ascontiguousarray(W)
        self._rows = rows
        self.shape = (self._W.shape[0] if rows is None else rows.size, 64)
        self._cols: dict[tuple[int, str], Any] = {}
        self._t: dict[int, Any] = {}
        self._owned: dict[int, Any] = {}  # id -> array: the arrays a memo key may name by id
        self.memo: dict[tuple[Any, ...], Any] = {}

    @property
    def W(self) -> Words:
        """The batch's words as an (N, 64) array (a copy of the rows when there is a selection)."""
        if self._rows is not None:  # made once, on the first per-row gather that needs it
            self._W = np.take(self._W.view(np.uint64), self._rows, axis=0).view(np.uint8)
            self._rows = None  # the columns read so far are of these rows, in this order
        return self._W

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
            c = self._t[j]
        return c

    def col(self, off: int, dtype: str) -> Any:
        """Bytes [off, off+itemsize) of every word as one contiguous `dtype` array."""
        key = (off, dtype)
        c = self._cols.get(key)
        if c is None:
            dt = np.dtype(dtype)
            size = dt.itemsize
            if off % size == 0 and off % 8 + size <= 8:
                c = np.ascontiguousarray(self.t(off // 8).view(dt)[(off % 8) // size :: 8 // size])
            else:  # across an 8-byte boundary, or unaligned: byte by byte
                buf = np.empty((self.shape[0], size), dtype=np.uint8)
                for k in range(size):
                    buf[:, k] = self.col(off + k, "u1")
                c = buf.view(dt)[:, 0]
            c.flags.writeable = False
            self._cols[key] = c
            self._owned[id(c)] = c
        return c

    def owns(self, a: Any) -> bool:
        return self._owned.get(id(a)) is a

    def own(self, a: Any) -> None:
        """Keep `a` (a read-only answer) for the batch: a memo key may name it by id."""
        self._owned[id(a)] = a


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
    array, only when the batch owns it (one of its columns or a memoised answer, alive until the
    batch ends, so its id names it); any other array argument evaluates as usual, and so does
    every call outside a batch (`batch()`). The functions are pure, so a memoised answer is the
    answer; it is read-only, shared by every caller."""
    name = fn.__name__

    def wrapper(*args: Any) -> Any:
        cols = _BATCH.get()
        if cols is None:
            return fn(*args)
        key: list[Any] = [name]
        for a in args:
            if isinstance(a, np.ndarray):
                if not cols.owns(a):
                    return fn(*args)
                key.append(id(a))
            elif isinstance(a, Cols):
                key.append(None if a is cols else id(a))
            elif isinstance(a, (int, float, np.generic)):
                key.append((type(a), a))
            else:
                return fn(*args)
        k = tuple(key)
        out = cols.memo.get(k)
        if out is None:
            out = fn(*args)
            if isinstance(out, np.ndarray):
                out.flags.writeable = False
                cols.own(out)
            cols.memo[k] = out
        return out

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
        if self.scalar is not None and W.shape[0] < self.SCALAR_BELOW:
            # no opcode can have SCALAR_BELOW words: every word through the scalar translation,
            # as `_numpy_chunk` would run them (a word no validator gates is False in both),
            # without its opcode counts and row indices
            return self._scalar_rows(W, None)
        out = np.zeros(W.shape[0], dtype=np.bool_)
        # in chunks of words, each validator on its rows of a chunk in pieces (see ROWS), so
        # that the temporaries stay bounded (~10 MiB) whatever the batch
        for lo in range(0, W.shape[0], self.CHUNK):
            self._numpy_chunk(W[lo : lo + self.CHUNK], out[lo : lo + self.CHUNK])
        return out

    #: an opcode with fewer words than this in a chunk is validated word by word by the scalar
    #: translation (the same verdicts): a translated validator issues a few hundred numpy calls
    #: whatever its rows, 0.3-1.3 ms, where a word costs the scalar code ~3.5-4 us since its
    #: helpers are inlined (6.5 us before: 128 then); the first of mariana's seven breaks even
    #: at ~250 words, 1,000 mixed words (~140 an opcode) take 3.6 ms by scalar, 4.9 ms at 128
    SCALAR_BELOW = 192

    #: words a chunk of the numpy backend holds (8 MiB of words; its opcode bytes and row
    #: indices are ~1 MiB)
    CHUNK = 1 << 17

    #: words the scalar translation's rows are copied out in at once (128 B): the copy stays
    #: small beside any batch (100 words: 0.22x their bytes in all; 16 words, 0.48x), at no
    #: measurable cost (a word's own `tobytes` costs ~0.3 us more than a slice)
    SCALAR_ROWS = 2

    #: rows one translated validator runs on at once: its working set, a few hundred bytes a
    #: row (the columns it reads, its memoised answers, its temporaries), is ~10 MiB at most
    ROWS = 1 << 15

    def _numpy_chunk(self, W: Words, out: npt.NDArray[np.bool_]) -> None:
        """The numpy backend's verdicts on W, or-ed into `out` (a view of the batch's)."""
        ops = np.ascontiguousarray(W[:, 0])
        few = self._few(ops)
        if few is not None:  # word by word through the scalar translation (see SCALAR_BELOW)
            by_scalar = few.take(ops)
            out[by_scalar] |= self._scalar_rows(W, by_scalar)
        for name, opcodes in self.top_level.items():
            if not opcodes:  # a validator with no gate is not dispatched (its generation says so)
                continue
            table = self._gates.get(name)
            if table is None:
                table = self._gates[name] = np.zeros(256, dtype=np.bool_)
                table[list(opcodes)] = True
            admitted = table.take(ops)
            if few is not None:
                admitted &= ~by_scalar
            rows = np.flatnonzero(admitted)
            if not rows.size:
                continue
            if rows.size == W.shape[0] and rows.size <= self.ROWS:
                out |= run_batch(self.vector[name], Cols(W))
                continue
            # each validator's rows in pieces of at most ROWS: its columns, memoised answers
            # and temporaries (a few hundred bytes a row) stay bounded whatever the words
            pieces = -(-rows.size // self.ROWS)
            for part in np.array_split(rows, pieces) if pieces > 1 else [rows]:
                out[part] |= run_batch(self.vector[name], Cols(W, part))

    def _scalar_rows(self, W: Words, rows: npt.NDArray[np.bool_] | None) -> npt.NDArray[np.bool_]:
        """`validate`'s verdict on each of W's rows `rows` selects (all of them for None), in
        order, through the scalar translation."""
        n = W.shape[0] if rows is None else int(np.count_nonzero(rows))
        return np.fromiter(self._scalar_verdicts(W, rows), dtype=np.bool_, count=n)

    def _scalar_verdicts(self, W: Words, rows: npt.NDArray[np.bool_] | None) -> Iterator[bool]:
        # the rows' bytes SCALAR_ROWS words at a time (a slice of bytes is cheaper than a
        # word's own `tobytes`), or 8x that for selected rows (a gather costs ~1 us a call),
        # their indices found a window of at least 1/16 of the rows at a time (~1/128 of the
        # words' bytes); the verdicts written by np.fromiter (no list, no element stores): a
        # word is the checks' own time and ~0.2 us
        scalar, checks, size, step = self.scalar, self.by_opcode, W.shape[1], self.SCALAR_ROWS
        assert scalar is not None
        n = W.shape[0]
        window = n if rows is None else max(256, -(-n // 16))
        for start in range(0, n, window):
            at = None if rows is None else np.flatnonzero(rows[start : start + window]) + start
            if at is not None:
                step = 8 * self.SCALAR_ROWS
            for lo in range(0, min(window, n - start) if at is None else at.size, step):
                if at is None:
                    b = W[start + lo : start + lo + step].tobytes()
                else:
                    b = W[at[lo : lo + step]].tobytes()
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

    def _few(self, ops: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_] | None:
        """The opcodes (a 256-entry table) that have fewer than SCALAR_BELOW words in `ops` and
        a validator: None when there is none (or no scalar translation to run them)."""
        if self.scalar is None or self.SCALAR_BELOW <= 0:
            return None
        if self._gated is None:
            self._gated = np.zeros(256, dtype=np.bool_)
            for opcodes in self.top_level.values():
                self._gated[list(opcodes)] = True
        counts = np.bincount(ops, minlength=256)
        few = (counts < self.SCALAR_BELOW) & (counts > 0) & self._gated
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
