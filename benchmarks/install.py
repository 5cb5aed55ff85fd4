"""What installing the generated package costs: each C extension's compile, ``pip install`` with
and without cffi, and the first ``Executor()`` in a vendored (copied, not installed) tree.

    python benchmarks/install.py [--rounds 1] [--only compile,install,vendored] [--json]

Every figure is taken in a child process of its own, which reports its wall time, the CPU time
(user + system) of everything it waited for and the peak resident memory of the largest of
those processes (``resource.getrusage(RUSAGE_CHILDREN)``: the C compiler, for a build). Each is
the minimum of ``--rounds``. The baselines (floors), measured the same way in the same run:

  * compile: an empty cffi extension (one function returning 0) with the kernels' flags: what
    cffi, the Python headers and the compiler's start cost whatever is compiled;
  * install: ``pip install --no-deps`` of the same tree into a virtual environment that has
    numpy but no cffi, where nothing is compiled (pip, build isolation, setuptools and copying
    the files); the install with cffi (the same, with this interpreter's cffi linked in, as
    ``pip install './generated[executor]'`` where cffi is already installed) compiles every
    extension, so the difference is what compiling costs at install (the lines the build
    printed, ``pip install -v``, are shown under it);
  * vendored: the first ``Executor()`` with the C backend against ``Executor(backend="numpy")``
    (importing the package and making the machine), each with an empty build cache.

The machine is shared: the load average is printed at the start and the end, and CPU time is
what to compare when it is high (a compile is one process: on an idle machine its wall time is
its CPU time).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
GENERATED = REPO / "generated"

#: Runs argv[1:] and prints its wall time, its children's CPU time and their peak RSS as JSON
#: (and the lines the package printed).
MEASURE = r"""
import json, resource, subprocess, sys, time
t = time.perf_counter()
r = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - t
u = resource.getrusage(resource.RUSAGE_CHILDREN)
said = [ln.strip() for ln in (r.stdout + r.stderr).splitlines() if "tpb_isa: " in ln]
print(json.dumps({"rc": r.returncode, "wall": wall, "cpu": u.ru_utime + u.ru_stime,
                  "rss_mb": u.ru_maxrss / 1024, "out": r.stdout[-4000:], "err": r.stderr[-4000:],
                  "said": said}))
