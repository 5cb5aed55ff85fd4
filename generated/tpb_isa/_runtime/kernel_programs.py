"""Kernels built as programs: softmax, rmsnorm, layernorm and cumulative sums along the free axis,
each a short list of instruction words the executor runs, with its inputs and outputs placed in
SBUF.

A kernel's rows are partitions (``shape[0]`` <= the generation's channels) and its columns the
free axis of each partition. Every value is computed by the words: the host only writes the
inputs and reads the outputs. Scratch tensors (row maxima, sums, the centred input, ...) live in
SBUF after the outputs, in fp32.

The words are made with the generation's ``from_dict`` (the text form's plain-data encoder) and
checked with its validators as they are built; a generation that does not execute an opcode a
kernel needs raises the executor's ``UnsupportedError`` naming it. Each generation's
``kernels`` module binds a :class:`Target` and exposes the builders.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

#: kernel dtype name -> (the ISA's DTYPE enumerator, the numpy dtype name of its arrays)
DTYPES: dict[str, tuple[str, str]] = {
    "fp32": ("FP32", "float32"),
    "fp16": ("FP16", "float16"),
    "bf16": ("BFLOAT16", "bfloat16"),
}
#: scratch tensors are fp32: every arithmetic instruction computes in fp32 (semantics.md §3.2)
SCRATCH = "fp32"
#: buffers start on this byte boundary inside a partition
ALIGN = 64


@dataclass(frozen=True)
class Target:
    """What a kernel needs of one generation: its encoder and text form, its validators, its
    executor and what that executor runs, and its SBUF geometry."""

    name: str
    from_dict: Callable[[Mapping[str, Any]], bytes]
    to_dict: Callable[[Any], dict[str, Any]]
    asm: Callable[[str], bytes]
    disasm: Callable[..., str]
    validate: Callable[..., bool]
    explain: Callable[..., str | None]
    executor: Callable[..., Any]
    opcodes: Mapping[str, int]  # OPCODE enumerator name -> value, as the headers declare
    decodable: Callable[[int], bool]
    executable: Sequence[int]
    refused: Mapping[int, str]  # decodable opcode -> why the executor refuses it
    unsupported: type[Exception]
    # the executor's ENUM_VALUES: role -> (the C enum, enumerator name -> value)
    enum_values: Mapping[str, tuple[str, Mapping[str, int]]]
    geometry: Mapping[str, int]  # the executor's GEOMETRY (the headers' constants)

    @property
    def dtype_values(self) -> Mapping[str, int]:
        """DTYPE enumerator name -> value (empty when the headers declare no dtype enum)."""
        return self.enum_values.get("dtype", ("", {}))[1]

    @property
    def channels(self) -> int:
        """The most partitions one instruction works on."""
        return self.geometry["DVE_NUM_CHANNELS"]

    @property
    def partition_active(self) -> int:
        """The bytes of an SBUF partition an instruction may address."""
        return self.geometry["STATE_BUF_PARTITION_ACTIVE_SIZE"]

    def sbuf_address(self, offset: int) -> int:
        """The PartitionOffset of byte `offset` of SBUF partition 0."""
        return self.geometry["STATE_BUF_OFFSET"] + offset


@dataclass(frozen=True)
class Tensor:
    """One input or output of a kernel: (rows, columns) of `dtype` at byte `offset` of SBUF
    partitions 0 .. rows-1; `address` is the PartitionOffset `Executor.write` takes."""

    name: str
    address: int
    offset: int
    shape: tuple[int, int]
    dtype: str

    @property
    def place(self) -> str:
        """The text form's address of the first element."""
        return f"sbuf[0]+{self.offset:#x}"


