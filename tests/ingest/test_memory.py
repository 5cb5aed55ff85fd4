"""Ingest pauses Python's cyclic garbage collector while pycparser parses and the IR is built
(frontend/ingest.py). That frees nothing less: the AST and the IR hold no reference cycles, so
reference counting frees them; the only cycles an ingest leaves are pycparser's own parser, its
lexer (pycparser's or tpbgen's FastLexer, the same references) and token stream, which the
collector takes as soon as it runs again."""

from __future__ import annotations

import collections
import gc

from tpb_paths import HEADER_ROOT
from tpbgen.frontend.ingest import ingest_root


def test_ingest_leaves_no_cycles_of_its_own() -> None:
    ingest_root(HEADER_ROOT, only=["sunda"], use_cache=False)  # warm imports and pycparser's tables
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        results = ingest_root(HEADER_ROOT, only=["sunda"], use_cache=False)
        gen = results[0].gen
        del results
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        kinds = collections.Counter(f"{type(o).__module__}.{type(o).__name__}" for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    lexers = {"pycparser.c_lexer.CLexer", "tpbgen.frontend.lexer.FastLexer"}
    ours = {
        k: n
        for k, n in kinds.items()
        if k.startswith(("tpbgen", "pycparser.c_ast")) and k not in lexers
    }
    assert not ours, f"cycles made of tpbgen or AST objects: {ours}"
    parser_machinery = lexers | {
        "pycparser.c_lexer._Token",
        "pycparser.c_parser.CParser",
        "pycparser.c_parser._TokenStream",
    }
    assert {k for k in kinds if not k.startswith("builtins.")} <= parser_machinery, kinds
    assert gen.name == "sunda" and gen.functions  # the IR itself is alive and whole
