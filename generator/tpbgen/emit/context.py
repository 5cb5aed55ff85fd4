"""What the runtime templates render, decided here from the IR and the translation.

Every choice a template would otherwise make (a field's Python type, how its bytes are read and
written, which struct an opcode decodes to) is made in this module where tests can see it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import resolve
from ..ir.model import Enum, Field, Generation, Struct
from ..translate.validators import TranslatedGen
from . import naming

_FMT = {("int", 1, False): "B", ("int", 1, True): "b", ("int", 2, False): "H", ("int", 2, True): "h", ("int", 4, False): "I",
        ("int", 4, True): "i", ("int", 8, False): "Q", ("int", 8, True): "q", ("float", 4, True): "f", ("float", 8, True): "d",
        ("bool", 1, False): "?"}
_NP = {"B": "u1", "b": "i1", "H": "<u2", "h": "<i2", "I": "<u4", "i": "<i4", "Q": "<u8", "q": "<i8", "f": "<f4", "d": "<f8", "?": "u1"}


@dataclass(frozen=True)
class FieldCtx:
    name: str
    hint: str  # the Python type annotation
    read: str  # expression reading it from `b` at base offset `o`
    write: str  # statement(s) writing VALUE (the field's value) into bytearray `out` at `o`
    default: str  # a value for a zero-filled instance
    offset: int
    size: int
    dims: tuple[int, ...]
    bit_offset: int | None
    bit_width: int | None
    c_type: str
    comment: str
    line: int
    np_fields: tuple[tuple[str, str, int], ...]  # (name, numpy format expression, offset) for the structured dtype


    def write_from(self, value: str) -> str:
        """The write statement(s) with the value taken from `value`."""
        return self.write.replace("VALUE", value)


@dataclass(frozen=True)
class StructCtx:
    cls: str
    c_name: str
    kind: str
    size: int
    align: int
    doc: str
    loc: str
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
    loc: str
    members: tuple[MemberCtx, ...]


@dataclass
class GenCtx:
    name: str  # generation name
    module: str
    core_version: str
    tpb_dir: str
    enums: list[EnumCtx] = field(default_factory=list)
    structs: list[StructCtx] = field(default_factory=list)
    constants: list[tuple[str, str, Any, str]] = field(default_factory=list)  # (py name, c name, value repr, comment)
    decode: list[tuple[int, str, str]] = field(default_factory=list)  # (opcode, opcode py member, struct class)
    bound_outside: list[tuple[int, str, str]] = field(default_factory=list)  # (opcode, member, struct C name not ingested)
    translated: TranslatedGen | None = None
    opcode_cls: str = "Opcode"
    geometry: dict[str, int] = field(default_factory=dict)
    struct_imports: dict[str, Any] = field(default_factory=dict)
    summary: dict[str, int] = field(default_factory=dict)


def _enum_ctx(e: Enum) -> EnumCtx:
    names = naming.member_names(e.name, [m.name for m in e.members])
    members = tuple(
        MemberCtx(n, m.name, m.value, m.loc.line, m.comment, m.maintenance.maintained if m.maintenance else None, m.maintenance.note if m.maintenance else "")
        for n, m in zip(names, e.members, strict=True)
    )
    return EnumCtx(naming.type_name(e.name), e.name, e.size, e.doc, str(e.loc), members)


class _StructCoder:
    def __init__(self, gen: Generation) -> None:
        self.gen = gen
        self.structs = {s.name: s for s in gen.structs}
        self.enums = {e.name: naming.type_name(e.name) for e in gen.enums}

    def scalar_fmt(self, f: Field) -> str:
        t = f.type
        if t.kind == "enum":
            return {1: "B", 2: "H", 4: "I", 8: "Q"}[t.size]
        return _FMT[(t.kind, t.size, t.signed if t.kind == "int" else t.kind == "float")]

    def field(self, f: Field) -> FieldCtx:
        t = f.type
        off = f"o + {f.offset}" if f.offset else "o"
        n = 1
        for d in f.dims:
            n *= d
        np_fields: tuple[tuple[str, str, int], ...]
        if f.bit_width is not None:
            mask = (1 << f.bit_width) - 1
            raw = f"_uint(b, {off}, {f.size})"
            val = f"(({raw} >> {f.bit_offset}) & {hex(mask)})"
            hint = "int"
            if t.kind == "enum":
                val = f"_enum({self.enums[t.name]}, {val})"
                hint = f"{self.enums[t.name]} | int"
            elif t.signed:
                val = f"_sext({val}, {f.bit_width})"
            write = f"_put_bits(out, {off}, {f.size}, {f.bit_offset}, {f.bit_width}, int(VALUE))"
            np_fields = ((naming.field_name(f.name), repr(f"u{f.size}" if f.size in (1, 2, 4, 8) else f"V{f.size}"), f.offset),)
            return FieldCtx(naming.field_name(f.name), hint, val, write, "0", f.offset, f.size, (), f.bit_offset, f.bit_width, t.spelled, f.comment, f.loc.line, np_fields)
        if t.kind in ("struct", "union"):
            cls = naming.type_name(t.name)
            es = self.structs[t.name].size
            if not f.dims:
                return FieldCtx(naming.field_name(f.name), cls, f"{cls}.from_bytes(b, {off})", f"VALUE.write_into(out, {off})", f"{cls}()", f.offset, f.size, (), None, None, t.spelled, f.comment, f.loc.line, ((naming.field_name(f.name), f"{cls}.DTYPE", f.offset),))
            # arrays of any rank are one tuple in C (row-major) order, like scalar arrays
            read = f"tuple({cls}.from_bytes(b, {off} + {es} * k) for k in range({n}))"
            write = f"_check_len(VALUE, {n}, {f.name!r})\n        for k, x in enumerate(VALUE):\n            x.write_into(out, {off} + {es} * k)"
            return FieldCtx(naming.field_name(f.name), f"tuple[{cls}, ...]", read, write, f"tuple({cls}() for _ in range({n}))", f.offset, f.size, f.dims, None, None, t.spelled, f.comment, f.loc.line, ((naming.field_name(f.name), f"({cls}.DTYPE, {f.dims!r})", f.offset),))
        if t.kind == "bool" and not f.dims:
            return FieldCtx(naming.field_name(f.name), "bool", f"(b[{off}] != 0)", f"_P_B(out, {off}, int(VALUE))", "False", f.offset, f.size, (), None, None, t.spelled, f.comment, f.loc.line, ((naming.field_name(f.name), "'u1'", f.offset),))
        fmt = self.scalar_fmt(f)
        npfmt = repr(_NP[fmt])
        is_enum = t.kind == "enum"
        cls = self.enums.get(t.name, "") if is_enum else ""
        one = "float" if t.kind == "float" else ("bool" if t.kind == "bool" else "int")
        if not f.dims:
            if fmt == "B" and not is_enum:
                read = f"b[{off}]"
            elif fmt == "B":
                read = f"_enum({cls}, b[{off}])"
            else:
                read = f"_S_{fmt}(b, {off})[0]" if not is_enum else f"_enum({cls}, _S_{fmt}(b, {off})[0])"
            hint = f"{cls} | int" if is_enum else one
            write = f"_P_{fmt}(out, {off}, {'int(VALUE)' if is_enum else 'VALUE'})"
            default = "0.0" if one == "float" else ("False" if one == "bool" else "0")
            return FieldCtx(naming.field_name(f.name), hint, read, write, default, f.offset, f.size, (), None, None, t.spelled, f.comment, f.loc.line, ((naming.field_name(f.name), npfmt, f.offset),))
        flat = f"_unpack('<{n}{fmt}', b, {off})"
        if is_enum:
            read = f"tuple(_enum({cls}, x) for x in {flat})"
            hint = f"tuple[{cls} | int, ...]"
        else:
            read = f"tuple({flat})" if fmt != "B" else f"tuple(b[{off}:{off} + {n}])"
            hint = f"tuple[{one}, ...]"
        write = f"_check_len(VALUE, {n}, {f.name!r})\n        _pack_into('<{n}{fmt}', out, {off}, *(int(x) for x in VALUE))" if one == "int" else f"_check_len(VALUE, {n}, {f.name!r})\n        _pack_into('<{n}{fmt}', out, {off}, *VALUE)"
        zero = "0.0" if one == "float" else "0"
        default = f"({', '.join([zero] * n)},)"
        return FieldCtx(naming.field_name(f.name), hint, read, write, default, f.offset, f.size, f.dims, None, None, t.spelled, f.comment, f.loc.line, ((naming.field_name(f.name), f"({npfmt}, {f.dims!r})", f.offset),))

    def struct(self, s: Struct) -> StructCtx:
        fields = []
        for f in s.fields:
            if f.anonymous:
                # fields of an anonymous member belong to the parent, at the member's offset
                inner = self.structs[f.type.name]
                for g in inner.fields:
                    fields.append(self.field(Field(g.name, g.type, f.offset + g.offset, g.size, g.dims, g.bit_offset, g.bit_width, g.loc, g.comment)))
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
        return StructCtx(naming.type_name(s.name), s.name, s.kind, s.size, s.align, s.doc, str(s.loc), tuple(fields), gaps)


def _check_unique_names(ctx: GenCtx) -> None:
    """Two C types that the naming rule maps to one Python class would silently shadow each other:
    refuse, naming both places."""
    from ..errors import Diagnostic, Severity, TpbgenError

    seen: dict[str, str] = {}
    errors = []
    for c_name, cls, loc in [(e.c_name, e.cls, e.loc) for e in ctx.enums] + [(s.c_name, s.cls, s.loc) for s in ctx.structs]:
        if cls in seen and seen[cls] != c_name:
            file, _, line = loc.rpartition(":")
            errors.append(Diagnostic(f"{c_name} and {seen[cls]} would both become the Python class {cls}", file, int(line), 0, Severity.ERROR, "naming"))
        seen.setdefault(cls, c_name)
    if errors:
        raise TpbgenError(errors)


GEOMETRY = (
    "STATE_BUF_NUM_PARTITIONS", "STATE_BUF_WORD_SIZE", "STATE_BUF_PARTITION_SIZE", "STATE_BUF_PARTITION_ACTIVE_SIZE",
    "PSUM_BUF_NUM_PARTITIONS", "PSUM_BUF_PARTITION_SIZE", "PSUM_BUF_PARTITION_ACTIVE_SIZE", "PSUM_BUF_NUM_BANKS",
    "PSUM_BUF_BANK_SIZE", "STATE_BUF_OFFSET", "PSUM_BUF_OFFSET", "STATE_BUF_SZ", "PSUM_BUF_SZ",
)


def build_context(gen: Generation, translated: TranslatedGen) -> GenCtx:
    ctx = GenCtx(gen.name, naming.module_name(gen.name), gen.core_version, gen.tpb_dir, translated=translated)
    ctx.enums = [_enum_ctx(e) for e in gen.enums]
    coder = _StructCoder(gen)
    ctx.structs = [coder.struct(s) for s in gen.structs]
    _check_unique_names(ctx)
    ctx.struct_imports = _struct_imports(ctx)
    for c in gen.constants:
        ctx.constants.append((naming.constant_name(c.name), c.name, repr(c.value), c.comment))
        if naming.constant_name(c.name) in GEOMETRY:
            assert isinstance(c.value, int)
            ctx.geometry[naming.constant_name(c.name)] = c.value
    op_enum = resolve.opcode_enum(gen)
    struct_cls = {s.name: naming.type_name(s.name) for s in gen.structs}
    if op_enum is not None and gen.mapping is not None:
        ctx.opcode_cls = naming.type_name(op_enum.name)
        members = dict(zip((m.name for m in op_enum.members), naming.member_names(op_enum.name, [m.name for m in op_enum.members]), strict=True))
        for d in resolve.decode_table(gen):
            if d.defined:
                ctx.decode.append((d.value, members[d.opcode], struct_cls[d.struct]))
            else:
                ctx.bound_outside.append((d.value, members[d.opcode], d.struct))
        ctx.bound_outside.sort()
    ctx.summary = {
        "enums": len(gen.enums),
        "structs": len(gen.structs),
        "functions": len(gen.functions),
        "validators": len(translated.top),
        "decodable": len(ctx.decode),
    }
    return ctx


_CODEC = ("P_B", "P_H", "P_I", "P_Q", "P_b", "P_d", "P_f", "P_h", "P_i", "P_q", "S_H", "S_I", "S_Q", "S_b", "S_d", "S_f",
          "S_h", "S_i", "S_q")
_CODEC_FUNCS = {"check_len": "_check_len", "enum_or_int": "_enum", "pack_into": "_pack_into", "put_bits": "_put_bits",
                "sext": "_sext", "uint": "_uint", "unpack": "_unpack"}


def _struct_imports(ctx: GenCtx) -> dict[str, Any]:
    """Exactly the codec helpers and enum classes the rendered structs module uses."""
    import re

    code = " ".join(f.read + " " + f.write + " " + f.hint for s in ctx.structs for f in s.fields)
    used = set(re.findall(r"\b_?[A-Za-z_][A-Za-z0-9_]*\b", code))
    codec = [(n, "_" + n) for n in _CODEC if "_" + n in used]
    codec += [(n, a) for n, a in sorted(_CODEC_FUNCS.items()) if a in used]
    codec += [("Buffer", "Buffer"), ("DecodeError", "DecodeError")]
    enums = sorted({e.cls for e in ctx.enums if e.cls in used})
    needs_field = any(s.gaps for s in ctx.structs) or any(f.default.endswith("()") for s in ctx.structs for f in s.fields)
    return {"codec": sorted(codec, key=lambda x: x[0]), "enums": enums, "field": needs_field}
