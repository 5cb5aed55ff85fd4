"""Run the C preprocessor over one generation's headers: the system `cpp` when present, pcpp otherwise.

The translation unit includes every header of the `tpb/` tree in name order, so includes between
headers are resolved exactly as a user's compiler would, and each type is seen once. Both
preprocessors are given the C compiler's own predefined macros (`__GNUC__`, `__STDC_VERSION__`,
the type sizes: `#if defined(__GNUC__)` takes the branch the compiler takes) and the same include
path (tpbgen's stand-in libc first), and must yield the same IR; a test holds them to that.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import io
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import IO, Any, Literal

from ..errors import Diagnostic, Severity, TpbgenError
from ..input_files import read_regular, special_file
from .discover import GenerationSource
from .limits import DEFAULT, Limits

Preprocessor = Literal["cpp", "pcpp"]

# When no C compiler is on PATH: the macros GCC 12 predefines for C11 on x86-64 Linux (LP64,
# little-endian) that headers test, so `#if defined(__GNUC__)` and friends take the branch a
# user's compiler takes. With a compiler, its own `cc -dM -E` list is used instead.
FALLBACK_MACROS = {
    "__STDC__": "1",
    "__STDC_VERSION__": "201112L",
    "__STDC_HOSTED__": "1",
    "__GNUC__": "12",
    "__GNUC_MINOR__": "2",
    "__GNUC_PATCHLEVEL__": "0",
    "__x86_64__": "1",
    "__x86_64": "1",
    "__linux__": "1",
    "__unix__": "1",
    "__LP64__": "1",
    "_LP64": "1",
    "__CHAR_BIT__": "8",
    "__SIZEOF_SHORT__": "2",
    "__SIZEOF_INT__": "4",
    "__SIZEOF_LONG__": "8",
    "__SIZEOF_LONG_LONG__": "8",
    "__SIZEOF_POINTER__": "8",
    "__SIZEOF_FLOAT__": "4",
    "__SIZEOF_DOUBLE__": "8",
    "__SIZEOF_SIZE_T__": "8",
    "__ORDER_LITTLE_ENDIAN__": "1234",
    "__ORDER_BIG_ENDIAN__": "4321",
    "__BYTE_ORDER__": "__ORDER_LITTLE_ENDIAN__",
    "__BIGGEST_ALIGNMENT__": "16",
    "__INT_MAX__": "0x7fffffff",
    "__LONG_MAX__": "0x7fffffffffffffffL",
    "__SCHAR_MAX__": "0x7f",
    "__SHRT_MAX__": "0x7fff",
}
TPBGEN_MACROS = {"__TPBGEN__": "1"}

_DEFINE = re.compile(r"^#define ([A-Za-z_]\w*) ?(.*)$")


@functools.cache
def predefined_macros() -> tuple[tuple[str, str], ...]:
    """The object-like macros the C compiler predefines for C11 (`cc -dM -E`), given to both
    preprocessors (cpp with -undef, so the two see exactly the same set); the fallback list
    without a compiler. Function-like ones are left out: no header tests them."""
    macros = dict(FALLBACK_MACROS)
    cc = (
        shutil.which(os.environ.get("CC", ""))
        or shutil.which("cc")
        or shutil.which("gcc")
        or shutil.which("clang")
    )
    if cc:
        try:
            out = subprocess.run(
                [cc, "-dM", "-E", "-x", "c", "-std=c11", os.devnull],
                capture_output=True,
                text=True,
                timeout=60,
            )
        except (OSError, subprocess.SubprocessError):
            out = None
        if out is not None and out.returncode == 0:
            found = {}
            for line in out.stdout.splitlines():
                m = _DEFINE.match(line)
                if m and "(" not in line.split()[1]:
                    found[m.group(1)] = m.group(2)
            if "__STDC_VERSION__" in found:
                macros = found
    macros.update(TPBGEN_MACROS)
    return tuple(sorted(macros.items()))


TU_NAME = "<tpbgen-tu>"


@dataclass(frozen=True)
class Preprocessed:
    text: str
    preprocessor: Preprocessor
    macros: tuple[tuple[MacroDef, str], ...] = ()  # each object-like macro and its full expansion
    # every file the preprocessor read (tpbgen's stand-in libc aside), relative to the include
    # root (`../x.h` outside it), sorted: what the IR is made of, and what its cache key covers
    sources: tuple[str, ...] = ()


def fake_libc_dir() -> Path:
    """The directory of tpbgen's stand-in system headers, put on the preprocessor's include path."""
    return Path(str(resources.files("tpbgen.frontend") / "fake_libc"))


@dataclass(frozen=True)
class MacroDef:
    """An object-like `#define NAME body` in one of the generation's tpb/ headers."""

    name: str
    file: str  # relative to the header root
    line: int
    body: str


