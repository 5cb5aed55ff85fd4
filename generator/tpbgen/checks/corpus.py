"""The words a translated predicate is held to its C on: random words, boundary words (every
field a predicate reads at the edges of its type and around the constants the code compares it
with), and words aimed at each term (one field of a word the C accepts moved across each of those
boundaries, so each term is seen both ways while the others hold).

Everything here reads the lowered IR (translate/lir.py), not the headers: the fields a predicate
reads, through the helpers it passes the word (or a part of it) to, and the numbers it compares
them with. The generator's predicate proof (checks/predicates.py) and the translator tests
(tests/translate/golden_support.py) build their corpora from it. Deterministic for a given
numpy Generator.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..translate.analyses import body_exprs, children
from ..translate.c_semantics import ScalarType
from ..translate.lir import Binary, Call, Const, Expr, LFunction, Load, View

WORD = 64
Words = npt.NDArray[np.uint8]  # (N, 64)


@dataclass(frozen=True)
class Field:
    """A place in the word a predicate reads: `offset` of its first byte for element 0 of every
    run-time index, `strides` of those indexes (empty for a fixed field)."""

    offset: int
    size: int
    t: ScalarType
    bit_offset: int | None
    bit_width: int | None
    strides: tuple[int, ...]


def fields_read(lowered: tuple[LFunction, ...], predicates: tuple[str, ...]) -> list[Field]:
    """Every field the predicates read, through the helpers they pass the word (or a part of it) to."""
    by_name = {f.name: f for f in lowered}
    out: list[Field] = []
    seen: set[tuple[str, tuple[tuple[str, int, tuple[int, ...]], ...]]] = set()
    Bases = dict[str, tuple[int, tuple[int, ...]]]

    def visit(fn: LFunction, bases: Bases) -> None:
        key = (fn.name, tuple(sorted((k, v[0], v[1]) for k, v in bases.items())))
        if key in seen:
            return
        seen.add(key)
        for e in body_exprs(fn.body):
            expr(e, bases)

    def expr(e: Expr | View, bases: Bases) -> None:
        if isinstance(e, Load) and e.view.buf in bases:
            off, strides = bases[e.view.buf]
            f = Field(
                off + e.view.offset.const,
                e.size,
                e.t,
                e.bit_offset,
                e.bit_width,
                strides + tuple(s for _, s in e.view.offset.terms),
            )
            if f not in out:
                out.append(f)
        if isinstance(e, Call) and e.fn in by_name:
            inner: Bases = {}
            for p, a in zip(by_name[e.fn].params, e.args, strict=True):
                if isinstance(a, View) and a.buf in bases:
                    off, strides = bases[a.buf]
                    inner[p.name] = (
                        off + a.offset.const,
                        strides + tuple(s for _, s in a.offset.terms),
                    )
            visit(by_name[e.fn], inner)
        for c in children(e):
            expr(c, bases)

    for name in predicates:
        if name in by_name and by_name[name].params:
            visit(by_name[name], {by_name[name].params[0].name: (0, ())})
    return out


def constants(lowered: tuple[LFunction, ...]) -> tuple[list[int], list[float]]:
    """The numbers the code compares with, so the edge values straddle them: its constants and
    the values of its integer operations on two constants (`INST_NBYTES / 4U` is 16)."""
    ints: set[int] = set()
    floats: set[float] = set()

    def walk(e: Expr | View) -> None:
        if isinstance(e, Const):
            if isinstance(e.value, float):
                floats.add(e.value)
            else:
                ints.add(int(e.value))
        elif isinstance(e, Binary):
            folded = _fold(e)
            if folded is not None:
                ints.add(folded)
        for c in children(e):
            walk(c)

    for fn in lowered:
        for e in body_exprs(fn.body):
            walk(e)
    return sorted(ints), sorted(floats)


def _fold(e: Binary) -> int | None:
    """The value of an integer operation on two integer constants, wrapped to its type; None for
    anything else (a float, a division by zero, a shift out of range)."""
    a, b = e.a, e.b
    if not (isinstance(a, Const) and isinstance(b, Const)):
        return None
    if isinstance(a.value, float) or isinstance(b.value, float) or e.t.kind == "float":
        return None
    x, y = int(a.value), int(b.value)
    if (e.op in ("/", "%") and y == 0) or (e.op in ("<<", ">>") and not 0 <= y < e.t.bits):
        return None
    ops = {
        "+": lambda: x + y, "-": lambda: x - y, "*": lambda: x * y,
        "/": lambda: abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1),
        "%": lambda: x - (abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)) * y,
        "&": lambda: x & y, "|": lambda: x | y, "^": lambda: x ^ y,
        "<<": lambda: x << y, ">>": lambda: x >> y,
    }  # fmt: skip
    if e.op not in ops:
        return None
    v = ops[e.op]() & ((1 << e.t.bits) - 1)
    return v - (1 << e.t.bits) if e.t.signed and v >> (e.t.bits - 1) else v


def edge_values(f: Field, ints: list[int], floats: list[float]) -> list[float]:
    """0, 1, max, min, the sign boundary (and their neighbours), the code's constants and their
    neighbours; for floats also +-0, +-inf, NaN, the smallest subnormal, the largest finite, and
    each constant rounded to float32."""
    if f.t.kind == "float":
        big = float(np.finfo(np.float32 if f.t.bits == 32 else np.float64).max)
        base = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.0, math.inf, -math.inf, math.nan]
        base += [5e-324 if f.t.bits == 64 else 1e-45, big, -big, 16777216.0]
        for c in floats + [float(i) for i in ints]:
            with np.errstate(over="ignore"):
                base += [
                    c,
                    math.nextafter(c, math.inf),
                    math.nextafter(c, -math.inf),
                    float(np.float32(c)),
                ]
        return base
    if f.t.kind == "bool":
        return [0, 1, 2, 0x80, 0xFF]
    width = f.bit_width if f.bit_width is not None else f.t.bits
    signed = f.t.signed
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    half = 1 << (width - 1)
    vals = {0, 1, 2, -1, lo, lo + 1, hi, hi - 1, half, half - 1, half + 1}
    for c in ints:
        vals |= {c - 1, c, c + 1}
    return sorted(v for v in vals if lo <= v <= hi or (not signed and -half <= v < 0))


def place(word: npt.NDArray[np.uint8], off: int, f: Field, v: float) -> None:
    """Write `v` into the field at byte `off` of `word` (bits of a bitfield only)."""
    if off < 0 or off + f.size > word.shape[0]:
        return
    if f.t.kind == "float":
        with np.errstate(over="ignore"):
            raw = np.array([v], dtype=np.float32 if f.t.bits == 32 else np.float64).tobytes()
        word[off : off + f.size] = np.frombuffer(raw, dtype=np.uint8)
        return
    iv = int(v)
    if f.bit_width is None:
        word[off : off + f.size] = np.frombuffer(
            (iv % (1 << (8 * f.size))).to_bytes(f.size, "little"), dtype=np.uint8
        )
        return
    assert f.bit_offset is not None
    cur = int.from_bytes(word[off : off + f.size].tobytes(), "little")
    mask = ((1 << f.bit_width) - 1) << f.bit_offset
    cur = (cur & ~mask) | ((iv << f.bit_offset) & mask)
    word[off : off + f.size] = np.frombuffer(cur.to_bytes(f.size, "little"), dtype=np.uint8)


def elements(f: Field, limit: int = 4) -> Iterator[int]:
    """The byte offsets of a field's first `limit` elements along each run-time index."""
    offs = [f.offset]
    for s in f.strides:
        offs = [o + k * s for o in offs for k in range(limit)]
    yield from offs


