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
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np

from .info import Info, InstructionInfo, Span
from .inputs import FileInputError, lines, writable_target

FORMAT = "tpb-isa-trace/1"
FIELDS = (
    "format", "index", "offset", "word", "mnemonic", "footprint_known", "reads", "writes",
    "written", "written_sha256", "waits", "updates", "numerics",
)  # fmt: skip


def _spans(spans: tuple[Span, ...]) -> list[list[Any]]:
    return [[s.region, s.partition, s.start, s.stop] for s in spans]


class Tracer:
    """Writes one record per instruction an executor runs, to a file (a path: JSON Lines) or
    a callable (given each record as a dict). TypeError for a sink that is neither (a file
    descriptor number included: the trace never writes into, or closes, a descriptor it was not
    given to own); ValueError for a path that is a directory or another special file an output
    cannot be (a `inputs.FileInputError`); OSError when the file cannot be created."""

    def __init__(
        self,
        sink: str | Path | Callable[[dict[str, Any]], None],
        executor: Any,
        bytes: str = "bytes",
    ) -> None:
        if bytes not in ("bytes", "hash"):
            raise ValueError(f"trace bytes is 'bytes' or 'hash', not {bytes!r}")
        if not (callable(sink) or isinstance(sink, (str, os.PathLike))):
            raise TypeError(
                f"trace: a path or a callable given each record, not {type(sink).__name__}"
            )
        self.mode = bytes
        self.info = Info(type(executor)._decoder, type(executor))
        self.generation: str = type(executor).GENERATION
        self.count = 0
        self._file: IO[str] | None = None
        if callable(sink):
            self._emit = sink
        else:
            try:
                writable_target(sink)
            except FileInputError as e:
                raise FileInputError(f"trace: {e}") from None
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
            "generation": self.generation,
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


#: the record fields trace-diff reads, with the JSON types each must have
_TYPES: dict[str, tuple[type, ...]] = {
    "index": (int,), "offset": (int,), "word": (str,), "mnemonic": (str,),
    "footprint_known": (bool,), "reads": (list,), "writes": (list,), "written": (str, type(None)),
    "written_sha256": (str,), "waits": (list,), "updates": (list,), "numerics": (dict,),
}  # fmt: skip
_JSON_TYPE = {int: "an integer", str: "a string", bool: "a boolean", list: "an array",
              dict: "an object", type(None): "null"}  # fmt: skip


def _json_type(v: Any) -> str:
    return "null" if v is None else _JSON_TYPE.get(type(v), type(v).__name__)


def _checked(rec: Any, where: str) -> dict[str, Any]:
    """`rec` when it is a record trace-diff can read (an object of this format whose fields
    have their types), else ValueError at `where` (`path:line`)."""
    if not isinstance(rec, dict):
        raise ValueError(f"{where}: a trace record is a JSON object, not {_json_type(rec)}")
    if rec.get("format") != FORMAT:
        raise ValueError(f"{where}: format is {json.dumps(rec.get('format'))}, not {FORMAT!r}")
    for k, types in _TYPES.items():
        v = rec.get(k)
        if k not in rec or not isinstance(v, types) or (bool not in types and isinstance(v, bool)):
            want = " or ".join(_JSON_TYPE[t] for t in types)
            got = "missing" if k not in rec else f"{_json_type(v)}"
            raise ValueError(f"{where}: {k} is {got}, not {want}")
    if len(rec["word"]) != 128 or any(c not in "0123456789abcdef" for c in rec["word"]):
        raise ValueError(f"{where}: word is not 128 lower-case hex digits")
    if not _spans_ok(rec["writes"]) or not _spans_ok(rec["reads"]):
        raise ValueError(f"{where}: reads and writes are [region, partition, start, stop] spans")
    w = rec["written"]
    if w is not None and (len(w) % 2 or any(c not in "0123456789abcdef" for c in w)):
        raise ValueError(f"{where}: written is not hex bytes")
    return rec


def _spans_ok(spans: list[Any]) -> bool:
    return all(
        isinstance(s, list)
        and len(s) == 4
        and s[0] in ("sbuf", "psum")
        and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in s[1:])
        and s[2] <= s[3]
        for s in spans
    )


