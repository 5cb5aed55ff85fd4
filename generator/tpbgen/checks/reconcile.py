"""Reconcile `instruction_mapping.json` (as the IR holds it) with the OPCODE enum.

Reads only the IR and returns findings: stale names, double bindings, duplicates, unbound
opcodes, struct keys outside the ingested headers, pseudo-opcode checks; and applies waivers.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from ..errors import Diagnostic, Severity, TpbgenError
from ..ir.model import Generation, MappingEntry
from ..resolve import OPCODE_ENUM, PSEUDO_OPCODE_ENUM, bindings


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
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
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
    if not path.is_file():
        return [], ""
    return read_waivers(path), str(path)


def reconcile(
    gen: Generation,
    strict: bool = False,
    waivers: list[Waiver] | None = None,
    waiver_file: str = "",
) -> list[Finding]:
    m = gen.mapping
    if m is None:
        return []
    opcode_enum = gen.find_enum(OPCODE_ENUM)
    opcodes = [x.name for x in opcode_enum.members] if opcode_enum else []
    opcode_set = set(opcodes)
    pseudo_enum = gen.find_enum(PSEUDO_OPCODE_ENUM)
    struct_names = {s.name for s in gen.structs}
    stale_sev = Severity.ERROR if strict else Severity.WARNING
    out: list[Finding] = []

    def add(
        kind: str,
        sev: Severity,
        entry: MappingEntry,
        name: str,
        message: str,
        suggestion: str = "",
        index: int | None = None,
    ) -> None:
        pointer = entry.pointer + (f"/{index}" if index is not None else "")
        out.append(
            Finding(
                kind,
                sev,
                gen.name,
                entry.struct,
                name,
                message,
                suggestion,
                pointer,
                m.file,
                entry.line,
            )
        )

    pseudo_names = {x.name for x in pseudo_enum.members} if pseudo_enum else set()
    for section, valid in (
        (m.struct2opcode, opcode_set),
        (m.struct2pseudo_opcode, opcode_set | pseudo_names),
    ):
        is_pseudo = section is m.struct2pseudo_opcode
        keys: set[str] = set()
        for entry in section:
            if entry.struct in keys:
                add(
                    "duplicate-key",
                    Severity.ERROR,
                    entry,
                    entry.struct,
                    f"{entry.struct} is a key twice in this section; JSON keeps only the last list, so one binding would be lost silently",
                )
                continue
            keys.add(entry.struct)
            seen: set[str] = set()
            for i, name in enumerate(entry.opcodes):
                if name in seen:
                    add(
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
                        if is_pseudo and pseudo_enum
                        else "OPCODE enum"
                    )
                    add(
                        "stale",
                        stale_sev,
                        entry,
                        name,
                        f"{entry.struct} lists {name}, which the {gen.name} {where} does not define",
                        closest(name, sorted(valid)),
                        index=i,
                    )
                    continue
                if is_pseudo and name in opcode_set and not _is_pseudo_value(gen, name):
                    add(
                        "pseudo-not-pseudo",
                        Severity.WARNING,
                        entry,
                        name,
                        f"{name} under struct2pseudo_opcode is not a pseudo opcode (upper three bits of its value are not 0b110)",
                        index=i,
                    )
            if entry.struct in struct_names:
                add(
                    "struct-defined",
                    Severity.INFO,
                    entry,
                    entry.struct,
                    f"{entry.struct} is defined by the ingested headers",
                )
            else:
                add(
                    "struct-outside",
                    Severity.INFO,
                    entry,
                    entry.struct,
                    f"{entry.struct} is not defined by any ingested header (outside the ingested set)",
                )
    bound = {n: b for n, b in bindings(gen).items() if n in opcode_set}
    for name, b in sorted(bound.items()):
        if b.ambiguous:
            second = next(
                e for e in m.struct2opcode + m.struct2pseudo_opcode if e.struct == b.structs[1]
            )
            add(
                "double-bound",
                Severity.ERROR,
                second,
                name,
                f"{name} is bound to more than one struct: {', '.join(b.structs)}",
            )
    if opcode_enum is not None:
        for member in opcode_enum.members:
            if member.name not in bound and not member.name.endswith("_INVALID"):
                out.append(
                    Finding(
                        "unbound",
                        Severity.INFO,
                        gen.name,
                        "",
                        member.name,
                        f"{member.name} is bound to no struct",
                        "",
                        "",
                        member.loc.file,
                        member.loc.line,
                    )
                )
    return apply_waivers(out, waivers or [], gen.name, waiver_file)


def _is_pseudo_value(gen: Generation, name: str) -> bool:
    e = gen.find_enum(OPCODE_ENUM)
    assert e is not None
    v = next(x.value for x in e.members if x.name == name)
    return (v >> 5) == 0b110


def apply_waivers(
    findings: list[Finding], waivers: list[Waiver], gen: str, waiver_file: str
) -> list[Finding]:
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
