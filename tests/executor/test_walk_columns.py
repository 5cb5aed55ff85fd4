"""Differential: `access.walk_columns` (the column form `run_program`'s planner and `info_batch`
resolve many words' patterns with) against `access.walk` (one instruction's, the reference), row
by row, on random patterns and addresses: SBUF and PSUM, every ADDR4 marker (immediate, register,
shape-register, indirect), partitions and offsets past the last ones, misaligned starts,
negative, zero and merging steps, empty walks, too many elements, every element size and
partition count, on scaled-down geometries (with a gap after each partition's active bytes, and
one without PSUM) and the generations' own.

Where the column form resolves a row, `walk` resolves it to the same walk (region, partition,
first element, count, stride or the same element offsets, the bytes it spans); where it does
not, `walk` raises an executor error, or the row is one the column form leaves to `walk` by
design (a register-held address; a gather or an empty walk when it is not asked for them)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tpb_scale import env_int

from .engine_loader import GEOMETRY, load_engine, small_geometry, sub

eng = load_engine()
access = sub("access")
errors = sub("errors")
program = sub("program")

GEOMETRIES = {
    "small": small_geometry(8, 256, 192, 128, 96),
    "no-psum": {**small_geometry(4, 128, 128, 64, 64), "PSUM_BUF_SZ": 0},
    "mariana": GEOMETRY["mariana"],
    "sunda": GEOMETRY["sunda"],
}
SETTINGS = settings(
    max_examples=env_int("TPB_EXEC_EXAMPLES", 100, 300) // 3,  # tpb_scale
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
ROWS = 64
MARKERS = [0x00] * 10 + [0x80, 0x80, 0x40, 0xC0, 0x20, 0xA0, 0x01, 0x10]


def _memory(name: str) -> Any:
    engine = eng.Engine(GEOMETRIES[name], eng.Numerics(), backend="numpy")
    return engine.memory


@st.composite
def rows(draw: st.DrawFn, memory: Any) -> dict[str, Any]:
    """ROWS random (raw ADDR4, steps, nums, itemsize, nparts): addresses near the edges of
    each region's partitions and active bytes, steps that merge now and then."""
    am = memory.addresses
    regions = [r for r in am.lookup if r.size > 0]
    dims = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    r_at = rng.integers(0, len(regions), ROWS)
    base = np.array([r.base for r in regions])[r_at]
    stride = np.array([r.stride for r in regions])[r_at]
    parts = np.array([r.partitions for r in regions])[r_at]
    active = np.array([r.active for r in regions])[r_at]
    part = np.where(
        rng.integers(0, 4, ROWS) > 0, rng.integers(0, 3, ROWS), parts - rng.integers(-1, 3, ROWS)
    )
    off = np.select(
        [rng.integers(0, 4, ROWS) == 0, rng.integers(0, 3, ROWS) == 0],
        [active - rng.integers(-2, 24, ROWS), stride - rng.integers(1, 4, ROWS)],
        rng.integers(0, 48, ROWS),
    )
    addr = base + part * stride + off
    addr = np.where(rng.integers(0, 30, ROWS) == 0, rng.integers(0, 2**29, ROWS), addr)
    addr = np.where(rng.integers(0, 40, ROWS) == 0, addr | (1 << 29), addr)  # above the mask
    marker = np.array(MARKERS)[rng.integers(0, len(MARKERS), ROWS)]
    regnum = rng.integers(0, 80, ROWS)  # past the last register now and then
    # the address as it is (its top byte the marker: PSUM's is not 0), or a marker and a
    # register number, or a marker of no form over the address's low bytes
    raw = np.where(marker == 0, addr, (marker << 24) | regnum)
    raw = np.where((marker != 0) & (marker & 0xE0 == 0), (marker << 24) | (addr & 0xFFFFFF), raw)
    steps = rng.choice([1, 1, 2, -1, -2, 0, 3, 4, 8, -8, 64, 1 << 20], (ROWS, dims))
    nums = rng.choice([1, 1, 2, 3, 4, 0, 5, 8, 16], (ROWS, dims))
    big = rng.integers(0, 12, ROWS) == 0
    nums[big] = rng.choice([1 << 12, 1 << 13, 4097], (int(big.sum()), dims))
    # a second dimension that continues the first (merges into one stride) now and then
    if dims > 1:
        cont = rng.integers(0, 3, ROWS) == 0
        steps[cont, 1] = steps[cont, 0] * nums[cont, 0]
    itemsize = rng.choice([1, 2, 4], ROWS)
    nparts = np.where(
        rng.integers(0, 6, ROWS) == 0, rng.integers(0, 3, ROWS), rng.integers(1, 5, ROWS)
    )
    return {
        "raw": raw.astype(np.int64), "steps": steps.astype(np.int64),
        "nums": nums.astype(np.int64), "itemsize": itemsize.astype(np.int64),
        "nparts": nparts.astype(np.int64),
    }  # fmt: skip


