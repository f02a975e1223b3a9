"""The sanitizer on small, deliberately broken kernels: one per finding kind (every kind in KINDS),
each asserting what, who, where, and beside each its legal twin -- the nearest correct kernel --
which must stay clean; and the padding rule: past-the-tensor bytes are `expected` only inside the
range the launch declares for the core touching them."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import (
    CMPMODE,
    ERROR,
    EXPECTED,
    KINDS,
    SELMODE,
    Cast,
    Compares,
    CoreFailed,
    CrossCoreSetFlag,
    CrossCoreWaitFlag,
    DataCopy,
    EmulatorError,
    GlobalMemory,
    GlobalTensor,
    GMError,
    KernelArg,
    Padding,
    QuePosition,
    RoundMode,
    Select,
    SetAtomicAdd,
    SetAtomicNone,
    SyncAll,
    TBuf,
    TPipe,
    TQue,
    UnaryRepeatParams,
    launch,
)
from opsnn.ascendc.arith import Duplicate, Mul
from opsnn.ascendc.scalar_ops import Adds
from opsnn.platform import Platform

from .helpers import PLATFORM

F32 = np.float32


def _gm(gm: GlobalMemory, name: str, nbytes: int, alloc: int | None = None, padding=()) -> KernelArg:
    addr = gm.malloc(alloc or nbytes)
    gm.bytes_view(addr, nbytes)[:] = (np.arange(nbytes) % 251).astype(np.uint8)
    return KernelArg(name, addr, nbytes, tuple(padding))


def _run(kernel, *, x=1024, y=1024, block_dim=1, x_pad=(), y_pad=(), platform=PLATFORM, on_core_error="raise"):
    """kernel(ctx, xg, yg, pipe) on `block_dim` cores over float32 tensors x (in) and y (out) of
    the given byte sizes (allocations: the GM's 512-byte rounding)."""
    gm = GlobalMemory()
    args = [_gm(gm, "x", x, padding=x_pad), _gm(gm, "y", y, padding=y_pad)]

    def entry(ctx, xp, yp, tiling):
        xg, yg = GlobalTensor(F32), GlobalTensor(F32)
        xg.SetGlobalBuffer(xp.as_type(F32))
        yg.SetGlobalBuffer(yp.as_type(F32))
        kernel(ctx, xg, yg, TPipe(ctx))

    return launch(entry, gm=gm, platform=platform, block_dim=block_dim, args=args, tiling=b"", sanitize=True,
                  on_core_error=on_core_error)


class _Kept:
    """A sanitized launch's report with its x and y (as float32) read back after it."""

    def __init__(self, report, gm, args):
        self.report, self._gm, self._args = report, gm, args

    def x(self):
        return np.array(self._gm.bytes_view(self._args[0].addr, self._args[0].nbytes)).view(F32)

    def y(self):
        return np.array(self._gm.bytes_view(self._args[1].addr, self._args[1].nbytes)).view(F32)


def _run_keep(kernel, *, x=1024, y=1024):
    """_run on one core, keeping GM to read x and y back."""
    gm = GlobalMemory()
    args = [_gm(gm, "x", x), _gm(gm, "y", y)]

    def entry(ctx, xp, yp, tiling):
        xg, yg = GlobalTensor(F32), GlobalTensor(F32)
        xg.SetGlobalBuffer(xp.as_type(F32))
        yg.SetGlobalBuffer(yp.as_type(F32))
        kernel(ctx, xg, yg, TPipe(ctx))

    return _Kept(launch(entry, gm=gm, platform=PLATFORM, block_dim=1, args=args, tiling=b"", sanitize=True), gm, args)


def _buf(pipe: TPipe, name: str, nbytes: int, dtype=F32):
    b = TBuf(name=name)
    pipe.InitBuffer(b, nbytes)
    return b.Get(dtype)


def _copy(src_elem: int, dst_elem: int, count: int, buf_bytes: int = 1024, cores=None):
    """A kernel: copy `count` floats from x[src_elem] through UB to y[dst_elem] (on `cores`)."""
    def kernel(ctx, xg, yg, pipe):
        if cores is not None and ctx.GetBlockIdx() not in cores:
            return
        t = _buf(pipe, "ub", buf_bytes)
        DataCopy(t, xg[src_elem], count)
        DataCopy(yg[dst_elem], t, count)
    return kernel


def _only(report, kind):
    got = [f for f in report.findings if f.kind == kind]
    assert len(got) == 1, report.findings
    return got[0]


def _where(f):
    return f.kind, f.level, f.core, f.instruction, f.tensor, f.offset, f.nbytes


# --- one broken kernel per kind ------------------------------------------------------------------

def case_gm_read_past_tensor():
    # x is 400 bytes (100 floats); core 1 reads floats 64..127: bytes [400, 512) lie past it.
    def kernel(ctx, xg, yg, pipe):
        if ctx.GetBlockIdx() == 1:
            DataCopy(_buf(pipe, "ub", 256), xg[64], 64)
    report = _run(kernel, x=400, block_dim=2)
    assert len(report.findings) == 1
    return report.findings[0], ("gm_read_past_tensor", ERROR, 1, "DataCopy", "x", 400, 112)


def case_gm_write_past_tensor():
    def kernel(ctx, xg, yg, pipe):
        if ctx.GetBlockIdx() == 1:
            t = _buf(pipe, "ub", 256)
            Duplicate(t, 1.0, 64)
            DataCopy(yg[64], t, 64)
    report = _run(kernel, y=400, block_dim=2)
    assert len(report.findings) == 1
    return report.findings[0], ("gm_write_past_tensor", ERROR, 1, "DataCopy", "y", 400, 112)


def case_gm_read_past_allocation():
    # x is exactly one 512-byte allocation; 1024 bytes read: the second half is outside it.
    report = _run(_copy(0, 0, 256), x=512, y=1024)
    assert [f.kind for f in report.findings] == ["gm_read_past_tensor", "gm_read_past_allocation"]
    return report.findings[1], ("gm_read_past_allocation", ERROR, 0, "DataCopy", "x", 512, 512)


def case_gm_write_past_allocation():
    report = _run(_copy(0, 0, 256), x=1024, y=512)
    assert [f.kind for f in report.findings] == ["gm_write_past_tensor", "gm_write_past_allocation"]
    return report.findings[1], ("gm_write_past_allocation", ERROR, 0, "DataCopy", "y", 512, 512)


def case_local_tensor_overflow():
    report = _run(_copy(0, 0, 128, buf_bytes=256))  # 512 bytes through a 256-byte buffer
    return _only(report, "local_tensor_overflow"), (
        "local_tensor_overflow", ERROR, 0, "DataCopy", "ub", 256, 256)


def case_local_tensor_underflow():
    # b[-16] is 64 bytes before b (on a's tail): AscendC's offset is unsigned, so it is no neighbour's.
    def kernel(ctx, xg, yg, pipe):
        _buf(pipe, "a", 256)
        Duplicate(_buf(pipe, "b", 256)[-16], 1.0, 64)
    report = _run(kernel)
    return _only(report, "local_tensor_underflow"), ("local_tensor_underflow", ERROR, 0, "Duplicate", "b", -64, 64)


def case_ub_exhausted():
    def kernel(ctx, xg, yg, pipe):
        pipe.InitBuffer(TBuf(name="a"), 1000)
        pipe.InitBuffer(TBuf(name="big"), 64)  # UB is 1024 bytes: [1024, 1088) is not there
    report = _run(kernel, platform=Platform.custom(ub_size=1024, aiv_cores=1))
    assert len(report.findings) == 1
    return report.findings[0], ("ub_exhausted", ERROR, 0, "InitBuffer", "big", 0, 64)


def case_datacopy_unaligned():
    def kernel(ctx, xg, yg, pipe):
        DataCopy(_buf(pipe, "ub", 64), xg, 13)  # 52 bytes: 32 move, 20 are silently dropped
    report = _run(kernel)
    assert len(report.findings) == 1
    return report.findings[0], ("datacopy_unaligned", ERROR, 0, "DataCopy", "ub", 32, 20)


def case_compare_count_unaligned():
    def kernel(ctx, xg, yg, pipe):
        src = _buf(pipe, "src", 512)
        DataCopy(src, xg, 128)
        Compares(_buf(pipe, "mask", 32, np.uint8), src, 0.0, CMPMODE.GT, 100)  # 400 B: one 256 B repeat
    report = _run(kernel)
    assert len(report.findings) == 1
    return report.findings[0], ("compare_count_unaligned", ERROR, 0, "Compares", "src", 256, 144)


def case_gm_write_overlap():
    # Core c copies 64 floats to y[48c]: each core's last 64 bytes are the next core's first.
    def kernel(ctx, xg, yg, pipe):
        c = ctx.GetBlockIdx()
        t = _buf(pipe, "ub", 256)
        DataCopy(t, xg[64 * c], 64)
        DataCopy(yg[48 * c], t, 64)
    report = _run(kernel, x=512, y=1024, block_dim=2)
    f = _only(report, "gm_write_overlap")
    assert f.other_core == 1 and "running into the range core 1" in f.detail
    return f, ("gm_write_overlap", ERROR, 0, "DataCopy", "y", 192, 64)


def case_gm_read_write_race():
    # Core 0 writes y[0:64); core 1 reads y[32:96) back: old or new bytes, depending on timing.
    def kernel(ctx, xg, yg, pipe):
        t = _buf(pipe, "ub", 256)
        if ctx.GetBlockIdx() == 0:
            DataCopy(t, xg, 64)
            DataCopy(yg, t, 64)
        else:
            DataCopy(t, yg[32], 64)
    report = _run(kernel, block_dim=2)
    f = _only(report, "gm_read_write_race")
    assert f.other_core == 0
    return f, ("gm_read_write_race", ERROR, 1, "DataCopy", "y", 128, 128)


def case_queue_misuse():
    def kernel(ctx, xg, yg, pipe):
        q = TQue(QuePosition.VECIN, 1, name="q")
        pipe.InitBuffer(q, 1, 256)
        if ctx.GetBlockIdx() == 2:
            q.DeQue(F32)  # nothing was enqueued
    report = _run(kernel, block_dim=3)
    assert report.aborted_cores == (2,) and len(report.findings) == 1
    return report.findings[0], ("queue_misuse", ERROR, 2, "DeQue", "q", 0, 0)


def case_ub_read_before_write():
    # 32 floats copied in, 64 copied out: bytes [128, 256) of the buffer were never written.
    def kernel(ctx, xg, yg, pipe):
        q = TQue(QuePosition.VECOUT, 1, name="q")
        pipe.InitBuffer(q, 1, 256)
        t = q.AllocTensor(F32)
        DataCopy(t, xg, 32)
        DataCopy(yg, t, 64)
        q.FreeTensor(t)
    report = _run(kernel)
    assert len(report.findings) == 1
    return report.findings[0], ("ub_read_before_write", ERROR, 0, "DataCopy", "q", 128, 128)


def case_core_failed():
    # Core 1 asks for a Cast the emulator refuses: that core stops there, named, and cores 0 and 2 run.
    def kernel(ctx, xg, yg, pipe):
        c = ctx.GetBlockIdx()
        t = _buf(pipe, "ub", 256)
        Duplicate(t, float(c), 64)
        if c == 1:
            Cast(_buf(pipe, "out", 64, np.int8), t, RoundMode.CAST_ODD, 64)
        DataCopy(yg[64 * c], t, 64)
    report = _run(kernel, block_dim=3, on_core_error="report")
    assert report.aborted_cores == (1,) and len(report.findings) == 1
    return report.findings[0], ("core_failed", ERROR, 1, "Cast", "-", 0, 0)


def case_assert_failed():
    # what the C++ runtime raises for a failed ASSERT (or Trap) in the kernel's code
    def kernel(ctx, xg, yg, pipe):
        if ctx.GetBlockIdx() == 0:
            raise CoreFailed(0, "ASSERT", "k.cpp:7", "ASSERT(tileNum > 0) failed", "assert_failed")
    report = _run(kernel, block_dim=2, on_core_error="report")
    assert report.aborted_cores == (0,) and len(report.findings) == 1
    return report.findings[0], ("assert_failed", ERROR, 0, "ASSERT", "-", 0, 0)


def case_sync_all_missing_core():
    # core 1 returns early; core 0 waits for it at SyncAll: a hang on the device
    def kernel(ctx, xg, yg, pipe):
        if ctx.GetBlockIdx() == 0:
            SyncAll(ctx)
    report = _run(kernel, block_dim=2, on_core_error="report")
    assert report.aborted_cores == (0,) and len(report.findings) == 1
    return report.findings[0], ("sync_all_missing_core", ERROR, 1, "SyncAll", "-", 0, 0)


def case_cross_core_flag_never_set():
    # core 1 returns before setting flag 4; core 0 waits for its set: a hang on the device
    def kernel(ctx, xg, yg, pipe):
        if ctx.GetBlockIdx() == 0:
            CrossCoreSetFlag(ctx, 4)
            CrossCoreWaitFlag(ctx, 4)
    report = _run(kernel, block_dim=2, on_core_error="report")
    assert report.aborted_cores == (0,) and len(report.findings) == 1
    return report.findings[0], ("cross_core_flag_never_set", ERROR, 1, "CrossCoreWaitFlag", "-", 0, 0)


def case_api_contract_violation():
    # Core 1 gives a float Adds a continuous mask of 128 -- half's count: a float repeat has 64
    # elements (AscendC: 0..64); CANN's CPU debug asserts. That core stops, the others run.
    def kernel(ctx, xg, yg, pipe):
        c = ctx.GetBlockIdx()
        t = _buf(pipe, "ub", 256)
        Duplicate(t, float(c), 64)
        Adds(t, t, 1.0, 128 if c == 1 else 64, 1, UnaryRepeatParams())
        DataCopy(yg[64 * c], t, 64)
    report = _run(kernel, block_dim=3, on_core_error="report")
    assert report.aborted_cores == (1,) and len(report.findings) == 1
    assert "continuous mask 128 for float32" in report.findings[0].detail
    return report.findings[0], ("api_contract_violation", ERROR, 1, "Adds", "-", 0, 0)


def _twin_api_contract(ctx, xg, yg, pipe):
    c = ctx.GetBlockIdx()
    t = _buf(pipe, "ub", 256)
    Duplicate(t, float(c), 64)
    Adds(t, t, 1.0, 64, 1, UnaryRepeatParams())  # a whole float repeat
    Adds(t, t, 1.0, 0, 1, UnaryRepeatParams())  # mask 0: a NOP (AscendC's range starts at 0)
    DataCopy(yg[64 * c], t, 64)


CASES = {name[len("case_"):]: fn for name, fn in dict(globals()).items() if name.startswith("case_")}


def test_every_finding_kind_has_a_negative_test():
    assert sorted(CASES) == sorted(KINDS) == sorted(LEGAL)
    assert len(set(KINDS)) == len(KINDS) == 18


@pytest.mark.parametrize("kind", sorted(CASES))
def test_broken_kernel_is_reported(kind):
    finding, want = CASES[kind]()
    assert _where(finding) == want
    assert finding.is_error


# --- each broken kernel's legal twin, which must stay clean -----------------------------------------

def _twin_read_tail(ctx, xg, yg, pipe):
    if ctx.GetBlockIdx() == 1:
        DataCopy(_buf(pipe, "ub", 256), xg[64], 64)  # floats 64..127 of a 512-byte x


def _twin_write_tail(ctx, xg, yg, pipe):
    if ctx.GetBlockIdx() == 1:
        t = _buf(pipe, "ub", 256)
        Duplicate(t, 1.0, 64)
        DataCopy(yg[64], t, 64)


def _twin_underflow(ctx, xg, yg, pipe):
    _buf(pipe, "a", 256)
    Duplicate(_buf(pipe, "b", 256)[16], 1.0, 48)


def _twin_ub(ctx, xg, yg, pipe):
    pipe.InitBuffer(TBuf(name="a"), 960)
    pipe.InitBuffer(TBuf(name="big"), 64)  # ends at byte 1024: fits


def _twin_unaligned(ctx, xg, yg, pipe):
    t = _buf(pipe, "ub", 256)
    DataCopy(t, xg[1], 16)  # 64 bytes, from a GM address 4 bytes off 32-byte alignment: GM has no rule
    DataCopy(yg[3], t, 16)


def _twin_compare(ctx, xg, yg, pipe):
    src = _buf(pipe, "src", 512)
    DataCopy(src, xg, 128)
    Compares(_buf(pipe, "mask", 32, np.uint8), src, 0.0, CMPMODE.GT, 128)  # two whole repeats


def _twin_disjoint_writes(ctx, xg, yg, pipe):
    c = ctx.GetBlockIdx()
    t = _buf(pipe, "ub", 256)
    DataCopy(t, xg[64 * c], 64)
    DataCopy(yg[64 * c], t, 64)


def _twin_atomic_writes(ctx, xg, yg, pipe):
    # every core adds its 64 floats into the same 64 of y: atomic writes of one kind commute
    t = _buf(pipe, "ub", 256)
    DataCopy(t, xg[64 * ctx.GetBlockIdx()], 64)
    SetAtomicAdd(ctx, F32)
    DataCopy(yg, t, 64)
    SetAtomicNone(ctx)


def _twin_race(ctx, xg, yg, pipe):
    t = _buf(pipe, "ub", 256)
    if ctx.GetBlockIdx() == 0:
        DataCopy(t, xg, 64)
        DataCopy(yg, t, 64)
    SyncAll(ctx)  # core 1 reads after core 0 wrote: another phase
    if ctx.GetBlockIdx() == 1:
        DataCopy(t, yg[32], 64)


def _twin_queue(ctx, xg, yg, pipe):
    q = TQue(QuePosition.VECIN, 1, name="q")
    pipe.InitBuffer(q, 1, 256)
    t = q.AllocTensor(F32)
    DataCopy(t, xg, 64)
    q.EnQue(t)
    t = q.DeQue(F32)
    q.EnQue(t)  # a dequeued tensor handed on again: legal (CANN's TQueBind::EnQue)
    t = q.DeQue(F32)
    DataCopy(yg[64 * ctx.GetBlockIdx()], t, 64)
    q.FreeTensor(t)


def _twin_read_before_write(ctx, xg, yg, pipe):
    q = TQue(QuePosition.VECOUT, 1, name="q")
    pipe.InitBuffer(q, 1, 256)
    t = q.AllocTensor(F32)
    DataCopy(t, xg, 64)
    DataCopy(yg, t, 64)
    q.FreeTensor(t)


def _twin_cast(ctx, xg, yg, pipe):
    c = ctx.GetBlockIdx()
    t = _buf(pipe, "ub", 256)
    Duplicate(t, float(c), 64)
    h = _buf(pipe, "out", 128, np.float16)
    Cast(h, t, RoundMode.CAST_RINT, 64)  # a pair Atlas A2 has
    Cast(t, h, RoundMode.CAST_NONE, 64)
    DataCopy(yg[64 * c], t, 64)


def _twin_cross_core_flags(ctx, xg, yg, pipe):
    # every core sets the flag twice, early, and waits twice later (k-th wait: k sets of each core)
    CrossCoreSetFlag(ctx, 4)
    CrossCoreSetFlag(ctx, 4)
    CrossCoreWaitFlag(ctx, 4)
    CrossCoreWaitFlag(ctx, 4)
    assert ctx.phase == 2


def _twin_sync_all(ctx, xg, yg, pipe):
    SyncAll(ctx)  # every core arrives


LEGAL = {
    "gm_read_past_tensor": dict(kernel=_twin_read_tail, x=512, block_dim=2),
    "gm_write_past_tensor": dict(kernel=_twin_write_tail, y=512, block_dim=2),
    "gm_read_past_allocation": dict(kernel=_copy(0, 0, 128), x=512, y=1024),
    "gm_write_past_allocation": dict(kernel=_copy(0, 0, 128), x=1024, y=512),
    "local_tensor_overflow": dict(kernel=_copy(0, 0, 64, buf_bytes=256)),
    "local_tensor_underflow": dict(kernel=_twin_underflow),
    "ub_exhausted": dict(kernel=_twin_ub, platform=Platform.custom(ub_size=1024, aiv_cores=1)),
    "datacopy_unaligned": dict(kernel=_twin_unaligned),
    "compare_count_unaligned": dict(kernel=_twin_compare),
    "gm_write_overlap": dict(kernel=_twin_disjoint_writes, x=512, y=1024, block_dim=2),
    "gm_read_write_race": dict(kernel=_twin_race, block_dim=2),
    "queue_misuse": dict(kernel=_twin_queue, block_dim=3),
    "ub_read_before_write": dict(kernel=_twin_read_before_write),
    "core_failed": dict(kernel=_twin_cast, block_dim=3),
    "assert_failed": dict(kernel=lambda ctx, xg, yg, pipe: None, block_dim=2),
    "api_contract_violation": dict(kernel=_twin_api_contract, block_dim=3),
    "sync_all_missing_core": dict(kernel=_twin_sync_all, block_dim=2),
    "cross_core_flag_never_set": dict(kernel=_twin_cross_core_flags, block_dim=3),
}


@pytest.mark.parametrize("kind", sorted(LEGAL))
def test_legal_twin_is_clean(kind):
    spec = dict(LEGAL[kind])
    report = _run(spec.pop("kernel"), on_core_error="report", **spec)
    assert report.findings == [] and report.aborted_cores == ()


def test_atomic_writes_of_one_kind_are_the_overlaps_legal_twin_too():
    report = _run(_twin_atomic_writes, x=512, y=1024, block_dim=2, on_core_error="report")
    assert report.findings == []


# --- the padding rule ------------------------------------------------------------------------------

def _tail_write(core: int, block_dim: int = 2, y_pad=()):
    """Core `core` writes floats 64..127 of a 400-byte y: bytes [400, 512) past it, inside its allocation."""
    def kernel(ctx, xg, yg, pipe):
        if ctx.GetBlockIdx() == core:
            t = _buf(pipe, "ub", 256)
            Duplicate(t, 2.0, 64)
            DataCopy(yg[64], t, 64)
    return _run(kernel, y=400, block_dim=block_dim, y_pad=y_pad)


def test_declared_padding_is_expected():
    report = _tail_write(1, y_pad=[Padding(1, 400, 112)])
    assert [_where(f) for f in report.findings] == [
        ("gm_write_past_tensor", EXPECTED, 1, "DataCopy", "y", 400, 112)]
    assert report.ok and "declared for core 1" in report.findings[0].detail


def test_the_same_bytes_undeclared_are_an_error():
    report = _tail_write(1)
    assert [_where(f) for f in report.findings] == [("gm_write_past_tensor", ERROR, 1, "DataCopy", "y", 400, 112)]
    assert not report.ok and "(none)" in report.findings[0].detail


def test_padding_declared_for_another_core_is_an_error():
    report = _tail_write(0, y_pad=[Padding(1, 400, 112)])
    assert [_where(f) for f in report.findings] == [("gm_write_past_tensor", ERROR, 0, "DataCopy", "y", 400, 112)]


def test_one_byte_beyond_the_declaration_is_an_error():
    report = _tail_write(1, y_pad=[Padding(1, 400, 111)])
    assert [_where(f) for f in report.findings] == [
        ("gm_write_past_tensor", EXPECTED, 1, "DataCopy", "y", 400, 111),
        ("gm_write_past_tensor", ERROR, 1, "DataCopy", "y", 511, 1)]
    assert not report.ok


def test_a_gap_between_two_declarations_is_an_error():
    report = _tail_write(1, y_pad=[Padding(1, 480, 32), Padding(1, 400, 64)])  # [400,464) and [480,512)
    assert [(f.level, f.offset, f.nbytes) for f in report.findings] == [
        (EXPECTED, 400, 64), (ERROR, 464, 16), (EXPECTED, 480, 32)]


def test_a_read_is_judged_like_a_write():
    def kernel(ctx, xg, yg, pipe):
        DataCopy(_buf(pipe, "ub", 256), xg[64], 64)
    ok = _run(kernel, x=400, x_pad=[Padding(0, 400, 112)])
    assert [_where(f) for f in ok.findings] == [("gm_read_past_tensor", EXPECTED, 0, "DataCopy", "x", 400, 112)]
    bad = _run(kernel, x=400, x_pad=[Padding(0, 400, 100)])
    assert [(f.level, f.offset, f.nbytes) for f in bad.findings] == [(EXPECTED, 400, 100), (ERROR, 500, 12)]


def test_a_long_overrun_of_a_tiny_tensor_is_an_error():
    # The case: 476 bytes written past a 4-byte tensor, inside its 512-byte allocation.
    def kernel(ctx, xg, yg, pipe):
        t = _buf(pipe, "ub", 480)
        Duplicate(t, 3.0, 120)
        DataCopy(yg, t, 120)
    report = _run(kernel, y=4)
    assert [_where(f) for f in report.findings] == [("gm_write_past_tensor", ERROR, 0, "DataCopy", "y", 4, 476)]
    assert not report.ok


def test_the_declared_padding_is_written():
    report = _tail_write(1, y_pad=[Padding(1, 400, 112)])
    assert report.ok


@pytest.mark.parametrize("padding, error", [
    (Padding(2, 400, 16), EmulatorError),  # no core 2 in a 2-core launch
    (Padding(-1, 400, 16), EmulatorError),
    (Padding(1, 396, 16), GMError),  # overlaps the tensor's own bytes
    (Padding(1, 400, 113), GMError),  # runs past the allocation
    (Padding(1, 400, -1), GMError),
])
def test_a_declaration_the_launch_cannot_honour_is_refused(padding, error):
    with pytest.raises(error, match="padding"):
        _tail_write(1, y_pad=[padding])


# --- the cross-core checks in more detail ---------------------------------------------------------

def test_a_write_that_starts_inside_another_cores_read_is_a_race():
    # Core 0 reads y[0:64); core 1 writes y[32:96): the write begins after the read does.
    def kernel(ctx, xg, yg, pipe):
        t = _buf(pipe, "ub", 256)
        if ctx.GetBlockIdx() == 0:
            DataCopy(t, yg, 64)
        else:
            DataCopy(t, xg, 64)
            DataCopy(yg[32], t, 64)
    f = _only(_run(kernel, block_dim=2), "gm_read_write_race")
    assert (_where(f), f.other_core) == (("gm_read_write_race", ERROR, 0, "DataCopy", "y", 128, 128), 1)


def test_a_core_reading_what_it_wrote_itself_is_no_race():
    def kernel(ctx, xg, yg, pipe):
        c = ctx.GetBlockIdx()
        t = _buf(pipe, "ub", 256)
        DataCopy(t, xg[64 * c], 64)
        DataCopy(yg[64 * c], t, 64)
        DataCopy(t, yg[64 * c], 64)
    assert _run(kernel, x=512, y=512, block_dim=2).findings == []


def test_in_place_by_core_is_no_race_but_reading_a_neighbours_slice_is():
    def kernel(ctx, xg, yg, pipe, shift=0):
        c = ctx.GetBlockIdx()
        t = _buf(pipe, "ub", 256)
        DataCopy(t, yg[64 * c + (shift if c < 3 else 0)], 64)  # the last core stays inside y
        DataCopy(yg[64 * c], t, 64)
    assert _run(kernel, y=1024, block_dim=4).findings == []
    races = _run(lambda *a: kernel(*a, shift=8), y=1024, block_dim=4).findings
    assert [(f.kind, f.core, f.other_core, f.offset, f.nbytes) for f in races] == [
        ("gm_read_write_race", c, c + 1, 256 * (c + 1), 32) for c in range(3)]


def test_write_overlap_names_both_cores_and_the_bytes():
    def kernel(ctx, xg, yg, pipe):
        t = _buf(pipe, "ub", 256)
        DataCopy(t, xg, 64)
        DataCopy(yg[16 * ctx.GetBlockIdx()], t, 64)
    found = [f for f in _run(kernel, block_dim=3).findings if f.kind == "gm_write_overlap"]
    assert [(f.core, f.other_core, f.offset, f.nbytes) for f in found] == [(0, 1, 64, 192), (1, 2, 128, 192)]
    assert "core 1 writes bytes [128, 320) of y, running into the range core 2" in found[1].detail


def test_the_core_that_spills_is_blamed_not_its_neighbour():
    # The issue's case: core 0 writes 16 floats too many, into core 1's range; core 1 is innocent.
    def kernel(ctx, xg, yg, pipe):
        c = ctx.GetBlockIdx()
        t = _buf(pipe, "ub", 512)
        Duplicate(t, 1.0, 128)
        DataCopy(yg[64 * c], t, 64 + 16 * (c == 0))
    f = _only(_run(kernel, block_dim=2), "gm_write_overlap")
    assert (f.core, f.other_core, f.offset, f.nbytes) == (0, 1, 256, 64)


def test_cores_writing_from_one_offset_blame_the_later_cores():
    # Every core forgot its block offset: all write y[0:64); core 0 is the one that is right.
    def kernel(ctx, xg, yg, pipe):
        t = _buf(pipe, "ub", 256)
        Duplicate(t, 1.0, 64)
        DataCopy(yg, t, 64)
    found = _run(kernel, block_dim=3).findings
    assert [(f.kind, f.core, f.other_core, f.offset, f.nbytes) for f in found] == [
        ("gm_write_overlap", 1, 0, 0, 256), ("gm_write_overlap", 2, 0, 0, 256)]


# --- read-before-write of UB in more detail --------------------------------------------------------

def test_every_writing_instruction_initialises():
    def kernel(ctx, xg, yg, pipe):
        a, h = _buf(pipe, "a", 256), _buf(pipe, "h", 128, np.float16)
        m, out = _buf(pipe, "m", 32, np.uint8), _buf(pipe, "out", 256)
        DataCopy(a, xg, 64)  # GM -> UB
        Cast(h, a, RoundMode.CAST_NONE, 64)  # Cast output
        Compares(m, a, 0.0, CMPMODE.GT, 64)  # Compares output
        Select(out, m, a, F32(0), SELMODE.VSEL_TENSOR_SCALAR_MODE, 64)  # Select output
        Cast(a, h, RoundMode.CAST_NONE, 64)
        DataCopy(yg, out, 64)
        d = _buf(pipe, "d", 256)
        Duplicate(d, 1.0, 64)  # Duplicate output
        DataCopy(yg[64], d, 64)
    assert _run(kernel).findings == []


def test_a_new_allocation_keeps_what_the_core_wrote_there():
    # The queue's one buffer: written in the first allocation, read back after the second (upstream's
    # add_rms_norm hands x1 + x2 from CopyIn to Compute so). AllocTensor leaves UB alone: legal.
    def kernel(ctx, xg, yg, pipe):
        q = TQue(QuePosition.VECIN, 1, name="q")
        pipe.InitBuffer(q, 1, 256)
        t = q.AllocTensor(F32)
        DataCopy(t, xg, 64)
        q.FreeTensor(t)
        t = q.AllocTensor(F32)
        DataCopy(yg, t, 64)
    run = _run_keep(kernel)
    assert run.report.findings == []
    np.testing.assert_array_equal(run.y()[:64].view(np.uint32), run.x()[:64].view(np.uint32))


def test_a_new_allocation_of_a_buffer_never_written_is_reported():
    # The broken twin: two buffers handed out in turn, so the second AllocTensor gives q[1], which
    # nothing wrote in this core's run (q[0] holds the data).
    def kernel(ctx, xg, yg, pipe):
        q = TQue(QuePosition.VECIN, 2, name="q")
        pipe.InitBuffer(q, 2, 256)
        t = q.AllocTensor(F32)
        DataCopy(t, xg, 64)
        q.FreeTensor(t)
        t = q.AllocTensor(F32)
        DataCopy(yg, t, 64)
    f = _only(_run(kernel), "ub_read_before_write")
    assert (f.tensor, f.offset, f.nbytes) == ("q[1]", 0, 256) and "nothing wrote since the core's run began" in f.detail


def test_bytes_written_through_another_buffer_are_defined():
    # Definedness belongs to UB addresses: an overflow of a onto b writes b's bytes (the overflow is
    # the finding), and b then reads them as written values.
    def kernel(ctx, xg, yg, pipe):
        a, b = _buf(pipe, "a", 256), _buf(pipe, "b", 256)
        DataCopy(a, xg, 128)
        DataCopy(yg, b, 64)
    assert [(f.kind, f.tensor) for f in _run(kernel).findings] == [("local_tensor_overflow", "a")]


def test_a_tbuf_keeps_what_was_written_across_gets():
    def kernel(ctx, xg, yg, pipe):
        b = TBuf(name="b")
        pipe.InitBuffer(b, 256)
        DataCopy(b.Get(F32), xg, 64)
        DataCopy(yg, b.Get(F32), 64)
    assert _run(kernel).findings == []


def test_an_unaligned_compare_leaves_mask_bits_that_select_then_reads():
    def kernel(ctx, xg, yg, pipe):
        src, mask = _buf(pipe, "src", 512), _buf(pipe, "mask", 32, np.uint8)
        DataCopy(src, xg, 128)
        Compares(mask, src, 0.0, CMPMODE.GT, 100)  # writes the mask bytes of the first 64 only
        Select(src, mask, src, F32(0), SELMODE.VSEL_TENSOR_SCALAR_MODE, 100)
        DataCopy(yg, src, 128)  # elements 64..99 were selected by mask bits nothing wrote
    found = {f.kind: f for f in _run(kernel).findings}
    assert set(found) == {"compare_count_unaligned", "ub_read_before_write"}
    f = found["ub_read_before_write"]
    assert (f.instruction, f.tensor, f.offset, f.nbytes) == ("DataCopy", "src", 256, 144)
    assert "Select read bytes [8, 13) of mask" in f.detail


def test_gaps_in_the_middle_are_reported_each():
    def kernel(ctx, xg, yg, pipe):
        t = _buf(pipe, "t", 512)
        DataCopy(t, xg, 8)  # [0, 32)
        DataCopy(t[32], xg, 8)  # [128, 160)
        DataCopy(t[64], xg, 8)  # [256, 288)
        DataCopy(yg, t, 96)  # reads [0, 384)
    found = [(f.offset, f.nbytes) for f in _run(kernel).findings]
    assert found == [(32, 96), (160, 96), (288, 96)]


def test_an_overflow_write_initialises_the_buffer_it_lands_on():
    # a's overflow lands on b; reading b then reports nothing more (the overflow is the defect).
    def kernel(ctx, xg, yg, pipe):
        a, b = _buf(pipe, "a", 256), _buf(pipe, "b", 256)
        DataCopy(a, xg, 128)  # 512 bytes into a 256-byte buffer: the second half lands on b
        DataCopy(yg, b, 64)
    found = [(f.kind, f.tensor, f.offset, f.nbytes) for f in _run(kernel).findings]
    assert found == [("local_tensor_overflow", "a", 256, 256)]


def test_numpy_for_tests_is_not_a_read():
    def kernel(ctx, xg, yg, pipe):
        _buf(pipe, "t", 256).numpy()
    assert _run(kernel).findings == []


def test_without_the_sanitizer_nothing_is_tracked():
    gm = GlobalMemory()
    args = [_gm(gm, "x", 400), _gm(gm, "y", 1024)]

    def entry(ctx, xp, yp, tiling):
        xg = GlobalTensor(F32)
        xg.SetGlobalBuffer(xp.as_type(F32))
        t = _buf(TPipe(ctx), "t", 256)
        DataCopy(t, xg[64], 64)  # past x (inside its allocation): no finding without the sanitizer
        assert ctx.reads == [] and ctx.writes == [] and t.buffer.written == []

    report = launch(entry, gm=gm, platform=PLATFORM, block_dim=2, args=args, tiling=b"")
    assert report.findings == []


def test_accesses_that_leave_the_tensor_take_part_in_the_cross_core_checks():
    # Both cores may touch y's padding (declared for each), but not the same bytes at once.
    both = [Padding(0, 400, 112), Padding(1, 400, 112)]

    def kernel(ctx, xg, yg, pipe):
        t = _buf(pipe, "ub", 256)
        Duplicate(t, 1.0, 64)
        if ctx.GetBlockIdx() == 0:
            DataCopy(yg[64], t, 64)  # y bytes [256, 512): past the tensor from 400
        else:
            DataCopy(t, yg[64], 64)

    f = _only(_run(kernel, y=400, block_dim=2, y_pad=both), "gm_read_write_race")
    assert (f.core, f.other_core, f.offset, f.nbytes) == (1, 0, 256, 256)

    def writers(ctx, xg, yg, pipe):
        t = _buf(pipe, "ub", 256)
        Duplicate(t, 1.0, 64)
        DataCopy(yg[64], t, 64)

    f = _only(_run(writers, y=400, block_dim=2, y_pad=both), "gm_write_overlap")
    assert (f.core, f.other_core, f.offset, f.nbytes) == (1, 0, 256, 256)


# --- an access before its buffer (a negative LocalTensor offset) ----------------------------------

def test_an_underflow_leaves_the_buffer_before_it_alone():
    # a holds x; a write 64 bytes before b would land on a's tail if it were let through.
    def kernel(ctx, xg, yg, pipe):
        a, b = _buf(pipe, "a", 256), _buf(pipe, "b", 256)
        DataCopy(a, xg, 64)
        Duplicate(b[-16], 7.0, 64)
        DataCopy(yg, a, 64)
        DataCopy(yg[64], b, 64)
    run = _run_keep(kernel)
    assert [_where(f) for f in run.report.findings] == [
        ("local_tensor_underflow", ERROR, 0, "Duplicate", "b", -64, 64),
        ("ub_read_before_write", ERROR, 0, "DataCopy", "b", 192, 64)]  # b's last 16 floats: never written
    y = run.y()
    np.testing.assert_array_equal(y[:64].view(np.uint32), run.x()[:64].view(np.uint32))  # a intact
    np.testing.assert_array_equal(y[64:112], np.full(48, 7.0, F32))  # b's first 48 floats


def test_a_read_before_the_buffer_is_reported_and_reads_zeros():
    # The Mul(y, x, two[-64], n): the source runs 256 bytes before its buffer.
    def kernel(ctx, xg, yg, pipe):
        src, two, out = _buf(pipe, "src", 512), _buf(pipe, "two", 512), _buf(pipe, "out", 512)
        DataCopy(src, xg, 128)
        Duplicate(two, 2.0, 128)
        Mul(out, src, two[-64], 128)
        DataCopy(yg, out, 128)
    run = _run_keep(kernel)
    assert [_where(f) for f in run.report.findings] == [("local_tensor_underflow", ERROR, 0, "Mul", "two", -256, 256)]
    assert str(run.report.findings[0]).startswith("[error] local_tensor_underflow: core 0 Mul two -256 (256 B)")
    y, x = run.y(), run.x()
    np.testing.assert_array_equal(y[:64], np.zeros(64, F32))
    np.testing.assert_array_equal(y[64:128], x[64:128] * F32(2))


@pytest.mark.parametrize("back, count, want", [(64, 64, (-256, 256)), (8, 64, (-32, 32))])
def test_an_underflow_from_the_first_buffer_in_ub_is_a_finding(back, count, want):
    # The buffer at UB 0: bytes before it are before UB itself (this crashed inside numpy).
    def kernel(ctx, xg, yg, pipe):
        t = _buf(pipe, "first", 256)
        assert t.ub_addr == 0
        Duplicate(t, 1.0, 64)
        Duplicate(t[-back], 5.0, count)
        DataCopy(yg, t, 64)
    run = _run_keep(kernel)
    assert [_where(f) for f in run.report.findings] == [("local_tensor_underflow", ERROR, 0, "Duplicate", "first",
                                                         *want)]
    kept = count - back
    np.testing.assert_array_equal(run.y()[:64], np.r_[np.full(kept, 5.0, F32), np.ones(64 - kept, F32)])


def test_an_underflow_without_the_sanitizer_is_an_emulator_error():
    gm = GlobalMemory()
    args = [_gm(gm, "x", 1024), _gm(gm, "y", 1024)]

    def entry(ctx, xp, yp, tiling):
        pipe = TPipe(ctx)
        _buf(pipe, "a", 256)
        Duplicate(_buf(pipe, "b", 256)[-16], 1.0, 64)

    with pytest.raises(EmulatorError, match=r"core 0: Duplicate: 256 bytes at -64 of the 256-byte buffer b "
                                            r"\(UB 0x100\): bytes \[-64, 0\) lie before the buffer"):
        launch(entry, gm=gm, platform=PLATFORM, block_dim=1, args=args, tiling=b"")


def test_every_instruction_reaches_ub_through_the_same_check():
    # Cast, Compares and Select on a tensor before its buffer: each one reported, none crashes.
    def kernel(ctx, xg, yg, pipe):
        a, h = _buf(pipe, "a", 256), _buf(pipe, "h", 128, np.float16)
        m = _buf(pipe, "m", 32, np.uint8)
        DataCopy(a, xg, 64)
        Cast(h[-64], a, RoundMode.CAST_NONE, 64)
        Compares(m, a[-64], 0.0, CMPMODE.GT, 64)
        Select(a, m[-32], a, F32(0), SELMODE.VSEL_TENSOR_SCALAR_MODE, 64)
    found = [(f.kind, f.instruction, f.tensor, f.offset, f.nbytes) for f in _run(kernel).findings
             if f.kind == "local_tensor_underflow"]
    assert found == [("local_tensor_underflow", "Cast", "h", -128, 128),
                     ("local_tensor_underflow", "Compares", "a", -256, 256),
                     ("local_tensor_underflow", "Select", "m", -32, 8)]