@dataclass(frozen=True)
class Target:
    """One place a predicate reads and the values worth putting there: its byte offset, and
    each value's bytes (for a bitfield, the whole field's bytes with only its bits set, and the
    mask of those bits)."""

    offset: int
    size: int
    values: npt.NDArray[np.uint8]  # (len(values), size)
    mask: npt.NDArray[np.uint8]  # (size,): the bits the values own


def targets(
    lowered: tuple[LFunction, ...],
    predicate: str,
    numbers: tuple[list[int], list[float]],
    memo: dict[Field, list[Target]] | None = None,
) -> list[Target]:
    """Every (element of every) field `predicate` reads, with its edge values around `numbers`
    (`constants()` of the code) encoded; `memo` shares the encoding between predicates (and
    between fields of one type: the values' bytes do not depend on where the field is)."""
    ints, floats = numbers
    memo = {} if memo is None else memo
    out: list[Target] = []
    for f in fields_read(lowered, (predicate,)):
        if f not in memo:
            shape = Field(-1, f.size, f.t, f.bit_offset, f.bit_width, ())  # where no field is
            if shape not in memo:
                memo[shape] = _encode(shape, edge_values(f, ints, floats))
            values, mask = memo[shape][0].values, memo[shape][0].mask
            memo[f] = [
                Target(off, f.size, values, mask)
                for off in elements(f)
                if off >= 0 and off + f.size <= WORD
            ]
        out += memo[f]
    return out


