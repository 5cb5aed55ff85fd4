"""Instruction semantics of the TensorScalar and tensor-tensor families on plain parameters: the
:class:`Engine`.

The per-generation ``Executor`` decodes a 64-byte word into its method's operand record (the
records are emitted by tpbgen from its table of executor semantics, ``operands.py``: the one
declaration of what each method reads); tests and tools may call the engine directly. Every method works in three phases: resolve and bounds-check every
access and scalar (raising before anything changes), compute into fresh arrays with the backend,
then commit (scatter the outputs, update accumulators / flops). Field meanings and the open
choices are documented in semantics.md and in the generated README's executor section.

Operand order of the two-op forms (semantics.md §1.3, ``TENS_SCALAR_REV_OPS``): bit 0 of
``reverse_operands`` reverses op0, bit 1 reverses op1:
NONE ``(t op0 s0) op1 s1``, FIRST ``(s0 op0 t) op1 s1``, SECOND ``s1 op1 (t op0 s0)``,
BOTH ``s1 op1 (s0 op0 t)``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from . import admission, alu
from . import dtypes as dt
from .access import MARKER_ADDR_REG, Walk, resolve_addr4, walk
from .cbackend import Backend, get_backend
from .codes import ACCUM_CMD, IMM_SRC, REV_OPS, WIDE_OP
from .errors import AddressError, ExecutorError, UnsupportedError
from .memory import IMM_FLOPS_PER_CHANNEL, Memory
from .numerics import Numerics
from .operands import (
    CopyPredicatedOperands,
    EngineOperands,
    ExponentialOperands,
    ImmLoadOperands,
    IotaOperands,
    MemsetOperands,
    PtrMultiDualOperands,
    PtrMultiOperands,
    ReciprocalOperands,
    ScalarTensorTensorOperands,
    TensorCopyOperands,
    TensorReduceOperands,
    TensorScalarCacheOperands,
    TensorScalarOperands,
    TensorTensorOperands,
    TensorTensorScanOperands,
    TensorTensorWideOperands,
)

F32 = npt.NDArray[np.float32]
U32 = npt.NDArray[np.uint32]

# The executor's semantic codes of the accumulator commands, immediate sources and operand
# reversals, by name (codes.py, emitted from tpbgen's table): never a drop's values, which each generation's executor maps
# to these names first.
_ACCUM = ACCUM_CMD
ACCUM_IDLE = _ACCUM["IDLE"]
ACCUM_ZERO = _ACCUM["ZERO"]
ACCUM_ACCUMULATE = _ACCUM["ACCUMULATE"]
ACCUM_ZERO_ACCUMULATE = _ACCUM["ZERO_ACCUMULATE"]
ACCUM_LOAD_ACCUMULATE = _ACCUM["LOAD_ACCUMULATE"]
_IMM = IMM_SRC
IMM_INSTRUCTION = _IMM["INSTRUCTION_IMMEDIATE"]
IMM_POINTER = _IMM["POINTER_IMMEDIATE"]
IMM_REG_POINTER = _IMM["REG_PTR_IMMEDIATE"]
_REV = REV_OPS
REV_NONE = _REV["NONE"]
REV_FIRST = _REV["FIRST"]
REV_SECOND = _REV["SECOND"]
REV_BOTH = _REV["BOTH"]


# Pattern and Imm are frozen dataclasses with their own `__init__`: it writes the fields into the
# instance's dict (as attrs does for frozen classes), where the generated one calls
# object.__setattr__ a field, twice the cost; an executor makes several of them for every new
# word it admits. Everything else (eq, hash, repr, replace, the frozen error) is the dataclass's.


@dataclass(frozen=True, init=False)
class Pattern:
    """An access pattern: the raw 32 bits of its ADDR4 ``start_addr``, element steps and counts
    (dimension 0 innermost), as in TENSOR2D/3D/4D."""

    start_addr: int
    steps: tuple[int, ...]
    nums: tuple[int, ...]

    def __init__(self, start_addr: int, steps: tuple[int, ...], nums: tuple[int, ...]) -> None:
        fields = self.__dict__
        fields["start_addr"] = start_addr
        fields["steps"] = steps
        fields["nums"] = nums

    @property
    def count(self) -> int:
        c = 1
        for n in self.nums:
            c *= int(n)
        return c


@dataclass(frozen=True, init=False)
class Imm:
    """An immediate operand: its ``IMM_SRC`` and the raw 32 bits of ``IMM_VAL_INST_FIELD``."""

    src: int
    bits: int

    def __init__(self, src: int, bits: int) -> None:
        fields = self.__dict__
        fields["src"] = src
        fields["bits"] = bits

    @staticmethod
    def f32(value: float) -> Imm:
        return Imm(IMM_INSTRUCTION, int(np.array([value], dtype=np.float32).view(np.uint32)[0]))

    @staticmethod
    def ptr(addr: int) -> Imm:
        return Imm(IMM_POINTER, int(addr))

    @staticmethod
    def reg(regnum: int) -> Imm:
        return Imm(IMM_REG_POINTER, int(regnum))


ZERO_IMM = Imm(IMM_INSTRUCTION, 0)


def _direct(dst_w: Walk, *inputs: npt.NDArray[Any]) -> npt.NDArray[Any] | None:
    """The destination as a memory view a kernel may write into directly: only for a plain
    strided walk that shares no memory with anything the kernel still has to read."""
    view = dst_w.direct()
    if view is None:
        return None
    # exact overlap test: two strided 2-D views of one partition array solve instantly
    if any(np.shares_memory(view, a) for a in inputs):
        return None
    return view


def _register_addressed(*patterns: Pattern) -> bool:
    """Whether a pattern's start address is in a register (read when the instruction runs)."""
    return any((int(p.start_addr) >> 24) & MARKER_ADDR_REG for p in patterns)


def _commit(dst_w: Walk, out: npt.NDArray[Any], direct: npt.NDArray[Any] | None) -> None:
    if direct is None:
        dst_w.scatter(out)


def _canonical_nan(v: F32) -> F32:
    """The accumulator keeps NaN as the canonical quiet NaN (its payload is not modelled)."""
    out: F32 = np.where(np.isnan(v), np.float32(np.nan), v).astype(np.float32)
    return out


def _signed(value: int, bits: int) -> int:
    """`value`'s low `bits` bits as a two's-complement integer."""
    v = int(value) & ((1 << bits) - 1)
    return v - (1 << bits) if v >> (bits - 1) else v


def _filled(nch: int, bits: int) -> U32:
    """(nch, 1) uint32, every element `bits` (np.full costs 2.5x this for a prepared word)."""
    out: U32 = np.empty((nch, 1), np.uint32)
    out.fill(bits)
    return out


def _rev(reverse: int) -> tuple[bool, bool]:
    r = int(reverse)
    if r not in (REV_NONE, REV_FIRST, REV_SECOND, REV_BOTH):
        raise UnsupportedError(f"reverse_operands {r} is not a TENS_SCALAR_REV_OPS value")
    return bool(r & 1), bool(r & 2)