_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]*(.*)$")
PROBE = "__tpbgen_macro_probe_"


def object_macros(
    gen: GenerationSource,
    texts: Mapping[str, bytes] | None = None,
    headers: list[Path] | None = None,
) -> list[MacroDef]:
    """Every object-like macro with a body that the tpb/ headers define (continuations joined).
    `texts`: the headers' bytes already read, by path relative to the include root (a header
    not among them is read here); `headers`: `gen.headers()`, when listed already."""
    out = []
    for h in gen.headers() if headers is None else headers:
        rel = h.relative_to(gen.root).as_posix()
        data = texts.get(rel) if texts is not None else None
        if data is None:
            data = read_regular(h, rel)
        text = data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
        lines = text.split("\n")
        k = 0
        while k < len(lines):
            start, logical = k, lines[k]
            while logical.endswith("\\") and k + 1 < len(lines):
                k += 1
                logical = logical[:-1] + " " + lines[k]
            m = _DEFINE.match(logical)
            if m and m.group(2).split("//")[0].split("/*")[0].strip():
                out.append(MacroDef(m.group(1), rel, start + 1, m.group(2)))
            k += 1
    return out


_INCLUDE = re.compile(
    rb'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\r\n]*)"|<([^>\r\n]*)>)', re.M
)  # (an include whose argument is a macro is cpp's to find; its time limit bounds it)


def special_includes(gen: GenerationSource, texts: Mapping[str, bytes]) -> TpbgenError | None:
    """The `#include`s of the headers read (`texts`, by path relative to the include root) that
    name a FIFO, a device, a socket or a directory, refused at the directive before the
    preprocessor opens it (it would block, read without end, or say only that it could not);
    None when there is none. Resolved as cpp does: a quoted name beside the including file, then
    the include path (tpbgen's libc, the include root)."""
    diags = []
    for rel, data in texts.items():
        if b"#" not in data or b"include" not in data:
            continue
        here = (gen.root / rel).parent
        for m in _INCLUDE.finditer(data):
            quoted, name = m.group(1) is not None, (m.group(1) or m.group(2) or b"")
            target = name.decode("utf-8", "replace")
            dirs = ([here] if quoted else []) + [fake_libc_dir(), gen.root]
            found = next((d / target for d in dirs if os.path.lexists(d / target)), None)
            kind = special_file(found) if found is not None else None
            if kind is None:
                continue
            line = data.count(b"\n", 0, m.start()) + 1
            col = m.start(1 if quoted else 2) - (data.rfind(b"\n", 0, m.start()) + 1)
            diags.append(
                Diagnostic(
                    f"#include of {target}, {kind}, not a regular file: refused before the "
                    "preprocessor opens it",
                    rel,
                    line,
                    col,
                    Severity.ERROR,
                    "not-a-file",
                )
            )
    return TpbgenError(diags) if diags else None


