"""Translate one generation's C predicates: lower every function, emit Python (scalar and explain)
and numpy (batch), find the top-level instruction validators and the opcodes each is responsible for.

Decisions live here (what is top-level, which opcodes a validator gates, what explain says);
the templates only place the results.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace

from .. import naming, resolve
from ..deep import run_deep
from ..errors import Diagnostic, Severity
from ..ir.model import Function, Generation, Loc, Struct
from .analyses import always_returns, body_exprs, calls, conjuncts
from .disjuncts import disjuncts
from .gates import opcode_gate
from .inline import Inliner
from .lir import (
    Call,
    Const,
    Expr,
    LFunction,
    Load,
    Not,
    Return,
    Stmt,
    View,
    strip_parens,
)
from .lower import Lowerer, LowerError
from .to_numpy import BatchUnsupported, NpEmitter, substitute
from .to_python import PyEmitter, sets_code

INST_UNION = resolve.INST_UNION

# The runtime helpers translated code may call, under the names the translator gives them
# (to_python.py, to_numpy.py): (the runtime's name, the alias the scalar code calls) and the
# batch helpers (called as `_<name>`). A generated module binds those its code calls (the
# emitters note each: TranslatedGen.helpers, .batch_helpers).
VALIDATOR_HELPERS = (
    ("S_H", "_U16"),
    ("S_I", "_U32"),
    ("S_Q", "_U64"),
    ("S_d", "_F64"),
    ("S_f", "_F32"),
    ("S_h", "_I16"),
    ("S_i", "_I32"),
    ("S_q", "_I64"),
    ("cdiv", "_cdiv"),
    ("cmod", "_cmod"),
    ("f32", "_f32"),
    ("fdiv", "_fdiv"),
)
BATCH_HELPERS = (
    "Members",
    "all_of",
    "any_of",
    "byte",
    "col",
    "colv",
    "fdiv",
    "fill",
    "gather",
    "gather_as",
    "isin",
    "lookup",
    "memo",
    "select",
    "vdiv",
    "vmod",
)


@dataclass(frozen=True)
class PyFunction:
    name: str  # the C name
    public: (
        str  # its public Python name (naming.function_name: the C name unless that would shadow)
    )
    code: str  # `def _<name>(...)` and its body
    explain_code: str  # `def _x_<name>(...)` returning None (accepted) or the reason
    wrapper: str  # the public `def <name>(...)` taking struct objects / bytes, "" when `<name> = _<name>`
    params: tuple[tuple[str, str | None], ...]  # (python name, struct C name or None)
    returns_bool: bool
    loc: Loc
    section: str
    calls: tuple[str, ...]


@dataclass(frozen=True)
class TopValidator:
    name: str
    opcodes: tuple[int, ...]  # the opcode values its opcode gate accepts (sorted)
    struct: str  # the INST_UNION arm its fields are read through ("s3d3_ts"), "" when several/none
    # ("file:line", why) when the runtime decides it with the headers' C (the predicate proof
    # found a translation of it disagreeing with the C); None when the translation runs it
    c_path: tuple[str, str] | None = None


@dataclass(frozen=True)
class Untranslated:
    """A C function outside the translator's subset: emitted as a stub that raises
    UntranslatedPredicate (scalar, explain and batch alike) naming it, its place and why."""

    name: str
    public: str
    params: tuple[tuple[str, bool], ...]  # (python name, is a struct view)
    where: str  # "file:line:col"
    reason: str
    needed_by: tuple[str, ...]  # the top-level validators that can reach it


@dataclass(frozen=True)
class BatchStub:
    """A translated function the numpy back end cannot vectorise: the scalar translation runs it,
    the batch path raises UntranslatedPredicate for it."""

    name: str
    where: str  # "file:line"
    reason: str


@dataclass(frozen=True)
class TranslatedGen:
    functions: tuple[PyFunction, ...]
    top: tuple[TopValidator, ...]
    consts: tuple[
        tuple[str, int | float | tuple[int | float, ...]], ...
    ]  # every enum/static constant the code names
    lowered: tuple[LFunction, ...]
    warnings: tuple[Diagnostic, ...]
    untranslated: tuple[Untranslated, ...] = ()
    batch_functions: tuple[str, ...] = ()  # the numpy code of each vectorised function
    batch_stubs: tuple[BatchStub, ...] = ()
    rowwise: tuple[str, ...] = ()  # top-level validators run word by word (they reach recursion)
    batch_tables: tuple[str, ...] = ()  # the constant tables the batch code indexes (C names)
    helpers: tuple[str, ...] = ()  # the VALIDATOR_HELPERS aliases the scalar code calls
    batch_helpers: tuple[str, ...] = ()  # the BATCH_HELPERS the batch code calls, as `_<name>`
    # the frozensets the scalar code's membership tests of named constants read: (name, the
    # constants' names), defined after the constants (see `member_sets_code`)
    member_sets: tuple[tuple[str, tuple[str, ...]], ...] = ()


def member_sets_code(tr: TranslatedGen) -> str:
    """The module-level definitions of the scalar code's membership sets (after the constants
    they name)."""
    return sets_code({ms: name for name, ms in tr.member_sets})


TRUTH_KINDS = ("bool", "int")  # return types C treats as truth: bool/_Bool, int, uint8_t ...


def _uncalled_checks_of_the_word(gen: Generation) -> list[Function]:
    """The functions that may be top-level validators: returning a truth value (bool, _Bool,
    int, uint8_t ...), called by no function, taking the instruction union first (by value or
    through a const pointer: C reads the same bytes)."""
    called = {c for f in gen.functions for c in f.calls}
    union = resolve.instruction_union(gen)
    name = union.name if union is not None else INST_UNION
    return [
        fn
        for fn in gen.functions
        if fn.returns.kind in TRUTH_KINDS
        and fn.name not in called
        and fn.params
        and fn.params[0].type.kind == "union"
        and fn.params[0].type.name == name
    ]


def top_names(gen: Generation) -> set[str]:
    """The names of `gen`'s top-level validators, from the IR alone (before translation: the
    predicate proof starts compiling their C while the translator runs): the candidates whose
    other parameters tpbgen binds (`resolve.bound_parameters`: a core version after the word
    is the generation's own)."""
    return {
        fn.name
        for fn in _uncalled_checks_of_the_word(gen)
        if resolve.bound_parameters(gen, fn) is not None
    }


def _unbound_warnings(gen: Generation) -> list[Diagnostic]:
    """A located warning for each function that would be a top-level validator but for a
    parameter after the word tpbgen cannot bind (anything but a core version, or a core version
    the generation's banner names no member of): the drop's C has it, `validate()` will not."""
    out = []
    for fn in _uncalled_checks_of_the_word(gen):
        if resolve.bound_parameters(gen, fn) is not None:
            continue
        extra = ", ".join(f"{p.type.spelled} {p.name}" for p in fn.params[1:])
        why = (
            f"the banner's {gen.core_version or 'missing core version'} names no member of "
            f"{resolve.CORE_VERSION_ENUM}"
            if all(p.type.name == resolve.CORE_VERSION_ENUM for p in fn.params[1:])
            else f"tpbgen binds only a {resolve.CORE_VERSION_ENUM} there"
        )
        out.append(
            Diagnostic(
                f"{fn.name} takes {extra} after the word and {why}: it is not a top-level "
                "validator, and no word is checked by it",
                fn.loc.file,
                fn.loc.line,
                fn.loc.col,
                Severity.WARNING,
                "unbound-parameter",
            )
        )
    return out


def _bound(gen: Generation, lowered: list[LFunction]) -> list[LFunction]:
    """The lowered functions with each bound parameter (`resolve.bound_parameters`) replaced by
    its value in the body and dropped from the parameters: a function of the word alone, as
    every caller of a top-level validator calls it."""
    by_name = {f.name: f for f in gen.functions}
    out = []
    for lf in lowered:
        fn = by_name.get(lf.name)
        bound = resolve.bound_parameters(gen, fn) if fn is not None else None
        if bound:
            body = lf.body
            for param, member in zip(lf.params[1:], bound, strict=True):
                assert param.t is not None  # an enum parameter lowers to a scalar
                body = substitute(body, param.name, Const(member.value, param.t))
            lf = replace(lf, params=lf.params[:1], body=body)
        out.append(lf)
    return out


def _reachers(gen: Generation, tops: set[str]) -> dict[str, set[str]]:
    """For each function, the top-level validators that can reach it through calls."""
    calls_of = {f.name: set(f.calls) for f in gen.functions}
    out: dict[str, set[str]] = {f.name: set() for f in gen.functions}
    for t in tops:
        seen, todo = set(), [t]
        while todo:
            n = todo.pop()
            if n in seen or n not in calls_of:
                continue
            seen.add(n)
            out[n].add(t)
            todo += calls_of[n]
    return out


def translate(gen: Generation) -> TranslatedGen:
    """Lower and emit every function of `gen`, with room for deeply nested C (tpbgen.deep)."""
    return run_deep(lambda: _translate(gen))


def _translate(gen: Generation) -> TranslatedGen:
    """The stages of a generation's translation: lower every function, name the ones outside
    the subset, emit the scalar code (and explain twins), find each top-level validator's
    opcode gate, emit the batch code."""
    lowerer = Lowerer(gen)
    lowered: list[LFunction] = []
    failed: dict[str, LowerError] = {}
    for fn in gen.functions:
        try:
            lowered.append(lowerer.lower(fn))
        except LowerError as exc:
            failed[fn.name] = exc
    lowered = _bound(gen, lowered)
    union = resolve.instruction_union(gen)
    tops_named = top_names(gen)
    stubs, warnings = _untranslated(gen, failed, _reachers(gen, tops_named))
    warnings += _unbound_warnings(gen)
    arms = frozenset(f.name for f in union.fields) if union else frozenset()
    em = PyEmitter(arms=arms)
    out = _scalar_functions(gen, lowered, em, tops_named)
    tops = _top_validators(gen, lowered, stubs, tops_named, union, warnings)
    batch = _batch(lowered, {t.name for t in tops})
    translated = TranslatedGen(
        tuple(out),
        tuple(tops),
        tuple(sorted(em.used_consts.items())),
        tuple(lowered),
        tuple(warnings),
        tuple(stubs),
        batch.code,
        batch.stubs,
        batch.rowwise,
        batch.tables,
        tuple(sorted(em.helpers)),
        batch.helpers,
        tuple((name, members) for members, name in em.member_sets.items()),
    )
    return to_the_c_path(translated, _untranslated_routes(stubs, tops_named))


def _untranslated(
    gen: Generation, failed: dict[str, LowerError], reach: dict[str, set[str]]
) -> tuple[list[Untranslated], list[Diagnostic]]:
    """A stub for each function outside the translator's subset (in the generation's order),
    and a warning naming the top-level validators that reach it (or that none does)."""
    stubs: list[Untranslated] = []
    warnings: list[Diagnostic] = []
    for fn in gen.functions:
        err = failed.get(fn.name)
        if err is None:
            continue
        w = err.where
        needed = tuple(sorted(reach.get(fn.name, ())))
        params = tuple(
            (naming.local_name(p.name), p.type.kind in ("struct", "union")) for p in fn.params
        )
        stubs.append(
            Untranslated(
                fn.name,
                naming.function_name(fn.name),
                params,
                f"{w.file}:{w.line}:{w.col}" if w.col else f"{w.file}:{w.line}",
                err.message,
                needed,
            )
        )
        if needed:
            what = (
                f"{fn.name} is outside the translator's subset ({err.message}); the top-level validator(s) {', '.join(needed)} "
                "are decided by the headers' C (UntranslatedPredicate where the C backend cannot be built; "
                "--strict makes this an error)"
            )
        else:
            what = f"{fn.name} is outside the translator's subset ({err.message}) and no top-level validator reaches it: skipped (calling it raises UntranslatedPredicate)"
        warnings.append(Diagnostic(what, w.file, w.line, w.col, Severity.WARNING, "untranslated"))
    return stubs, warnings


def _scalar_functions(
    gen: Generation, lowered: list[LFunction], emitter: PyEmitter, top_names: set[str]
) -> list[PyFunction]:
    """The scalar Python of every lowered function, with its explain twin where it has one."""
    ir_by_name = {f.name: f for f in gen.functions}
    # predicates explain themselves; so do top-level validators that return an int as truth
    explainable = {f.name for f in lowered if f.returns.kind == "bool" or f.name in top_names}
    sizes = {s.name: s.size for s in gen.structs}
    out: list[PyFunction] = []
    inliner = Inliner(lowered)
    alternatives = _alternatives(lowered, top_names)
    for lf in lowered:
        code = "\n".join(emitter.function(lf, inliner))
        explain = (
            "\n".join(_explain(emitter, lf, explainable, alternatives.get(lf.name)))
            if lf.name in explainable
            else ""
        )
        out.append(
            PyFunction(
                lf.name,
                naming.function_name(lf.name),
                code,
                explain,
                _wrapper(lf, sizes),
                tuple((p.name, p.struct) for p in lf.params),
                lf.returns.kind == "bool",
                lf.loc,
                ir_by_name[lf.name].section,
                lf.calls,
            )
        )
    return out


def _top_validators(
    gen: Generation,
    lowered: list[LFunction],
    stubs: list[Untranslated],
    top_names: set[str],
    union: Struct | None,
    warnings: list[Diagnostic],
) -> list[TopValidator]:
    """Every top-level validator with the opcodes it gates and the arm it reads: the untranslated
    ones first, gated as the JSON binds their arm, then the lowered ones, gated by their body
    (a warning appended when that gate is empty or wider than the JSON's binding)."""
    ir_by_name = {f.name: f for f in gen.functions}
    union_name = union.name if union is not None else INST_UNION
    tops = []
    for stub in stubs:
        if stub.name in top_names:
            # no body to compute a gate from: the opcodes the JSON binds to the struct of the arm
            # its C reads; validate() then reports the stub rather than guess
            arm = _arm_in_c(ir_by_name[stub.name], union)
            _, gate = _json_binding(gen, union, arm)
            tops.append(TopValidator(stub.name, tuple(sorted(gate)), arm))
    by_name = {f.name: f for f in lowered}
    shared_memo: dict[tuple[object, ...], frozenset[object]] = {}
    for lf in lowered:
        if lf.name not in top_names:
            continue
        # The gate is computed from the body (translate/gates.py): the opcode bytes for which it
        # can return true, through switches, early returns, accumulators and helpers. It is sound
        # (never leaves out an opcode the C accepts), so validate() dispatches on it as it is.
        gate = opcode_gate(lf, by_name, shared_memo)
        arm = _arm_of(lf, by_name, union_name)
        arm_struct, bound = _json_binding(gen, union, arm)
        warnings += _gate_warnings(lf.name, ir_by_name[lf.name].loc, gate, bound, arm_struct)
        tops.append(TopValidator(lf.name, tuple(sorted(gate)), arm))
    return tops


def _gate_warnings(
    name: str, loc: Loc, gate: AbstractSet[int], bound: AbstractSet[int], arm_struct: str
) -> list[Diagnostic]:
    """What a top-level validator's gate says against the JSON's binding: that it accepts no
    word at all, or the opcodes it accepts that the JSON does not bind to its struct."""
    if not gate:
        return [
            Diagnostic(
                f"top-level validator {name} can never return true: validate() accepts no word through it",
                loc.file,
                loc.line,
                0,
                Severity.WARNING,
                "gate",
            )
        ]
    if not gate - bound:
        return []
    extra = sorted(gate - bound)
    shown = ", ".join(f"{v:#04x}" for v in extra[:12]) + (
        f" and {len(extra) - 12} more" if len(extra) > 12 else ""
    )
    return [
        Diagnostic(
            f"top-level validator {name} can return true for {len(extra)} opcode(s) the JSON does not bind to "
            f"{arm_struct or 'the struct it reads'}: {shown}; validate() runs it on them too, as its C says",
            loc.file,
            loc.line,
            0,
            Severity.WARNING,
            "gate",
        )
    ]


def _untranslated_routes(
    stubs: list[Untranslated], top_names: set[str]
) -> dict[str, tuple[tuple[str, str], tuple[int, ...]]]:
    """The top-level validators that reach a function outside the translator's subset (or are
    one), each to the C path: the headers' C decides them wherever the C backend builds, and
    UntranslatedPredicate, naming the function, is the answer only where it cannot. The first
    such function in declaration order names the reason."""
    routes: dict[str, tuple[tuple[str, str], tuple[int, ...]]] = {}
    for stub in stubs:
        reachers = set(stub.needed_by) | ({stub.name} & top_names)
        for top in sorted(reachers):
            routes.setdefault(
                top,
                (
                    (
                        stub.where,
                        f"it reaches {stub.name}, outside the translator's subset ({stub.reason})",
                    ),
                    (),
                ),
            )
    return routes


@dataclass(frozen=True)
class _Batch:
    """The numpy back end's answer for one generation (see `_batch`)."""

    code: tuple[str, ...]
    stubs: tuple[BatchStub, ...]
    rowwise: tuple[str, ...]
    tables: tuple[str, ...]
    helpers: tuple[str, ...]


def _batch(lowered: list[LFunction], tops: set[str]) -> _Batch:
    """The numpy back end's code for every lowered function (one emitter for the whole module),
    the functions it cannot vectorise, the top-level validators that reach a recursive
    function (run word by word through their scalar translation: vector.rowwise), and the
    constant tables and runtime helpers that code uses."""
    recursive = _recursive(lowered)
    rowwise = tuple(sorted(n for n in tops if _reaches(lowered, n, recursive)))
    em = NpEmitter()
    code: list[str] = []
    stubs: list[BatchStub] = []
    for lf in lowered:
        if lf.name in rowwise:
            continue
        if lf.name in recursive:
            where = f"{lf.loc.file}:{lf.loc.line}"
            stubs.append(BatchStub(lf.name, where, "not vectorised: it calls itself (recursion)"))
            continue
        try:
            code.append("\n".join(em.function(lf)))
        except BatchUnsupported as exc:
            stubs.append(
                BatchStub(lf.name, f"{lf.loc.file}:{lf.loc.line}", f"not vectorised: {exc}")
            )
    return _Batch(
        tuple(code), tuple(stubs), rowwise, tuple(sorted(em.tables)), tuple(sorted(em.helpers))
    )


def _recursive(lowered: list[LFunction]) -> set[str]:
    """The functions on a cycle of calls (one that calls itself, directly or through others)."""
    calls = {lf.name: set(lf.calls) for lf in lowered}
    out: set[str] = set()
    for start in calls:
        if _reaches(lowered, start, {start}, skip_start=True):
            out.add(start)
    return out


def _reaches(
    lowered: list[LFunction], start: str, targets: set[str], *, skip_start: bool = False
) -> bool:
    """Whether `start` is in `targets` or calls one of them, directly or through others
    (`skip_start`: only through its calls)."""
    calls = {lf.name: lf.calls for lf in lowered}
    seen: set[str] = set()
    todo = list(calls.get(start, ())) if skip_start else [start]
    while todo:
        name = todo.pop()
        if name in targets:
            return True
        if name in seen or name not in calls:
            continue
        seen.add(name)
        todo += calls[name]
    return False


def _json_binding(gen: Generation, union: Struct | None, arm: str) -> tuple[str, set[int]]:
    """The struct of an instruction-union arm and the opcodes the JSON binds to it."""
    arm_struct = next((f.type.name for f in union.fields if f.name == arm), "") if union else ""
    return arm_struct, {
        d.value for d in resolve.decode_table(gen) if arm_struct and d.struct == arm_struct
    }


def _arm_in_c(fn: Function, union: Struct | None) -> str:
    """The instruction-union arm a C body reads most (`i.s3d3_ts.x`), "" when none."""
    if union is None:
        return ""
    arms = {f.name for f in union.fields}
    counts: dict[str, int] = {}

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("_t") == "StructRef":
                field = node.get("field")
                name = field.get("name") if isinstance(field, dict) else None
                if name in arms:
                    counts[name] = counts.get(name, 0) + 1
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(fn.body)
    return max(sorted(counts), key=lambda k: counts[k]) if counts else ""


def _wrapper(lowered: LFunction, sizes: dict[str, int]) -> str:
    """The public function over struct objects or bytes: each struct argument through
    `struct_arg` (TypeError or ValueError naming it, never an IndexError from a short buffer)."""
    if not any(p.struct for p in lowered.params):
        return ""
    sig, call = [], []
    for p in lowered.params:
        if p.struct is not None:
            sig.append(f"{p.name}: Word")
            call += [f"struct_arg({p.name}, {sizes[p.struct]}, {p.name!r})", "0"]
        else:
            sig.append(f"{p.name}: int")
            call.append(p.name)
    ret = (
        "bool"
        if lowered.returns.kind == "bool"
        else ("float" if lowered.returns.kind == "float" else "int")
    )
    return f"def {naming.function_name(lowered.name)}({', '.join(sig)}) -> {ret}:\n    return _{lowered.name}({', '.join(call)})"


def _params_sig(lowered: LFunction) -> tuple[str, str]:
    ps, args = [], []
    for p in lowered.params:
        if p.struct is not None:
            ps += [f"{p.name}_b: bytes", f"{p.name}_o: int"]
            args += [f"{p.name}_b", f"{p.name}_o"]
        else:
            ps.append(f"{p.name}: {'float' if p.t is not None and p.t.kind == 'float' else 'int'}")
            args.append(p.name)
    return ", ".join(ps), ", ".join(args)


@dataclass(frozen=True)
class Alternative:
    """One top-level disjunct of a validator's `return A || B || ...` (helpers that pass the
    word on and are such a `||` inlined): its expression, its name in explain messages (the
    helper it calls, else `alternative N`) and the opcode bytes for which it can hold."""

    e: Expr
    label: str
    gate: tuple[int, ...]


def _alternatives(lowered: list[LFunction], tops: set[str]) -> dict[str, tuple[Alternative, ...]]:
    """The alternatives of each top-level validator whose body is one `return` of a `||` with
    several disjuncts, each gated by abstract interpretation (translate/gates.py) as a top-level
    validator is: the explain twin names the one that applies to a word by its opcode."""
    by_name = {f.name: f for f in lowered}
    shared: dict[tuple[object, ...], frozenset[object]] = {}
    out: dict[str, tuple[Alternative, ...]] = {}
    for lf in lowered:
        body = lf.body
        params = [p for p in lf.params if p.struct is not None]
        if lf.name not in tops or len(params) != 1 or len(lf.params) != 1:
            continue
        if not (len(body) == 1 and isinstance(body[0], Return) and body[0].e is not None):
            continue
        alts = disjuncts(body[0].e, params[0].name, by_name)
        if len(alts) < 2:
            continue
        found = []
        for k, e in enumerate(alts):
            fn = LFunction(f"{lf.name}__alt{k}", lf.params, lf.returns,
                           (Return(e, body[0].line),), (), lf.loc, tuple(calls(e)))  # fmt: skip
            label = e.fn if isinstance(e, Call) else f"alternative {k + 1}"
            found.append(Alternative(e, label, tuple(sorted(opcode_gate(fn, by_name, shared)))))
        out[lf.name] = tuple(found)
    return out


def _explain_alternatives(
    emitter: PyEmitter, lowered: LFunction, alts: tuple[Alternative, ...], explainable: set[str]
) -> list[str]:
    """The body of the explain twin of a validator made of alternatives: None when one holds;
    else the reason of each alternative whose opcode gate admits the word's opcode (its first
    failing term, as for a `&&` chain), or, when none does, each alternative's first failing
    term."""
    name = lowered.name
    param = next(p.name for p in lowered.params if p.struct is not None)
    test = " or ".join(
        emitter.expr(a.e) if isinstance(a.e, Call) else f"({emitter.bare(a.e)})" for a in alts
    )
    lines = [*emitter.take_hoisted("    "), f"    if {test}:", "        return None"]
    for k, alt in enumerate(alts):
        lines.append(f"    def _alt{k}() -> str:")
        terms = conjuncts(alt.e)
        inner = name if isinstance(alt.e, Call) else f"{name} -> {alt.label}"
        for term in terms:
            check, reason = emitter.bare(Not(term)), _term_reason(emitter, inner, term, explainable)
            lines += [*emitter.take_hoisted("        "), f"        if {check}:",
                      f"            return {reason}"]  # fmt: skip
        lines.append(f"        return {_quote(inner + ': fails as a whole')}")
    lines.append(f"    op = {param}_b[{param}_o]")
    lines.append("    applies = [")
    for k, alt in enumerate(alts):
        values = [f"{v:#04x}" for v in alt.gate]
        gate = f"({values[0]},)" if len(values) == 1 else f"({', '.join(values)})"
        lines.append(f"        _alt{k} if op in {gate} else None,")
    lines.append("    ]")
    lines.append("    reasons = [alt() for alt in applies if alt is not None]")
    lines.append("    if reasons:")
    lines.append("        return '; '.join(reasons)")
    every = ", ".join(f"_alt{k}()" for k in range(len(alts)))
    lines.append(
        f"    return f\"{name}: no alternative is for opcode {{op:#04x}}: \" + '; '.join(({every},))"
    )
    return lines


def _explain(
    emitter: PyEmitter,
    lowered: LFunction,
    explainable: set[str],
    alternatives: tuple[Alternative, ...] | None = None,
) -> list[str]:
    """The explain twin `_x_<name>` of a lowered function: None when it accepts, else why not. A
    single `return` of a conjunction tests each term in turn; a top-level validator made of
    alternatives explains the one its word's opcode selects (`_explain_alternatives`); any other
    body is mirrored statement by statement with each `return` turned into a reason naming the
    branch conditions and the values read."""
    ps, _args = _params_sig(lowered)
    lines = [f"def _x_{lowered.name}({ps}) -> str | None:"]
    body = lowered.body
    if alternatives:
        return lines + _explain_alternatives(emitter, lowered, alternatives, explainable)
    if len(body) == 1 and isinstance(body[0], Return) and body[0].e is not None:
        for term in conjuncts(body[0].e):
            test, reason = (
                emitter.bare(Not(term)),
                _term_reason(emitter, lowered.name, term, explainable),
            )
            lines += [*emitter.take_hoisted("    "), f"    if {test}:", f"        return {reason}"]
        lines.append("    return None")
        return lines
    # Any other body (if/return, locals, switch, loops) is mirrored statement for statement; each
    # `return` becomes "None if it returns true, else why": the conditions that led there and the
    # values of the fields and locals they read.
    scalars = [f"{p.name}={{{p.name}}}" for p in lowered.params if p.struct is None]

    def hook(ret: Return, ind: str, path: list[Expr]) -> list[str]:
        e = ret.e
        assert e is not None
        if isinstance(e, Const):
            if e.value:
                return [f"{ind}return None"]
            return [f"{ind}return {_path_reason(emitter, lowered.name, ret.line, path, scalars)}"]
        out = []
        for term in conjuncts(e):
            test, reason = (
                emitter.bare(Not(term)),
                _term_reason(emitter, lowered.name, term, explainable),
            )
            out += [*emitter.take_hoisted(ind), f"{ind}if {test}:", f"{ind}    return {reason}"]
        out.append(f"{ind}return None")
        return out

    emitter.return_hook = hook
    emitter.defs = {}
    try:
        lines += emitter.stmts(body, "    ")
    finally:
        emitter.return_hook = None
    if not always_returns(body):
        lines.append(
            f"    return {_fstring(lowered.name + ': control reaches the end of the function')}"
        )
    return lines


def _path_reason(
    emitter: PyEmitter, fname: str, line: int, path: list[Expr], scalars: list[str]
) -> str:
    """Why a `return false` was reached: the values read by the branch conditions on the way."""
    conds = " && ".join(strip_parens(emitter.c_text(c)) for c in path)
    loads: list[Load] = []
    names: list[str] = []
    for c in path:
        emitter.loads(c, loads)
        emitter.vars_in(c, names, loads)
    vals = ", ".join(
        x for x in (emitter.values_fstring(loads), ", ".join(f"{n} = {{{n}}}" for n in names)) if x
    ) or ", ".join(scalars)
    why = f"returns false at line {line}" + (f" when {conds}" if conds else "")
    return _fstring(f"{fname}: " + (f"{vals} ({_brace(why)})" if vals else _brace(why)))


def _brace(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _term_reason(emitter: PyEmitter, fname: str, term: Expr, explainable: set[str]) -> str:
    if isinstance(term, Call) and term.fn in explainable:
        args = []
        for a in term.args:
            if isinstance(a, View):
                args += [f"{a.buf}_b", emitter.offset(a)]
            else:
                args.append(emitter.expr(a))
        return f"{_quote(fname + ' -> ')} + (_x_{term.fn}({', '.join(args)}) or {_quote(term.fn)})"
    loads = emitter.loads(term, [])
    names = emitter.vars_in(term, [], loads)
    vals = ", ".join(
        x for x in (emitter.values_fstring(loads), ", ".join(f"{n} = {{{n}}}" for n in names)) if x
    )
    needs = "needs " + _brace(strip_parens(emitter.c_text(term)))
    return _fstring(f"{fname}: {vals} ({needs})" if vals else f"{fname}: {needs}")


def _fstring(s: str) -> str:
    """An f-string literal when `s` has {holes}, else the plain string (braces un-doubled)."""
    if "{" in s.replace("{{", "").replace("}}", ""):
        return "f" + _fquote(s)
    return repr(s.replace("{{", "{").replace("}}", "}"))


def _quote(s: str) -> str:
    return repr(s)


def _fquote(s: str) -> str:
    # s already has its {expr} holes; quote it as a Python string literal body
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _all_exprs(body: tuple[Stmt, ...]) -> list[Expr]:
    return body_exprs(body)


def _arm_of(lowered: LFunction, by_name: dict[str, LFunction], union: str) -> str:
    """The INST_UNION arm (s3d3_ts, s4d4_tsm, ...) the validator's field reads go through."""
    arms: dict[str, int] = {}
    seen: set[str] = set()

    def visit(f: LFunction) -> None:
        if f.name in seen:
            return
        seen.add(f.name)
        for e in _all_exprs(f.body):
            for ld in PyEmitter().loads(e, []):
                head = ld.path.split(".")[0]
                if head and head != "unknown":
                    arms[head] = arms.get(head, 0) + 1
            for c in _calls(e):
                if c in by_name and any(p.struct == union for p in by_name[c].params):
                    visit(by_name[c])

    visit(lowered)
    return max(sorted(arms), key=lambda k: arms[k]) if arms else ""


def _calls(e: Expr | View) -> list[str]:
    return calls(e)


def to_the_c_path(
    translation: TranslatedGen, routes: dict[str, tuple[tuple[str, str], tuple[int, ...]]]
) -> TranslatedGen:
    """`tr` with the top-level validators in `routes` ({name: ((where, why), opcodes to add to
    its gate)}) decided by the headers' C at run time: their public wrapper and the dispatch call
    the C backend (runtime/cvalidators.py CPath) instead of the translation."""
    if not routes:
        return translation
    top = tuple(
        replace(
            t,
            opcodes=tuple(sorted({*t.opcodes, *routes[t.name][1]})),
            c_path=routes[t.name][0],
        )
        if t.name in routes
        else t
        for t in translation.top
    )
    functions = tuple(
        replace(f, wrapper=_c_path_wrapper(f)) if f.name in routes and f.wrapper else f
        for f in translation.functions
    )
    return replace(translation, top=top, functions=functions)


def _c_path_wrapper(f: PyFunction) -> str:
    (param, _), *_ = f.params
    return (
        f"def {f.public}({param}: Word) -> bool:\n"
        f"    return C_PATH[{f.name!r}].check(as_bytes({param}), 0)"
    )