@dataclass(frozen=True, eq=False)
class Kernel:
    """A kernel as a program: `words` ((n, 64) uint8, every one valid), its `inputs` and
    `outputs`, and the generation it was built for."""

    name: str
    target: Target
    words: npt.NDArray[np.uint8]
    inputs: tuple[Tensor, ...]
    outputs: tuple[Tensor, ...]
    steps: tuple[str, ...]  # what each word does, for the listing

    def listing(self) -> str:
        """The program in the text form, one instruction a line, each followed by a comment
        saying what it does; `asm` re-assembles it to `words`."""
        lines = [f"; {self.name} on {self.target.name}: {len(self.words)} instructions"]
        lines += [f"; input  {t.name} {t.dtype}{list(t.shape)} at {t.place}" for t in self.inputs]
        lines += [f"; output {t.name} {t.dtype}{list(t.shape)} at {t.place}" for t in self.outputs]
        for word, step in zip(self.words, self.steps, strict=True):
            lines.append(f"{self.target.disasm(bytes(word), compact=True)}  ; {step}")
        return "\n".join(lines) + "\n"

    def write_inputs(self, executor: Any, *arrays: npt.ArrayLike) -> None:
        """Write one array per input (its shape and dtype exactly) into `executor`'s SBUF."""
        if len(arrays) != len(self.inputs):
            names = ", ".join(t.name for t in self.inputs)
            raise TypeError(
                f"{self.name} takes {len(self.inputs)} input(s) ({names}), not {len(arrays)}"
            )
        for spec, array in zip(self.inputs, arrays, strict=True):
            executor.write(spec.address, _checked(spec, array))

    def read_outputs(self, executor: Any) -> npt.NDArray[Any] | tuple[npt.NDArray[Any], ...]:
        """The outputs' values in `executor` (one array, or a tuple when there are several)."""
        dtype_values = self.target.dtype_values
        values = tuple(
            executor.read(t.address, dtype_values[DTYPES[t.dtype][0]], t.shape)
            for t in self.outputs
        )
        return values[0] if len(values) == 1 else values

    def __call__(
        self, *arrays: npt.ArrayLike, backend: str = "auto"
    ) -> npt.NDArray[Any] | tuple[npt.NDArray[Any], ...]:
        """Run the kernel on a fresh executor: write the inputs, run `words`, read the outputs."""
        executor = self.target.executor(backend=backend)
        self.write_inputs(executor, *arrays)
        executor.run_program(self.words)
        return self.read_outputs(executor)


def _checked(spec: Tensor, array: npt.ArrayLike) -> npt.NDArray[Any]:
    a = np.asarray(array)
    if a.shape != spec.shape:
        raise ValueError(f"{spec.name}: shape {a.shape}, the kernel takes {spec.shape}")
    if a.dtype.name != DTYPES[spec.dtype][1]:
        raise TypeError(f"{spec.name}: {a.dtype.name}, the kernel takes {spec.dtype}")
    return a


# -- building a program ----------------------------------------------------------------------------