def translation_unit(
    gen: GenerationSource, macros: list[MacroDef] | None = None, headers: list[Path] | None = None
) -> str:
    """The text the preprocessor runs on: tpbgen's GNU keyword header, every header of the
    generation (or `headers`) as an include, then one probe line per macro, whose expansion gives
    its value."""
    # GNU spellings of C keywords first (tpbgen's stand-in, see fake_libc/_tpbgen_gnu.h)
    lines = ["#include <_tpbgen_gnu.h>"]
    headers = gen.headers() if headers is None else headers
    lines += [f'#include "{h.relative_to(gen.root).as_posix()}"' for h in headers]
    # each macro expanded by the preprocessor itself, one per line after the headers, so its
    # value can be evaluated as C (the lines are taken out again before parsing)
    lines += [f"{PROBE}{k} {m.name} {PROBE}end" for k, m in enumerate(macros or [])]
    return "\n".join(lines) + "\n"


def split_probes(text: str, count: int) -> tuple[str, dict[int, str]]:
    """The preprocessed text without the macro probe lines, and each probe's expansion."""
    if not count:
        return text, {}
    found: dict[int, str] = {}
    kept = []
    pat = re.compile(rf"^\s*{PROBE}(\d+)\s(.*)\s{PROBE}end\s*$")
    for line in text.split("\n"):
        m = pat.match(line)
        if m:
            found[int(m.group(1))] = m.group(2).strip()
            kept.append("")
        else:
            kept.append(line)
    return "\n".join(kept), found


def available_preprocessor() -> Preprocessor:
    """The preprocessor to run: $TPBGEN_PREPROCESSOR when it names one, else cpp when it is on PATH,
    else pcpp."""
    forced = os.environ.get("TPBGEN_PREPROCESSOR")
    if forced in ("cpp", "pcpp"):
        return forced  # type: ignore[return-value]
    return "cpp" if shutil.which("cpp") else "pcpp"


def preprocess(
    gen: GenerationSource,
    which: Preprocessor | None = None,
    limits: Limits = DEFAULT,
    texts: Mapping[str, bytes] | None = None,
) -> Preprocessed:
    """`texts`: the headers' bytes as tpbgen read them (the macro probes are taken from them);
    the preprocessor itself reads the tree."""
    return Preprocessing(gen, which, limits, texts).result()


class Preprocessing:
    """One generation's preprocessing, in three steps: the translation unit is made when this is
    made, the preprocessor run by `run` (in another thread if need be: with cpp, a process of its
    own, that thread does little but wait), and its output finished (the macro probes taken out,
    the size checked) by `result`, in the thread that asks. Python work in a thread beside the
    parser would cost the parser more than the work: each thread's wake-ups wait for the other
    to let go of the interpreter."""

    def __init__(
        self,
        gen: GenerationSource,
        which: Preprocessor | None = None,
        limits: Limits = DEFAULT,
        texts: Mapping[str, bytes] | None = None,
    ) -> None:
        self.gen, self.limits = gen, limits
        self.which: Preprocessor = which or available_preprocessor()
        headers = gen.headers()
        self.macros = object_macros(gen, texts, headers)
        self._refused = (
            special_includes(gen, texts or {})
            if headers
            else TpbgenError(
                [Diagnostic("no *.h headers in this tpb/ tree", gen.rel_tpb_dir, code="no-headers")]
            )
        )  # (raised by `run`, in its turn)
        self.texts = texts or {}
        self.tu = translation_unit(gen, self.macros, headers)
        self._ran: Future[tuple[str, tuple[str, ...]]] | None = None

    def run(self) -> tuple[str, tuple[str, ...]]:
        """The preprocessor's output, probes and all, and the files it read as it named them
        (raises TpbgenError)."""
        if self._refused is not None:
            raise self._refused
        if self.which == "cpp":
            out = _run_cpp(self.gen, self.tu, self.limits)
            return out, tuple(_entered(out))
        return _run_pcpp(self.gen, self.tu)

    def start(self, pool: Executor) -> Preprocessing:
        """Run the preprocessor in `pool`; `result` waits for it."""
        self._ran = pool.submit(self.run)
        return self

    def result(self) -> Preprocessed:
        """The preprocessed text (waiting for `start`'s run, or running now): cpp's line markers
        made physical, the probe lines taken out and their expansions kept (one too long is no
        constant), the size limit checked; raises TpbgenError."""
        text, opened = self._ran.result() if self._ran is not None else self.run()
        if self.which == "cpp":  # (pcpp drops the directives, its markers count lines as they are)
            text = physical_markers(text, lambda name: _source_bytes(self.gen, self.texts, name))
        text, expansions = split_probes(text, len(self.macros))
        # the headers' own text; a probe too long is just no constant
        _check_size(self.gen, text, self.limits)
        probes = tuple(
            (m, expansions[k])
            for k, m in enumerate(self.macros)
            if k in expansions and len(expansions[k]) <= self.limits.line_bytes
        )
        return Preprocessed(text, self.which, probes, source_names(self.gen, opened))


