"""What the runtime templates render, decided here from the IR and the translation.

Every choice a template would otherwise make (a field's Python type, how its bytes are read and
written, which struct an opcode decodes to) is made in this module where tests can see it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .. import naming, resolve
from ..ir.firmware import FirmwareFact
from ..ir.model import Enum, Field, Generation, Loc, Struct
from ..isa import binding as isa_binding
from ..isa import table
from ..isa.lower import LoweredHandler, lower
from ..translate.chain_batch import BatchChains, batch_chains
from ..translate.to_python import py_literal
from ..translate.validators import BATCH_HELPERS, VALIDATOR_HELPERS, TranslatedGen

# The runtime's field kinds (runtime/layout.py KINDS) for the IR's type kinds.
_KIND = {"int": "uint", "float": "float", "bool": "bool", "enum": "enum", "struct": "struct",
         "union": "struct"}  # fmt: skip


@dataclass(frozen=True)
class FieldCtx:
    """One struct field or union arm: its declaration (name, Python type, default) and its
    layout row (where it sits and how the runtime reads it)."""

    name: str
    hint: str  # the Python type annotation
    default: str  # a value for a zero-filled instance
    offset: int
    size: int
    dims: tuple[int, ...]
    bit_offset: int | None
    bit_width: int | None
    c_type: str
    comment: str
    line: int
    kind: str  # the runtime's field kind: uint, int, float, bool, enum, struct
    cls: str  # the enum or struct class the field holds, "" for plain scalars

    @property
    def layout_args(self) -> list[Any]:
        """The arguments of its FieldLayout row (kind and class left out when they are defaults)."""
        from ..templating import Code

        args: list[Any] = [
            self.name,
            self.offset,
            self.size,
            self.dims,
            self.bit_offset,
            self.bit_width,
            self.c_type,
        ]
        if self.cls:
            return [*args, self.kind, Code(self.cls)]
        return args if self.kind == "uint" else [*args, self.kind]

    @property
    def factory(self) -> bool:
        """True when the default is a fresh struct per instance (`field(default_factory=...)`)."""
        return self.default.endswith("()")


@dataclass(frozen=True)
class StructCtx:
    cls: str
    c_name: str
    kind: str
    size: int
    align: int
    doc: str
    loc: Loc
    fields: tuple[FieldCtx, ...]
    gaps: bool  # bytes or bits no field covers (kept through round trips in `_raw`)


@dataclass(frozen=True)
class MemberCtx:
    name: str
    c_name: str
    value: int
    line: int
    comment: str
    maintained: bool | None
    note: str


@dataclass(frozen=True)
class EnumCtx:
    cls: str
    c_name: str
    size: int
    doc: str
    loc: Loc
    members: tuple[MemberCtx, ...]

    @property
    def file(self) -> str:
        """The header the enum is declared in."""
        return self.loc.file

    @property
    def prefix(self) -> str:
        """What the naming rule stripped: a member's C name is this plus its Python name, except
        for `c_names` (names the rule had to escape)."""
        counts: dict[str, int] = {}
        for m in self.members:
            if m.c_name.endswith(m.name):
                p = m.c_name[: len(m.c_name) - len(m.name)]
                counts[p] = counts.get(p, 0) + 1
        return max(sorted(counts), key=lambda p: counts[p]) if counts else ""

    @property
    def lines(self) -> Any:
        """The members' lines: a tuple, or `range(a, b)` when they are consecutive."""
        from ..templating import Code

        lines = tuple(m.line for m in self.members)
        if len(lines) > 2 and lines == tuple(range(lines[0], lines[0] + len(lines))):
            return Code(f"range({lines[0]}, {lines[0] + len(lines)})")
        return lines

    @property
    def info_kwargs(self) -> dict[str, Any]:
        """The optional tables of `set_info`, only those this enum needs."""
        tables: dict[str, Any] = {"c_names": self.c_names}
        if any(m.comment for m in self.members):
            tables["comments"] = tuple(m.comment for m in self.members)
        if any(m.maintained is not None for m in self.members):
            tables["maintained"] = tuple(m.maintained for m in self.members)
        tables["notes"] = {m.name: m.note for m in self.members if m.note}
        return {k: v for k, v in tables.items() if v}

    @property
    def c_names(self) -> dict[str, str]:
        """The C name of each member whose Python name is not the C name without the enum's
        prefix."""
        prefix = self.prefix  # once: a property over every member
        return {m.name: m.c_name for m in self.members if prefix + m.name != m.c_name}


