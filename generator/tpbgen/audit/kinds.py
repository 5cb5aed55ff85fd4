"""The finding kinds of the audit, declared once: for each kind its category, the type of its
detail, the rule that classifies it (`classify` says what the classes mean) and the label
reports show.

`diff` records a change as a kind and a typed detail (the dataclasses below); `classify` runs
the kind's rule on the detail; the JSON report writes the detail as `detail_json` gives it (its
fields in declaration order). `classify.RULES` and the report's labels are read from `KINDS`;
the JSON schema's `kind` and `category` enums and the detail fields it requires are held to
`KINDS` by tests/audit/test_kinds.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Generic, TypeVar

CATEGORIES = ("opcodes", "enums", "constants", "structs", "validators", "bindings")

Json = dict[str, Any]  # a JSON object as the report writes it (a marker, a type, a term)
ConstantValue = int | float | tuple[int | float, ...]


class Detail:
    """What a change carries besides its kind, subject, summary and sides. The details are
    plain dataclasses without equality (never compared: a Change leaves its detail out), which
    keeps defining them cheap for every audit process; nothing changes one once made."""

    def detail_json(self) -> Json:
        """The detail as the JSON report writes it: every field, in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]


# -- the details -------------------------------------------------------------------------------
@dataclass(eq=False)
class DecodeFacts(Detail):
    """An opcode's JSON bindings and the ones the headers define, on each side."""

    json_old: list[str]
    json_new: list[str]
    decodable_old: list[str]
    decodable_new: list[str]


@dataclass(eq=False)
class BindingFacts(Detail):
    """One JSON struct key that lists (or no longer lists) an opcode, and that opcode's facts."""

    struct: str
    json_old: list[str]
    json_new: list[str]
    decodable_old: list[str]
    decodable_new: list[str]


@dataclass(eq=False)
class MemberRenumbered(Detail):
    enum: str
    old_value: int
    new_value: int


@dataclass(eq=False)
class OpcodeRenumbered(Detail):
    enum: str
    old_value: int
    new_value: int
    json_old: list[str]
    json_new: list[str]
    decodable_old: list[str]
    decodable_new: list[str]


@dataclass(eq=False)
class MemberMarker(Detail):
    enum: str
    value: int
    old_marker: Json | None
    new_marker: Json | None


@dataclass(eq=False)
class MemberRenamed(Detail):
    enum: str
    value: int
    old_name: str
    new_name: str


@dataclass(eq=False)
class MemberPresence(Detail):
    """An enumerator added or removed."""

    enum: str
    value: int
    marker: Json | None


@dataclass(eq=False)
class OpcodePresence(Detail):
    """An opcode added or removed."""

    enum: str
    value: int
    marker: Json | None
    json_old: list[str]
    json_new: list[str]
    decodable_old: list[str]
    decodable_new: list[str]


@dataclass(eq=False)
class EnumPresence(Detail):
    members: int
    size: int


@dataclass(eq=False)
class SizeChange(Detail):
    old_size: int
    new_size: int


@dataclass(eq=False)
class ConstantAdded(Detail):
    value: ConstantValue


@dataclass(eq=False)
class ConstantRemoved(Detail):
    value: ConstantValue
    read_by: list[str]


@dataclass(eq=False)
class ConstantChanged(Detail):
    old_value: ConstantValue
    new_value: ConstantValue
    read_by: list[str]


@dataclass(eq=False)
class Retyped(Detail):
    """A constant's type (type_json)."""

    old_type: Json
    new_type: Json


@dataclass(eq=False)
class StructPresence(Detail):
    struct: str
    size: int
    struct_kind: str


@dataclass(eq=False)
class StructKind(Detail):
    struct: str
    old_kind: str
    new_kind: str


@dataclass(eq=False)
class StructSize(Detail):
    struct: str
    old_size: int
    new_size: int


@dataclass(eq=False)
class FieldMoved(Detail):
    struct: str
    field: str
    old_offset: int
    new_offset: int
    old_bit_offset: int | None
    new_bit_offset: int | None