_CPP_DIAG = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:(?P<col>\d+):)?\s*(?:fatal )?(?P<sev>error|warning): (?P<msg>.*)$"
)


_MARKER = re.compile(r'^#\s*(?:line\s+)?(\d+)\s+"([^"]*)"')  # cpp's `# 12 "f.h"`, pcpp's `#line`


def _located_lines(text: str) -> Iterator[tuple[str, str, int]]:
    """Each line of preprocessed text but its line markers, with the header and the line it
    comes from (followed through the markers)."""
    file, line = "", 1
    for ln in text.split("\n"):
        m = _MARKER.match(ln)
        if m:
            line, file = int(m.group(1)), m.group(2)
            continue
        yield ln, file, line
        line += 1


# `#line 12 "f.h"`, `#line 12` and GNU's `# 12 "f.h" flags` in a header's own text
_LINE_DIRECTIVE = re.compile(
    rb'^[ \t]*#[ \t]*(?:line[ \t]+([^\n]*)|([0-9]+)(?:[ \t]+"((?:[^"\\\n]|\\.)*)")?)', re.M
)
_LINE_ARGS = re.compile(rb'^([0-9]+)(?:[ \t]+"((?:[^"\\\n]|\\.)*)")?[ \t]*(?:/[/*].*)?$')
_CPP_MARKER = re.compile(r'^# (\d+) "((?:[^"\\]|\\.)*)"((?: \d)*)$')


@dataclass
class _Frame:
    """One file open in cpp's include stack: its real name, and how its numbering (moved by
    `#line` directives) maps to its physical lines."""

    real: str
    vname: str  # the name its markers give it now (a `#line N "other.h"` changes it)
    shift: int = 0  # physical line = the line its markers give + shift
    next_line: int = 1  # the physical line of its next output line
    directives: tuple[tuple[int, int, str | None], ...] = ()  # (physical line, N, file or None)

    def follow(self, n: int, name: str) -> None:
        """A marker `# n "name"` without flags in this file: one of its `#line` directives (the
        first at or after the current line whose target is the marker's) renumbers what
        follows; none is cpp skipping lines in the same numbering."""
        ahead = [d for d in self.directives if d[0] >= self.next_line]
        found = next((d for d in ahead if d[1] == n and (d[2] or self.vname) == name), None)
        if found is None and name != self.vname:
            # a new name is no skip of cpp's: a directive whose arguments are macros
            found = next((d for d in ahead if d[1] < 0), None)
        if found is not None:
            self.shift, self.vname = found[0] + 1 - n, name


