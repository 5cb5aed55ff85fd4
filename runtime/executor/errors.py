"""Errors raised by the executor. Every one of them is raised before any state changes."""

from __future__ import annotations

from .. import addressing


class ExecutorError(Exception):
    """Base class: the instruction was not executed and the machine state is untouched.

    ``index`` is the failing instruction's position when ``run_program`` raised it."""

    index: int | None = None


class InvalidInstructionError(ExecutorError):
    """The word does not decode on this generation, or the generated validators reject it.

    ``explanation`` holds :func:`explain`'s answer (empty when the word did not decode).
    """

    def __init__(self, message: str, explanation: str = "") -> None:
        super().__init__(message)
        self.explanation = explanation


class UnsupportedError(ExecutorError):
    """The instruction is valid, but its semantics are not pinned well enough to execute honestly
    (or the executor does not model the feature it uses)."""


class AddressError(ExecutorError, addressing.AddressError):
    """An access falls outside the active SBUF/PSUM bytes, or is misaligned."""
