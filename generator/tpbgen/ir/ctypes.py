"""The C scalar types, once: every spelling of each (LP64, as GCC and Clang lay it out on x86-64
Linux, the modelled target) and the <stdint.h> names. The front end types fields and typedefs with
it; the translator types locals, casts and parameters with it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Scalar:
    kind: Literal["int", "float", "bool", "void"]
    canon: str  # int8 .. uint64, float32, float64, bool, void
    size: int
    signed: bool


# Plain `char` is signed on the modelled target (the x86-64 psABI; GCC's and Clang's default
# there): a `char` holds -128..127 and the character constant '\377' is -1. (AArch64 Linux makes
# it unsigned; verify-cc checks the compiler at hand agrees.)
PLAIN_CHAR_SIGNED = True


def _int(canon: str) -> Scalar:
    return Scalar("int", canon, int(canon.lstrip("uint")) // 8, not canon.startswith("u"))


def _spellings() -> dict[tuple[str, ...], Scalar]:
    table: dict[tuple[str, ...], Scalar] = {}

    def add(words: str, s: Scalar) -> None:
        table[tuple(sorted(words.split()))] = s

    add("char", _int("int8" if PLAIN_CHAR_SIGNED else "uint8"))
    add("signed char", _int("int8"))
    add("unsigned char", _int("uint8"))
    for base, bits in (("short", 16), ("int", 32), ("long", 64), ("long long", 64)):
        forms = [base] if base == "int" else [base, f"{base} int"]
        for f in forms:
            add(f, _int(f"int{bits}"))
            add(f"signed {f}", _int(f"int{bits}"))
            add(f"unsigned {f}", _int(f"uint{bits}"))
    add("signed", _int("int32"))
    add("unsigned", _int("uint32"))
    add("_Bool", Scalar("bool", "bool", 1, False))
    add("float", Scalar("float", "float32", 4, True))
    add("double", Scalar("float", "float64", 8, True))
    add("void", Scalar("void", "void", 0, False))
    return table


SPELLINGS = _spellings()

# <stdint.h> and <stddef.h> names (tpbgen's stand-in libc declares them as typedefs too; the
# translator knows them without one).
STDINT = {
    **{f"{u}int{b}_t": _int(f"{u}int{b}") for u in ("", "u") for b in (8, 16, 32, 64)},
    "size_t": _int("uint64"),
    "ptrdiff_t": _int("int64"),
    "intptr_t": _int("int64"),
    "uintptr_t": _int("uint64"),
}

# Spellings a header may use that tpbgen does not model: refused by name.
UNSUPPORTED = {("double", "long"): "long double (80-bit x87 / 128-bit) is not modelled"}


def scalar(words: Iterable[str]) -> Scalar | None:
    """The scalar a list of C type specifiers names (qualifiers ignored), or None."""
    key = tuple(sorted(w for w in words if w not in ("const", "volatile", "restrict")))
    return SPELLINGS.get(key)


def canon_scalar(canon: str) -> Scalar:
    """The scalar of a canonical name (`uint16`, `float32`...)."""
    for s in SPELLINGS.values():
        if s.canon == canon:
            return s
    raise KeyError(canon)