def physical_markers(text: str, source: Callable[[str], bytes | None]) -> str:
    """cpp's output with every line marker giving the physical line of the file that holds the
    line: a header's `#line N ["file"]` (or `# N "file"`) directive renumbers what cpp reports
    after it, and tpbgen reads comments, markers and diagnostics by those coordinates.

    cpp's own markers are followed as they come: `# 1 "f.h" 1` opens a file, `# N "f.h" 2`
    returns to the one that included it, and a marker without flags in an open file is either
    cpp skipping lines (the same numbering) or a directive of that file. Which one is decided by
    the file's own text (`source(name)`, its bytes): the first directive at or after the current
    line whose target is the marker's. A tree without directives is returned as it is."""
    directives = {name: _directives(source(name)) for name in set(_entered(text))}
    if not any(directives.values()):
        return text  # (the common case: one pass of a regex, not a loop over every line)
    frames: list[_Frame] = []
    out: list[str] = []
    changed = False
    for ln in text.split("\n"):
        m = _CPP_MARKER.match(ln) if ln.startswith("# ") else None
        if m is None:
            if frames:
                frames[-1].next_line += 1
            out.append(ln)
            continue
        n, name, flags = int(m.group(1)), m.group(2), m.group(3).split()
        if "1" in flags:
            frames.append(_Frame(name, name, 0, n, directives.get(name, ())))
            out.append(ln)
            continue
        if "2" in flags and frames:
            frames.pop()
        if not frames:
            out.append(ln)
            continue
        f = frames[-1]
        if "2" not in flags and f.directives:
            f.follow(n, name)
        f.next_line = n + f.shift
        if f.shift or name != f.real:
            changed = True
            rest = m.group(3)
            ln = f'# {f.next_line} "{f.real}"{rest}'
        out.append(ln)
    return "\n".join(out) if changed else text


def _directives(data: bytes | None) -> tuple[tuple[int, int, str | None], ...]:
    """The `#line` directives of a header's text: (physical line, N, file name or None)."""
    if not data or b"#" not in data:
        return ()
    if b"\r" in data:  # line ends as cpp counts them (see comments.split_lines)
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    found = []
    for m in _LINE_DIRECTIVE.finditer(data):
        line = data.count(b"\n", 0, m.start()) + 1
        number, name = m.group(2), m.group(3)
        if m.group(1) is not None:  # `#line ARGS`: literal, or macros (-1: a target unknown here)
            args = _LINE_ARGS.match(m.group(1).strip())
            number, name = (args.group(1), args.group(2)) if args else (b"-1", None)
        found.append((line, int(number), name.decode("utf-8", "replace") if name else None))
    return tuple(found)


def _source_bytes(gen: GenerationSource, texts: Mapping[str, bytes], name: str) -> bytes | None:
    """A file cpp opened, as tpbgen read it (or from disk); None for tpbgen's own unit."""
    if name.startswith("<"):
        return None
    rel = gen.rel(name)
    if rel in texts:
        return texts[rel]
    path = Path(name) if Path(name).is_absolute() else gen.root / name
    try:
        return read_regular(path, rel)
    except (OSError, TpbgenError):  # (gone, or not a file: the text cpp gave is followed as it is)
        return None


def _entered(text: str) -> Iterator[str]:
    """The files cpp's output enters (`# 1 "f.h" 1`): every file it read, each once (a header
    skipped by its include guard was entered the first time)."""
    for m in re.finditer(r'^# 1 "((?:[^"\\]|\\.)*)" 1', text, re.M):
        yield m.group(1)


def source_names(gen: GenerationSource, opened: tuple[str, ...]) -> tuple[str, ...]:
    """The files a preprocessor read, relative to the include root (`../x.h` outside it), its
    own unit and tpbgen's stand-in libc left out; sorted, each once."""
    libc = fake_libc_dir().resolve()
    out: set[str] = set()
    for name in opened:
        if not name or name.startswith("<") or name == "-":
            continue
        path = Path(name) if Path(name).is_absolute() else gen.root / name
        real = path.resolve()
        if real.is_relative_to(libc):
            continue
        out.add(Path(os.path.relpath(real, gen.root.resolve())).as_posix())
    return tuple(sorted(out))