def _scalar(memory: Any, raw: int, steps: list[int], nums: list[int], isz: int, n: int) -> Any:
    """`walk` of one row (through `resolve_addr4`, as `Engine._walk`), or the error it raises."""
    try:
        addr = access.resolve_addr4(raw, memory, "src")
        return access.walk(memory, addr, steps, nums, isz, n, "src")
    except errors.ExecutorError as e:
        return e


def _elements(w: Any) -> list[int]:
    if w.slc is not None:
        return [w.elem0 + (w.slc.step or 1) * k for k in range(w.count)]
    return (w.elem0 + w.offsets).tolist()  # type: ignore[no-any-return]


def _check(memory: Any, r: dict[str, Any], gathers: bool) -> None:
    immediate, addr = access.resolve_addr4_columns(r["raw"], memory.mask)
    ok = np.ones(ROWS, np.bool_) & immediate
    w, ok = access.walk_columns(
        memory, addr, r["steps"], r["nums"], r["itemsize"], r["nparts"], ok, gathers
    )
    names = ("SBUF", "PSUM")
    for i in range(ROWS):
        raw, isz, n = int(r["raw"][i]), int(r["itemsize"][i]), int(r["nparts"][i])
        ref = _scalar(memory, raw, r["steps"][i].tolist(), r["nums"][i].tolist(), isz, n)
        register = (raw >> 24) & access.MARKERS_NOT_IMMEDIATE == access.MARKER_ADDR_REG
        if isinstance(ref, errors.AddressError) and "touches bytes" in str(ref):
            # refused for its bounds: some element is outside the partition's active bytes
            loc = memory.decode(access.resolve_addr4(raw, memory, "src"))
            region = memory.region_of(loc.region)
            el = loc.offset // isz + access.element_offsets(
                r["steps"][i].tolist(), r["nums"][i].tolist()
            )
            assert el.min() < 0 or el.max() >= region.active // isz, (i, raw)
        if isinstance(ref, errors.AddressError) and "is not aligned" in str(ref):
            loc = memory.decode(access.resolve_addr4(raw, memory, "src"))
            assert loc.offset % isz, (i, raw)
        if isinstance(ref, errors.AddressError) and "run past partition" in str(ref):
            loc = memory.decode(access.resolve_addr4(raw, memory, "src"))
            assert n < 1 or loc.partition + n > memory.region_of(loc.region).partitions, i
        if not isinstance(ref, Exception):  # resolved: aligned, its partitions exist
            assert ref.elem0 * isz == memory.decode(access.resolve_addr4(raw, memory, "src")).offset
            assert n >= 1 and ref.partition + n <= ref.region.partitions, i
        if not ok[i]:
            refused = isinstance(ref, errors.ExecutorError)
            deferred = register or (
                not gathers and not refused and (ref.slc is None or ref.count == 0)
            )
            assert refused or deferred, (i, raw, ref)
            continue
        assert not isinstance(ref, Exception), (i, raw, ref)
        assert not register
        assert names[int(w.region[i])] == ref.region.name
        assert (int(w.part[i]), int(w.count[i]), int(w.elem0[i])) == (
            ref.partition, ref.count, ref.elem0,
        ), i  # fmt: skip
        assert bool(w.gather[i]) == (ref.slc is None), i
        assert int(w.rs[i]) == ref.region.active // isz
        assert int(w.off[i]) == ref.partition * ref.region.active + ref.elem0 * isz
        if ref.count:
            el = _elements(ref)
            assert min(el) >= 0 and max(el) < ref.region.active // isz, i  # within its bytes
            assert (int(w.lo[i]), int(w.hi[i])) == (min(el) * isz, (max(el) + 1) * isz), i
            if ref.slc is not None:
                assert int(w.es[i]) == (ref.slc.step or 1), i


@pytest.mark.parametrize("geometry", list(GEOMETRIES))
def test_walk_columns_is_walk_of_each_row(geometry: str) -> None:
    memory = _memory(geometry)
    rng = np.random.default_rng(11)
    # registers that point into each region (and past it), for the register-held rows
    targets = [r.base + k * r.stride for r in memory.addresses.lookup if r.size for k in (0, 1)]
    memory.registers[:] = np.array(targets * 64, np.int64)[: memory.registers.size] + rng.integers(
        0, 8, memory.registers.size
    )
    seen = {"resolved": 0, "gather": 0, "empty": 0, "refused": 0}

    @SETTINGS
    @given(st.data())
    def run(data: st.DataObject) -> None:
        r = data.draw(rows(memory))
        for gathers in (False, True):
            _check(memory, r, gathers)
        immediate, addr = access.resolve_addr4_columns(r["raw"], memory.mask)
        w, ok = access.walk_columns(
            memory, addr, r["steps"], r["nums"], r["itemsize"], r["nparts"], immediate, True
        )
        seen["resolved"] += int(ok.sum())
        seen["gather"] += int((ok & w.gather).sum())
        seen["empty"] += int((ok & (w.count == 0)).sum())
        seen["refused"] += int((~ok).sum())

    run()
    assert all(v > 0 for v in seen.values()), seen


