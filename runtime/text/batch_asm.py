"""The batch reader of the text form: `asm` over many lines (`_FastAsm`), a line in `disasm`'s own
spelling split into its fields' texts (by a mnemonic's expressions, or at its blanks by the C
text scanner where it is built), each distinct text read once (`asm_cells`); every other line,
and every error, the per-line reader's."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, count
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..decoding import WORD_SIZE
from ..layout import Struct
from ..textscan import Scan, scans
from .asm_cells import _FAIL, _Body, _Cell, _Numbers, _put
from .fields import is_union
from .grammar import CHUNK, END, HEAD, LEAF, OVERRIDES, WORD_TAIL, AsmError, Tokens

if TYPE_CHECKING:
    from .form import TextForm

_SAMPLE = 8  # a line in this many that `fixed` did not match is counted (`_Statement.learn`)
_SKELETONS = 64  # a mnemonic's skeletons counted (`_Statement.learn`); fewer are compiled
_SPLIT_MIN = 4 * _SAMPLE  # a skeleton's lines counted before they are split (`_Skeleton.split`)
_FAST_MIN_LINES = 32  # fewer lines are read by the per-line parser alone
_FAST_LINES = 8192  # lines `_FastAsm.assemble` reads at once
_LINE_MEMO = 1 << 14  # the (column, text) deltas `_Statement.line` keeps
_SCANNED_SHARE = 0.25  # the lines the text scanner must split for it to be used (`batches`)


def _line_end(text: str, start: int, lines: int) -> int:
    """Where the `lines` lines of `text` from `start` on end: the newline after the last of
    them, or the text's end if it has no more."""
    at = start - 1
    for _ in range(lines):
        at = text.find("\n", at + 1)
        if at < 0:
            return len(text)
    return at


def _has_lines(text: str, n: int) -> bool:
    """Whether `text` has `n` lines or more (`n - 1` newlines), looking no further."""
    return _line_end(text, 0, n - 1) < len(text)


def _split_lines(text: str, start: int) -> Iterator[list[str]]:
    """The lines of `text` from `start` on, split in Python, `_FAST_LINES` at a time."""
    lines = (text[start:] if start else text).split("\n")
    if len(lines) <= _FAST_LINES:
        yield lines
        return
    for first in range(0, len(lines), _FAST_LINES):
        yield lines[first : first + _FAST_LINES]


class _Split:
    """A skeleton's lines split at their blanks (`_Skeleton.split`): `width` tokens, the
    mnemonic and then one a column, the columns `at`, each token's text read through its
    expression `tokens[q]` (its literal text, so many characters before and after the
    column's text, and the expressions of one token and of tokens joined by `;`)."""

    __slots__ = ("at", "skeleton", "tokens", "width")

    def __init__(self, skeleton: _Skeleton, at: list[int], tokens: list[_Token]) -> None:
        self.skeleton, self.width, self.at, self.tokens = skeleton, len(at) + 1, at, tokens


class _Token:
    """A token holding a column's group between literal pieces (`_Skeleton.split`): `one`
    matches a token of it (group 1: the column's text), `joined` tokens of it joined by `;`
    (which neither the pieces nor a group hold, so it matches iff each token does), the
    column's text then the token less `before` and `after` characters."""

    __slots__ = ("after", "before", "joined", "one")

    def __init__(self, before: str, group: str, after: str) -> None:
        self.before, self.after = len(before), len(after)
        token = f"{re.escape(before)}(?:{group}){re.escape(after)}"
        self.one = re.compile(rf"{re.escape(before)}({group}){re.escape(after)}\Z").match
        self.joined = re.compile(rf"{token}(?:;{token})*\Z").match


