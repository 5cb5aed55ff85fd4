"""Generation-independent support shared by every generation of `tpb_isa`.

Generated modules import `RUNTIME_API` and call `check_api` at import: a generated module
newer than this runtime refuses to load instead of misbehaving.
"""

from __future__ import annotations

RUNTIME_API: tuple[int, int] = (1, 0)


class RuntimeMismatch(ImportError):
    pass


def check_api(needed: tuple[int, int], module: str) -> None:
    major, minor = RUNTIME_API
    if needed[0] != major or needed[1] > minor:
        raise RuntimeMismatch(
            f"{module} was generated for tpb_isa runtime API {needed[0]}.{needed[1]}, "
            f"but this runtime provides {major}.{minor}: regenerate, or vendor the matching runtime"
        )