@dataclass(eq=False)
class FieldRetyped(Detail):
    struct: str
    field: str
    old_type: Json  # type_json with the field's dims, bit width and size
    new_type: Json
    via_arm: str  # NEW's type is a union whose arm .via_arm has OLD's type ("" when not)


@dataclass(eq=False)
class FieldRenamed(Detail):
    struct: str
    old_name: str
    new_name: str
    offset: int


@dataclass(eq=False)
class FieldRemoved(Detail):
    struct: str
    field: str
    offset: int
    size: int
    bytes_now: list[str]  # the fields of NEW over its bytes
    bytes_now_reserved: bool


@dataclass(eq=False)
class ReservedRepurposed(Detail):
    struct: str
    field: str
    offset: int
    size: int
    old_owners: list[str]
    type: Json


@dataclass(eq=False)
class FieldAdded(Detail):
    struct: str
    field: str
    offset: int
    size: int
    old_owners: list[str]
    union_arm: bool
    type: Json


@dataclass(eq=False)
class FunctionAdded(Detail):
    calls: list[str]
    section: str


@dataclass(eq=False)
class FunctionRemoved(Detail):
    section: str


@dataclass(eq=False)
class FunctionSignature(Detail):
    old_params: list[Json]
    new_params: list[Json]
    old_returns: str
    new_returns: str
    types_changed: bool


@dataclass(eq=False)
class FunctionChanged(Detail):
    terms: list[Json]
    polarity: str  # positive | negative | mixed
    returns_bool: bool
    effect: str  # stricter | looser | both | none
    mirrors_enum: list[str]  # an enums.h membership table: the enums whose changes it follows


@dataclass(eq=False)
class StaleAppeared(Detail):
    struct: str
    name: str


@dataclass(eq=False)
class StaleDisappeared(Detail):
    struct: str
    name: str
    defined_now: bool


# -- the rules ---------------------------------------------------------------------------------
Verdict = tuple[str, str]  # (class, reason)
D = TypeVar("D", bound=Detail)


def _fixed(cls: str, reason: str) -> Callable[[Detail], Verdict]:
    return lambda _d: (cls, reason)


def _by_decodability(detail: DecodeFacts | BindingFacts) -> Verdict:
    do, dn = detail.decodable_old, detail.decodable_new
    if do and do != dn:
        return "encoding-breaking", f"OLD decodes it as {', '.join(do)}; NEW " + (
            f"as {', '.join(dn)}" if dn else "does not decode it"
        )
    if dn and not do:
        return "additive", f"NEW decodes it as {', '.join(dn)}; OLD did not decode it"
    return (
        "informational",
        "decoding is unchanged (the struct is not defined by the ingested headers on either side)",
    )


def _opcode_added(detail: OpcodePresence) -> Verdict:
    dn = detail.decodable_new
    return "additive", "a new opcode; " + (
        f"NEW decodes it as {', '.join(dn)}" if dn else "no defined struct is bound to it"
    )


def _constant_changed(detail: ConstantChanged) -> Verdict:
    readers = detail.read_by
    if readers:
        shown = ", ".join(readers[:4]) + (
            f" and {len(readers) - 4} more" if len(readers) > 4 else ""
        )
        return (
            "encoding-breaking",
            f"validators read it ({shown}): words OLD accepts may be rejected",
        )
    return (
        "informational",
        "machine geometry no validator reads; the runtime constant's value changes",
    )


def _retyped(detail: FieldRetyped) -> Verdict:
    o, n = detail.old_type, detail.new_type
    if (o["field_size"], o["dims"], o["bit_width"]) != (n["field_size"], n["dims"], n["bit_width"]):
        return "encoding-breaking", "the field's size, shape or bit width changes"
    if (o["kind"] == "float") != (n["kind"] == "float") or (
        o["kind"] in ("int", "enum") and n["kind"] in ("int", "enum") and o["signed"] != n["signed"]
    ):
        return (
            "encoding-breaking",
            "the same bytes read as a different number (signedness or float/int)",
        )
    via = detail.via_arm
    return "api-breaking", "same bytes, different Python type" + (
        f": access moves under .{via}" if via else ""
    )


