"""examples/kernels/: the shipped listings are current, and `python -m tpb_isa asm` then `run`
executes each one to the output the kernel object computes in-process."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from .kernel_loader import GENERATED, REPO, gen_module, kernels

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


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(GENERATED)}
    return subprocess.run(
        [sys.executable, "-m", "tpb_isa", *args], capture_output=True, text=True, env=env
    )


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_example_runs_through_the_cli(path: Path, tmp_path: Path) -> None:
    gen, kernel_name = path.stem.split("_", 1)
    k = getattr(kernels(gen), kernel_name)(shape=(128, 512), dtype="fp32")
    (y_spec,) = k.outputs
    assert [t.name for t in k.inputs] == ["x"]
    x = np.random.default_rng(len(path.stem)).standard_normal((128, 512)).astype(np.float32)

    binary = tmp_path / "program.bin"
    done = _cli("asm", str(path), "-o", str(binary), "--gen", gen)
    assert done.returncode == 0, done.stderr
    assert binary.read_bytes() == k.words.tobytes()

    ex = gen_module(gen).Executor(backend="numpy")
    k.write_inputs(ex, x)
    state = tmp_path / "state.npz"
    np.savez(state, sbuf=ex.sbuf)
    trace = tmp_path / "trace.jsonl"
    done = _cli("run", str(binary), "--gen", gen, "--init", str(state), "--trace", str(trace))
    assert done.returncode == 0, done.stderr
    assert f"run: {len(k.words)} instructions executed" in done.stderr
    last = json.loads(trace.read_text(encoding="utf-8").splitlines()[-1])
    # the last instruction writes the output, partition by partition
    assert last["writes"][0] == ["sbuf", 0, y_spec.offset, y_spec.offset + 512 * 4]
    y = np.frombuffer(bytes.fromhex(last["written"]), dtype=np.float32).reshape(128, 512)
    np.testing.assert_array_equal(y, k(x, backend="numpy"))
