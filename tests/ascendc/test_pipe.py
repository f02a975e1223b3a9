"""TPipe / TQue / TBuf: UB accounting and the queue life cycle, misuse detected."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import CoreAborted, EmulatorError, QuePosition, TBuf, TPipe, TQue
from opsnn.platform import Platform

from .helpers import kinds, make_core


def _queue(core, depth=2, num=2, length=100):
    q = TQue(QuePosition.VECIN, depth, name="q")
    TPipe(core).InitBuffer(q, num, length)
    return q


def test_buffers_are_32_byte_aligned_and_sequential():
    core = make_core()
    pipe = TPipe(core)
    q = TQue(QuePosition.VECIN, 2)
    b = TBuf()
    pipe.InitBuffer(q, 2, 100)  # 100 -> 128 each
    pipe.InitBuffer(b, 33)  # -> 64
    assert [x.ub_addr for x in q.buffers] == [0, 128]
    assert b.buffers[0].ub_addr == 256 and b.buffers[0].nbytes == 64
    assert core.ub_used == 320


def test_ub_exhausted_is_reported_and_raises_without_sanitizer():
    platform = Platform.custom(ub_size=1024, aiv_cores=1)
    core = make_core(platform=platform)
    pipe = TPipe(core)
    pipe.InitBuffer(TBuf(name="a"), 1000)
    pipe.InitBuffer(TBuf(name="b"), 64)
    assert kinds(core) == ["ub_exhausted"]
    f = core.log.items[0]
    assert (f.instruction, f.tensor, f.offset, f.nbytes) == ("InitBuffer", "b", 0, 64)
    strict = make_core(sanitize=False, platform=platform)
    with pytest.raises(EmulatorError, match="UB exhausted"):
        TPipe(strict).InitBuffer(TBuf(), 2048)


def test_reset_places_the_next_buffers_from_ub_0_again():
    """TPipe::Reset (AscendC's ResetPool): a kernel that gives up its buffers may lay UB out anew,
    up to the whole UB again, without ub_exhausted."""
    platform = Platform.custom(ub_size=1024, aiv_cores=1)
    core = make_core(platform=platform)
    pipe = TPipe(core)
    pipe.InitBuffer(TBuf(name="a"), 800)
    pipe.Reset()
    big = TBuf(name="b")
    pipe.InitBuffer(big, 1024)
    assert big.buffers[0].ub_addr == 0 and core.log.items == []
    pipe.InitBuffer(TBuf(name="c"), 32)  # past the UB again: exhausted
    assert kinds(core) == ["ub_exhausted"]


def test_queue_round_trip():
    core = make_core()
    q = _queue(core)
    a = q.AllocTensor(np.float32)
    b = q.AllocTensor(np.float32)
    assert a.buffer is not b.buffer
    q.EnQue(a)
    q.EnQue(b)
    assert q.DeQue(np.float32).buffer is a.buffer  # FIFO
    got_b = q.DeQue(np.float32)
    q.FreeTensor(a)
    q.FreeTensor(got_b)
    assert q.AllocTensor(np.float32).buffer.state == "allocated"
    assert kinds(core) == []


def test_a_dequeued_tensor_may_be_enqueued_again_clean():
    # legal in CANN (TQueBind::EnQue accepts OCCUPIED or DEQUE): dequeue, compute in place, hand on
    core = make_core()
    q = _queue(core, depth=1, num=1)
    q.EnQue(q.AllocTensor(np.float32))
    t = q.DeQue(np.float32)
    q.EnQue(t)
    q.FreeTensor(q.DeQue(np.float32))
    assert kinds(core) == []


@pytest.mark.parametrize("misuse", ["dequeue_empty", "alloc_over_depth", "free_foreign", "double_free",
                                    "enqueue_full", "enqueue_twice"])
@pytest.mark.parametrize("sanitize", [True, False])
def test_queue_misuse(misuse, sanitize):
    core = make_core(sanitize=sanitize)
    q = _queue(core, depth=1, num=2)
    other = _queue(core)

    def go():
        if misuse == "dequeue_empty":
            q.DeQue(np.float32)
        elif misuse == "alloc_over_depth":
            for _ in range(3):
                q.AllocTensor(np.float32)
        elif misuse == "free_foreign":
            q.FreeTensor(other.AllocTensor(np.float32))
        elif misuse == "double_free":
            t = q.AllocTensor(np.float32)
            q.FreeTensor(t)
            q.FreeTensor(t)
        elif misuse == "enqueue_full":
            q.EnQue(q.AllocTensor(np.float32))
            q.EnQue(q.AllocTensor(np.float32))
        else:
            t = q.AllocTensor(np.float32)
            q.EnQue(t)
            q.EnQue(t)

    if sanitize:
        with pytest.raises(CoreAborted):
            go()
        assert kinds(core) == ["queue_misuse"]
        assert core.log.items[0].tensor == "q" or misuse == "free_foreign"
    else:
        with pytest.raises(EmulatorError):
            go()


def test_alloc_before_init_and_double_init():
    with pytest.raises(EmulatorError):
        TQue(QuePosition.VECOUT, 2).AllocTensor(np.float32)
    core = make_core()
    q = _queue(core)
    with pytest.raises(EmulatorError):
        TPipe(core).InitBuffer(q, 2, 64)
    with pytest.raises(EmulatorError):
        TQue(QuePosition.VECCALC, 2)


def test_tbuf_get_typed_views_share_bytes():
    core = make_core()
    b = TBuf()
    TPipe(core).InitBuffer(b, 64)
    f = b.Get(np.float32)
    assert f.GetSize() == 16 and b.Get(np.uint8).GetSize() == 64
    assert f.ReinterpretCast(np.float16).GetSize() == 32
    assert f[4].GetSize() == 12


def test_tbufpool_places_inside_its_span_and_reset_reuses_it():
    """TPipe.InitBufPool reserves UB; the pool's InitBuffer places buffers inside it one after
    another; Reset places the next ones from its start again (their bytes are the new buffers');
    a buffer past the pool's end is ub_exhausted, naming the pool."""
    from opsnn.ascendc import TBufPool
    core = make_core()
    pipe = TPipe(core)
    first = TBuf(name="first")
    pipe.InitBuffer(first, 64)
    pool = TBufPool(name="pool")
    pipe.InitBufPool(pool, 1000)  # 1024 bytes from UB 64
    after = TBuf(name="after")
    pipe.InitBuffer(after, 32)
    assert after.buffers[0].ub_addr == 64 + 1024
    q, b = TQue(QuePosition.VECIN, 2, name="q"), TBuf(name="b")
    pool.InitBuffer(q, 2, 100)
    pool.InitBuffer(b, 200)
    assert [x.ub_addr for x in (*q.buffers, *b.buffers)] == [64, 192, 320]
    pool.Reset()
    again = TBuf(name="again")
    pool.InitBuffer(again, 64)
    assert again.buffers[0].ub_addr == 64
    assert [x.ub_addr for x in core.buffers] == sorted(x.ub_addr for x in core.buffers)  # UB order kept
    t = again.Get(np.float32)
    assert t.ub_addr == 64
    too_big = TBuf(name="too_big")
    pool.InitBuffer(too_big, 1000)  # 64 + 1024 > the pool's 1024 bytes
    assert kinds(core) == ["ub_exhausted"] and "pool" in core.log.items[0].detail
    with pytest.raises(EmulatorError, match="before TPipe.InitBufPool"):
        TBufPool().InitBuffer(TBuf(), 32)
    with pytest.raises(EmulatorError, match="InitBufPool called twice"):
        pipe.InitBufPool(pool, 64)