def _moved(detail: FieldMoved) -> Verdict:
    return (
        "encoding-breaking",
        f"the field's bytes move ({detail.old_offset} -> {detail.new_offset})",
    )


def _field_removed(detail: FieldRemoved) -> Verdict:
    if detail.bytes_now_reserved:
        return (
            "encoding-breaking",
            "its bytes are reserved in NEW: words that set them are no longer meaningful",
        )
    return "api-breaking", "the attribute disappears from the generated struct class"


def _function_changed(detail: FunctionChanged) -> Verdict:
    """The category and reason of a changed predicate: from its effect (stricter, looser, both) and
    polarity (how its callers use it); a membership table that follows enumerator changes is
    informational, since those are findings themselves."""
    eff, pol = detail.effect, detail.polarity
    if detail.mirrors_enum:
        return (
            "informational",
            f"the membership table follows the enumerators added to / removed from {', '.join(detail.mirrors_enum)}, which are findings of their own",
        )
    negated = (
        " (it is only used negated, so its callers move the other way)" if pol == "negative" else ""
    )
    if eff == "stricter":
        return (
            "encoding-breaking",
            f"a stricter validator{negated}: words OLD accepts may be rejected",
        )
    if eff == "both":
        if pol == "mixed" or not detail.returns_bool:
            return (
                "encoding-breaking",
                "the function is used both plainly and negated (or is not a predicate), so any change can reject words OLD accepts",
            )
        return (
            "encoding-breaking",
            f"terms both added and removed{negated}: words OLD accepts may be rejected",
        )
    if eff == "looser":
        return (
            "additive",
            f"a looser validator{negated}: words OLD rejects may be accepted, none OLD accepts is rejected",
        )
    return "informational", "no effect on which words are accepted"


def _signature(detail: FunctionSignature) -> Verdict:
    if detail.types_changed:
        return "api-breaking", "the generated validator's parameter or return types change"
    return "informational", "only parameter names change"


def _field_added(detail: FieldAdded) -> Verdict:
    if detail.union_arm:
        return "additive", "a new arm of the union over the same bytes"
    return "additive", "a new attribute over bytes OLD did not use"


# -- the registry ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Kind(Generic[D]):
    """One kind of finding."""

    name: str  # "field.moved"
    category: str  # one of CATEGORIES
    detail: type[D]  # the type of its detail
    rule: Callable[[D], Verdict]  # its class and the reason, from its detail
    label: str = ""  # what reports call it; "" for the name with its dots and dashes as spaces

    def shown(self) -> str:
        """The kind as a reader sees it: its label, else its name with the separators as spaces."""
        return self.label or self.name.replace(".", " ").replace("-", " ")


