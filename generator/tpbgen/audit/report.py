"""Findings -> text, Markdown, JSON and HTML.

Every decision (grouping, ordering, labels, colours, which bytes are marked) is made here; the
Jinja2 templates under templates/audit/ only render the view model they are given.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

import jinja2

from .. import __version__, collector, templating
from ..ir.model import Generation, Struct
from ..resolve import OPCODE_ENUM, MaintenanceStatus
from .classify import CLASSES, Finding, counts, fails
from .diff import Side, bindings_of, is_reserved
from .facts import facts
from .kinds import CATEGORIES, KINDS

REPORT_FORMAT = "tpbgen-audit"
REPORT_FORMAT_VERSION = 1


@dataclass(frozen=True)
class GenInfo:
    label: str  # what the user named: a generation name, or the tpb/ path as given
    name: str
    core_version: str
    tpb_dir: str

    @classmethod
    def of(cls, gen: Generation, label: str | None = None) -> GenInfo:
        """A side of a transition: `gen`, shown as `label` when the user named it so."""
        return cls(label or gen.name, gen.name, gen.core_version, gen.tpb_dir)

    def heading(self) -> str:
        """The side's heading in the report: its label and, when known, its core version."""
        return f"{self.label} ({self.core_version})" if self.core_version else self.label

    def to_json(self) -> dict[str, Any]:
        """The side as the JSON report writes it (audit/report.schema.json)."""
        return {
            "label": self.label,
            "generation": self.name,
            "core_version": self.core_version,
            "tpb_dir": self.tpb_dir,
        }


@dataclass(frozen=True)
class Transition:
    old: GenInfo
    new: GenInfo
    findings: tuple[Finding, ...]
    old_gen: Generation = field(compare=False, repr=False)
    new_gen: Generation = field(compare=False, repr=False)

    def counts(self) -> dict[str, int]:
        """How many of the transition's findings fall in each class (every class, zero included)."""
        return counts(self.findings)


@dataclass(frozen=True)
class AuditReport:
    transitions: tuple[Transition, ...]
    generations: tuple[Generation, ...] = field(compare=False, repr=False)
    labels: tuple[str, ...] = ()
    # the drop's firmware overlay, per generation name: opcode -> (state, note); {} without one
    firmware: dict[str, dict[int, tuple[str, str]]] = field(default_factory=dict, compare=False)

    def findings(self) -> list[Finding]:
        """Every transition's findings, in transition order."""
        return [f for t in self.transitions for f in t.findings]


# -- derived views ------------------------------------------------------------------------------
def opcode_matrix(
    gens: Sequence[Generation],
    labels: Sequence[str],
    firmware: dict[str, dict[int, tuple[str, str]]] | None = None,
) -> dict[str, Any]:
    """Opcode value x generation: present?, name, maintenance status, the structs decoding it,
    and, when the drop has a firmware overlay, what the firmware does with it."""
    per_gen: list[dict[int, Any]] = []
    values: set[int] = set()
    for g in gens:
        fw = (firmware or {}).get(g.name, {})
        e = g.find_enum(OPCODE_ENUM)
        _, dec = facts(g).memo("bindings", partial(bindings_of, g))
        cells: dict[int, Any] = {}
        for m in e.members if e else ():
            if m.value in cells:
                continue
            mt = m.maintenance
            status = str(MaintenanceStatus.of(mt))
            cells[m.value] = {
                "present": True,
                "name": m.name,
                "status": status,
                "marker": mt.marker if mt else None,
                "note": mt.note if mt else "",
                "decodable_via": dec.get(m.name, []),
                "loc": f"{m.loc.file}:{m.loc.line}",
            }
            if firmware:
                state, note = fw.get(m.value, ("", ""))
                cells[m.value].update(firmware=state, firmware_note=note)
            values.add(m.value)
        per_gen.append(cells)
    absent: dict[str, Any] = {
        "present": False,
        "name": None,
        "status": "absent",
        "marker": None,
        "note": "",
        "decodable_via": [],
        "loc": "",
    }
    rows = []
    for v in sorted(values):
        cells_v = [pg.get(v, absent) for pg in per_gen]
        names = [c["name"] for c in cells_v if c["name"]]
        uniform = (
            len({(c["present"], c["status"], c["name"], bool(c["decodable_via"])) for c in cells_v})
            == 1
        )
        rows.append(
            {
                "value": v,
                "hex": f"{v:#04x}",
                "name": names[-1] if names else "",
                "uniform": uniform,
                "cells": cells_v,
            }
        )
    return {"generations": list(labels), "rows": rows}