class _Placed:
    """Lines of one `_Split`, their tokens after the mnemonic as ids of (place, text) pairs:
    `code[r, q]` is the id of row r's token q + 1 (line `at[r]`); equal ids are equal pairs,
    every id is below `size`, `places` gives ids' places and `texts` their texts. Made from
    the tokens `line.split(" ")` gives (`split`) or the text scanner's ids (`scanned`)."""

    __slots__ = ("at", "code", "places", "size", "texts")

    def __init__(
        self,
        at: np.ndarray[Any, np.dtype[np.intp]],
        code: np.ndarray[Any, np.dtype[np.integer[Any]]],
        size: int,
        places: Callable[[np.ndarray[Any, np.dtype[np.intp]]], np.ndarray[Any, Any]],
        texts: Callable[[np.ndarray[Any, np.dtype[np.intp]]], list[str]],
    ) -> None:
        self.at, self.code, self.size, self.places, self.texts = at, code, size, places, texts

    @staticmethod
    def split(split: _Split, lines: list[int], tokens: list[list[str]]) -> _Placed:
        """Lines `lines` split into `tokens` (each `split.width` long, the mnemonic first):
        a token's id is its place less one times the number of distinct texts plus its
        text's index among them."""
        n, width = len(tokens), split.width
        tid: defaultdict[str, int] = defaultdict(count().__next__)
        tx = np.fromiter(
            map(tid.__getitem__, chain.from_iterable(tokens)), dtype=np.intp, count=n * width
        ).reshape(n, width)
        keys = list(tid)
        k = len(keys)
        code = tx[:, 1:] + np.arange(0, (width - 1) * k, k, dtype=np.intp)

        def texts(used: np.ndarray[Any, np.dtype[np.intp]]) -> list[str]:
            return [keys[u] for u in (used % k).tolist()]

        return _Placed(
            np.asarray(lines, dtype=np.intp), code, (width - 1) * k, lambda u: u // k + 1, texts
        )

    @staticmethod
    def scanned(scan: Scan, lines: np.ndarray[Any, np.dtype[np.intp]], width: int) -> _Placed:
        """Lines `lines` of `scan`, each of `width` tokens: a token's id is the scanner's."""
        code = scan.tokens[scan.starts[lines][:, None] + np.arange(1, width, dtype=np.int32)]
        return _Placed(lines, code, len(scan.places), scan.places.__getitem__, scan.texts)