_KINDS: tuple[Kind[Any], ...] = (
    Kind("opcode.added", "opcodes", OpcodePresence, _opcode_added),
    Kind(
        "opcode.removed",
        "opcodes",
        OpcodePresence,
        _fixed("encoding-breaking", "OLD decodes words with this opcode; NEW does not define it"),
    ),
    Kind(
        "opcode.renumbered",
        "opcodes",
        OpcodeRenumbered,
        _fixed("encoding-breaking", "the opcode byte for this instruction changes"),
    ),
    Kind(
        "opcode.renamed",
        "opcodes",
        MemberRenamed,
        _fixed("api-breaking", "same byte, the Opcode member's name changes"),
    ),
    Kind(
        "opcode.marker",
        "opcodes",
        MemberMarker,
        _fixed("informational", "the maintenance marker is documentation; decoding is unchanged"),
        "opcode marker changed",
    ),
    Kind("opcode.decodable", "opcodes", DecodeFacts, _by_decodability),
    Kind("opcode.undecodable", "opcodes", DecodeFacts, _by_decodability),
    Kind("enum.added", "enums", EnumPresence, _fixed("additive", "a new enum type")),
    Kind(
        "enum.removed",
        "enums",
        EnumPresence,
        _fixed("api-breaking", "the IntEnum class disappears"),
    ),
    Kind(
        "enum.size",
        "enums",
        SizeChange,
        _fixed("encoding-breaking", "fields of this enum type change size"),
    ),
    Kind(
        "enum.member.added",
        "enums",
        MemberPresence,
        _fixed("additive", "a new enumerator; bytes that were undefined now have a name"),
        "enumerator added",
    ),
    Kind(
        "enum.member.removed",
        "enums",
        MemberPresence,
        _fixed(
            "encoding-breaking",
            "words holding this value decode to a plain int in NEW and fail its enum check",
        ),
        "enumerator removed",
    ),
    Kind(
        "enum.member.renumbered",
        "enums",
        MemberRenumbered,
        _fixed("encoding-breaking", "the byte value of this enumerator changes"),
        "enumerator renumbered",
    ),
    Kind(
        "enum.member.renamed",
        "enums",
        MemberRenamed,
        _fixed("api-breaking", "same value, the IntEnum member's name changes"),
        "enumerator renamed",
    ),
    Kind(
        "enum.member.marker",
        "enums",
        MemberMarker,
        _fixed("informational", "the maintenance marker is documentation"),
        "enumerator marker changed",
    ),
    Kind("constant.added", "constants", ConstantAdded, _fixed("additive", "a new constant")),
    Kind(
        "constant.removed",
        "constants",
        ConstantRemoved,
        _fixed("api-breaking", "the constant disappears from constants.py"),
    ),
    Kind("constant.changed", "constants", ConstantChanged, _constant_changed),
    Kind(
        "constant.retyped",
        "constants",
        Retyped,
        _fixed("informational", "the Python constant is an int either way"),
    ),
    Kind("struct.added", "structs", StructPresence, _fixed("additive", "a new struct class")),
    Kind(
        "struct.removed",
        "structs",
        StructPresence,
        _fixed("api-breaking", "the struct class disappears"),
    ),
    Kind(
        "struct.size",
        "structs",
        StructSize,
        _fixed("encoding-breaking", "the struct's size changes"),
    ),
    Kind(
        "struct.kind",
        "structs",
        StructKind,
        _fixed("encoding-breaking", "struct <-> union: the fields' bytes overlap differently"),
    ),
    Kind("field.added", "structs", FieldAdded, _field_added),
    Kind("field.removed", "structs", FieldRemoved, _field_removed),
    Kind(
        "field.renamed",
        "structs",
        FieldRenamed,
        _fixed("api-breaking", "same bytes, the attribute's name changes"),
    ),
    Kind("field.moved", "structs", FieldMoved, _moved),
    Kind("field.retyped", "structs", FieldRetyped, _retyped),
    Kind(
        "field.reserved-repurposed",
        "structs",
        ReservedRepurposed,
        _fixed(
            "additive", "bytes OLD required to be reserved get a meaning; old words hold 0 there"
        ),
        "reserved bytes repurposed",
    ),
    Kind(
        "function.added",
        "validators",
        FunctionAdded,
        _fixed("additive", "a new validator or helper"),
        "validator added",
    ),
    Kind(
        "function.removed",
        "validators",
        FunctionRemoved,
        _fixed("api-breaking", "the generated validator disappears"),
        "validator removed",
    ),
    Kind("function.changed", "validators", FunctionChanged, _function_changed, "validator changed"),
    Kind(
        "function.signature",
        "validators",
        FunctionSignature,
        _signature,
        "validator signature changed",
    ),
    Kind("binding.bound", "bindings", BindingFacts, _by_decodability, "JSON binding added"),
    Kind("binding.unbound", "bindings", BindingFacts, _by_decodability, "JSON binding removed"),
    Kind("binding.rebound", "bindings", DecodeFacts, _by_decodability, "JSON binding moved"),
    Kind(
        "binding.stale-appeared",
        "bindings",
        StaleAppeared,
        _fixed(
            "informational",
            "a JSON name the enum does not define; decode ignores it (JSON intersected with the enum)",
        ),
        "stale JSON name appeared",
    ),
    Kind(
        "binding.stale-disappeared",
        "bindings",
        StaleDisappeared,
        _fixed("informational", "a stale JSON name is gone"),
        "stale JSON name gone",
    ),
)

KINDS: dict[str, Kind[Any]] = {k.name: k for k in _KINDS}