class Engine:
    """The machine model (:class:`Memory`), a backend and the numeric switches.

    ``geometry`` maps the generation's header constant names (prefix stripped) to values; see
    :data:`memory.REQUIRED_GEOMETRY`. ``backend`` is ``"auto"``, ``"c"`` or ``"numpy"``.
    """

    def __init__(
        self,
        geometry: Mapping[str, int],
        numerics: Numerics | None = None,
        backend: str = "auto",
    ) -> None:
        self.memory = Memory(geometry)
        self.numerics = numerics or Numerics()
        self.backend: Backend = get_backend(backend)
        self.instructions_executed = 0
        #: The observer seam: the access functions every method resolves its addresses and walks
        #: through (`access.resolve_addr4`, `access.walk`). An observer (info's footprints) sets
        #: its own on its own engine, wrapping these; nothing else is patched.
        self.resolve_addr4: Callable[..., int] = resolve_addr4
        self.walk: Callable[..., Walk] = walk

    # -- state access ---------------------------------------------------------------------------

    @property
    def sbuf(self) -> npt.NDArray[np.uint8]:
        """SBUF as a writable uint8 view of shape (partitions, active bytes per partition)."""
        return self.memory.sbuf_region.data

    @property
    def psum(self) -> npt.NDArray[np.uint8]:
        """PSUM as a writable uint8 view of shape (partitions, active bytes per partition)."""
        return self.memory.psum_region.data

    @property
    def registers(self) -> npt.NDArray[np.uint32]:
        return self.memory.registers

    @property
    def accumulators(self) -> npt.NDArray[np.float32]:
        """The per-channel fp32 accumulator of the cache-reduce/cumulative/exponential family."""
        return self.memory.accumulators

    @property
    def imm_flops(self) -> npt.NDArray[np.uint32]:
        """The ImmLd scalar flops: (channels, 8) raw 32-bit values (fp32 bits after 0x70)."""
        return self.memory.imm_flops

    def write(self, addr: int, array: npt.ArrayLike) -> None:
        self.memory.write(addr, array)

    def read(self, addr: int, dtype: Any, shape: tuple[int, ...] | int) -> npt.NDArray[Any]:
        """Read (partitions, ...) elements; ``dtype`` is a numpy dtype or a TPB dtype code."""
        npdt = dt.numpy_dtype(dtype, self.numerics) if isinstance(dtype, int) else np.dtype(dtype)
        return self.memory.read(addr, npdt, shape)

    def set_register(self, n: int, value: int) -> None:
        self.memory.set_register(n, value)

    def prepare(self, operands: EngineOperands) -> Callable[[], None]:
        """``operands.run(self)`` (its Engine method on them) as a call to make again and
        again: the method's own ``prepare_<method>`` when it has one (work done once, see
        `prepare_tensor_scalar`; `PREPARERS`), else the method bound to its operands."""
        prepare = PREPARERS.get(type(operands))
        if prepare is not None:
            return prepare(self, operands)
        return functools.partial(operands.run, self)

    # -- helpers --------------------------------------------------------------------------------

    def _key(self) -> int:
        return dt.stream_key(self.numerics.seed, self.instructions_executed)

    def _channels(self, n: int) -> int:
        n = int(n)
        admission.check_channels(n, self.memory.channels)
        return n

    def _walk(self, p: Pattern, code: int, nch: int, what: str) -> Walk:
        addr = self.resolve_addr4(p.start_addr, self.memory, what)
        return self.walk(self.memory, addr, p.steps, p.nums, dt.size(code), nch, what)

    def _pointer(self, imm: Imm, what: str) -> int:
        if imm.src == IMM_POINTER:
            return int(imm.bits) & 0xFFFFFFFF
        if imm.src == IMM_REG_POINTER:
            reg = int(imm.bits) & 0xFF
            if reg >= self.memory.registers.shape[0]:
                raise AddressError(f"{what}: register {reg} does not exist")
            return int(self.memory.registers[reg])
        raise UnsupportedError(f"{what}: IMM_SRC {imm.src} is not a TensorScalar immediate source")

    def _scalar_f32(self, imm: Imm, nch: int, what: str) -> F32:
        """An arith scalar, one fp32 per active channel, shape (nch, 1)."""
        if imm.src == IMM_INSTRUCTION:
            bits = _filled(nch, int(imm.bits) & 0xFFFFFFFF)
            return bits.view(np.float32)  # the bits as they are (a NaN keeps its payload)
        w = self.walk(self.memory, self._pointer(imm, what), (1,), (1,), 4, nch, what)
        return np.ascontiguousarray(w.gather()).view(np.float32).copy()

    def _scalar_bits(self, imm: Imm, nch: int, code: int, what: str) -> U32:
        """A bitvec scalar at the dtype's width, zero-extended, shape (nch, 1)."""
        mask = (1 << (dt.size(code) * 8)) - 1
        if imm.src == IMM_INSTRUCTION:
            return _filled(nch, int(imm.bits) & mask)
        w = self.walk(self.memory, self._pointer(imm, what), (1,), (1,), dt.size(code), nch, what)
        return w.gather().astype(np.uint32)

    @staticmethod
    def _same_count(src: Pattern, dst: Pattern) -> None:
        admission.check_same_count(src.count, dst.count)

    # -- 0x43 / 0x53 / 0x44 / 0x54 ----------------------------------------------------------------

    def _ts_operands(
        self,
        bitvec: bool,
        src: Pattern,
        dst: Pattern,
        in_dtype: int,
        out_dtype: int,
        num_active_channels: int,
        op0: int,
        op1: int,
        reverse: int,
    ) -> tuple[int, int, int, bool, bool, bool, bool]:
        """TensorScalar's checks of everything but memory: (channels, in and out dtype codes,
        the two reverse bits, whether op0 and op1 read their scalar)."""
        nch = self._channels(num_active_channels)
        in_dtype, out_dtype = int(in_dtype), int(out_dtype)
        dt.info(in_dtype)
        dt.info(out_dtype)
        rev0, rev1 = _rev(reverse)
        self._same_count(src, dst)
        uses0 = int(op0) != alu.BYPASS and int(op0) not in alu.UNARY_OPS
        uses1 = int(op1) != alu.BYPASS and int(op1) not in alu.UNARY_OPS
        if bitvec:
            alu.check_bitvec(op0)
            alu.check_bitvec(op1)
            admission.check_ts_bitvec_dtypes(in_dtype, out_dtype)
        else:
            alu.check_arith(op0)
            alu.check_arith(op1)
        return nch, in_dtype, out_dtype, rev0, rev1, uses0, uses1

    def _ts_scalars(
        self, bitvec: bool, imm0: Imm, imm1: Imm, uses0: bool, uses1: bool, nch: int, code: int
    ) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """TensorScalar's two scalars, (nch, 1) each: raw bits at the dtype's width for bitvec,
        fp32 for arith; zeros for an op that reads none."""
        if bitvec:
            zb: U32 = np.zeros((nch, 1), np.uint32)
            return (
                self._scalar_bits(imm0, nch, code, "imm0") if uses0 else zb,
                self._scalar_bits(imm1, nch, code, "imm1") if uses1 else zb,
            )
        zf: F32 = np.zeros((nch, 1), np.float32)
        return (
            self._scalar_f32(imm0, nch, "imm0") if uses0 else zf,
            self._scalar_f32(imm1, nch, "imm1") if uses1 else zf,
        )

    def _ts_checked(self, o: TensorScalarOperands) -> tuple[int, int, int, bool, bool, bool, bool]:
        """`_ts_operands` of a TensorScalar's operands."""
        return self._ts_operands(
            o.bitvec, o.src, o.dst, o.in_dtype, o.out_dtype, o.num_active_channels, o.op0, o.op1,
            o.reverse,
        )  # fmt: skip

    def tensor_scalar(self, o: TensorScalarOperands) -> None:
        """``out = op1(op0(t, s0), s1)`` in the reverse form ``reverse`` (arith or bitvec)."""
        nch, in_dtype, out_dtype, rev0, rev1, uses0, uses1 = self._ts_checked(o)
        src_w = self._walk(o.src, in_dtype, nch, "src_mem_pattern")
        dst_w = self._walk(o.dst, out_dtype, nch, "dst_mem_pattern")
        key = self._key()
        raw = src_w.gather()
        direct = _direct(dst_w, raw)
        a, b = self._ts_scalars(o.bitvec, o.imm0, o.imm1, uses0, uses1, nch, in_dtype)
        op0, op1 = int(o.op0), int(o.op1)
        if o.bitvec:
            out = self.backend.ts_bitvec(raw, in_dtype, a, b, op0, op1, rev0, rev1, direct)
        else:
            out = self.backend.ts_arith(
                raw, in_dtype, out_dtype, a, b, op0, op1, rev0, rev1, self.numerics, key, direct
            )
        _commit(dst_w, out, direct)
        self.instructions_executed += 1

    def prepare_tensor_scalar(self, o: TensorScalarOperands) -> Callable[[], None]:
        """``tensor_scalar(o)`` as a call to make again and again.

        When nothing the instruction reads depends on the machine's state (immediate addresses,
        scalars in the instruction) and both walks are plain strides that do not overlap, the
        walks, the scalars and the backend's arguments are worked out here, once, and each call
        runs the kernel straight on memory. Otherwise (a register address, a scalar in memory, a
        gather or scatter walk, or an instruction in error) each call runs ``tensor_scalar(o)``
        in full, so what it does and when it raises are unchanged.
        """
        try:
            fast = self._prepared_tensor_scalar(o)
        except ExecutorError:
            fast = None  # raised again, at the same point as before, when it runs
        return functools.partial(self.tensor_scalar, o) if fast is None else fast

    def _prepared_tensor_scalar(self, o: TensorScalarOperands) -> Callable[[], None] | None:
        for p in (o.src, o.dst):
            if (int(p.start_addr) >> 24) & MARKER_ADDR_REG:
                return None  # the address is in a register: read it when the instruction runs
        nch, in_dtype, out_dtype, rev0, rev1, uses0, uses1 = self._ts_checked(o)
        if (uses0 and o.imm0.src != IMM_INSTRUCTION) or (uses1 and o.imm1.src != IMM_INSTRUCTION):
            return None  # a scalar read from memory when the instruction runs
        src_w = self._walk(o.src, in_dtype, nch, "src_mem_pattern")
        dst_w = self._walk(o.dst, out_dtype, nch, "dst_mem_pattern")
        if src_w.slc is None:
            return None  # a gathered source is a copy: it has to be taken when it runs
        raw = src_w.gather()  # a view of memory: it sees every later write
        direct = _direct(dst_w, raw)
        if direct is None:
            return None
        backend, numerics = self.backend, self.numerics
        kernel: Callable[[int], object]
        a, b = self._ts_scalars(o.bitvec, o.imm0, o.imm1, uses0, uses1, nch, in_dtype)
        op0, op1 = int(o.op0), int(o.op1)
        if o.bitvec:
            kernel = backend.bind_ts_bitvec(raw, in_dtype, a, b, op0, op1, rev0, rev1, direct)
        else:
            kernel = backend.bind_ts_arith(
                raw, in_dtype, out_dtype, a, b, op0, op1, rev0, rev1, numerics, direct
            )
        seed = numerics.seed
        stream_key = dt.stream_key

        def run() -> None:
            if self.backend is not backend or self.numerics is not numerics:
                self.tensor_scalar(o)  # what it was prepared for no longer holds
                return
            kernel(stream_key(seed, self.instructions_executed))
            self.instructions_executed += 1

        return run

    # -- 0x9a / 0xe6 ----------------------------------------------------------------------------

    def _seed(self, cmd: int, op1: int, imm1: Imm, nch: int) -> tuple[F32, bool]:
        """The accumulator's starting value per channel and whether this instruction accumulates."""
        if cmd == ACCUM_ACCUMULATE:
            return self.memory.accumulators[:nch].copy(), True
        if cmd == ACCUM_ZERO_ACCUMULATE:
            return np.full(nch, alu.ACCUM_IDENTITY[op1], dtype=np.float32), True
        if cmd == ACCUM_LOAD_ACCUMULATE:
            return self._scalar_f32(imm1, nch, "imm1").reshape(nch), True
        if cmd == ACCUM_ZERO:
            return np.full(nch, alu.ACCUM_IDENTITY[op1], dtype=np.float32), False
        if cmd == ACCUM_IDLE:
            return self.memory.accumulators[:nch].copy(), False
        raise UnsupportedError(f"accumulator_cmd {cmd} is not an ACCUM_CMD value")

    def tensor_scalar_cache(self, o: TensorScalarCacheOperands) -> None:
        """CacheReduce (0x9a) / CacheCumulative (0xe6): per channel, in element order,
        ``reg = op1(op0(in[i], imm0), reg)`` (semantics.md §10).

        The seed: ZERO_ACCUMULATE -> op1's identity, ACCUMULATE -> the value the previous
        instruction left, LOAD_ACCUMULATE -> imm1. Cumulative writes ``reg`` after every step;
        Reduce writes ``op0(in[i], imm0)`` element-wise (NKI ``tensor_scalar_reduce``'s ``dst``) and
        leaves the reduction in :attr:`accumulators`. IDLE leaves the accumulator alone and ZERO
        resets it without accumulating (NKI ``reduce_cmd`` idle/reset); the cumulative form refuses
        both (its output is the running value).
        """
        nch = self._channels(o.num_active_channels)
        in_dtype, out_dtype = int(o.in_dtype), int(o.out_dtype)
        dt.info(in_dtype)
        dt.info(out_dtype)
        op0, op1, cmd = int(o.op0), int(o.op1), int(o.accumulator_cmd)
        alu.check_arith(op0)
        if op1 not in alu.ACCUM_IDENTITY:
            raise UnsupportedError(
                f"op1 {alu.op_name(op1)} is not an accumulate operator (add, subtract, mult, max, min)"
            )
        rev0, rev1 = _rev(o.reverse)
        if rev1:
            raise UnsupportedError("the accumulate step has no reversed form (reverse bit 1 set)")
        if o.cumulative and cmd in (ACCUM_IDLE, ACCUM_ZERO):
            raise UnsupportedError(
                "CacheCumulative with accumulator_cmd IDLE/ZERO has no running value to write"
            )
        self._same_count(o.src, o.dst)
        src_w = self._walk(o.src, in_dtype, nch, "src_mem_pattern")
        dst_w = self._walk(o.dst, out_dtype, nch, "dst_mem_pattern")
        uses0 = op0 != alu.BYPASS and op0 not in alu.UNARY_OPS
        s0 = self._scalar_f32(o.imm0, nch, "imm0") if uses0 else np.zeros((nch, 1), np.float32)
        seed, use_acc = self._seed(cmd, op1, o.imm1, nch)
        key = self._key()
        raw = src_w.gather()
        direct = _direct(dst_w, raw)
        out, final = self.backend.accumulate(
            raw, in_dtype, out_dtype, s0, op0, rev0, op1, seed, o.cumulative, use_acc,
            self.numerics, key, direct,
        )  # fmt: skip
        _commit(dst_w, out, direct)
        if use_acc or cmd == ACCUM_ZERO:
            self.memory.accumulators[:nch] = _canonical_nan(final if use_acc else seed)
        self.instructions_executed += 1

    # -- 0x30 -------------------------------------------------------------------------------------

    def exponential(self, o: ExponentialOperands) -> None:
        """``dst[i] = exp(src[i] - imm0)`` with an optional running sum in the accumulator.

        From AWS's ``nki.isa.exponential`` (NC-v4+): ``max_value`` is subtracted before exp, the
        accumulation is a sum of the fp32 exp values, ``reduce_init`` is loaded by
        LOAD_ACCUMULATE (imm1). exp itself is a deterministic fp32 polynomial (within 2 ulp); the
        device's piecewise-cubic table is not published, so last-bit differences are expected.
        """
        nch = self._channels(o.num_active_channels)
        in_dtype, out_dtype, cmd = int(o.in_dtype), int(o.out_dtype), int(o.accumulator_cmd)
        dt.info(in_dtype)
        dt.info(out_dtype)
        self._same_count(o.src, o.dst)
        src_w = self._walk(o.src, in_dtype, nch, "src_mem_pattern")
        dst_w = self._walk(o.dst, out_dtype, nch, "dst_mem_pattern")
        s0 = self._scalar_f32(o.imm0, nch, "imm0")
        seed, use_acc = self._seed(cmd, alu.ADD, o.imm1, nch)
        key = self._key()
        raw = src_w.gather()
        direct = _direct(dst_w, raw)
        out, final = self.backend.exp(
            raw, in_dtype, out_dtype, s0, seed, use_acc, self.numerics, key, direct
        )
        _commit(dst_w, out, direct)
        if use_acc or cmd == ACCUM_ZERO:
            self.memory.accumulators[:nch] = _canonical_nan(final if use_acc else seed)
        self.instructions_executed += 1

    # -- 0x70 / 0x71 ------------------------------------------------------------------------------

    def imm_load(self, o: ImmLoadOperands) -> None:
        """TensorScalarImmLd: load W = num[0] * num[1] (1..8) values per channel into the flops.

        Arith (0x70) converts each value to fp32; bitvec (0x71) keeps the raw bits zero-extended
        (s2_bn.h:72-92). Channel ``p`` is the ``p``-th active partition from the start address.
        """
        nch = self._channels(o.num_active_channels)
        code = int(o.dtype)
        dt.info(code)
        count = o.src.count
        admission.check_imm_load_count(count)
        w = self._walk(o.src, code, nch, "src_mem_pattern")
        raw = w.gather()
        if o.bitvec:
            vals = raw.astype(np.uint32)
        else:
            vals = np.ascontiguousarray(dt.load_f32(code, raw, self.numerics)).view(np.uint32)
        flops = self.memory.imm_flops
        flops[:nch, :count] = vals
        flops[:nch, count:] = 0
        self.memory.imm_count = count
        self.memory.imm_channels = nch
        self.memory.imm_kind = "bitvec" if o.bitvec else "arith"
        self.instructions_executed += 1

    def _flops(self, needed: int, nch: int, kind: str, what: str) -> U32:
        m = self.memory
        if m.imm_kind != kind:
            loaded = m.imm_kind or "nothing"
            raise UnsupportedError(
                f"{what} needs scalars loaded by TensorScalarImmLd {kind}; the flops hold "
                f"{loaded}, and what it reads then is not modelled"
            )
        if m.imm_count < needed or m.imm_channels < nch:
            raise UnsupportedError(
                f"{what} needs {needed} scalars on {nch} channels; the last ImmLd loaded "
                f"{m.imm_count} on {m.imm_channels}, and what it reads then is not modelled"
            )
        return m.imm_flops[:nch, :needed].copy()

    # -- 0x46 / 0x47 ------------------------------------------------------------------------------

    def tensor_copy(self, o: TensorCopyOperands) -> None:
        """Copy (0x46) and Cast (0x47): element k of the source walk to element k of the
        destination walk (the shapes may differ, the counts may not).

        Copy moves the elements bit for bit (its validator pins out_dtype == in_dtype); Cast
        converts each through the fp32 hub to out_dtype, rounded once by the numerics, which is
        TensorScalar arith with both ops BYPASS (next-families-facts.md §2a: in -> fp32 -> out)."""
        if o.cast:
            self.tensor_scalar(_converting(o, alu.BYPASS))
            return
        nch = self._channels(o.num_active_channels)
        in_dtype, out_dtype = int(o.in_dtype), int(o.out_dtype)
        dt.info(in_dtype)
        dt.info(out_dtype)
        if dt.size(in_dtype) != dt.size(out_dtype):
            raise UnsupportedError("a Copy moves elements bit for bit: its dtypes are one size")
        self._same_count(o.src, o.dst)
        src_w = self._walk(o.src, in_dtype, nch, "src_mem_pattern")
        dst_w = self._walk(o.dst, out_dtype, nch, "dst_mem_pattern")
        values = src_w.gather()
        direct = _direct(dst_w, values) if src_w.slc is not None else None
        if direct is not None:  # two plain strides that share no memory: one pass
            self.backend.move(values, direct)
        else:
            dst_w.scatter(np.array(values))  # every read before any write
        self.instructions_executed += 1

    def prepare_tensor_copy(self, o: TensorCopyOperands) -> Callable[[], None]:
        """``tensor_copy(o)`` as a call to make again and again: a Cast is TensorScalar's
        (`prepare_tensor_scalar`); a Copy runs in full."""
        if o.cast:
            return self.prepare_tensor_scalar(_converting(o, alu.BYPASS))
        return functools.partial(self.tensor_copy, o)

    def prepare_reciprocal(self, o: ReciprocalOperands) -> Callable[[], None]:
        """``reciprocal(o)`` as a call to make again and again: TensorScalar's."""
        return self.prepare_tensor_scalar(_converting(o, alu.RECIPROCAL))

    # -- 0x48 -------------------------------------------------------------------------------------

    def reciprocal(self, o: ReciprocalOperands) -> None:
        """Reciprocal (0x48): ``1 / x`` per element, in -> fp32 -> out through the fp32 hub
        (next-families-facts.md §2b, NKI ``reciprocal``), one IEEE rounding (alu.RECIPROCAL);
        the validator pins op = BYPASS, op_dim X, negated and mask_enable zero."""
        self.tensor_scalar(_converting(o, alu.RECIPROCAL))

    # -- 0x7E -------------------------------------------------------------------------------------

    def iota(self, o: IotaOperands) -> None:
        """Iota (0x7E): element k of the destination walk of channel c gets
        ``base + c * channel_multiplier + k * step`` in 32-bit integers, stored as out_dtype
        (next-families-facts.md §6a, NKI ``iota``). `ramp` is the DATA4D: start_addr its base.

        Only what the sources pin runs; the rest is refused (Q8, R6 §4): a ramp over more than
        one dimension (which step_elem is innermost is not stated), a value outside int32 (its
        overflow), a channel multiplier on a destination not starting at partition 0 (whether
        channel_id counts from there), and a value out_dtype does not hold exactly (the int32
        -> out_dtype rounding or saturation is not stated)."""
        dst_w, rows, cols, lo, hi, out_dtype = self._iota_plan(o)
        direct = self._iota_direct(dst_w, rows, cols, lo, hi, out_dtype)
        if direct is not None:
            direct()
        else:
            dst_w.scatter(self._iota_store(rows[:, None] + cols[None, :], out_dtype))
        self.instructions_executed += 1

    def prepare_iota(self, o: IotaOperands) -> Callable[[], None]:
        """``iota(o)`` as a call to make again and again: an Iota reads nothing from memory,
        so its checks and its row and column terms are worked out once (`_prepared_pass`), and
        each call is the one pass of `_iota_direct`."""
        return self._prepared_pass(
            functools.partial(self.iota, o), o.dst, lambda: self._iota_direct(*self._iota_plan(o))
        )

    def _prepared_pass(
        self, full: Callable[[], None], dst: Pattern,
        direct_of: Callable[[], Callable[[], None] | None],
    ) -> Callable[[], None]:  # fmt: skip
        """A write-only instruction (one that reads nothing from memory) as a call to make again
        and again: with an immediate destination address, `direct_of()` (its checks and its
        one pass over a plain-stride destination, or None where that does not apply) worked
        out here, once; else, or when it raises, `full` (the method, which raises again at the
        same point when it runs)."""
        if _register_addressed(dst):
            return full
        try:
            direct = direct_of()
        except ExecutorError:
            return full
        if direct is None:
            return full
        return self._prepared_run(full, lambda _key: direct())

    def _iota_plan(
        self, o: IotaOperands
    ) -> tuple[Walk, npt.NDArray[np.int64], npt.NDArray[np.int64], int, int, int]:
        """`iota`'s checks, destination walk and terms, in its order: (the walk, the row terms,
        the column terms, the least and the greatest value, out_dtype)."""
        nch = self._channels(o.num_active_channels)
        ramp, dst = o.ramp, o.dst
        out_dtype = int(o.out_dtype)
        dt.info(out_dtype)
        self._same_count(ramp, dst)
        dims = [(int(s), int(n)) for s, n in zip(ramp.steps, ramp.nums, strict=True) if int(n) != 1]
        if len(dims) > 1:
            raise UnsupportedError(
                "Iota: a ramp over more than one DATA4D dimension needs the order of step_elem, "
                "which the sources do not state (next-families-facts.md Q8)"
            )
        dst_w = self._walk(dst, out_dtype, nch, "dst_mem_pattern")
        cm = _signed(o.channel_multiplier, 32)
        if cm != 0 and dst_w.partition != 0:
            raise UnsupportedError(
                f"Iota: whether channel_id counts from partition 0 or from the destination's "
                f"partition {dst_w.partition} is not stated (next-families-facts.md §6a)"
            )
        step = _signed(dims[0][0], 16) if dims else 0
        # value[c, k] = rows[c] + cols[k]: affine, so its extremes are the sums of theirs
        rows = _signed(ramp.start_addr, 32) + cm * np.arange(nch, dtype=np.int64)
        cols = step * np.arange(dst.count, dtype=np.int64)
        lo = int(rows.min()) + int(cols.min()) if cols.size else 0
        hi = int(rows.max()) + int(cols.max()) if cols.size else 0
        if lo < -(2**31) or hi >= 2**31:
            raise UnsupportedError(
                "Iota: the ramp leaves int32, whose overflow is not stated "
                "(next-families-facts.md Q8)"
            )
        return dst_w, rows, cols, lo, hi, out_dtype

    def _iota_direct(
        self, dst_w: Walk, rows: npt.NDArray[np.int64], cols: npt.NDArray[np.int64], lo: int,
        hi: int, code: int,
    ) -> Callable[[], None] | None:  # fmt: skip
        """Iota's values added straight into a plain-stride destination, when it is int32, or
        fp32 and every value, row term and column term is an integer fp32 holds exactly (then
        each fp32 sum is exact too, and equals the int32 -> fp32 hub's result): one pass over
        the output instead of an int64 table, a conversion and a scatter. The call that makes
        that pass, or None where it does not apply."""
        view = dst_w.direct()
        if view is None:
            return None
        outer_add = self.backend.outer_add
        if code == dt.INT32:  # wrapping int32 sums of wrapped terms: exact, the sum is in range
            r32, c32, v32 = rows.astype(np.int32), cols.astype(np.int32), view.view(np.int32)
            return lambda: outer_add(r32, c32, v32)
        exact = 2**24
        if code != dt.FP32 or max(-lo, hi) > exact:
            return None
        if max(int(np.abs(rows).max()), int(np.abs(cols).max())) > exact:
            return None
        rf, cf, vf = rows.astype(np.float32), cols.astype(np.float32), view.view(np.float32)
        return lambda: outer_add(rf, cf, vf)

    def _iota_store(self, values: npt.NDArray[np.int64], code: int) -> npt.NDArray[Any]:
        """Iota's int32 values as `code`'s raw elements, when `code` holds each exactly: an
        integer dtype by range, a float one through the backend's fp32 hub (int32 -> fp32 exact
        up to 2^24), checked by reading the result back."""
        inexact = UnsupportedError(
            f"Iota: a value of the ramp is not exact in {dt.info(code).name}, and the int32 -> "
            f"{dt.info(code).name} rounding of Iota is not stated (next-families-facts.md §6a)"
        )
        if code in dt.INT_CODES:
            lo, hi = dt.int_range(code)
            if values.size and (int(values.min()) < lo or int(values.max()) > hi):
                raise inexact
            return values.astype(dt.numpy_dtype(code)).view(dt.storage_dtype(code))
        if values.size and int(np.abs(values).max()) > 2**24:
            raise inexact
        raw = np.ascontiguousarray(values.astype(np.int32).view(np.uint32))
        out = self._converted(raw, dt.INT32, code)
        back = dt.load_f32(code, np.asarray(out), self.numerics).astype(np.float64)
        if not np.array_equal(back, values.astype(np.float64)):
            raise inexact
        return out

    # -- 0x49 -------------------------------------------------------------------------------------

    def memset(self, o: MemsetOperands) -> None:
        """Memset (0x49): every element of the destination walk gets set_value, which holds the
        fill in the dtype's own encoding, zero-extended (its validator's memset_set_value_type;
        next-families-facts.md §6b, NKI ``memset``).

        dst_element_count repeats the destination's count, per partition or in total (Q13
        leaves which open): a word whose count is neither is refused, since what the engine
        does with a count that disagrees with its pattern is not stated."""
        dst_w, bits = self._memset_plan(o)
        direct = self._memset_direct(dst_w, bits)
        if direct is not None:
            direct()
        else:
            dst_w.scatter(
                np.full((dst_w.nparts, o.dst.count), bits, dt.storage_dtype(int(o.dtype)))
            )
        self.instructions_executed += 1

    def _memset_direct(self, dst_w: Walk, bits: int) -> Callable[[], None] | None:
        """The one fill of a plain-stride destination, or None where it is not one."""
        view = dst_w.direct()
        if view is None:
            return None
        fill = self.backend.fill
        return lambda: fill(view, bits)

    def _memset_plan(self, o: MemsetOperands) -> tuple[Walk, int]:
        """`memset`'s checks and destination walk, in its order: (the walk, the fill's bits)."""
        nch = self._channels(o.num_active_channels)
        dst = o.dst
        code = int(o.dtype)
        width = dt.size(code) * 8
        count = int(o.dst_element_count)
        if count not in (dst.count, dst.count * nch):
            raise UnsupportedError(
                f"Memset: dst_element_count {count} is neither the destination's {dst.count} "
                f"elements per partition nor its {dst.count * nch} in all, and what the engine "
                "does then is not stated (next-families-facts.md Q13)"
            )
        bits = int(o.set_value) & 0xFFFFFFFF
        if bits >> width:
            raise UnsupportedError(
                f"Memset: set_value 0x{bits:X} has bits a {width}-bit dtype does not hold"
            )
        return self._walk(dst, code, nch, "dst_mem_pattern"), bits

    def prepare_memset(self, o: MemsetOperands) -> Callable[[], None]:
        """``memset(o)`` as a call to make again and again: a Memset reads nothing from memory,
        so its checks and its walk are worked out once (`_prepared_pass`), and each call is the
        one fill of `_memset_direct`."""
        return self._prepared_pass(
            functools.partial(self.memset, o), o.dst,
            lambda: self._memset_direct(*self._memset_plan(o)),
        )  # fmt: skip

    # -- 0x72 / 0x99 ------------------------------------------------------------------------------

    def copy_predicated(self, o: CopyPredicatedOperands) -> None:
        """CopyPredicated (0x72) and CastPredicated (0x99): where element k of the predicate
        walk (src0, an integer dtype) is true, element k of the destination walk becomes element
        k of the data walk (src1), moved bit for bit (0x72) or converted through the fp32 hub
        (0x99); where it is zero the destination keeps its value (next-families-facts.md §3;
        NKI ``tensor_copy_predicated``, KLR "for which predicate is not 0").

        Whether a predicate is true when nonzero or by its low bit is open (Q7): the two
        readings agree on 0 and on odd values, and a nonzero even value is refused."""
        nch = self._channels(o.num_active_channels)
        cast, src0, src1, dst = o.cast, o.src0, o.src1, o.dst
        pred_code, data_code, out_code = int(o.in0_dtype), int(o.in1_dtype), int(o.out_dtype)
        for code in (pred_code, data_code, out_code):
            dt.info(code)
        if pred_code not in dt.INT_CODES:
            raise UnsupportedError(
                f"a predicated copy's predicate is an integer dtype, not {dt.info(pred_code).name}"
            )
        if not cast and dt.size(data_code) != dt.size(out_code):
            raise UnsupportedError(
                "a CopyPredicated moves elements bit for bit: its dtypes are one size"
            )
        self._same_count(src0, dst)
        self._same_count(src1, dst)
        pred_w = self._walk(src0, pred_code, nch, "src0_mem_pattern")
        data_w = self._walk(src1, data_code, nch, "src1_mem_pattern")
        dst_w = self._walk(dst, out_code, nch, "dst_mem_pattern")
        # the destination is read as well: the lanes whose predicate is zero keep their bits
        # (a walk named so that `info` counts it among the reads)
        kept_w = self._walk(dst, out_code, nch, "kept dst_mem_pattern")
        pred = pred_w.gather()
        at = self.backend.undecided(pred)
        if at >= 0:
            value = int(pred.reshape(-1)[at])
            raise UnsupportedError(
                f"predicate element 0x{value:X} is nonzero and even: whether a predicate is true "
                "when nonzero or by its low bit is not stated (next-families-facts.md Q7)"
            )
        raw = data_w.gather()
        direct = _direct(dst_w, pred, raw) if kept_w.slc is not None else None
        if cast and direct is not None and self.numerics.rounding != "stochastic":
            # converted and selected a block at a time (a stochastic rounding draws from each
            # element's index in the whole tensor: converted whole below)
            self.backend.select_cast(pred, raw, data_code, out_code, direct, self.numerics,
                                     self._key())  # fmt: skip
            self.instructions_executed += 1
            return
        if cast:
            raw = self._converted(raw, data_code, out_code)
        if direct is not None:  # a plain stride sharing no memory with the sources: one pass
            self.backend.select(pred, raw.view(direct.dtype), direct)
        else:
            old = np.array(kept_w.gather())  # every read before any write
            dst_w.scatter(np.where(pred != 0, raw.view(old.dtype), old))
        self.instructions_executed += 1

    def _converted(self, raw: npt.NDArray[Any], in_code: int, out_code: int) -> npt.NDArray[Any]:
        """`raw` (nch, count) elements of in_code as out_code's, through the fp32 hub rounded
        once by the numerics: TensorScalar arith with both ops BYPASS."""
        zero: F32 = np.zeros((raw.shape[0], 1), np.float32)
        return np.asarray(self.backend.ts_arith(
            raw, in_code, out_code, zero, zero, alu.BYPASS, alu.BYPASS, False, False,
            self.numerics, self._key(), None,
        ))  # fmt: skip

    # -- 0x4F / 0x5F ------------------------------------------------------------------------------

    def ptr_multi(self, o: PtrMultiOperands) -> None:
        """TensorScalarPtrMulti: ``for w in range(W): dst[w] = src[w] op scalar[w]`` with
        W = src.num_elem[3] (1..8) and the scalars from the last ImmLd; the scalar changes after
        every XYZ round of the *source* walk. Reverse NONE gives ``t op s``, BOTH ``s op t``."""
        nch = self._channels(o.num_active_channels)
        bitvec, src, dst = o.bitvec, o.src, o.dst
        in_dtype, out_dtype, op = int(o.in_dtype), int(o.out_dtype), int(o.op)
        dt.info(in_dtype)
        dt.info(out_dtype)
        admission.check_ptr_multi_dims(len(src.nums))
        wslices = int(src.nums[3])
        admission.check_ptr_multi_slices(wslices)
        admission.check_ptr_multi_reverse(int(o.reverse))
        rev = int(o.reverse) == REV_BOTH
        self._same_count(src, dst)
        if bitvec:
            alu.check_bitvec(op)
            admission.check_ptr_multi_bitvec_dtypes(in_dtype, out_dtype)
        else:
            alu.check_arith(op)
        src_w = self._walk(src, in_dtype, nch, "src_mem_pattern")
        dst_w = self._walk(dst, out_dtype, nch, "dst_mem_pattern")
        kind = "bitvec" if bitvec else "arith"
        flops = self._flops(wslices, nch, kind, "TensorScalarPtrMulti")
        key = self._key()
        raw = src_w.gather()
        direct = _direct(dst_w, raw)
        if bitvec:
            zeros = np.zeros_like(flops)
            out = self.backend.ts_bitvec(
                raw, in_dtype, flops, zeros, op, alu.BYPASS, rev, False, direct
            )
        else:
            s = flops.view(np.float32)
            out = self.backend.ts_arith(
                raw, in_dtype, out_dtype, s, np.zeros_like(s), op, alu.BYPASS, rev, False,
                self.numerics, key, direct,
            )  # fmt: skip
        _commit(dst_w, out, direct)
        self.instructions_executed += 1

    # -- 0x87 (SUNDA) -----------------------------------------------------------------------------

    def ptr_multi_dual(self, o: PtrMultiDualOperands) -> None:
        """TensorScalarPtrMultiDual (SUNDA 0x87): ``dst[w] = (src[w] op pair[w][0]) * pair[w][1]``
        for W = src.num_elem[3] (1..4) scalar pairs; op1 is fixed to MULT by DVE config. Pair ``w``
        is ImmLd values ``2w`` and ``2w + 1``; ``reverse`` applies as for TensorScalar."""
        nch = self._channels(o.num_active_channels)
        src, dst = o.src, o.dst
        in_dtype, out_dtype, op = int(o.in_dtype), int(o.out_dtype), int(o.op)
        dt.info(in_dtype)
        dt.info(out_dtype)
        if len(src.nums) != 4:
            raise UnsupportedError("PtrMultiDual needs a 4-D source pattern")
        wslices = int(src.nums[3])
        if not 1 <= wslices <= IMM_FLOPS_PER_CHANNEL // 2:
            raise UnsupportedError(
                f"PtrMultiDual W = src num_elem[3] is {wslices}: the executor models 1..4 "
                "(two of the 8 ImmLd scalars per slice)"
            )
        rev0, rev1 = _rev(o.reverse)
        self._same_count(src, dst)
        alu.check_arith(op)
        src_w = self._walk(src, in_dtype, nch, "src_mem_pattern")
        dst_w = self._walk(dst, out_dtype, nch, "dst_mem_pattern")
        flops = self._flops(2 * wslices, nch, "arith", "TensorScalarPtrMultiDual").view(np.float32)
        key = self._key()
        s0 = np.ascontiguousarray(flops[:, 0::2])
        s1 = np.ascontiguousarray(flops[:, 1::2])
        raw = src_w.gather()
        direct = _direct(dst_w, raw)
        out = self.backend.ts_arith(
            raw, in_dtype, out_dtype, s0, s1, op, alu.MULT, rev0, rev1, self.numerics, key, direct
        )
        _commit(dst_w, out, direct)
        self.instructions_executed += 1

    # -- two sources: 0x41 / 0x51 (sunda 0x8a / 0x8b / 0x8f), 0x9d / 0x9e, 0xe5 ------------------

    def _scalar_typed(self, bitvec: bool, imm: Imm, nch: int, code: int, what: str) -> Any:
        """A scalar of dtype ``code`` per active channel, (nch, 1): fp32 for arith (an inline
        value is fp32 bits, a pointer reads one element of ``code`` and converts it), raw bits
        at the width for bitvec."""
        if bitvec:
            return self._scalar_bits(imm, nch, code, what)
        if imm.src == IMM_INSTRUCTION:
            return self._scalar_f32(imm, nch, what)
        w = self.walk(self.memory, self._pointer(imm, what), (1,), (1,), dt.size(code), nch, what)
        return dt.load_f32(code, w.gather(), self.numerics).reshape(nch, 1)

    def _two_sources(
        self,
        *,
        bitvec: bool,
        scan: bool,
        src0: Pattern,
        src1: Pattern,
        dst: Pattern,
        in0_dtype: int,
        in1_dtype: int,
        out_dtype: int,
        num_active_channels: int,
        op0: int,
        op1: int,
        reverse: int,
        imm0: Imm,
        imm0_dtype: int,
    ) -> None:
        """``out = op1(op0(src0, imm0), src1)`` in the four reverse forms (STT; TensorTensor is
        op0 BYPASS), or with ``scan`` the running form of TensorTensorScan (the scalar is the
        previous output, seeded with imm0)."""
        w0, w1, wd, s, in0, in1, out, op0, op1, rev0, rev1 = self._two_plan(
            bitvec, src0, src1, dst, in0_dtype, in1_dtype, out_dtype, num_active_channels, op0,
            op1, reverse, imm0, imm0_dtype,
        )  # fmt: skip
        key = self._key()
        x0, x1 = w0.gather(), w1.gather()
        direct = _direct(wd, x0, x1)
        if bitvec:
            res = self.backend.tt_bitvec(x0, x1, out, s, op0, op1, rev0, rev1, direct)
        else:
            res = self.backend.tt_arith(
                x0, in0, x1, in1, out, s, op0, op1, rev0, rev1, scan, self.numerics, key, direct
            )
        _commit(wd, res, direct)
        self.instructions_executed += 1

    def _two_plan(
        self, bitvec: bool, src0: Pattern, src1: Pattern, dst: Pattern, in0_dtype: int,
        in1_dtype: int, out_dtype: int, num_active_channels: int, op0: int, op1: int,
        reverse: int, imm0: Imm, imm0_dtype: int,
    ) -> tuple[Walk, Walk, Walk, Any, int, int, int, int, int, bool, bool]:  # fmt: skip
        """`_two_sources`' checks, walks and scalar, in its order: (the three walks, the scalar,
        in0, in1, out, op0, op1, rev0, rev1)."""
        nch = self._channels(num_active_channels)
        in0, in1, out, sc = int(in0_dtype), int(in1_dtype), int(out_dtype), int(imm0_dtype)
        op0, op1 = int(op0), int(op1)
        for code in (in0, in1, out):
            dt.info(code)
        rev0, rev1 = _rev(reverse)
        for p, what in ((src1, "src1"), (dst, "destination")):
            if p.count != src0.count:
                raise UnsupportedError(
                    f"src0 has {src0.count} elements per partition, {what} {p.count}: what "
                    "the engine does when the counts differ is not stated"
                )
        if bitvec:
            alu.check_bitvec(op0)
            alu.check_bitvec(op1)
            if not (in0 == in1 == out) or out not in dt.INT_CODES:
                raise UnsupportedError(
                    "a bitvec TensorTensor/ScalarTensorTensor needs src0, src1 and dst of one "
                    "integer dtype"
                )
        else:
            alu.check_arith(op0)
            alu.check_arith(op1)
        uses = op0 != alu.BYPASS and op0 not in alu.UNARY_OPS
        if uses:
            dt.info(sc)
        w0 = self._walk(src0, in0, nch, "src0_mem_pattern")
        w1 = self._walk(src1, in1, nch, "src1_mem_pattern")
        wd = self._walk(dst, out, nch, "dst_mem_pattern")
        if uses:
            s = self._scalar_typed(bitvec, imm0, nch, sc, "imm0")
        else:
            s = np.zeros((nch, 1), np.uint32 if bitvec else np.float32)
        return w0, w1, wd, s, in0, in1, out, op0, op1, rev0, rev1

    def _prepared_two_sources(self, full: Callable[[], None],
                              two: dict[str, Any]) -> Callable[[], None]:  # fmt: skip
        """`full` (an instruction of two sources, its `_two_sources` arguments `two`) as a call
        to make again and again, as `prepare_tensor_scalar` does: arith, immediate addresses, an
        instruction scalar, plain walks and a destination that overlaps neither source get their
        walks and the backend's arguments worked out once; anything else runs `full`."""
        if two["bitvec"] or _register_addressed(two["src0"], two["src1"], two["dst"]):
            return full
        op0 = int(two["op0"])
        if op0 != alu.BYPASS and op0 not in alu.UNARY_OPS and two["imm0"].src != IMM_INSTRUCTION:
            return full  # a scalar read from memory when the instruction runs
        try:
            w0, w1, wd, s, in0, in1, out, op0, op1, rev0, rev1 = self._two_plan(
                False, two["src0"], two["src1"], two["dst"], two["in0_dtype"], two["in1_dtype"],
                two["out_dtype"], two["num_active_channels"], two["op0"], two["op1"],
                two["reverse"], two["imm0"], two["imm0_dtype"],
            )  # fmt: skip
        except ExecutorError:
            return full  # raised again, at the same point as before, when it runs
        if w0.slc is None or w1.slc is None:
            return full  # a gathered source is a copy: it has to be taken when it runs
        x0, x1 = w0.gather(), w1.gather()  # views of memory: they see every later write
        direct = _direct(wd, x0, x1)
        if direct is None:
            return full
        kernel = self.backend.bind_tt_arith(
            x0, in0, x1, in1, out, s, op0, op1, rev0, rev1, two["scan"], self.numerics, direct
        )
        return self._prepared_run(full, kernel)

    def _prepared_run(self, full: Callable[[], None],
                      kernel: Callable[[int], object] | None) -> Callable[[], None]:  # fmt: skip
        """The call of a prepared instruction: the bound kernel (None: nothing to compute) with
        the stream key of this instruction, or `full` when the backend or the numerics it was
        prepared for no longer hold."""
        backend, numerics = self.backend, self.numerics
        seed = numerics.seed
        stream_key = dt.stream_key

        def run() -> None:
            if self.backend is not backend or self.numerics is not numerics:
                full()
                return
            if kernel is not None:
                kernel(stream_key(seed, self.instructions_executed))
            self.instructions_executed += 1

        return run

    def prepare_tensor_tensor(self, o: TensorTensorOperands) -> Callable[[], None]:
        """``tensor_tensor(o)`` as a call to make again and again (`_prepared_two_sources`)."""
        full = functools.partial(self.tensor_tensor, o)
        return self._prepared_two_sources(full, _two_of_tensor_tensor(o))

    def prepare_scalar_tensor_tensor(self, o: ScalarTensorTensorOperands) -> Callable[[], None]:
        """``scalar_tensor_tensor(o)`` as a call to make again and again."""
        full = functools.partial(self.scalar_tensor_tensor, o)
        if int(o.accumulator_cmd) != ACCUM_IDLE:
            return full
        return self._prepared_two_sources(full, _two_of_stt(o, o.bitvec, False))

    def prepare_tensor_tensor_scan(self, o: TensorTensorScanOperands) -> Callable[[], None]:
        """``tensor_tensor_scan(o)`` as a call to make again and again."""
        full = functools.partial(self.tensor_tensor_scan, o)
        if int(o.accumulator_cmd) != ACCUM_IDLE:
            return full
        return self._prepared_two_sources(full, _two_of_stt(o, False, True))

    def tensor_tensor(self, o: TensorTensorOperands) -> None:
        """TensorTensor (0x41 arith / 0x51 bitvec; sunda's BF16 0x8a/0x8b/0x8f): ``dst[e] =
        op(src0[e], src1[e])``, src0 the left operand (tt-stt-facts.md §4). Arith loads each
        source into fp32, computes in fp32 and rounds once to ``out_dtype``; bitvec works on the
        raw bits of the one integer dtype. The three patterns are walked independently."""
        self._two_sources(**_two_of_tensor_tensor(o))

    def scalar_tensor_tensor(self, o: ScalarTensorTensorOperands) -> None:
        """ScalarTensorTensor (0x9d / 0x9e): ``(src0 op0 imm0) op1 src1`` in the reverse form
        ``reverse`` (NONE ``(src0 op0 s) op1 src1``, FIRST ``(s op0 src0) op1 src1``, SECOND
        ``src1 op1 (src0 op0 s)``, BOTH ``src1 op1 (s op0 src0)``; tt-stt-facts.md §7b). The
        accumulator forms are refused: which op accumulates is not documented (C16, Q6)."""
        if int(o.accumulator_cmd) != ACCUM_IDLE:
            raise UnsupportedError(
                "ScalarTensorTensor with an accumulator command other than IDLE: which ALU op "
                "accumulates and what the accumulator starts from are not documented "
                "(tt-stt-facts.md C16, Q6)"
            )
        self._two_sources(**_two_of_stt(o, o.bitvec, False))

    def tensor_tensor_scan(self, o: TensorTensorScanOperands) -> None:
        """TensorTensorScan (0xe5): per partition, in element order, ``out[i] = (src0[i] op0
        prev) op1 src1[i]``, ``prev = out[i]``, seeded with imm0 (NKI ``tensor_tensor_scan``, the
        AWS test and KLR; tt-stt-facts.md §8b, C1). reverse bit 0 puts src0 on the right of op0,
        bit 1 src1 on the left of op1. Every step is fp32; each output is rounded once."""
        if int(o.accumulator_cmd) != ACCUM_IDLE:
            raise UnsupportedError("TensorTensorScan keeps no accumulator (has_zero_accum_cmd)")
        self._two_sources(**_two_of_stt(o, False, True))

    # -- 0x42 / 0x52 (sunda 0x8c / 0x8d) --------------------------------------------------------

    def tensor_reduce(self, o: TensorReduceOperands) -> None:
        """TensorReduce: fold the ``op_dim`` innermost dims of the source (X: dim 0, XY: dims 0
        and 1, ...), per partition; output element ``j`` is the fold of the ``j``-th run of the
        walk (NKI ``tensor_reduce``; tt-stt-facts.md §9c). Arith (add, mult, max, min) folds in
        fp32 in element order, ``reg = op(x[i], reg)`` from ``reg = x[0]``, negates when
        ``negated`` and rounds once; bitvec (and, or, xor) folds the raw bits. Other ops are
        refused: what a reduce by subtract, a comparison or a shift computes is not documented."""
        src_w, dst_w, in_dtype, out_dtype, op, groups, length, negate = self._reduce_plan(o)
        key = self._key()
        if groups:
            raw = src_w.gather()
            direct = _direct(dst_w, raw)
            res = self.backend.reduce(
                raw, in_dtype, out_dtype, op, groups, length, bool(negate), o.bitvec,
                self.numerics, key, direct,
            )  # fmt: skip
            _commit(dst_w, res, direct)
        self.instructions_executed += 1

    def prepare_tensor_reduce(self, o: TensorReduceOperands) -> Callable[[], None]:
        """``tensor_reduce(o)`` as a call to make again and again, as `prepare_tensor_scalar`
        does: with immediate addresses, a plain source walk and a destination apart from it, the
        walks and the backend's arguments are worked out once; anything else runs
        `tensor_reduce` in full."""
        full = functools.partial(self.tensor_reduce, o)
        if _register_addressed(o.src, o.dst):
            return full
        bitvec = bool(o.bitvec)
        try:
            src_w, dst_w, in_dtype, out_dtype, op, groups, length, negate = self._reduce_plan(o)
        except ExecutorError:
            return full  # raised again, at the same point as before, when it runs
        if not groups:
            return self._prepared_run(full, None)
        if src_w.slc is None:
            return full
        raw = src_w.gather()  # a view of memory: it sees every later write
        direct = _direct(dst_w, raw)
        if direct is None:
            return full
        kernel = self.backend.bind_reduce(
            raw, in_dtype, out_dtype, op, groups, length, bool(negate), bitvec, self.numerics,
            direct,
        )  # fmt: skip
        return self._prepared_run(full, kernel)

    def _reduce_plan(
        self, o: TensorReduceOperands
    ) -> tuple[Walk, Walk, int, int, int, int, int, int]:
        """`tensor_reduce`'s checks and walks, in its order: (source walk, destination walk,
        in_dtype, out_dtype, op, groups, length, negate)."""
        nch = self._channels(o.num_active_channels)
        bitvec, src, dst = o.bitvec, o.src, o.dst
        in_dtype, out_dtype, op, dims = int(o.in_dtype), int(o.out_dtype), int(o.op), int(o.op_dim)
        dt.info(in_dtype)
        dt.info(out_dtype)
        negate = int(o.negated)
        admission.check_reduce_negated(negate)
        if bitvec:
            if op not in REDUCE_BITVEC_OPS:
                raise UnsupportedError(
                    f"a bitvec reduce by {alu.op_name(op)}: only BITWISE_AND, BITWISE_OR and "
                    "BITWISE_XOR have a documented fold (NKI's reduce-op map)"
                )
            admission.check_reduce_bitvec_dtypes(in_dtype, out_dtype)
            admission.check_reduce_bitvec_negated(negate)
        elif op not in REDUCE_ARITH_OPS:
            raise UnsupportedError(
                f"an arith reduce by {alu.op_name(op)}: only ADD, MULT, MAX and MIN have a "
                "documented fold (NKI's reduce-op map: sum, prod, max, min)"
            )
        if not 1 <= dims <= len(src.nums):
            raise UnsupportedError(f"op_dim folds {dims} dims of a {len(src.nums)}-D source")
        length = 1
        for n in src.nums[:dims]:
            length *= int(n)
        groups = src.count // length if length else 0
        if dst.count != groups:
            raise UnsupportedError(
                f"folding {dims} innermost dims of {src.count} elements per partition gives "
                f"{groups}, the destination has {dst.count}: what the engine does then is not "
                "stated"
            )
        src_w = self._walk(src, in_dtype, nch, "src_mem_pattern")
        dst_w = self._walk(dst, out_dtype, nch, "dst_mem_pattern")
        return src_w, dst_w, in_dtype, out_dtype, op, groups, length, negate

    # -- 0xf3 (maverick) ------------------------------------------------------------------------

    def tensor_tensor_wide(self, o: TensorTensorWideOperands) -> None:
        """TensorTensorIntWide (maverick 0xf3): a 32-bit integer op per element whose 64-bit
        result is split, bits 31..0 to dst0 and 63..32 to dst1 (the carry of an add, the borrow
        of a subtract, the high half of a product, the bits a left shift moves out; the header
        banner, tt-stt-facts.md §5c). Each source is extended by its dtype's signedness. Refused
        where that is not pinned (Q5): a destination narrower than 32 bits, a left shift of a
        signed source, a shift by 32 or more; right shifts are refused by name.

        Overlap (outputs with each other or with a source): both results are computed from the
        sources as they were before the instruction, then dst0 is written in full, then dst1
        (where they overlap, dst1's bytes stay); within one walk the last element wins. A shift
        count of 32 or more is found on src1 before anything is written: refused, nothing
        changes (so the outcome depends on no byte outside `info().reads`)."""
        nch = self._channels(o.num_active_channels)
        src0, src1, dst0, dst1 = o.src0, o.src1, o.dst0, o.dst1
        in0, in1, out0, out1, op = (int(o.in0_dtype), int(o.in1_dtype), int(o.out0_dtype),
                                    int(o.out1_dtype), int(o.op))  # fmt: skip
        for code in (in0, in1, out0, out1):
            if code not in dt.INT_CODES:
                raise UnsupportedError(f"TensorTensorIntWide on dtype {dt.info(code).name}")
        if out0 not in (dt.INT32, dt.UINT32) or out1 not in (dt.INT32, dt.UINT32):
            raise UnsupportedError(
                "TensorTensorIntWide with a destination narrower than 32 bits: how the 32-bit "
                "word is narrowed is not documented (tt-stt-facts.md §5b, Q5)"
            )
        shift = op in WIDE_SHIFTS
        if shift and dt.info(in0).signed:
            raise UnsupportedError(
                "TensorTensorIntWide shifting a signed source: whether its sign fills the high "
                "word is not documented (tt-stt-facts.md Q5)"
            )
        for p, what in ((src1, "src1"), (dst0, "dst0"), (dst1, "dst1")):
            if p.count != src0.count:
                raise UnsupportedError(
                    f"src0 has {src0.count} elements per partition, {what} {p.count}: what "
                    "the engine does when the counts differ is not stated"
                )
        w0 = self._walk(src0, in0, nch, "src0_mem_pattern")
        w1 = self._walk(src1, in1, nch, "src1_mem_pattern")
        wd0 = self._walk(dst0, out0, nch, "dst0_mem_pattern")
        wd1 = self._walk(dst1, out1, nch, "dst1_mem_pattern")
        x0, x1 = w0.gather(), w1.gather()
        if shift and x1.size and int(x1.astype(np.uint32).max()) >= 32:
            raise UnsupportedError(
                "TensorTensorIntWide shift by 32 or more: the 64-bit result is not documented "
                "(tt-stt-facts.md Q5)"
            )
        d0 = _direct(wd0, x0, x1)
        d1 = _direct(wd1, x0, x1)
        if d0 is not None and d1 is not None and np.shares_memory(d0, d1):
            d0 = d1 = None  # one destination over the other: scattered in order below
        lo, hi = self.backend.int_wide(
            x0, in0, x1, in1, op,
            None if d0 is None else d0.view(np.uint32), None if d1 is None else d1.view(np.uint32),
        )  # fmt: skip
        _commit(wd0, lo.view(dt.storage_dtype(out0)), d0)
        _commit(wd1, hi.view(dt.storage_dtype(out1)), d1)
        self.instructions_executed += 1


