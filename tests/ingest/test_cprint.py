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


_OPERATORS = (c_ast.BinaryOp, c_ast.UnaryOp, c_ast.TernaryOp, c_ast.FuncCall, c_ast.Cast)


def _exprs(node: c_ast.Node) -> list[c_ast.Node]:
    """The outermost operator expressions under `node`: each is printed and parsed back whole,
    so every operator nested in it is checked in its context (its parentheses among its
    neighbours'), which checking each nested one alone again would only repeat."""
    out = []
    for _, child in node.children():
        if isinstance(child, _OPERATORS):
            out.append(child)
        else:
            out += _exprs(child)
    return out


def _operators(node: c_ast.Node) -> int:
    """How many operator expressions `node` is or holds."""
    return int(isinstance(node, _OPERATORS)) + sum(_operators(c) for _, c in node.children())


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
        printed = [
            (fn.name, e, cprint.expr(e))
            for fn in r.gen.functions
            for e in _exprs(from_dict(fn.body).body)
        ]
        # one translation unit a generation, a function an expression (parsing the typedefs
        # once, not once an expression); a text that does not parse is found alone
        source = typedefs + "".join(
            f"void f{i}(void) {{ x = {text}; }}\n" for i, (_, _, text) in enumerate(printed)
        )
        try:
            again = parser.parse(source, "<cprint>").ext[-len(printed) :]
        except c_parser.ParseError:
            for name, _, text in printed:
                parser.parse(f"{typedefs}void f(void) {{ x = {text}; }}", f"<cprint {name}>")
            raise
        for (name, e, text), fdef in zip(printed, again, strict=True):
            got = fdef.body.block_items[0].rvalue
            assert _strip(to_dict(got, str)) == _strip(to_dict(e, str)), f"{name}: {text}"
            checked += _operators(e)
    assert checked > 4000, checked  # operators checked in context (10,335 in the vendored drop)


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
