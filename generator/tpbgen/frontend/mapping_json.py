"""Read `instruction_mapping.json` against its schema into the IR's `Mapping` (part of ingest).

Reconciling it with the OPCODE enum is a check on the IR: `tpbgen.checks.reconcile`.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from importlib import resources
from typing import Any

from ..errors import Diagnostic, Severity, TpbgenError
from ..input_files import load_json, pointer_token
from ..ir.model import Mapping, MappingEntry


@cache
def ir_schema(name: str) -> dict[str, Any]:
    """A JSON Schema shipped in tpbgen/ir/ (`mapping.schema.json`, `firmware.schema.json`)."""
    data: dict[str, Any] = json.loads(
        (resources.files("tpbgen") / "ir" / name).read_text(encoding="utf-8")
    )
    return data


def mapping_schema() -> dict[str, Any]:
    """The JSON schema instruction_mapping.json must follow (ir/mapping.schema.json)."""
    return ir_schema("mapping.schema.json")


def _key_lines(text: str) -> dict[str, list[int]]:
    """The lines of every `"KEY":` in the file, in order (a key may occur more than once)."""
    lines: dict[str, list[int]] = {}
    for n, line in enumerate(text.split("\n"), 1):
        for m in re.finditer(r'"([^"\\]+)"\s*:', line):
            lines.setdefault(m.group(1), []).append(n)
    return lines


def read_mapping(raw: bytes | None, rel: str) -> Mapping:
    """The mapping file's bytes (None: the file is missing), `rel` its name in diagnostics."""
    import jsonschema

    if raw is None:
        raise TpbgenError(
            [Diagnostic("instruction_mapping.json is missing", rel, code="missing-file")]
        )
    doc = load_json(
        raw,
        rel,
        "json",
        duplicates_allowed_in=frozenset(("/struct2opcode", "/struct2pseudo_opcode")),
    )  # (a key twice inside the two sections: reconcile reports it, with both bindings)
    text = raw.decode("utf-8")
    validator = jsonschema.Draft202012Validator(mapping_schema())
    errors = sorted(validator.iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        raise TpbgenError(
            [
                Diagnostic(
                    f"schema violation: {e.message}",
                    rel,
                    severity=Severity.ERROR,
                    code="json-schema",
                    pointer="/" + "/".join(pointer_token(str(p)) for p in e.absolute_path),
                )
                for e in errors
            ]
        )
    lines = _key_lines(text)
    used: dict[str, int] = {}

    def line_of(key: str) -> int:  # the n-th occurrence of a key that occurs n times
        n = used.get(key, 0)
        used[key] = n + 1
        found = lines.get(key, [])
        return found[n] if n < len(found) else (found[-1] if found else 0)

    def entries(section: str) -> tuple[MappingEntry, ...]:
        line_of(section)
        return tuple(
            MappingEntry(k, tuple(v), f"/{section}/{pointer_token(k)}", line_of(k))
            for k, v in doc[section].pairs
        )

    return Mapping(
        rel,
        hashlib.sha256(raw).hexdigest(),
        entries("struct2opcode"),
        entries("struct2pseudo_opcode"),
    )
