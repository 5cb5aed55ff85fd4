"""The part of a generation's text form its readers and writers share (`FormBase`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..addressing import DEFAULT_PARTITION_ADDR_MASK, AddressMap
from ..arms import ArmSettings, choose_arm, is_partition_offset, register
from ..decoding import Decoder
from ..layout import FieldLayout, Struct, Union
from .fields import Leaf, default_bytes, float_text, leaf_of, member_values

# one field's step in `DictWriter._plain_fields_of`: (kind, field, leaf, value, bits)
PlainStep = tuple[str, FieldLayout, "Leaf | None", "Callable[[int], Any] | None", int]


class FormBase:
    """What every reader and writer of one generation's text form shares: the decoder, the
    address geometry, the headers' indirect markers, how a field's value is shown
    (`_formatter`) and which arm a union shows (`_choose_arm`)."""

    def __init__(
        self,
        decoder: Decoder,
        constants: Mapping[str, Any] | None = None,
        geometry: Mapping[str, int] | None = None,
    ) -> None:
        self.decoder = decoder
        self.opcodes = decoder.opcodes
        self.addresses: AddressMap | None = None
        if geometry:
            try:
                self.addresses = AddressMap(geometry)
            except ValueError:
                self.addresses = None
        consts = dict(constants or {})
        self._indirect_markers = frozenset(
            int(v) for k, v in consts.items() if "MARKER_INDIRECT" in k and isinstance(v, int)
        )
        self._mnemonics = member_values(self.opcodes)
        self._arm_settings = ArmSettings(
            self.addresses.mask if self.addresses else DEFAULT_PARTITION_ADDR_MASK,
            self._indirect_markers,
        )
        register(decoder.structs.values(), self._arm_settings)
        self._formatters: dict[int, Callable[[int], str]] = {}
        # the per-word writer's plans (`disasm._Plan`): by opcode, and by union arm at its place
        self._word_plans: dict[int, Any] = {}
        self._arm_plans: dict[tuple[int, int, int], Any] = {}
        self._memo_list: list[dict[Any, tuple[str, int]]] = []  # the steps' memos
        self._plainers: dict[int, Callable[[int], Any]] = {}
        self._plans: dict[tuple[type[Any], int, bool], list[PlainStep]] = {}

    def _base(self, cls: type[Struct], opcode: int) -> bytearray:
        out = bytearray(default_bytes(cls))
        out[0] = opcode
        return out

    def _formatter(self, f: FieldLayout) -> Callable[[int], str]:
        """How one element of a scalar field is shown (built once per field)."""
        fmt = self._formatters.get(id(f))
        if fmt is not None:
            return fmt
        es = leaf_of(f).es
        if f.kind == "float":

            def fmt(v: int) -> str:
                return float_text(v, es)

        elif f.kind == "enum":
            names = {int(m): m.name for m in f.cls}

            def fmt(v: int) -> str:
                return names.get(v) or hex(v)

        elif f.kind == "bool":

            def fmt(v: int) -> str:
                return "true" if v == 1 else "false" if v == 0 else str(v)

        elif is_partition_offset(f) and self.addresses is not None:
            locate = self.addresses.try_locate

            def fmt(v: int) -> str:
                loc = locate(v)
                return str(loc) if loc is not None else hex(v)

        elif is_partition_offset(f):
            fmt = hex
        else:
            fmt = str
        self._formatters[id(f)] = fmt
        return fmt

    def _choose_arm(
        self, u: type[Union], name: str, b: bytes, base: int, siblings: Mapping[str, Any]
    ) -> FieldLayout:
        s = self._arm_settings
        return choose_arm(u, name, b, base, siblings, s.mask, s.indirect_markers)
