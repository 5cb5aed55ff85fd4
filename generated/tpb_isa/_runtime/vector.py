"""numpy support for the generated batch modules: column reads out of an (N, 64) uint8 array
for the translated predicates, and the batch validate / decode drivers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

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
            raise ValueError(f"{arr.size} bytes is not a whole number of 64-byte words")
        return arr.reshape(-1, 64)
    if isinstance(words, np.ndarray):
        if words.dtype.kind in "iu" and words.dtype.itemsize != 1:
            if words.size and (words.min() < 0 or words.max() > 255):
                raise ValueError(f"words given as {words.dtype} hold values outside 0..255")
            words = words.astype(np.uint8)
        elif words.dtype.itemsize != 1 and words.dtype.kind != "V":
            raise TypeError(f"words given as an array are uint8 bytes, not {words.dtype}")
        if words.dtype.kind == "V":
            words = np.frombuffer(np.ascontiguousarray(words).tobytes(), dtype=np.uint8)
        arr = np.ascontiguousarray(words).view(np.uint8)
        if arr.ndim == 1:
            if arr.size % 64:
                raise ValueError(f"{arr.size} bytes is not a whole number of 64-byte words")
            arr = arr.reshape(-1, 64)
        if arr.ndim != 2 or arr.shape[1] != 64:
            raise ValueError(f"expected shape (N, 64), got {arr.shape}")
        return arr
    parts = []
    for i, w in enumerate(words):
        b = as_bytes(w)
        if len(b) != 64:
            raise ValueError(f"word {i} has {len(b)} bytes, not 64")
        parts.append(b)
    return as_words(b"".join(parts))


def byte(W: Words, off: Any) -> Any:
    """Byte `off` of every row; `off` is one offset or one per row (a struct passed by value
    from an array element chosen at run time)."""
    if isinstance(off, (int, np.integer)):
        return W[:, off]
    return gather(W, off, 1)


def col(W: Words, off: Any, size: int) -> Any:
    """The little-endian unsigned integer in bytes [off, off+size) of every row; a size numpy has
    no integer for (the 3, 5, 6 or 7 bytes a wide bitfield spans) is assembled byte by byte into
    the next wider unsigned integer."""
    if size in (1, 2, 4, 8):
        return colv(W, off, f"<u{size}")
    if not isinstance(off, (int, np.integer)):
        return gather(W, off, size)
    wide = np.dtype("<u4" if size < 4 else "<u8")
    out = np.zeros(W.shape[0], dtype=wide)
    for k in range(size):
        out |= W[:, off + k].astype(wide) << wide.type(8 * k)
    return out


def colv(W: Words, off: Any, dtype: str) -> Any:
    """Bytes [off, off+itemsize) of every row as `dtype`: a strided view when the field is
    aligned to its size (no copy), a copy of the column bytes otherwise, a gather when the
    offset differs per row."""
    size = np.dtype(dtype).itemsize
    if not isinstance(off, (int, np.integer)):
        return gather_as(W, off, size, dtype)
    if off % size == 0 and W.flags.c_contiguous:
        return W.view(dtype)[:, off // size]
    return np.ascontiguousarray(W[:, off : off + size]).view(dtype)[:, 0]


def gather(W: Words, off: Any, size: int) -> Any:
    """Bytes [off, off+size) of each row at a per-row offset, as an unsigned integer (offsets are
    clipped into the row: lanes where C would not have read are discarded by the caller)."""
    rows = np.arange(W.shape[0])
    off = np.clip(
        np.broadcast_to(np.asarray(off, dtype=np.int64), (W.shape[0],)), 0, W.shape[1] - size
    )
    out = np.zeros(W.shape[0], dtype=np.uint64)
    for k in range(size):
        out |= W[rows, off + k].astype(np.uint64) << np.uint64(8 * k)
    return out.astype(f"<u{size}") if size in (1, 2, 4, 8) else out


def gather_as(W: Words, off: Any, size: int, dtype: str) -> Any:
    return np.asarray(gather(W, off, size)).astype(f"<u{size}").view(dtype)


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


VectorCheck = Callable[[Words, int], Any]  # a translated top-level validator over (N, 64) words


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
    ) -> None:
        self.top_level = top_level
        self.vector = vector
        self.c = c  # the generation's headers compiled (cvalidators.py), when it ships them
        self.scalar = scalar  # the scalar `validate`, for backend="python"

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
        out = np.zeros(W.shape[0], dtype=np.bool_)
        ops = W[:, 0]
        for name, opcodes in self.top_level.items():
            if not opcodes:  # a validator with no gate is not dispatched (its generation says so)
                continue
            rows = np.flatnonzero(np.isin(ops, np.asarray(opcodes, dtype=np.int64), kind="table"))
            if rows.size:
                with ieee():
                    out[rows] |= np.asarray(self.vector[name](W[rows], 0), dtype=np.bool_)
        return out

    def explain_batch(self, words: Any, explain: Callable[[bytes], str]) -> dict[int, str]:
        """Why each rejected word is rejected: {row index: explain()'s answer}, for the rows
        `validate_batch` rejects (the accepted rows cost nothing beyond the batch verdict)."""
        W = as_words(words)
        bad = np.flatnonzero(~self.validate_batch(W))
        return {int(i): explain(W[i].tobytes()) for i in bad}

    def run_validator_batch(self, name: str, words: Any) -> npt.NDArray[np.bool_]:
        """One top-level validator over every word, whatever its opcode (for differential testing)."""
        W = as_words(words)
        with ieee():
            verdict = np.asarray(self.vector[name](W, 0), dtype=np.bool_)
        return np.broadcast_to(verdict, (W.shape[0],)).copy()


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
