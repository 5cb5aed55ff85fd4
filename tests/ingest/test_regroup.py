"""The regroup-and-depth walk (frontend/parse.py): `&&`/`||` chains of REGROUP_MIN terms or more
become balanced trees of the same terms in the same order, shorter ones keep their shape, and
every chain is measured once, so the walk costs the tree's size (a chain of n terms measured at
each of its operators cost n^2/2: 40 chains of 255 terms took 228 ms, as long as parsing them)."""

from __future__ import annotations

from typing import Any

import pytest
from pycparser import c_ast, c_parser

from tpbgen.frontend import parse as pz


def _body_expr(src: str) -> Any:
    ast = c_parser.CParser().parse(src)
    pz.regroup_and_check_depth(ast, lambda f: f)
    return ast, [fd.body.block_items[0].expr for fd in ast.ext]


def _terms(node: c_ast.Node, op: str) -> list[str]:
    out: list[str] = []
    todo = [node]
    while todo:
        x = todo.pop()
        if isinstance(x, c_ast.BinaryOp) and x.op == op:
            todo += [x.right, x.left]
        else:
            out.append(x.right.value if isinstance(x, c_ast.BinaryOp) else repr(x))
    return out


def _depth(node: c_ast.Node, op: str) -> int:
    if isinstance(node, c_ast.BinaryOp) and node.op == op:
        return 1 + max(_depth(node.left, op), _depth(node.right, op))
    return 0


@pytest.mark.parametrize("n", [2, 255, 256, 1000])
@pytest.mark.parametrize("op", ["&&", "||"])
def test_chains_keep_their_terms_in_order_and_long_ones_are_balanced(n: int, op: str) -> None:
    chain = f" {op} ".join(f"(x > {i})" for i in range(n))
    _, (expr,) = _body_expr(f"int f(int x) {{ return {chain}; }}")
    assert _terms(expr, op) == [str(i) for i in range(n)]
    if n < pz.REGROUP_MIN:
        assert _depth(expr, op) == n - 1  # the shape the header gave it (left-nested)
    else:
        assert _depth(expr, op) == (n - 1).bit_length()


def test_each_chain_is_measured_once(monkeypatch: pytest.MonkeyPatch) -> None:
    visited = 0
    real = pz._chain

    def counting(node: c_ast.BinaryOp) -> tuple[list[c_ast.Node], list[c_ast.BinaryOp]]:
        nonlocal visited
        terms, inner = real(node)
        visited += len(terms) + len(inner)
        return terms, inner

    monkeypatch.setattr(pz, "_chain", counting)
    n, chains = pz.REGROUP_MIN - 1, 40
    inner = " || ".join(f"(x == {i})" for i in range(n))  # a chain of the other operator inside
    chain = " && ".join(f"(x > {i})" for i in range(n - 1)) + f" && ({inner})"
    src = "\n".join(f"int f{k}(int x) {{ return {chain}; }}" for k in range(chains))
    _, exprs = _body_expr(src)
    assert len(exprs) == chains
    each = (n + n - 1) * 2  # both chains' terms and operators, once
    assert visited <= chains * each, visited  # measuring every sub-chain: ~chains * n * n
