"""Every C extension the package ships, as :class:`cbuild.Spec`: the executor's kernels and each
generation's validators. The runtime loads them from these specs; the package's ``setup.py``
compiles the same specs at install (:func:`prebuild`), so the two always agree on the content key.

Imports nothing outside the standard library and :mod:`.cbuild`: the install-time build runs it
before numpy is installed.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from .cbuild import Spec, compile_into

RUNTIME = Path(__file__).resolve().parent

if sys.platform == "win32":  # pragma: no cover - MSVC
    KERNEL_ARGS: tuple[str, ...] = ("/O2", "/fp:strict")
    VALIDATOR_ARGS: tuple[str, ...] = ("/O2",)
else:
    KERNEL_ARGS = ("-O3", "-std=c99", "-ffp-contract=off", "-fno-fast-math")
    VALIDATOR_ARGS = ("-O2", "-std=gnu11", "-w")


def _with_header(source: str, header_name: str, header: str) -> str:
    """The C source with its own header's text in place of its #include (the header is also
    the cdef, so no declaration is written twice)."""
    return source.replace(f'#include "{header_name}"', header, 1)


def kernels(runtime_dir: Path = RUNTIME) -> Spec:
    """The executor's numeric kernels (executor/tpb_kernels.c, declared in tpb_kernels.h)."""
    here = runtime_dir / "executor"
    cdef = (here / "tpb_kernels.h").read_text(encoding="utf-8")
    source = (here / "tpb_kernels.c").read_text(encoding="utf-8")
    return Spec(
        "_tpb_isa_ckernels",
        _with_header(source, "tpb_kernels.h", cdef),
        cdef,
        KERNEL_ARGS,
        what="the executor's C kernels",
    )


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
        VALIDATOR_ARGS,
        (root / tpb_dir, root),
        what=f"the {generation} validators",
    )


#: One generation's C validators, as the package's setup.py lists them: (subpackage,
#: generation name, the tpb/ directory of its headers under `<subpackage>/_c/`).
Generation = tuple[str, str, str]


def every(package_root: Path, generations: Sequence[Generation]) -> list[Spec]:
    """The kernels and the validators of every generation of the package at `package_root`
    (the directory holding `_runtime/`)."""
    return [kernels(package_root / "_runtime")] + [
        validators(package_root / sub, name, tpb_dir) for sub, name, tpb_dir in generations
    ]


def prebuild(package_root: Path, generations: Sequence[Generation]) -> tuple[list[Path], list[str]]:
    """Compile every extension into `package_root/_prebuilt/` (what `setup.py` runs at
    install): (the files built, a line per extension that could not be built). The specs are
    made from the files under `package_root` itself, so their keys are the ones the installed
    runtime computes."""
    package_root = package_root.resolve()  # the compiler runs in a temporary directory
    built: list[Path] = []
    failed: list[str] = []
    for spec in every(package_root, generations):
        try:
            built.append(compile_into(spec, package_root / "_prebuilt", prebuilt=True))
        except Exception as exc:  # no compiler, no cffi, a header the compiler rejects
            failed.append(f"{spec.what}: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    return built, failed
