"""The runtime library shared by every generation of `tpb_isa`.

This package is tpbgen's runtime library, copied verbatim from tpbgen's `runtime/`
into `tpb_isa/_runtime/`. Generated modules call `check_api` at import with the runtime API
they were generated for: a generated module newer than this runtime refuses to load instead of
misbehaving.
"""

from __future__ import annotations

from .api import RUNTIME_API


class RuntimeMismatch(ImportError):
    pass


def check_api(needed: tuple[int, int], module: str) -> None:
    major, minor = RUNTIME_API
    if needed[0] != major or needed[1] > minor:
        raise RuntimeMismatch(
            f"{module} was generated for tpb_isa runtime API {needed[0]}.{needed[1]}, "
            f"but this runtime provides {major}.{minor}: regenerate, or vendor the matching runtime"
        )


__all__ = ["RUNTIME_API", "RuntimeMismatch", "check_api"]