class _Statement:
    """The lines of one mnemonic in `disasm`'s spelling: one compiled expression over its
    struct's fields (`_Body`), the skeletons its lines have had (`learn`), and the words of
    the rows they matched."""

    __slots__ = (
        "body",
        "cells",
        "columns",
        "common",
        "credited",
        "fixed",
        "groups",
        "lines",
        "missed",
        "opcode",
        "plans",
        "rx",
        "skeletons",
        "splits",
        "word",
        "word64",
    )

    def __init__(self, fast: _FastAsm, cls: type[Struct], opcode: int) -> None:
        self.opcode = opcode
        word = bytes(fast.form._base(cls, opcode))
        self.word = np.frombuffer(word, dtype=np.uint8)
        self.word64 = np.frombuffer(word, dtype="<u8")
        self.body = _Body(fast, cls, 0, True, int.from_bytes(word, "little"))
        self.columns: list[tuple[_Body, int, int, int]] = []
        over = rf"(?: {OVERRIDES})?"
        self.rx = re.compile(self.body.flat(" ", self.columns) + over + END)
        self.plans = [_Numbers.of(body, j) for body, j, _, _ in self.columns]
        self.cells = [_Cell.of(body, j, lo, hi) for body, j, lo, hi in self.columns]
        # each column's group as `rx` spells it, without its parentheses (a union's name too:
        # `_compile` narrows its group), the overrides' last
        self.groups: list[tuple[str, str]] = []
        for body, j, _, _ in self.columns:
            f = body.fields[j]
            name = re.escape(f.name)
            if f.kind != "struct":
                self.groups.append((rf"{name}={LEAF}", ""))
            else:
                union = f.name if is_union(f) else ""
                self.groups.append((rf"{name}(?:\.[A-Za-z_]\w*)?={CHUNK}", union))
        self.groups.append((OVERRIDES[1:-1], ""))
        self.fixed: re.Pattern[str] | None = None  # the commonest skeleton's (`learn`)
        # the skeletons whose lines are split at their blanks, by their number of tokens
        self.splits: dict[int, _Split] = {}
        self.common: _Skeleton | None = None
        self.missed = 0  # lines `fixed` did not match (`learn`)
        self.credited = 0  # `missed` at the last `credit`
        self.skeletons: dict[tuple[str | None, ...], _Skeleton] = {}
        # each (column, text) a single line gave, and its delta (`line`): kept across calls
        self.lines: dict[tuple[int, str], int] = {}

    def read(
        self,
        form: TextForm,
        lines: Sequence[str],
        gathered: _Gathered,
        slow: list[int],
    ) -> tuple[np.ndarray[Any, np.dtype[np.intp]], np.ndarray[Any, np.dtype[np.uint8]]]:
        """The lines a call gathered for the statement (`_FastAsm.assemble`) and their words;
        the lines the parser must read instead are added to `slow`. A line split for a
        skeleton (`split`) whose tokens are not all of it is matched by the expressions."""
        _, at_lines, rows, splits, placed = gathered
        # every text of a column, from any row, gets its id in one dictionary
        ids: defaultdict[str | None, int] = defaultdict(count().__next__)
        none = ids[None]
        blocks: list[np.ndarray[Any, np.dtype[np.intp]]] = []
        where: list[np.ndarray[Any, np.dtype[np.intp]]] = []
        buckets = [(split, _Placed.split(split, *bucket)) for split, bucket in splits.items()]
        for split, tokens in chain(placed, buckets):
            texts, other = self._split_ids(split, tokens, ids)
            at = tokens.at
            for i in at[other].tolist():  # not of the skeleton: its expression reads it
                line = lines[i]
                h = HEAD.match(line)  # the mnemonic's end, after any listing columns
                got = self.match(line, h.end()) if h is not None else None
                if got is None:
                    slow.append(i)
                    continue
                at_lines.append(i)
                rows.append(got)
            if other.any():
                keep = ~other
                texts, at = texts[keep], at[keep]
            ix = np.full((texts.shape[0], len(self.columns) + 1), none, dtype=np.intp)
            ix[:, split.at] = texts
            blocks.append(ix)
            where.append(at)
            split.skeleton.lines += ix.shape[0]
        self.credit(len(rows))
        if rows:
            n = len(rows)
            ix = np.fromiter(
                map(ids.__getitem__, chain.from_iterable(rows)),
                dtype=np.intp,
                count=n * (len(self.columns) + 1),
            ).reshape(n, -1)
            blocks.append(ix)
            where.append(np.asarray(at_lines, dtype=np.intp))
        if not blocks:
            return np.zeros(0, dtype=np.intp), np.zeros((0, WORD_SIZE), dtype=np.uint8)
        ix = blocks[0] if len(blocks) == 1 else np.concatenate(blocks)
        at = where[0] if len(where) == 1 else np.concatenate(where)
        W, bad = self.words(form, ix, list(ids))
        if bad.any():
            slow += at[bad].tolist()
            at, W = at[~bad], W[~bad]
        return at, W

    def _split_ids(
        self, split: _Split, tokens: _Placed, ids: defaultdict[str | None, int]
    ) -> tuple[np.ndarray[Any, np.dtype[np.intp]], np.ndarray[Any, np.dtype[np.bool_]]]:
        """The ids (in `ids`) of the column texts of lines split for `split` (one row a line,
        a column a token after the mnemonic), and which lines have a token not of it. Each
        distinct (place, token) is read once by the token's expression."""
        code = tokens.code
        seen = np.zeros(tokens.size, dtype=np.bool_)
        seen[code] = True
        used = np.flatnonzero(seen)
        place = tokens.places(used)
        by_place = np.argsort(place, kind="stable")
        used = used[by_place]
        bounds = np.searchsorted(place[by_place], np.arange(1, split.width + 1)).tolist()
        given_all = tokens.texts(used)
        get = ids.__getitem__
        texts: list[int] = []
        for q, token in enumerate(split.tokens):
            a, b = bounds[q], bounds[q + 1]
            given = given_all[a:b]
            joined = ";".join(given)
            if joined.count(";") == b - a - 1 and token.joined(joined):  # all of the skeleton
                start, end = token.before, -token.after or None
                texts += map(get, [t[start:end] for t in given] if start or end else given)
                continue
            for t in given:
                m = token.one(t)
                texts.append(get(m.group(1)) if m is not None else -1)
        table = np.zeros(tokens.size, dtype=np.intp)
        table[used] = texts
        got = table[code]
        return got, (got < 0).any(axis=1)

    def words(
        self, form: TextForm, ix: np.ndarray[Any, np.dtype[np.intp]], keys: list[str | None]
    ) -> tuple[np.ndarray[Any, np.dtype[np.uint8]], np.ndarray[Any, np.dtype[np.bool_]]]:
        """The words of rows of texts (`ix`: a row's texts' indices in `keys`, a column each,
        the overrides' last), and which rows the parser must read instead.

        Each distinct (column, text) pair is read once into the 64-byte delta it makes, and
        a row's word is the statement's word XOR its cells' deltas, gathered and reduced by
        numpy for all the rows at once (a constant number of numpy calls per statement)."""
        ncol = len(self.columns)
        k = len(keys)
        # a (column, text) pair as one number, column-major: a column's pairs are contiguous
        code = ix[:, :ncol] + np.arange(0, ncol * k, k, dtype=np.intp)
        seen = np.zeros(ncol * k, dtype=np.bool_)
        seen[code] = True
        used = np.flatnonzero(seen)
        slot = np.zeros(ncol * k, dtype=np.intp)
        slot[used] = np.arange(used.size, dtype=np.intp)
        bounds = np.searchsorted(used, np.arange(0, (ncol + 1) * k, k)).tolist()
        texts: list[str | None] = [keys[u] for u in (used % k).tolist()] if k else []
        numbers: list[tuple[list[int], _Numbers, bytes]] = []  # columns of plain numbers
        cell_rows: list[int] = []  # the other pairs, and their deltas
        deltas: list[bytes] = []
        failed: list[int] = []
        live: list[int] = []  # the columns some row gives a text
        for c in range(ncol):
            a, b = bounds[c], bounds[c + 1]
            if b - a == 1 and texts[a] is None:
                continue
            live.append(c)
            plan = self.plans[c]
            if plan is not None:
                given, at_rows = texts[a:b], list(range(a, b))
                if None in given:  # the field not given: no change (a zero delta)
                    i = given.index(None)
                    del given[i], at_rows[i]
                    if not given:
                        continue
                got = plan.packed(cast(list[str], given))
                if got is not None:
                    numbers.append((at_rows, plan, got))
                    continue
            cell = self.cells[c]
            shift = 8 * self.columns[c][2]
            for at in range(a, b):
                t = texts[at]
                if t is None:
                    continue
                chunk = cell.chunk(t) if cell is not None else None
                d = chunk << shift if chunk is not None else self.parsed(c, t)
                if d == _FAIL:
                    failed.append(at)
                    continue
                cell_rows.append(at)
                deltas.append(d.to_bytes(WORD_SIZE, "little"))
        table = np.zeros((used.size, WORD_SIZE), dtype=np.uint8)
        if numbers:
            _put(table, self.word, numbers)
        if cell_rows:
            given_deltas = np.frombuffer(b"".join(deltas), dtype=np.uint8)
            table[cell_rows] = given_deltas.reshape(-1, WORD_SIZE)
        inv = np.take(slot, code[:, live] if len(live) < ncol else code)
        return self._gathered(form, ix, keys, inv, table, failed)

    def _gathered(
        self,
        form: TextForm,
        ix: np.ndarray[Any, np.dtype[np.intp]],
        keys: list[str | None],
        inv: np.ndarray[Any, np.dtype[np.intp]],
        table: np.ndarray[Any, np.dtype[np.uint8]],
        failed: list[int],
    ) -> tuple[np.ndarray[Any, np.dtype[np.uint8]], np.ndarray[Any, np.dtype[np.bool_]]]:
        """The rows' words from their pairs' deltas (`table`, 64 bytes a pair; `inv`: each
        row's pairs), the overrides (`ix`'s last column) written over them."""
        n = ix.shape[0]
        # the cells' deltas column by column (`take` along the table's rows, reduced along
        # the columns: several times faster than a row's cells fancy-indexed and reduced)
        cells = np.take(table.view("<u8"), inv.T, axis=0)
        W64 = np.bitwise_xor.reduce(cells, axis=0) ^ self.word64
        W = W64.view(np.uint8).reshape(n, WORD_SIZE)
        if failed:
            fail = np.zeros(table.shape[0], dtype=np.bool_)
            fail[failed] = True
            bad = fail[inv].any(axis=1)
        else:
            bad = np.zeros(n, dtype=np.bool_)
        none = keys.index(None) if None in keys else -1
        parsed: dict[int, list[tuple[int, int]] | None] = {}
        for r in np.flatnonzero(ix[:, -1] != none).tolist():
            u = int(ix[r, -1])
            if u not in parsed:
                parsed[u] = self.overrides(form, keys[u])  # type: ignore[arg-type]
            got = parsed[u]
            if got is None:
                bad[r] = True
                continue
            for off, v in got:
                W[r, off] = v
        return W, bad

    def match(self, line: str, pos: int) -> tuple[str | None, ...] | None:
        """The groups of `line` from `pos` (after its mnemonic), by the commonest skeleton's
        expression, else the statement's (the skeleton then learned); None if neither."""
        fixed = self.fixed
        m = fixed.match(line, pos) if fixed is not None else None
        if m is None:
            m = self.rx.match(line, pos)
            if m is None:
                return None
            self.learn(line, m, pos)
        return m.groups()

    def learn(self, line: str, m: re.Match[str], pos: int) -> None:
        """Count the skeleton of a line `rx` matched from `pos` (its text outside the groups,
        and which groups it has), and make the commonest one `fixed` (`_Skeleton`), tried
        before `rx`. One line in `_SAMPLE` is looked at, standing for them all."""
        self.missed += 1
        if self.missed % _SAMPLE and self.common is not None:
            return
        sig: list[str | None] = []
        prev = pos
        for (a, b), (_, union) in zip(m.regs[1:], self.groups, strict=True):
            if a < 0:
                sig.append(None)
                continue
            sig.append(line[prev:a])
            if union and line[a + len(union) : a + len(union) + 2] == "={":
                return  # `name={...}` read whole: the struct arm's alternative failed on it
            prev = b
        sig.append(line[prev:].split(";", 1)[0].rstrip())
        key = tuple(sig)
        found = self.skeletons.get(key)
        if found is None:
            if len(self.skeletons) >= _SKELETONS:
                return
            found = self.skeletons[key] = _Skeleton(self, key)
        found.lines += _SAMPLE
        common = self.common
        if found is not common and (common is None or found.lines > common.lines):
            if found.rx is None:
                found.compile()
                assert found.rx is not None
            self.common = found
            self.fixed = found.rx
        if found is self.common or found.lines >= _SPLIT_MIN:
            split = found.split()
            if split is not None:
                have = self.splits.get(split.width)
                if have is None or found.lines > have.skeleton.lines:
                    self.splits[split.width] = split

    def credit(self, lines: int) -> None:
        """Count to the skeleton tried first the lines of a call `fixed` matched (`lines`
        were matched, `missed` of them by `rx` alone). Calls in threads at once may miscount:
        the counts choose which skeleton is tried first, never what a line reads as."""
        missed, self.credited = self.missed - self.credited, self.missed
        if self.common is not None:
            self.common.lines += max(lines - missed, 0)

    def line(self, form: TextForm, groups: tuple[str | None, ...]) -> bytes | None:
        """The word of one line the statement's expressions matched into `groups` (each
        column's text, the overrides' last), its columns' deltas kept across calls (the last
        `_LINE_MEMO` of them): what `words` gives that line alone; None where a text does not
        read as one assignment (the parser then reads the line)."""
        memo = self.lines
        word = self.body.word
        shift = self.columns
        for c, text in enumerate(groups[:-1]):
            if text is None:
                continue
            d = memo.get((c, text))
            if d is None:
                cell = self.cells[c]
                chunk = cell.chunk(text) if cell is not None else None
                d = chunk << (8 * shift[c][2]) if chunk is not None else self.parsed(c, text)
                if len(memo) >= _LINE_MEMO:
                    memo.clear()
                memo[c, text] = d
            if d == _FAIL:
                return None
            word ^= d
        out = word.to_bytes(WORD_SIZE, "little")
        if groups[-1] is None:
            return out
        overrides = self.overrides(form, groups[-1])
        if overrides is None:
            return None
        b = bytearray(out)
        for off, v in overrides:
            b[off] = v
        return bytes(b)

    def parsed(self, c: int, text: str) -> int:
        """The 64-byte delta of column `c` given as `text` where its cell does not read it
        (through `_Body.delta`), or `_FAIL`."""
        body, j, lo, hi = self.columns[c]
        d = body.delta(j, text)
        if d == _FAIL or d >> (8 * hi) or d & ((1 << (8 * lo)) - 1):
            return _FAIL
        return d

    def overrides(self, form: TextForm, text: str) -> list[tuple[int, int]] | None:
        """`@N=V ...` read as the statement's body reads it; None if it reads otherwise."""
        tk = Tokens(text, 0)
        found: list[tuple[int, int]] = []
        out = bytearray(WORD_SIZE)
        try:
            while tk.i < len(tk.toks):
                if form._assignment(tk, self.body.cls, out, 0, True, found, set()) is not None:
                    return None
        except AsmError:
            return None
        return found


