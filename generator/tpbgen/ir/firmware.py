"""What a drop's firmware overlay says (read by frontend/firmware.py, rendered by emit/ and shown
by the audit): per generation, the firmware state of an opcode beside the headers' `// Y`/`// n`."""

from __future__ import annotations

from dataclasses import dataclass

FIRMWARE_STATES = ("working", "stub", "absent")


@dataclass(frozen=True)
class FirmwareFact:
    opcode: int
    name: str  # the full enumerator name, as the overlay spells it
    firmware: str  # one of FIRMWARE_STATES
    note: str


@dataclass(frozen=True)
class FirmwareOverlay:
    path: str  # as diagnostics show it
    sha256: str
    by_gen: dict[str, tuple[FirmwareFact, ...]]  # sorted by opcode

    def facts(self, gen: str) -> dict[int, FirmwareFact]:
        """The overlay's facts for generation `gen`, by opcode ({} when it names none)."""
        return {f.opcode: f for f in self.by_gen.get(gen, ())}

    def states(self) -> dict[str, dict[int, tuple[str, str]]]:
        """Per generation: opcode -> (firmware state, note), as the audit shows them."""
        return {g: {f.opcode: (f.firmware, f.note) for f in fs} for g, fs in self.by_gen.items()}
