"""Wrong arguments at every public entry point of the generated runtime, and what each raises.

`sweep()` returns one line per call that does not raise the documented exception: TypeError for
a wrong type, ValueError (or its documented subclass: DecodeError, AsmError) for a wrong length
or value, each message starting with the argument's name; the executor's own errors
(InvalidInstructionError, AddressError) where its docs say so. Run as a script with a
comma-separated list of modules to block (`python argument_sweep.py ml_dtypes,cffi`), it blocks
their import first, as a machine without the optional extras has them, and prints the failures as
JSON: the answers must not change with the extras.
"""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Callable
from typing import Any

Case = tuple[str, Callable[[], object], type[BaseException] | tuple[type[BaseException], ...], str]


def _cases() -> list[Case]:
    import numpy as np

    import tpb_isa
    from tpb_isa._runtime.addressing import AddressError
    from tpb_isa._runtime.codec import DecodeError
    from tpb_isa._runtime.text import AsmError

    m = tpb_isa.gen("mariana")
    S, E = m.structs, m.enums
    from tpb_isa.mariana.executor import Executor, InvalidInstructionError

    word = S.S3D3_TS(header=S.Header(E.Opcode.TENSOR_SCALAR_ARITH_OP)).to_bytes()
    ex = Executor(backend="numpy")
    f32 = np.zeros((2, 4), np.float32)
    cases: list[Case] = [
        ("gen(None)", lambda: tpb_isa.gen(None), TypeError, "name:"),  # type: ignore[arg-type]
        ("gen(3)", lambda: tpb_isa.gen(3), TypeError, "name:"),  # type: ignore[arg-type]
        ("gen('nc9')", lambda: tpb_isa.gen("nc9"), KeyError, '"unknown generation'),
    ]
    for name in ("decode", "disasm", "to_dict", "validate", "explain"):
        fn = getattr(m, name)
        cases.append((f"{name}(None)", lambda fn=fn: fn(None), TypeError, "word:"))
        cases.append((f"{name}(1.5)", lambda fn=fn: fn(1.5), TypeError, "word:"))
        cases.append((f"{name}(f64 row)", lambda fn=fn: fn(np.zeros(64)), TypeError, "word:"))
    for name in ("decode", "disasm", "to_dict"):
        fn = getattr(m, name)
        cases.append((f"{name}(10 bytes)", lambda fn=fn: fn(b"x" * 10), ValueError, "word:"))
    cases.append(("decode(10 bytes) type", lambda: m.decode(b"x" * 10), DecodeError, "word:"))
    cases += [
        ("asm(None)", lambda: m.asm(None), TypeError, "text:"),
        ("asm(bytes)", lambda: m.asm(b"NOP"), TypeError, "text:"),
        ("asm('nope')", lambda: m.asm("nope"), AsmError, "1:1:"),
        ("from_dict(None)", lambda: m.from_dict(None), TypeError, "data:"),
        ("from_dict([1])", lambda: m.from_dict([1]), TypeError, "data:"),
        (
            "from_dict(hex zz)",
            lambda: m.from_dict({"opcode": None, "hex": "zz"}),
            AsmError,
            "/hex:",
        ),
        ("from_dict(hex short)", lambda: m.from_dict({"opcode": None}), AsmError, "/hex:"),
        (
            "from_dict(fields [])",
            lambda: m.from_dict({"opcode": "NOP", "fields": []}),
            AsmError,
            "/fields:",
        ),
        ("validate(backend x)", lambda: m.validate(word, backend="x"), ValueError, "backend"),
    ]
    for name in ("validate_batch", "decode_batch", "explain_batch"):
        fn = getattr(m, name)
        cases += [
            (f"{name}(None)", lambda fn=fn: fn(None), TypeError, "words:"),
            (f"{name}(3)", lambda fn=fn: fn(3), TypeError, "words:"),
            (f"{name}(65 bytes)", lambda fn=fn: fn(b"x" * 65), ValueError, "words:"),
            (f"{name}(f64)", lambda fn=fn: fn(np.zeros((2, 64))), TypeError, "words:"),
            (
                f"{name}((2, 63))",
                lambda fn=fn: fn(np.zeros((2, 63), np.uint8)),
                ValueError,
                "words:",
            ),
            (f"{name}([short])", lambda fn=fn: fn([word, b"x"]), ValueError, "words:"),
            (f"{name}([None])", lambda fn=fn: fn([None]), TypeError, "words[0]:"),
        ]
    for name in ("opcode_decodable", "opcode_status", "validators_for"):
        fn = getattr(m, name)
        cases += [
            (f"{name}('x')", lambda fn=fn: fn("x"), TypeError, "opcode:"),
            (f"{name}(None)", lambda fn=fn: fn(None), TypeError, "opcode:"),
            (f"{name}(300)", lambda fn=fn: fn(300), ValueError, "opcode:"),
            (f"{name}(-1)", lambda fn=fn: fn(-1), ValueError, "opcode:"),
        ]
    cases += [
        ("S.from_bytes(None)", lambda: S.S3D3_TS.from_bytes(None), TypeError, "S3D3_TS"),
        ("S.from_bytes(short)", lambda: S.S3D3_TS.from_bytes(b"x"), DecodeError, "S3D3_TS"),
        (
            "S.from_bytes(offset 'x')",
            lambda: S.S3D3_TS.from_bytes(bytes(64), "x"),
            TypeError,
            "S3D3_TS",
        ),
        ("Union(3)", lambda: S.ImmValInstField(3), TypeError, "ImmValInstField"),
        ("Union(short)", lambda: S.ImmValInstField(b"x"), ValueError, "ImmValInstField"),
        (
            "Union.of('nope')",
            lambda: S.ImmValInstField.of("nope", 1),
            ValueError,
            "ImmValInstField",
        ),
        (
            "union.arm('nope')",
            lambda: S.ImmValInstField().arm("nope"),
            ValueError,
            "ImmValInstField",
        ),
        ("S(op0=None)", lambda: S.S3D3_TS(op0=None), TypeError, "S3D3_TS.op0"),
        ("S(op0='nope')", lambda: S.S3D3_TS(op0="nope"), ValueError, "S3D3_TS.op0"),
        (
            "S(num_active_channels=300)",
            lambda: S.S3D3_TS(num_active_channels=300),
            ValueError,
            "S3D3_TS.num_active_channels",
        ),
        ("Executor(numerics=3)", lambda: Executor(numerics=3), TypeError, "numerics:"),
        ("Executor(backend=3)", lambda: Executor(backend=3), TypeError, "backend:"),
        ("Executor(backend='x')", lambda: Executor(backend="x"), ValueError, "backend"),
        ("ex.write(float64)", lambda: ex.write(0, np.zeros((2, 4))), TypeError, "array:"),
        ("ex.write(str)", lambda: ex.write(0, "abc"), TypeError, "array:"),
        ("ex.write(addr None)", lambda: ex.write(None, f32), TypeError, "addr:"),
        ("ex.write(1-D)", lambda: ex.write(0, np.zeros(4, np.float32)), ValueError, "write takes"),
        (
            "ex.write(partitions 'x')",
            lambda: ex.write(0, f32, partitions="x"),
            TypeError,
            "partitions:",
        ),
        ("ex.read(dtype 'nope')", lambda: ex.read(0, "nope", (1, 4)), TypeError, "dtype:"),
        ("ex.read(shape 'x')", lambda: ex.read(0, np.float32, "x"), TypeError, "shape:"),
        ("ex.read(addr 'x')", lambda: ex.read("x", np.float32, (1, 4)), TypeError, "addr:"),
        ("ex.read_at(region 3)", lambda: ex.read_at(3, 0, 0, np.float32, 4), TypeError, "region:"),
        (
            "ex.write_at(region 'XX')",
            lambda: ex.write_at("XX", 0, 0, f32),
            AddressError,
            "no memory region",
        ),
        ("ex.sbuf_addr('x')", lambda: ex.sbuf_addr("x"), TypeError, "partition:"),
        ("ex.psum_addr(0, 'x')", lambda: ex.psum_addr(0, "x"), TypeError, "offset:"),
        ("ex.sbuf_addr(9999)", lambda: ex.sbuf_addr(9999), AddressError, "SBUF partition 9999"),
        ("ex.locate('x')", lambda: ex.locate("x"), TypeError, "addr:"),
        ("ex.set_register('x', 1)", lambda: ex.set_register("x", 1), TypeError, "n:"),
        ("ex.set_register(0, None)", lambda: ex.set_register(0, None), TypeError, "value:"),
        ("ex.set_register(10**6, 1)", lambda: ex.set_register(10**6, 1), ValueError, "n:"),
        ("ex.run(None)", lambda: ex.run(None), TypeError, "word:"),
        ("ex.run(short)", lambda: ex.run(b"x"), InvalidInstructionError, "mariana: a TPB"),
        ("ex.run_program(None)", lambda: ex.run_program(None), TypeError, "words:"),
        ("ex.run_program(3)", lambda: ex.run_program(3), TypeError, "words:"),
        ("ex.run_program([None])", lambda: ex.run_program([None]), TypeError, "words[0]:"),
    ]
    cases += _buffer_and_file_cases(m, S, ex, word, Executor)
    cases += _validator_cases(tpb_isa)
    return cases


