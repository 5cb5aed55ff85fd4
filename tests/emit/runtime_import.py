"""Import the committed generated package (generated/tpb_isa) the way a vendoring user would."""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from tpb_paths import REPO

if str(REPO / "generated") not in sys.path:
    sys.path.insert(0, str(REPO / "generated"))


def gen_module(name: str, sub: str = "") -> ModuleType:
    return importlib.import_module(f"tpb_isa.{name}{'.' + sub if sub else ''}")