def _owner_key(s: Struct, b: int) -> tuple[Any, ...]:
    keys: list[tuple[Any, ...]] = []
    for f in s.fields:
        if f.offset <= b < f.offset + f.size:
            if is_reserved(f.name):
                keys.append(("<reserved>",))
            else:
                keys.append((f.name, f.type.name, f.dims, b - f.offset, f.bit_offset, f.bit_width))
    return tuple(sorted(set(keys)))


def _owner_label(s: Struct | None, b: int) -> tuple[str, str]:
    if s is None or b >= s.size:
        return "", "outside the struct"
    names = [f for f in s.fields if f.offset <= b < f.offset + f.size]
    if not names:
        return "·", f"byte {b}: padding"
    label = "/".join(dict.fromkeys(f.name for f in names))
    title = f"byte {b}: " + "; ".join(
        f"{f.name} ({f.type.spelled}{''.join(f'[{d}]' for d in f.dims)}) +{b - f.offset}"
        for f in names
    )
    return label, title


def byte_maps(t: Transition) -> list[dict[str, Any]]:
    """OLD and NEW byte maps of every struct present on both sides with a layout finding."""
    names: list[str] = []
    for f in t.findings:
        if f.category == "structs" and f.kind not in ("struct.added", "struct.removed"):
            s = str(f.detail.get("struct", ""))
            if s and s not in names:
                names.append(s)
    out = []
    for name in names:
        try:
            so, sn = t.old_gen.struct(name), t.new_gen.struct(name)
        except KeyError:
            continue
        size = max(so.size, sn.size)
        cells = []
        for b in range(size):
            ol, ot = _owner_label(so, b)
            nl, nt = _owner_label(sn, b)
            changed = b >= so.size or b >= sn.size or _owner_key(so, b) != _owner_key(sn, b)
            css = ["chg"] if changed else []
            cells.append(
                {
                    "byte": b,
                    "old": ol,
                    "old_title": ot,
                    "new": nl,
                    "new_title": nt,
                    "changed": changed,
                    "old_css": " ".join(css + ([] if ol else ["out"])) or "same",
                    "new_css": " ".join(css + ([] if nl else ["out"])) or "same",
                }
            )
        rows = [cells[i : i + 8] for i in range(0, size, 8)]
        out.append(
            {
                "struct": name,
                "old_size": so.size,
                "new_size": sn.size,
                "old_where": f"{so.loc.file}:{so.loc.line}",
                "new_where": f"{sn.loc.file}:{sn.loc.line}",
                "changed_bytes": sum(1 for c in cells if c["changed"]),
                "rows": rows,
            }
        )
    return out


# -- JSON ---------------------------------------------------------------------------------------
def to_json(report: AuditReport, fail_on: str) -> dict[str, Any]:
    """The whole audit as the JSON report (audit/report.schema.json): format and versions, the
    generations, the --fail-on threshold and whether it fails, totals, and each transition with
    its sides, counts and findings."""
    all_findings = report.findings()
    return {
        "format": REPORT_FORMAT,
        "format_version": REPORT_FORMAT_VERSION,
        "tpbgen_version": __version__,
        "generations": list(report.labels),
        "fail_on": fail_on,
        "fails": fails(all_findings, fail_on),
        "totals": counts(all_findings),
        "transitions": [
            {
                "old": t.old.to_json(),
                "new": t.new.to_json(),
                "counts": t.counts(),
                "findings": [f.to_json() for f in t.findings],
            }
            for t in report.transitions
        ],
        "opcode_matrix": opcode_matrix(report.generations, report.labels, report.firmware),
    }


def render_json(report: AuditReport, fail_on: str = "breaking") -> str:
    """The audit as the JSON report (see `to_json`), indented, with a final newline."""
    return dumps_indented(to_json(report, fail_on)) + "\n"


_ENCODE_STR = json.encoder.encode_basestring_ascii  # json's own (C) string encoder


def dumps_indented(doc: Any) -> str:
    """`json.dumps(doc, indent=2, sort_keys=True)`, the same text, made without json's
    pure-Python indenting encoder (which was most of the JSON report's time). A value outside
    str/int/float/bool/None/list/tuple/dict-with-str-keys goes to json.dumps itself."""
    try:
        return _indented(doc, "")
    except _NotPlain:
        return json.dumps(doc, indent=2, sort_keys=True)


class _NotPlain(Exception):
    pass


