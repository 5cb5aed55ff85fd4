"""Which part of tpbgen each test covers (imported as `tpb_areas`; tests/conftest.py marks every
test with it): `python -m pytest -m <marker>` runs what a change to that part touches (README,
"Which tests cover what"; `python -m pytest --markers` lists them)."""

from __future__ import annotations

#: The markers of each test, by where it lives under tests/: a folder, or a file at the top.
AREAS: dict[str, tuple[str, ...]] = {
    "ingest": ("frontend",),
    "headers": ("headers",),
    "translate": ("translate",),
    "differential": ("validators",),
    "emit": ("emit",),
    "variants": ("variants",),
    "executor": ("executor",),
    "support_lib": ("runtime",),
    "bench": ("toolkit",),
    "audit": ("audit",),
    "cli": ("cli",),
    "kernels": ("kernels",),
    "fuzz": ("fuzz",),
    "test_fresh_clone.py": ("install",),
    "test_lower_bounds.py": ("install",),
    "test_hygiene.py": ("hygiene",),
    "test_layering.py": ("hygiene",),
    "test_areas.py": ("hygiene",),
}

#: What each marker covers: the generator's stages, then the generated runtime, then the repo.
MARKERS: dict[str, str] = {
    "frontend": "tpbgen's front end: preprocessing, the lexer and parser, the IR (tests/ingest)",
    "headers": "the vendored headers themselves: they compile, their C validators, the layout "
    "probe and mapping.json (tests/headers)",
    "translate": "the C-to-Python translator and its golden corpus (tests/translate)",
    "validators": "every generated validator against the headers' own compiled C "
    "(tests/differential)",
    "emit": "rendering the package: generate, the predicate proof, the render cache, setup.py "
    "and the install, the text form, the generated code's lint (tests/emit)",
    "variants": "whole edited drops through generate, held to their own C (tests/variants; the "
    "slowest part: a cold generate a case)",
    "executor": "the runtime's executor: both backends, kernels, programs (tests/executor)",
    "runtime": "the runtime library's argument checks and C validators (tests/support_lib)",
    "toolkit": "the test-bench toolkit: stimulus, coverage, trace, compat, info (tests/bench)",
    "audit": "tpbgen audit: facts, kinds, formats, the HTML page (tests/audit)",
    "cli": "tpbgen's command line: habits and located diagnostics (tests/cli)",
    "kernels": "the per-generation kernels built as programs (softmax, rmsnorm, layernorm, "
    "cumsum) against numpy on both backends, and their example listings (tests/kernels)",
    "fuzz": "the seeded, bounded fuzz of tpbgen's inputs and of the runtime CLI's files and "
    "arguments, held to the exit-code contract (tests/fuzz)",
    "install": "a fresh clone and venv as the README sets them up, and the declared lower "
    "bounds (tests/test_fresh_clone.py, tests/test_lower_bounds.py)",
    "hygiene": "docstrings and the import layering of the generator (tests/test_hygiene.py, "
    "tests/test_layering.py)",
}
