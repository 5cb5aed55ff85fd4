"""Every back end handles every lowered node: adding a node class makes each back end that does
not handle it fail when its class is defined, naming the missing handler."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tpbgen.translate import analyses, lir, to_numpy, to_python


@dataclass(frozen=True)
class NewNode:
    """A node a future C construct might lower to."""


BACK_ENDS = [
    (to_python.PyEmitter, "expr", lir.EXPR_NODES),
    (to_python.PyEmitter, "stmt", lir.STMT_NODES),
    (to_numpy.NpEmitter, "expr", lir.EXPR_NODES),
    (to_numpy.NpEmitter, "stmt", lir.STMT_NODES),
    (analyses.Children, "of", lir.EXPR_NODES),
    (analyses.BodyExprs, "of", lir.STMT_NODES),
    (analyses.SubBodies, "of", lir.STMT_NODES),
]


@pytest.mark.parametrize(
    ("cls", "prefix", "nodes"), BACK_ENDS, ids=lambda x: getattr(x, "__name__", str(x))
)
def test_each_back_end_covers_every_node_today(
    cls: type, prefix: str, nodes: tuple[type, ...]
) -> None:
    assert lir.covers(prefix, nodes)(cls) is cls


@pytest.mark.parametrize(
    ("cls", "prefix", "nodes"), BACK_ENDS, ids=lambda x: getattr(x, "__name__", str(x))
)
def test_a_new_node_fails_every_back_end_that_forgets_it(
    cls: type, prefix: str, nodes: tuple[type, ...]
) -> None:
    with pytest.raises(
        TypeError,
        match=f"{cls.__name__} does not handle every lowered node: missing {prefix}_NewNode",
    ):
        lir.covers(prefix, (*nodes, NewNode))(cls)


def test_dispatch_calls_the_handler_of_the_node_class() -> None:
    @lir.covers("show", (NewNode,))
    class Shows:
        def show_NewNode(self, n: NewNode, suffix: str) -> str:
            return "new" + suffix

    assert lir.dispatch(Shows(), "show", NewNode(), "!") == "new!"


def test_the_node_tuples_list_every_node_class() -> None:
    exprs = {n.__name__ for n in lir.EXPR_NODES}
    stmts = {n.__name__ for n in lir.STMT_NODES}
    for name in (
        "Const",
        "Var",
        "Load",
        "Unary",
        "Not",
        "Binary",
        "Compare",
        "Logical",
        "Cond",
        "Call",
        "Conv",
        "Index",
    ):
        assert name in exprs
    assert stmts == {"Return", "Assign", "If", "Loop", "Switch", "Break", "Continue"}
    assert set(lir.Expr.__args__) == set(lir.EXPR_NODES)  # type: ignore[attr-defined]
    assert set(lir.Stmt.__args__) == set(lir.STMT_NODES)  # type: ignore[attr-defined]