@dataclass(frozen=True)
class OpcodeRow:
    value: int
    name: str
    status: str  # "maintained", "not maintained: <note>", "no marker"
    struct: str  # class it decodes to, "outside: <C struct>", or "-"
    firmware: str = ""  # the firmware overlay's state ("working", "stub", "absent"), or ""


@dataclass(frozen=True)
class ChainCtx:
    """A validator's chain for batch.CHAINS: terms as (C text, batch function), the constants,
    the top-level alternatives (C text, term indices) and the split terms (index, disjuncts of
    (C text, batch function))."""

    validator: str
    terms: list[tuple[str, str]]
    constants: tuple[int, ...]
    alternatives: list[tuple[str, list[int]]]
    splits: list[tuple[int, list[list[tuple[str, str]]]]]


@dataclass
class GenCtx:
    name: str  # generation name
    module: str
    core_version: str
    tpb_dir: str
    enums: list[EnumCtx] = field(default_factory=list)
    structs: list[StructCtx] = field(default_factory=list)
    constants: list[tuple[str, str, Any, str]] = field(
        default_factory=list
    )  # (py name, c name, value repr, comment)
    decode: list[tuple[int, str, str]] = field(
        default_factory=list
    )  # (opcode, opcode py member, struct class)
    bound_outside: list[tuple[int, str, str]] = field(
        default_factory=list
    )  # (opcode, member, struct C name not ingested)
    translated: TranslatedGen | None = None
    opcode_cls: str = "Opcode"
    geometry: dict[str, int] = field(default_factory=dict)
    struct_imports: dict[str, Any] = field(default_factory=dict)
    summary: dict[str, int] = field(default_factory=dict)
    enumerators: frozenset[str] = frozenset()  # C names of every enumerator (printed in hex)
    enum_files: list[tuple[str, str]] = field(
        default_factory=list
    )  # (module variable, header path)
    # the executor's enums by role: (C enum, {enumerator name: value}), resolve.executor_enums
    executor_enums: dict[str, tuple[str, dict[str, int]]] = field(default_factory=dict)
    # enumerators of those enums the executor does not run: (role, C enum, name, value, why)
    executor_refuses: list[tuple[str, str, str, int, str]] = field(default_factory=list)
    batch_functions: list[str] = field(default_factory=list)  # numpy code per vectorised function
    batch_stubs: list[tuple[str, str, str]] = field(
        default_factory=list
    )  # (function, "file:line", why it is not vectorised)
    # the constants batch.py binds: the tables its code (and its chains') indexes; the numpy code
    # writes every scalar constant as its value
    batch_consts: list[tuple[str, Any]] = field(default_factory=list)
    # the runtime helpers each module binds: those its code calls (translate/validators.py
    # VALIDATOR_HELPERS as (runtime name, alias); BATCH_HELPERS by name, bound as `_<name>`)
    validator_helpers: list[tuple[str, str]] = field(default_factory=list)
    batch_helpers: list[str] = field(default_factory=list)
    executes: list[int] = field(default_factory=list)  # opcodes the executor has a handler for
    refuses: list[int] = field(default_factory=list)  # decodable opcodes it refuses
    # the executor's binding (isa.lower): each executed opcode's operands as code, and each
    # refused opcode with why
    executor_handlers: list[LoweredHandler] = field(default_factory=list)
    executor_refused: list[tuple[int, str]] = field(default_factory=list)
    # the executor's Numerics defaults its drop implies (isa.table.numerics_defaults)
    executor_numerics: dict[str, str] = field(default_factory=dict)
    dispatch: list[tuple[int, tuple[str, ...]]] = field(
        default_factory=list
    )  # (opcode, the top-level validators whose gate admits it)
    decode_classes: list[str] = field(default_factory=list)  # struct classes some opcode decodes to
    c_arg: dict[str, str] = field(
        default_factory=dict
    )  # function -> how the C entry points pass it the word: "u" (by value) or "&u"
    c_headers: list[str] = field(
        default_factory=list
    )  # the tpb/ headers, by name, in the order the ingest preprocessed them
    opcode_rows: list[OpcodeRow] = field(default_factory=list)
    has_executor: bool = False  # the package renders an executor for this generation
    # the firmware overlay's facts about this generation: (value, name, state, note)
    firmware: list[tuple[int, str, str, str]] = field(default_factory=list)
    rowwise: list[str] = field(
        default_factory=list
    )  # top-level validators the batch path runs word by word (they reach recursion)
    inst_union_c: str = ""  # how C names the instruction union (a typedef, or `union TAG`)
    # the test-bench toolkit's chains (translate/chain.py)
    chains: list[ChainCtx] = field(default_factory=list)

    @property
    def file_var(self) -> dict[str, str]:
        """The module variable holding each header path, by path (`enum_files` inverted)."""
        return {path: var for var, path in self.enum_files}


