"""tpb_isa.<gen>.kernels: each kernel against a numpy reference on random inputs, on both executor
backends, and what its words and listing are.

Tolerances (u = 2**-24, the fp32 unit roundoff; n = the free-axis length; the reference is float64
on the same input values):

* softmax: relative (n + 32) u. The row sum is n fp32 additions in element order (TensorReduce
  folds in order, README "Open numeric choices"): relative error at most (n - 1) u. exp is an fp32
  polynomial within 2 ulp of exp (README), on x - max, whose one rounding moves exp by at most
  |x - max| u (<= 16 u for these inputs); the sum's reciprocal (one rounding, RECIPROCAL) and
  one multiply: 2 u more.
* rmsnorm: relative (n / 2 + 16) u: the sum of squares as above (n u), halved by the square
  root, plus the rounding of each square, of 1/n, of the rsqrt and of the final multiply.
* layernorm: absolute (n + 16) u (mean|x| / sigma + max|y|): the mean carries the sum's error
  (n u mean|x|), which the centred values inherit and the rstd scales by 1 / sigma; the rstd's own
  relative error (as rmsnorm) scales |y|.
* cumsum, cummax: exact. The executor runs the sum in fp32 in element order and rounds each
  output once, as numpy's float32 cumsum does (it is sequential, not pairwise).
* bf16 inputs and outputs: relative 2**-8: the output's one rounding (2**-9) dominates the fp32
  error above (n <= 512).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from .kernel_loader import (
    GENS,
    KERNEL_NAMES,
    REFERENCE,
    UNSUPPORTED,
    gen_module,
    kernels,
)

U = 2.0**-24
BACKENDS = ("numpy", "c")
SUPPORTED = [(g, k) for g in GENS for k in KERNEL_NAMES if (g, k) not in UNSUPPORTED]


def _input(kernel: str, shape: tuple[int, int], seed: int) -> np.ndarray[Any, Any]:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if kernel == "softmax":
        x = x * 3.0  # exp over a range of about +-12
    elif kernel == "layernorm":
        x = 2.0 + 1.5 * x  # a mean away from zero, so the centring matters
    return x.astype(np.float32)


def _check_fp32(kernel: str, x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> None:
    n = x.shape[1]
    assert y.dtype == np.float32 and y.shape == x.shape
    if kernel == "cumsum":
        np.testing.assert_array_equal(y, np.cumsum(x, axis=1, dtype=np.float32))
        return
    if kernel == "cummax":
        np.testing.assert_array_equal(y, np.maximum.accumulate(x, axis=1))
        return
    xd = x.astype(np.float64)
    ref = REFERENCE[kernel](xd)
    got = y.astype(np.float64)
    if kernel == "layernorm":
        sigma = xd.std(axis=1)
        atol = (n + 16) * U * float((np.abs(xd).mean(axis=1) / sigma).max() + np.abs(ref).max())
        np.testing.assert_allclose(got, ref, rtol=0, atol=atol)
    else:
        rtol = (n + 32) * U if kernel == "softmax" else (n / 2 + 16) * U
        np.testing.assert_allclose(got, ref, rtol=rtol, atol=0)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("gen", "kernel"), SUPPORTED)
def test_kernel_matches_numpy(gen: str, kernel: str, backend: str) -> None:
    k = getattr(kernels(gen), kernel)(shape=(128, 512), dtype="fp32")
    x = _input(kernel, (128, 512), seed=len(gen) * 7 + len(kernel))
    _check_fp32(kernel, x, k(x, backend=backend))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kernel", ["softmax", "rmsnorm", "layernorm", "cumsum", "cummax"])
def test_odd_shape(kernel: str, backend: str) -> None:
    """Fewer partitions than channels and a free axis that is no power of two (1/n inexact)."""
    k = getattr(kernels("mariana"), kernel)(shape=(7, 37))
    x = _input(kernel, (7, 37), seed=3)
    _check_fp32(kernel, x, k(x, backend=backend))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kernel", ["softmax", "rmsnorm", "layernorm", "cumsum"])
def test_bf16(kernel: str, backend: str) -> None:
    k = getattr(kernels("maverick"), kernel)(shape=(64, 256), dtype="bf16")
    x = _input(kernel, (64, 256), seed=5).astype(ml_dtypes.bfloat16)
    y = k(x, backend=backend)
    assert y.dtype == ml_dtypes.bfloat16
    if kernel == "cumsum":
        ref = np.cumsum(x.astype(np.float32), axis=1, dtype=np.float32).astype(ml_dtypes.bfloat16)
        np.testing.assert_array_equal(y, ref)
        return
    ref64 = REFERENCE[kernel](x.astype(np.float64))
    if kernel == "layernorm":
        np.testing.assert_allclose(y.astype(np.float64), ref64, rtol=2.0**-8, atol=2.0**-8)
    else:
        np.testing.assert_allclose(y.astype(np.float64), ref64, rtol=2.0**-8, atol=0)


def test_backends_agree_bit_for_bit() -> None:
    """The two backends are bit-identical instruction by instruction, so on whole kernels too."""
    for kernel in ("rmsnorm", "layernorm", "softmax"):
        k = getattr(kernels("mariana"), kernel)(shape=(32, 100))
        x = _input(kernel, (32, 100), seed=11)
        np.testing.assert_array_equal(k(x, backend="numpy"), k(x, backend="c"))


@pytest.mark.parametrize(("gen", "kernel"), SUPPORTED)
def test_words_valid_and_listing_reassembles(gen: str, kernel: str) -> None:
    mod = gen_module(gen)
    k = getattr(kernels(gen), kernel)(shape=(128, 512))
    assert k.words.dtype == np.uint8 and k.words.ndim == 2 and k.words.shape[1] == 64
    assert not k.words.flags.writeable
    assert mod.validate_batch(k.words, backend="c").all()
    assert all(mod.validate(w) for w in k.words)
    listing = k.listing()
    assert mod.asm(listing) == k.words.tobytes()
    # one instruction a line, after the comment header naming the inputs and outputs
    body = [ln for ln in listing.splitlines() if not ln.startswith(";")]
    assert len(body) == len(k.words)
    assert all(f"at {t.place}" in listing for t in (*k.inputs, *k.outputs))


@pytest.mark.parametrize("gen", ["sunda", "cayman"])
def test_softmax_unsupported_names_exponential(gen: str) -> None:
    errors = gen_module(gen, "executor")
    with pytest.raises(errors.UnsupportedError, match=r"softmax needs EXPONENTIAL 0x30, which "):
        kernels(gen).softmax(shape=(128, 512))
    assert not gen_module(gen).opcode_decodable(0x30)


@pytest.mark.parametrize("gen", ["mariana", "maverick"])
def test_softmax_runs_exponential_where_executed(gen: str) -> None:
    k = kernels(gen).softmax(shape=(4, 8))
    assert 0x30 in set(k.words[:, 0].tolist())
    assert 0x30 in gen_module(gen, "executor").EXECUTABLE


@pytest.mark.smoke
def test_inputs_outputs_and_manual_run() -> None:
    """write_inputs / run_program / read_outputs is what k(...) does; addresses are the
    executor's own for SBUF partition 0 at each tensor's offset."""
    mod = gen_module("cayman")
    k = kernels("cayman").layernorm(shape=(16, 48))
    (x_spec,), (y_spec,) = k.inputs, k.outputs
    assert (x_spec.name, x_spec.shape, x_spec.dtype) == ("x", (16, 48), "fp32")
    assert (y_spec.name, y_spec.shape, y_spec.dtype) == ("y", (16, 48), "fp32")
    ex = mod.Executor(backend="numpy")
    for spec in (x_spec, y_spec):
        assert spec.address == ex.sbuf_addr(0, spec.offset)
    assert y_spec.offset >= x_spec.offset + 48 * 4  # no overlap
    x = _input("layernorm", (16, 48), seed=2)
    k.write_inputs(ex, x)
    np.testing.assert_array_equal(ex.read(x_spec.address, np.float32, (16, 48)), x)
    ex.run_program(k.words)
    np.testing.assert_array_equal(k.read_outputs(ex), k(x, backend="numpy"))
    assert ex.read(x_spec.address, np.float32, (16, 48)).tobytes() == x.tobytes()  # untouched


def test_bad_arguments() -> None:
    km = kernels("mariana")
    k = km.rmsnorm(shape=(8, 16))
    with pytest.raises(TypeError, match="float64, the kernel takes fp32"):
        k(np.zeros((8, 16)))
    with pytest.raises(ValueError, match=r"shape \(8, 15\), the kernel takes \(8, 16\)"):
        k(np.zeros((8, 15), dtype=np.float32))
    with pytest.raises(TypeError, match="takes 1 input"):
        k(np.zeros((8, 16), dtype=np.float32), np.zeros((8, 16), dtype=np.float32))
    with pytest.raises(ValueError, match=r"shape\[0\] .* is 1\.\.128, not 129"):
        km.rmsnorm(shape=(129, 16))
    with pytest.raises(ValueError, match="dtype: one of fp32, fp16, bf16, not 'int8'"):
        km.cumsum(shape=(8, 16), dtype="int8")
    with pytest.raises(ValueError, match="does not fit in an SBUF partition"):
        km.layernorm(shape=(8, 1 << 16))
    # maverick's 512 KiB partitions hold the tensors; a walk's element count is a uint16_t
    with pytest.raises(ValueError, match=r"cumsum\[1, 70000\]: step .*num_elem .* not 70000"):
        kernels("maverick").cumsum(shape=(1, 70000), dtype="fp16")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("gen", GENS)
def test_rmsnorm_weight_and_layernorm_affine(gen: str, backend: str) -> None:
    """The scaled forms end in a ScalarTensorTensor ((x * rstd) * weight), layernorm's then adds
    beta: one and two roundings more than the plain forms' bounds above."""
    km = kernels(gen)
    n = 200
    rng = np.random.default_rng(17)
    x = _input("layernorm", (64, n), seed=9)
    w, gamma, beta = (rng.standard_normal((64, n)).astype(np.float32) for _ in range(3))
    k = km.rmsnorm(shape=(64, n), weight=True)
    assert [t.name for t in k.inputs] == ["x", "weight"]
    xd = x.astype(np.float64)
    ref = REFERENCE["rmsnorm"](xd) * w
    np.testing.assert_allclose(k(x, w, backend=backend), ref, rtol=(n / 2 + 18) * U, atol=0)
    k = km.layernorm(shape=(64, n), affine=True)
    assert [t.name for t in k.inputs] == ["x", "gamma", "beta"]
    norm = REFERENCE["layernorm"](xd)
    ref = norm * gamma + beta
    sigma = xd.std(axis=1)
    atol = (n + 16) * U * float((np.abs(xd).mean(axis=1) / sigma).max() + np.abs(norm).max())
    atol = atol * float(np.abs(gamma).max()) + 2 * U * float(np.abs(ref).max())
    np.testing.assert_allclose(k(x, gamma, beta, backend=backend), ref, rtol=0, atol=atol)
    assert mod_valid(gen, k.words)


def mod_valid(gen: str, words: np.ndarray[Any, Any]) -> bool:
    return bool(gen_module(gen).validate_batch(words).all())
