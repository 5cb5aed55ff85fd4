"""The numeric switches of the executor: one frozen, documented `Numerics` object.

Every choice the public documentation leaves open is a field here, with the default we use and the
source of that default (section numbers refer to the spec shelf's ``semantics.md``). Choices that
are open but are *not* switches (NaN bit patterns, NaN handling of max/min, shift amounts at or
beyond the width, ABS_MAX's sign, ...) are fixed by the executor and listed in the generated
README's executor section.

| field | values | default | source of the default |
|---|---|---|---|
| ``rounding`` | ``"rne"``, ``"stochastic"`` | ``"rne"`` | §3.5: RNE is the default on every NeuronCore generation (DOC-RND, DOC-DT) |
| ``seed`` | int in [0, 2**64) | ``0`` | §3.5: ``NEURON_RT_STOCHASTIC_ROUNDING_SEED`` defaults to 0 (DOC-RND) |
| ``fp8_e4m3`` | ``"ieee"`` (max 240, has Inf), ``"ocp"`` (e4m3fn, max 448, no Inf) | ``"ieee"``; a generation's ``NUMERICS`` says ``"ocp"`` from core version NC-v4 on (its headers' banner; mariana, maverick) | §3.3: DOC-FP8 (Trn2 E4M3 max 240, Trn3 E4M3FN 448); NC-v5 follows NC-v4 (INFERRED) |
| ``fp8_overflow`` | ``"inf_nan"``, ``"saturate"`` | ``"inf_nan"`` | §3.5 / §8 C4: AWS's range_select note says the hardware downcast is non-saturating |
| ``float_to_int`` | ``"rne_saturate"``, ``"truncate"`` | ``"rne_saturate"`` | §3.5 / §8 C3: the compiler's CastToNewDType (RNE, then saturate) |
| ``fp32r_mantissa_bits`` | 1..22 | ``11`` | §3.4 / §8 C5: the compiler's ``cast_fp32_to_fp32r`` keeps 11 explicit bits |

Stochastic rounding uses a counter-based generator (splitmix64 over seed, instruction number and
output element index), identical in the numpy and the C backend. It is *not* the device's RNG
(§9.5 leaves that open), so stochastic results are reproducible here but not device-exact.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

Rounding = Literal["rne", "stochastic"]
Fp8E4M3Variant = Literal["ieee", "ocp"]
Fp8Overflow = Literal["inf_nan", "saturate"]
FloatToInt = Literal["rne_saturate", "truncate"]


@dataclass(frozen=True)
class Numerics:
    """Numeric behaviour of the executor where the shelf leaves a choice.

    Attributes:
        rounding: ``"rne"`` (round to nearest, ties to even) or ``"stochastic"`` for every
            float output narrower than the fp32 hub (bf16, fp16, fp8, FP32R).
        seed: seed of the stochastic-rounding stream (ignored for ``"rne"``).
        fp8_e4m3: meaning of dtype code 0x0E FP8_EXP4: ``"ieee"`` is IEEE-like E4M3 (bias 7,
            +-Inf at S.1111.000, max finite 240, ml_dtypes ``float8_e4m3``); ``"ocp"`` is OCP
            e4m3fn (no Inf, NaN S.1111.111, max finite 448, ml_dtypes ``float8_e4m3fn``).
        fp8_overflow: what a finite value (or an Inf) that rounds beyond the fp8 format's largest
            finite value becomes: ``"inf_nan"`` gives +-Inf where the format has Inf and NaN
            where it does not (e4m3fn); ``"saturate"`` gives +-max finite. NaN stays NaN.
        float_to_int: fp32 -> integer output conversion: ``"rne_saturate"`` rounds to nearest
            even then clamps to the type's range (NaN -> the type's maximum); ``"truncate"``
            rounds toward zero then clamps (NaN -> 0).
        fp32r_mantissa_bits: explicit mantissa bits kept by an FP32R (0x0B) output; the fp32
            result is rounded onto that grid and stored as an fp32 bit pattern.
    """

    rounding: Rounding = "rne"
    seed: int = 0
    fp8_e4m3: Fp8E4M3Variant = "ieee"
    fp8_overflow: Fp8Overflow = "inf_nan"
    float_to_int: FloatToInt = "rne_saturate"
    fp32r_mantissa_bits: int = 11

    def __post_init__(self) -> None:
        if self.rounding not in ("rne", "stochastic"):
            raise ValueError(
                f"Numerics.rounding must be 'rne' or 'stochastic', not {self.rounding!r}"
            )
        if not isinstance(self.seed, int) or not 0 <= self.seed < 2**64:
            raise ValueError(f"Numerics.seed must be an int in [0, 2**64), not {self.seed!r}")
        if self.fp8_e4m3 not in ("ieee", "ocp"):
            raise ValueError(f"Numerics.fp8_e4m3 must be 'ieee' or 'ocp', not {self.fp8_e4m3!r}")
        if self.fp8_overflow not in ("inf_nan", "saturate"):
            raise ValueError(
                f"Numerics.fp8_overflow must be 'inf_nan' or 'saturate', not {self.fp8_overflow!r}"
            )
        if self.float_to_int not in ("rne_saturate", "truncate"):
            raise ValueError(
                "Numerics.float_to_int must be 'rne_saturate' or 'truncate', "
                f"not {self.float_to_int!r}"
            )
        if not isinstance(self.fp32r_mantissa_bits, int) or not 1 <= self.fp32r_mantissa_bits <= 22:
            raise ValueError(
                f"Numerics.fp32r_mantissa_bits must be an int in 1..22, not {self.fp32r_mantissa_bits!r}"
            )

    def with_(self, **changes: object) -> Numerics:
        """A copy with some fields changed (validated like the constructor)."""
        return replace(self, **changes)  # type: ignore[arg-type]