def _where(gen: GenerationSource, file: str) -> str:
    """A marker's file name as diagnostics name it (the tpb/ directory for tpbgen's own unit)."""
    return gen.rel(file) if file and not file.startswith("<") else gen.rel_tpb_dir


def _check_size(gen: GenerationSource, text: str, limits: Limits) -> None:
    """Refuse preprocessed text over the limits, naming the header line whose expansion is the
    longest (a macro bomb is found where it is used)."""
    longest = max(text.split("\n"), key=len) if text else ""
    if len(text) <= limits.preprocessed_bytes and len(longest) <= limits.line_bytes:
        return
    best, best_at = -1, ("", 0)
    for ln, file, line in _located_lines(text):
        if len(ln) > best:
            best, best_at = len(ln), (file, line)
    where_file = _where(gen, best_at[0])
    if len(longest) > limits.line_bytes:
        msg = (
            f"one preprocessed line is {len(longest):,} bytes, over the limit of {limits.line_bytes:,} "
            "(a macro expanding without bound?); raise it with --max-line-kb"
        )
    else:
        msg = (
            f"the preprocessed headers are {len(text):,} bytes, over the limit of {limits.preprocessed_bytes:,}; "
            "raise it with --max-preprocessed-mb"
        )
    raise TpbgenError([Diagnostic(msg, where_file, best_at[1], 0, Severity.ERROR, "limit")])


def _run_cpp(gen: GenerationSource, source: str, limits: Limits = DEFAULT) -> str:
    """The translation unit `tu` preprocessed by the system cpp (no standard headers, tpbgen's fake
    libc, the predefined macros of the modelled target) in the generation's root; its messages as
    located diagnostics, a TpbgenError when it fails or runs over the time limit."""
    argv = ["cpp", "-undef", "-nostdinc", "-std=c11", "-isystem", str(fake_libc_dir()), "-I", "."]
    argv += [f"-D{k}={v}" for k, v in predefined_macros()]
    argv += ["-"]
    bound = output_bound(limits)
    returncode, out, err = _run_quietly(argv, source, gen.root, limits.preprocess_seconds, bound)
    if returncode == -_SIGXFSZ:  # its output passed the bound: the part written says where
        _check_size(gen, _decode_c(gen, out[: limits.preprocessed_bytes + 1]), limits)
        raise TpbgenError(
            [
                Diagnostic(
                    f"the preprocessor's output passed {bound:,} bytes; raise the limit with "
                    "--max-preprocessed-mb",
                    gen.rel_tpb_dir,
                    code="limit",
                )
            ]
        )
    stderr = _lines(err.decode(errors="replace"))
    if returncode is None:
        raise TpbgenError(
            [
                Diagnostic(
                    f"the preprocessor ran over the limit of {limits.preprocess_seconds:g} s; "
                    "raise it with --max-preprocess-seconds",
                    gen.rel_tpb_dir,
                    code="limit",
                )
            ]
        )
    diags = []
    for line in stderr.splitlines():
        m = _CPP_DIAG.match(line.strip())
        if m and m.group("sev") == "error":
            diags.append(
                Diagnostic(
                    m.group("msg"),
                    gen.rel(m.group("file")),
                    int(m.group("line")),
                    int(m.group("col") or 0),
                    Severity.ERROR,
                    "preprocess",
                )
            )
    if returncode != 0:
        if not diags:
            diags.append(
                Diagnostic(f"cpp failed: {stderr.strip()}", gen.rel_tpb_dir, code="preprocess")
            )
        raise TpbgenError(diags)
    return _decode_c(gen, out).replace('"<stdin>"', f'"{TU_NAME}"')


_SIGXFSZ = int(getattr(signal, "SIGXFSZ", 25))


def output_bound(limits: Limits) -> int:
    """The most the preprocessor may write (its output file's size limit): the text the limits
    allow, twice over for line markers and one probe line per macro, and 16 MB more."""
    return 2 * limits.preprocessed_bytes + 4 * limits.line_bytes + 16 * 2**20


