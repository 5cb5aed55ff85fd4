"""Execution traces: one JSON object per executed instruction (JSON Lines), the format
`tpb-isa-trace/1` that `tpb_isa/trace.schema.json` describes, to run the executor as a golden
model beside RTL or another simulator and compare (`diff`).

A record: the format, the instruction's index in the run and byte offset in its program, the
word in hex, its mnemonic, the spans it read and wrote (`info`'s, the executor's own walks),
the bytes it wrote in span order (hex, or their sha256 with `bytes="hash"`), its semaphore
effects and the numerics in force. An executor without `trace=` never comes here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from .info import Info, InstructionInfo, Span

FORMAT = "tpb-isa-trace/1"
FIELDS = (
    "format", "index", "offset", "word", "mnemonic", "footprint_known", "reads", "writes",
    "written", "written_sha256", "waits", "updates", "numerics",
)  # fmt: skip


def _spans(spans: tuple[Span, ...]) -> list[list[Any]]:
    return [[s.region, s.partition, s.start, s.stop] for s in spans]


class Tracer:
    """Writes one record per instruction an executor runs, to a file (a path: JSON Lines) or
    a callable (given each record as a dict)."""

    def __init__(
        self,
        sink: str | Path | Callable[[dict[str, Any]], None],
        executor: Any,
        bytes: str = "bytes",
    ) -> None:
        if bytes not in ("bytes", "hash"):
            raise ValueError(f"trace bytes is 'bytes' or 'hash', not {bytes!r}")
        self.mode = bytes
        self.info = Info(type(executor)._decoder, type(executor))
        self.count = 0
        self._file: IO[str] | None = None
        if callable(sink):
            self._emit = sink
        else:
            self._file = open(sink, "w", encoding="utf-8")  # noqa: SIM115 - closed by close()
            out = self._file

            def emit(rec: dict[str, Any]) -> None:
                out.write(json.dumps(rec, separators=(",", ":")) + "\n")
                out.flush()

            self._emit = emit

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def run(
        self, executor: Any, word: bytes, call: Callable[[], None], offset: int | None = None
    ) -> None:
        """Run `call` (the prepared `word`) and record it."""
        inf = self.info.info(word, executor)
        call()
        self._emit(self.record(executor, word, inf, self.count * 64 if offset is None else offset))
        self.count += 1

    def record(
        self, executor: Any, word: bytes, inf: InstructionInfo, offset: int
    ) -> dict[str, Any]:
        written = b"".join(
            (executor.sbuf if s.region == "sbuf" else executor.psum)[
                s.partition, s.start : s.stop
            ].tobytes()
            for s in inf.writes
        )
        return {
            "format": FORMAT,
            "index": self.count,
            "offset": offset,
            "word": word.hex(),
            "mnemonic": inf.mnemonic,
            "footprint_known": inf.footprint_known,
            "reads": _spans(inf.reads),
            "writes": _spans(inf.writes),
            "written": written.hex() if self.mode == "bytes" else None,
            "written_sha256": hashlib.sha256(written).hexdigest(),
            "waits": [[w.mode, w.index, w.value] for w in inf.waits],
            "updates": [[u.mode, u.index, u.value] for u in inf.updates],
            "numerics": dataclasses.asdict(executor.numerics),
        }


def records(path: str | Path) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                rec: dict[str, Any] = json.loads(line)
                yield rec


def diff(a: str | Path, b: str | Path) -> str:
    """ "" when the two traces agree record for record, else the first divergence: the
    instruction (index, offset, mnemonic) and the first field that differs, both values."""
    ia, ib = records(a), records(b)
    n = 0
    while True:
        ra, rb = next(ia, None), next(ib, None)
        if ra is None and rb is None:
            return ""
        if ra is None or rb is None:
            longer = "B" if ra is None else "A"
            return f"the traces differ in length: {longer} goes on after {n} records"
        for k in FIELDS:
            if ra.get(k) != rb.get(k):
                if k == "written" and None in (ra.get(k), rb.get(k)):
                    continue  # one side hashed its bytes: written_sha256 compares them
                return (
                    f"instruction {ra.get('index')} (offset {ra.get('offset', 0):#x}, "
                    f"{ra.get('mnemonic')}): {k} differs: A={json.dumps(ra.get(k))[:200]} "
                    f"B={json.dumps(rb.get(k))[:200]}"
                )
        n += 1
