"""The intermediate representation: everything the back half of tpbgen knows about one generation.

Declared once, here, as frozen dataclasses. `ir.io` turns them into JSON (validated against
`ir/schema.json`) and back; nothing after ingest reads header text again.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Literal

from .body import Body

IR_VERSION = (
    5  # 3: #define constants, #pragma pack; 4: signed enums; 5: pointer-to-struct parameters
)

TypeKind = Literal["int", "float", "bool", "enum", "struct", "union", "void"]


@dataclass(frozen=True)
class Loc:
    """A place in a header: path relative to the header root, 1-based line and column."""

    file: str
    line: int
    col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class SourceFile:
    path: str  # relative to the header root, '/'-separated
    sha256: str
    lines: int
    banner: str  # line 3 of the file, stripped of comment punctuation ("ISA header for NC-v2.")


@dataclass(frozen=True)
class Maintenance:
    """The maintenance marker parsed from an enumerator's trailing comment (`// Y`, `// n, note`)."""

    maintained: bool
    marker: str  # "Y" or "n", as written
    note: str  # the text after "n," ("use TensorScalarArithOp instead"), "" when none


@dataclass(frozen=True)
class EnumMember:
    name: str
    value: int
    loc: Loc
    comment: str  # the trailing `//` comment verbatim (without the slashes), "" when none
    maintenance: Maintenance | None


@dataclass(frozen=True)
class Enum:
    name: str
    size: int
    packed: bool
    members: tuple[EnumMember, ...]
    loc: Loc
    end_line: int
    doc: str  # the comment block right above the declaration, "" when none


@dataclass(frozen=True)
class TypeRef:
    """A resolved C type: what a field, parameter or constant is made of.

    `spelled` is the type as written (`NEURON_ISA_TPB_ALU_OP`, `uint8_t`); `name` is what it
    resolves to after typedefs (`NEURON_ISA_TPB_ALU_OP`, `uint8`, `NEURON_ISA_TPB_TENSOR3D`).
    Integer and float names are canonical: int8 uint8 int16 uint16 int32 uint32 int64 uint64
    float32 float64 bool.
    """

    kind: TypeKind
    name: str
    spelled: str
    size: int
    signed: bool = False


@dataclass(frozen=True)
class Field:
    name: str
    type: TypeRef
    offset: int  # bytes from the start of the enclosing struct or union
    size: int  # bytes of the whole field (all array elements); for a bitfield, its storage unit
    dims: tuple[int, ...]  # array dimensions, outermost first; () for a scalar
    bit_offset: int | None  # for bitfields: bit position inside the storage unit at `offset`
    bit_width: int | None
    loc: Loc
    comment: str  # the trailing comment verbatim, "" when none
    anonymous: bool = False  # an anonymous struct/union member whose fields belong to the parent


@dataclass(frozen=True)
class Struct:
    name: str
    kind: Literal["struct", "union"]
    size: int
    align: int
    packed: bool
    fields: tuple[Field, ...]
    loc: Loc
    end_line: int
    doc: str
    c_type: str = ""  # how C code names it: the typedef name, or `struct TAG` for a tag-only type

    @property
    def c_spelling(self) -> str:
        """How C code names the type: its typedef when it has one, else its tag."""
        return self.c_type or self.name


@dataclass(frozen=True)
class Typedef:
    name: str
    target: str  # the type as written on the right-hand side
    chain: tuple[str, ...]  # every name passed through to the final type, this one first
    loc: Loc


@dataclass(frozen=True)
class Constant:
    name: str
    type: TypeRef  # for an array constant, the element type
    value: (
        int | float | tuple[int | float, ...]
    )  # an array's elements flattened in C (row-major) order
    loc: Loc
    comment: str
    dims: tuple[int, ...] = ()  # array dimensions, outermost first; () for a scalar


@dataclass(frozen=True)
class StaticAssert:
    expr: str  # the condition, regenerated as C from the AST
    message: str
    value: bool  # our own evaluation of the condition
    loc: Loc


