"""Every clone of the C kernels computes the numpy backend's bits, not only the one this CPU runs.

With GCC on x86-64 Linux the kernels are cloned (`target_clones`) for x86-64-v4 (AVX-512), AVX2
and the baseline, and the loader runs the best the CPU has: the differential suites exercise that
one clone only. Here the kernels are built again with cloning off (`-DTPB_CLONES=`), once for
AVX2 and once for baseline x86-64, and the differential tests run against each build (the C
backend's loaded kernels swapped for the test's duration)."""

from __future__ import annotations

import dataclasses
import multiprocessing
import platform
import shutil
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from . import test_engine_differential as differential
from .engine_loader import c_available, runtime, sub

cbuild = runtime("cbuild")
cextensions = runtime("cextensions")

pytestmark = pytest.mark.skipif(
    not (
        sys.platform == "linux"
        and platform.machine() == "x86_64"
        and shutil.which("gcc")
        and c_available()
    ),
    reason="the kernels are cloned only by GCC on x86-64 Linux",
)

# one ISA per build: what a CPU without AVX-512 runs, and what one without AVX2 runs
ISAS = {"avx2": ("-mavx2",), "x86-64": ("-march=x86-64",)}

DIFFERENTIAL: list[Callable[[], None]] = [
    differential.test_tensor_scalar_arith,
    differential.test_tensor_scalar_bitvec,
    differential.test_cache_reduce_and_cumulative,
    differential.test_cache_accumulate_across_partition_groups_and_blocks,
    differential.test_exponential,
    differential.test_fp32_and_bf16_fast_paths,
    differential.test_fused_bf16_stores_of_every_op_pair_on_specials_match_numpy,
    differential.test_bf16_stores_of_every_tie_and_special_match_numpy,
    differential.test_imm_ld_ptr_multi_and_dual,
    differential.test_two_source_arith,
    differential.test_two_source_bitvec,
    differential.test_tensor_reduce,
    differential.test_scan_reduce_and_bf16_tt_row_paths_on_long_rows_of_specials,
    differential.test_scan_on_a_destination_large_enough_to_stream,
    differential.test_reduce_max_min_keys_on_rows_of_one_kind_of_special,
    differential.test_int_wide,
]


def one_isa(isa: str) -> Any:
    spec = cextensions.kernels()
    assert "target_clones" in spec.source  # what this test is about
    return dataclasses.replace(spec, compile_args=(*spec.compile_args, "-DTPB_CLONES=", *ISAS[isa]))


def _compile(spec: Any) -> None:
    cbuild.compile_into(spec, spec.cache_path().parent)


@pytest.fixture(scope="module")
def built() -> None:
    """Both builds compiled at once, in processes of their own (cffi's compile changes the
    working directory, so not in threads): the suite waits for the longer one only."""
    todo = [s for s in map(one_isa, sorted(ISAS)) if not s.cache_path().is_file()]
    if todo:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(len(todo), mp_context=ctx) as pool:
            list(pool.map(_compile, todo))


@pytest.fixture(params=sorted(ISAS), scope="module")
def one_isa_kernels(request: pytest.FixtureRequest, built: None) -> tuple[str, tuple[Any, Any]]:
    return request.param, cbuild.load(one_isa(request.param))  # compiled by `built`


@pytest.fixture
def swapped(
    one_isa_kernels: tuple[str, tuple[Any, Any]], monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    isa, loaded = one_isa_kernels
    cbackend = sub("cbackend")
    assert cbackend.load() is not loaded
    monkeypatch.setattr(cbackend, "_loaded", loaded)
    yield isa


@pytest.mark.parametrize("test", DIFFERENTIAL, ids=lambda t: t.__name__.removeprefix("test_"))
def test_each_clone_matches_numpy(swapped: str, test: Callable[[], None]) -> None:
    test()


def test_the_differential_list_is_the_whole_suite() -> None:
    """A differential test added later is run on every clone too."""
    names = {n for n in vars(differential) if n.startswith("test_")}
    assert names == {t.__name__ for t in DIFFERENTIAL}
