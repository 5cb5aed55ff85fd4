"""Reconcile `instruction_mapping.json` (as the IR holds it) with the OPCODE enum.

Reads only the IR and returns findings: stale names, double bindings, duplicates, unbound
opcodes, struct keys outside the ingested headers, pseudo-opcode checks; and applies waivers.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import Diagnostic, Severity, TpbgenError
from ..input_files import decode_utf8, read_regular
from ..ir.model import Generation, Mapping, MappingEntry
from ..resolve import OPCODE_ENUM, PSEUDO_OPCODE_ENUM, Binding, bindings


@dataclass(frozen=True)
class Finding:
    kind: str  # stale | double-bound | duplicate | duplicate-key | unbound | struct-outside | struct-defined | pseudo-stale | waived | waiver-unused
    severity: Severity
    gen: str
    struct: str
    name: str
    message: str
    suggestion: str
    pointer: str
    file: str
    line: int

    def diagnostic(self) -> Diagnostic:
        """The finding as a diagnostic at its JSON or header location, its kind as the code and the
        suggestion appended."""
        sugg = f" (did you mean {self.suggestion}?)" if self.suggestion else ""
        return Diagnostic(
            f"{self.message}{sugg}",
            self.file,
            self.line,
            0,
            self.severity,
            self.kind,
            self.pointer or None,
        )


def closest(name: str, candidates: list[str]) -> str:
    """The candidate most like `name`; "" when nothing is close. Ignores `_` so that a split or
    joined word (`DMA_BARRIER` / `DMABARRIER`) counts as the same name."""

    def squash(s: str) -> str:
        return s.replace("_", "")

    by_squash = {squash(c): c for c in candidates}
    if squash(name) in by_squash:
        return by_squash[squash(name)]
    got = difflib.get_close_matches(name, candidates, n=1, cutoff=0.8)
    return got[0] if got else ""


@dataclass(frozen=True)
class Waiver:
    kind: str
    name: str
    struct: str  # "" = any struct
    reason: str
    line: int


def read_waivers(path: Path) -> list[Waiver]:
    """A waiver file: one `kind name [struct] # reason` per line; `#` lines are comments."""
    out = []
    text = decode_utf8(read_regular(path, str(path)), str(path), "waiver")
    for n, line in enumerate(text.split("\n"), 1):
        body, _, reason = line.partition("#")
        parts = body.split()
        if not parts:
            continue
        if len(parts) not in (2, 3):
            raise TpbgenError(
                [
                    Diagnostic(
                        "waiver line must be: <kind> <name> [<struct>] # reason",
                        str(path),
                        n,
                        1,
                        Severity.ERROR,
                        "waiver",
                    )
                ]
            )
        out.append(
            Waiver(parts[0], parts[1], parts[2] if len(parts) == 3 else "", reason.strip(), n)
        )
    return out


def waivers_for(directory: Path | None, gen: str) -> tuple[list[Waiver], str]:
    """The waivers `DIR/<gen>.waivers` holds (none when there is no such file) and that file's
    name. A `--waivers` directory that does not exist is an error, not an empty set."""
    if directory is None:
        return [], ""
    if not directory.is_dir():
        raise TpbgenError(
            [
                Diagnostic(
                    "waivers directory does not exist or is not a directory",
                    str(directory),
                    code="waivers-dir",
                )
            ]
        )
    path = directory / f"{gen}.waivers"
    if not os.path.lexists(path):
        return [], ""  # (a directory, a FIFO or a symlink loop there is refused by read_waivers)
    return read_waivers(path), str(path)


def reconcile(
    gen: Generation,
    strict: bool = False,
    waivers: list[Waiver] | None = None,
    waiver_file: str = "",
) -> list[Finding]:
    """The findings of `gen`'s instruction_mapping.json against its OPCODE (and PSEUDO_OPCODE)
    enum, in order: each section's keys and names, then the opcodes bound twice, then those
    bound to none; the waivers applied (a stale name is an error under `strict`)."""
    m = gen.mapping
    if m is None:
        return []
    checks = _Reconciler(gen, m, Severity.ERROR if strict else Severity.WARNING)
    opcode_set = checks.opcodes
    checks.section(m.struct2opcode, opcode_set, False)
    checks.section(m.struct2pseudo_opcode, opcode_set | checks.pseudo_names, True)
    bound = {n: b for n, b in bindings(gen).items() if n in opcode_set}
    checks.double_bound(bound)
    checks.unbound(bound)
    return apply_waivers(checks.out, waivers or [], gen.name, waiver_file)


class _Reconciler:
    """The findings of one generation's mapping, gathered in order into `out`."""

    def __init__(self, gen: Generation, mapping: Mapping, stale_severity: Severity) -> None:
        self.gen, self.mapping, self.stale_severity = gen, mapping, stale_severity
        self.opcode_enum = gen.find_enum(OPCODE_ENUM)
        self.opcodes = {x.name for x in self.opcode_enum.members} if self.opcode_enum else set()
        self.pseudo_enum = gen.find_enum(PSEUDO_OPCODE_ENUM)
        self.pseudo_names = (
            {x.name for x in self.pseudo_enum.members} if self.pseudo_enum else set()
        )
        self.struct_names = {s.name for s in gen.structs}
        self.out: list[Finding] = []

    def add(
        self,
        kind: str,
        severity: Severity,
        entry: MappingEntry,
        name: str,
        message: str,
        suggestion: str = "",
        index: int | None = None,
    ) -> None:
        """A finding about `entry` (about its `index`th name when given)."""
        pointer = entry.pointer + (f"/{index}" if index is not None else "")
        self.out.append(
            Finding(
                kind,
                severity,
                self.gen.name,
                entry.struct,
                name,
                message,
                suggestion,
                pointer,
                self.mapping.file,
                entry.line,
            )
        )

    def section(self, section: tuple[MappingEntry, ...], valid: set[str], is_pseudo: bool) -> None:
        """One section's entries: a key given twice, then each entry's names and its struct."""
        keys: set[str] = set()
        for entry in section:
            if entry.struct in keys:
                self.add(
                    "duplicate-key",
                    Severity.ERROR,
                    entry,
                    entry.struct,
                    f"{entry.struct} is a key twice in this section; JSON keeps only the last list, so one binding would be lost silently",
                )
                continue
            keys.add(entry.struct)
            self.names(entry, valid, is_pseudo)
            self.struct(entry)

    def names(self, entry: MappingEntry, valid: set[str], is_pseudo: bool) -> None:
        """The opcode names one entry lists: each once, each defined by the enums, and one under
        struct2pseudo_opcode a pseudo opcode."""
        seen: set[str] = set()
        for i, name in enumerate(entry.opcodes):
            if name in seen:
                self.add(
                    "duplicate",
                    Severity.ERROR,
                    entry,
                    name,
                    f"{name} is listed twice for {entry.struct}",
                    index=i,
                )
                continue
            seen.add(name)
            if name not in valid:
                where = (
                    "OPCODE or PSEUDO_OPCODE enum"
                    if is_pseudo and self.pseudo_enum
                    else "OPCODE enum"
                )
                self.add(
                    "stale",
                    self.stale_severity,
                    entry,
                    name,
                    f"{entry.struct} lists {name}, which the {self.gen.name} {where} does not define",
                    closest(name, sorted(valid)),
                    index=i,
                )
                continue
            if is_pseudo and name in self.opcodes and not _is_pseudo_value(self.gen, name):
                self.add(
                    "pseudo-not-pseudo",
                    Severity.WARNING,
                    entry,
                    name,
                    f"{name} under struct2pseudo_opcode is not a pseudo opcode (upper three bits of its value are not 0b110)",
                    index=i,
                )

    def struct(self, entry: MappingEntry) -> None:
        """Whether the ingested headers define the entry's struct (information either way)."""
        if entry.struct in self.struct_names:
            self.add(
                "struct-defined",
                Severity.INFO,
                entry,
                entry.struct,
                f"{entry.struct} is defined by the ingested headers",
            )
        else:
            self.add(
                "struct-outside",
                Severity.INFO,
                entry,
                entry.struct,
                f"{entry.struct} is not defined by any ingested header (outside the ingested set)",
            )

    def double_bound(self, bound: dict[str, Binding]) -> None:
        """Each opcode bound to more than one struct, found at its second binding."""
        m = self.mapping
        for name, b in sorted(bound.items()):
            if b.ambiguous:
                second = next(
                    e for e in m.struct2opcode + m.struct2pseudo_opcode if e.struct == b.structs[1]
                )
                self.add(
                    "double-bound",
                    Severity.ERROR,
                    second,
                    name,
                    f"{name} is bound to more than one struct: {', '.join(b.structs)}",
                )

    def unbound(self, bound: dict[str, Binding]) -> None:
        """Each OPCODE member (but *_INVALID) bound to no struct, found at the enum member."""
        if self.opcode_enum is None:
            return
        for member in self.opcode_enum.members:
            if member.name not in bound and not member.name.endswith("_INVALID"):
                self.out.append(
                    Finding(
                        "unbound",
                        Severity.INFO,
                        self.gen.name,
                        "",
                        member.name,
                        f"{member.name} is bound to no struct",
                        "",
                        "",
                        member.loc.file,
                        member.loc.line,
                    )
                )


