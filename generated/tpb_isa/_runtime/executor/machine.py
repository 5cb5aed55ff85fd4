"""The generation-independent part of ``tpb_isa.<gen>.Executor``: decode, validate, refuse or
dispatch a word to the engine.

Each generation's ``executor`` module subclasses :class:`Executor`, binding it to that
generation's decoder, validators and geometry constants; which opcodes run (and why the others
are refused) comes from :mod:`..family` intersected with what the generation decodes.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from .. import family
from ..addressing import Location
from ..codec import DecodeError, Word, as_bytes
from ..decoding import Decoder, Validators
from ..layout import FieldsReader, fields_reader
from ..vector import as_words
from .dtypes import check_isa_dtype
from .errors import ExecutorError, InvalidInstructionError, UnsupportedError
from .kernels import IMM_POINTER, Engine, Imm, Pattern
from .numerics import Numerics

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


def _pattern_paths(field: str) -> tuple[str, str, str]:
    """Where an access pattern's start address, steps and counts sit: in the TENSOR arm of a
    MEM_PATTERN union (mariana+), or in the TENSOR itself (sunda/cayman)."""
    return (
        f"{field}.t?.start_addr.addr_immediate",
        f"{field}.t?.step_elem",
        f"{field}.t?.num_elem",
    )


_SRC = _pattern_paths("src_mem_pattern")
_DST = _pattern_paths("dst_mem_pattern")
_IMMS = ("imm0_src", "imm0.imm_bitvec_uint32", "imm1_src", "imm1.imm_bitvec_uint32")
_TS = (*_SRC, *_DST, "in_dtype", "out_dtype", "num_active_channels", "op0", "op1",
       "reverse_operands")  # fmt: skip

#: handler -> the fields it reads (as layout.fields_reader paths), in the order it takes them.
OPERANDS: dict[str, tuple[str, ...]] = {
    "_ts_arith": (*_TS, *_IMMS),
    "_ts_bitvec": (*_TS, *_IMMS),
    "_ts_ptr_arith": (*_TS, "imm0.imm_ptr", "imm1.imm_ptr"),
    "_ts_ptr_bitvec": (*_TS, "imm0.imm_ptr", "imm1.imm_ptr"),
    "_cache_reduce": (*_TS, "accumulator_cmd", *_IMMS),
    "_cache_cumulative": (*_TS, "accumulator_cmd", *_IMMS),
    "_exponential": (
        *_SRC,
        *_DST,
        "in_dtype",
        "out_dtype",
        "num_active_channels",
        "accumulator_cmd",
        *_IMMS,
    ),
    "_imm_ld_arith": (*_SRC, "dtype", "num_active_channels"),
    "_imm_ld_bitvec": (*_SRC, "dtype", "num_active_channels"),
    "_ptr_multi_arith": (
        *_SRC,
        *_DST,
        "in_dtype",
        "out_dtype",
        "num_active_channels",
        "op",
        "reverse_operands",
    ),
    "_ptr_multi_bitvec": (
        *_SRC,
        *_DST,
        "in_dtype",
        "out_dtype",
        "num_active_channels",
        "op",
        "reverse_operands",
    ),
    "_ptr_multi_dual": (
        *_SRC,
        *_DST,
        "in_dtype",
        "out_dtype",
        "num_active_channels",
        "op",
        "reverse_operands",
    ),
}

Operands = tuple[Any, ...]
#: A prepared instruction: the call that executes it.
Prepared = Callable[[], None]


def _pattern(o: Operands, at: int) -> Pattern:
    return Pattern(int(o[at]), tuple(o[at + 1]), tuple(o[at + 2]))


class Executor:
    """A NeuronCore model that executes TensorScalar-family instruction words.

    Generated per generation as a subclass bound to that generation's decoder, validators and
    constants (class keywords, see `__init_subclass__`). ``numerics`` defaults to
    ``Numerics.for_generation(GENERATION)``; ``backend`` is ``"auto"`` (C when a compiler is
    available, else numpy with a one-time warning), ``"c"`` or ``"numpy"``.
    """

    GENERATION: ClassVar[str]
    #: The machine geometry the generation's headers state, as the engine takes it.
    GEOMETRY: ClassVar[dict[str, int]]
    #: Opcodes the generation decodes but the executor refuses, with the reason.
    REFUSED: ClassVar[dict[int, str]]
    #: opcode -> handler method, for the opcodes the generation decodes and the family implements.
    HANDLERS: ClassVar[dict[int, str]]
    _decoder: ClassVar[Decoder]
    _readers: ClassVar[dict[int, FieldsReader]]  # opcode -> its OPERANDS reader, made on first use
    _validators: ClassVar[Validators]

    def __init_subclass__(
        cls,
        *,
        generation: str,
        decoder: Decoder,
        validators: Validators,
        constants: ModuleType,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        cls.GENERATION = generation
        cls._decoder = decoder
        cls._validators = validators
        cls._readers = {}
        cls.GEOMETRY = {
            name: int(getattr(constants, name))
            for name in GEOMETRY_NAMES
            if hasattr(constants, name)
        }
        cls.HANDLERS, cls.REFUSED = {}, {}
        for op in sorted(decoder.structs):
            name = decoder.opcodes(op).name
            if name in family.HANDLERS:
                cls.HANDLERS[op] = family.HANDLERS[name]
            else:
                cls.REFUSED[op] = family.refusal(name)

    def __init__(
        self,
        numerics: Numerics | None = None,
        backend: str = "auto",
        trace: Any = None,
        trace_bytes: str = "bytes",
    ) -> None:
        nm = numerics or Numerics.for_generation(self.GENERATION)
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
        return self.engine.memory.addresses.sbuf_addr(partition, offset)

    def psum_addr(self, partition: int, offset: int = 0) -> int:
        """The address of byte `offset` of PSUM partition `partition` (AddressError if none)."""
        return self.engine.memory.addresses.psum_addr(partition, offset)

    def locate(self, addr: int) -> Location:
        """Where an address points: (region, partition, offset); AddressError if nowhere."""
        return self.engine.memory.addresses.locate(addr)

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
        a = np.asarray(array)
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
        """Read (partitions, elements) values; ``dtype`` is a numpy dtype or a ``Dtype`` member."""
        return self.engine.read(addr, dtype, shape)

    def write_at(
        self, region: str, partition: int, offset: int, array: npt.ArrayLike, **kw: Any
    ) -> None:
        """`write` at (region "SBUF"/"PSUM", first partition, byte offset)."""
        self.write(self.engine.memory.addresses.address(region, partition, offset), array, **kw)

    def read_at(
        self, region: str, partition: int, offset: int, dtype: Any, shape: tuple[int, ...] | int
    ) -> npt.NDArray[Any]:
        """`read` at (region "SBUF"/"PSUM", first partition, byte offset)."""
        return self.read(
            self.engine.memory.addresses.address(region, partition, offset), dtype, shape
        )

    def set_register(self, n: int, value: int) -> None:
        self.engine.set_register(n, value)

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
            handler, operands = self._admit(b)
            call: Prepared = getattr(self, handler)(operands)
        finally:
            if was:
                gc.enable()
        if len(prepared) >= self.PREPARED_WORDS:
            del prepared[next(iter(prepared))]
        prepared[b] = call
        return call

    @classmethod
    def _reader(cls, opcode: int) -> FieldsReader:
        read = cls._readers.get(opcode)
        if read is None:
            read = cls._readers[opcode] = fields_reader(
                cls._decoder.structs[opcode], OPERANDS[cls.HANDLERS[opcode]]
            )
        return read

    def _admit(self, b: bytes) -> tuple[str, Operands]:
        """(handler, the fields it reads) of a word the executor runs, else the error saying why
        not: not 64 bytes, not decodable, refused by the validators, or not implemented. Only
        the fields the handler needs are read; no struct is built."""
        gen = self.GENERATION
        if len(b) != 64:
            raise InvalidInstructionError(
                f"{gen}: a TPB instruction word is 64 bytes, this one has {len(b)}"
            )
        if b[0] not in self._decoder.structs:
            try:
                self._decoder.decode(b)  # says why it does not decode
            except DecodeError as exc:
                raise InvalidInstructionError(f"{gen}: not decodable: {exc}") from None
        # the compiled headers when they are there (a microsecond), else the translated Python
        if not self._validators.validate(
            b, backend="auto" if self._validators.c is not None else "python"
        ):
            why = self._validators.explain(b)
            raise InvalidInstructionError(
                f"{gen}: opcode {b[0]:#04x} rejected by the validators: {why}", why
            )
        if b[0] in self.REFUSED:
            raise UnsupportedError(f"{gen}: opcode {b[0]:#04x}: {self.REFUSED[b[0]]}; not executed")
        return self.HANDLERS[b[0]], self._reader(b[0])(b)

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
        if isinstance(words, (bytes, bytearray, memoryview, np.ndarray)):
            a = as_words(words)
            rows: Iterable[Word] = [a[k].tobytes() for k in range(a.shape[0])]
        else:
            rows = words
        prepare = self._prepare
        program: list[Prepared] = []
        traced: list[bytes] | None = None if self._trace is None else []
        for i, w in enumerate(rows):
            try:
                b = as_bytes(w)
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

    @classmethod
    def executable(cls) -> tuple[int, ...]:
        """The opcodes ``run`` executes on this generation."""
        return tuple(sorted(cls.HANDLERS))

    # -- handlers: the fields a word holds (OPERANDS) -> its prepared call --------------------

    def _ts(self, o: Operands, bitvec: bool, imm0: Imm, imm1: Imm) -> Prepared:
        return self.engine.prepare_tensor_scalar(
            bitvec=bitvec,
            src=_pattern(o, 0),
            dst=_pattern(o, 3),
            in_dtype=o[6],
            out_dtype=o[7],
            num_active_channels=o[8],
            op0=o[9],
            op1=o[10],
            reverse=o[11],
            imm0=imm0,
            imm1=imm1,
        )

    def _ts_arith(self, o: Operands) -> Prepared:
        return self._ts(o, False, Imm(o[12], o[13]), Imm(o[14], o[15]))

    def _ts_bitvec(self, o: Operands) -> Prepared:
        return self._ts(o, True, Imm(o[12], o[13]), Imm(o[14], o[15]))

    def _ts_ptr_arith(self, o: Operands) -> Prepared:
        return self._ts(o, False, Imm(IMM_POINTER, o[12]), Imm(IMM_POINTER, o[13]))

    def _ts_ptr_bitvec(self, o: Operands) -> Prepared:
        return self._ts(o, True, Imm(IMM_POINTER, o[12]), Imm(IMM_POINTER, o[13]))

    def _cache(self, o: Operands, cumulative: bool) -> Prepared:
        return functools.partial(
            self.engine.tensor_scalar_cache,
            cumulative=cumulative,
            src=_pattern(o, 0),
            dst=_pattern(o, 3),
            in_dtype=o[6],
            out_dtype=o[7],
            num_active_channels=o[8],
            op0=o[9],
            op1=o[10],
            reverse=o[11],
            accumulator_cmd=o[12],
            imm0=Imm(o[13], o[14]),
            imm1=Imm(o[15], o[16]),
        )

    def _cache_reduce(self, o: Operands) -> Prepared:
        return self._cache(o, False)

    def _cache_cumulative(self, o: Operands) -> Prepared:
        return self._cache(o, True)

    def _exponential(self, o: Operands) -> Prepared:
        return functools.partial(
            self.engine.exponential,
            src=_pattern(o, 0),
            dst=_pattern(o, 3),
            in_dtype=o[6],
            out_dtype=o[7],
            num_active_channels=o[8],
            accumulator_cmd=o[9],
            imm0=Imm(o[10], o[11]),
            imm1=Imm(o[12], o[13]),
        )

    def _imm_ld(self, o: Operands, bitvec: bool) -> Prepared:
        return functools.partial(
            self.engine.imm_load,
            bitvec=bitvec,
            src=_pattern(o, 0),
            dtype=o[3],
            num_active_channels=o[4],
        )

    def _imm_ld_arith(self, o: Operands) -> Prepared:
        return self._imm_ld(o, False)

    def _imm_ld_bitvec(self, o: Operands) -> Prepared:
        return self._imm_ld(o, True)

    def _ptr_multi(self, o: Operands, bitvec: bool) -> Prepared:
        return functools.partial(
            self.engine.ptr_multi,
            bitvec=bitvec,
            src=_pattern(o, 0),
            dst=_pattern(o, 3),
            in_dtype=o[6],
            out_dtype=o[7],
            num_active_channels=o[8],
            op=o[9],
            reverse=o[10],
        )

    def _ptr_multi_arith(self, o: Operands) -> Prepared:
        return self._ptr_multi(o, False)

    def _ptr_multi_bitvec(self, o: Operands) -> Prepared:
        return self._ptr_multi(o, True)

    def _ptr_multi_dual(self, o: Operands) -> Prepared:
        return functools.partial(
            self.engine.ptr_multi_dual,
            src=_pattern(o, 0),
            dst=_pattern(o, 3),
            in_dtype=o[6],
            out_dtype=o[7],
            num_active_channels=o[8],
            op=o[9],
            reverse=o[10],
        )