#: operand record -> the Engine method that prepares its instruction as a call to make again and
#: again (`Engine.prepare`); the others are their method bound to the record.
PREPARERS: dict[type, Callable[[Engine, Any], Callable[[], None]]] = {
    TensorScalarOperands: Engine.prepare_tensor_scalar,
    TensorTensorOperands: Engine.prepare_tensor_tensor,
    ScalarTensorTensorOperands: Engine.prepare_scalar_tensor_tensor,
    TensorTensorScanOperands: Engine.prepare_tensor_tensor_scan,
    TensorReduceOperands: Engine.prepare_tensor_reduce,
    TensorCopyOperands: Engine.prepare_tensor_copy,
    ReciprocalOperands: Engine.prepare_reciprocal,
    IotaOperands: Engine.prepare_iota,
    MemsetOperands: Engine.prepare_memset,
}


def _converting(o: TensorCopyOperands | ReciprocalOperands, op0: int) -> TensorScalarOperands:
    """Cast's and Reciprocal's TensorScalar: `op0` (BYPASS or RECIPROCAL) then BYPASS through
    the fp32 hub, no scalar."""
    return TensorScalarOperands(
        bitvec=False, src=o.src, dst=o.dst, in_dtype=o.in_dtype, out_dtype=o.out_dtype,
        num_active_channels=o.num_active_channels, op0=op0, op1=alu.BYPASS, reverse=REV_NONE,
        imm0=ZERO_IMM, imm1=ZERO_IMM,
    )  # fmt: skip


