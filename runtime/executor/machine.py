"""The generation-independent part of ``tpb_isa.<gen>.Executor``: decode, validate, refuse or
dispatch a word to the engine.

Each generation's ``executor`` module subclasses :class:`Executor`, binding it to that
generation's decoder, validators, geometry constants, enum values by name and its
``executor_binding`` module: which opcodes run (and why the others are refused), which struct
fields each reads and how they become the engine's arguments, all emitted by tpbgen from its
table of executor semantics; the semantic codes of enumerator names are :mod:`.codes`.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from ..addressing import Location
from ..codec import DecodeError, Word, as_bytes, int_arg
from ..decoding import Decoder, Validators
from ..layout import ColumnsReader, FieldsReader, Slot, columns_reader, flat_reader
from ..vector import as_words
from . import program as prog
from .codes import ROLES
from .dtypes import check_isa_dtype
from .errors import ExecutorError, InvalidInstructionError, UnsupportedError
from .kernels import Engine
from .numerics import Numerics
from .operands import EngineOperands

GEOMETRY_NAMES: tuple[str, ...] = (
    "STATE_BUF_NUM_PARTITIONS",
    "STATE_BUF_PARTITION_SIZE",
    "STATE_BUF_PARTITION_ACTIVE_SIZE",
    "STATE_BUF_OFFSET",
    "STATE_BUF_SZ",
    "PSUM_BUF_NUM_PARTITIONS",
    "PSUM_BUF_OFFSET",
    "PSUM_BUF_SZ",
    "PSUM_BUF_PARTITION_SIZE",
    "PSUM_BUF_PARTITION_ACTIVE_SIZE",
    "TPB_PARTITION_ADDR_MASK",
    "NUM_ADDR_REGISTERS",
    "DVE_NUM_CHANNELS",
    "POOLING_NUM_CHANNELS",
)


def _at(exc: ExecutorError, index: int) -> ExecutorError:
    """The same error, its message prefixed with the instruction's index and byte offset."""
    exc.args = (
        f"instruction {index} (offset {index * 64:#x}): {exc.args[0] if exc.args else exc}",
        *exc.args[1:],
    )
    exc.index = index
    return exc


Prepared = Callable[[], None]  # a prepared instruction: the call that executes it
Operands = Callable[[bytes], EngineOperands]  # a word's bytes -> its engine method's operands
Column = Any  # one operand of N words: an int64 array, a program.PatternColumn/ImmColumn
Cols = list[npt.NDArray[Any]]  # the columns of the fields a handler reads (layout.columns_reader)
BoolColumn = npt.NDArray[np.bool_]
Columns = Callable[
    ["Cols", "Enums"], tuple[dict[str, Column], BoolColumn, npt.NDArray[np.int64]]
]  # those columns -> the operands as columns, the rows admitted, each other row's first refusal


@dataclass(frozen=True)
class EnumBinding:
    """One enum role (codes.ROLES) on one generation: the drop's values -> their enumerator
    names (from the generation's IR) -> the executor's semantic codes."""

    role: str
    c_enum: str
    names: dict[int, str]  # every enumerator: value -> name
    codes: dict[int, int]  # the values whose names the executor implements -> semantic code

    @classmethod
    def of(cls, role: str, c_enum: str, values: dict[str, int]) -> EnumBinding:
        implemented = ROLES[role][2]
        names: dict[int, str] = {}
        for name, value in values.items():
            # a value with two names: both, so that a refusal names each
            names[value] = f"{names[value]}/{name}" if value in names else name
        codes: dict[int, int] = {}
        for value, name in names.items():
            meant = {implemented[n] for n in name.split("/") if n in implemented}
            if len(meant) == 1:  # the names of the value the executor knows agree
                codes[value] = meant.pop()
        return cls(role, c_enum, names, codes)

    def code(self, value: int, field: str) -> int:
        """The semantic code of a word's value, else UnsupportedError naming the value."""
        code = self.codes.get(value)
        if code is None:
            raise UnsupportedError(self.refusal(value, field))
        return code

    def refusal(self, value: int, field: str) -> str:
        """Why a word whose `field` holds `value` is not executed, naming the value's names."""
        what, _, implemented, refused = ROLES[self.role]
        name = self.names.get(value)
        if name is None:
            return f"{field} = {value:#04x} is not a {self.c_enum} enumerator"
        known = [n for n in name.split("/") if n in implemented]
        why = (
            f"its names {' and '.join(known)} are different operations"
            if len(known) > 1
            else refused.get(name, "the executor does not implement it")
        )
        return f"{field} = {name} ({value:#04x}): {what} {name}: {why}"


