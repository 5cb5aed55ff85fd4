"""tpbgen's own C printer: whatever it prints parses back to the same AST (so its parentheses are
right), for every expression and statement in every vendored predicate body."""

from __future__ import annotations

from pycparser import c_ast, c_parser

from tpb_paths import HEADER_ROOT
from tpbgen.frontend.ingest import ingest_root
from tpbgen.ir import cprint
from tpbgen.ir.cast import from_dict, to_dict


def _strip(d: object) -> object:
    if isinstance(d, dict):
        return {k: _strip(v) for k, v in d.items() if k != "coord"}
    if isinstance(d, list):
        return [_strip(x) for x in d]
    return d


def _exprs(node: c_ast.Node) -> list[c_ast.Node]:
    out = []
    for _, child in node.children():
        if isinstance(
            child, (c_ast.BinaryOp, c_ast.UnaryOp, c_ast.TernaryOp, c_ast.FuncCall, c_ast.Cast)
        ):
            out.append(child)
        out += _exprs(child)
    return out


def test_printed_expressions_parse_back_to_the_same_tree() -> None:
    parser = c_parser.CParser()
    checked = 0
    for r in ingest_root(HEADER_ROOT):
        libc = (
            "int8_t",
            "uint8_t",
            "int16_t",
            "uint16_t",
            "int32_t",
            "uint32_t",
            "int64_t",
            "uint64_t",
            "bool",
        )
        typedefs = (
            "".join(f"typedef int {t};\n" for t in libc)
            + "".join(f"typedef int {t.name};\n" for t in r.gen.typedefs)
            + "".join(
                f"typedef int {s.name};\n"
                for s in r.gen.structs
                if not s.name.startswith("__") and s.name not in {t.name for t in r.gen.typedefs}
            )
        )
        for fn in r.gen.functions:
            body = from_dict(fn.body)
            for e in _exprs(body.body):
                text = cprint.expr(e)
                again = parser.parse(f"{typedefs}void f(void) {{ x = {text}; }}", "<cprint>")
                got = again.ext[-1].body.block_items[0].rvalue
                assert _strip(to_dict(got, str)) == _strip(to_dict(e, str)), f"{fn.name}: {text}"
                checked += 1
    assert checked > 4000


def test_statements_and_declarations() -> None:
    tree = c_parser.CParser().parse(
        "typedef unsigned int uint32_t;\n"
        "int f(int a) { uint32_t n = 1U; for (int k = 0; k < 4; k++) { if (a & (1 << k)) continue; n *= 2; }"
        " switch (a) { case 1: case 2: return 3; default: break; } return a ? -a : !a; }",
        "<t>",
    )
    body = tree.ext[-1].body.block_items
    assert cprint.render(body[0]) == "uint32_t n = 1U"
    assert (
        cprint.stmt(body[1]) == "for (int k = 0; k < 4; k++) { if (a & 1 << k) continue; n *= 2; }"
    )
    assert cprint.stmt(body[2]) == "switch (a) { case 1:  case 2: return 3; default: break; }"
    assert cprint.expr(body[3].expr) == "a ? -a : !a"
