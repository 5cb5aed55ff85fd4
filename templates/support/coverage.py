"""Predicate coverage of a word set: for each term of each top-level validator's chain (every
term evaluated on every word its validator runs on, without C's short circuit) and for each C
predicate (every evaluation the scalar validators make of it, with the short circuit, as the C
runs), how often it was true and how often false; as text and as HTML."""

from __future__ import annotations

import html
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from .chains import Chain
from .vector import as_words

_PATCH = threading.Lock()  # the counting wrappers replace module globals: one run at a time


@dataclass(frozen=True)
class Count:
    true: int
    false: int

    @property
    def both(self) -> bool:
        return self.true > 0 and self.false > 0


@dataclass(frozen=True)
class Coverage:
    """`terms`: validator -> ((term, Count), ...) in chain order; `predicates`: C predicate ->
    Count of its evaluations; `words` how many words, `runs` per validator how many it ran on;
    `alternatives`: validator -> ((C text of a top-level `||` operand, indices of its terms),
    ...) for a validator with several (its terms counted on every word it ran on, each
    alternative reported on its own)."""

    generation: str
    words: int
    runs: Mapping[str, int]
    terms: Mapping[str, tuple[tuple[str, Count], ...]]
    predicates: Mapping[str, Count]
    alternatives: Mapping[str, tuple[tuple[str, tuple[int, ...]], ...]] = field(
        default_factory=dict
    )

    def groups(self, validator: str) -> list[tuple[str, list[tuple[str, Count]]]]:
        """The terms of `validator` by top-level alternative: [(its C text, its rows)], one
        group named "" for a validator with one."""
        rows = self.terms[validator]
        alts = self.alternatives.get(validator, ())
        if len(alts) <= 1:
            return [("", list(rows))]
        return [(label, [rows[k] for k in idx]) for label, idx in alts]

    def text(self) -> str:
        """One line per term and per predicate: true and false counts, `both` when each was seen."""
        lines = [f"coverage of {self.words} {self.generation} words"]
        for v, rows in self.terms.items():
            seen = sum(c.both for _, c in rows)
            lines.append(f"{v}: {self.runs[v]} words, {seen}/{len(rows)} terms both ways")
            for label, group in self.groups(v):
                if label:
                    held = sum(c.both for _, c in group)
                    lines.append(f" alternative {label}: {held}/{len(group)} terms both ways")
                for name, c in group:
                    mark = (
                        "both"
                        if c.both
                        else ("TRUE only" if c.true else ("FALSE only" if c.false else "never"))
                    )
                    lines.append(f"  {c.true:>9} {c.false:>9}  {mark:<10} {name}")
        seen = sum(c.both for c in self.predicates.values())
        lines.append(f"C predicates: {seen}/{len(self.predicates)} evaluated both ways")
        for name, c in sorted(self.predicates.items()):
            mark = (
                "both"
                if c.both
                else ("TRUE only" if c.true else ("FALSE only" if c.false else "never"))
            )
            lines.append(f"  {c.true:>9} {c.false:>9}  {mark:<10} {name}")
        return "\n".join(lines) + "\n"

    def html(self) -> str:
        """A self-contained HTML page of the same tables."""

        def table(rows: list[tuple[str, Count]]) -> str:
            body = "".join(
                f"<tr class={'ok' if c.both else 'gap'}><td>{c.true}</td><td>{c.false}</td>"
                f"<td><code>{html.escape(n)}</code></td></tr>"
                for n, c in rows
            )
            return f"<table><tr><th>true</th><th>false</th><th>term</th></tr>{body}</table>"

        parts = [
            "<!DOCTYPE html><html><head><meta charset=utf-8>",
            f"<title>coverage: {html.escape(self.generation)}</title><style>",
            "body{font-family:sans-serif}td{padding:0 .6em;text-align:right}",
            "td:last-child{text-align:left}.gap{background:#fdd}</style></head><body>",
            f"<h1>Coverage of {self.words} {html.escape(self.generation)} words</h1>",
        ]
        for v in self.terms:
            parts.append(f"<h2>{html.escape(v)} ({self.runs[v]} words)</h2>")
            for label, group in self.groups(v):
                if label:
                    parts.append(f"<h3>alternative <code>{html.escape(label)}</code></h3>")
                parts.append(table(group))
        parts.append(f"<h2>C predicates</h2>{table(sorted(self.predicates.items()))}")
        return "".join(parts) + "</body></html>\n"


@contextmanager
def _counting(
    validators: ModuleType, names: list[str], counts: dict[str, list[int]]
) -> Iterator[None]:
    saved: dict[str, Callable[..., Any]] = {}
    with _PATCH:
        try:
            for name in names:
                fn = validators.__dict__[f"_{name}"]
                saved[name] = fn
                slot = counts.setdefault(name, [0, 0])

                def counted(*a: Any, _fn: Callable[..., Any] = fn, _slot: list[int] = slot) -> Any:
                    r = _fn(*a)
                    _slot[0 if r else 1] += 1
                    return r

                validators.__dict__[f"_{name}"] = counted
            yield
        finally:
            for name, fn in saved.items():
                validators.__dict__[f"_{name}"] = fn


def coverage(
    generation: str,
    words: Any,
    chains: Mapping[str, Chain],
    dispatch: Mapping[int, tuple[str, ...]],
    validators: ModuleType,
) -> Coverage:
    """Coverage of `words` (anything `validate_batch` takes)."""
    W = as_words(words)
    terms: dict[str, tuple[tuple[str, Count], ...]] = {}
    runs: dict[str, int] = {}
    for v, chain in chains.items():
        ops = [op for op, names in dispatch.items() if v in names]
        rows = np.flatnonzero(np.isin(W[:, 0], ops))
        runs[v] = int(rows.size)
        M = chain.matrix(np.ascontiguousarray(W[rows]))
        t = M.sum(axis=1)
        terms[v] = tuple(
            (name, Count(int(t[k]), int(rows.size - t[k]))) for k, name in enumerate(chain.names)
        )
    names = sorted(
        n[3:]
        for n in validators.__dict__
        if n.startswith("_x_") and callable(validators.__dict__.get(f"_{n[3:]}"))
    )
    counts: dict[str, list[int]] = {}
    with _counting(validators, names, counts):
        g = validators.__dict__
        for row in W:
            b = row.tobytes()
            for v in dispatch.get(b[0], ()):
                g[f"_{v}"](b, 0)
    preds = {n: Count(c[0], c[1]) for n, c in counts.items()}
    alts = {v: c.alternatives for v, c in chains.items() if len(c.alternatives) > 1}
    return Coverage(generation, int(W.shape[0]), runs, terms, preds, alts)