def _is_pseudo_value(gen: Generation, name: str) -> bool:
    e = gen.find_enum(OPCODE_ENUM)
    assert e is not None
    v = next(x.value for x in e.members if x.name == name)
    return (v >> 5) == 0b110


def apply_waivers(
    findings: list[Finding], waivers: list[Waiver], gen: str, waiver_file: str
) -> list[Finding]:
    """`findings` with each one a waiver matches (kind, name, and struct when the waiver names one)
    replaced by an INFO finding of kind `waived` carrying the waiver's reason; a waiver that
    matches no finding becomes a `waiver-unused` warning at its line in `waiver_file`."""
    used: set[int] = set()
    out: list[Finding] = []
    for f in findings:
        hit = next(
            (
                w
                for w in waivers
                if w.kind == f.kind and w.name == f.name and w.struct in ("", f.struct)
            ),
            None,
        )
        if hit is None or f.severity == Severity.INFO:
            out.append(f)
            continue
        used.add(hit.line)
        out.append(
            Finding(
                "waived",
                Severity.INFO,
                f.gen,
                f.struct,
                f.name,
                f"{f.message} (waived: {hit.reason or 'no reason given'})",
                f.suggestion,
                f.pointer,
                f.file,
                f.line,
            )
        )
    for w in waivers:
        if w.line not in used:
            out.append(
                Finding(
                    "waiver-unused",
                    Severity.WARNING,
                    gen,
                    w.struct,
                    w.name,
                    f"waiver '{w.kind} {w.name}' matches no finding on {gen}",
                    "",
                    "",
                    waiver_file,
                    w.line,
                )
            )
    return out
