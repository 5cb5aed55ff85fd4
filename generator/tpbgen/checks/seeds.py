"""Finding words a top-level validator accepts, to aim the proof's words at each of its terms.

Random and boundary words almost never satisfy every term of a real validator (dozens of fields,
each held to a range or an enum). The search climbs instead: a score function counts the terms a
word satisfies, and each field the validator reads is set in turn to the edge value that scores
best. The terms are those of the validator's chain (translate/chain.py decides them, for the
runtime's stimulus search too): a term that calls a helper whose body is one `return a && b &&
...` counts the helper's terms, a term the chain splits (a disjunction of conjunctions) counts
the satisfied conjuncts of its best disjunct (all its points when a disjunct holds), any other
term counts 1 when true. A validator whose body is a top-level `A || B || C` is scored per
alternative (each alternative's own terms), and `_s_<validator>` is the best of them, shifted so
that each alternative full scores the same; `spread` climbs each alternative the accepted words
found so far miss, so the proof's words are aimed at the terms of every alternative. The C
decides whether a word found this way is accepted; the score only steers the search, so a fault
in the scalar back end it is written in cannot make the proof pass.

An alternative's score is a sum of pieces, one a chain term, each listed (PIECES) with the
bytes of the word it reads (`_Reads`, from the lowered code). A move sets one field, so a
climb scores its candidate words by the pieces that read the field's bytes alone, the others'
sum taken once: the same scores as the whole function's, at a fraction of the cost (the
climbs were ~0.4 s of a cold generate's ~4 s CPU; issue 28).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..translate.analyses import body_exprs, children, conjuncts
from ..translate.lir import Call, Expr, LFunction, Load, Return, View
from ..translate.to_python import PyEmitter, sets_code

if TYPE_CHECKING:  # corpus.py needs numpy, which the generator only uses when it is there
    from ..translate.chain import Chain
    from .corpus import Target

Score = Callable[[bytes, int], int]
ALTERNATIVES = "_SCORE_ALTERNATIVES"  # {validator: ((score of an alternative, its full score),)}
# {score function: ((shift, ((piece, the word's bytes it reads, or None: any),)),)}: a chain
# validator's score is the best over its alternatives of shift + the sum of the pieces
PIECES = "_SCORE_PIECES"
FAILED = -(1 << 30)  # the score of a word a term raises on (below any score)


def score_code(lowered: tuple[LFunction, ...], chained: Sequence[Chain] = ()) -> list[str]:
    """Python defining `_s_<name>(params)` for every lowered function: the number of its terms a
    call satisfies (see the module docstring); for a validator with a chain (`chained`), the
    score of its chain's terms, per alternative (`_s_<name>__alt<k>`, listed in ALTERNATIVES for
    a validator with several). It runs beside the scalar translation (it calls the translated
    `_<name>` functions for terms it does not split): one top-level statement a string, in
    order, written as a module beside the staged package's `validators` and imported from there
    (predicates.scores_module; it never ships)."""
    by_name = {f.name: f for f in lowered}
    full = _full_scores(by_name)
    em = PyEmitter(member_prefix="_SCORE_MEMBERS")  # its own sets, beside the translation's
    out: list[str] = []
    chain_of = {c.validator: c for c in chained if c.validator in by_name}
    for lf in lowered:
        if lf.name in chain_of:
            continue
        params = _params(lf)
        body = lf.body
        lines = [f"def _s_{lf.name}({params}):"]
        if len(body) == 1 and isinstance(body[0], Return) and body[0].e is not None:
            lines.append("    score_ = 0")
            for term in conjuncts(body[0].e):
                test, hoisted, _ = _term(em, term, by_name, full)
                lines += [*hoisted, f"    score_ += {test}"]
            lines.append("    return score_")
        else:
            lines.append(f"    return 1 if _{lf.name}({params}) else 0")
        out.append("\n".join(lines))
    table: list[str] = []
    pieces: list[str] = []
    reads = _Reads(by_name)
    for c in chain_of.values():
        lf = by_name[c.validator]
        params = _params(lf)
        tops = []
        alts = []
        for k, (_, idx) in enumerate(c.alternatives):
            alt = f"_s_{lf.name}__alt{k}"
            code, entry, most = _alternative(em, c, idx, alt, params, by_name, full, reads)
            out += code
            tops.append((alt, most))
            alts.append(entry)
            pieces.append(f"    {alt}: ((0, {entry}),),")
        best = max(m for _, m in tops)
        shifted = (f"({best - m}, {e})" for (_, m), e in zip(tops, alts, strict=True))
        pieces.append(f"    _s_{lf.name}: ({', '.join(shifted)},),")
        calls = ", ".join(f"{n}({params}) + {best - m}" for n, m in tops)
        out.append(
            f"def _s_{lf.name}({params}):\n"
            + (
                f"    return max({calls})"
                if len(tops) > 1
                else f"    return {tops[0][0]}({params})"
            )
        )
        if len(tops) > 1:
            table.append(f"    {lf.name!r}: ({', '.join(f'({n}, {m})' for n, m in tops)},),")
    out.append(f"{ALTERNATIVES} = {{\n" + "".join(t + "\n" for t in table) + "}")
    out.append(f"{PIECES} = {{\n" + "".join(t + "\n" for t in pieces) + "}")
    out.append(sets_code(em.member_sets))
    return out


def _params(lf: LFunction) -> str:
    return ", ".join(
        f"{p.name}_b, {p.name}_o" if p.struct is not None else p.name for p in lf.params
    )


def _term(
    em: PyEmitter, term: Expr, by_name: dict[str, LFunction], full: dict[str, int]
) -> tuple[str, list[str], int]:
    """The score of one term as an expression, the local functions it needs, its full score."""
    if isinstance(term, Call) and term.fn in by_name:
        args = []
        for a in term.args:
            args += [f"{a.buf}_b", em.offset(a)] if isinstance(a, View) else [em.expr(a)]
        return f"_s_{term.fn}({', '.join(args)})", em.take_hoisted("    "), full[term.fn]
    test = em.bare(term)
    return f"1 if ({test}) else 0", em.take_hoisted("    "), 1


def _alternative(
    em: PyEmitter,
    c: Chain,
    idx: tuple[int, ...],
    name: str,
    params: str,
    by_name: dict[str, LFunction],
    full: dict[str, int],
    reads: _Reads,
) -> tuple[list[str], str, int]:
    """`def name(params)`: the score of the chain terms `idx` (one alternative), the sum of one
    piece a term (`def name__<j>(params)`, each in a `try`: a term the chain evaluates apart from
    the others may raise where C's short circuit would not reach it: it scores nothing); the
    pieces' definitions, then the alternative's; the entry of PIECES listing each piece with
    the bytes of the word it reads; and the alternative's full score."""
    splits = {s.term: s for s in c.splits}
    out: list[str] = []
    entries: list[str] = []
    most = 0
    for j in idx:
        piece = f"{name}__{j}"
        lines = [f"def {piece}({params}):", "    score_ = 0"]
        s = splits.get(j)
        exprs = [_expr(c.terms[j].fn)]
        if s is None:
            test, hoisted, m = _term(em, exprs[0], by_name, full)
            lines += ["    try:", *_indent(hoisted), f"        score_ += {test}"]
            lines += ["    except Exception:", "        pass"]
            most += m
        else:
            # a split term: whole when it holds (as it mostly does, climbing), else the
            # satisfied conjuncts of its best disjunct
            test, hoisted, m = _term(em, exprs[0], by_name, full)
            parts: list[tuple[list[tuple[str, list[str]]], int]] = []
            for d in s.disjuncts:
                exprs += [_expr(t.fn) for t in d]
                scored = [_term(em, _expr(t.fn), by_name, full) for t in d]
                parts.append(([(t, h) for t, h, _ in scored], sum(m for _, _, m in scored)))
            top = max(m for _, m in parts)
            lines += ["    try:", *_indent(hoisted), f"        held_ = ({test}) >= {m}"]
            lines += ["    except Exception:", "        held_ = False"]
            lines += ["    if held_:", f"        score_ += {top}", "    else:", "        best_ = 0"]
            for terms, most_d in parts:
                lines.append("        got_ = 0")
                for t, h in terms:
                    lines += ["        try:", *_indent(_indent(h)), f"            got_ += {t}"]
                    lines += ["        except Exception:", "            pass"]
                lines += [
                    f"        if got_ > best_ and got_ < {most_d}:",
                    "            best_ = got_",
                ]
            lines.append("        score_ += best_")
            most += top
        lines.append("    return score_")
        out.append("\n".join(lines))
        entries.append(f"({piece}, {_bytes_literal(reads.word(c.terms[j].fn, exprs))})")
    total = " + ".join(f"{name}__{j}({params})" for j in idx) or "0"
    out.append(f"def {name}({params}):\n    return {total}")
    return out, f"({''.join(e + ', ' for e in entries)})", most


class _Reads:
    """The bytes of the word a chain term reads, from the lowered code: each field read at a
    constant offset, its bytes; a call passing the word (or a struct in it) on, what the callee
    reads there, transitively. None (any byte) for a read at an offset chosen at run time, a
    call of a function not lowered with a struct, a function that reaches itself, or a term
    with another struct parameter. Over-approximates: a piece whose bytes a move leaves alone
    scores the same before and after it (`climb` relies on that, and only that)."""

    def __init__(self, by_name: dict[str, LFunction]) -> None:
        self.by_name = by_name
        self.done: dict[str, dict[str, frozenset[int] | None]] = {}

    def word(self, fn: LFunction, exprs: list[Expr]) -> frozenset[int] | None:
        """The bytes (offsets from the word's start) `exprs`, terms of `fn`, read."""
        structs = [p.name for p in fn.params if p.struct is not None]
        if len(structs) != 1:
            return None
        got: dict[str, set[int] | None] = {}
        for e in exprs:
            self._expr(e, got)
        if any(buf != structs[0] for buf in got):
            return None
        return _frozen(got.get(structs[0], set()))

    def _fn(self, name: str) -> dict[str, frozenset[int] | None] | None:
        """Per struct parameter of `name`, the bytes (from the struct's start) it reads."""
        if name in self.done:
            return self.done[name]
        f = self.by_name.get(name)
        if f is None:
            return None
        self.done[name] = {p.name: None for p in f.params if p.struct is not None}  # recursion
        got: dict[str, set[int] | None] = {}
        for e in body_exprs(f.body):
            self._expr(e, got)
        out = {p.name: _frozen(got.get(p.name, set())) for p in f.params if p.struct is not None}
        if any(buf not in out for buf in got):
            out = {n: None for n in out}
        self.done[name] = out
        return out

    def _expr(self, e: Expr | View, got: dict[str, set[int] | None]) -> None:
        if isinstance(e, Load):
            self._view(e.view, range(e.size), got)
            for t, _ in e.view.offset.terms:
                self._expr(t, got)
            return
        if isinstance(e, Call):
            callee = self._fn(e.fn) if any(isinstance(a, View) for a in e.args) else {}
            f = self.by_name.get(e.fn)
            for k, a in enumerate(e.args):
                if not isinstance(a, View):
                    self._expr(a, got)
                    continue
                param = f.params[k].name if f is not None and k < len(f.params) else None
                at = None if callee is None or param is None else callee.get(param)
                self._view(a, at, got)
                for t, _ in a.offset.terms:
                    self._expr(t, got)
            return
        for child in children(e):
            self._expr(child, got)

    @staticmethod
    def _view(v: View, at: Iterable[int] | None, got: dict[str, set[int] | None]) -> None:
        """Note bytes `at` of view `v` read (None: any byte of its buffer)."""
        now = got.setdefault(v.buf, set())
        if now is None:
            return
        if at is None or v.offset.terms:
            got[v.buf] = None
            return
        now.update(v.offset.const + b for b in at)


def _frozen(at: set[int] | None) -> frozenset[int] | None:
    return None if at is None else frozenset(at)


def _bytes_literal(at: frozenset[int] | None) -> str:
    return "None" if at is None else f"frozenset({sorted(at)!r})"


def _expr(fn: LFunction) -> Expr:
    ret = fn.body[0]
    assert isinstance(ret, Return) and ret.e is not None  # a chain term: one `return e`
    return ret.e


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _full_scores(by_name: dict[str, LFunction]) -> dict[str, int]:
    """The score `_s_<name>` gives when every one of its terms holds."""
    out: dict[str, int] = {}

    def score(name: str) -> int:
        if name in out:
            return out[name]
        out[name] = 1  # a recursive helper: steering only
        body = by_name[name].body
        if len(body) == 1 and isinstance(body[0], Return) and body[0].e is not None:
            out[name] = sum(
                score(t.fn) if isinstance(t, Call) and t.fn in by_name else 1
                for t in conjuncts(body[0].e)
            )
        return out[name]

    for n in by_name:
        score(n)
    return out


TRIES = 48  # values tried per field and pass (a sample when it has more)


Pieces = tuple[tuple[int, tuple[tuple[Score, "frozenset[int] | None"], ...]], ...]


def climb(
    score: Score,
    accepts: Callable[[Any], Any],
    start: Any,
    found: list[Target],
    rng: Any,
    passes: int = 4,
    pieces: Pieces | None = None,
) -> Any:
    """Words of `start` (N, 64) moved field by field to the best-scoring edge values (up to
    TRIES of them, every one after a pass that raised no score); returns the first the C
    `accepts`, or none. Terms that raise count as not satisfied. A word's score depends on its
    bytes alone, so each distinct word is scored once (later passes revisit many). `pieces`
    (score_code's PIECES entry of `score`, when it has one) is `score` as the best of its
    alternatives' sums: a move's candidate words then run only the pieces that read the bytes
    it moves, the others' sum taken once from the word moved (the same scores: each piece is
    a function of the bytes it reads)."""
    import numpy as np

    memo: dict[bytes, int] = {}

    def scored(data: bytes) -> int:
        s = memo.get(data)
        if s is None:
            s = memo[data] = _safe_bytes(score, data)
        return s

    spans: dict[tuple[int, int], Any] = {}

    def scored_moves(data: bytes, lo: int, hi: int, words: list[bytes]) -> list[int]:
        """The scores of `words`, each `data` with bytes lo..hi changed."""
        if pieces is None:
            return [scored(w) for w in words]
        split = spans.get((lo, hi))
        if split is None:
            span = range(lo, hi)

            def moves(at: frozenset[int] | None) -> bool:
                return at is None or not at.isdisjoint(span)

            split = spans[(lo, hi)] = tuple(
                (
                    shift,
                    tuple(f for f, at in ps if moves(at)),
                    tuple(f for f, at in ps if not moves(at)),
                )
                for shift, ps in pieces
            )
        try:
            alts = [(shift + sum(f(data, 0) for f in kept), moved) for shift, moved, kept in split]
        except Exception:
            return [scored(w) for w in words]
        out = []
        for w in words:
            s = memo.get(w)
            if s is None:
                try:
                    s = max(base + sum(f(w, 0) for f in moved) for base, moved in alts)
                except Exception:
                    s = _safe_bytes(score, w)
                memo[w] = s
            out.append(s)
        return out

    words = start.copy()
    stalled = False
    for _ in range(passes):
        before = words.copy()
        level = [scored(w.tobytes()) for w in words]
        for k in rng.permutation(len(found)):
            t = found[int(k)]
            tries: Any = range(len(t.values))
            if len(t.values) > TRIES and not stalled:
                tries = sorted(int(v) for v in rng.choice(len(t.values), TRIES, replace=False))
            for w in words:
                if _step(scored, scored_moves, w, t, tries, rng) and accepts(w[None, :])[0]:
                    return w[None, :].copy()
        if accepts(words).any():
            return words[accepts(words)][:1].copy()
        if (words == before).all():
            break  # nowhere to move
        # a pass that raised no score tried too few values: the next tries every one
        stalled = [scored(w.tobytes()) for w in words] <= level
    return np.zeros((0, words.shape[1]), dtype=np.uint8)


def _step(
    scored: Callable[[bytes], int],
    scored_moves: Callable[[bytes, int, int, list[bytes]], list[int]],
    w: Any,
    t: Target,
    tries: Any,
    rng: Any,
) -> bool:
    """Set target `t` of word `w` to its best-scoring value of `tries` (a random one of those
    that score as well as the best: a plateau, such as two fields whose product must not be
    zero, is crossed by such sideways moves); True when the score rose. The candidate words
    are built as bytes (the field's candidates in one array operation), `w` written once."""
    data = w.tobytes()
    now = scored(data)
    lo, hi = t.offset, t.offset + t.size
    head, tail = data[:lo], data[hi:]
    kept = w[lo:hi] & ~t.mask
    raw = (kept | (t.values[list(tries)] & t.mask)).tobytes()
    n = t.size
    moved = [head + raw[i * n : i * n + n] + tail for i in range(len(raw) // n)]
    scores = scored_moves(data, lo, hi, moved)
    best = max(scores, default=now)
    if best < now:
        return False
    ties = [v for v, s in zip(tries, scores, strict=True) if s == best]
    pick = ties[int(rng.integers(len(ties)))]
    w[lo:hi] = kept | (t.values[pick] & t.mask)
    return best > now


def _safe(score: Score, word: Any) -> int:
    return _safe_bytes(score, word.tobytes())


def _safe_bytes(score: Score, data: bytes) -> int:
    try:
        return int(score(data, 0))
    except Exception:  # the search only steers; the C decides
        return FAILED


def spread(
    scores: dict[str, Any],
    name: str,
    seeds: Any,
    accepts: Callable[[Any], Any],
    found: list[Target],
    rng: Any,
    opcodes: tuple[int, ...],
    limit: int,
) -> Any:
    """`seeds` (words the C accepts for validator `name`) with, first, a word of each top-level
    alternative they miss: a climb on that alternative's score from the all-zero word under the
    gate's opcode it scores best on, ending at a word the C accepts and the alternative's own
    terms hold on (the scalar translation says which alternative a word is of; the C, that it
    is accepted). `scores` is the namespace of the module `score_code` made; at most `limit`
    words."""
    import numpy as np

    alternatives = scores.get(ALTERNATIVES, {}).get(name, ())
    new = []
    for score, most in alternatives:

        def held(W: Any, score: Score = score, most: int = most) -> Any:
            return np.array([_safe(score, w) >= most for w in W], dtype=bool)

        def ours(W: Any, held: Callable[[Any], Any] = held) -> Any:
            return accepts(W) & held(W)

        if seeds.shape[0] and held(seeds).any():
            continue
        start = np.zeros((1, seeds.shape[1]), dtype=np.uint8)
        if opcodes:  # the opcode of the gate the alternative's terms like best
            ranked = []
            for op in opcodes:
                start[0, 0] = op
                ranked.append(_safe(score, start[0]))
            start[0, 0] = opcodes[ranked.index(max(ranked))]
        new.append(climb(score, ours, start, found, rng, pieces=scores[PIECES].get(score)))
    if not new:
        return seeds
    return np.concatenate([*new, seeds])[:limit]
