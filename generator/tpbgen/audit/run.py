"""Audit one pair of generations, or walk a sequence of them pair by pair."""

from __future__ import annotations

from collections.abc import Sequence

from .. import collector
from ..ir.model import Generation
from .classify import classify_all
from .diff import diff
from .report import AuditReport, GenInfo, Transition


def audit_pair(
    old: Generation, new: Generation, old_label: str | None = None, new_label: str | None = None
) -> Transition:
    """The transition from `old` to `new`: every difference the differ finds, classified."""
    findings = tuple(classify_all(diff(old, new)))
    return Transition(GenInfo.of(old, old_label), GenInfo.of(new, new_label), findings, old, new)


def audit_walk(gens: Sequence[Generation], labels: Sequence[str] | None = None) -> AuditReport:
    """OLD -> NEW for every consecutive pair of `gens` (sunda -> cayman -> mariana -> maverick)."""
    names = list(labels) if labels is not None else [g.name for g in gens]
    if len(names) != len(gens):
        raise ValueError("one label per generation")
    with collector.paused():
        transitions = tuple(
            audit_pair(a, b, la, lb)
            for a, b, la, lb in zip(gens, gens[1:], names, names[1:], strict=False)
        )
    return AuditReport(transitions, tuple(gens), tuple(names))
