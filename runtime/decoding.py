"""Decoding and validating instruction words, for any generation: the generated modules supply
the tables (the struct bound to each opcode, the validators responsible for each opcode) and
bind these classes' methods as their module functions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NoReturn

from .codec import DecodeError, Word, as_bytes, int_arg
from .enums import InfoEnum

WORD_SIZE = 64


@dataclass(frozen=True)
class OpcodeStatus:
    opcode: int
    name: str  # the Opcode member name, "" when the enum does not define the value
    defined: bool
    decodable: bool
    maintained: bool | None  # None when the header comment has no maintenance marker
    note: str  # e.g. "use TensorScalarArithOp instead"
    struct: str  # the class it decodes to, or the outside struct's C name, "" when unbound
    aliases: tuple[
        str, ...
    ] = ()  # the value's other C names, its alias enumerators (enums.set_info)
    # what the drop's firmware overlay says the device does with it ("working", "stub",
    # "absent"), "" when the drop has no overlay or the overlay says nothing about the opcode
    firmware: str = ""
    firmware_note: str = ""


class Decoder:
    """Decode one generation's words: the struct bound to the opcode byte.

    `structs` is instruction_mapping.json intersected with the OPCODE enum; `outside` the opcodes
    bound to a struct no ingested header defines (known, not decodable)."""

    def __init__(
        self,
        generation: str,
        opcodes: type[IntEnum],
        structs: Mapping[int, type[Any]],
        outside: Mapping[int, str],
        firmware: Mapping[int, tuple[str, str]] | None = None,
    ) -> None:
        self.generation = generation
        self.opcodes = opcodes
        self.structs = structs
        self.outside = outside
        self.firmware = dict(firmware or {})  # opcode -> (state, note), from firmware_status.json

    def decodable(self, opcode: int) -> bool:
        """True when this generation's OPCODE enum defines the value and binds it to an ingested
        struct. TypeError for an `opcode` that is no integer, ValueError outside 0..255."""
        return int_arg(opcode, "opcode", 0, 255) in self.structs

    def status(self, opcode: int) -> OpcodeStatus:
        """What this generation says about an opcode byte: its name, whether the OPCODE enum
        defines it and it decodes, its maintenance marker and note, the struct it is bound to,
        and what the drop's firmware overlay says about it."""
        opcode = int_arg(opcode, "opcode", 0, 255)
        try:
            op = self.opcodes(opcode)
        except ValueError:
            return OpcodeStatus(opcode, "", False, False, None, "", "")
        cls = self.structs.get(opcode)
        struct = cls.__name__ if cls is not None else self.outside.get(opcode, "")
        maintained, note, aliases = (
            (op.info.maintained, op.info.note, op.info.aliases)
            if isinstance(op, InfoEnum)
            else (None, "", ())
        )
        fw, fw_note = self.firmware.get(opcode, ("", ""))
        return OpcodeStatus(
            opcode, op.name, True, cls is not None, maintained, note, struct, aliases, fw, fw_note
        )

    def decode(self, word: Word) -> Any:
        """The instruction as the struct bound to its opcode byte; DecodeError when it has none."""
        b = as_bytes(word)
        if len(b) != WORD_SIZE:
            raise DecodeError(f"word: a TPB instruction word is 64 bytes, this one has {len(b)}")
        cls = self.structs.get(b[0])
        if cls is None:
            st = self.status(b[0])
            gen = self.generation
            if not st.defined:
                raise DecodeError(f"opcode {b[0]:#04x} is not defined by the {gen} OPCODE enum")
            if st.struct:
                raise DecodeError(
                    f"opcode {b[0]:#04x} ({st.name}) is bound to {st.struct}, "
                    f"which the ingested {gen} headers do not define"
                )
            raise DecodeError(
                f"opcode {b[0]:#04x} ({st.name}) is bound to no struct in instruction_mapping.json"
            )
        return cls.from_bytes(b)


