"""Write the kernel listings of this directory: `<gen>_<kernel>.s`, each kernel of
`tpb_isa.<gen>.kernels` built for a (128, 512) fp32 tensor, in the text form.

    python examples/kernels/write_listings.py          # rewrite them
    python examples/kernels/write_listings.py --check  # exit 1 when one is not current

Assemble and run one (its input `x` at SBUF partition 0, offset 0, one row a partition):

    python -m tpb_isa asm examples/kernels/mariana_softmax.s -o softmax.bin --gen mariana
    python -m tpb_isa run softmax.bin --gen mariana --init state.npz --trace softmax.jsonl

`state.npz` holds `sbuf`, the machine's (partitions, bytes) SBUF with `x` written in; the last
trace line's `written` bytes are the output `y`.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
GENERATED = HERE.parents[1] / "generated"
GENS = ("sunda", "cayman", "mariana", "maverick")
KERNELS = ("softmax", "rmsnorm", "layernorm", "cumsum", "cummax")
SHAPE = (128, 512)


def listings() -> dict[str, str]:
    """file name -> listing, for every kernel each generation executes."""
    if str(GENERATED) not in sys.path:
        sys.path.insert(0, str(GENERATED))
    out: dict[str, str] = {}
    for gen in GENS:
        kernels = importlib.import_module(f"tpb_isa.{gen}.kernels")
        unsupported = importlib.import_module(f"tpb_isa.{gen}.executor").UnsupportedError
        for name in KERNELS:
            try:
                kernel = getattr(kernels, name)(shape=SHAPE, dtype="fp32")
            except unsupported:
                continue  # the generation does not execute an opcode the kernel needs
            out[f"{gen}_{name}.s"] = kernel.listing()
    return out


def main(argv: list[str]) -> int:
    wanted = listings()
    stale = sorted(
        name
        for name, text in wanted.items()
        if not (HERE / name).is_file() or (HERE / name).read_text(encoding="utf-8") != text
    )
    extra = sorted(p.name for p in HERE.glob("*.s") if p.name not in wanted)
    if argv[1:] == ["--check"]:
        for name in stale + extra:
            print(f"{HERE / name}: not current (python {Path(__file__).name})", file=sys.stderr)
        return 1 if stale or extra else 0
    for name in stale:
        (HERE / name).write_text(wanted[name], encoding="utf-8")
    for name in extra:
        (HERE / name).unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
