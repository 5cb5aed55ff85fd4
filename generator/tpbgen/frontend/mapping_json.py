"""Read `instruction_mapping.json` against its schema into the IR's `Mapping` (part of ingest).

Reconciling it with the OPCODE enum is a check on the IR: `tpbgen.checks.reconcile`.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import Diagnostic, Severity, TpbgenError
from ..ir.model import Mapping, MappingEntry


@cache
def mapping_schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((resources.files("tpbgen") / "ir" / "mapping.schema.json").read_text(encoding="utf-8"))
    return data


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _key_lines(text: str) -> dict[str, int]:
    """Line of each `"KEY": [` in the file: the first occurrence of each key string."""
    lines: dict[str, int] = {}
    for n, line in enumerate(text.splitlines(), 1):
        for m in re.finditer(r'"([^"\\]+)"\s*:', line):
            lines.setdefault(m.group(1), n)
    return lines


def read_mapping(path: Path, rel: str) -> Mapping:
    import jsonschema

    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise TpbgenError([Diagnostic("instruction_mapping.json is missing", rel, code="missing-file")]) from None
    text = raw.decode("utf-8", errors="replace")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TpbgenError([Diagnostic(f"malformed JSON: {exc.msg}", rel, exc.lineno, exc.colno, Severity.ERROR, "json")]) from None
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
                    pointer="/" + "/".join(_escape(str(p)) for p in e.absolute_path),
                )
                for e in errors
            ]
        )
    lines = _key_lines(text)

    def entries(section: str) -> tuple[MappingEntry, ...]:
        return tuple(
            MappingEntry(k, tuple(v), f"/{section}/{_escape(k)}", lines.get(k, 0)) for k, v in doc[section].items()
        )

    return Mapping(rel, hashlib.sha256(raw).hexdigest(), entries("struct2opcode"), entries("struct2pseudo_opcode"))