def _two_of_tensor_tensor(o: TensorTensorOperands) -> dict[str, Any]:
    """TensorTensor's `Engine._two_sources` arguments: op0 BYPASS, op1 its op, no scalar."""
    return dict(
        bitvec=o.bitvec, scan=False, src0=o.src0, src1=o.src1, dst=o.dst, in0_dtype=o.in0_dtype,
        in1_dtype=o.in1_dtype, out_dtype=o.out_dtype, num_active_channels=o.num_active_channels,
        op0=alu.BYPASS, op1=o.op, reverse=REV_NONE, imm0=ZERO_IMM, imm0_dtype=dt.FP32,
    )  # fmt: skip


def _two_of_stt(
    o: ScalarTensorTensorOperands | TensorTensorScanOperands, bitvec: bool, scan: bool
) -> dict[str, Any]:
    """ScalarTensorTensor's or TensorTensorScan's `Engine._two_sources` arguments."""
    return dict(
        bitvec=bitvec, scan=scan, src0=o.src0, src1=o.src1, dst=o.dst, in0_dtype=o.in0_dtype,
        in1_dtype=o.in1_dtype, out_dtype=o.out_dtype, num_active_channels=o.num_active_channels,
        op0=o.op0, op1=o.op1, reverse=o.reverse, imm0=o.imm0, imm0_dtype=o.imm0_dtype,
    )  # fmt: skip


REDUCE_ARITH_OPS = frozenset({alu.ADD, alu.MULT, alu.MAX, alu.MIN})
REDUCE_BITVEC_OPS = frozenset({alu.BITWISE_AND, alu.BITWISE_OR, alu.BITWISE_XOR})
_WIDE = WIDE_OP
WIDE_SHIFTS = frozenset({_WIDE["ARITH_SHIFT_LEFT"], _WIDE["LOGICAL_SHIFT_LEFT"]})


def pattern(start_addr: int, steps: Sequence[int], nums: Sequence[int]) -> Pattern:
    """Convenience constructor: ``pattern(addr, [1], [n])``."""
    return Pattern(int(start_addr), tuple(int(s) for s in steps), tuple(int(n) for n in nums))
