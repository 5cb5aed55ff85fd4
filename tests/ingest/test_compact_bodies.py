"""Function bodies in the IR are compact (ir/body.py) and decoded only when read: a warm ingest
parses no body, the dict form a reader gets is the one `ir.cast.to_dict` writes, and a body's
text names node classes from a fixed table (data only: an unknown name is refused, never
imported)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tpb_paths import HEADER_ROOT
from tpbgen.frontend.ingest import ingest_root
from tpbgen.ir.body import Body
from tpbgen.ir.cast import from_dict


def _same(a: Any, b: Any) -> bool:
    """Two pycparser values alike: node classes, coordinates, every slot, recursively."""
    if isinstance(a, list) or isinstance(b, list):
        return (
            isinstance(a, list)
            and isinstance(b, list)
            and len(a) == len(b)
            and all(_same(x, y) for x, y in zip(a, b, strict=True))
        )
    if not hasattr(a, "__slots__") or isinstance(a, str):
        return bool(a == b)
    if type(a) is not type(b):
        return False
    ca, cb = a.coord, b.coord
    if (ca is None) != (cb is None):
        return False
    if ca is not None and (ca.file, ca.line, ca.column) != (cb.file, cb.line, cb.column):
        return False
    return all(
        _same(getattr(a, s), getattr(b, s))
        for s in a.__slots__
        if s not in ("coord", "__weakref__")
    )


def test_a_warm_ingest_decodes_no_body_and_reads_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    cold = ingest_root(HEADER_ROOT, only=["sunda"])[0]
    warm = ingest_root(HEADER_ROOT, only=["sunda"])[0]
    assert warm.from_cache and not cold.from_cache
    fns = warm.gen.functions
    assert fns and all("body" not in vars(f) and f.code._tree is None for f in fns)
    for c, w in zip(cold.gen.functions, fns, strict=True):
        assert w.body == c.body and w.code == c.code
    assert all("body" in vars(f) for f in fns)  # decoded once, then kept


def test_the_dict_form_round_trips() -> None:
    gen = ingest_root(HEADER_ROOT, only=["mariana"], use_cache=False)[0].gen
    for f in gen.functions:
        again = Body.from_dict(f.body)
        assert again == f.code and again.as_dict() == f.body


@pytest.mark.parametrize("name", ["mariana", "maverick"])
def test_the_nodes_are_those_of_the_dict_form(name: str) -> None:
    gen = ingest_root(HEADER_ROOT, only=[name], use_cache=False)[0].gen
    for f in gen.functions:
        assert _same(f.code.as_node(), from_dict(f.body)), f.name


@pytest.mark.parametrize(
    "text",
    [
        '["t.h",["os.system",null]]',
        '["t.h",["__import__",null]]',
        '["t.h",["ID",null]]',  # too few slots
        '{"_t":"ID"}',
        '["t.h",["ID",[1],"x"]]',  # a coordinate that is neither packed nor text
    ],
)
def test_a_forged_body_is_refused_not_run(text: str) -> None:
    with pytest.raises(ValueError):
        Body(text=text).as_dict()
    with pytest.raises(ValueError):
        Body(text=text).as_node()