def _encode(f: Field, vals: list[float]) -> list[Target]:
    """The edge values `vals` of a field shaped as `f`, as one Target (at f.offset): each value's
    bytes as `place` writes them into a zero word (for a bitfield, its bits only, and the mask
    of those bits), built as one buffer, duplicates dropped."""
    if f.t.kind == "float":
        with np.errstate(over="ignore"):
            raw = np.array(vals, dtype=np.float32 if f.t.bits == 32 else np.float64).tobytes()
        mask_bits = (1 << (8 * f.size)) - 1
    elif f.bit_width is None:
        modulus = 1 << (8 * f.size)
        raw = b"".join((int(v) % modulus).to_bytes(f.size, "little") for v in vals)
        mask_bits = modulus - 1
    else:
        assert f.bit_offset is not None
        mask_bits = ((1 << f.bit_width) - 1) << f.bit_offset
        shift = f.bit_offset
        raw = b"".join(((int(v) << shift) & mask_bits).to_bytes(f.size, "little") for v in vals)
    rows = np.frombuffer(raw, dtype=np.uint8).reshape(len(vals), f.size)
    mask = np.frombuffer(mask_bits.to_bytes(f.size, "little"), dtype=np.uint8).copy()
    return [Target(f.offset, f.size, np.unique(rows, axis=0), mask)]


def put(words: Words, rows: npt.NDArray[np.intp], t: Target, choice: npt.NDArray[np.intp]) -> None:
    """Set target `t` of the given rows to its values number `choice` (one per row)."""
    if not rows.size:
        return
    cols = slice(t.offset, t.offset + t.size)
    old = words[rows, cols]
    words[rows, cols] = (old & ~t.mask) | (t.values[choice] & t.mask)


def random_words(
    opcodes: tuple[int, ...], rng: np.random.Generator, count: int
) -> npt.NDArray[np.uint8]:
    """Random bytes; most of them with an opcode the predicate's gate admits."""
    words = rng.integers(0, 256, size=(count, WORD), dtype=np.uint8)
    if opcodes:
        gated = rng.random(count) < 0.75
        words[gated, 0] = rng.choice(np.array(opcodes, dtype=np.uint8), size=int(gated.sum()))
    return words


def boundary_words(
    opcodes: tuple[int, ...], found: list[Target], rng: np.random.Generator, count: int
) -> npt.NDArray[np.uint8]:
    """Random words of the gate's opcodes whose read fields mostly hold edge values."""
    words = random_words(opcodes, rng, count)
    if opcodes:
        words[:, 0] = rng.choice(np.array(opcodes, dtype=np.uint8), size=count)
    for k in rng.permutation(len(found)):
        t = found[int(k)]
        rows = np.flatnonzero(rng.random(count) < 0.8)
        put(words, rows, t, rng.integers(0, len(t.values), size=rows.size))
    if opcodes:  # the opcode byte is the gate's, whatever the targets wrote over it
        words[:, 0] = rng.choice(np.array(opcodes, dtype=np.uint8), size=count)
    return words


def term_words(
    seeds: npt.NDArray[np.uint8], found: list[Target], rng: np.random.Generator, count: int
) -> npt.NDArray[np.uint8]:
    """Words aimed at each term: accepted `seeds` with one field moved to one of its edge
    values (every field of the first seeds through every value, then random picks)."""
    if not seeds.shape[0] or not found:
        return np.zeros((0, WORD), dtype=np.uint8)
    # the plan (seed, target, value), seed-major, as numbered positions in it
    starts = np.cumsum([0] + [len(t.values) for t in found])
    per_seed = int(starts[-1])
    size = seeds.shape[0] * per_seed
    plan = np.arange(size, dtype=np.intp)
    if size > count:
        plan = np.sort(rng.choice(size, size=count, replace=False)).astype(np.intp)
    seed, at = np.divmod(plan, per_seed)
    target = np.searchsorted(starts, at, side="right") - 1
    value = at - starts[target]
    words: npt.NDArray[np.uint8] = seeds[seed].copy()
    for t_index, t in enumerate(found):
        rows = np.flatnonzero(target == t_index)
        put(words, rows, t, value[rows])
    return words
