"""The executor's support code and templates: the per-generation binding and the README fragment
render, the C kernels compile warning-free, the engine and the bindings pass ruff."""

from __future__ import annotations

import dataclasses
import importlib
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .engine_loader import ENGINE, REPO, load_engine, load_package, runtime, sub


def _env() -> Any:
    from tpbgen.templating import environment

    return environment()


def test_binding_renders_for_every_generation() -> None:
    """Each generation's Executor binds what tpbgen's table emitted for what that generation decodes."""
    pkg = load_package()
    for gen in ("sunda", "cayman", "mariana", "maverick"):
        x = importlib.import_module(f"{pkg.__name__}.{gen}.executor")
        assert gen == x.GENERATION and gen == x.Executor.GENERATION
        dual = x.Executor.HANDLERS.get(0x87) == "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH"
        assert dual == (gen == "sunda")
        assert (x.Executor.HANDLERS.get(0x30) == "EXPONENTIAL") == (gen in ("mariana", "maverick"))
        assert 0x93 in x.REFUSED and tuple(sorted(x.Executor.HANDLERS)) == x.EXECUTABLE


def test_readme_fragment_renders_and_lists_every_switch() -> None:
    env = _env()
    t = env.get_template("runtime/README_executor.md.j2")
    text = t.render()
    numerics = load_engine().Numerics()
    for f in dataclasses.fields(numerics):
        assert f"| `{f.name}` |" in text, f.name
        default = getattr(numerics, f.name)
        if f.name != "fp8_e4m3":
            assert f"`{default!r}`".replace("'", '"') in text or f"`{default}`" in text, (
                f.name,
                default,
            )
    for refused in ("0x93", "0x88"):
        assert refused in text
    assert "CRC32" not in text  # the refused enumerators need `executor` (executor_readme)
    assert "What each generation executes" not in text  # needs `gens`


def test_c_source_compiles_cleanly(tmp_path: Path) -> None:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    c = ENGINE / "tpb_kernels.c"
    r = subprocess.run([cc, "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-c", str(c), "-o", str(tmp_path / "k.o")],
                       capture_output=True, text=True)  # fmt: skip
    assert r.returncode == 0, r.stderr