class _Skeleton:
    """A mnemonic's lines of one skeleton: the same text outside their fields' groups (the
    separators, the `name={` and `}` of the structs opened, the end before a comment) and
    the same groups present. Its expression `rx` is that literal text around
    `_Statement.rx`'s own groups, each where that one has it (a group the skeleton does not
    have can match nothing, so it reads None there too). That one reads a line field by
    field, each part atomic and possessive (`_Body.flat`), so a line this one matches is
    one that one matches, with the same groups: the literal text is what its parts for the
    groups not present cannot match (another field's name, a brace, the end), and a union's
    group takes no `name={` (which its other alternative, the struct arm opened as
    `name={...}`, would read instead). A literal text is matched with no group to open or
    field to try, which makes it the faster of the two on a line of its skeleton."""

    __slots__ = ("cut", "key", "lines", "rx", "st")

    def __init__(self, st: _Statement, key: tuple[str | None, ...]) -> None:
        self.st, self.key = st, key  # key: the text before each group (None: no group), the end
        self.lines = 0  # how many lines have had it (those `rx` did not match sampled)
        self.rx: re.Pattern[str] | None = None
        self.cut: tuple[_Split | None] | None = None  # `split`'s answer, once made

    def group(self, c: int) -> str:
        """The expression of column `c`'s group (`_Statement.groups`'s, a union's narrowed:
        `name.arm=...`, or `name=` and no brace)."""
        group, union = self.st.groups[c]
        if union:
            return rf"{re.escape(union)}(?:\.[A-Za-z_]\w*=|=(?!\{{)){CHUNK}"
        return group

    def compile(self) -> None:
        parts = []
        for c, literal in enumerate(self.key[:-1]):
            if literal is None:
                parts.append("(?:(?!)())?")  # a group that takes part in no match: None
                continue
            parts.append(f"{re.escape(literal)}({self.group(c)})")
        tail = self.key[-1]
        assert tail is not None and len(self.key) == len(self.st.groups) + 1
        self.rx = re.compile("".join(parts) + re.escape(tail) + END)

    def split(self) -> _Split | None:
        """The skeleton's lines split at their blanks (`_split`, made once)."""
        if self.cut is None:
            self.cut = (self._split(),)
        return self.cut[0]

    def _split(self) -> _Split | None:
        """The skeleton's lines read as `line.split(" ")`: the mnemonic, then one token per
        group present, each the group's text between the literal text's pieces on either
        side of a blank (`name={` before it, `}` after it, say); None where the literal
        text is not so (a piece between two groups with no blank or more than one, the
        overrides present, no group). A line of that many blanks is of the skeleton iff
        each token matches its expression (those pieces around the group's own), and then
        each token's group is `rx`'s: the line is the pieces and the groups in order, and
        the groups are possessive, their text ending where a blank, a brace or `;` does
        (`_Body.flat`), the same within the token as within the line."""
        *literals, tail = self.key
        assert tail is not None
        if literals[-1] is not None or " " in tail:  # the overrides' group (a blank in it)
            return None
        at: list[int] = []
        tokens: list[_Token] = []
        before = ""
        for c, literal in enumerate(literals):
            if literal is None:
                continue
            end, blank, start = literal.partition(" ")
            if not blank or " " in start or (end and not at):
                return None
            if at:
                tokens.append(_Token(before, self.group(at[-1]), end))
            at.append(c)
            before = start
        if not at:
            return None
        tokens.append(_Token(before, self.group(at[-1]), tail))
        return _Split(self, at, tokens)


