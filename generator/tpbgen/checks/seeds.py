"""Finding words a top-level validator accepts, to aim the proof's words at each of its terms.

Random and boundary words almost never satisfy every term of a real validator (dozens of fields,
each held to a range or an enum). The search climbs instead: a score function counts the terms a
word satisfies (a validator whose body is one `return a && b && ...` counts its terms, a term
that calls such a helper counts the helper's terms, any other term or body counts 1 when true),
and each field the validator reads is set in turn to the edge value that scores best. The C
decides whether a word found this way is accepted; the score only steers the search, so a fault
in the scalar back end it is written in cannot make the proof pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..translate.analyses import conjuncts
from ..translate.lir import Call, LFunction, Return, View
from ..translate.to_python import PyEmitter
from .corpus import Target

Score = Callable[[bytes, int], int]


def score_code(lowered: tuple[LFunction, ...]) -> str:
    """Python defining `_s_<name>(params)` for every lowered function: the number of its terms a
    call satisfies (see the module docstring). Run it beside the scalar translation (it calls
    the translated `_<name>` functions for terms it does not split)."""
    by_name = {f.name: f for f in lowered}
    em = PyEmitter()
    out: list[str] = []
    for lf in lowered:
        params = ", ".join(
            f"{p.name}_b, {p.name}_o" if p.struct is not None else p.name for p in lf.params
        )
        body = lf.body
        lines = [f"def _s_{lf.name}({params}):"]
        if len(body) == 1 and isinstance(body[0], Return) and body[0].e is not None:
            lines.append("    score_ = 0")
            for term in conjuncts(body[0].e):
                if isinstance(term, Call) and term.fn in by_name:
                    args = []
                    for a in term.args:
                        args += (
                            [f"{a.buf}_b", em.offset(a)] if isinstance(a, View) else [em.expr(a)]
                        )
                    test = f"_s_{term.fn}({', '.join(args)})"
                    lines += [*em.take_hoisted("    "), f"    score_ += {test}"]
                else:
                    test = em.bare(term)
                    lines += [*em.take_hoisted("    "), f"    score_ += 1 if ({test}) else 0"]
            lines.append("    return score_")
        else:
            call = ", ".join(
                f"{p.name}_b, {p.name}_o" if p.struct is not None else p.name for p in lf.params
            )
            lines.append(f"    return 1 if _{lf.name}({call}) else 0")
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


TRIES = 48  # values tried per field and pass (a sample when it has more)


def climb(
    score: Score,
    accepts: Callable[[Any], Any],
    start: Any,
    found: list[Target],
    rng: Any,
    passes: int = 4,
) -> Any:
    """Words of `start` (N, 64) moved field by field to the best-scoring edge values (up to
    TRIES of them); returns the first the C `accepts`, or none. Terms that raise count as not
    satisfied."""
    np = __import__("numpy")
    words = start.copy()
    for _ in range(passes):
        before = words.copy()
        for k in rng.permutation(len(found)):
            t = found[int(k)]
            cols = slice(t.offset, t.offset + t.size)
            tries: Any = range(len(t.values))
            if len(t.values) > TRIES:
                tries = sorted(int(v) for v in rng.choice(len(t.values), TRIES, replace=False))
            for w in words:
                if _step(score, w, cols, t, tries, rng) and accepts(w[None, :])[0]:
                    return w[None, :].copy()
        if accepts(words).any():
            return words[accepts(words)][:1].copy()
        if (words == before).all():
            break  # nowhere to move
    return np.zeros((0, words.shape[1]), dtype=np.uint8)


def _step(score: Score, w: Any, cols: slice, t: Target, tries: Any, rng: Any) -> bool:
    """Set target `t` of word `w` to its best-scoring value of `tries` (a random one of those
    that score as well as the best: a plateau, such as two fields whose product must not be
    zero, is crossed by such sideways moves); True when the score rose."""
    now = _safe(score, w)
    old = w[cols].copy()
    scores = []
    for v in tries:
        w[cols] = (old & ~t.mask) | (t.values[v] & t.mask)
        scores.append(_safe(score, w))
    best = max(scores, default=now)
    if best < now:
        w[cols] = old
        return False
    ties = [v for v, s in zip(tries, scores, strict=True) if s == best]
    pick = ties[int(rng.integers(len(ties)))]
    w[cols] = (old & ~t.mask) | (t.values[pick] & t.mask)
    return best > now


def _safe(score: Score, word: Any) -> int:
    try:
        return int(score(word.tobytes(), 0))
    except Exception:  # the search only steers; the C decides
        return -1