def test_rendered_executor_code_passes_ruff() -> None:
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff not installed")
    root = Path(load_package().__file__).parent
    paths = [
        str(ENGINE),
        *(
            str(root / g / m)
            for g in ("sunda", "cayman", "mariana", "maverick")
            for m in ("executor.py", "executor_binding.py")
        ),
    ]
    r = subprocess.run(
        [ruff, "check", "--config", str(REPO / "pyproject.toml"), *paths],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_no_compiler_falls_back_to_numpy_once(monkeypatch: pytest.MonkeyPatch) -> None:
    cb = sub("cbackend")
    monkeypatch.setattr(cb, "_loaded", None)
    monkeypatch.setattr(cb, "_load_error", "CompileError: no compiler")
    monkeypatch.setattr(cb, "_warned", False)
    monkeypatch.delenv("TPB_ISA_BACKEND", raising=False)
    with pytest.warns(RuntimeWarning, match="using the numpy backend"):
        assert cb.get_backend("auto").name == "numpy"
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cb.get_backend("auto").name == "numpy"  # said once only
    with pytest.raises(cb.BackendUnavailable):
        cb.get_backend("c")
    monkeypatch.setenv("TPB_ISA_BACKEND", "numpy")
    assert cb.get_backend("c").name == "numpy"


def test_c_build_is_cached_by_content(tmp_path: Path) -> None:
    cb = sub("cbackend")
    if cb.load() is None:
        pytest.skip(f"C backend unavailable: {cb.load_error()}")
    spec = runtime("cextensions").kernels()
    assert spec.key in spec.module()
    cbuild = runtime("cbuild")
    assert cbuild.load_compiled(spec) is not None  # what load() built, found by its content


def test_a_changed_source_is_another_build_and_a_prebuilt_file_is_loaded_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The content key covers the source, so an edited kernel never loads a stale build; and a
    module in the package's _prebuilt/ (what pip install compiled) is used before the cache, so
    an installed package compiles nothing at first use."""
    cbuild = runtime("cbuild")
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    spec = cbuild.Spec("_tpbtest_ext", "int seven(void) { return 7; }", "int seven(void);", ())
    edited = dataclasses.replace(spec, source="int seven(void) { return 8; }")
    assert spec.key != edited.key and spec.install_key != edited.install_key
    monkeypatch.setenv("TPB_ISA_CACHE_DIR", str(tmp_path / "cache"))
    prebuilt = tmp_path / "prebuilt"
    monkeypatch.setattr(cbuild, "PREBUILT", prebuilt)
    assert cbuild.load_compiled(spec) is None
    cbuild.compile_into(spec, prebuilt, prebuilt=True)
    _, lib = cbuild.load(spec)
    assert lib.seven() == 7
    assert not (tmp_path / "cache").exists()  # nothing compiled into the cache
    _, lib8 = cbuild.load(edited)  # not prebuilt: compiled into the cache
    assert lib8.seven() == 8 and edited.cache_path().is_file()
    # a prebuilt file this cffi cannot load (here: not an extension at all) falls back
    (prebuilt / edited.filename(prebuilt=True)).write_bytes(b"not a shared object")
    assert cbuild.load_compiled(edited) is not None


def test_a_build_at_first_use_says_what_how_to_skip_it_and_how_long_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A vendored tree compiles on first use: one line naming the build, its cache and how to
    run without it, progress while the compiler runs, and its time when it is done."""
    cbuild = runtime("cbuild")
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    if cbuild.cffi_missing():
        pytest.skip("no cffi")
    monkeypatch.setenv("TPB_ISA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cbuild, "PREBUILT", tmp_path / "prebuilt")
    monkeypatch.setattr(cbuild, "PROGRESS_EVERY", 0.01)  # a line per 10 ms of the compiler
    spec = cbuild.Spec(
        "_tpbtest_progress", "int nine(void) { return 9; }", "int nine(void);", (),
        what="the test's extension", skip='backend="numpy" runs without it',
    )  # fmt: skip
    _, lib = cbuild.load(spec)
    assert lib.nine() == 9
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (
        f"tpb_isa: compiling the test's extension (once; cached in {spec.cache_path().parent}; "
        'backend="numpy" runs without it)'
    )
    assert err[-1].startswith("tpb_isa: compiled the test's extension in ")
    ticks = err[1:-1]
    assert ticks and all(t.startswith("tpb_isa: compiling the test's extension: ") for t in ticks)
    cbuild.load(spec)  # cached now: not a word
    assert capsys.readouterr().err == ""


def test_only_a_missing_cffi_the_install_reported_is_a_quiet_fallback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cbuild = runtime("cbuild")
    monkeypatch.setattr(cbuild, "PREBUILT", tmp_path)
    missing = cbuild.Unavailable("cffi is not installed")
    assert not cbuild.said_at_install(missing)  # a vendored tree: nothing said yet
    (tmp_path / cbuild.NOT_BUILT).write_text("cffi is not installed in this environment\n")
    assert cbuild.said_at_install(missing)
    assert not cbuild.said_at_install(RuntimeError("the compiler failed"))


@pytest.mark.parametrize(
    ("name", "args"), [("Pattern", (0x80000004, (1, 0, 2), (4, 1, 1))), ("Imm", (2, 0x3FC00000))]
)
def test_pattern_and_imm_are_the_frozen_dataclasses_their_fields_make(
    name: str, args: tuple[Any, ...]
) -> None:
    """Pattern and Imm write their fields in their own `__init__` (faster than the generated
    one): an instance is in every way the one the plain frozen dataclass of the same fields
    makes, by position or keyword: fields, eq and hash, repr, replace, pickling, the frozen error."""
    import pickle

    cls = getattr(sub("kernels"), name)
    fields = [(f.name, f.type) for f in dataclasses.fields(cls)]
    plain = dataclasses.make_dataclass(name, fields, frozen=True)
    names = [n for n, _ in fields]
    for made, want in [
        (cls(*args), plain(*args)),
        (cls(**dict(zip(names, args, strict=True))), plain(*args)),
    ]:
        assert dataclasses.astuple(made) == dataclasses.astuple(want) == args
        assert vars(made) == vars(want) and repr(made) == repr(want)
        assert made == cls(*args) and hash(made) == hash(want) and made != cls(*args[:-1], 7)
        assert dataclasses.replace(made, **{names[0]: 9}) == cls(9, *args[1:])
        assert pickle.loads(pickle.dumps(made)) == made
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, names[0], 1)
