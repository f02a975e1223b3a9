"""launch(): every core runs with its own UB; findings per core; cross-core write overlap; launches from threads."""
from __future__ import annotations

import struct
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from opsnn.ascendc import (
    DataCopy,
    EmulatorError,
    GlobalMemory,
    GlobalTensor,
    GMError,
    KernelArg,
    QuePosition,
    TPipe,
    TQue,
    launch,
)

from .helpers import PLATFORM


def copy_kernel(ctx, x, y, tiling):
    """A minimal elementwise kernel: core i copies `per` floats from start = i * stride."""
    per, stride = struct.unpack("<II", tiling)
    start = ctx.GetBlockIdx() * stride
    xg, yg = GlobalTensor(np.float32), GlobalTensor(np.float32)
    xg.SetGlobalBuffer(x.as_type(np.float32) + start, per)
    yg.SetGlobalBuffer(y.as_type(np.float32) + start, per)
    q = TQue(QuePosition.VECIN, 1, name="q")
    TPipe(ctx).InitBuffer(q, 1, per * 4)
    ctx.begin_tile(0)
    t = q.AllocTensor(np.float32)
    DataCopy(t, xg, per)
    q.EnQue(t)
    t = q.DeQue(np.float32)
    DataCopy(yg, t, per)
    q.FreeTensor(t)


def _setup(n=1024):
    gm = GlobalMemory()
    x, y = gm.malloc(n * 4), gm.malloc(n * 4)
    gm.bytes_view(x, n * 4)[:] = np.arange(n, dtype=np.float32).view(np.uint8)
    return gm, KernelArg("x", x, n * 4), KernelArg("y", y, n * 4)


def _launch(gm, xa, ya, block_dim, per, stride, **kw):
    return launch(copy_kernel, gm=gm, platform=PLATFORM, block_dim=block_dim, args=[xa, ya],
                  tiling=struct.pack("<II", per, stride), **kw)


def test_every_core_runs():
    gm, xa, ya = _setup()
    report = _launch(gm, xa, ya, 8, 128, 128, sanitize=True)
    assert report.findings == [] and report.ok and report.block_dim == 8
    assert report.ub_used == (512,) * 8
    np.testing.assert_array_equal(gm.bytes_view(ya.addr, 4096).view(np.float32), np.arange(1024))


def test_block_idx_and_num_reach_the_kernel():
    seen = []

    def kernel(ctx, tiling):
        seen.append((ctx.GetBlockIdx(), ctx.GetBlockNum()))

    launch(kernel, gm=GlobalMemory(), platform=PLATFORM, block_dim=5, args=[], tiling=b"")
    assert sorted(seen) == [(i, 5) for i in range(5)]


def test_two_cores_writing_the_same_bytes_is_a_write_overlap():
    gm, xa, ya = _setup()
    report = _launch(gm, xa, ya, 4, 128, 96, sanitize=True)  # each core's 128 overlap the next's by 32
    overlaps = [f for f in report.findings if f.kind == "gm_write_overlap"]
    # core c's write runs into core c + 1's: c is blamed, c + 1 is the other core
    assert [(f.core, f.other_core, f.offset, f.nbytes) for f in overlaps] == [
        (0, 1, 384, 128), (1, 2, 768, 128), (2, 3, 1152, 128)]
    assert all(f.is_error and f.tensor == "y" for f in overlaps)
    assert not report.ok


def test_overlap_found_when_the_furthest_range_is_the_same_core():
    from opsnn.ascendc.core import WriteRange
    from opsnn.ascendc.overlap import write_overlaps

    w = [WriteRange(0, 100, 0, 0, "y", 0), WriteRange(10, 20, 1, 0, "y", 0), WriteRange(15, 30, 0, 1, "y", 0)]
    found = write_overlaps(w)
    assert [(f.core, f.other_core, f.offset, f.nbytes) for f in found] == [(0, 1, 10, 10), (1, 0, 15, 5)]
    assert write_overlaps([WriteRange(0, 10, 0, 0, "y", 0), WriteRange(10, 20, 1, 0, "y", 0)]) == []


def test_queue_misuse_stops_that_core_only():
    def kernel(ctx, tiling):
        q = TQue(QuePosition.VECOUT, 2, name="out")
        TPipe(ctx).InitBuffer(q, 2, 64)
        if ctx.GetBlockIdx() == 1:
            q.DeQue(np.float32)

    report = launch(kernel, gm=GlobalMemory(), platform=PLATFORM, block_dim=3, args=[], tiling=b"", sanitize=True)
    assert report.aborted_cores == (1,)
    assert [(f.kind, f.core, f.instruction) for f in report.errors] == [("queue_misuse", 1, "DeQue")]
    with pytest.raises(EmulatorError, match="empty queue"):
        launch(kernel, gm=GlobalMemory(), platform=PLATFORM, block_dim=3, args=[], tiling=b"")


def test_each_core_has_its_own_ub():
    firsts = {}

    def kernel(ctx, tiling):
        from opsnn.ascendc import TBuf

        b = TBuf(name="b")
        TPipe(ctx).InitBuffer(b, 32)
        t = b.Get(np.int32)
        firsts[ctx.GetBlockIdx()] = int(t.numpy(1)[0])
        t.buffer.storage[t.buffer.base:t.buffer.base + 4] = np.array([ctx.GetBlockIdx() + 1], np.int32).view(np.uint8)

    launch(kernel, gm=GlobalMemory(), platform=PLATFORM, block_dim=4, args=[], tiling=b"")
    assert firsts == {0: 0, 1: 0, 2: 0, 3: 0}


def test_bad_arguments():
    gm, xa, ya = _setup()
    with pytest.raises(EmulatorError):
        _launch(gm, xa, ya, 0, 128, 128)
    with pytest.raises(GMError):
        _launch(gm, KernelArg("x", 12345, 16), ya, 1, 4, 0)
    with pytest.raises(GMError):
        _launch(gm, KernelArg("x", xa.addr, 8192), ya, 1, 4, 0)


def test_concurrent_launches_from_threads_do_not_interfere():
    def one(i):
        gm, xa, ya = _setup(1024)
        gm.bytes_view(xa.addr, 4096)[:] = (np.arange(1024, dtype=np.float32) * i).view(np.uint8)
        report = _launch(gm, xa, ya, 8, 128, 128, sanitize=bool(i % 2))
        return report.findings, gm.bytes_view(ya.addr, 4096).view(np.float32).copy()

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(one, range(16)))
    for i, (findings, out) in enumerate(results):
        assert findings == []
        np.testing.assert_array_equal(out, np.arange(1024, dtype=np.float32) * i)


def test_a_defect_met_on_every_tile_is_listed_once_with_a_count():
    def kernel(ctx, tiling):
        from opsnn.ascendc import CMPMODE, Compares, TBuf
        from opsnn.ascendc.arith import Duplicate

        src, mask = TBuf(name="src"), TBuf(name="mask")
        pipe = TPipe(ctx)
        pipe.InitBuffer(src, 1024)
        pipe.InitBuffer(mask, 32)
        Duplicate(src.Get(np.float32), 1.0, 256)
        for tile in range(3):
            ctx.begin_tile(tile)
            Compares(mask.Get(np.uint8), src.Get(np.float32), 0.0, CMPMODE.GT, 100)

    report = launch(kernel, gm=GlobalMemory(), platform=PLATFORM, block_dim=1, args=[], tiling=b"", sanitize=True)
    assert [(f.kind, f.tile) for f in report.findings] == [("compare_count_unaligned", 0)]
    assert "seen 2 more time(s)" in report.findings[0].detail