@dataclass(frozen=True)
class Param:
    name: str
    type: TypeRef  # for a pointer to a struct or union, the pointee
    by_pointer: bool = (
        False  # `const T *p`: a read-only view of a struct or union, read with -> and *p
    )


@dataclass(frozen=True)
class Function:
    """A C function with a body (the predicates of assert.h / enums.h)."""

    name: str
    returns: TypeRef
    params: tuple[Param, ...]
    loc: Loc
    end_line: int
    calls: tuple[str, ...]  # functions called, in first-call order, each once
    code: Body  # the FuncDef's pycparser AST, compact (ir.body); a dict form is taken too
    section: str  # the `//* <x>_assert.h` section marker it sits under, "" when none

    def __post_init__(self) -> None:
        if isinstance(self.code, dict):  # the dict form, as `ir.cast.to_dict` writes it
            object.__setattr__(self, "code", Body.from_dict(self.code))

    @functools.cached_property
    def body(self) -> dict[str, Any]:
        """The pycparser AST of the FuncDef serialised by `ir.cast.to_dict` (decoded on first use:
        most readers of an IR never look at most bodies)."""
        return self.code.as_dict()


@dataclass(frozen=True)
class SpecComment:
    """A Rust-style `// fn name(...)` spec comment block (documentation, not code)."""

    name: str
    loc: Loc
    end_line: int
    text: str


@dataclass(frozen=True)
class MappingEntry:
    struct: str
    opcodes: tuple[str, ...]
    pointer: str  # JSON pointer of the list, e.g. /struct2opcode/NEURON_ISA_TPB_S3D3_TS_STRUCT
    line: int  # line of the key in the JSON file


@dataclass(frozen=True)
class Mapping:
    """`instruction_mapping.json` as read (validated against its schema, not yet reconciled)."""

    file: str
    sha256: str
    struct2opcode: tuple[MappingEntry, ...]
    struct2pseudo_opcode: tuple[MappingEntry, ...]


@dataclass(frozen=True)
class Generation:
    name: str  # sunda, cayman, mariana, maverick (from the directory name)
    tpb_dir: str  # relative to the header root
    core_version: str  # "NC-v2" ... from common.h's banner, "" when no banner says it
    files: tuple[SourceFile, ...]
    enums: tuple[Enum, ...]
    constants: tuple[Constant, ...]
    typedefs: tuple[Typedef, ...]
    structs: tuple[Struct, ...]
    static_asserts: tuple[StaticAssert, ...]
    functions: tuple[Function, ...]
    spec_comments: tuple[SpecComment, ...]
    mapping: Mapping | None
    ir_version: int = IR_VERSION
    inputs_sha256: str = ""  # one hash over every input file, the IR cache key
    generator: str = ""  # tpbgen version that produced it

    # Look-ups. Small linear scans are fine at this size; callers that loop build their own maps.
    def enum(self, name: str) -> Enum:
        """The enum named `name`; KeyError when there is none."""
        for e in self.enums:
            if e.name == name:
                return e
        raise KeyError(name)

    def struct(self, name: str) -> Struct:
        """The struct or union named `name`; KeyError when there is none."""
        for s in self.structs:
            if s.name == name:
                return s
        raise KeyError(name)

    def function(self, name: str) -> Function:
        """The function named `name`; KeyError when there is none."""
        for f in self.functions:
            if f.name == name:
                return f
        raise KeyError(name)

    def constant(self, name: str) -> Constant:
        """The constant named `name`; KeyError when there is none."""
        for c in self.constants:
            if c.name == name:
                return c
        raise KeyError(name)

    def find_enum(self, suffix: str) -> Enum | None:
        """The enum named `NEURON_ISA_TPB_<suffix>` (or `suffix` when it is a full name)."""
        name = suffix if suffix.startswith("NEURON_ISA_TPB_") else "NEURON_ISA_TPB_" + suffix
        return next((e for e in self.enums if e.name == name), None)
