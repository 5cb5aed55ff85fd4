"""Valid words the executor runs: what ``random_words(n, executable=True)`` returns.

A word *runs* when a generation's Executor, in its reset state (everything zero, no ImmLd
scalars loaded), executes it without an error: the word decodes, its validators accept it, the
executor implements its opcode and every enum value it reads, and the engine method neither
refuses it (`UnsupportedError`) nor finds an access outside the active bytes (`AddressError`).
The stimulus's valid words of each opcode are drawn in rounds and kept when they run.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from .executor.errors import ExecutorError

Words = npt.NDArray[np.uint8]

#: rounds of valid words drawn per opcode, and the words of a round at least; an opcode none of
#: whose words ran in them is left out (when no opcode is asked for)
ROUNDS = 6
PROBE = 48


class _Valid(Protocol):
    generation: str

    def reached(self) -> tuple[int, ...]: ...

    def valid(self, n: int, opcode: int, seed: int = 0) -> Words: ...


def runs(executor_cls: Any, word: bytes) -> str:
    """ "" when `word` runs on a fresh `executor_cls()`, else the error that stopped it."""
    try:
        executor_cls(backend="numpy").run(word)
    except ExecutorError as e:
        return f"{type(e).__name__}: {e}"
    return ""


def _draw(
    stimulus: _Valid, executor_cls: Any, opcode: int, m: int, seed: int
) -> tuple[list[bytes], Counter[str]]:
    """Up to `m` words of `opcode` that run, and why the others did not."""
    kept: list[bytes] = []
    why: Counter[str] = Counter()
    size = max(PROBE, 2 * m)
    for r in range(ROUNDS):
        for w in stimulus.valid(size, opcode, seed + 7919 * r):
            b = w.tobytes()
            err = runs(executor_cls, b)
            if err:
                why[err[:160]] += 1
            else:
                kept.append(b)
                if len(kept) == m:
                    return kept, why
    return kept, why


def executable_words(
    stimulus: _Valid, executor_cls: Any, n: int, opcode: int | None, seed: int
) -> Words:
    """`n` valid words that run on a fresh Executor: of `opcode`, or spread over every opcode
    the executor runs that the search reached and of which some word runs from the reset state
    (TensorScalarPtrMulti's need loaded ImmLd scalars, so none of theirs does). An opcode few of
    whose valid words run (Iota's, mostly refused over Q8) gives what its rounds found and the
    others make up the rest, evenly. ValueError naming the opcode and the commonest refusal
    when `opcode` is asked for and too few of its words run."""
    gen = stimulus.generation
    if executor_cls is None:
        raise ValueError(f"{gen}: no executor to run the words on")
    executed = set(executor_cls.executable())
    if opcode is not None and opcode not in executed:
        raise ValueError(f"{gen}: the executor does not run opcode {opcode:#04x}")
    ops = [opcode] if opcode is not None else [op for op in stimulus.reached() if op in executed]
    found = _shares(stimulus, executor_cls, ops, n, seed, strict=opcode is not None)
    parts = [b for op in ops for b in found[op]]
    if len(parts) != n:
        raise ValueError(f"{gen}: {len(parts)} of {n} words run")
    W = np.frombuffer(b"".join(parts), np.uint8).reshape(-1, 64)
    if opcode is None and len(W):
        W = W[np.random.default_rng([seed, 0xE7]).permutation(len(W))]
    return np.ascontiguousarray(W)


def _shares(
    stimulus: _Valid, executor_cls: Any, ops: list[int], n: int, seed: int, strict: bool
) -> dict[int, list[bytes]]:
    """Words that run, per opcode: an even share each, the shortfall of the opcodes few of
    whose words run made up by the others; `strict`: ValueError for any shortfall."""
    share = dict(zip(ops, _even(n, len(ops)), strict=True))
    found: dict[int, list[bytes]] = {}
    for op in ops:
        kept, why = _draw(stimulus, executor_cls, op, share[op], seed)
        if strict and len(kept) < share[op]:
            common = why.most_common(1)[0][0] if why else "no valid word"
            raise ValueError(
                f"{stimulus.generation}: opcode {op:#04x}: {len(kept)} of {share[op]} words "
                f"run (commonest refusal: {common})"
            )
        found[op] = kept
    full = [op for op in ops if share[op] and len(found[op]) == share[op]]
    short = n - sum(len(v) for v in found.values())
    if short and not full:
        raise ValueError(f"{stimulus.generation}: too few valid words the search finds run")
    for op, m in zip(full, _even(short, len(full)), strict=True):
        if m:
            found[op].extend(_draw(stimulus, executor_cls, op, m, seed + 104729)[0])
    return found


def _even(n: int, k: int) -> list[int]:
    """`n` split into `k` shares that differ by at most one, the larger first."""
    return [n // k + (1 if j < n % k else 0) for j in range(k)] if k else []
