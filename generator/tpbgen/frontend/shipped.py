"""The headers a generated package ships (its C validators compile them), read again from the drop
and held to the hashes the IR recorded."""

from __future__ import annotations

import hashlib

from ..errors import Diagnostic, TpbgenError, rebase
from ..input_files import read_regular
from .ingest import Ingested


def shipped_headers(results: list[Ingested]) -> dict[str, dict[str, str]]:
    """Each generation's headers as the package ships them (its C validators are compiled from
    them), read from the drop again and held to the hashes its IR recorded: a header edited since
    it was ingested is refused by name rather than shipped beside an IR of its other version."""
    out: dict[str, dict[str, str]] = {}
    changed: list[Diagnostic] = []
    for r in results:
        texts: dict[str, str] = {}
        for f in r.gen.files:  # every file the preprocessor read (a `.def` too), not the JSON
            if f.path.endswith(".json") or f.path.startswith("../"):
                continue
            try:
                data: bytes | None = read_regular(r.root / f.path, f.path)
            except (OSError, TpbgenError):  # (gone, or replaced by a FIFO: changed either way)
                data = None
            if data is None or hashlib.sha256(data).hexdigest() != f.sha256:
                message = "changed since tpbgen read the headers; nothing was written: run again"
                changed += rebase([Diagnostic(message, f.path, code="changed-during-read")], r.root)
                continue
            texts[f.path] = data.decode("utf-8", "replace")
        out[r.gen.name] = texts
    if changed:
        raise TpbgenError(changed)
    return out