"""

#: Compiles one extension of the package at argv[1] (an index into cextensions.every, or
#: "floor") into a temporary directory; prints the .so's size.
COMPILE = r"""
import json, sys, tempfile
from pathlib import Path
root, which, gens = Path(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
sys.path.insert(0, str(root.parent))
from tpb_isa._runtime import cbuild, cextensions
if which == "floor":
    spec = cbuild.Spec("_tpb_floor", "int tpb_floor(void) { return 0; }", "int tpb_floor(void);",
                       (*cextensions.KERNEL_ARGS, *cextensions.BUILD_ONLY_ARGS))
else:
    spec = cextensions.every(root, [tuple(g) for g in gens])[int(which)]
with tempfile.TemporaryDirectory() as d:
    print(cbuild.compile_into(spec, Path(d)).stat().st_size)
"""

FIRST_EXECUTOR = r"""
import sys
from tpb_isa import mariana as m
ex = m.Executor(backend=sys.argv[1])
assert ex.backend == sys.argv[1], ex.backend
"""


def generations() -> list[tuple[str, str, str]]:
    """GENERATIONS of the generated package's setup.py (read, not run: it calls setup())."""
    tree = ast.parse((GENERATED / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "GENERATIONS":
            assert node.value is not None
            return [tuple(g) for g in ast.literal_eval(node.value)]
    raise SystemExit("generated/setup.py has no GENERATIONS")


def measure(
    argv: list[str], env: dict[str, str] | None = None, cwd: Path | None = None
) -> dict[str, Any]:
    r = subprocess.run(
        [sys.executable, "-c", MEASURE, *argv],
        capture_output=True, text=True, env=env, cwd=cwd, check=True,
    )  # fmt: skip
    got: dict[str, Any] = json.loads(r.stdout)
    if got["rc"] != 0:
        raise SystemExit(f"failed: {' '.join(argv)}\n{got['out']}\n{got['err']}")
    return got


def best(rounds: int, run: Any) -> dict[str, Any]:
    """The round with the least CPU time (its wall time and RSS beside it)."""
    return min((run() for _ in range(rounds)), key=lambda m: m["cpu"])


def row(name: str, m: dict[str, Any], floor: dict[str, Any] | None, extra: str = "") -> str:
    ratio = (
        f"{m['cpu'] / floor['cpu']:7.1f}x {m['rss_mb'] / floor['rss_mb']:6.1f}x"
        if floor
        else f"{'':>8} {'':>7}"
    )
    return f"{name:34} {m['wall']:7.1f} {m['cpu']:7.1f} {m['rss_mb']:8.0f} {ratio}  {extra}"


HEAD = f"{'':34} {'wall s':>7} {'cpu s':>7} {'rss MB':>8} {'cpu/fl':>8} {'rss/fl':>7}"


def bench_compile(rounds: int, out: dict[str, Any]) -> None:
    root = GENERATED / "tpb_isa"
    gens = generations()
    with tempfile.TemporaryDirectory() as tmp:
        package = Path(tmp) / "tpb_isa"
        shutil.copytree(root, package)  # a copy: nothing written into generated/
        names = ["floor", *[str(i) for i in range(2 + len(gens))]]  # as cextensions.every
        labels = (
            ["empty cffi extension (floor)", "executor kernels"]
            + [f"{g[1]} validators" for g in gens]
            + ["assembler's text scanner"]
        )
        print("compile, one extension at a time\n" + HEAD)
        floor = None
        for which, label in zip(names, labels, strict=True):
            argv = [sys.executable, "-c", COMPILE, str(package), which, json.dumps(gens)]
            m = best(rounds, lambda argv=argv: measure(argv))
            m["so_mb"] = int(m["out"].strip()) / 1e6
            print(row(label, m, floor, f"{m['so_mb']:.2f} MB .so"))
            floor = floor or m
            out[label] = {k: m[k] for k in ("wall", "cpu", "rss_mb", "so_mb")}


#: What the environment being installed into holds, taken from this interpreter's own
#: site-packages: numpy only (the floor), or numpy and cffi (the extensions compile).
NUMPY_ONLY = ("numpy",)
WITH_CFFI = ("numpy", "cffi", "_cffi_backend", "pycparser")


def _venv(tmp: Path, name: str, packages: tuple[str, ...]) -> Path:
    """A fresh virtual environment (no system site packages) whose site-packages holds links to
    this interpreter's `packages` (their modules and dist-info): what setup.py looks for when it
    decides whether cffi is there, found in the environment it installs into, wherever this
    script runs from (a virtual environment's own --system-site-packages would see the base
    interpreter's, not this one's)."""
    venv = tmp / name
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    )  # fmt: skip
    here = Path(sysconfig.get_paths()["purelib"])
    for entry in here.iterdir():
        if entry.name.split("-")[0].split(".")[0] in packages:
            (purelib / entry.name).symlink_to(entry)
    return python


def bench_install(rounds: int, out: dict[str, Any]) -> None:
    print("\npip install --no-deps ./generated (build isolation, as a user runs it)\n" + HEAD)
    floor = None
    for label, packages in (("without cffi (floor)", NUMPY_ONLY), ("with cffi", WITH_CFFI)):

        def once(packages: tuple[str, ...] = packages) -> dict[str, Any]:
            with tempfile.TemporaryDirectory() as d:
                tmp = Path(d)
                src = tmp / "src"
                shutil.copytree(GENERATED, src)
                python = _venv(tmp, "venv", packages)
                env = {**os.environ, "TPB_ISA_CACHE_DIR": str(tmp / "cache")}
                env.pop("PYTHONPATH", None)
                return measure(
                    [str(python), "-m", "pip", "install", "-v", "--no-deps",
                     "--disable-pip-version-check", str(src)],
                    env=env,
                )  # fmt: skip

        m = best(rounds, once)
        print(row(label, m, floor))
        for line in m["said"]:
            print(f"    {line[:110]}")
        floor = floor or m
        out[f"install {label}"] = {k: m[k] for k in ("wall", "cpu", "rss_mb", "said")}


def bench_vendored(rounds: int, out: dict[str, Any]) -> None:
    print("\nfirst Executor() in a vendored tree (PYTHONPATH=generated, empty cache)\n" + HEAD)
    floor = None
    for label, backend in (('backend="numpy" (floor)', "numpy"), ("C backend", "c")):

        def once(backend: str = backend) -> dict[str, Any]:
            with tempfile.TemporaryDirectory() as d:
                env = {**os.environ, "TPB_ISA_CACHE_DIR": d, "PYTHONPATH": str(GENERATED)}
                env.pop("TPB_ISA_BACKEND", None)
                return measure([sys.executable, "-c", FIRST_EXECUTOR, backend], env=env)

        m = best(rounds, once)
        lines = m["err"].strip().splitlines()
        print(row(label, m, floor, f"{len(lines)} lines on stderr"))
        floor = floor or m
        out[f"vendored {label}"] = {k: m[k] for k in ("wall", "cpu", "rss_mb")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--only", default="compile,install,vendored")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    parts = a.only.split(",")
    out: dict[str, Any] = {"load_start": os.getloadavg(), "cpus": os.cpu_count()}
    print(f"load average {out['load_start'][0]:.1f} on {out['cpus']} CPUs; minimum of {a.rounds}")
    if "compile" in parts:
        bench_compile(a.rounds, out)
    if "install" in parts:
        bench_install(a.rounds, out)
    if "vendored" in parts:
        bench_vendored(a.rounds, out)
    out["load_end"] = os.getloadavg()
    print(f"\nload average at the end {out['load_end'][0]:.1f}")
    if a.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
