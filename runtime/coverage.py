"""Predicate coverage of a word set: for each term of each top-level validator's chain (every
term evaluated on every word its validator runs on, without C's short circuit) and for each C
predicate (every evaluation the scalar validators make of it, with the short circuit, as the C
runs), how often it was true and how often false; which opcodes the words hit, valid and
rejected; for a program (words in the order they run), which opcodes read what which others
wrote (read-after-write pairs by opcode); as text and as HTML, each term under a readable label
(`label`) with its C text beside it."""

from __future__ import annotations

import html
import re
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
class OpcodeHits:
    """How many words of one opcode byte a word set has: `valid` ones (some validator the
    opcode runs accepts it) and `rejected` ones; `name` the opcode's enumerator ("" if none)."""

    name: str
    valid: int
    rejected: int


_ENUM_CHECK = re.compile(r"is_valid_enum_(\w+)\(([\w.\[\]]+)\)")


def label(term: str) -> str:
    """A chain term's C text made readable: the field paths as the instruction names them (the
    translator's `unknown.` dropped), enum checks said in words, the `NEURON_ISA_TPB_` prefix
    dropped, and the helpers it sits in after it in brackets:
    `has_valid_neuron_header(i) > is_valid_enum_opcode(unknown.header.opcode)` reads
    `header.opcode is an opcode enumerator [in has_valid_neuron_header]`."""
    *path, leaf = term.split(" > ")
    leaf = re.sub(r"\bunknown\.", "", leaf)
    leaf = re.sub(r"\bNEURON_ISA_TPB_", "", leaf)
    m = _ENUM_CHECK.fullmatch(leaf)
    if m:
        leaf = f"{m[2]} is {'an' if m[1][0] in 'aeiou' else 'a'} {m[1]} enumerator"
    where = " > ".join(p.removesuffix("(i)") for p in path)
    return f"{leaf} [in {where}]" if where else leaf


