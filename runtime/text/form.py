"""A generation's text form (`TextForm`): the per-word writers and readers (`disasm`, `to_dict`,
the per-line `asm`), and the batch paths a listing or a long text takes (`batch_disasm`,
`batch_asm`), which give byte for byte what the per-word ones give."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ..decoding import WORD_SIZE, Decoder
from .batch_asm import _FAST_MIN_LINES, _FastAsm, _has_lines
from .batch_disasm import _BatchText
from .dicts import DictWriter, field_texts
from .disasm import Disassembler
from .grammar import AsmError
from .lines import LineReader


class TextForm(Disassembler, LineReader, DictWriter):
    """`disasm`, `asm`, `to_dict` and `from_dict` for one generation."""

    def __init__(
        self,
        decoder: Decoder,
        constants: Mapping[str, Any] | None = None,
        geometry: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__(decoder, constants, geometry)
        self._batch: _BatchText | None = None
        self._fast: _FastAsm | None = None

    def disasm_rows(
        self, words: np.ndarray[Any, np.dtype[np.uint8]], *, compact: bool = False
    ) -> Iterator[str]:
        """`disasm` of each row of an (N, 64) uint8 array, in order, the same text word for
        word; made a batch of rows at a time over numpy columns (`_BatchText`), so a listing
        costs a few microseconds a word. The command-line listing reads its text here."""
        if self._batch is None:
            self._batch = _BatchText(self)
        return self._batch.rows(words, compact)

    def asm(self, text: str) -> bytes:
        """The words of `text`, one per non-empty line, concatenated (64 bytes each)."""
        few = self._few(text)
        return b"".join(few) if few is not None else self._assemble(text).tobytes()

    def asm_lines(self, text: str) -> list[bytes]:
        """One 64-byte word per instruction line of `text` (blank and comment lines skipped).
        A line of a `disasm` listing reads as its instruction: a leading `OFFSET:` column and
        a column of the word's 128 hex digits are skipped (see `listing_columns`)."""
        few = self._few(text)
        if few is not None:
            return few
        b = self._assemble(text).tobytes()
        return [b[i : i + WORD_SIZE] for i in range(0, len(b), WORD_SIZE)]

    def _few(self, text: str) -> list[bytes] | None:
        """The words of a text of fewer than `_FAST_MIN_LINES` lines, a line at a time: a line
        in `disasm`'s spelling by the batch reader's expressions (`_FastAsm.line`), every
        other line by `_asm_line` (which gives every error); None for a longer text."""
        if not isinstance(text, str):
            raise TypeError(f"text: assembly is a str, not {type(text).__name__}")
        if _has_lines(text, _FAST_MIN_LINES):
            return None
        if self._fast is None:
            self._fast = _FastAsm(self)
        line_word = self._fast.line
        words = []
        for i, line in enumerate(text.split("\n"), 1):
            word = line_word(line)
            if word is None:
                word = self._asm_line(line, i)
            if word is not None:
                words.append(word)
        return words

    def _assemble(self, text: str) -> np.ndarray[Any, np.dtype[np.uint8]]:
        """The (N, 64) words of `text`: the lines in the text `disasm` writes go through
        `_FastAsm` (a batch over the lines, or a line at a time for a few: `_few`), every
        other line through `_asm_line`, and an error is the first bad line's, located as
        `_asm_line` locates it."""
        few = self._few(text)  # numpy's fixed costs outweigh a few lines' parse
        if few is not None:
            return np.frombuffer(b"".join(few), dtype=np.uint8).reshape(-1, WORD_SIZE)
        if self._fast is None:
            self._fast = _FastAsm(self)
        fast = self._fast
        # a long text a batch of lines at a time, in order (the first bad line's error is the
        # first raised): the tables of a batch's distinct texts stay small
        batches, declined, scanned, first = [], 0, 0, 0
        for lines in fast.batches(text):
            batches.append(fast.assemble(lines, first))
            declined += fast.declined
            scanned += fast.scanned
            first += len(lines)
        fast.declined, fast.scanned = declined, scanned
        return batches[0] if len(batches) == 1 else np.concatenate(batches)

    def from_dict(self, data: Mapping[str, Any]) -> bytes:
        """The word a `to_dict` result (or a hand-written one of the same shape) describes; the
        "hex" of a decodable opcode is ignored, the fields decide. TypeError for `data` that is
        no mapping; AsmError (a ValueError) located by JSON pointer for what it cannot read."""
        if not isinstance(data, Mapping):
            raise TypeError(f"data: a mapping (to_dict's shape), not {type(data).__name__}")
        if data.get("opcode") is None:
            try:
                raw = bytes.fromhex(str(data.get("hex", "")))
            except ValueError:
                raise AsmError("hex is not hexadecimal", "/hex") from None
            if len(raw) != WORD_SIZE:
                raise AsmError(f"an undecodable word needs its {WORD_SIZE} bytes as hex", "/hex")
            return raw
        fields = data.get("fields", {})
        if not isinstance(fields, Mapping):
            raise AsmError("fields must be an object", "/fields")
        return self.asm(" ".join([str(data["opcode"]), *field_texts(fields)]))