def test_planner_walks_are_the_column_form() -> None:
    """`program._walks` (the planners' pattern walks) is `resolve_addr4_columns` then
    `walk_columns`: a register-held row is left to the method, an immediate one resolved."""
    memory = _memory("small")
    engine = type("E", (), {"memory": memory})()
    start = np.array([0x10, (0x80 << 24) | 3, 0x10 | (0x40 << 24)], np.int64)
    one = np.ones((3, 1), np.int64)
    p = program.PatternColumn(start, one, one)
    w, ok = program._walks(engine, p, np.full(3, 4), np.ones(3, np.int64), np.ones(3, np.bool_))
    assert ok.tolist() == [True, False, False]
    assert int(w.elem0[0]) == 4


@pytest.mark.parametrize("geometry", list(GEOMETRIES))
def test_locate_at_the_edges(geometry: str) -> None:
    """`AddressMap.locate` and `locate_columns` at the edges semantics.md §4.2 draws: a
    region's first and last address, a partition's last active byte and the first byte past
    its active bytes, the last partition, the first address past a region, a bit above the
    mask; each where it is (as `address` makes it) or refused, both forms alike, and the text
    form's `text_of` naming the same place."""
    memory = _memory(geometry)
    am = memory.addresses
    cases: list[tuple[int, tuple[str, int, int] | str]] = [
        (am.mask + 1, "not a PartitionOffset"),
        (-1, "not a PartitionOffset"),
    ]
    for r in am.lookup:
        if not r.size:
            continue
        last = r.partitions - 1
        cases += [
            (r.base, (r.name, 0, 0)),
            (r.base + r.active - 1, (r.name, 0, r.active - 1)),
            (r.base + last * r.stride + r.active - 1, (r.name, last, r.active - 1)),
        ]
        if r.active < r.stride:  # a gap after the active bytes
            cases.append((r.base + r.active, "beyond its"))
            cases.append((r.base + last * r.stride + r.active, "beyond its"))
        past = r.base + r.size
        if not any(o.size and o.base <= past < o.base + o.size for o in am.lookup):
            cases.append((past, "is not in"))
    for addr, where in cases:
        if isinstance(where, str):  # refused, by the rule the text names
            with pytest.raises(errors.AddressError, match=where):
                am.locate(addr)
        else:
            loc = am.locate(addr)
            assert (loc.region, loc.partition, loc.offset) == where
            assert am.address(*where) == addr
    col = am.locate_columns(np.array([a for a, _ in cases], np.int64))
    for k, (_, where) in enumerate(cases):
        assert bool(col.found[k]) == (not isinstance(where, str))
        if not isinstance(where, str):
            got = (("SBUF", "PSUM")[int(col.region[k])], int(col.partition[k]), int(col.offset[k]))
            assert got == where
    for addr, where in cases:  # the text form's reading of the same address: the same rules
        loc = am.try_locate(addr)
        assert am.text_of(addr) == (None if loc is None else str(loc))
        assert (loc is None) == isinstance(where, str)


def test_the_element_limit_is_inclusive() -> None:
    """A walk of exactly MAX_ELEMENTS_PER_PARTITION elements per partition is walked (the
    column form resolves it: a broadcast, every element the first); one more is refused by
    `walk` with the limit in its text, and left by the column form."""
    memory = _memory("small")
    limit = access.MAX_ELEMENTS_PER_PARTITION
    nums = np.array([[limit // 4096, 4096], [limit // 4096 + 1, 4096]], np.int64)
    steps = np.zeros((2, 2), np.int64)
    one = np.ones(2, np.int64)
    w, ok = access.walk_columns(
        memory, np.zeros(2, np.int64), steps, nums, one, one, np.ones(2, np.bool_), True
    )
    assert ok.tolist() == [True, False]
    assert int(w.count[0]) == limit and (int(w.lo[0]), int(w.hi[0])) == (0, 1)
    with pytest.raises(
        errors.UnsupportedError, match=f"more than the executor handles \\({limit}\\)"
    ):
        access.walk(memory, 0, [0, 0], nums[1].tolist(), 1, 1, "src")
