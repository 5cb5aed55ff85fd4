"""examples/kernels/: the shipped listings are current, and the package's command line (`python
-m tpb_isa`'s `main`, called in this process: tests/support_lib/test_runtime_cli.py runs it as
`python -m`) assembles each one with `asm` and executes it with `run` to the output the kernel
object computes in-process."""

from __future__ import annotations

import importlib
import importlib.util
import io
import json
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from .kernel_loader import REPO, gen_module, kernels, package

EXAMPLES = REPO / "examples" / "kernels"
FILES = sorted(EXAMPLES.glob("*.s"))


def _writer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("write_listings", EXAMPLES / "write_listings.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_listings_are_current() -> None:
    writer = _writer()
    wanted = writer.listings()
    assert sorted(wanted) == [p.name for p in FILES]
    for path in FILES:
        assert path.read_text(encoding="utf-8") == wanted[path.name], f"{path}: not current"
    assert writer.main(["write_listings.py", "--check"]) == 0


def _cli(*args: str) -> tuple[int, str]:
    """`python -m tpb_isa *args`, in this process: (exit code, standard error)."""
    tpb_isa = package()
    cli = importlib.import_module("tpb_isa._runtime.cli")
    out, err = io.StringIO(), io.StringIO()
    code: int = cli.main(list(args), tpb_isa, out, err)
    return code, err.getvalue()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_example_runs_through_the_cli(path: Path, tmp_path: Path) -> None:
    gen, kernel_name = path.stem.split("_", 1)
    k = getattr(kernels(gen), kernel_name)(shape=(128, 512), dtype="fp32")
    (y_spec,) = k.outputs
    assert [t.name for t in k.inputs] == ["x"]
    x = np.random.default_rng(len(path.stem)).standard_normal((128, 512)).astype(np.float32)

    binary = tmp_path / "program.bin"
    code, err = _cli("asm", str(path), "-o", str(binary), "--gen", gen)
    assert code == 0, err
    assert binary.read_bytes() == k.words.tobytes()

    ex = gen_module(gen).Executor(backend="numpy")
    k.write_inputs(ex, x)
    state = tmp_path / "state.npz"
    np.savez(state, sbuf=ex.sbuf)
    trace = tmp_path / "trace.jsonl"
    code, err = _cli("run", str(binary), "--gen", gen, "--init", str(state), "--trace", str(trace))
    assert code == 0, err
    assert f"run: {len(k.words)} instructions executed" in err
    last = json.loads(trace.read_text(encoding="utf-8").splitlines()[-1])
    # the last instruction writes the output, partition by partition
    assert last["writes"][0] == ["sbuf", 0, y_spec.offset, y_spec.offset + 512 * 4]
    y = np.frombuffer(bytes.fromhex(last["written"]), dtype=np.float32).reshape(128, 512)
    np.testing.assert_array_equal(y, k(x, backend="numpy"))
