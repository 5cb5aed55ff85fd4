"""The README's layering rules ("What it does"), held over tpbgen's import graph and source.

Every arrow goes forward: the base (ir/, resolve, naming, errors, ...) imports no stage; the front
end imports nothing after it; checks/ and translate/ import no later stage; emit/ is a renderer of
declared input (it imports nothing from frontend/, checks/ or audit/); only the driver and cli/
run the front end, so nothing after it reads header text; cli/ alone prints. Imports inside
functions count the same as those at the top of a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import tpbgen

PKG = Path(tpbgen.__file__).resolve().parent
STAGES = ("frontend", "checks", "translate", "emit", "audit", "cli")
LATER = ("driver", "render_cache", "staged")  # the driver's modules: after every stage but cli/
ENTRY = "__main__"  # `python -m tpbgen`: runs cli/
# The Jinja helpers emit/ and audit/ share; they print values as translate/to_python.py does.
RENDERING = "templating"


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _sources() -> dict[str, Path]:
    """Every module of the generator (not the templates nor the runtime library, which an
    installed tpbgen holds under it as tpbgen.templates and tpbgen.runtime)."""
    return {
        _module_name(p): p
        for p in sorted(PKG.rglob("*.py"))
        if p.relative_to(PKG).parts[0] not in ("templates", "runtime")
    }


def _imports(name: str, path: Path) -> set[str]:
    """The tpbgen modules `name` imports (anywhere in it), relative to the package: "emit.render"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {
                a.name.removeprefix("tpbgen.") for a in node.names if a.name.startswith("tpbgen.")
            }
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                mod = ".".join([*base, *(node.module.split(".") if node.module else [])])
            elif node.module and node.module.startswith("tpbgen"):
                mod = node.module.removeprefix("tpbgen").lstrip(".")
            else:
                continue
            # `from . import x` / `from ..checks import reconcile`: the names may be modules
            out.add(mod)
            out |= {f"{mod}.{a.name}" if mod else a.name for a in node.names}
        elif isinstance(node, ast.Call) and _named_import(node).startswith("tpbgen."):
            out.add(_named_import(node).removeprefix("tpbgen."))  # an import by a string
    return {m for m in out if m}


def _named_import(call: ast.Call) -> str:
    """The module `importlib.import_module("...")` / `import_module("...")` / `__import__("...")`
    names by a constant string, "" for any other call."""
    f = call.func
    called = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    if called not in ("import_module", "__import__") or not call.args:
        return ""
    arg = call.args[0]
    return arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else ""


def _stage(module: str) -> str:
    return module.split(".")[0]


GRAPH = {name: _imports(name, path) for name, path in _sources().items()}


def _violations(importer: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{name} imports {m}"
        for name, deps in GRAPH.items()
        if _stage(name) == importer or name == importer
        for m in deps
        if _stage(m) in forbidden
    )


# The generator's dependencies on the runtime library (runtime/, installed as
# tpbgen.runtime): each a declared import the graph sees, and only these.
RUNTIME_USERS = {
    ("templating", "runtime.api"),  # the runtime's API version, stamped into the package
    ("checks.cpredicates", "runtime.cbuild"),  # the flags the C backend is built with
    ("checks.predicates", "runtime.cbuild"),  # (and the proof's cache key names them)
}


def test_the_generator_reads_the_runtime_through_declared_imports() -> None:
    """Every import of the runtime library by the generator, plain or by a string, is one of
    RUNTIME_USERS (the graph reads `import_module("tpbgen...")` too), and no module imports a
    name from a string that is not a constant (an import the graph could not see)."""
    found = {  # (a name imported from a runtime module counts as that module)
        (name, ".".join(m.split(".")[:2]))
        for name, deps in GRAPH.items()
        for m in deps
        if m.startswith("runtime.")
    }
    assert found == RUNTIME_USERS
    hidden = []
    for name, path in _sources().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            f = node.func if isinstance(node, ast.Call) else None
            called = (
                f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            )
            if called in ("import_module", "__import__") and isinstance(node, ast.Call):
                arg = node.args[0] if node.args else None
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    hidden.append(f"{name}:{node.lineno}")
    assert hidden == []


def test_the_graph_is_read() -> None:
    """The walk finds the modules and their imports (a broken walk would pass every rule)."""
    assert {"driver", "emit.render", "cli.generate", "frontend.ingest"} <= GRAPH.keys()
    assert "driver" in GRAPH["cli.generate"]
    assert "frontend.ingest" in GRAPH["driver"]
    assert "translate.validators" in GRAPH["emit.render"]


def test_the_base_imports_no_stage() -> None:
    base = [n for n in GRAPH if _stage(n) not in (*STAGES, *LATER, ENTRY, RENDERING)]
    assert "resolve" in base and "ir.model" in base
    bad = [v for n in base for v in _violations(n, (*STAGES, *LATER))]
    assert bad == []


def test_the_rendering_helpers_import_no_later_stage() -> None:
    assert _violations(RENDERING, ("frontend", "checks", "emit", "audit", "cli", *LATER)) == []


def test_the_front_end_imports_nothing_after_it() -> None:
    assert _violations("frontend", ("checks", "translate", "emit", "audit", "cli", *LATER)) == []


def test_checks_and_translate_import_no_later_stage() -> None:
    later = ("emit", "audit", "cli", *LATER)
    assert _violations("checks", later) == []
    assert _violations("translate", ("frontend", "checks", *later)) == []


def test_emit_is_a_renderer_of_declared_input() -> None:
    assert _violations("emit", ("frontend", "checks", "audit", "cli", *LATER)) == []


def test_audit_imports_no_renderer_driver_or_cli() -> None:
    assert _violations("audit", ("frontend", "emit", "cli", *LATER)) == []


# The front end's modules other stages may name. Running the front end (ingest, discover, the
# shipped headers) is the driver's and cli/'s; checks/annotations reads the size-annotation
# grammar, a rule on comment strings already in the IR, not header text.
FRONT_END_USERS = {
    ("driver", "frontend.firmware"),
    ("driver", "frontend.ingest"),
    ("driver", "frontend.limits"),
    ("driver", "frontend.shipped"),
    ("render_cache", "frontend.ingest"),
    ("checks.annotations", "frontend.comments"),
}


def test_nothing_after_the_front_end_reads_header_text() -> None:
    bad = sorted(
        f"{name} imports {m}"
        for name, deps in GRAPH.items()
        if _stage(name) not in ("frontend", "cli")
        for m in deps
        if _stage(m) == "frontend"
        and m != "frontend"
        and (name, ".".join(m.split(".")[:2])) not in FRONT_END_USERS
    )
    assert bad == []


def _prints(path: Path) -> list[str]:
    """Calls of print() and writes to sys.stdout / sys.stderr outside a `__main__` block."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    main_blocks = [
        n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test)
    ]
    skip = {id(x) for b in main_blocks for x in ast.walk(b)}
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "print"
        ):
            out.append(f"{path.name}:{node.lineno}: print()")
        if (
            isinstance(node, ast.Attribute)
            and node.attr in ("stdout", "stderr")
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
        ):
            out.append(f"{path.name}:{node.lineno}: sys.{node.attr}")
    return out


def test_cli_alone_prints() -> None:
    bad = [p for name, path in _sources().items() if _stage(name) != "cli" for p in _prints(path)]
    assert bad == []
    assert _prints(PKG / "cli" / "output.py"), "the printer itself is found"
