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


def pointer_token(token: str) -> str:
    """One JSON pointer reference token (RFC 6901: `~` and `/` escaped)."""
    return token.replace("~", "~0").replace("/", "~1")


def _key_lines(text: str) -> dict[str, list[int]]:
    """The lines of every `"KEY":` in the file, in order (a key may occur more than once)."""
    lines: dict[str, list[int]] = {}
    for n, line in enumerate(text.split("\n"), 1):
        for m in re.finditer(r'"([^"\\]+)"\s*:', line):
            lines.setdefault(m.group(1), []).append(n)
    return lines


class _Object(dict[str, Any]):
    """A JSON object that remembers every key/value pair, duplicates included (json keeps the last)."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.pairs = pairs


def _duplicate_keys(node: Any, pointer: str, sections: bool) -> list[str]:
    """Pointers of duplicated keys outside the two sections (inside them reconcile reports them)."""
    out: list[str] = []
    if isinstance(node, _Object):
        seen: set[str] = set()
        for k, v in node.pairs:
            if k in seen and not (
                sections and pointer in ("/struct2opcode", "/struct2pseudo_opcode")
            ):
                out.append(f"{pointer}/{pointer_token(k)}")
            seen.add(k)
            out.extend(_duplicate_keys(v, f"{pointer}/{pointer_token(k)}", sections))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(_duplicate_keys(v, f"{pointer}/{i}", sections))
    return out


def read_mapping(raw: bytes | None, rel: str) -> Mapping:
    """The mapping file's bytes (None: the file is missing), `rel` its name in diagnostics."""
    import jsonschema

    if raw is None:
        raise TpbgenError(
            [Diagnostic("instruction_mapping.json is missing", rel, code="missing-file")]
        )
    text = raw.decode("utf-8", errors="replace")
    try:
        doc = json.loads(text, object_pairs_hook=_Object)
    except json.JSONDecodeError as exc:
        raise TpbgenError(
            [
                Diagnostic(
                    f"malformed JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                    rel,
                    exc.lineno,
                    exc.colno,
                    Severity.ERROR,
                    "json",
                )
            ]
        ) from None
    except RecursionError:
        raise TpbgenError(
            [Diagnostic("malformed JSON: nested too deeply", rel, code="json")]
        ) from None
    dupes = _duplicate_keys(doc, "", sections=True)
    if dupes:
        raise TpbgenError(
            [
                Diagnostic(
                    "duplicate key: JSON keeps only the last value, so the file says two things",
                    rel,
                    code="json-duplicate-key",
                    pointer=p,
                )
                for p in dupes
            ]
        )
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
