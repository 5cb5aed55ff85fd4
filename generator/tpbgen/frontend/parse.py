"""Parse preprocessed text with pycparser 3; a syntax error becomes a `file:line:col` diagnostic.

Depth is bounded on both sides of the parser (see tpbgen.deep): text nested more than
MAX_NESTING brackets deep is refused where the nesting passes the bound, before pycparser's
recursive descent sees it; after parsing, every `&&` or `||` chain of REGROUP_MIN terms or more is
regrouped into a balanced tree (both operators are associative, short-circuit included: the
terms are still evaluated left to right up to the first that decides), so a 10,000-term chain is
14 levels deep instead of 10,000; a function whose tree is still deeper than MAX_TREE_DEPTH is
refused at the node that passes the bound.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from pycparser import c_ast, c_parser

from ..deep import MAX_NESTING, MAX_TREE_DEPTH
from ..errors import Diagnostic, Severity, TpbgenError
from ..ir.body import slots as body_slots
from .lexer import new_parser

_PARSE_ERR = re.compile(r"^(?P<file>[^:]*):(?P<line>\d+)(?::(?P<col>\d+))?:\s*(?P<msg>.*)$", re.S)

REGROUP_MIN = 256  # terms: shorter chains keep the shape the header gives them


def parse(text: str, filename: str, relpath: Callable[[str], str]) -> c_ast.FileAST:
    """The preprocessed translation unit `text` as pycparser's AST; a syntax error or nesting too
    deep raises TpbgenError located in the header (`relpath` turns the preprocessor's file names
    into the tree's)."""
    check_nesting(text, filename, relpath)
    parser = new_parser()
    try:
        ast: c_ast.FileAST = parser.parse(text, filename)
    except c_parser.ParseError as exc:
        raise TpbgenError([_diagnose(parser, str(exc), relpath)]) from None
    # The parser and its lexer refer to each other (a reference cycle), and the parser holds every
    # token it read: drop the tokens now, so reference counting frees them here instead of leaving
    # them to the cyclic collector's next pass.
    vars(parser).pop("_tokens", None)
    regroup_and_check_depth(ast, relpath)
    return ast


_SCAN = re.compile(
    r"""(?P<mark>^\#[^\n]*)|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|(?P<open>[(\[{])|(?P<close>[)\]}])|(?P<nl>\n)""",
    re.M,
)
_MARKER = re.compile(r'^\#\s*(?:line\s+)?(\d+)\s+"((?:[^"\\]|\\.)*)"')


_LITERAL = re.compile(r"""^\#[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""", re.M)
_NOT_BRACKET = re.compile(r"[^()\[\]{}]+")
_DEPTH = {ord(c): d for c, d in zip("([{)]}", (1, 1, 1, -1, -1, -1), strict=True)}


def max_nesting(text: str) -> int | None:
    """How deep brackets nest in `text` (outside literals and line markers, as `check_nesting`
    counts), or None when a close bracket comes before its open (then only the exact scan says)."""
    brackets = _NOT_BRACKET.sub("", _LITERAL.sub("", text))
    if not brackets:
        return 0
    depths = list(itertools.accumulate(map(_DEPTH.__getitem__, map(ord, brackets))))
    return max(depths) if min(depths) >= 0 else None


def check_nesting(text: str, filename: str, relpath: Callable[[str], str]) -> None:
    """Refuse text with more than MAX_NESTING brackets open at once, naming the header line
    (followed through the preprocessor's line markers) where the bound is passed."""
    if text.count("(") + text.count("[") + text.count("{") <= MAX_NESTING:
        return  # brackets cannot nest deeper than there are open ones (literals counted too)
    deepest = max_nesting(text)
    if deepest is not None and deepest <= MAX_NESTING:
        return  # the usual case, without following line markers
    depth, file, line = 0, filename, 1
    for m in _SCAN.finditer(text):
        if m.group("nl") is not None:
            line += 1
        elif m.group("open") is not None:
            depth += 1
            if depth > MAX_NESTING:
                col = m.start() - text.rfind("\n", 0, m.start())
                raise TpbgenError(
                    [
                        Diagnostic(
                            f"brackets nest more than {MAX_NESTING} deep here: tpbgen's bound (see tpbgen/deep.py)",
                            relpath(file),
                            line,
                            col,
                            Severity.ERROR,
                            "too-deep",
                        )
                    ]
                )
        elif m.group("close") is not None:
            depth = max(depth - 1, 0)
        elif m.group("mark") is not None:
            marker = _MARKER.match(m.group("mark"))
            if marker:
                file, line = (
                    marker.group(2),
                    int(marker.group(1)) - 1,
                )  # the newline ending the marker makes it the named line


def _chain(node: c_ast.BinaryOp) -> tuple[list[c_ast.Node], list[c_ast.BinaryOp]]:
    """The terms of the chain of `node.op` rooted at `node`, left to right, and the chain's own
    operator nodes (`node` among them), without recursion."""
    terms: list[c_ast.Node] = []
    inner: list[c_ast.BinaryOp] = []
    todo: list[c_ast.Node] = [node]
    while todo:
        x = todo.pop()
        if isinstance(x, c_ast.BinaryOp) and x.op == node.op:
            inner.append(x)
            todo += [x.right, x.left]
        else:
            terms.append(x)
    return terms, inner


def _balanced(
    terms: list[c_ast.Node], op: str, lo: int, hi: int, built: list[c_ast.Node]
) -> c_ast.Node:
    if hi - lo == 1:
        return terms[lo]
    mid = (lo + hi) // 2
    node = c_ast.BinaryOp(
        op,
        _balanced(terms, op, lo, mid, built),
        _balanced(terms, op, mid, hi, built),
        coord=terms[lo].coord,
    )
    built.append(node)
    return node


def regroup_and_check_depth(root: c_ast.Node, relpath: Callable[[str], str]) -> None:
    """Every `&&`/`||` chain of REGROUP_MIN terms or more regrouped into a balanced tree of the
    same terms in the same order, and the tree's depth checked, in one walk, a level of the tree
    at a time: a chain is regrouped before the walk goes below it, so the depth counted is the
    regrouped tree's; the node named when the bound is passed is the first (in child order) at
    the first level past it. Each chain is measured once (the operator nodes of a chain already
    measured, or built by regrouping, are not measured again as chains of their own), so the walk
    is linear in the tree's size: measuring every sub-chain made a chain of n terms cost n^2/2."""
    level: list[c_ast.Node] = [root]
    depth = 0
    binop = c_ast.BinaryOp
    spec_of = _CHILD_SLOTS
    settled: set[int] = set()  # ids of operator nodes inside a measured chain (alive in the tree)
    while level:
        if depth > MAX_TREE_DEPTH:
            _too_deep(level[0], relpath)
        below: list[c_ast.Node] = []
        push = below.append
        for node in level:
            cls = type(node)
            spec = spec_of.get(cls)
            if spec is None:  # (an empty tuple is a leaf class's answer, not a miss)
                spec = _child_slots(cls)
            for slot in spec:  # the children in node.children() order, without building that list
                v = getattr(node, slot)
                if v is None:
                    continue
                if type(v) is list:
                    for i, child in enumerate(v):
                        if (
                            type(child) is binop
                            and child.op in ("&&", "||")
                            and id(child) not in settled
                        ):
                            v[i] = child = _regrouped(child, settled)
                        push(child)
                else:
                    if type(v) is binop and v.op in ("&&", "||") and id(v) not in settled:
                        v = _regrouped(v, settled)
                        setattr(node, slot, v)
                    push(v)
        level = below
        depth += 1


def _regrouped(chain: c_ast.BinaryOp, settled: set[int]) -> c_ast.Node:
    terms, inner = _chain(chain)
    if len(terms) < REGROUP_MIN:
        settled.update(map(id, inner))  # they stay in the tree: their ids stay theirs
        return chain
    built: list[c_ast.Node] = []
    regrouped = _balanced(terms, chain.op, 0, len(terms), built)
    settled.update(map(id, built))
    return regrouped


_CHILD_SLOTS: dict[type[c_ast.Node], tuple[str, ...]] = {}


def _child_slots(cls: type[c_ast.Node]) -> tuple[str, ...]:
    found = _CHILD_SLOTS[cls] = tuple(s for s, is_attr in body_slots(cls) if not is_attr)
    return found


def _too_deep(node: c_ast.Node, relpath: Callable[[str], str]) -> None:
    c = node.coord
    raise TpbgenError(
        [
            Diagnostic(
                f"the expression nests more than {MAX_TREE_DEPTH} levels deep here: tpbgen's bound (see tpbgen/deep.py)",
                relpath(c.file) if c else "",
                c.line if c else 0,
                0,
                Severity.ERROR,
                "too-deep",
            )
        ]
    )


def _diagnose(parser: c_parser.CParser, msg: str, relpath: Callable[[str], str]) -> Diagnostic:
    """A pycparser error message as a located syntax Diagnostic: from the message's own place, else
    (pycparser 3 names only the file) from the parser's token stream, with a clearer text for an
    unknown type name or a truncated header."""
    m = _PARSE_ERR.match(msg)
    if m:
        what = m.group("msg").strip()
        if what.startswith("before:"):
            what = f"syntax error before '{what[len('before:') :].strip()}'"
        return Diagnostic(
            what,
            relpath(m.group("file")),
            int(m.group("line")),
            int(m.group("col") or 0),
            Severity.ERROR,
            "syntax",
        )
    # pycparser 3 raises some errors with the file name only: recover the place from the token
    # stream (the next unconsumed token, else the last one read). Private, so guarded.
    what = msg.split(": ", 1)[-1]
    file, line, col = parser.clex.filename, 0, 0
    try:
        stream = parser._tokens
        buf, i = stream._buffer, stream._index
        tok = (
            buf[i]
            if i < len(buf) and buf[i] is not None
            else next((t for t in reversed(buf[:i]) if t is not None), None)
        )
        if tok is not None:
            line, col = tok.lineno, tok.column
            nxt = stream.peek(2) if tok is buf[i] else None
            if tok.type == "ID" and nxt is not None and nxt.type == "ID":
                what = f"unknown type name '{tok.value}'"
            elif what == "At end of input":
                what = "unexpected end of input (is the header truncated?)"
            else:
                what = f"syntax error at '{tok.value}': {what}"
    except (AttributeError, IndexError):
        pass
    return Diagnostic(what, relpath(file), line, col, Severity.ERROR, "syntax")