Enums = dict[str, EnumBinding]  # role -> the generation's binding of it


@dataclass(frozen=True)
class Handler:
    """How the executor runs one opcode on one generation, as its ``executor_binding`` module
    (emitted by tpbgen from its table of executor semantics) declares it: its Engine method's
    operand record (``record(**fixed, **operands).run(engine)``)."""

    name: str  # the OPCODE enumerator's name
    record: type[EngineOperands]  # the record of its Engine method's operands
    fixed: tuple[tuple[str, bool], ...]
    paths: tuple[str, ...]  # the fields it reads, in its operands' order
    widths: tuple[int, ...]  # how many of those fields each operand reads
    roles: tuple[str, ...]  # the enum roles it reads
    #: (the reader of `paths`, their slots in its tuple, the enums) -> a word's operands
    operands: Callable[[FieldsReader, tuple[Slot, ...], Enums], Operands]
    columns: Columns  # the same for N words, from the columns of `paths`


def column_codes(binding: EnumBinding, col: npt.NDArray[Any]) -> tuple[Column, BoolColumn]:
    """A column of a drop's values -> their semantic codes, and where the value has one."""
    keys = np.array(sorted(binding.codes), np.int64)
    if not keys.size:
        return np.zeros(col.shape, np.int64), np.zeros(col.shape, np.bool_)
    codes = np.array([binding.codes[int(k)] for k in keys], np.int64)
    at = np.clip(np.searchsorted(keys, col), 0, keys.size - 1)
    return codes[at], keys[at] == col


@dataclass(frozen=True)
class Binder:
    """One opcode's handler bound to its struct and its generation's enums: a word's bytes ->
    its engine method's operand record. Only the fields the handler reads are read, by one
    `layout.flat_reader`; no struct is built."""

    record: type[EngineOperands]
    read: FieldsReader  # a word's bytes -> the values of the fields the handler reads, flat
    slots: tuple[Slot, ...]  # where each of those fields is among them, in `Handler.paths` order
    operands: Operands  # the engine method's operands for a word (UnsupportedError naming a
    # value the executor does not implement, the first in the handler's order)

    @classmethod
    def of(cls, handler: Handler, struct: type, enums: Enums) -> Binder:
        read, slots = flat_reader(struct, handler.paths)
        return cls(handler.record, read, slots, handler.operands(read, slots, enums))

    def values(self, b: bytes) -> tuple[Any, ...]:
        """The values of the fields the handler reads, one a field in its paths' order (an
        array's as a tuple)."""
        v = self.read(b)
        return tuple(v[s] for s in self.slots)


@dataclass(frozen=True)
class BatchBinder:
    """`Binder` over N words of one opcode: their operands as columns (by the record's field
    names)."""

    record: type[EngineOperands]
    read: ColumnsReader
    fixed: tuple[tuple[str, bool], ...]
    convert: Callable[[Cols], tuple[dict[str, Column], BoolColumn, npt.NDArray[np.int64]]]
    #: for each operand, where its fields' columns are among the ones `read` gives
    slots: tuple[slice, ...] = ()

    @classmethod
    def of(cls, handler: Handler, struct: type, enums: Enums) -> BatchBinder:
        slots, at = [], 0
        for width in handler.widths:
            slots.append(slice(at, at + width))
            at += width
        columns = handler.columns
        return cls(handler.record, columns_reader(struct, handler.paths), handler.fixed,
                   lambda c: columns(c, enums), tuple(slots))  # fmt: skip

    def columns(self, W: npt.NDArray[np.uint8]) -> tuple[dict[str, Column], BoolColumn]:
        """(param -> column, the rows whose every value the executor implements)."""
        cols, ok, _, _ = self.admit(W)
        return cols, ok

    def admit(
        self, W: npt.NDArray[np.uint8]
    ) -> tuple[dict[str, Column], BoolColumn, npt.NDArray[np.int64], Cols]:
        """`columns`, with for each row the index (in the handler's operands) of the first
        operand whose value the executor does not implement, -1 where there is none (the
        operand whose UnsupportedError `Binder.operands` raises: it converts in the same
        order), and the fields' columns (`slots` says whose)."""
        c = self.read(W)
        cols, ok, first = self.convert(c)
        return cols, ok, first, c


