"""The generated README's Python examples run, in order, against the generated package."""

from __future__ import annotations

import re

from tpb_paths import REPO

from . import runtime_import  # noqa: F401  (puts generated/ on sys.path)


def test_readme_examples_run() -> None:
    text = (REPO / "generated" / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 5
    scope: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "generated/README.md", "exec"), scope)
    explain = scope["mariana"].explain(bytes(scope["bad"]))  # type: ignore[attr-defined]
    assert (
        explain
        == "is_valid_tensor_scalar_op -> tensor_scalar_valid_ops: op0 = 7 (DIVIDE) (needs op0 != NEURON_ISA_TPB_ALU_OP_DIVIDE)"
    )
