"""Multi-core semantics: SyncAll (every core waits at the barrier; a core that never arrives is a
finding, not a hang; the race checks know the phases it separates), atomic writes to GM (they
accumulate; the race checks know they commute), InitGlobalMemory, and a failing core that stops
alone. Each finding kind with a broken kernel and its legal twin."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import (
    CoreFailed,
    DataCopy,
    EmulatorError,
    GlobalMemory,
    GlobalTensor,
    InitGlobalMemory,
    KernelArg,
    SetAtomicAdd,
    SetAtomicMax,
    SetAtomicMin,
    SetAtomicNone,
    SetAtomicType,
    SyncAll,
    TBuf,
    TPipe,
    launch,
)
from opsnn.dtypes import bfloat16

from .helpers import PLATFORM

CORES = 4


def _gm(gm, name, values):
    raw = np.ascontiguousarray(values).view(np.uint8)
    addr = gm.malloc(raw.size)
    gm.bytes_view(addr, raw.size)[:] = raw
    return KernelArg(name, addr, raw.size)


def _tensor(ptr, dtype, offset=0):
    t = GlobalTensor(dtype)
    t.SetGlobalBuffer(ptr.as_type(dtype) + offset)
    return t


def _ub(ctx, dtype, n, name="b"):
    buf = TBuf(name=name)
    TPipe(ctx).InitBuffer(buf, n * np.dtype(dtype).itemsize)
    return buf.Get(dtype)


def _partials_then_sum(sync: bool):
    """Phase 0: core i writes 8 floats of value i + 1 to its slot of a workspace; (SyncAll;)
    phase 1: core 0 reads every slot and writes their sum to y. Without the barrier, core 0 reads
    slots the other cores write in the same phase."""
    from opsnn.ascendc import Adds, Duplicate

    def kernel(ctx, ws, y, tiling):
        i = ctx.GetBlockIdx()
        t = _ub(ctx, np.float32, 8 * CORES)
        Duplicate(t, float(i + 1), 8)
        DataCopy(_tensor(ws, np.float32, 8 * i), t, 8)
        if sync:
            SyncAll(ctx)
        if i == 0:
            DataCopy(t, _tensor(ws, np.float32), 8 * CORES)
            acc = _ub(ctx, np.float32, 8, "acc")
            Duplicate(acc, 0.0, 8)
            for c in range(CORES):
                from opsnn.ascendc import Add
                Add(acc, acc, t[8 * c], 8)
            Adds(acc, acc, 0.0, 8)
            DataCopy(_tensor(y, np.float32), acc, 8)

    gm = GlobalMemory()
    ws, y = _gm(gm, "workspace", np.zeros(8 * CORES, np.float32)), _gm(gm, "y", np.zeros(8, np.float32))
    report = launch(kernel, gm=gm, platform=PLATFORM, block_dim=CORES, args=[ws, y], tiling=b"", sanitize=True)
    return report, gm.bytes_view(y.addr, 32).view(np.float32).copy()


def test_sync_all_makes_every_core_wait_and_orders_the_phases():
    report, y = _partials_then_sum(sync=True)
    # core 0 read the slots after every core wrote its own: 1 + 2 + 3 + 4, and no race reported
    np.testing.assert_array_equal(y, np.full(8, 10.0, np.float32))
    assert report.findings == [] and report.aborted_cores == ()


def test_without_the_barrier_the_read_races_with_the_writes():
    report, _ = _partials_then_sum(sync=False)
    races = {(f.kind, f.core, f.other_core, f.tensor) for f in report.errors}
    assert races == {("gm_read_write_race", 0, c, "workspace") for c in range(1, CORES)}


def test_cores_resume_in_core_order_phase_by_phase():
    seen = []

    def kernel(ctx, tiling):
        for _ in range(3):
            seen.append((ctx.phase, ctx.GetBlockIdx()))
            SyncAll(ctx)
        seen.append((ctx.phase, ctx.GetBlockIdx()))

    report = launch(kernel, gm=GlobalMemory(), platform=PLATFORM, block_dim=3, args=[], tiling=b"", sanitize=True)
    assert report.findings == []
    assert seen == [(p, c) for p in range(4) for c in range(3)]


def test_a_core_that_never_arrives_is_a_finding_not_a_hang():
    def kernel(ctx, tiling):
        if ctx.GetBlockIdx() == 2:
            return  # returns before the barrier the others wait at
        SyncAll(ctx)

    report = launch(kernel, gm=GlobalMemory(), platform=PLATFORM, block_dim=CORES, args=[], tiling=b"",
                    on_core_error="report")
    [f] = report.errors
    assert (f.kind, f.core, f.instruction) == ("sync_all_missing_core", 2, "SyncAll")
    assert "cores 0, 1, 3 wait at SyncAll #1" in f.detail and "core 2 ended after 0 SyncAll" in f.detail
    assert report.aborted_cores == (0, 1, 3)
    with pytest.raises(EmulatorError, match=r"core\(s\) 2 ended without reaching SyncAll #1"):
        launch(kernel, gm=GlobalMemory(), platform=PLATFORM, block_dim=CORES, args=[], tiling=b"")


def test_a_core_missing_a_later_barrier_is_named():
    def kernel(ctx, tiling):
        SyncAll(ctx)
        if ctx.GetBlockIdx() != 0:
            SyncAll(ctx)

    report = launch(kernel, gm=GlobalMemory(), platform=PLATFORM, block_dim=3, args=[], tiling=b"",
                    on_core_error="report")
    assert [(f.kind, f.core) for f in report.errors] == [("sync_all_missing_core", 0)]
    assert "core 0 ended after 1 SyncAll(s); cores 1, 2 wait at SyncAll #2" in report.errors[0].detail


def test_the_soft_sync_all_waits_for_its_core_count():
    def kernel(ctx, tiling):
        if ctx.GetBlockIdx() >= 2:
            return  # not among the used cores
        SyncAll(ctx, 2)
        SyncAll(ctx, 2)

    report = launch(kernel, gm=GlobalMemory(), platform=PLATFORM, block_dim=CORES, args=[], tiling=b"",
                    on_core_error="report")
    assert report.findings == [] and report.aborted_cores == ()
    with pytest.raises(EmulatorError, match="SyncAll for 5 cores in a launch of 4"):
        launch(lambda ctx, t: SyncAll(ctx, 5), gm=GlobalMemory(), platform=PLATFORM, block_dim=CORES, args=[],
               tiling=b"")


def test_a_failing_core_stops_alone():
    def kernel(ctx, y, tiling):
        i = ctx.GetBlockIdx()
        if i == 1:
            raise CoreFailed(1, "Cast", "k.cpp:12", "RoundMode.CAST_ODD from int8 is not modelled")
        if i == 2:
            raise ValueError("a kernel's own bug")
        t = _ub(ctx, np.float32, 8)
        from opsnn.ascendc import Duplicate
        Duplicate(t, float(i + 1), 8)
        DataCopy(_tensor(y, np.float32, 8 * i), t, 8)

    gm = GlobalMemory()
    y = _gm(gm, "y", np.zeros(8 * CORES, np.float32))
    report = launch(kernel, gm=gm, platform=PLATFORM, block_dim=CORES, args=[y], tiling=b"",
                    on_core_error="report")
    got = [(f.kind, f.core, f.instruction, f.source) for f in report.errors]
    assert got == [("core_failed", 1, "Cast", "k.cpp:12"), ("core_failed", 2, "?", None)]
    assert "RoundMode.CAST_ODD" in report.errors[0].detail
    assert "ValueError: a kernel's own bug" in report.errors[1].detail
    assert report.aborted_cores == (1, 2)
    out = gm.bytes_view(y.addr, 128).view(np.float32)
    np.testing.assert_array_equal(out[24:], np.full(8, 4.0, np.float32))  # core 3 ran after the failures
    gm.bytes_view(y.addr, 128)[:] = 0
    with pytest.raises(CoreFailed, match="core 1: Cast at k.cpp:12"):  # raised once every core has run
        launch(kernel, gm=gm, platform=PLATFORM, block_dim=CORES, args=[y], tiling=b"")
    np.testing.assert_array_equal(out[24:], np.full(8, 4.0, np.float32))


# ---- atomics ----

def _accumulate(values: np.ndarray, dtype, mode=None, atomic_cores=range(CORES), init=None):
    """Core i copies values[i] (8 elements, then zeros to a 32-byte block) to the same block of y,
    atomically where i is in atomic_cores (mode: SetAtomicAdd by default)."""
    mode = mode or SetAtomicAdd
    n = 32 // np.dtype(dtype).itemsize

    def kernel(ctx, y, tiling):
        i = ctx.GetBlockIdx()
        t = _ub(ctx, dtype, n)
        block = np.zeros(n, dtype)
        block[:8] = values[i]
        t.buffer.storage[t.buffer.base:t.buffer.base + 32] = block.view(np.uint8)
        t.buffer.written = [(0, 32)]
        if i in atomic_cores:
            mode(ctx, dtype)
        DataCopy(_tensor(y, dtype), t, n)
        SetAtomicNone(ctx)

    gm = GlobalMemory()
    start = np.zeros(n, dtype) if init is None else init[:n]
    y = _gm(gm, "y", start)
    report = launch(kernel, gm=gm, platform=PLATFORM, block_dim=len(values), args=[y], tiling=b"", sanitize=True)
    return report, gm.bytes_view(y.addr, start.nbytes).view(dtype)[:8].copy()


def test_atomic_add_accumulates_every_core_and_is_no_race():
    values = np.arange(CORES * 8, dtype=np.float32).reshape(CORES, 8) / 4
    report, y = _accumulate(values, np.float32)
    np.testing.assert_array_equal(y, values.sum(axis=0))
    assert report.findings == []


def test_plain_writes_of_the_same_bytes_overlap():
    values = np.ones((CORES, 8), np.float32)
    report, _ = _accumulate(values, np.float32, atomic_cores=())
    assert {f.kind for f in report.errors} == {"gm_write_overlap"}


def test_an_atomic_write_meeting_a_plain_one_is_an_overlap():
    values = np.ones((2, 8), np.float32)
    report, _ = _accumulate(values, np.float32, atomic_cores=(0,))
    [f] = report.errors
    assert (f.kind, f.core, f.other_core) == ("gm_write_overlap", 0, 1)
    assert "atomically (add float32)" in f.detail and "a plain write" in f.detail


def test_atomic_writes_of_two_kinds_are_an_overlap():
    values = np.ones((2, 8), np.float32)

    def mode(ctx, dtype):
        (SetAtomicAdd if ctx.GetBlockIdx() == 0 else SetAtomicMax)(ctx, dtype)

    report, _ = _accumulate(values, np.float32, mode=mode)
    [f] = report.errors
    assert "atomically (add float32)" in f.detail and "atomic max float32" in f.detail


@pytest.mark.parametrize("dtype", [np.float16, bfloat16, np.int32, np.int16, np.int8])
def test_atomic_add_rounds_once_per_add_in_the_type(dtype):
    rng = np.random.default_rng(7)
    values = (rng.standard_normal((2, 8)) * 50).astype(dtype)
    init = (rng.standard_normal(32) * 50).astype(dtype)
    _, y = _accumulate(values, dtype, init=init)
    want = init[:8]
    for v in values:  # core 0 first, then core 1: each add rounded to the type
        if np.dtype(dtype) in (np.dtype(np.float16), bfloat16):  # (bfloat16's numpy kind is "V")
            want = (want.astype(np.float64) + v.astype(np.float64)).astype(dtype)
        else:
            want = (want.astype(np.int64) + v.astype(np.int64)).astype(dtype)  # wraps, as the device
    np.testing.assert_array_equal(y.view(np.uint8), want.view(np.uint8))


def test_atomic_max_min_and_type():
    values = np.array([[1, -5, 3, 0, 7, -1, 2, 2], [4, -6, 3, -0.0, 1, np.nan, 5, -2]], np.float32)
    _, y = _accumulate(values, np.float32, mode=SetAtomicMax, init=np.full(16, -np.inf, np.float32))
    np.testing.assert_array_equal(y, [4, -5, 3, 0, 7, np.nan, 5, 2])
    _, y = _accumulate(values, np.float32, mode=SetAtomicMin, init=np.full(16, np.inf, np.float32))
    np.testing.assert_array_equal(y, [1, -6, 3, -0.0, 1, np.nan, 2, -2])
    assert np.signbit(y[3])

    def as_int(ctx, dtype):  # SetAtomicType keeps the operation and changes the type
        SetAtomicAdd(ctx, np.float32)
        SetAtomicType(ctx, np.int32)

    ints = np.array([[1] * 8, [2] * 8], np.int32)
    _, y = _accumulate(ints, np.int32, mode=as_int)
    np.testing.assert_array_equal(y, [3] * 8)


def test_atomic_types_the_device_lacks_are_refused_by_name():
    def kernel(ctx, tiling):
        SetAtomicAdd(ctx, np.uint32)

    with pytest.raises(EmulatorError, match=r"SetAtomicAdd<uint32> is not modelled"):
        launch(kernel, gm=GlobalMemory(), platform=PLATFORM, block_dim=1, args=[], tiling=b"")


def test_init_global_memory_then_atomic_add_across_a_barrier():
    """The usual pattern: each core zeroes its part of the output, SyncAll, every core adds into
    all of it. Clean: the zeroing and the adds are in different phases."""
    def kernel(ctx, y, tiling):
        i = ctx.GetBlockIdx()
        InitGlobalMemory(_tensor(y, np.float32, 8 * i), 8, 0.0)
        SyncAll(ctx)
        t = _ub(ctx, np.float32, 32)
        from opsnn.ascendc import Duplicate
        Duplicate(t, float(i + 1), 32)
        SetAtomicAdd(ctx, np.float32)
        DataCopy(_tensor(y, np.float32), t, 32)
        SetAtomicNone(ctx)

    gm = GlobalMemory()
    y = _gm(gm, "y", np.full(32, 99.0, np.float32))
    report = launch(kernel, gm=gm, platform=PLATFORM, block_dim=CORES, args=[y], tiling=b"", sanitize=True)
    assert report.findings == []
    np.testing.assert_array_equal(gm.bytes_view(y.addr, 128).view(np.float32), np.full(32, 10.0, np.float32))


@pytest.mark.parametrize("same_value", [True, False])
def test_cores_filling_the_same_bytes(same_value):
    """Every core zeroing the whole output (upstream's multi_scale_deformable_attn_function does,
    then SyncAll) writes the same bytes with the same value: no race. Fills of different values,
    or a fill meeting another core's plain write, are gm_write_overlap."""
    def kernel(ctx, y, tiling):
        i = ctx.GetBlockIdx()
        InitGlobalMemory(_tensor(y, np.float32), 32, 0.0 if same_value else float(i))
        if i == 1:
            t = _ub(ctx, np.float32, 8)
            from opsnn.ascendc import Duplicate
            Duplicate(t, 5.0, 8)
            SyncAll(ctx)  # the plain write below meets no fill: they are before the barrier
            DataCopy(_tensor(y, np.float32, 8), t, 8)
        else:
            SyncAll(ctx)

    gm = GlobalMemory()
    y = _gm(gm, "y", np.full(32, 99.0, np.float32))
    report = launch(kernel, gm=gm, platform=PLATFORM, block_dim=CORES, args=[y], tiling=b"", sanitize=True)
    kinds = {f.kind for f in report.findings}
    assert kinds == (set() if same_value else {"gm_write_overlap"})
    if not same_value:
        assert "as a fill of 0x" in report.findings[0].detail


def test_a_fill_meeting_a_plain_write_overlaps():
    def kernel(ctx, y, tiling):
        i = ctx.GetBlockIdx()
        if i == 0:
            InitGlobalMemory(_tensor(y, np.float32), 32, 0.0)
        else:
            t = _ub(ctx, np.float32, 8)
            from opsnn.ascendc import Duplicate
            Duplicate(t, 0.0, 8)
            DataCopy(_tensor(y, np.float32, 8), t, 8)

    gm = GlobalMemory()
    y = _gm(gm, "y", np.full(32, 99.0, np.float32))
    report = launch(kernel, gm=gm, platform=PLATFORM, block_dim=2, args=[y], tiling=b"", sanitize=True)
    assert [f.kind for f in report.findings] == ["gm_write_overlap"]