def _enum_ctx(e: Enum) -> EnumCtx:
    names = naming.member_names(e.name, [m.name for m in e.members])
    members = tuple(
        MemberCtx(
            n,
            m.name,
            m.value,
            m.loc.line,
            m.comment,
            m.maintenance.maintained if m.maintenance else None,
            m.maintenance.note if m.maintenance else "",
        )
        for n, m in zip(names, e.members, strict=True)
    )
    return EnumCtx(naming.type_name(e.name), e.name, e.size, e.doc, e.loc, members)


class _StructCoder:
    """Declares each field for the templates: Python type, default, and its layout row. The
    runtime (runtime/layout.py) reads and writes every field from that row."""

    def __init__(self, gen: Generation) -> None:
        self.gen = gen
        self.structs = {s.name: s for s in gen.structs}
        self.enums = {e.name: naming.type_name(e.name) for e in gen.enums}
        nbytes = next(
            (c.value for c in gen.constants if c.name == "NEURON_ISA_TPB_INST_NBYTES"), None
        )
        # The header's instruction length counts 4-byte words: has_valid_neuron_header requires
        # `inst_word_len == NEURON_ISA_TPB_INST_NBYTES / 4U`, so a default-built Header is valid.
        self.word_len = nbytes // 4 if isinstance(nbytes, int) and nbytes % 4 == 0 else None

    def field(self, f: Field) -> FieldCtx:
        """The FieldCtx of member `f`: its Python name, type hint and zero default (a tuple for an
        array of any rank, the header's word length for `inst_word_len`), and its layout row
        (offset, size, dims, bit-field place, runtime kind and the enum or struct class it
        holds)."""
        t = f.type
        n = 1
        for d in f.dims:
            n *= d
        kind = _KIND[t.kind]
        if kind == "uint" and t.signed:
            kind = "int"
        cls = (
            self.enums.get(t.name, "")
            if kind == "enum"
            else (naming.type_name(t.name) if kind == "struct" else "")
        )
        one = {"float": "float", "bool": "bool", "struct": cls}.get(kind, "int")
        if kind == "enum":
            one = f"{cls} | int"
        zero = {"float": "0.0", "bool": "False", "struct": f"{cls}()"}.get(kind, "0")
        if f.bit_width is not None:
            hint, default = ("int" if kind != "enum" else one), "0"
        elif not f.dims:
            hint, default = one, zero
        elif kind == "struct":
            # arrays of any rank are one tuple in C (row-major) order, like scalar arrays
            hint, default = f"tuple[{one}, ...]", f"tuple({cls}() for _ in range({n}))"
        else:
            hint, default = (
                f"tuple[{one}, ...]",
                f"({', '.join([zero] * n)}{',' if n == 1 else ''})",
            )
        if (
            f.name == "inst_word_len"
            and self.word_len is not None
            and not f.dims
            and kind == "uint"
        ):
            default = str(self.word_len)
        return FieldCtx(
            naming.field_name(f.name),
            hint,
            default,
            f.offset,
            f.size,
            f.dims,
            f.bit_offset,
            f.bit_width,
            t.spelled,
            f.comment,
            f.loc.line,
            kind,
            cls,
        )

    def struct(self, s: Struct) -> StructCtx:
        """The StructCtx of `s`: its fields (an anonymous member's own fields lifted into it at the
        member's offset), whether any byte or bit is left uncovered, and its class name, size,
        alignment, doc and place."""
        fields = []
        for f in s.fields:
            if f.anonymous:
                # fields of an anonymous member belong to the parent, at the member's offset
                inner = self.structs[f.type.name]
                for g in inner.fields:
                    fields.append(
                        self.field(
                            Field(
                                g.name,
                                g.type,
                                f.offset + g.offset,
                                g.size,
                                g.dims,
                                g.bit_offset,
                                g.bit_width,
                                g.loc,
                                g.comment,
                            )
                        )
                    )
            else:
                fields.append(self.field(f))
        covered = [0] * s.size
        for fc in fields:
            if fc.bit_width is not None:
                for bit in range(fc.bit_offset or 0, (fc.bit_offset or 0) + fc.bit_width):
                    covered[fc.offset + bit // 8] |= 1 << (bit % 8)
            else:
                for k in range(fc.offset, fc.offset + fc.size):
                    covered[k] = 0xFF
        gaps = s.kind == "struct" and any(c != 0xFF for c in covered)
        return StructCtx(
            naming.type_name(s.name),
            s.name,
            s.kind,
            s.size,
            s.align,
            s.doc,
            s.loc,
            tuple(fields),
            gaps,
        )


def _file_vars(paths: list[str]) -> list[tuple[str, str]]:
    """A module variable for each header file the enums come from: `_COMMON` for
    .../aws_neuron_isa_tpb_common.h (the file's name without the drop's prefix), `_H<n>` when
    two would clash."""
    out: list[tuple[str, str]] = []
    for k, path in enumerate(paths):
        stem = path.rsplit("/", 1)[-1].removesuffix(".h").removeprefix("aws_neuron_isa_tpb_")
        var = "_" + re.sub(r"\W", "_", stem).upper()
        if not var[1:].isidentifier() or var in {v for v, _ in out}:
            var = f"_H{k}"
        out.append((var, path))
    return out


def _check_unique_names(ctx: GenCtx) -> None:
    """Two C types that the naming rule maps to one Python class would silently shadow each other:
    refuse, naming both places."""
    from ..errors import Diagnostic, Severity, TpbgenError

    seen: dict[str, str] = {}
    errors = []
    for c_name, cls, loc in [(e.c_name, e.cls, e.loc) for e in ctx.enums] + [
        (s.c_name, s.cls, s.loc) for s in ctx.structs
    ]:
        if cls in seen and seen[cls] != c_name:
            errors.append(
                Diagnostic(
                    f"{c_name} and {seen[cls]} would both become the Python class {cls}",
                    loc.file,
                    loc.line,
                    loc.col,
                    Severity.ERROR,
                    "naming",
                )
            )
        seen.setdefault(cls, c_name)
    if errors:
        raise TpbgenError(errors)


GEOMETRY = (
    "STATE_BUF_NUM_PARTITIONS",
    "STATE_BUF_WORD_SIZE",
    "STATE_BUF_PARTITION_SIZE",
    "STATE_BUF_PARTITION_ACTIVE_SIZE",
    "PSUM_BUF_NUM_PARTITIONS",
    "PSUM_BUF_PARTITION_SIZE",
    "PSUM_BUF_PARTITION_ACTIVE_SIZE",
    "PSUM_BUF_NUM_BANKS",
    "PSUM_BUF_BANK_SIZE",
    "STATE_BUF_OFFSET",
    "PSUM_BUF_OFFSET",
    "STATE_BUF_SZ",
    "PSUM_BUF_SZ",
)


def build_context(
    gen: Generation,
    translated: TranslatedGen,
    has_executor: bool = False,
    firmware: dict[int, FirmwareFact] | None = None,
) -> GenCtx:
    """Every table the templates render for one generation, from its IR and its translation
    (and `firmware`: the drop's firmware overlay's facts about it, by opcode)."""
    firmware = firmware or {}
    ctx = GenCtx(
        gen.name, naming.module_name(gen.name), gen.core_version, gen.tpb_dir, translated=translated
    )
    ctx.enums = [_enum_ctx(e) for e in gen.enums]
    ctx.enumerators = frozenset(m.name for e in gen.enums for m in e.members)
    ctx.enum_files = _file_vars(sorted({e.file for e in ctx.enums}))
    coder = _StructCoder(gen)
    ctx.structs = [coder.struct(s) for s in gen.structs]
    _check_unique_names(ctx)
    ctx.struct_imports = _struct_imports(ctx)
    for c in gen.constants:
        ctx.constants.append((naming.constant_name(c.name), c.name, py_literal(c.value), c.comment))
        if naming.constant_name(c.name) in GEOMETRY:
            assert isinstance(c.value, int)
            ctx.geometry[naming.constant_name(c.name)] = c.value
    op_enum = resolve.opcode_enum(gen)
    struct_cls = {s.name: naming.type_name(s.name) for s in gen.structs}
    if op_enum is not None and gen.mapping is not None:
        ctx.opcode_cls = naming.type_name(op_enum.name)
        members = dict(
            zip(
                (m.name for m in op_enum.members),
                naming.member_names(op_enum.name, [m.name for m in op_enum.members]),
                strict=True,
            )
        )
        for d in resolve.decode_table(gen):
            if d.defined:
                ctx.decode.append((d.value, members[d.opcode], struct_cls[d.struct]))
            else:
                ctx.bound_outside.append((d.value, members[d.opcode], d.struct))
        ctx.bound_outside.sort()
    _executor_enum_tables(ctx, gen)
    ctx.summary = {
        "enums": len(gen.enums),
        "structs": len(gen.structs),
        "functions": len(gen.functions),
        "validators": len(translated.top),
        "decodable": len(ctx.decode),
    }
    ctx.decode_classes = sorted({cls for _, _, cls in ctx.decode})
    _validator_tables(ctx, gen, translated)
    _executor_tables(ctx, gen)
    ctx.has_executor = has_executor
    ctx.opcode_rows = _opcode_rows(ctx, firmware)
    ctx.firmware = [(f.opcode, f.name, f.firmware, f.note) for f in firmware.values()]
    return ctx


def _executor_enum_tables(ctx: GenCtx, gen: Generation) -> None:
    """The executor's enums of this generation by name, and the enumerators it does not run."""
    binding = isa_binding.executor_enums(gen)
    for role, ee in binding.enums.items():
        ctx.executor_enums[role] = (ee.enum.name, ee.values)
        for name, m, why in ee.unimplemented():
            reason = why or "the executor does not implement it"
            ctx.executor_refuses.append((role, ee.enum.name, name, m.value, reason))


def _chain_tables(ctx: GenCtx, batch: BatchChains) -> None:
    """Each top-level validator's chain of batch functions (translate/chain_batch.py), for the
    runtime's test-bench toolkit, as the templates lay it out."""
    ctx.batch_functions += batch.functions
    for ch in batch.chains:
        ctx.chains.append(
            ChainCtx(
                ch.validator,
                list(ch.terms),
                ch.constants,
                [(label, list(idx)) for label, idx in ch.alternatives],
                [(term, [list(d) for d in disjuncts]) for term, disjuncts in ch.splits],
            )
        )


def _validator_tables(ctx: GenCtx, gen: Generation, translation: TranslatedGen) -> None:
    """The batch code, and how validate() dispatches and the C entry points call each validator."""
    ctx.batch_functions = list(translation.batch_functions)
    ctx.batch_stubs = [(s.name, s.where, s.reason) for s in translation.batch_stubs]
    chained = batch_chains(gen, translation)
    _chain_tables(ctx, chained)
    tables = chained.tables | set(translation.batch_tables)
    ctx.batch_consts = [(name, value) for name, value in translation.consts if name in tables]
    called = chained.helpers | set(translation.batch_helpers)
    ctx.batch_helpers = [name for name in BATCH_HELPERS if f"_{name}" in called]
    ctx.validator_helpers = [
        (name, alias) for name, alias in VALIDATOR_HELPERS if alias in translation.helpers
    ]
    ctx.rowwise = list(translation.rowwise)
    union = resolve.instruction_union(gen)
    ctx.inst_union_c = union.c_spelling if union is not None else resolve.INST_UNION
    ctx.dispatch = sorted(
        {
            op: tuple(t.name for t in translation.top if op in t.opcodes)
            for t in translation.top
            for op in t.opcodes
        }.items()
    )
    # how the C entry points pass the word to each top-level validator: by value or by address,
    # then any core version it takes (bound to the generation's own)
    ctx.c_arg = resolve.c_call_arguments(gen)
    # the tpb/ headers, by name, in the order the ingest preprocessed them
    ctx.c_headers = [
        f.path[len(gen.tpb_dir) + 1 :]
        for f in gen.files
        if f.path.startswith(gen.tpb_dir + "/") and f.path.endswith(".h")
    ]


def _executor_tables(ctx: GenCtx, gen: Generation) -> None:
    """Which decodable opcodes the executor runs, lowered to their binders, and which it refuses
    and why (isa.binding decides, isa.lower writes the code)."""
    coverage = isa_binding.executor_coverage(gen)
    ctx.executes = [e.value for e in coverage.runs]
    ctx.refuses = [op for op, _, _ in coverage.refuses]
    ctx.executor_handlers = [lower(e) for e in coverage.runs]
    ctx.executor_numerics = table.numerics_defaults(gen.core_version)
    ctx.executor_refused = [
        (op, f"{name}: {why}" if name in table.HANDLERS else why)
        for op, name, why in coverage.refuses
    ]


def _opcode_rows(ctx: GenCtx, firmware: dict[int, FirmwareFact]) -> list[OpcodeRow]:
    enum = next((e for e in ctx.enums if e.cls == ctx.opcode_cls), None)
    if enum is None:
        return []
    decode = {op: cls for op, _, cls in ctx.decode}
    outside = {op: st for op, _, st in ctx.bound_outside}
    rows = []
    for m in sorted(enum.members, key=lambda m: m.value):
        status = resolve.MaintenanceStatus.of_flag(m.maintained).label + (
            f": {m.note}" if m.note else ""
        )
        struct = (
            f"`{decode[m.value]}`"
            if m.value in decode
            else (f"outside: `{outside[m.value]}`" if m.value in outside else "-")
        )
        fw = firmware.get(m.value)
        rows.append(OpcodeRow(m.value, m.name, status, struct, fw.firmware if fw else ""))
    return rows


def _struct_imports(ctx: GenCtx) -> dict[str, Any]:
    """What the structs module imports, from what the field declarations recorded: the enum
    classes some field holds, and `field` when a default needs a factory or a struct keeps `_raw`."""
    enums = sorted({f.cls for s in ctx.structs for f in s.fields if f.kind == "enum"})
    needs_field = any(s.gaps for s in ctx.structs) or any(
        f.factory for s in ctx.structs for f in s.fields
    )
    unions = any(s.kind == "union" for s in ctx.structs)
    return {"enums": enums, "field": needs_field, "union": unions}


@dataclass(frozen=True)
class ExecutorReadme:
    """The README's executor tables, made from the executor's declared table (isa.table) and
    each generation's enums: what each opcode reads, and the enumerators it does not run."""

    operands: list[tuple[str, str, str]]  # (opcode name, engine call, argument <- fields)
    refused: list[tuple[str, str]]  # (what, why)


def executor_readme(gens: list[GenCtx]) -> ExecutorReadme:
    """The executor's README tables, derived from the family's declared handler table and the
    generations' contexts: each handler's engine call and operands (by struct field), and the
    enumerators it refuses, grouped by role and reason with the generations that have them."""
    operands = []
    for name, h in table.HANDLERS.items():
        fixed = ", ".join(f"{k}={v}" for k, v in h.fixed)
        args = "; ".join(
            f"`{o.param}` ← {', '.join(f'`{f}`' for f in dict.fromkeys(p.split('.')[0] for p in o.fields))} ({o.kind})"
            for o in h.operands
        )
        operands.append((name, f"`{h.engine}({fixed})`", args))
    # (role, why) -> name -> (value on the first generation that has it, the generations)
    grouped: dict[tuple[str, str], dict[str, tuple[int, list[str]]]] = {}
    for g in gens:
        for role, _c_enum, name, value, why in g.executor_refuses:
            names = grouped.setdefault((role, why), {})
            names.setdefault(name, (value, []))[1].append(g.name)
    refused = []
    for (role, why), names in grouped.items():
        by_gens: dict[tuple[str, ...], list[str]] = {}
        for n, (_, gs) in sorted(names.items(), key=lambda kv: (kv[1][0], kv[0])):
            by_gens.setdefault(tuple(gs), []).append(n)
        parts = [
            ", ".join(ns) + ("" if len(gs) == len(gens) else f" ({', '.join(gs)})")
            for gs, ns in sorted(by_gens.items(), key=lambda kv: -len(kv[0]))
        ]
        refused.append((f"{table.ENUMS[role].what} {'; '.join(parts)}", why))
    return ExecutorReadme(operands, refused)