def _bound_output(pid: int, bound: int) -> None:
    """Limit the size of any file process `pid` writes (its output goes to a file): past it,
    the system stops it (SIGXFSZ). Where that cannot be set, the time limit is the bound."""
    with contextlib.suppress(ImportError, AttributeError, OSError, ValueError):
        import resource

        resource.prlimit(pid, resource.RLIMIT_FSIZE, (bound, bound))


def _run_quietly(
    argv: list[str], stdin: str, cwd: Path, seconds: float, bound: int | None = None
) -> tuple[int | None, bytes, bytes]:
    """Run a program on `stdin`: its exit status (None when it ran over `seconds` and was
    killed), stdout and stderr. Made to cost a Python thread little: cpp runs in a thread while
    this process parses, and every wake-up of a waiting thread waits for the parser to let go of
    the interpreter (up to sys.getswitchinterval(), 5 ms). So the outputs go to unnamed temporary
    files, not pipes read a chunk at a time, and the wait is one blocking call (a timer kills the
    program at the limit) rather than a poll: a handful of wake-ups a run, not dozens."""
    with contextlib.ExitStack() as files:
        try:
            out = files.enter_context(tempfile.TemporaryFile())
            err = files.enter_context(tempfile.TemporaryFile())
        except OSError:  # no usable temporary directory: pipes, as subprocess.run reads them
            return _run_piped(argv, stdin, cwd, seconds)
        return _run_into(argv, stdin, cwd, seconds, out, err, bound)


def _run_into(
    argv: list[str],
    stdin: str,
    cwd: Path,
    seconds: float,
    out: IO[bytes],
    err: IO[bytes],
    bound: int | None = None,
) -> tuple[int | None, bytes, bytes]:
    """Run the preprocessor `argv` on `stdin` with its output going into the files `out` and
    `err`: (its exit status, or None when it ran past `seconds` and was killed; what it wrote to
    each). With `bound`, the output file is limited to that many bytes while it is written and a
    longer output is reported as the file-size signal's status, so a macro bomb stops there."""
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        proc.kill()

    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=out, stderr=err, cwd=cwd)
    if bound is not None:  # (before it reads its input: it writes nothing until then)
        _bound_output(proc.pid, bound)
    timer = threading.Timer(seconds, kill)
    timer.start()
    try:
        assert proc.stdin is not None
        # (a BrokenPipeError: it stopped reading; its status says why)
        with contextlib.suppress(BrokenPipeError), proc.stdin:
            proc.stdin.write(stdin.encode())
        returncode = proc.wait()
    finally:
        timer.cancel()
        if proc.poll() is None:  # (interrupted) not left running
            proc.kill()
            proc.wait()
    if killed.is_set() and returncode < 0:
        return None, b"", b""
    out.seek(0)
    err.seek(0)
    if bound is None:
        return returncode, out.read(), err.read()
    data = out.read(bound + 1)  # (where the system could not bound the file, the read is)
    # (the file stops at the bound: a writer killed there, or its driver reporting it)
    return (-_SIGXFSZ if len(data) >= bound else returncode), data, err.read(bound + 1)


def _run_piped(
    argv: list[str], stdin: str, cwd: Path, seconds: float
) -> tuple[int | None, bytes, bytes]:
    try:
        done = subprocess.run(
            argv, input=stdin.encode(), cwd=cwd, capture_output=True, timeout=seconds
        )
    except subprocess.TimeoutExpired:
        return None, b"", b""
    return done.returncode, done.stdout, done.stderr


def _lines(text: str) -> str:
    """Universal newlines, as `subprocess.run(text=True)` reads a program's output."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _decode_c(gen: GenerationSource, data: bytes) -> str:
    """cpp's output as text, universal newlines (see `refuse_not_utf8`)."""
    text = _lines(data.decode("utf-8", "surrogateescape"))
    refuse_not_utf8(gen, text)
    return text


