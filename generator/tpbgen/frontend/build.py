"""Build one generation's IR from its pycparser AST: types, layouts, constants, asserts, functions."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pycparser import c_ast

from ..errors import Diagnostic, Severity, TpbgenError
from ..ir import cprint, ctypes
from ..ir.body import Body
from ..ir.cast import to_compact
from ..ir.consteval import ConstEvaluator, CValue, NotConstant, float_to_int, round_float
from ..ir.model import (
    Constant,
    Enum,
    EnumMember,
    Field,
    Function,
    Loc,
    Param,
    StaticAssert,
    Struct,
    Typedef,
    TypeRef,
)
from .comments import SourceLines, parse_maintenance
from .dialect import DialectInfo
from .layout import MemberIn, MemberOut, enum_size, layout_struct, layout_union
from .lexer import new_parser
from .preprocess import PROBE, MacroDef

# `[i] = ` in an initialiser: its own node from pycparser 3.12 on, the index expression before
_ARRAY_DESIGNATOR: type[c_ast.Node] | None = getattr(c_ast, "ArrayDesignator", None)


@dataclass
class CType:
    """A type while building: scalar, enum, struct/union (by canonical name), or array of one."""

    kind: Literal["int", "float", "bool", "enum", "struct", "union", "void"]
    name: str
    size: int
    align: int
    signed: bool = False
    dims: tuple[int, ...] = ()
    spelled: str = ""

    def element(self) -> CType:
        """The type of one element (the array dimensions dropped)."""
        return CType(self.kind, self.name, self.size, self.align, self.signed, (), self.spelled)

    @property
    def total_size(self) -> int:
        """The bytes of the whole object: the element size times every dimension."""
        n = self.size
        for d in self.dims:
            n *= d
        return n

    def ref(self) -> TypeRef:
        """The type as the IR refers to it."""
        return TypeRef(self.kind, self.name, self.spelled or self.name, self.size, self.signed)


_WORD = re.compile(r"[A-Za-z_]\w*")
# words that cannot stand in an integer constant expression: a macro spelling one is a keyword,
# an attribute or a declaration helper, not a value
_NOT_EXPR = frozenset({
    "static", "inline", "__inline", "__inline__", "extern", "typedef", "struct", "union", "enum", "const",
    "volatile", "void", "__attribute__", "__attribute", "__declspec", "register", "auto", "return", "if",
    "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "goto", "asm", "__asm__",
    "_Static_assert", "__extension__", "__restrict", "restrict", "_Noreturn",
})  # fmt: skip


@dataclass
class _Builder:
    relpath: Callable[[str], str]
    is_ours: Callable[[str], bool]  # is this (relative) file part of the ingested tree?
    src: SourceLines
    dialect: DialectInfo
    typedef_types: dict[str, CType] = field(default_factory=dict)
    typedef_chain: dict[str, tuple[str, ...]] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)  # "struct X" -> canonical name
    structs: dict[str, Struct] = field(default_factory=dict)
    struct_order: list[str] = field(default_factory=list)
    enums: dict[str, Enum] = field(default_factory=dict)
    enum_consts: dict[str, int] = field(default_factory=dict)
    constants: list[Constant] = field(default_factory=list)
    typedefs: list[Typedef] = field(default_factory=list)
    asserts: list[StaticAssert] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    # a body line's tokens and their columns (`line_token_columns`), by (file, line)
    body_lines: dict[tuple[str, int], dict[str, int]] = field(default_factory=dict)
    pack: int | None = None  # the `#pragma pack(n)` in force
    pack_stack: list[tuple[str | None, int | None]] = field(default_factory=list)
    _anon: int = 0

    # -- helpers ---------------------------------------------------------------------------
    def loc(self, node: c_ast.Node, name: str | None = None) -> Loc:
        """Where a node is. The column is read off the original line (where `name`, or the first
        non-blank character, stands), not off the preprocessed text: macro expansion moves
        columns differently in cpp and pcpp, and the IR must not depend on which one ran."""
        c = node.coord
        if c is None:
            return Loc("<unknown>", 0, 0)
        file = self.relpath(c.file)
        text = self.src.line(file, c.line)
        col = text.find(name) + 1 if name and name in text else len(text) - len(text.lstrip()) + 1
        return Loc(file, c.line, col if text else 0)

    def body_column(self, node: c_ast.Node, file: str, line: int) -> int:
        """The column of a function-body node, read off the original line like `loc` (so the IR
        does not depend on the preprocessor): a statement's keyword (`for`, `while`, `do`, `if`,
        `switch`, `return`...), or a constant, name or call spelled once on the line; 0 otherwise."""
        cls = type(node)
        keyword = None
        if cls is c_ast.ID:  # (half the nodes asked about)
            spelling = node.name
        elif (keyword := _KEYWORD_OF.get(cls)) is not None:
            spelling = keyword
        elif cls is c_ast.Constant:
            spelling = node.value
        elif cls is c_ast.FuncCall and type(node.name) is c_ast.ID:
            spelling = node.name.name
        else:
            return 0
        columns = self.body_lines.get((file, line))
        if columns is None:  # a body line's nodes ask in a row: its tokens are looked up once
            columns = self.body_lines[file, line] = line_token_columns(self.src.line(file, line))
        found = columns.get(spelling)
        if found is None:
            return 0
        if found < 0:  # spelled more than once: only a keyword is placed (at its first)
            return -found if keyword is not None else 0
        return found

    def error(self, node: c_ast.Node | None, message: str, code: str) -> None:
        loc = self.loc(node) if node is not None else Loc("<unknown>", 0, 0)
        self.errors.append(Diagnostic(message, loc.file, loc.line, loc.col, Severity.ERROR, code))

    def evaluator(self) -> ConstEvaluator:
        return ConstEvaluator(self._lookup_id, self._sizeof_node, self._offsetof)

    def _lookup_id(self, name: str) -> CValue | None:
        if name in self.enum_consts:
            return CValue(self.enum_consts[name])
        for c in self.constants:
            if c.name == name and not c.dims and not isinstance(c.value, tuple):
                if isinstance(c.value, float):
                    return CValue(c.value, False, 32 if c.type.size == 4 else 64)
                return CValue(
                    c.value, not c.type.signed, c.type.size * 8
                )  # below int: promoted where used
        return None

    def _sizeof_node(self, node: c_ast.Node) -> int:
        if isinstance(node, c_ast.Typename):
            return self.resolve(node.type, node).total_size
        if isinstance(node, c_ast.ID) and node.name in self.typedef_types:
            return self.typedef_types[node.name].total_size
        raise NotConstant("sizeof of an expression", node)

    def _offsetof(self, typ: c_ast.Node, member: c_ast.Node) -> int:
        t = self.resolve(typ.type if isinstance(typ, c_ast.Typename) else typ, typ)
        path: list[str | int] = []
        m = member
        while True:
            if isinstance(m, c_ast.ID):
                path.append(m.name)
                break
            if isinstance(m, c_ast.StructRef):
                path.append(m.field.name)
                m = m.name
                continue
            if isinstance(m, c_ast.ArrayRef):
                path.append(self.evaluator().eval_int(m.subscript))
                m = m.name
                continue
            raise NotConstant("unsupported offsetof member designator", member)
        path.reverse()
        return self.offset_of_path(t, path, typ)

    def offset_of_path(self, t: CType, path: list[str | int], node: c_ast.Node) -> int:
        off = 0
        cur = t
        for step in path:
            if isinstance(step, int):
                off += step * cur.size
                cur = cur.element()
                continue
            s = self.structs.get(cur.name)
            if s is None:
                raise NotConstant(f"offsetof into non-struct {cur.name}", node)
            f = self._find_field(s, step)
            if f is None:
                raise NotConstant(f"{cur.name} has no field {step}", node)
            off += f[0]
            cur = f[1]
        return off

    def _find_field(self, s: Struct, name: str) -> tuple[int, CType] | None:
        for f in s.fields:
            if f.name == name:
                return f.offset, self.ctype_of_field(f)
            if f.anonymous:
                inner = self._find_field(self.structs[f.type.name], name)
                if inner:
                    return f.offset + inner[0], inner[1]
        return None

    def ctype_of_field(self, f: Field) -> CType:
        t = f.type
        align = self.structs[t.name].align if t.kind in ("struct", "union") else t.size
        return CType(t.kind, t.name, t.size, align, t.signed, f.dims, t.spelled)

    # -- types -----------------------------------------------------------------------------
    def resolve(
        self, node: c_ast.Node, where: c_ast.Node, spelled_name: str | None = None
    ) -> CType:
        """The CType of a declarator (TypeDecl / ArrayDecl / PtrDecl / Typename subtree)."""
        if isinstance(node, c_ast.Typename):
            return self.resolve(node.type, where)
        if isinstance(node, c_ast.ArrayDecl):
            inner = self.resolve(node.type, where)
            if node.dim is None:
                raise TpbgenError([self._diag(where, "array without a size", "type")])
            try:
                n = self.evaluator().eval_int(node.dim)
            except NotConstant as exc:
                raise TpbgenError(
                    [self._diag(exc.node or where, f"array size: {exc}", "type")]
                ) from None
            return CType(
                inner.kind,
                inner.name,
                inner.size,
                inner.align,
                inner.signed,
                (n, *inner.dims),
                inner.spelled,
            )
        if isinstance(node, c_ast.PtrDecl):
            return CType("int", "pointer", 8, 8, False, (), "pointer")
        if isinstance(node, c_ast.TypeDecl):
            return self.resolve_base(node.type, where)
        return self.resolve_base(node, where)

    def _diag(self, node: c_ast.Node, message: str, code: str) -> Diagnostic:
        loc = self.loc(node)
        return Diagnostic(message, loc.file, loc.line, loc.col, Severity.ERROR, code)

    def resolve_base(self, node: c_ast.Node, where: c_ast.Node) -> CType:
        """The CType of a base type node (scalar names, a typedef name, a struct, union or enum:
        defining it when the node has a body); a located TpbgenError for a type tpbgen does not
        model or does not know. `where` locates errors for nodes without a place of their own."""
        if isinstance(node, c_ast.IdentifierType):
            sc = ctypes.scalar(node.names)
            if sc is not None:
                return CType(
                    sc.kind, sc.canon, sc.size, max(sc.size, 1), sc.signed, (), " ".join(node.names)
                )
            why = ctypes.UNSUPPORTED.get(
                tuple(sorted(n for n in node.names if n not in ("const", "volatile")))
            )
            if why:
                raise TpbgenError([self._diag(node, why, "unsupported-type")])
            if len(node.names) == 1 and node.names[0] in self.typedef_types:
                t = self.typedef_types[node.names[0]]
                return CType(t.kind, t.name, t.size, t.align, t.signed, t.dims, node.names[0])
            raise TpbgenError(
                [self._diag(node, f"unknown type '{' '.join(node.names)}'", "unknown-type")]
            )
        if isinstance(node, (c_ast.Struct, c_ast.Union)):
            kind: Literal["struct", "union"] = (
                "struct" if isinstance(node, c_ast.Struct) else "union"
            )
            if node.decls is not None:
                name = self.define_struct(node, kind, None)
            else:
                tag = f"{kind} {node.name}"
                if tag not in self.tags:
                    raise TpbgenError(
                        [self._diag(node, f"incomplete or unknown type '{tag}'", "unknown-type")]
                    )
                name = self.tags[tag]
            s = self.structs[name]
            return CType(kind, name, s.size, s.align, False, (), name)
        if isinstance(node, c_ast.Enum):
            if node.values is not None:
                name = self.define_enum(node, None)
            else:
                tag = f"enum {node.name}"
                if tag not in self.tags:
                    raise TpbgenError([self._diag(node, f"unknown type '{tag}'", "unknown-type")])
                name = self.tags[tag]
            e = self.enums[name]
            # GCC's underlying type of an enum is signed exactly when a member is negative
            return CType(
                "enum", name, e.size, e.size, any(m.value < 0 for m in e.members), (), name
            )
        raise TpbgenError(
            [self._diag(where, f"unsupported type construct {type(node).__name__}", "type")]
        )

    # -- object-like macros -------------------------------------------------------------------
    def visit_macros(self, macros: tuple[tuple[MacroDef, str], ...]) -> None:
        """`#define NAME <integer constant expression>` in the tpb/ headers becomes a constant like
        a `static const` one (located at the #define). The expansion is the preprocessor's; a
        body that is not an integer constant expression (a keyword, an attribute, a float, a
        name left undefined) is not a constant and is left out."""
        seen = {c.name for c in self.constants} | set(self.enum_consts)
        candidates = [
            (m, x)
            for m, x in macros
            if m.name not in seen and x and x != m.name and not (set(_WORD.findall(x)) & _NOT_EXPR)
        ]
        if not candidates:
            return
        prelude = "".join(f"typedef int {n};\n" for n in sorted(self.typedef_types))
        parser = new_parser()
        for m, expansion in candidates:
            try:
                tu = parser.parse(f"{prelude}long long {PROBE} = ({expansion});", "<macro>")
            except Exception:
                continue
            decl = tu.ext[-1]
            try:
                value = self.evaluator().eval(decl.init)
            except NotConstant:
                continue
            if not isinstance(value.value, int):
                continue
            seen.add(m.name)
            signed = (
                not value.unsigned or value.bits < 32
            )  # a value narrower than int (a cast to uint8_t) promotes to int
            bits = max(value.bits, 32)
            ref = TypeRef(
                "int",
                f"{'int' if signed else 'uint'}{bits}",
                f"#define {m.name}",
                bits // 8,
                signed,
            )
            loc = Loc(m.file, m.line, 1)
            self.constants.append(
                Constant(m.name, ref, value.value, loc, self.src.trailing_comment(m.file, m.line))
            )

    # -- #pragma pack ------------------------------------------------------------------------
    def visit_pragma(self, node: c_ast.Pragma) -> None:
        """`#pragma pack` as GCC reads it: `pack(n)`, `pack()`, `pack(push[, id][, n])`,
        `pack(pop[, id])`; n caps the alignment of the members of the structs defined after it.
        Other pragmas change no layout and are ignored."""
        text = " ".join(str(node.string or "").split())
        m = re.fullmatch(r"pack\s*\((.*)\)", text)
        if not text.startswith("pack"):
            return
        if m is None:
            self.error(node, f"unreadable #pragma {text}", "pragma")
            return
        args = [a.strip() for a in m.group(1).split(",") if a.strip()]
        value = None
        if args and args[-1].isdigit():
            value = int(args[-1])
            if value not in (1, 2, 4, 8, 16):
                self.error(
                    node, f"#pragma {text}: the alignment must be 1, 2, 4, 8 or 16", "pragma"
                )
                return
        if not args:
            self.pack = None
        elif args[0] == "push":
            self._pack_push(args, value)
        elif args[0] == "pop":
            self._pack_pop(args, value)
        elif value is not None and len(args) == 1:
            self.pack = value
        else:
            self.error(node, f"unreadable #pragma {text}", "pragma")

    def _pack_push(self, args: list[str], value: int | None) -> None:
        """`pack(push[, id][, n])`: the current cap saved (under `id`), then set to n if given."""
        ident = args[1] if len(args) > 2 or (len(args) == 2 and value is None) else None
        self.pack_stack.append((ident, self.pack))
        if value is not None:
            self.pack = value

    def _pack_pop(self, args: list[str], value: int | None) -> None:
        """`pack(pop[, id])`: back to the cap saved last (to the one saved under `id`, popping
        those above it); `pack(pop, n)` then sets n."""
        ident = args[1] if len(args) > 1 and value is None else None
        while self.pack_stack:
            name, prev = self.pack_stack.pop()
            self.pack = prev
            if ident is None or name == ident:
                break
        if value is not None:
            self.pack = value

    # -- declarations ----------------------------------------------------------------------
    def define_enum(self, node: c_ast.Enum, typedef_name: str | None) -> str:
        """Record the enum of `node` (once per tag) and return its IR name: each enumerator's value
        evaluated (or one more than the previous), its comment and maintenance note, and the
        enum's size as gcc gives it (packed enums included)."""
        name = typedef_name or node.name or self._anon_name("enum")
        tag = f"enum {node.name}" if node.name else None
        if tag and tag in self.tags and self.tags[tag] in self.enums:
            return self.tags[tag]
        members: list[EnumMember] = []
        nxt = 0
        ev = self.evaluator()
        for en in node.values.enumerators:
            if en.value is not None:
                try:
                    nxt = ev.eval_int(en.value)
                except NotConstant as exc:
                    self.error(exc.node or en, f"enumerator {en.name}: {exc}", "enum-value")
            loc = self.loc(en, en.name)
            comment = self.enumerator_comment(en, loc)
            members.append(EnumMember(en.name, nxt, loc, comment, parse_maintenance(comment)))
            self.enum_consts[en.name] = nxt
            nxt += 1
        packed = bool({name, node.name} & self.dialect.packed)
        loc = self.loc(node)
        e = Enum(
            name,
            enum_size([m.value for m in members], packed),
            packed,
            tuple(members),
            loc,
            loc.line,
            self.src.doc_above(loc.file, loc.line),
        )
        self.enums[name] = e
        if tag:
            self.tags[tag] = name
        return name

    def member_attributes(self, decl: c_ast.Decl) -> tuple[bool, int]:
        """A member's own `packed` and `aligned(N)` (0: none), as the dialect pass found them
        beside its declarator."""
        c = decl.coord
        if not decl.name or c is None or not self.dialect.members:
            return False, 0
        return self.dialect.members.get((self.relpath(c.file), c.line, decl.name), (False, 0))

    def enumerator_comment(self, enumerator: c_ast.Enumerator, loc: Loc) -> str:
        """The comment that ends an enumerator's line; for one wrapped after its `=` (as
        clang-format wraps a long name: `NAME =` on one line, `0x44, // n, ...` on the next),
        the comment that ends the line its value stands on, when its own line has none."""
        comment = self.src.trailing_comment(loc.file, loc.line)
        c = enumerator.value.coord if enumerator.value is not None else None
        if comment or c is None or c.line == loc.line or self.relpath(c.file) != loc.file:
            return comment
        return self.src.trailing_comment(loc.file, c.line)

    def _anon_name(self, what: str) -> str:
        self._anon += 1
        return f"__anon_{what}_{self._anon}"

    def define_struct(
        self,
        node: c_ast.Struct | c_ast.Union,
        kind: Literal["struct", "union"],
        typedef_name: str | None,
    ) -> str:
        """A struct or union definition laid out and recorded (once: a tag defined before is
        looked up); returns the name it is recorded under (its typedef, its tag or a made-up
        one for an anonymous one)."""
        tag = f"{kind} {node.name}" if node.name else None
        if tag and tag in self.tags and self.tags[tag] in self.structs:
            return self.tags[tag]
        name = typedef_name or node.name or self._anon_name(kind)
        if tag:
            self.tags[tag] = name  # lets members refer to the struct by tag (rare here)
        packed = bool({name, node.name} & self.dialect.packed)
        min_align = self.dialect.aligned.get(name) or self.dialect.aligned.get(node.name or "", 1)
        raw = self._members(node)
        ins = [
            MemberIn(d.name, t.total_size, t.align, t.size, w, *self.member_attributes(d))
            for d, t, w, _ in raw
        ]
        lay = (layout_struct if kind == "struct" else layout_union)(
            ins, packed, min_align, self.pack
        )
        fields = self._fields(raw, lay.members)
        loc = self.loc(node)
        end = max((f.loc.line for f in fields), default=loc.line) + 1
        c_type = typedef_name or (f"{kind} {node.name}" if node.name else "")
        self.structs[name] = Struct(
            name,
            kind,
            lay.size,
            lay.align,
            packed,
            tuple(fields),
            loc,
            end,
            self.src.doc_above(loc.file, loc.line),
            c_type,
        )
        self.struct_order.append(name)
        return name

    def _members(
        self, node: c_ast.Struct | c_ast.Union
    ) -> list[tuple[c_ast.Decl, CType, int | None, bool]]:
        """Each member declaration with its type, its bitfield width (None: not a bitfield) and
        whether it is an anonymous struct or union; a static assert among them is checked, a
        member whose type or width is in error recorded and left out."""
        raw: list[tuple[c_ast.Decl, CType, int | None, bool]] = []
        for d in node.decls or []:
            if isinstance(d, c_ast.StaticAssert):  # C11: a member declaration; no member
                self.visit_static_assert(d)
                continue
            try:
                t = self.resolve(d.type, d)
            except TpbgenError as exc:
                self.errors.extend(exc.diagnostics)
                continue
            width = None
            if d.bitsize is not None:
                try:
                    width = self.evaluator().eval_int(d.bitsize)
                except NotConstant as exc:
                    self.error(d, f"bitfield width: {exc}", "bitfield")
                    continue
            anonymous = d.name is None and t.kind in ("struct", "union") and width is None
            raw.append((d, t, width, anonymous))
        return raw

    def _fields(
        self, raw: list[tuple[c_ast.Decl, CType, int | None, bool]], laid: Sequence[MemberOut]
    ) -> list[Field]:
        """The IR fields of the laid-out members (an unnamed padding bitfield has none)."""
        fields: list[Field] = []
        for (d, t, w, anonymous), out in zip(raw, laid, strict=True):
            if d.name is None and not anonymous:
                continue  # unnamed padding bitfield
            loc = self.loc(d, d.name)
            fields.append(
                Field(
                    d.name or f"__anon{len(fields)}",
                    t.ref(),
                    out.offset,
                    out.span if w is not None else t.total_size,
                    t.dims,
                    out.bit_offset if w is not None else None,
                    w,
                    loc,
                    self.src.trailing_comment(loc.file, loc.line),
                    anonymous,
                )
            )
        return fields

    def visit_typedef(self, typedef: c_ast.Typedef) -> None:
        """Record a typedef: the struct, union or enum it defines (named after the typedef when
        untagged), the type it stands for and its chain of typedef names down to that type;
        errors are collected, not raised."""
        inner = typedef.type.type if isinstance(typedef.type, c_ast.TypeDecl) else None
        try:
            if isinstance(inner, (c_ast.Struct, c_ast.Union)) and inner.decls is not None:
                skind: Literal["struct", "union"] = (
                    "struct" if isinstance(inner, c_ast.Struct) else "union"
                )
                name = self.define_struct(inner, skind, typedef.name)
                s = self.structs[name]
                if name == typedef.name:
                    self.structs[name] = Struct(
                        s.name,
                        s.kind,
                        s.size,
                        s.align,
                        s.packed,
                        s.fields,
                        s.loc,
                        self.loc(typedef).line,
                        s.doc,
                    )
                t = CType(skind, name, s.size, s.align, False, (), typedef.name)
                target = f"{skind} {inner.name or '{...}'}"
            elif isinstance(inner, c_ast.Enum) and inner.values is not None:
                name = self.define_enum(inner, typedef.name)
                e = self.enums[name]
                self.enums[name] = Enum(
                    e.name, e.size, e.packed, e.members, e.loc, self.loc(typedef).line, e.doc
                )
                t = CType(
                    "enum",
                    name,
                    e.size,
                    e.size,
                    any(m.value < 0 for m in e.members),
                    (),
                    typedef.name,
                )
                target = f"enum {inner.name or '{...}'}"
            else:
                t = self.resolve(typedef.type, typedef)
                target = _spell(typedef.type)
        except TpbgenError as exc:
            self.errors.extend(exc.diagnostics)
            return
        base = target.split()[-1] if target else ""
        chain = (typedef.name, *self.typedef_chain.get(base, ()))
        self.typedef_types[typedef.name] = t
        self.typedef_chain[typedef.name] = chain
        loc = self.loc(typedef, typedef.name)
        if self.is_ours(loc.file):
            self.typedefs.append(
                Typedef(
                    typedef.name, target, (*chain, t.name) if chain[-1] != t.name else chain, loc
                )
            )

    def visit_decl(self, decl: c_ast.Decl) -> None:
        """Record a file-scope declaration: a tagged type declared alone, a constant (an array
        constant, or a scalar converted to its declared type as C converts it); prototypes are
        skipped, text or pointer constants are skipped with a note, errors are collected."""
        # A tagged type declared on its own (`struct X {...};` / `enum E {...};`)
        if decl.name is None and isinstance(decl.type, (c_ast.Struct, c_ast.Union, c_ast.Enum)):
            try:
                self.resolve_base(decl.type, decl)
            except TpbgenError as exc:
                self.errors.extend(exc.diagnostics)
            return
        if isinstance(decl.type, c_ast.FuncDecl):
            return  # a prototype: the body, if any, comes as a FuncDef
        if decl.init is not None and _is_text(decl):
            loc = self.loc(decl, decl.name)
            self.warnings.append(
                Diagnostic(
                    f"{decl.name}: text or pointers (a string, a table of them) are not constants "
                    "tpbgen models; skipped (a function that reads it is left to the C backend)",
                    loc.file,
                    loc.line,
                    loc.col,
                    Severity.INFO,
                    "constant",
                )
            )
            return
        if "const" in (decl.quals or []) and decl.init is not None:
            if isinstance(decl.init, c_ast.InitList):
                self.array_constant(decl)
                return
            try:
                t = self.resolve(decl.type, decl)
                v = self.evaluator().eval(decl.init)
            except TpbgenError as exc:
                self.errors.extend(exc.diagnostics)
                return
            except NotConstant as exc:
                self.error(exc.node or decl, f"constant {decl.name}: {exc}", "constant")
                return
            converted = convert_constant(v.value, t.kind, t.size, t.signed)
            if converted is None:
                self.error(
                    decl,
                    f"constant {decl.name}: {v.value!r} does not convert to its type (undefined behaviour)",
                    "constant",
                )
                return
            value: int | float = converted
            loc = self.loc(decl, decl.name)
            if self.is_ours(loc.file):
                self.constants.append(
                    Constant(
                        decl.name,
                        t.ref(),
                        value,
                        loc,
                        self.src.trailing_comment(loc.file, loc.line),
                    )
                )
            return

    def array_constant(self, decl: c_ast.Decl) -> None:
        """`static const T NAME[N]... = {...};`: dimensions from the declarator or the initialiser."""
        dims: list[int | None] = []
        t = decl.type
        while isinstance(t, c_ast.ArrayDecl):
            try:
                dims.append(self.evaluator().eval_int(t.dim) if t.dim is not None else None)
            except NotConstant as exc:
                self.error(exc.node or decl, f"array constant {decl.name}: size: {exc}", "constant")
                return
            t = t.type
        try:
            elem = self.resolve(t, decl)
        except TpbgenError as exc:
            self.errors.extend(exc.diagnostics)
            return
        if not dims or elem.kind not in ("int", "enum", "bool", "float"):
            self.error(
                decl,
                f"constant {decl.name}: only arrays of integers or floats are supported",
                "constant",
            )
            return

        def placed(init: c_ast.Node) -> dict[int, c_ast.Node]:
            """The initialisers of one level by index, designators (`[3] = x`) followed as C
            does: the next one without a designator takes the index after."""
            items = init.exprs if isinstance(init, c_ast.InitList) else [init]
            out: dict[int, c_ast.Node] = {}
            k = 0
            for x in items:
                if isinstance(x, c_ast.NamedInitializer):
                    index = x.name[0] if len(x.name) == 1 else None
                    if index is None or (  # `[i][j] = `; `.field = ` where pycparser says so
                        _ARRAY_DESIGNATOR is not None and not isinstance(index, _ARRAY_DESIGNATOR)
                    ):
                        raise NotConstant("a designator other than one array index", x.expr)
                    # pycparser before 3.12 gives `[i]` as the index itself (in an array's
                    # initialiser a designator can only be an index: gcc refuses `.field` there)
                    k = self.evaluator().eval_int(index.expr if _ARRAY_DESIGNATOR else index)
                    x = x.expr
                out[k] = x
                k += 1
            return out

        def flatten(init: c_ast.Node, level: int) -> list[int | float]:
            items = placed(init)
            if dims[level] is None:
                dims[level] = max(items, default=-1) + 1
            count = dims[level] or 0
            if level + 1 < len(dims):
                rows = {k: flatten(x, level + 1) for k, x in sorted(items.items()) if k < count}
                inner = 1
                for n in dims[level + 1 :]:
                    inner *= n or 0
                return [v for k in range(count) for v in rows.get(k, [0] * inner)]
            vals: list[int | float] = [0] * count
            for k, x in items.items():
                v = convert_constant(
                    self.evaluator().eval(x).value, elem.kind, elem.size, elem.signed
                )
                if v is None:
                    raise NotConstant(
                        "an element does not convert to the element type (undefined behaviour)", x
                    )
                if k < count:
                    vals[k] = v
            return vals

        try:
            values = flatten(decl.init, 0)
        except NotConstant as exc:
            at = exc.node if exc.node is not None and exc.node.coord is not None else decl
            self.error(at, f"array constant {decl.name}: {exc}", "constant")
            return
        loc = self.loc(decl, decl.name)
        if self.is_ours(loc.file):
            shape = tuple(int(x or 0) for x in dims)
            self.constants.append(
                Constant(
                    decl.name,
                    elem.ref(),
                    tuple(values),
                    loc,
                    self.src.trailing_comment(loc.file, loc.line),
                    shape,
                )
            )

    def visit_static_assert(self, assertion: c_ast.StaticAssert) -> None:
        loc = self.loc(assertion)
        msg = ""
        if assertion.message is not None and isinstance(assertion.message, c_ast.Constant):
            msg = assertion.message.value[1:-1].encode().decode("unicode_escape")
        expr = cprint.expr(assertion.cond)
        try:
            value = bool(self.evaluator().eval(assertion.cond).value)
        except NotConstant as exc:
            self.error(
                exc.node or assertion, f"static assert cannot be evaluated: {exc}", "static-assert"
            )
            return
        except TpbgenError as exc:
            self.errors.extend(exc.diagnostics)
            return
        if not value:
            self.error(
                assertion,
                f"static assert fails under tpbgen's layout: {expr} ({msg})",
                "static-assert",
            )
        if self.is_ours(loc.file):
            self.asserts.append(StaticAssert(expr, msg, value, loc))

    def visit_funcdef(self, funcdef: c_ast.FuncDef) -> None:
        """Record a function defined in the generation's own headers: its return and parameter types
        (a pointer to a struct read as the struct), its place, last line, the functions it calls
        and its body as a compact tree; errors are collected."""
        decl = funcdef.decl
        fdecl = decl.type
        try:
            ret = self.resolve(fdecl.type, decl)
            params: list[Param] = []
            for p in fdecl.args.params if fdecl.args else []:
                if isinstance(p, c_ast.Typename) and _spell(p.type) == "void":
                    continue
                if isinstance(p, c_ast.EllipsisParam):
                    self.error(p, f"function {decl.name}: variadic parameters", "function")
                    continue
                if isinstance(p.type, c_ast.PtrDecl) and isinstance(p.type.type, c_ast.TypeDecl):
                    pointee = self.resolve(p.type.type, p)
                    if pointee.kind in ("struct", "union") and not pointee.dims:
                        # a pointer to a struct or union: read like the struct itself (-> and *p)
                        params.append(Param(p.name or "", pointee.ref(), by_pointer=True))
                        continue
                params.append(Param(p.name or "", self.resolve(p.type, p).ref()))
        except TpbgenError as exc:
            self.errors.extend(exc.diagnostics)
            return
        loc = self.loc(decl, decl.name)
        if self.is_ours(loc.file):
            tree, calls, last = to_compact(funcdef, self.relpath, self.body_column, _COLUMN_CLASSES)
            self.functions.append(
                Function(
                    decl.name,
                    ret.ref(),
                    tuple(params),
                    loc,
                    last + 1,
                    tuple(calls),
                    Body(tree),
                    self.src.section_at(loc.file, loc.line),
                )
            )


# C tokens that can name a body node: a character constant, a number, a name.
_TOKEN = r"[LuU]?'(?:[^'\\\n]|\\.)*'|\.?\d(?:[eEpP][+-]|[\w.])*|[A-Za-z_]\w*"
# ... and, tried first at each place, a member name: a name (or prefixed character constant) whose
# last non-blank predecessor is `.` or `->`, also when that character ended the token before (the
# lookbehinds: `1. x`, `0p->x`). Matched so it is skipped: it names no node of the function.
_MEMBER = r"(?:\.|->|(?<=\.)|(?<=->)|(?<=-)>)[ \t]*(?=[A-Za-z_])(?:" + _TOKEN + ")"
_LINE_TOKEN = re.compile(_MEMBER + "|(" + _TOKEN + ")")


@functools.lru_cache(maxsize=1 << 14)
def line_token_columns(text: str) -> dict[str, int]:
    """Every token of one source line that can name a body node (member names after `.` or `->`
    left out), mapped to the 1-based column of its first occurrence, negated when it occurs more
    than once on the line. Remembered by the line's text while a drop is ingested (its
    generations share most body lines: 952 distinct texts among 4,243; `ingest_root` clears the
    memo when it ends), so the answer is shared: read it only."""
    columns: dict[str, int] = {}
    for m in _LINE_TOKEN.finditer(text):
        tok = m.group(1)
        if tok is not None:
            col = columns.get(tok)
            columns[tok] = m.start() + 1 if col is None else -col if col > 0 else col
    return columns


_BODY_KEYWORDS = {
    "For": "for",
    "While": "while",
    "DoWhile": "do",
    "If": "if",
    "Switch": "switch",
    "Return": "return",
    "Case": "case",
    "Default": "default",
    "Break": "break",
    "Continue": "continue",
}


_KEYWORD_OF = {getattr(c_ast, n): kw for n, kw in _BODY_KEYWORDS.items()}
# the node classes body_column can place (every other node gets column 0)
_COLUMN_CLASSES = frozenset(
    {getattr(c_ast, n) for n in _BODY_KEYWORDS} | {c_ast.Constant, c_ast.ID, c_ast.FuncCall}
)


def convert_constant(value: int | float, kind: str, size: int, signed: bool) -> int | float | None:
    """A constant's value converted to its declared type, as C's initialisation converts it: to
    float rounded once (`static const float X = 0.1;` holds 0.100000001490116...), to an integer
    truncated toward zero and wrapped, to bool 0 or 1. None when the conversion is undefined (a
    floating value out of the integer type's range, NaN)."""
    if kind == "float":
        return round_float(value, 32 if size == 4 else 64)
    if kind == "bool":
        return int(value != 0)
    bits = size * 8
    if isinstance(value, float):
        return float_to_int(value, bits, not signed)
    value &= (1 << bits) - 1
    if signed and value >> (bits - 1):
        value -= 1 << bits
    return value


def _spell(node: c_ast.Node) -> str:
    t = node
    while isinstance(t, (c_ast.TypeDecl, c_ast.Typename)):
        t = t.type
    if isinstance(t, c_ast.IdentifierType):
        return " ".join(t.names)
    if isinstance(t, (c_ast.Struct, c_ast.Union, c_ast.Enum)):
        return f"{type(t).__name__.lower()} {t.name}"
    if isinstance(t, c_ast.ArrayDecl):
        return _spell(t.type) + "[]"
    if isinstance(t, c_ast.PtrDecl):
        return _spell(t.type) + " *"
    return type(t).__name__


@dataclass(frozen=True)
class BuiltTree:
    enums: tuple[Enum, ...]
    constants: tuple[Constant, ...]
    typedefs: tuple[Typedef, ...]
    structs: tuple[Struct, ...]
    static_asserts: tuple[StaticAssert, ...]
    functions: tuple[Function, ...]
    warnings: tuple[Diagnostic, ...]


def build(
    ast: c_ast.FileAST,
    relpath: Callable[[str], str],
    is_ours: Callable[[str], bool],
    src: SourceLines,
    dialect: DialectInfo,
    macros: tuple[tuple[MacroDef, str], ...] = (),
) -> BuiltTree:
    """The IR pieces of one parsed translation unit: every top-level typedef, declaration, static
    assert, function and pragma visited, then the macros; the structs and enums of the
    generation's own headers (`is_ours`) kept. Raises TpbgenError with every error found, not
    just the first."""
    b = _Builder(relpath, is_ours, src, dialect)
    for ext in ast.ext:
        try:
            if isinstance(ext, c_ast.Typedef):
                b.visit_typedef(ext)
            elif isinstance(ext, c_ast.Decl):
                b.visit_decl(ext)
            elif isinstance(ext, c_ast.StaticAssert):
                b.visit_static_assert(ext)
            elif isinstance(ext, c_ast.FuncDef):
                b.visit_funcdef(ext)
            elif isinstance(ext, c_ast.Pragma):
                b.visit_pragma(ext)
        except TpbgenError as exc:
            b.errors.extend(exc.diagnostics)
    b.visit_macros(macros)
    b.errors.extend(dialect.errors)
    if b.errors:
        raise TpbgenError(b.errors)
    ours_structs = tuple(b.structs[n] for n in b.struct_order if is_ours(b.structs[n].loc.file))
    ours_enums = tuple(e for e in b.enums.values() if is_ours(e.loc.file))
    return BuiltTree(
        ours_enums,
        tuple(b.constants),
        tuple(b.typedefs),
        ours_structs,
        tuple(b.asserts),
        tuple(b.functions),
        tuple(b.warnings + dialect.warnings),
    )


def _is_text(decl: c_ast.Decl) -> bool:
    """A declaration of text: a pointer (`const char *const NAMES[] = {...}`), or an array
    initialised with a string literal (`const char NAME[] = "..."`)."""
    t = decl.type
    while isinstance(t, c_ast.ArrayDecl):
        t = t.type
    if isinstance(t, c_ast.PtrDecl):
        return True
    init = decl.init
    while isinstance(init, c_ast.InitList) and init.exprs:
        init = init.exprs[0]
    return isinstance(init, c_ast.Constant) and init.type == "string"
