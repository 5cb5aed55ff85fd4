"""`python -m tpb_isa`: disassemble, assemble and explain instruction words (see _runtime/cli.py)."""

import sys

from . import _runtime  # noqa: F401  (the runtime library, imported before its cli module)
from ._runtime.cli import main

raise SystemExit(main(sys.argv[1:], sys.modules[__package__ or "tpb_isa"]))
