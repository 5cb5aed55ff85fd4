"""Issue 25's hygiene rule that ruff does not hold: a docstring on every public and every long
function of the generator.

Public: a function or method whose name, and the names of the classes around it, do not start with
`_` (dunders included: their contract is Python's protocol, unless they are long), not nested in a
function. Long: more than 30 lines from `def` to its last line, whatever its name. An `@overload`
stub needs none (the implementation carries it).
"""

from __future__ import annotations

import ast
from pathlib import Path

import tpbgen

PKG = Path(tpbgen.__file__).resolve().parent
LONG = 30


def _is_overload(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(
        (isinstance(d, ast.Name) and d.id == "overload")
        or (isinstance(d, ast.Attribute) and d.attr == "overload")
        for d in fn.decorator_list
    )


def _undocumented(tree: ast.Module) -> list[tuple[str, int]]:
    """(qualified name, line) of every public or long function in `tree` without a docstring."""
    out: list[tuple[str, int]] = []

    def walk(node: ast.AST, path: list[str], public: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                walk(child, [*path, child.name], public and not child.name.startswith("_"))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                assert child.end_lineno is not None
                long = child.end_lineno - child.lineno + 1 > LONG
                is_public = public and not (
                    child.name.startswith("_") and not child.name.endswith("__")
                )
                dunder = child.name.startswith("__") and child.name.endswith("__")
                needs = long or (is_public and not dunder)
                if needs and not _is_overload(child) and ast.get_docstring(child) is None:
                    out.append((".".join([*path, child.name]), child.lineno))
                walk(child, [*path, child.name], False)
            else:
                walk(child, path, public)

    walk(tree, [], True)
    return out


def test_every_public_and_every_long_function_has_a_docstring() -> None:
    found: dict[tuple[str, str], int] = {}
    for path in sorted(PKG.rglob("*.py")):
        module = path.relative_to(PKG).as_posix()
        for name, line in _undocumented(ast.parse(path.read_text(encoding="utf-8"))):
            found[module, name] = line
    new = sorted((m, line, n) for (m, n), line in found.items())
    assert not new, "no docstring (say what it returns or does, and its contract):\n" + "\n".join(
        f"  tpbgen/{m}:{line}: {n}" for m, line, n in new
    )