_Gathered = tuple[
    "_Statement",
    list[int],
    list[tuple[str | None, ...]],
    dict[_Split, tuple[list[int], list[list[str]]]],
    list[tuple[_Split, _Placed]],
]  # a call's lines of a mnemonic, their groups, and those split for a skeleton (`_Split`):
# split in Python, and split by the text scanner


class _FastAsm:
    """`asm` over many lines: a line spelled as `disasm` spells it (its listing columns and
    a trailing comment allowed) is split at its blanks when a skeleton of its mnemonic has
    that many (`_Split`: each distinct token checked once by the skeleton's own group
    between its literal pieces), else matched by its mnemonic's expression (the skeleton
    most of its lines have first, `_Skeleton`, then the statement's own), which splits it
    into its fields' texts; each distinct text of a field is read once, by the per-line parser's
    own `_assignment` (a struct's value field by field, so a changed field costs one field),
    into the bits it sets; the lines of a mnemonic are then built together, each row's word
    the XOR of its fields' deltas, gathered from one table of the distinct texts. A line it
    does not match, or whose text the parser reads otherwise than as one assignment per
    field, is read by `TextForm._asm_line`, so the language and every error are the
    parser's. Where the C text scanner is built (`textscan`) and the text is ASCII, a batch's
    lines are split by it (`batches`): the lines of a mnemonic and of a skeleton's number of
    tokens are gathered by numpy from its ids (`_scanned`) and each distinct (place, token)
    is read once (`_Placed`), the same tokens `line.split(" ")` gives; the other lines go
    through the loop above."""

    def __init__(self, form: TextForm) -> None:
        self.form = form
        self.epoch = 0
        self.statements: dict[str, _Statement] = {}
        self.enabled = not any(
            re.fullmatch(r"[0-9a-fA-F]{128}", name) for name in form.opcodes.__members__
        )  # else `listing_columns` would read such a column as the mnemonic
        self.declined = 0  # lines the last call left to the parser (for tests)
        # where the text scanner is built: "auto" (`batches` decides), "always" or "never"
        self.scanner = "auto"
        self.scanned = 0  # lines the last call took split by the text scanner (for tests)
        # (what a call gathers is its own: a form may assemble in several threads at once; the
        # memos it shares hold what a text means, the same whichever call read it)

    def line(self, line: str) -> bytes | None:
        """The word of one line that starts with a mnemonic as `disasm` writes it, read as
        `assemble` reads such a line by its statement's expressions; None for any other line
        (the per-line parser reads it, and gives every error)."""
        if not self.enabled:
            return None
        sp = line.find(" ")
        st = self.statement(line[:sp] if sp >= 0 else line)
        if st is None:
            return None
        groups = st.match(line, len(line) if sp < 0 else sp)
        if groups is None:
            return None
        if len(st.lines) >= _LINE_MEMO:  # the bodies' memos are bounded as a call's are
            self.epoch += 1
        return st.line(self.form, groups)

    def statement(self, name: str) -> _Statement | None:
        """The statement of the mnemonic `disasm` prints as `name` (made once), else None."""
        st = self.statements.get(name)
        if st is None:
            member = self.form.opcodes.__members__.get(name)
            if member is not None and member.name == name:
                cls = self.form.decoder.structs.get(int(member))
                if cls is not None:
                    st = self.statements[name] = _Statement(self, cls, int(member))
        return st

    def _headed(
        self,
        i: int,
        line: str,
        h: re.Match[str],
        groups: dict[str, _Gathered],
        raw_lines: list[int],
        raw_hex: list[str],
    ) -> bool:
        """Line `i`, headed by `h` (listing columns, then a `.word` or a mnemonic), gathered
        into `groups` or the raw words as `assemble` gathers a line; False if it is not."""
        name = h.group(1)
        pos = h.end()
        if name == ".word":
            m = WORD_TAIL.match(line, pos)
            if m is None:
                return False
            raw_lines.append(i)
            raw_hex.append(m.group(1))
            return True
        st = self.statement(name)
        if st is None:
            return False
        g = groups.get(name)
        if g is None:
            g = groups[name] = (st, [], [], {}, [])
        # the statement's text split at its blanks, its trailing blanks and comment left out
        # as the expressions' end (`END`) leaves them: no group or literal holds a `;`
        cut = line.find(";", pos)
        tokens = line[pos : cut if cut >= 0 else len(line)].rstrip().split(" ")
        split = st.splits.get(len(tokens))
        if split is not None and not tokens[0]:  # a blank after the mnemonic, not a tab
            tokens[0] = name
            bucket = g[3].get(split)
            if bucket is None:
                bucket = g[3][split] = ([], [])
            bucket[0].append(i)
            bucket[1].append(tokens)
            return True
        got = st.match(line, pos)
        if got is None:
            return False
        g[1].append(i)
        g[2].append(got)
        return True

    def batches(self, text: str) -> Iterator[Sequence[str]]:
        """The lines of `text`, `_FAST_LINES` at a time, in order: from a line on whose next
        lines are mostly of skeletons the text scanner splits (`probe`), scanned by it
        (`textscan.Scan`) where it is built and the text is ASCII, until a batch it mostly did
        not split (`assemble` counts them in `scanned`: a count a call in another thread may
        have set, which decides how lines are split, never what they read as); else a batch
        split in Python, the next probed again (a text's first batch teaches the skeletons).
        `scanner` "always" scans wherever the scanner is built, "never" splits in Python."""
        if self.scanner == "never":
            yield from _split_lines(text, 0)
            return
        start = 0
        while start <= len(text):
            if self.scanner == "always" or self.probe(text, start):
                scanned = scans(text, _FAST_LINES, start)
                if scanned is None:  # not built here, or not ASCII
                    yield from _split_lines(text, start)
                    return
                for scan in scanned:
                    yield scan
                    start = scan.end
                    if self.scanner == "auto" and self.scanned < _SCANNED_SHARE * len(scan):
                        break  # the next batch probed again
                continue
            end = _line_end(text, start, _FAST_LINES)
            yield text[start:end].split("\n")
            start = end + 1

    def probe(self, text: str, start: int) -> bool:
        """Whether `_SCANNED_SHARE` or more of the `_FAST_MIN_LINES` lines of `text` from
        `start` on start with a mnemonic with a skeleton of their number of tokens split
        (`_Split`): what the scanner gathers (a listing with columns, or lines of no learned
        skeleton, gain nothing from it)."""
        lines = text[start : _line_end(text, start, _FAST_MIN_LINES)].split("\n")
        split = 0
        for line in lines:
            tokens = line.split(" ")
            st = self.statements.get(tokens[0])
            split += st is not None and len(tokens) in st.splits
        return split >= _SCANNED_SHARE * len(lines)

    def _scanned(self, scan: Scan, groups: dict[str, _Gathered]) -> list[int]:
        """The lines of `scan` whose mnemonic has a skeleton split into as many tokens as they
        have (`_Split`), gathered into `groups` as `assemble` gathers such a line (their
        tokens the scanner's ids); the other lines' indices, in order."""
        starts = scan.starts
        width = np.diff(starts)
        wide = int(width.max()) + 1
        # the lines by (mnemonic, number of tokens): a mnemonic is a line's first token
        key = scan.tokens[starts[:-1]].astype(np.int64) * wide + width
        order = np.argsort(key, kind="stable")
        keys = key[order]
        cuts = [0, *(np.flatnonzero(keys[1:] != keys[:-1]) + 1).tolist(), len(keys)]
        taken = np.zeros(len(keys), dtype=np.bool_)
        for a, b, k in zip(cuts, cuts[1:], keys[cuts[:-1]].tolist(), strict=False):
            first, tokens = divmod(k, wide)
            g = groups.get(scan.token(first))
            split = g[0].splits.get(tokens) if g is not None else None
            if g is None or split is None:
                continue
            lines = order[a:b]
            g[4].append((split, _Placed.scanned(scan, lines, tokens)))
            taken[lines] = True
        rest: list[int] = np.flatnonzero(~taken).tolist()
        return rest

    def assemble(self, lines: Sequence[str], first: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
        """The words of `lines` (the text's lines from index `first` on)."""
        self.epoch += 1  # a call's texts are read once, not kept (`_Body.delta`)
        # each mnemonic's lines and their groups, and its lines split at their blanks, by
        # the shape they were split for (what a call gathers is its own)
        groups: dict[str, _Gathered] = {
            name: (st, [], [], {}, []) for name, st in self.statements.items()
        }
        raw_lines: list[int] = []
        raw_hex: list[str] = []
        slow: list[int] = []
        todo: Iterable[tuple[int, str]] = enumerate(lines)
        self.scanned = 0
        if not self.enabled:
            slow = list(range(len(lines)))
        else:
            if isinstance(lines, Scan):
                rest = self._scanned(lines, groups)
                self.scanned = len(lines) - len(rest)
                todo = zip(rest, map(lines.__getitem__, rest), strict=True)
            self._gather(todo, groups, raw_lines, raw_hex, slow)
        parts: list[tuple[np.ndarray[Any, np.dtype[np.intp]], np.ndarray[Any, Any]]] = []
        if raw_lines:
            W = np.frombuffer(bytes.fromhex("".join(raw_hex)), dtype=np.uint8)
            parts.append((np.asarray(raw_lines, dtype=np.intp), W.reshape(-1, WORD_SIZE)))
        for g in groups.values():
            at, W = g[0].read(self.form, lines, g, slow)
            if at.size:
                parts.append((at, W))
        self.declined = len(slow)
        return self._placed(lines, first, parts, slow)

    def _gather(
        self,
        todo: Iterable[tuple[int, str]],
        groups: dict[str, _Gathered],
        raw_lines: list[int],
        raw_hex: list[str],
        slow: list[int],
    ) -> None:
        """Each of the lines `todo` gathered into `groups` (its mnemonic's lines, split at
        their blanks or matched by its expressions), the raw words (a `.word`), or `slow`
        (the lines the per-line reader reads)."""
        head = HEAD.match
        for i, line in todo:
            sp = line.find(" ")
            g = groups.get(line[:sp] if sp >= 0 else line)
            if g is not None:  # a line that starts with a mnemonic, as `disasm` writes it
                st = g[0]
                tokens = line.split(" ")
                split = st.splits.get(len(tokens))
                if split is not None:  # the blanks of a skeleton's lines: its tokens, maybe
                    bucket = g[3].get(split)
                    if bucket is None:
                        bucket = g[3][split] = ([], [])
                    bucket[0].append(i)
                    bucket[1].append(tokens)
                    continue
                got = st.match(line, len(tokens[0]))
                if got is None:
                    slow.append(i)
                    continue
                g[1].append(i)
                g[2].append(got)
                continue
            h = head(line)  # listing columns first, or a blank, a `.word`, anything else
            if h is None or not self._headed(i, line, h, groups, raw_lines, raw_hex):
                slow.append(i)

    def _placed(
        self,
        lines: Sequence[str],
        first: int,
        parts: list[tuple[np.ndarray[Any, np.dtype[np.intp]], np.ndarray[Any, Any]]],
        slow: list[int],
    ) -> np.ndarray[Any, np.dtype[np.uint8]]:
        """The words of the lines in order: those the batch read (`parts`: the lines' indices
        and their words) and those of `slow` read by the per-line reader (in order, so the
        first bad line's error is the one raised); a line with no statement gives none."""
        slow.sort()
        has = np.zeros(len(lines), dtype=np.bool_)
        found: list[tuple[int, bytes]] = []
        for i in slow:
            word = self.form._asm_line(lines[i], first + i + 1)
            if word is not None:
                found.append((i, word))
                has[i] = True
        for at, _ in parts:
            has[at] = True
        rank = np.cumsum(has) - 1
        out = np.empty((int(has.sum()), WORD_SIZE), dtype=np.uint8)
        for at, W in parts:
            out[rank[at]] = W
        for i, word in found:
            out[rank[i]] = np.frombuffer(word, dtype=np.uint8)
        return out
