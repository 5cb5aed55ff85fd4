"""Every C extension the package ships, as :class:`cbuild.Spec`: the executor's kernels, each
generation's validators and the assembler's text scanner. The runtime loads them from these specs; the package's ``setup.py``
compiles the same specs at install (:func:`prebuild`), so the two always agree on the content key.

Imports nothing outside the standard library and :mod:`.cbuild`: the install-time build runs it
before numpy is installed.
"""

from __future__ import annotations

import dataclasses
import importlib.machinery
import multiprocessing
import os
import site
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from pathlib import Path

from .cbuild import MEANING_ARGS, NOT_BUILT, Spec, compile_into

RUNTIME = Path(__file__).resolve().parent

if sys.platform == "win32":  # pragma: no cover - MSVC
    KERNEL_ARGS: tuple[str, ...] = ("/O2", "/fp:strict")
    VALIDATOR_ARGS: tuple[str, ...] = ("/O2", "/UNDEBUG")
    SCANNER_ARGS: tuple[str, ...] = ("/O2",)
else:
    # -O2 with -O3's loop vectoriser: the kernels' loops vectorise as at -O3 (benchmarks/
    # execute.py: the same ratios, fp8 ~5-10% slower) for half of -O3's compile time
    # (benchmarks/install.py)
    KERNEL_ARGS = (
        "-O2", "-ftree-vectorize", "-fvect-cost-model=dynamic", "-std=c99", "-ffp-contract=off",
        "-fno-fast-math",
    )  # fmt: skip
    VALIDATOR_ARGS = ("-O2", *MEANING_ARGS, "-w")  # the drop's meaning: cbuild.MEANING_ARGS
    SCANNER_ARGS = ("-O2", "-std=c99")

#: Flags that change how long a build takes and nothing of the code it makes, after every
#: extension's own: no debug information (Python's own CFLAGS ask for -g; the .so's code is
#: byte-identical without it, and the kernels' build takes ~25% less CPU and ~15% less memory,
#: benchmarks/install.py).
BUILD_ONLY_ARGS: tuple[str, ...] = () if sys.platform == "win32" else ("-g0",)

#: The environment variable that, set to 0, skips the build at install: the first use compiles
#: what it needs (saying so, with progress), or the numpy paths run without a compiler.
PREBUILD_ENV = "TPB_ISA_PREBUILD"


def _with_header(source: str, header_name: str, header: str) -> str:
    """The C source with its own header's text in place of its #include (the header is also
    the cdef, so no declaration is written twice)."""
    return source.replace(f'#include "{header_name}"', header, 1)


def _runtime_spec(
    here: Path, stem: str, module: str, args: tuple[str, ...], what: str, skip: str
) -> Spec:
    """The Spec of one of the runtime's own C files, `<stem>.c` declared in `<stem>.h` (its
    cdef) in directory `here`."""
    cdef = (here / f"{stem}.h").read_text(encoding="utf-8")
    source = (here / f"{stem}.c").read_text(encoding="utf-8")
    return Spec(
        module,
        _with_header(source, f"{stem}.h", cdef),
        cdef,
        (*args, *BUILD_ONLY_ARGS),
        what=what,
        skip=skip,
    )


def kernels(runtime_dir: Path = RUNTIME) -> Spec:
    """The executor's numeric kernels (executor/tpb_kernels.c, declared in tpb_kernels.h), with
    the semantic codes tpbgen emits (executor/tpb_codes.h) in place of their #include."""
    here = runtime_dir / "executor"
    spec = _runtime_spec(
        here, "tpb_kernels", "_tpb_isa_ckernels", KERNEL_ARGS,
        what="the executor's C kernels",
        skip='Executor(backend="numpy") or TPB_ISA_BACKEND=numpy runs without them',
    )  # fmt: skip
    codes = (here / "tpb_codes.h").read_text(encoding="utf-8")
    return dataclasses.replace(spec, source=_with_header(spec.source, "tpb_codes.h", codes))


def validators(package_dir: Path, generation: str, tpb_dir: str) -> Spec:
    """One generation's validators: its generated entry points (validators_c.c/.h) over the
    generation's own validity headers, shipped under `<gen>/_c/` (`tpb_dir` is the headers'
    tpb/ directory relative to it)."""
    cdef = (package_dir / "validators_c.h").read_text(encoding="utf-8")
    source = (package_dir / "validators_c.c").read_text(encoding="utf-8")
    root = package_dir / "_c"
    return Spec(
        f"_tpb_isa_validators_{generation}",
        _with_header(source, "validators_c.h", cdef),
        cdef,
        (*VALIDATOR_ARGS, *BUILD_ONLY_ARGS),
        (root / tpb_dir, root),
        what=f"the {generation} validators",
        skip='validate_batch(..., backend="numpy") runs without them',
    )


