"""Prove tpbgen's computed layouts against the C compiler: an offsetof/sizeof probe per generation.

The probe includes every header of the tree, prints sizeof and _Alignof of every struct and
union, offsetof of every field, and, for bitfields, the bit positions a field set to all ones
occupies. Any disagreement with the IR is an error naming the struct and field. It also prints
whether plain `char` is signed, which tpbgen's model of the target fixes (ctypes.PLAIN_CHAR_SIGNED:
the value of '\\377', of a `char` field).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from .. import __version__
from ..cache import Cache
from ..errors import Diagnostic, Severity
from ..ir.ctypes import PLAIN_CHAR_SIGNED
from ..ir.model import Generation, Struct

_CHAR = "<plain char is signed>"  # the one probe line that is not a struct fact

PROBE_FLAGS = ["-std=c11", "-w"]


def find_cc() -> str | None:
    """The first C compiler on PATH of cc, gcc and clang; None when there is none."""
    for name in ("cc", "gcc", "clang"):
        if shutil.which(name):
            return name
    return None


def _probe_source(
    gen: Generation,
) -> tuple[str, list[tuple[str, str, int, int | None, int | None]]]:
    """The probe's C text and, per printed line, (struct, field, expected, bit_start, bit_width)."""
    lines = ["#include <stdio.h>", "#include <stddef.h>", "#include <string.h>"]
    # the generation's own headers (one the preprocessor read from elsewhere, or a `.def` meant
    # to be included in place, is included by them)
    own = gen.tpb_dir.rsplit("/", 1)[0] + "/"
    lines += [
        f'#include "{f.path}"'
        for f in gen.files
        if f.path.endswith(".h") and f.path.startswith(own)
    ]
    lines.append("int main(void) {")
    lines.append('  printf("%d\\n", (int)((char)-1 < 0));')
    expected: list[tuple[str, str, int, int | None, int | None]] = [
        (_CHAR, _CHAR, int(PLAIN_CHAR_SIGNED), None, None)
    ]
    for s in gen.structs:
        if s.name.startswith("__anon"):
            continue
        c = s.c_spelling
        lines.append(f'  printf("%zu\\n", sizeof({c}));')
        expected.append((s.name, "<sizeof>", s.size, None, None))
        lines.append(f'  printf("%zu\\n", (size_t)_Alignof({c}));')
        expected.append((s.name, "<alignof>", s.align, None, None))
        for path, off, f in _fields(gen, s, "", 0):
            if f.bit_width is None:
                lines.append(f'  printf("%zu\\n", offsetof({c}, {path}));')
                expected.append((s.name, path, off, None, None))
            else:
                lines.append(
                    f"  {{ {c} v; unsigned char b[sizeof v]; memset(&v, 0, sizeof v); v.{path} = ({f.type.spelled})~({f.type.spelled})0;"
                    f' memcpy(b, &v, sizeof v); for (size_t k = 0; k < sizeof v; k++) printf("%02x", b[k]); printf("\\n"); }}'
                )
                expected.append(
                    (
                        s.name,
                        path,
                        off * 8 + (f.bit_offset or 0),
                        off * 8 + (f.bit_offset or 0),
                        f.bit_width,
                    )
                )
    lines.append("  return 0;\n}")
    return "\n".join(lines) + "\n", expected


def _fields(gen: Generation, s: Struct, prefix: str, base: int):  # type: ignore[no-untyped-def]
    for f in s.fields:
        if f.anonymous:
            yield from _fields(gen, gen.struct(f.type.name), prefix, base + f.offset)
        else:
            yield prefix + f.name, base + f.offset, f