class _LyingBytes(bytes):
    """A bytes subclass whose `len()` says 64 whatever it holds."""

    def __len__(self) -> int:
        return 64

    def __bytes__(self) -> bytes:
        return bytes(64)


def _buffer_and_file_cases(m: Any, S: Any, ex: Any, word: bytes, Executor: Any) -> list[Case]:
    """Strided buffers, bytes subclasses that lie about their length, file descriptors and
    directories given as a trace, generations that are none, executors that are not."""
    import os
    import tempfile

    from tpb_isa.mariana.executor import InvalidInstructionError

    strided = memoryview(bytes(word[k // 2] if k % 2 == 0 else 0xEE for k in range(128)))[::2]
    liar = _LyingBytes(b"x" * 10)
    directory = tempfile.gettempdir()
    cases: list[Case] = [
        ("compat(w, 'nope')", lambda: m.compat(word, "nope"), ValueError, "other_gen:"),
        ("compat(w, None)", lambda: m.compat(word, None), TypeError, "other_gen:"),
        ("compat(w, 3)", lambda: m.compat(word, 3), TypeError, "other_gen:"),
        ("compat(w, os)", lambda: m.compat(word, os), TypeError, "other_gen:"),
        ("compat(None, g)", lambda: m.compat(None, "cayman"), TypeError, "word:"),
        ("compat(10 bytes, g)", lambda: m.compat(b"x" * 10, "cayman"), ValueError, "word:"),
        ("compat(liar, g)", lambda: m.compat(liar, "cayman"), ValueError, "word:"),
        ("info(w, executor='x')", lambda: m.info(word, executor="x"), TypeError, "executor:"),
        ("info(w, executor=3)", lambda: m.info(word, executor=3), TypeError, "executor:"),
        ("info_batch(executor='x')", lambda: m.info_batch([word], "x"), TypeError, "executor:"),
        ("info(liar)", lambda: m.info(liar), ValueError, "word:"),
        ("Executor(trace=<fd>)", lambda: Executor(trace=1), TypeError, "trace:"),
        ("Executor(trace=True)", lambda: Executor(trace=True), TypeError, "trace:"),
        ("Executor(trace=3.5)", lambda: Executor(trace=3.5), TypeError, "trace:"),
        ("Executor(trace=<dir>)", lambda: Executor(trace=directory), ValueError, "trace:"),
        ("ex.read(dtype unencodable)", lambda: ex.read(0, "\udcff", 4), TypeError, "dtype:"),
        ("ex.run(liar)", lambda: ex.run(liar), InvalidInstructionError, "mariana: a TPB"),
    ]
    if m.explain(liar) != "a TPB instruction word is 64 bytes, this one has 10":
        cases.append(("explain(liar)", lambda: None, ValueError, "explain(liar) misread"))
    for name in ("decode", "disasm", "to_dict"):
        fn = getattr(m, name)
        cases.append((f"{name}(liar)", lambda fn=fn: fn(liar), ValueError, "word:"))
    if m.validate(liar) is not False:  # the real 10 bytes: not a word, so not valid
        cases.append(("validate(liar)", lambda: None, ValueError, "validate(liar) accepted"))
    for label, call in (
        ("S.from_bytes(strided)", lambda: S.S3D3_TS.from_bytes(strided)),
        ("Union.from_bytes(strided)", lambda: S.ImmValInstField.from_bytes(strided[:4])),
    ):
        cases.append((label, _equal_to_contiguous(call, strided), _Same, "same"))
    cases += [
        ("S.from_bytes(liar)", lambda: S.S3D3_TS.from_bytes(liar), ValueError, "S3D3_TS"),
        ("Union.from_bytes(liar)", lambda: S.ImmValInstField(liar), ValueError, "ImmValInstField"),
    ]
    return cases


class _Same(Exception):
    """Raised by a check that a strided buffer reads as its contiguous copy does."""


def _equal_to_contiguous(call: Callable[[], object], strided: memoryview) -> Callable[[], object]:
    def check() -> object:
        got = call()
        import tpb_isa

        m = tpb_isa.gen("mariana")
        if got.to_bytes() != strided.tobytes()[: len(got.to_bytes())]:  # type: ignore[attr-defined]
            return got
        if type(got).__name__ == "S3D3_TS" and got != m.decode(strided.tobytes()):
            return got
        raise _Same("same as the contiguous copy")

    return check


def _validator_cases(tpb_isa: Any) -> list[Case]:
    """Every public validator of every generation that takes a struct: a short buffer is a
    ValueError and None a TypeError, each naming the parameter (never an IndexError)."""
    cases: list[Case] = []
    for g in tpb_isa.GENERATIONS:
        v = tpb_isa.gen(g).validators
        for name, fn in sorted(vars(v).items()):
            if name.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != v.__name__:
                continue
            params = inspect.signature(fn).parameters
            structs = [p for p, spec in params.items() if spec.annotation == "Word"]
            if not structs:
                continue
            first = structs[0]
            for bad, exc in ((b"", ValueError), (None, TypeError)):
                args = {
                    p: (bad if p == first else bytes(64) if p in structs else 0) for p in params
                }
                cases.append(
                    (
                        f"{g}.validators.{name}({bad!r})",
                        lambda fn=fn, a=args: fn(**a),
                        exc,
                        f"{first}:",
                    )
                )
    return cases


def sweep() -> list[str]:
    """What went wrong: one line per call whose exception is not the documented one."""
    bad = []
    for label, call, expected, starts in _cases():
        try:
            call()
        except expected as exc:
            text = str(exc)
            if not text.startswith(starts):
                bad.append(f"{label}: {type(exc).__name__} says {text[:100]!r}, not {starts!r}...")
        except Exception as exc:
            bad.append(f"{label}: {type(exc).__name__}: {str(exc)[:100]} (expected {expected})")
        else:
            bad.append(f"{label}: returned, expected {expected}")
    return bad


def count() -> int:
    return len(_cases())


def _importable(name: str) -> bool:
    import importlib

    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    blocked = [n for n in (sys.argv[1].split(",") if len(sys.argv) > 1 else []) if n]
    for name in blocked:
        sys.modules[name] = None  # type: ignore[assignment]  # `import name` now fails
    failures = sweep()
    report = {
        "cases": count(),
        "failures": failures,
        "importable": {n: _importable(n) for n in blocked},
    }
    print(json.dumps(report))