def text_scanner(runtime_dir: Path = RUNTIME) -> Spec:
    """The assembler's text scanner (textscan.c, declared in textscan.h)."""
    return _runtime_spec(
        runtime_dir, "textscan", "_tpb_isa_ctextscan", SCANNER_ARGS,
        what="the assembler's text scanner",
        skip="asm reads the same text without it, more slowly",
    )  # fmt: skip


#: One generation's C validators, as the package's setup.py lists them: (subpackage,
#: generation name, the tpb/ directory of its headers under `<subpackage>/_c/`).
Generation = tuple[str, str, str]


def every(package_root: Path, generations: Sequence[Generation]) -> list[Spec]:
    """The kernels, the validators of every generation and the text scanner of the package at
    `package_root` (the directory holding `_runtime/`)."""
    runtime = package_root / "_runtime"
    return [
        kernels(runtime),
        *(validators(package_root / sub, name, tpb_dir) for sub, name, tpb_dir in generations),
        text_scanner(runtime),
    ]


def installed_cffi_missing() -> str | None:
    """Why the environment being installed into cannot load C extensions, or None: cffi's
    compiled backend must be in its site-packages. (In pip's isolated build the cffi this
    process imports is the build environment's, gone after the install; what counts is the
    target's own site directories, and the user's when it is no virtual environment.)"""
    dirs = list(site.getsitepackages())
    if sys.prefix == sys.base_prefix:
        dirs.append(site.getusersitepackages())
    if importlib.machinery.PathFinder.find_spec("_cffi_backend", dirs) is None:
        return "cffi is not installed in this environment"
    return None


def _workers(count: int) -> int:
    """Processes for `count` builds: one per CPU this process may use (the kernels take most of
    the time, the validators fit beside them; each build's peak memory is bounded, see
    benchmarks/install.py); one where fork is unavailable."""
    if sys.platform != "linux":
        return 1
    return max(1, min(count, len(os.sched_getaffinity(0))))


def skip_requested() -> str | None:
    """Why the install should compile nothing, or None: the user set ``TPB_ISA_PREBUILD=0``."""
    if os.environ.get(PREBUILD_ENV, "").strip() == "0":
        return f"{PREBUILD_ENV}=0"
    return None


def _say_nothing(line: str) -> None:
    del line


def prebuild(
    package_root: Path,
    generations: Sequence[Generation],
    say: Callable[[str], None] = _say_nothing,
) -> tuple[list[Path], list[str], str | None]:
    """Compile every extension into `package_root/_prebuilt/` (what `setup.py` runs at
    install): (the files built, a line per extension that could not be built, why nothing was
    tried). When the environment being installed into has no cffi, nothing can load there, so
    nothing is compiled: the reason goes to `_prebuilt/NOT_BUILT` and the runtime falls back to
    numpy without a word. The specs are made from the files under `package_root` itself, so
    their keys are the ones the installed runtime computes. The builds run in one process per
    CPU (the kernels first: they take longest); `say` gets a line as they start (how many, in how
    many processes, how to skip them) and one as each ends (its time, or why it failed)."""
    package_root = package_root.resolve()  # the compiler runs in a temporary directory
    out = package_root / "_prebuilt"
    specs = every(package_root, generations)
    missing = installed_cffi_missing()
    if missing:
        out.mkdir(parents=True, exist_ok=True)
        (out / NOT_BUILT).write_text(f"{missing}\n", encoding="utf-8")
        return [], [spec.what for spec in specs], missing
    workers = _workers(len(specs))
    say(
        f"tpb_isa: compiling {len(specs)} C extensions in {workers} "
        f"process{'es' if workers > 1 else ''} (set {PREBUILD_ENV}=0 to skip: the first use then "
        "compiles what it needs)"
    )
    results: dict[int, tuple[Path | None, str, float]] = {}

    def done(index: int, result: tuple[Path | None, str, float]) -> None:
        results[index] = result
        path, error, seconds = result
        what = specs[index].what
        said = (
            f"compiled {what} in {seconds:.1f} s" if path else f"could not compile {what}: {error}"
        )
        say(f"tpb_isa: [{len(results)}/{len(specs)}] {said}")

    if workers == 1:
        for index, spec in enumerate(specs):
            done(index, _attempt(spec, out))
    else:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            futures: dict[Future[tuple[Path | None, str, float]], int] = {
                pool.submit(_attempt, spec, out): index for index, spec in enumerate(specs)
            }
            for future in as_completed(futures):
                done(futures[future], future.result())
    built = [path for path, _, _ in (results[i] for i in range(len(specs))) if path is not None]
    failed = [
        f"{spec.what}: {results[i][1]}" for i, spec in enumerate(specs) if results[i][0] is None
    ]
    return built, failed, None


def _attempt(spec: Spec, directory: Path) -> tuple[Path | None, str, float]:
    """(the built file, "", seconds) or (None, why not, seconds): no compiler, no cffi, a header
    it rejects."""
    start = time.monotonic()
    try:
        return compile_into(spec, directory, prebuilt=True), "", time.monotonic() - start
    except Exception as exc:
        why = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        return None, why, time.monotonic() - start
