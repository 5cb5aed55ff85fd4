"""The optional firmware overlay of a drop: `firmware_status.json` at the header root, beside the
`neuron_<gen>_arch_isa/` trees. The headers mark an opcode only `// Y` or `// n`; the overlay adds
what the device firmware does with it (a working body, a stub, nothing), per generation and by
enumerator name. It is read against its schema (`ir/firmware.schema.json`) and every name against
that generation's OPCODE enum; a bad overlay is an input error located by JSON pointer. Without
the file nothing changes."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import __version__
from ..cache import Cache
from ..errors import Diagnostic, Severity, TpbgenError
from ..input_files import load_json, pointer_token, read_optional
from ..ir.firmware import FirmwareFact, FirmwareOverlay
from ..ir.model import Generation
from ..resolve import opcode_enum
from .mapping_json import ir_schema

OVERLAY_NAME = "firmware_status.json"
__all__ = ["OVERLAY_NAME", "FirmwareFact", "FirmwareOverlay", "read_overlay"]


def overlay_schema() -> dict[str, Any]:
    """The JSON schema a firmware overlay must follow (ir/firmware.schema.json)."""
    return ir_schema("firmware.schema.json")


def _schema_key(raw: bytes) -> str:
    """The file's bytes and the schema it passed (tpbgen's version with it)."""
    h = hashlib.sha256(f"overlay-schema tpbgen {__version__}\n".encode())
    h.update(json.dumps(overlay_schema(), sort_keys=True).encode())
    h.update(b"\n" + raw)
    return h.hexdigest()


def _check_schema(doc: Any, raw: bytes, rel: str, cache: Cache | None) -> None:
    """Raise the schema's violations, located by JSON pointer; a pass is remembered."""
    key = _schema_key(raw) if cache is not None else ""
    if cache is not None and cache.get("overlay", "schema", key) == {"passed": True}:
        return
    import jsonschema

    validator = jsonschema.Draft202012Validator(overlay_schema())
    errors = sorted(validator.iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        raise TpbgenError(
            [
                _error(
                    f"schema violation: {e.message}",
                    rel,
                    "/" + "/".join(pointer_token(str(p)) for p in e.absolute_path),
                )
                for e in errors
            ]
        )
    if cache is not None:
        cache.put("overlay", "schema", key, {"passed": True})


def _error(message: str, rel: str, pointer: str = "", line: int = 0, col: int = 0) -> Diagnostic:
    return Diagnostic(
        message, rel, line, col, Severity.ERROR, "firmware-overlay", pointer=pointer or None
    )


def read_overlay(
    root: Path, gens: Sequence[Generation], shown: str = "", cache: Cache | None = None
) -> FirmwareOverlay | None:
    """The overlay at `root` (None when there is none), checked against `gens`. `shown` is how
    diagnostics name the file (default: the path under `root`'s name). With `cache`, a file
    whose bytes passed the schema before is not checked against it again (a warm run then
    does not load jsonschema); the names are checked against `gens` every time."""
    path = root / OVERLAY_NAME
    rel = shown or str(path)
    raw = read_optional(path, rel)  # (a directory, a FIFO or a symlink loop there is refused)
    if raw is None:
        return None
    doc = load_json(raw, rel, "firmware-overlay")
    _check_schema(doc, raw, rel, cache)
    known = {g.name: g for g in gens}
    problems: list[Diagnostic] = []
    by_gen: dict[str, tuple[FirmwareFact, ...]] = {}
    for gen_name, entries in doc["generations"].items():
        where = f"/generations/{pointer_token(gen_name)}"
        g = known.get(gen_name)
        if g is None:
            problems.append(
                _error(
                    f"no generation '{gen_name}' in this drop (it has {', '.join(sorted(known))})",
                    rel,
                    where,
                )
            )
            continue
        enum = opcode_enum(g)
        values = {m.name: m.value for m in enum.members} if enum is not None else {}
        facts: list[FirmwareFact] = []
        named: dict[int, str] = {}  # opcode value -> the first name the overlay gave it by
        for name, fact in entries.items():
            at = f"{where}/{pointer_token(name)}"
            if name not in values:
                problems.append(
                    _error(f"the {gen_name} OPCODE enum does not define {name}", rel, at)
                )
                continue
            first = named.setdefault(values[name], name)
            if first != name:  # an enumerator alias: one opcode, given a state twice
                problems.append(
                    _error(
                        f"{name} is opcode {values[name]:#x}, which {first} already names "
                        f"(an alias): one opcode, two entries",
                        rel,
                        at,
                    )
                )
                continue
            facts.append(FirmwareFact(values[name], name, fact["firmware"], fact.get("note", "")))
        by_gen[gen_name] = tuple(sorted(facts, key=lambda f: f.opcode))
    if problems:
        raise TpbgenError(problems)
    return FirmwareOverlay(rel, hashlib.sha256(raw).hexdigest(), by_gen)