def verify_cc(
    gen: Generation, root: Path, compiler: str | None = None
) -> tuple[list[Diagnostic], int]:
    """(mismatches, number of facts compared). Raises RuntimeError when no compiler is available."""
    compiler = compiler or find_cc()
    if compiler is None:
        raise RuntimeError("no C compiler on PATH (cc, gcc or clang)")
    src, expected = _probe_source(gen)
    with tempfile.TemporaryDirectory(prefix="tpbgen-probe-") as tmp:
        c = Path(tmp) / "probe.c"
        exe = Path(tmp) / "probe"
        c.write_text(src, encoding="utf-8")
        comp = subprocess.run(
            [compiler, *PROBE_FLAGS, "-I", str(root), str(c), "-o", str(exe)],
            capture_output=True,
            text=True,
        )
        if comp.returncode != 0:
            return [
                Diagnostic(
                    f"the layout probe does not compile: {comp.stderr.strip()[:2000]}",
                    gen.tpb_dir,
                    code="verify-cc",
                )
            ], 0
        run = subprocess.run([str(exe)], capture_output=True, text=True, check=False)
    got = run.stdout.split()
    out: list[Diagnostic] = []
    if len(got) != len(expected):
        return [
            Diagnostic(
                f"probe printed {len(got)} values, expected {len(expected)}",
                gen.tpb_dir,
                code="verify-cc",
            )
        ], 0
    for (sname, fname, want, bit_start, bit_width), value in zip(expected, got, strict=True):
        if sname == _CHAR:
            if int(value) != want:
                says = "signed" if int(value) else "unsigned"
                out.append(
                    Diagnostic(
                        f"plain char: tpbgen models the x86-64 target, where char is {'signed' if want else 'unsigned'}; this C compiler's char is {says} "
                        "(character constants and char fields would not agree with it)",
                        gen.tpb_dir,
                        code="verify-cc",
                    )
                )
            continue
        s = gen.struct(sname)
        if bit_width is None:
            if int(value) != want:
                out.append(
                    Diagnostic(
                        f"{sname} {fname}: tpbgen computed {want}, the C compiler says {value}",
                        s.loc.file,
                        s.loc.line,
                        s.loc.col,
                        Severity.ERROR,
                        "verify-cc",
                    )
                )
            continue
        bits = [
            k * 8 + j
            for k, byte in enumerate(bytes.fromhex(value))
            for j in range(8)
            if byte >> j & 1
        ]
        if (
            not bits
            or bits[0] != bit_start
            or len(bits) != bit_width
            or bits[-1] - bits[0] + 1 != bit_width
        ):
            out.append(
                Diagnostic(
                    f"{sname}.{fname}: tpbgen places the bitfield at bit {bit_start} width {bit_width}, the C compiler at bits {bits[:1]}..{bits[-1:]} ({len(bits)} bits)",
                    s.loc.file,
                    s.loc.line,
                    s.loc.col,
                    Severity.ERROR,
                    "verify-cc",
                )
            )
    return out, len(expected)


def compiler() -> tuple[str, str] | None:
    """The C compiler on PATH and its identity (what `--version` says), None without one."""
    cc = find_cc()
    if cc is None:
        return None
    try:
        ident = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        ident = cc
    return cc, ident


def _key(gen: Generation, cc: str, ident: str) -> str:
    return hashlib.sha256(
        f"verify-cc {__version__}\n{gen.inputs_sha256}\n{cc}\n{ident}".encode()
    ).hexdigest()


class Probes:
    """The layout probes (compile, run) of the generations whose proof is not cached, on a thread
    of their own, one after the other, started at once: the compiler's processes run beside the
    translator instead of before it. `take` gives a generation's probe under way (None when
    none was started: its proof was cached, or it is not one of these generations); `close`
    cancels what no proof took and waits for the probe running, if any."""

    def __init__(
        self, found: tuple[str, str], gens: list[tuple[Generation, Path]], cache: Cache | None
    ) -> None:
        cc, ident = found
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tpbgen-verify-cc")
        self.running: dict[str, Future[tuple[list[Diagnostic], int]]] = {}
        for gen, root in gens:
            if (
                cache is not None
                and cache.path("verifycc", gen.name, _key(gen, cc, ident)).exists()
            ):
                continue  # (prove_layouts reads it, and probes then if it is unusable)
            self.running[gen.name] = self.pool.submit(verify_cc, gen, root, cc)

    def take(self, gen: Generation) -> Future[tuple[list[Diagnostic], int]] | None:
        """Generation `gen`'s probe under way, if one was started."""
        return self.running.pop(gen.name, None)

    def close(self) -> None:
        """Cancel the probes no proof took; wait for the one running."""
        for f in self.running.values():
            f.cancel()
        self.running = {}
        self.pool.shutdown(wait=True)


def prove_layouts(
    gen: Generation,
    root: Path,
    cache: Cache | None,
    found: tuple[str, str] | None,
    probes: Probes | None = None,
) -> tuple[list[Diagnostic], str]:
    """Prove the computed layouts against the C compiler `found` (`compiler()`: the caller asks
    once for every generation), when there is one; with the probe `probes` started for `gen`, if
    it did. A proof is cached by the inputs and the compiler's identity; a mismatch is never
    cached."""
    started = probes.take(gen) if probes is not None else None
    if found is None:
        return [], "layouts not verified: no C compiler on PATH (static asserts only)"
    cc, ident = found
    key = _key(gen, cc, ident)
    hit = cache.get("verifycc", gen.name, key) if cache is not None else None
    if isinstance(hit, dict) and isinstance(hit.get("facts"), int):
        if started is not None:
            started.cancel()
        return [], f"layouts verified with {cc} ({hit['facts']} facts)"
    try:
        mismatches, facts = started.result() if started is not None else verify_cc(gen, root, cc)
    except RuntimeError as exc:
        return [
            Diagnostic(
                f"cannot verify layouts with {cc}: {exc}",
                gen.tpb_dir,
                severity=Severity.ERROR,
                code="verify-cc",
            )
        ], "layouts not verified"
    if mismatches:
        return mismatches, f"layouts DISAGREE with {cc} ({len(mismatches)} of {facts} facts)"
    if cache is not None:
        cache.put("verifycc", gen.name, key, {"facts": facts})
    return [], f"layouts verified with {cc} ({facts} facts)"