_NOT_UTF8 = re.compile("[\udc80-\udcff]")  # a byte that is not UTF-8, read with surrogateescape


def refuse_not_utf8(gen: GenerationSource, text: str) -> None:
    """Preprocessed text (the headers read with surrogateescape) must be UTF-8: outside comments,
    which the preprocessor drops, a byte that is not would become U+FFFD, and a character
    constant spelled with it would take that value instead of the byte's. Refused at its header
    line (followed through the line markers, as `_check_size` does)."""
    bad = _NOT_UTF8.search(text)
    if bad is None:
        return
    last = collections.deque(_located_lines(text[: bad.start()]), maxlen=1)  # its line, to it
    partial, file, line = last[0] if last else ("", "", 0)
    raise TpbgenError(
        [
            Diagnostic(
                f"byte 0x{ord(bad.group(0)) - 0xDC00:02x} is not UTF-8 (outside a comment: "
                "tpbgen reads C text as UTF-8)",
                _where(gen, file),
                line,
                len(partial) + 1,
                Severity.ERROR,
                "not-utf8",
            )
        ]
    )


def _run_pcpp(gen: GenerationSource, source: str) -> tuple[str, tuple[str, ...]]:
    """The translation unit `tu` preprocessed by pcpp (when no cpp is installed) as cpp would: UTF-8
    read with a BOM dropped, unknown directives and errors as located diagnostics (a TpbgenError
    when any), and the files it opened."""
    from pcpp import Preprocessor as PcppPreprocessor

    diags: list[Diagnostic] = []
    opened: list[str] = []

    class _Pcpp(PcppPreprocessor):  # type: ignore[misc]
        def on_error(self, file: str, line: int, msg: str) -> None:
            diags.append(Diagnostic(msg, gen.rel(file), line, 0, Severity.ERROR, "preprocess"))
            self.return_code += 1

        def on_file_open(self, is_system_include: bool, includepath: str) -> Any:
            # as cpp reads them: bytes that are not UTF-8 kept (refused after, outside comments)
            f = open(includepath, encoding="utf-8", errors="surrogateescape")  # noqa: SIM115
            opened.append(includepath)  # (once open: pcpp tries each directory of the path)
            if f.read(1) != "\ufeff":
                f.seek(0)
            return f

        def on_directive_unknown(
            self, directive: Any, toks: Any, ifpassthru: bool, precedingtoks: Any
        ) -> Any:
            # `#line N "f"` and `# N "f"`: dropped, so pcpp's markers count physical lines, as
            # cpp's do once `physical_markers` has followed them
            if directive.value == "line" or str(directive.value).isdigit():
                return True
            return super().on_directive_unknown(directive, toks, ifpassthru, precedingtoks)

        def on_include_not_found(
            self, is_malformed: bool, is_system_include: bool, curdir: str, includepath: str
        ) -> None:
            # pcpp reports where the directive is through on_error; make it fatal like cpp.
            self.on_error(
                self.lastdirective.source,
                self.lastdirective.lineno,
                f"{includepath}: No such file or directory",
            )
            raise _IncludeMissing()

    class _IncludeMissing(Exception):
        pass

    old = os.getcwd()
    try:
        os.chdir(gen.root)
        p = _Pcpp()
        p.line_directive = "#line"
        p.compress = 0
        p.add_path(str(fake_libc_dir()))
        p.add_path(".")
        for k, v in predefined_macros():
            p.define(f"{k} {v}")
        try:
            p.parse(source, TU_NAME)
            out = io.StringIO()
            p.write(out)
        except _IncludeMissing:
            pass
    finally:
        os.chdir(old)
    if diags:
        raise TpbgenError(diags)
    text = out.getvalue()
    refuse_not_utf8(gen, text)
    return text, tuple(opened)