def records(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, record) of each non-blank line of a trace file; ValueError (a
    `inputs.FileInputError` for the file itself) naming `path:line` for a line that is no
    record: not JSON, not an object (`null` included: it ends nothing), a field of the wrong
    type."""
    for n, raw in lines(path):
        if not raw.strip():
            continue
        where = f"{path}:{n}"
        try:
            text = raw.decode("utf-8")
            rec = json.loads(text)
        except UnicodeDecodeError as e:
            raise ValueError(f"{where}: not UTF-8 (byte {e.start})") from None
        except RecursionError:
            raise ValueError(f"{where}: JSON nested too deeply") from None
        except ValueError as e:
            raise ValueError(f"{where}: not JSON ({e})") from None
        yield n, _checked(rec, where)


Describe = Callable[[str, bytes], tuple[str, dict[str, Any] | None]]
"""(generation name, word) -> (the word's text form, its `to_dict` or None when undecodable);
the command line gives one over its package, so that this module imports no generation."""


def diff(
    a: str | Path, b: str | Path, describe: Describe | None = None, gen: str | None = None
) -> str:
    """ "" when the two traces agree record for record, else the first divergence: the
    instruction (index, offset and both words' text form, with `describe`), the fields of the
    words that differ (both values), every record field that differs (both values) and the first
    memory byte written differently (region, partition, offset, both values). `gen` names the
    generation of records that do not say theirs. ValueError naming the file and line of a
    record it cannot read."""
    ia, ib = records(a), records(b)
    n = 0
    while True:
        ra, rb = next(ia, None), next(ib, None)
        if ra is None and rb is None:
            return ""
        if ra is None or rb is None:
            longer, path, (line, _) = ("B", b, rb) if ra is None else ("A", a, ra)  # type: ignore[misc]
            return (
                f"the traces differ in length: {longer} goes on after {n} records ({path}:{line})"
            )
        why = divergence(ra[1], rb[1], describe, gen)
        if why:
            return f"{why}\n  at {a}:{ra[0]} and {b}:{rb[0]}"
        n += 1


def _differs(ra: dict[str, Any], rb: dict[str, Any]) -> list[str]:
    out = []
    for k in FIELDS:
        x, y = ra.get(k), rb.get(k)
        if x == y or (k == "written" and None in (x, y)):
            continue  # one side hashed its bytes: written_sha256 compares them
        out.append(k)
    return out


def divergence(
    ra: dict[str, Any], rb: dict[str, Any], describe: Describe | None = None, gen: str | None = None
) -> str:
    """ "" when two records agree, else what differs, by instruction, word field and byte."""
    keys = _differs(ra, rb)
    if not keys:
        return ""
    out = [f"instruction {ra['index']} (offset {ra['offset']:#x}) differs:"]
    words = (bytes.fromhex(ra["word"]), bytes.fromhex(rb["word"]))
    gens = (ra.get("generation") or gen, rb.get("generation") or gen)
    views: list[dict[str, Any] | None] = [None, None]
    for j, side in enumerate("AB"):
        g = gens[j]
        if describe is not None and isinstance(g, str):
            text, views[j] = describe(g, words[j])
        else:
            text = f"{words[j].hex()} (give --gen for the text form)"
        if "word" not in keys and gens[0] == gens[1]:
            out.append(f"  A and B: {text}")
            break
        out.append(f"  {side}: {text}")
    if "word" in keys:
        out += _word_fields(*views)
    for k in keys:
        if k == "written" and "written_sha256" in keys:
            continue  # the bytes: named below by the first that differs
        if k != "word":
            out.append(f"  {k}: A={json.dumps(ra[k])[:200]} B={json.dumps(rb[k])[:200]}")
    byte = first_byte_difference(ra, rb)
    if byte:
        out.append(f"  memory: first byte written differently: {byte}")
    elif "written_sha256" in keys and None in (ra["written"], rb["written"]):
        out.append(
            "  memory: the bytes written differ (hashed: run --trace-bytes bytes to name one)"
        )
    return "\n".join(out)


def _word_fields(va: dict[str, Any] | None, vb: dict[str, Any] | None) -> list[str]:
    """The lines naming each field two words' `to_dict` views differ in (both values)."""
    if va is None or vb is None:
        return []
    from .compat import field_differences

    found = field_differences(va, vb)
    out = [f"  field {path}: A={x} B={y}" for path, x, y in found]
    if not found and va.get("opcode") != vb.get("opcode"):
        out.append(f"  opcode: A={va.get('opcode')} B={vb.get('opcode')}")
    return out


def _written(rec: dict[str, Any]) -> list[tuple[str, int, int, int, bytes]]:
    data = bytes.fromhex(rec["written"])
    out, at = [], 0
    for region, partition, start, stop in rec["writes"]:
        out.append((region, partition, start, stop, data[at : at + stop - start]))
        at += stop - start
    return out


def first_byte_difference(ra: dict[str, Any], rb: dict[str, Any]) -> str:
    """The first byte (in A's span order) both records wrote, with different values, as
    `region[partition]+offset: A=0x.. B=0x..`; "" when none (or a side hashed its bytes)."""
    if ra["written"] is None or rb["written"] is None:
        return ""
    theirs = _written(rb)
    for region, partition, start, stop, data in _written(ra):
        best: tuple[int, int, int] | None = None
        for r2, p2, s2, e2, d2 in theirs:
            if (r2, p2) != (region, partition):
                continue
            lo, hi = max(start, s2), min(stop, e2)
            if lo >= hi:
                continue
            x = np.frombuffer(data, np.uint8, hi - lo, lo - start)
            y = np.frombuffer(d2, np.uint8, hi - lo, lo - s2)
            where = np.flatnonzero(x != y)
            if where.size and (best is None or lo + int(where[0]) < best[0]):
                at = int(where[0])
                best = (lo + at, int(x[at]), int(y[at]))
        if best is not None:
            off, va, vb = best
            return f"{region}[{partition}]+{off:#x}: A={va:#04x} B={vb:#04x}"
    return ""