def _indented(v: Any, pad: str) -> str:
    if isinstance(v, str):
        return _ENCODE_STR(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return int.__repr__(v)
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise _NotPlain
        return float.__repr__(v)
    inner = pad + "  "
    if isinstance(v, dict):
        if not v:
            return "{}"
        if not all(isinstance(k, str) for k in v):
            raise _NotPlain
        items = sorted(v.items())
        body = (",\n" + inner).join(f"{_ENCODE_STR(k)}: {_indented(x, inner)}" for k, x in items)
        return "{\n" + inner + body + "\n" + pad + "}"
    if isinstance(v, (list, tuple)):
        if not v:
            return "[]"
        body = (",\n" + inner).join(_indented(x, inner) for x in v)
        return "[\n" + inner + body + "\n" + pad + "]"
    raise _NotPlain


# -- the view model for the templates ----------------------------------------------------------
_ANSI = {
    "encoding-breaking": "\x1b[1;31m",
    "api-breaking": "\x1b[1;35m",
    "additive": "\x1b[32m",
    "informational": "\x1b[36m",
    "+": "\x1b[32m",
    "-": "\x1b[31m",
    "~": "\x1b[33m",
    "dim": "\x1b[2m",
    "bold": "\x1b[1m",
}
_RESET = "\x1b[0m"


def kind_label(kind: str) -> str:
    """A finding kind as a reader sees it: its declared label, else its name with the separators as
    spaces (a kind the registry does not know still prints)."""
    known = KINDS.get(kind)
    return known.shown() if known is not None else kind.replace(".", " ").replace("-", " ")


def where(side: Side) -> str:
    """Where one side of a finding is: `file:line`, and for an absent side where it would be."""
    s = f"{side.file}:{side.line}"
    if not side.present:
        s += f" (absent; {side.near})" if side.near else " (absent)"
    return s


def _short(text: str, n: int = 90) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def term_lines(f: Finding) -> list[dict[str, Any]]:
    """The structural diff lines of a validator finding: `+ term`, `- term`, and for a
    disjunction whose arms changed, its head line and `+ arm` / `- arm` lines below it."""
    if f.kind != "function.changed":
        return []
    lines: list[dict[str, Any]] = []
    for t in f.detail.get("terms", []):
        prefix = "let " if t["kind"] == "let" else ""
        if t["op"] in "+-":
            lines.append({"op": t["op"], "text": prefix + t["text"], "indent": 0})
        else:
            n = len(t["arms"])
            lines.append(
                {
                    "op": "~",
                    "text": f"in the disjunction `{_short(t['old_text'])}` ({n} arm{'s' * (n != 1)} changed):",
                    "indent": 0,
                }
            )
            for arm in t["arms"]:
                lines.append({"op": arm["op"], "text": "arm " + arm["text"], "indent": 1})
    return lines


def _finding_view(f: Finding, colour: bool) -> dict[str, Any]:
    lines = term_lines(f)
    for ln in lines:
        ln["c"] = _ANSI[ln["op"]] if colour else ""
        ln["r"] = _RESET if colour else ""
        ln["pad"] = "    " * ln["indent"]
        ln["md"] = f"{'  ' * ln['indent']}{ln['op']} {ln['text']}"
        ln["css"] = {"+": "plus", "-": "minus", "~": "tilde"}[ln["op"]]
    return {
        "id": f.id,
        "kind": f.kind,
        "kind_label": kind_label(f.kind),
        "category": f.category,
        "cls": f.cls,
        "subject": f.subject,
        "summary": f.summary,
        "reason": f.reason,
        "old_where": where(f.old),
        "new_where": where(f.new),
        "lines": lines,
    }


def _groups(findings: Iterable[Finding], colour: bool) -> list[dict[str, Any]]:
    fs = list(findings)
    order = {c: i for i, c in enumerate(CATEGORIES)}
    out = []
    for cls in CLASSES:
        members = sorted(
            (f for f in fs if f.cls == cls), key=lambda f: order.get(f.category, len(order))
        )
        if members:
            out.append(
                {
                    "cls": cls,
                    "n": len(members),
                    "c": _ANSI[cls] if colour else "",
                    "r": _RESET if colour else "",
                    "findings": [_finding_view(f, colour) for f in members],
                }
            )
    return out


_SYMBOL = {
    MaintenanceStatus.MAINTAINED: "Y",
    MaintenanceStatus.NOT_MAINTAINED: "n",
    MaintenanceStatus.UNMARKED: "·",
    "absent": "—",
}


def _matrix_view(matrix: dict[str, Any]) -> dict[str, Any]:
    """The opcode matrix as the HTML and Markdown templates show it: per cell a symbol, a hover
    title (marker, decodability, firmware, place), a CSS class and the Markdown text; per row the
    opcode's short name."""
    rows = []
    for r in matrix["rows"]:
        cells = []
        for g, c in zip(matrix["generations"], r["cells"], strict=True):
            sym = _SYMBOL[c["status"]]
            if c["present"]:
                marker = (
                    c["marker"] + (f", {c['note']}" if c["note"] else "")
                    if c["marker"]
                    else "no marker"
                )
                dec = (
                    f"decodable as {', '.join(c['decodable_via'])}"
                    if c["decodable_via"]
                    else "not decodable"
                )
                fw = f"; firmware: {c['firmware']}" if c.get("firmware") else ""
                title = f"{g}: {c['name']} ({marker}; {dec}{fw}) {c['loc']}"
            else:
                title = f"{g}: absent"
            css = c["status"] + (" dec" if c["decodable_via"] else "")
            cells.append(
                {
                    **c,
                    "symbol": sym,
                    "title": title,
                    "css": css,
                    "md": sym
                    + (" +D" if c["decodable_via"] else "")
                    + (f" fw:{c['firmware']}" if c.get("firmware") else ""),
                }
            )
        rows.append(
            {**r, "short": str(r["name"]).removeprefix("NEURON_ISA_TPB_OPCODE_"), "cells": cells}
        )
    return {"generations": matrix["generations"], "rows": rows}


def view(report: AuditReport, colour: bool = False, fail_on: str = "breaking") -> dict[str, Any]:
    """The audit as the text, Markdown and HTML templates show it: per transition its headings,
    anchor, sides, counts by class (coloured for a terminal when `colour`) and findings grouped
    for display, and whether `fail_on` fails it."""
    transitions: list[dict[str, Any]] = []
    for t in report.transitions:
        c = t.counts()
        transitions.append(
            {
                "heading": f"{t.old.heading()} -> {t.new.heading()}",
                "md_heading": f"{t.old.label} → {t.new.label}",
                "old_heading": t.old.heading(),
                "new_heading": t.new.heading(),
                "anchor": f"t-{len(transitions) + 1}",
                "old": t.old.to_json(),
                "new": t.new.to_json(),
                "counts": [
                    {
                        "cls": k,
                        "n": c[k],
                        "c": _ANSI[k] if colour and c[k] else "",
                        "r": _RESET if colour and c[k] else "",
                    }
                    for k in CLASSES
                ],
                "total": sum(c.values()),
                "groups": _groups(t.findings, colour),
                "byte_maps": byte_maps(t),
            }
        )
    totals = counts(report.findings())
    matrix = _matrix_view(opcode_matrix(report.generations, report.labels, report.firmware))
    changed_rows = [r for r in matrix["rows"] if not r["uniform"]]
    return {
        "title": " -> ".join(report.labels),
        "md_title": " → ".join(report.labels),
        "classes": list(CLASSES),
        "totals": [{"cls": k, "n": totals[k]} for k in CLASSES],
        "fail_on": fail_on,
        "fails": fails(report.findings(), fail_on),
        "verdict": "fails" if fails(report.findings(), fail_on) else "passes",
        "transitions": transitions,
        "matrix": matrix,
        "matrix_changed_rows": changed_rows,
        "bold": _ANSI["bold"] if colour else "",
        "dim": _ANSI["dim"] if colour else "",
        "reset": _RESET if colour else "",
    }


# -- templates ----------------------------------------------------------------------------------
@cache
def environment() -> jinja2.Environment:
    """templates/audit/ through the one environment factory (its `md` filter escapes text for
    Markdown: tpbgen.escaping)."""
    return templating.environment("audit")


def render_template(name: str, **ctx: Any) -> str:
    """The report template `name` (templates/audit/) rendered with `ctx`."""
    return environment().get_template(name).render(**ctx)


def render_text(report: AuditReport, colour: bool = False, fail_on: str = "breaking") -> str:
    """The audit as terminal text (ANSI colours when `colour`)."""
    return render_template("report.txt.j2", v=view(report, colour, fail_on))


def render_markdown(report: AuditReport, fail_on: str = "breaking") -> str:
    """The audit as Markdown."""
    return render_template("report.md.j2", v=view(report, False, fail_on))


def render_html(report: AuditReport, fail_on: str = "breaking") -> str:
    """The audit as an HTML page."""
    return render_template("report.html.j2", v=view(report, False, fail_on))


def render(report: AuditReport, fmt: str, colour: bool = False, fail_on: str = "breaking") -> str:
    """The audit in format `fmt` ("json", "md", "html", anything else text), with the cycle
    collector paused while it renders."""
    with collector.paused():  # the audit's objects form no cycles (tests/audit/test_facts.py)
        return _render(report, fmt, colour, fail_on)


def _render(report: AuditReport, fmt: str, colour: bool, fail_on: str) -> str:
    if fmt == "json":
        return render_json(report, fail_on)
    if fmt == "md":
        return render_markdown(report, fail_on)
    if fmt == "html":
        return render_html(report, fail_on)
    return render_text(report, colour, fail_on)