def _missing_roles(handler: Handler, enums: Enums) -> list[str]:
    return sorted({role for role in handler.roles if role not in enums})


class Executor:
    """A NeuronCore model that executes TensorScalar-family instruction words.

    Generated per generation as a subclass bound to that generation's decoder, validators and
    constants (class keywords, see `__init_subclass__`). ``numerics`` defaults to the
    generation's ``NUMERICS`` (what its headers imply); ``backend`` is ``"auto"`` (C when a compiler is
    available, else numpy with a one-time warning), ``"c"`` or ``"numpy"``.
    """

    GENERATION: ClassVar[str]
    #: The numerics an executor defaults to (the generation's, from its headers).
    NUMERICS: ClassVar[Numerics]
    #: The machine geometry the generation's headers state, as the engine takes it.
    GEOMETRY: ClassVar[dict[str, int]]
    #: Opcodes the generation decodes but the executor refuses, with the reason.
    REFUSED: ClassVar[dict[int, str]]
    #: opcode -> its OPCODE enumerator name, for the opcodes the executor runs.
    HANDLERS: ClassVar[dict[int, str]]
    #: opcode -> how it runs (the generation's executor_binding.HANDLERS).
    BINDINGS: ClassVar[dict[int, Handler]]
    #: role -> the generation's enum of that role, by name (from its executor.ENUM_VALUES).
    ENUMS: ClassVar[dict[str, EnumBinding]]
    _decoder: ClassVar[Decoder]
    _binders: ClassVar[dict[int, Binder]]  # opcode -> its Binder, made on first use
    _batch_binders: ClassVar[dict[int, BatchBinder]]  # opcode -> its BatchBinder, likewise
    _validators: ClassVar[Validators]
    _checker: ClassVar[Callable[[bytes], Any] | None]  # _validators.checker, resolved on first use

    def __init_subclass__(
        cls,
        *,
        generation: str,
        decoder: Decoder,
        validators: Validators,
        constants: ModuleType,
        enums: dict[str, tuple[str, dict[str, int]]],
        handlers: dict[int, Handler],
        refused: dict[int, str],
        numerics: Numerics,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        cls.GENERATION = generation
        cls.NUMERICS = numerics
        cls._decoder = decoder
        cls._validators = validators
        cls._checker = None
        cls._binders = {}
        cls._batch_binders = {}
        cls.GEOMETRY = {
            name: int(getattr(constants, name))
            for name in GEOMETRY_NAMES
            if hasattr(constants, name)
        }
        cls.ENUMS = {
            role: EnumBinding.of(role, c_enum, values) for role, (c_enum, values) in enums.items()
        }
        cls.HANDLERS, cls.REFUSED, cls.BINDINGS = {}, dict(refused), {}
        for op, handler in sorted(handlers.items()):
            missing = _missing_roles(handler, cls.ENUMS)
            if missing:
                cls.REFUSED[op] = (
                    f"{handler.name}: no enum of the headers binds its {', '.join(missing)} fields"
                )
            else:
                cls.HANDLERS[op] = handler.name
                cls.BINDINGS[op] = handler
        cls.REFUSED = dict(sorted(cls.REFUSED.items()))

    def __init__(
        self,
        numerics: Numerics | None = None,
        backend: str = "auto",
        trace: Any = None,
        trace_bytes: str = "bytes",
    ) -> None:
        if numerics is not None and not isinstance(numerics, Numerics):
            raise TypeError(f"numerics: a Numerics, not {type(numerics).__name__}")
        if not isinstance(backend, str):
            raise TypeError(f"backend: 'auto', 'c' or 'numpy', not {type(backend).__name__}")
        nm = numerics or self.NUMERICS
        self.engine = Engine(self.GEOMETRY, nm, backend)
        self._prepared: dict[bytes, Prepared] = {}  # see PREPARED_WORDS
        # trace=: a path or a callable given one record per instruction run (_runtime/trace.py)
        self._trace: Any = None
        if trace is not None:
            from ..trace import Tracer

            self._trace = Tracer(trace, self, trace_bytes)

    # -- state --------------------------------------------------------------------------------

    @property
    def numerics(self) -> Numerics:
        return self.engine.numerics

    @property
    def backend(self) -> str:
        """``"c"`` or ``"numpy"``: the backend actually in use."""
        return self.engine.backend.name

    @property
    def sbuf(self) -> npt.NDArray[np.uint8]:
        """SBUF: uint8, shape (partitions, active bytes per partition); writable."""
        return self.engine.sbuf

    @property
    def psum(self) -> npt.NDArray[np.uint8]:
        """PSUM: uint8, shape (partitions, active bytes per partition); writable."""
        return self.engine.psum

    @property
    def registers(self) -> npt.NDArray[np.uint32]:
        return self.engine.registers

    @property
    def accumulators(self) -> npt.NDArray[np.float32]:
        """Per-channel fp32 accumulators (CacheReduce/CacheCumulative/Exponential)."""
        return self.engine.accumulators

    @property
    def imm_flops(self) -> npt.NDArray[np.uint32]:
        """ImmLd scalar flops: (channels, 8) raw 32-bit values."""
        return self.engine.imm_flops

    # -- addresses and typed tensors ----------------------------------------------------------

    def sbuf_addr(self, partition: int, offset: int = 0) -> int:
        """The address of byte `offset` of SBUF partition `partition` (AddressError if none)."""
        return self.engine.memory.addresses.sbuf_addr(
            int_arg(partition, "partition"), int_arg(offset, "offset")
        )

    def psum_addr(self, partition: int, offset: int = 0) -> int:
        """The address of byte `offset` of PSUM partition `partition` (AddressError if none)."""
        return self.engine.memory.addresses.psum_addr(
            int_arg(partition, "partition"), int_arg(offset, "offset")
        )

    def locate(self, addr: int) -> Location:
        """Where an address points: (region, partition, offset); AddressError if nowhere."""
        return self.engine.memory.addresses.locate(int_arg(addr, "addr"))

    def write(
        self,
        addr: int,
        array: npt.ArrayLike,
        *,
        partitions: int | None = None,
        any_dtype: bool = False,
    ) -> None:
        """Write a (partitions, ...) array: row i to partition p(addr) + i at addr's offset.

        A 1-D array needs `partitions` (it is split into that many equal rows). The dtype must
        be one the instruction set has (int8/16/32, uint8/16/32, float16, float32, bfloat16, the
        fp8 types); `any_dtype=True` writes another dtype's bytes as they are."""
        addr = int_arg(addr, "addr")
        if partitions is not None:
            partitions = int_arg(partitions, "partitions")
        a = np.asarray(array)
        if a.dtype.kind in "OUSM":
            raise TypeError(f"array: numbers of a TPB dtype, not {a.dtype}")
        if a.ndim < 2:
            if partitions is None:
                raise ValueError(
                    f"write takes a (partitions, ...) array, not shape {a.shape}: give "
                    "partitions=N to split a 1-D array into N rows"
                )
            if partitions <= 0 or a.size % partitions:
                raise ValueError(f"{a.size} elements do not split into {partitions} partitions")
            a = a.reshape(partitions, -1)
        elif partitions is not None and partitions != a.shape[0]:
            raise ValueError(f"partitions={partitions}, but the array has {a.shape[0]} rows")
        if not any_dtype:
            check_isa_dtype(a.dtype)
        self.engine.write(addr, a)

    def read(self, addr: int, dtype: Any, shape: tuple[int, ...] | int) -> npt.NDArray[Any]:
        """Read (partitions, elements) values; ``dtype`` is a numpy dtype or one of this
        generation's ``Dtype`` members (or its value), bound by name like an instruction's."""
        addr = int_arg(addr, "addr")
        if isinstance(dtype, (int, np.integer)):
            if "dtype" not in self.ENUMS:
                raise UnsupportedError(f"{self.GENERATION}: the headers declare no dtype enum")
            dtype = self.ENUMS["dtype"].code(int(dtype), "dtype")
        else:
            try:
                dtype = np.dtype(dtype)
            except (TypeError, ValueError):  # ValueError: a name not encodable (UnicodeError)
                raise TypeError(f"dtype: a numpy dtype or a Dtype member, not {dtype!r}") from None
        dims = (shape,) if not isinstance(shape, (tuple, list)) else tuple(shape)
        return self.engine.read(addr, dtype, tuple(int_arg(d, "shape", 0) for d in dims))

    def write_at(
        self, region: str, partition: int, offset: int, array: npt.ArrayLike, **kw: Any
    ) -> None:
        """`write` at (region "SBUF"/"PSUM", first partition, byte offset)."""
        self.write(self._address(region, partition, offset), array, **kw)

    def read_at(
        self, region: str, partition: int, offset: int, dtype: Any, shape: tuple[int, ...] | int
    ) -> npt.NDArray[Any]:
        """`read` at (region "SBUF"/"PSUM", first partition, byte offset)."""
        return self.read(self._address(region, partition, offset), dtype, shape)

    def _address(self, region: str, partition: int, offset: int) -> int:
        if not isinstance(region, str):
            raise TypeError(f"region: 'SBUF' or 'PSUM', not {type(region).__name__}")
        return self.engine.memory.addresses.address(
            region, int_arg(partition, "partition"), int_arg(offset, "offset")
        )

    def set_register(self, n: int, value: int) -> None:
        """Register `n` holds `value` (its low 32 bits); ValueError for a register that does
        not exist."""
        count = self.engine.registers.shape[0]
        n = int_arg(n, "n")
        if not 0 <= n < count:
            raise ValueError(f"n: register {n} does not exist (0..{count - 1})")
        self.engine.set_register(n, int_arg(value, "value"))

    # -- execution ----------------------------------------------------------------------------

    def check(self, word_or_struct: Word) -> Any:
        """The decoded struct of an executable word; raises without touching the state."""
        b = as_bytes(word_or_struct)
        self._prepare(b)
        return self._decoder.decode(b)  # a fresh object: the prepared one stays the executor's

    #: Words already admitted and prepared, most recent last (admission depends on the word
    #: alone, never on the state): a repeated word goes straight to its prepared call.
    PREPARED_WORDS: ClassVar[int] = 4096

    def _prepare(self, b: bytes) -> Prepared:
        prepared = self._prepared
        known = prepared.get(b)
        if known is not None:
            return known
        # Admitting and preparing a word makes a few hundred small objects, most of them gone
        # again by the end: with the cyclic collector running, its passes over them (and over
        # every prepared call kept before) were a quarter of the cost. They form no cycles
        # (tests/executor/test_executor_e2e.py checks), so reference counting frees them
        # while the collector is paused, and it runs again as soon as the word is prepared.
        was = gc.isenabled()
        gc.disable()
        try:
            call: Prepared = self.engine.prepare(self._admit(b))
        finally:
            if was:
                gc.enable()
        if len(prepared) >= self.PREPARED_WORDS:
            del prepared[next(iter(prepared))]
        prepared[b] = call
        return call

    @classmethod
    def _binder(cls, opcode: int) -> Binder:
        binder = cls._binders.get(opcode)
        if binder is None:
            handler = cls.BINDINGS[opcode]
            binder = Binder.of(handler, cls._decoder.structs[opcode], cls.ENUMS)
            cls._binders[opcode] = binder
        return binder

    @classmethod
    def _check(cls, b: bytes) -> Any:
        """`Validators.validate` of a 64-byte word on the compiled headers when they are there
        (a fraction of a microsecond), else the translated Python: resolved on the first word
        (for "auto" the first call says, once, when the C is unavailable), then called."""
        check = cls._checker
        if check is None:
            v = cls._validators
            check = cls._checker = v.checker("auto" if v.c is not None else "python")
        return check(b)

    def _admit(self, b: bytes) -> EngineOperands:
        """The engine method's operands of a word the executor runs, else the error
        saying why not: not 64 bytes, not decodable, refused by the validators, or an opcode or
        an enumerator (by name) the executor does not implement."""
        if len(b) != 64:
            raise InvalidInstructionError(
                f"{self.GENERATION}: a TPB instruction word is 64 bytes, this one has {len(b)}"
            )
        op = b[0]
        # an opcode with a Binder already is one the generation decodes and the executor runs
        binder = self._binders.get(op)
        if binder is None and op not in self._decoder.structs:
            try:
                self._decoder.decode(b)  # says why it does not decode
            except DecodeError as exc:
                raise InvalidInstructionError(f"{self.GENERATION}: not decodable: {exc}") from None
        if not self._check(b):
            why = self._validators.explain(b)
            raise InvalidInstructionError(
                f"{self.GENERATION}: opcode {op:#04x} rejected by the validators: {why}", why
            )
        if binder is None:
            if op in self.REFUSED:
                raise UnsupportedError(
                    f"{self.GENERATION}: opcode {op:#04x}: {self.REFUSED[op]}; not executed"
                )
            binder = self._binder(op)
        try:
            return binder.operands(b)
        except UnsupportedError as exc:
            raise UnsupportedError(
                f"{self.GENERATION}: opcode {op:#04x}: {exc}; not executed"
            ) from None

    def run(self, word_or_struct: Word) -> None:
        """Execute one instruction (64 bytes or a struct object)."""
        if self._trace is not None:
            b = as_bytes(word_or_struct)
            self._trace.run(self, b, self._prepare(b))
            return
        self._prepare(as_bytes(word_or_struct))()

    def run_program(self, words: Iterable[Word] | bytes | npt.NDArray[np.uint8]) -> int:
        """Check every word first (nothing runs if one is invalid or refused), then execute them
        in order; returns the number executed. `words` is a byte stream, an (N, 64) uint8 array
        or a sequence of words. An error names the instruction (index and byte offset). An error
        raised while executing (an address out of range through a register, scalars ImmLd never
        loaded) stops the program there: the failing instruction leaves no trace, the ones before
        it keep their effects."""
        W: npt.NDArray[np.uint8] | None = None
        rows: Iterable[Word]
        if isinstance(words, (bytes, bytearray, memoryview, np.ndarray)):
            W = as_words(words)
            rows = []  # made below if the program runs word by word
        elif isinstance(words, Iterable) and not isinstance(words, str):
            rows = list(words)
            if self._trace is None and len(rows) >= self.PROGRAM_BATCH:
                W = self._stacked(rows)
        else:
            raise TypeError(
                "words: a byte stream, an (N, 64) uint8 array or a sequence of words, "
                f"not {type(words).__name__}"
            )
        if W is not None and self._trace is None and W.shape[0] >= self.PROGRAM_BATCH:
            return self._run_batch(W)
        if isinstance(words, (bytes, bytearray, memoryview, np.ndarray)) and W is not None:
            rows = [W[k].tobytes() for k in range(W.shape[0])]
        prepare = self._prepare
        program: list[Prepared] = []
        traced: list[bytes] | None = None if self._trace is None else []
        for i, w in enumerate(rows):
            try:
                b = as_bytes(w, f"words[{i}]")
                program.append(prepare(b))
            except ExecutorError as exc:
                raise _at(exc, i) from None
            if traced is not None:
                traced.append(b)
        i = 0
        try:
            if traced is not None:
                for i, call in enumerate(program):
                    self._trace.run(self, traced[i], call, 64 * i)
                return len(program)
            for i, call in enumerate(program):  # noqa: B007 - i names the failing instruction
                call()
        except ExecutorError as exc:
            raise _at(exc, i) from None
        return len(program)

    #: Programs of at least this many words are admitted and prepared as columns (`_run_batch`);
    #: shorter ones word by word (`_prepare`), where numpy's cost per call would dominate.
    PROGRAM_BATCH: ClassVar[int] = 16

    @staticmethod
    def _stacked(rows: list[Any]) -> npt.NDArray[np.uint8] | None:
        """The words as an (N, 64) array, or None when one is not a 64-byte word (the word by
        word path then says which, in its order)."""
        try:
            bs = [as_bytes(w) for w in rows]
        except Exception:
            return None
        if any(len(b) != 64 for b in bs):
            return None
        return np.frombuffer(b"".join(bs), np.uint8).reshape(-1, 64)

    @classmethod
    def _batch_binder(cls, opcode: int) -> BatchBinder:
        binder = cls._batch_binders.get(opcode)
        if binder is None:
            handler = cls.BINDINGS[opcode]
            binder = BatchBinder.of(handler, cls._decoder.structs[opcode], cls.ENUMS)
            cls._batch_binders[opcode] = binder
        return binder

    def _run_batch(self, W: npt.NDArray[np.uint8]) -> int:
        """`run_program` of an (N, 64) array: admitted as columns (opcodes, the C validators'
        batch, each handler's operands by BatchBinder), planned where a handler's method has a
        planner (program.PLANNERS) and run in order: planned rows in runs through one C call
        each, every other row as the call `run()` would make. A row not admitted as a column
        goes through `_prepare`, which says why it is refused; the first such error, in program
        order, is raised before anything runs, as word by word."""
        n = int(W.shape[0])
        engine = self.engine
        ops = W[:, 0]
        admitted = np.zeros(n, np.bool_)
        handled = np.zeros(256, np.bool_)
        handled[list(self.HANDLERS)] = True
        c = self._validators.c
        if c is not None and c.resolve("auto") == "c":
            admitted = handled[ops] & c.validate_batch(W)
        planned = np.zeros(n, np.bool_)
        records = np.zeros((n, prog.REC), np.int64)
        plan = prog.can_plan(engine)
        calls: dict[int, Prepared] = {}
        # what a row not planned is prepared from: (record, fixed, param -> column, row)
        pending: dict[int, tuple[type[EngineOperands], dict[str, Any], dict[str, Column], int]] = {}
        was = gc.isenabled()
        gc.disable()  # as in _prepare: what is made here forms no cycles
        try:
            for op in np.unique(ops[admitted]).tolist():
                rows = np.flatnonzero(admitted & (ops == op))
                binder = self._batch_binder(op)
                cols, ok = binder.columns(W[rows])
                admitted[rows[~ok]] = False
                fixed = dict(binder.fixed)
                planner = prog.PLANNERS.get(binder.record) if plan else None
                if planner is not None:
                    fast, recs = planner(engine, fixed, cols, rows.size)
                    fast &= ok
                    planned[rows[fast]] = True
                    records[rows[fast]] = recs[fast]
                else:
                    fast = np.zeros(rows.size, np.bool_)
                for j in np.flatnonzero(ok & ~fast).tolist():
                    pending[int(rows[j])] = (binder.record, fixed, cols, j)
            values: dict[int, dict[str, list[Any]]] = {}  # id(cols) -> param -> per-row values
            for i in np.flatnonzero(~planned).tolist():
                try:
                    if i in pending:
                        record, fixed, cols, j = pending[i]
                        vals = values.get(id(cols))
                        if vals is None:
                            vals = values[id(cols)] = {p: prog.values(v) for p, v in cols.items()}
                        operands: dict[str, Any] = dict(fixed)
                        for param, v in vals.items():
                            operands[param] = v[j]
                        calls[i] = engine.prepare(record(**operands))
                    else:
                        calls[i] = self._prepare(W[i].tobytes())
                except ExecutorError as exc:
                    raise _at(exc, i) from None
        finally:
            if was:
                gc.enable()
        start = 0
        for i in [*calls, n]:
            if i > start:
                try:
                    prog.run_records(engine, records[start:i])
                except ExecutorError as exc:
                    raise _at(exc, start + getattr(exc, "done", 0)) from None
            if i < n:
                try:
                    calls[i]()
                except ExecutorError as exc:
                    raise _at(exc, i) from None
            start = i + 1
        return n

    @classmethod
    def executable(cls) -> tuple[int, ...]:
        """The opcodes ``run`` executes on this generation."""
        return tuple(sorted(cls.HANDLERS))