@dataclass
class _Builder:
    """Places tensors in SBUF and appends checked words."""

    target: Target
    kernel: str
    shape: tuple[int, int]
    needs: tuple[str, ...]
    offset: int = 0
    words: list[bytes] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    inputs: list[Tensor] = field(default_factory=list)
    outputs: list[Tensor] = field(default_factory=list)
    _dims: dict[str, dict[str, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        rows, cols = self.shape
        if not 1 <= rows <= self.target.channels:
            raise ValueError(
                f"shape[0] (rows = partitions) is 1..{self.target.channels}, not {rows}"
            )
        if cols < 1:
            raise ValueError(f"shape[1] (the free axis) is at least 1, not {cols}")
        for opcode in self.needs:
            self._require(opcode)

    def _require(self, opcode: str) -> None:
        t = self.target
        value = t.opcodes.get(opcode)
        if value is None:
            why = "its headers declare no such opcode"
        elif not t.decodable(value):
            why = "it does not decode there (no struct and validator are bound to it)"
        elif value not in t.executable:
            why = t.refused.get(value, "the executor refuses it")
        else:
            return
        code = "" if value is None else f" {value:#04x}"
        raise t.unsupported(
            f"{self.kernel} needs {opcode}{code}, which {t.name} does not execute: {why}"
        )

    def tensor(self, name: str, dtype: str, columns: int | None = None) -> Tensor:
        """A fresh (rows, columns) tensor at the next free aligned offset."""
        rows, cols = self.shape
        shape = (rows, cols if columns is None else columns)
        size = shape[1] * _ITEMSIZE[dtype]
        offset = self.offset
        if offset + size > self.target.partition_active:
            raise ValueError(
                f"{self.kernel}{list(self.shape)}: {name} does not fit in an SBUF partition "
                f"({self.target.partition_active} bytes)"
            )
        self.offset = offset + -(-size // ALIGN) * ALIGN
        return Tensor(name, self.target.sbuf_address(offset), offset, shape, dtype)

    def pattern(self, opcode: str, slot: str, t: Tensor) -> dict[str, Any]:
        """The memory pattern reading or writing every element of `t`, row by row."""
        dims = self._dims_of(opcode)[slot]
        return {
            "start_addr": t.place,
            "step_elem": [1] * dims,
            "num_elem": [t.shape[1]] + [1] * (dims - 1),
        }

    def _dims_of(self, opcode: str) -> dict[str, int]:
        if opcode not in self._dims:
            fields = self.target.to_dict(self.target.asm(opcode))["fields"]
            self._dims[opcode] = {
                k: len(v["num_elem"])
                for k, v in fields.items()
                if isinstance(v, dict) and "num_elem" in v
            }
        return self._dims[opcode]

    def emit(self, opcode: str, step: str, **fields: Any) -> None:
        """Append the word `opcode` with `fields` (the rest at their defaults), checked valid;
        ValueError naming the step when a field cannot hold a value of this shape or the
        generation's validators reject the word."""
        where = f"{self.kernel}{list(self.shape)}: step {step!r}"
        try:
            word = self.target.from_dict(
                {"opcode": opcode, "fields": {"num_active_channels": self.shape[0], **fields}}
            )
        except ValueError as e:  # the encoder's AsmError: a value out of its field's range
            raise ValueError(f"{where}: {e}") from None
        if not self.target.validate(word):
            raise ValueError(
                f"{where} makes a word {self.target.name} rejects: {self.target.explain(word)}"
            )
        self.words.append(word)
        self.steps.append(step)

    def build(self) -> Kernel:
        words = np.frombuffer(b"".join(self.words), dtype=np.uint8).reshape(-1, 64).copy()
        words.setflags(write=False)  # the program is what was checked: not edited in place
        return Kernel(
            self.kernel,
            self.target,
            words,
            tuple(self.inputs),
            tuple(self.outputs),
            tuple(self.steps),
        )

    # -- instructions, by what they do -------------------------------------------------------------

    def one_source(self, opcode: str, src: Tensor, dst: Tensor, step: str, **fields: Any) -> None:
        """Append `opcode` reading every element of `src` and writing `dst` (their patterns and
        dtypes), with `fields` besides: the shape of every one-source instruction below."""
        self.emit(
            opcode,
            step,
            src_mem_pattern=self.pattern(opcode, "src_mem_pattern", src),
            dst_mem_pattern=self.pattern(opcode, "dst_mem_pattern", dst),
            in_dtype=_isa(src),
            out_dtype=_isa(dst),
            **fields,
        )

    def reduce(self, op: str, src: Tensor, dst: Tensor, step: str) -> None:
        """dst[p, 0] = op-fold of src[p, :] (TensorReduce along the innermost dim)."""
        self.one_source("TENSOR_REDUCE_ARITH_OP", src, dst, step, op=op, op_dim="X")

    def scalar(
        self,
        src: Tensor,
        dst: Tensor,
        step: str,
        op0: str,
        imm0: float | Tensor = 0.0,
        op1: str = "BYPASS",
        imm1: float | Tensor = 0.0,
    ) -> None:
        """dst = (src op0 imm0) op1 imm1, each imm a constant or a per-row scalar tensor."""
        self.one_source(
            "TENSOR_SCALAR_ARITH_OP",
            src,
            dst,
            step,
            op0=op0,
            op1=op1,
            **_imm("imm0", imm0),
            **_imm("imm1", imm1),
        )

    def reciprocal(self, src: Tensor, dst: Tensor, step: str) -> None:
        """dst = 1 / src, element-wise (Reciprocal: through the fp32 hub, one IEEE rounding)."""
        self.one_source("RECIPROCAL", src, dst, step, op="BYPASS", op_dim="X")

    def two_sources(
        self, opcode: str, a: Tensor, b: Tensor, dst: Tensor, step: str, **fields: Any
    ) -> None:
        """Append `opcode` reading every element of `a` and `b` and writing `dst` (their
        patterns and dtypes), with `fields` besides: the two-source instructions' shape."""
        self.emit(
            opcode,
            step,
            src0_mem_pattern=self.pattern(opcode, "src0_mem_pattern", a),
            src1_mem_pattern=self.pattern(opcode, "src1_mem_pattern", b),
            dst_mem_pattern=self.pattern(opcode, "dst_mem_pattern", dst),
            in0_in1_dtype={"dtype_lo": _isa(a), "dtype_hi": _isa(b)},
            out_dtype=_isa(dst),
            **fields,
        )

    def tensor_tensor(self, op: str, a: Tensor, b: Tensor, dst: Tensor, step: str) -> None:
        """dst = a op b, element-wise."""
        self.two_sources("TENSOR_TENSOR_ARITH_OP", a, b, dst, step, op=op)

    def scalar_tensor_tensor(
        self, a: Tensor, op0: str, scalar: Tensor, op1: str, b: Tensor, dst: Tensor, step: str
    ) -> None:
        """dst = (a op0 scalar[p]) op1 b, element-wise (ScalarTensorTensor, a pointer scalar)."""
        self.two_sources(
            "SCALAR_TENSOR_TENSOR_ARITH",
            a,
            b,
            dst,
            step,
            op0=op0,
            op1=op1,
            imm0_dtype=_isa(scalar),
            **_imm("imm0", scalar),
        )

    def exponential(self, src: Tensor, bias: Tensor, dst: Tensor, step: str) -> None:
        """dst = exp(src - bias[p]) (EXPONENTIAL, imm0 a per-row scalar)."""
        self.one_source("EXPONENTIAL", src, dst, step, **_imm("imm0", bias))

    def cumulative(self, op: str, src: Tensor, dst: Tensor, step: str) -> None:
        """dst[p, i] = op-fold of src[p, :i+1] (TensorScalarCacheCumulative, reset per row)."""
        self.one_source(
            "TENSOR_SCALAR_CACHE_CUMULATIVE",
            src,
            dst,
            step,
            accumulator_cmd="ZERO_ACCUMULATE",
            op0="BYPASS" if op == "BYPASS" else "ADD",
            op1=op,
            imm0=0.0,
        )


_ITEMSIZE = {"fp32": 4, "fp16": 2, "bf16": 2}
_GEOMETRY_USED = ("DVE_NUM_CHANNELS", "STATE_BUF_PARTITION_ACTIVE_SIZE", "STATE_BUF_OFFSET")


def _isa(t: Tensor) -> str:
    return DTYPES[t.dtype][0]


def _imm(slot: str, value: float | Tensor) -> dict[str, Any]:
    if isinstance(value, Tensor):
        return {f"{slot}_src": "POINTER_IMMEDIATE", slot: value.place}
    return {f"{slot}_src": "INSTRUCTION_IMMEDIATE", slot: float(value)}


def _start(
    target: Target, kernel: str, shape: Sequence[int], dtype: str, needs: tuple[str, ...]
) -> _Builder:
    if dtype not in DTYPES:
        raise ValueError(f"dtype: one of {', '.join(DTYPES)}, not {dtype!r}")
    for isa in {DTYPES[dtype][0], DTYPES[SCRATCH][0]}:
        if isa not in target.dtype_values:
            raise target.unsupported(
                f"{kernel} needs dtype {isa}, which {target.name} does not declare"
            )
    for constant in _GEOMETRY_USED:
        if constant not in target.geometry:
            raise target.unsupported(
                f"{kernel} needs the SBUF geometry constant {constant}, which {target.name}'s "
                "headers do not state"
            )
    if len(shape) != 2 or not all(isinstance(n, int) for n in shape):
        raise ValueError(f"shape: (rows, columns), not {tuple(shape)!r}")
    return _Builder(target, kernel, (int(shape[0]), int(shape[1])), needs)


# -- the kernels -----------------------------------------------------------------------------------


def softmax(target: Target, shape: Sequence[int], dtype: str = "fp32") -> Kernel:
    """y = exp(x - max(x)) / sum(exp(x - max(x))) per row: the sum's reciprocal (RECIPROCAL,
    one rounding; DIVIDE is rejected by every TensorScalar and TensorTensor validator), then one
    multiply."""
    b = _start(
        target,
        "softmax",
        shape,
        dtype,
        ("TENSOR_REDUCE_ARITH_OP", "EXPONENTIAL", "RECIPROCAL", "TENSOR_SCALAR_ARITH_OP"),
    )
    x, y = b.tensor("x", dtype), b.tensor("y", dtype)
    b.inputs.append(x)
    b.outputs.append(y)
    m, e = b.tensor("max", SCRATCH, 1), b.tensor("exp", SCRATCH)
    s, r = b.tensor("sum", SCRATCH, 1), b.tensor("inv_sum", SCRATCH, 1)
    b.reduce("MAX", x, m, "max = max(x) per row")
    b.exponential(x, m, e, "exp = exp(x - max)")
    b.reduce("ADD", e, s, "sum = sum(exp) per row")
    b.reciprocal(s, r, "inv_sum = 1 / sum")
    b.scalar(e, y, "y = exp * inv_sum", "MULT", r)
    return b.build()


_NORM_OPS = ("TENSOR_TENSOR_ARITH_OP", "TENSOR_REDUCE_ARITH_OP", "TENSOR_SCALAR_ARITH_OP")
_SCALED_OPS = (*_NORM_OPS, "SCALAR_TENSOR_TENSOR_ARITH")


def rmsnorm(
    target: Target,
    shape: Sequence[int],
    dtype: str = "fp32",
    eps: float = 1e-6,
    weight: bool = False,
) -> Kernel:
    """y = x / sqrt(mean(x * x) + eps) per row; times `weight` element-wise when asked (an input
    of the same shape: a walk stays inside its partition, so a weight row is not broadcast)."""
    b = _start(target, "rmsnorm", shape, dtype, _SCALED_OPS if weight else _NORM_OPS)
    x = b.tensor("x", dtype)
    w = b.tensor("weight", dtype) if weight else None
    y = b.tensor("y", dtype)
    b.inputs += [x] if w is None else [x, w]
    b.outputs.append(y)
    sq, s = b.tensor("square", SCRATCH), b.tensor("sum", SCRATCH, 1)
    v, r = b.tensor("var", SCRATCH, 1), b.tensor("rstd", SCRATCH, 1)
    n = b.shape[1]
    b.tensor_tensor("MULT", x, x, sq, "square = x * x")
    b.reduce("ADD", sq, s, "sum = sum(square) per row")
    b.scalar(s, v, f"var = sum * (1/{n}) + eps", "MULT", 1.0 / n, "ADD", eps)
    b.scalar(v, r, "rstd = 1 / sqrt(var)", "RSQRT")
    if w is None:
        b.scalar(x, y, "y = x * rstd", "MULT", r)
    else:
        b.scalar_tensor_tensor(x, "MULT", r, "MULT", w, y, "y = (x * rstd) * weight")
    return b.build()


def layernorm(
    target: Target,
    shape: Sequence[int],
    dtype: str = "fp32",
    eps: float = 1e-5,
    affine: bool = False,
) -> Kernel:
    """y = (x - mean(x)) / sqrt(var(x) + eps) per row (population variance); with `affine`,
    y * gamma + beta, both inputs of the same shape as x."""
    b = _start(target, "layernorm", shape, dtype, _SCALED_OPS if affine else _NORM_OPS)
    x = b.tensor("x", dtype)
    gamma_beta = (b.tensor("gamma", dtype), b.tensor("beta", dtype)) if affine else None
    y = b.tensor("y", dtype)
    b.inputs += [x] if gamma_beta is None else [x, *gamma_beta]
    b.outputs.append(y)
    s, mean = b.tensor("sum", SCRATCH, 1), b.tensor("mean", SCRATCH, 1)
    xc, sq = b.tensor("centred", SCRATCH), b.tensor("square", SCRATCH)
    ss, v = b.tensor("sum_sq", SCRATCH, 1), b.tensor("var", SCRATCH, 1)
    r = b.tensor("rstd", SCRATCH, 1)
    n = b.shape[1]
    b.reduce("ADD", x, s, "sum = sum(x) per row")
    b.scalar(s, mean, f"mean = sum * (1/{n})", "MULT", 1.0 / n)
    b.scalar(x, xc, "centred = x - mean", "SUBTRACT", mean)
    b.tensor_tensor("MULT", xc, xc, sq, "square = centred * centred")
    b.reduce("ADD", sq, ss, "sum_sq = sum(square) per row")
    b.scalar(ss, v, f"var = sum_sq * (1/{n}) + eps", "MULT", 1.0 / n, "ADD", eps)
    b.scalar(v, r, "rstd = 1 / sqrt(var)", "RSQRT")
    if gamma_beta is None:
        b.scalar(xc, y, "y = centred * rstd", "MULT", r)
    else:
        gamma, beta = gamma_beta
        # the scaled value stays fp32 (in square's place, no longer needed) until the one rounding
        b.scalar_tensor_tensor(
            xc, "MULT", r, "MULT", gamma, sq, "square = (centred * rstd) * gamma"
        )
        b.tensor_tensor("ADD", sq, beta, y, "y = square + beta")
    return b.build()


def _cumulative(target: Target, name: str, op: str, shape: Sequence[int], dtype: str) -> Kernel:
    b = _start(target, name, shape, dtype, ("TENSOR_SCALAR_CACHE_CUMULATIVE",))
    x, y = b.tensor("x", dtype), b.tensor("y", dtype)
    b.inputs.append(x)
    b.outputs.append(y)
    b.cumulative(op, x, y, f"y[:, i] = {op.lower()} of x[:, :i+1], from the op's identity per row")
    return b.build()


def cumsum(target: Target, shape: Sequence[int], dtype: str = "fp32") -> Kernel:
    """y[:, i] = x[:, 0] + ... + x[:, i], summed in fp32 in element order."""
    return _cumulative(target, "cumsum", "ADD", shape, dtype)


def cummax(target: Target, shape: Sequence[int], dtype: str = "fp32") -> Kernel:
    """y[:, i] = max(x[:, 0], ..., x[:, i])."""
    return _cumulative(target, "cummax", "MAX", shape, dtype)


#: kernel name -> its builder
KERNELS: dict[str, Callable[..., Kernel]] = {
    "softmax": softmax,
    "rmsnorm": rmsnorm,
    "layernorm": layernorm,
    "cumsum": cumsum,
    "cummax": cummax,
}