def _mark(c: Count) -> str:
    return "both" if c.both else ("TRUE only" if c.true else ("FALSE only" if c.false else "never"))


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
    # opcode byte -> its words, valid and rejected (every opcode the words have, and every
    # opcode a validator runs on, at zero when the words miss it)
    opcodes: Mapping[int, OpcodeHits] = field(default_factory=dict)
    # (writer's opcode, reader's opcode) -> how many times a word read bytes a word of the
    # first opcode was the last to write before it; None when the words were not taken as a
    # program (`coverage(..., program=True)`)
    dependencies: Mapping[tuple[int, int], int] | None = None

    def opcode_name(self, op: int) -> str:
        h = self.opcodes.get(op)
        return f"{op:#04x} {h.name}" if h and h.name else f"{op:#04x}"

    def groups(self, validator: str) -> list[tuple[str, list[tuple[str, Count]]]]:
        """The terms of `validator` by top-level alternative: [(its C text, its rows)], one
        group named "" for a validator with one."""
        rows = self.terms[validator]
        alts = self.alternatives.get(validator, ())
        if len(alts) <= 1:
            return [("", list(rows))]
        return [(text, [rows[k] for k in idx]) for text, idx in alts]

    def text(self) -> str:
        """One line per term and per predicate: true and false counts, `both` when each was seen."""
        lines = [f"coverage of {self.words} {self.generation} words"]
        lines += self._opcode_lines() + self._dependency_lines()
        for v, rows in self.terms.items():
            seen = sum(c.both for _, c in rows)
            lines.append(f"{v}: {self.runs[v]} words, {seen}/{len(rows)} terms both ways")
            for alt, group in self.groups(v):
                if alt:
                    held = sum(c.both for _, c in group)
                    lines.append(f" alternative {alt}: {held}/{len(group)} terms both ways")
                for name, c in group:
                    lines.append(f"  {c.true:>9} {c.false:>9}  {_mark(c):<10} {label(name)}")
        seen = sum(c.both for c in self.predicates.values())
        lines.append(f"C predicates: {seen}/{len(self.predicates)} evaluated both ways")
        for name, c in sorted(self.predicates.items()):
            lines.append(f"  {c.true:>9} {c.false:>9}  {_mark(c):<10} {name}")
        return "\n".join(lines) + "\n"

    def _opcode_lines(self) -> list[str]:
        if not self.opcodes:
            return []
        hit = [op for op, h in self.opcodes.items() if h.valid or h.rejected]
        both = sum(1 for h in self.opcodes.values() if h.valid and h.rejected)
        lines = [
            f"opcodes: {len(hit)} of {len(self.opcodes)} hit, {both} both valid and rejected",
            f"  {'valid':>9} {'rejected':>9}  opcode",
        ]
        for op, h in sorted(self.opcodes.items()):
            lines.append(f"  {h.valid:>9} {h.rejected:>9}  {self.opcode_name(op)}")
        return lines

    def _dependency_lines(self) -> list[str]:
        if self.dependencies is None:
            return []
        lines = [
            f"read-after-write pairs by opcode: {len(self.dependencies)} pairs, "
            f"{sum(self.dependencies.values())} reads of an earlier word's writes",
            f"  {'reads':>9}  writer -> reader",
        ]
        for (w, r), k in sorted(self.dependencies.items()):
            lines.append(f"  {k:>9}  {self.opcode_name(w)} -> {self.opcode_name(r)}")
        return lines

    def html(self) -> str:
        """A self-contained HTML page of the same tables."""

        def table(rows: list[tuple[str, Count]], readable: bool = True) -> str:
            body = "".join(
                f"<tr class={'ok' if c.both else 'gap'}><td>{c.true}</td><td>{c.false}</td>"
                f"<td>{html.escape(label(n) if readable else n)}"
                + (f"<br><code>{html.escape(n)}</code>" if readable else "")
                + "</td></tr>"
                for n, c in rows
            )
            return (
                "<div class=scroll><table><tr><th>true</th><th>false</th><th>term</th></tr>"
                f"{body}</table></div>"
            )

        parts = [
            "<!DOCTYPE html><html><head><meta charset=utf-8>",
            '<meta name=viewport content="width=device-width, initial-scale=1">',
            f"<title>coverage: {html.escape(self.generation)}</title><style>",
            "body{font-family:sans-serif;margin:1em}",
            ".scroll{max-width:100%;overflow-x:auto}",
            "table{border-collapse:collapse}",
            "td,th{padding:0 .6em;text-align:right;vertical-align:top}",
            "td:last-child,th:last-child{text-align:left;overflow-wrap:anywhere}",
            "code{overflow-wrap:anywhere;color:#555}",
            ".gap{background:#fdd}</style></head><body>",
            f"<h1>Coverage of {self.words} {html.escape(self.generation)} words</h1>",
        ]
        if self.opcodes:
            rows = "".join(
                f"<tr class={'ok' if h.valid and h.rejected else 'gap'}><td>{h.valid}</td>"
                f"<td>{h.rejected}</td><td>{html.escape(self.opcode_name(op))}</td></tr>"
                for op, h in sorted(self.opcodes.items())
            )
            parts.append(
                "<h2>Opcodes</h2><div class=scroll><table><tr><th>valid</th><th>rejected</th>"
                f"<th>opcode</th></tr>{rows}</table></div>"
            )
        if self.dependencies is not None:
            rows = "".join(
                f"<tr><td>{k}</td><td>{html.escape(self.opcode_name(w))}</td>"
                f"<td>{html.escape(self.opcode_name(r))}</td></tr>"
                for (w, r), k in sorted(self.dependencies.items())
            )
            parts.append(
                "<h2>Read-after-write pairs by opcode</h2><div class=scroll><table><tr>"
                f"<th>reads</th><th>writer</th><th>reader</th></tr>{rows}</table></div>"
            )
        for v in self.terms:
            parts.append(f"<h2>{html.escape(v)} ({self.runs[v]} words)</h2>")
            for alt, group in self.groups(v):
                if alt:
                    parts.append(f"<h3>alternative <code>{html.escape(alt)}</code></h3>")
                parts.append(table(group))
        preds = table(sorted(self.predicates.items()), readable=False)
        parts.append(f"<h2>C predicates</h2>{preds}")
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
    opcode_names: Mapping[int, str] | None = None,
    dependencies: Mapping[tuple[int, int], int] | None = None,
) -> Coverage:
    """Coverage of `words` (anything `validate_batch` takes); `opcode_names` names the opcode
    bytes, `dependencies` the read-after-write pairs by opcode when the words are a program."""
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
    names_of = opcode_names or {}
    hits = {op: [0, 0] for op in dispatch}
    with _counting(validators, names, counts):
        g = validators.__dict__
        for row in W:
            b = row.tobytes()
            ok = False
            for v in dispatch.get(b[0], ()):
                ok = bool(g[f"_{v}"](b, 0)) or ok
            hits.setdefault(b[0], [0, 0])[0 if ok else 1] += 1
    preds = {n: Count(c[0], c[1]) for n, c in counts.items()}
    alts = {v: c.alternatives for v, c in chains.items() if len(c.alternatives) > 1}
    opcodes = {op: OpcodeHits(names_of.get(op, ""), v, r) for op, (v, r) in sorted(hits.items())}
    return Coverage(
        generation,
        int(W.shape[0]),
        runs,
        terms,
        preds,
        alts,
        opcodes,
        None if dependencies is None else dict(dependencies),
    )