class UntranslatedPredicate(NotImplementedError):
    """A validity predicate whose C body is outside what tpbgen translates was reached: the word
    needs it to be judged, and the Python runtime will not guess. `function`, `where` (the header's
    `file:line`) and `reason` say which and why; the C backend, or the header compiled by a C
    compiler, can decide the word."""

    def __init__(self, function: str, where: str, reason: str) -> None:
        super().__init__(
            f"{function} ({where}) is outside what tpbgen translates ({reason}): "
            "this word needs it; decide it with the C backend or the header's own C"
        )
        self.function = function
        self.where = where
        self.reason = reason


def untranslated(function: str, where: str, reason: str) -> Callable[..., NoReturn]:
    """The stand-in for an untranslated predicate (scalar, explain and batch alike): it raises."""

    def stub(*_args: object) -> NoReturn:
        raise UntranslatedPredicate(function, where, reason)

    stub.__name__ = function
    return stub


Check = Callable[[bytes, int], Any]  # a translated top-level validator: (word, offset) -> bool
Explain = Callable[[bytes, int], str | None]  # why it rejects the word, None when it accepts


class Validators:
    """`validate` / `explain` / `validators_for` over one generation's top-level validators.

    `top` maps each top-level validator to (check, explain); `dispatch` each opcode to the
    validators whose opcode gate admits it."""

    def __init__(
        self,
        generation: str,
        top: Mapping[str, tuple[Check, Explain]],
        dispatch: Mapping[int, tuple[str, ...]],
        c: Any = None,
    ) -> None:
        self.generation = generation
        self.top = top
        self.dispatch = dispatch
        self.c = c  # the compiled headers (cvalidators.CValidators), for backend="c"/"auto"

    def by_opcode(self) -> tuple[tuple[Check, ...], ...]:
        """For each opcode byte (256 entries), the checks `validate` runs on a word of it, in
        its order: the batch's words go through them without `validate`'s argument checks."""
        return tuple(tuple(self.top[n][0] for n in self.dispatch.get(op, ())) for op in range(256))

    def validators_for(self, opcode: int) -> tuple[str, ...]:
        """The top-level validators responsible for an opcode (empty when the headers give none)."""
        return self.dispatch.get(int_arg(opcode, "opcode", 0, 255), ())

    def validate(self, word: Word, backend: str = "python") -> bool:
        """True when a top-level validator responsible for the word's opcode accepts it.
        `backend`: "python" (the translated scalar code), "c" (the headers compiled), "auto"."""
        b = as_bytes(word)
        if len(b) != WORD_SIZE:
            return False
        return bool(self.checker(backend)(b))

    def checker(self, backend: str = "python") -> Callable[[bytes], Any]:
        """`validate` of a 64-byte word as one call (truthy when accepted), its backend resolved
        now: for a caller that checks word after word and has checked their length."""
        if backend not in ("python", "auto", "numpy", "c"):
            raise ValueError(f"backend is one of auto, c, numpy, python, not {backend!r}")
        if backend != "python" and self.c is not None and self.c.resolve(backend) == "c":
            check: Callable[[bytes], Any] = self.c.checker()
            return check
        if backend == "c":
            raise RuntimeError(f"backend 'c': {self.generation} ships no C validators")
        return self._scalar_check

    def _scalar_check(self, b: bytes) -> bool:
        return any(self.top[n][0](b, 0) for n in self.dispatch.get(b[0], ()))

    def explain(self, word: Word) -> str:
        """ "" for an accepted word; otherwise why not: the failing predicates down the call tree,
        with the values of the fields they read."""
        b = as_bytes(word)
        if len(b) != WORD_SIZE:
            return f"a TPB instruction word is 64 bytes, this one has {len(b)}"
        names = self.dispatch.get(b[0], ())
        if not names:
            return (
                f"no validator in the {self.generation} headers is responsible for opcode "
                f"{b[0]:#04x}"
            )
        reasons = []
        for n in names:
            why = self.top[n][1](b, 0)
            if why is None:
                return ""
            reasons.append(why)
        return "; ".join(reasons)
