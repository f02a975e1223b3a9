"""DataCopy GM <-> UB: 32-byte units, UB alignment, and the GM bounds the sanitizer watches."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import DataCopy, DataCopyParams, EmulatorError, GMError
from opsnn.ascendc.datacopy_params import DataCopyBlocks

from .helpers import Ub, gm_tensor, kinds, make_core


def test_round_trip():
    core = make_core()
    data = np.arange(256, dtype=np.float32)
    src, _ = gm_tensor(core, "x", data)
    dst, daddr = gm_tensor(core, "y", np.zeros(256, dtype=np.float32))
    ub = Ub(core).buffer(np.float32, 256)
    DataCopy(ub, src, 256)
    DataCopy(dst, ub, 256)
    np.testing.assert_array_equal(core.gm.bytes_view(daddr, 1024).view(np.float32), data)
    assert kinds(core) == []


def test_offset_views():
    core = make_core()
    data = np.arange(256, dtype=np.float32)
    src, _ = gm_tensor(core, "x", data)
    ub = Ub(core).buffer(np.float32, 64)
    DataCopy(ub, src[128], 64)
    np.testing.assert_array_equal(ub.numpy(), data[128:192])


def test_unaligned_count_is_rounded_down_and_reported():
    core = make_core()
    data = np.arange(64, dtype=np.float32) + 1
    src, _ = gm_tensor(core, "x", data)
    ub = Ub(core).buffer(np.float32, 64)
    DataCopy(ub, src, 13)  # 52 bytes: the hardware moves 32 (8 floats) and drops 20
    got = ub.numpy()
    np.testing.assert_array_equal(got[:8], data[:8])
    assert not got[8:].any()
    assert kinds(core) == ["datacopy_unaligned"]
    f = core.log.items[0]
    assert (f.instruction, f.tensor, f.offset, f.nbytes) == ("DataCopy", "buf0", 32, 20)


def test_unaligned_ub_address_is_reported():
    core = make_core()
    src, _ = gm_tensor(core, "x", np.arange(64, dtype=np.float32))
    ub = Ub(core).buffer(np.float32, 64)
    DataCopy(ub[1], src, 8)
    assert kinds(core) == ["datacopy_unaligned"]
    assert "aligned" in core.log.items[0].detail


def test_gm_at_any_address_is_clean_both_ways():
    # GM has no alignment rule (only UB's 32 bytes): x[1] is 4 bytes off 32-byte alignment, a
    # core's slice of a multi-core split may start there; the bytes move and nothing is reported.
    core = make_core()
    data = np.arange(128, dtype=np.float32)
    src, _ = gm_tensor(core, "x", data)
    dst, daddr = gm_tensor(core, "y", np.zeros(128, dtype=np.float32))
    ub = Ub(core).buffer(np.float32, 64)
    DataCopy(ub, src[1], 64)
    DataCopy(dst[9], ub, 64)
    np.testing.assert_array_equal(ub.numpy(), data[1:65])
    np.testing.assert_array_equal(core.gm.bytes_view(daddr + 36, 256).view(np.float32), data[1:65])
    assert kinds(core) == []
    DataCopyBlocks(ub, src[3], DataCopyParams(2, 1, 0, 0))  # the burst form too
    DataCopyBlocks(dst[5], ub, DataCopyParams(2, 1, 0, 0))
    assert kinds(core) == []


def test_read_past_tensor_inside_declared_padding_is_expected():
    core = make_core()
    src, _ = gm_tensor(core, "x", np.arange(4, dtype=np.float32), padding=((16, 240),))  # allocation 512
    ub = Ub(core).buffer(np.float32, 64)
    DataCopy(ub, src, 64)
    (f,) = core.log.items
    assert (f.kind, f.level, f.offset, f.nbytes) == ("gm_read_past_tensor", "expected", 16, 240)
    np.testing.assert_array_equal(ub.numpy(4), np.arange(4))


def test_read_past_tensor_inside_its_allocation_but_undeclared_is_an_error():
    core = make_core()
    src, _ = gm_tensor(core, "x", np.arange(4, dtype=np.float32))  # 16 bytes, allocation 512
    ub = Ub(core).buffer(np.float32, 64)
    DataCopy(ub, src, 64)
    (f,) = core.log.items
    assert (f.kind, f.level, f.offset, f.nbytes) == ("gm_read_past_tensor", "error", 16, 240)
    assert "outside the padding declared for core 0 (none)" in f.detail
    np.testing.assert_array_equal(ub.numpy(4), np.arange(4))  # the bytes are still read


def test_read_past_allocation_gives_zeros_and_is_an_error():
    core = make_core()
    src, addr = gm_tensor(core, "x", np.ones(128, dtype=np.float32))  # exactly one 512-byte allocation
    other = core.gm.malloc(4096)
    core.gm.bytes_view(other, 4096)[:] = 0x7F
    ub = Ub(core).buffer(np.float32, 256, np.full(256, 9.0, dtype=np.float32))
    DataCopy(ub, src, 256)
    got = ub.numpy()
    assert np.all(got[:128] == 1.0) and not got[128:].any()
    assert kinds(core) == ["gm_read_past_tensor", "gm_read_past_allocation"]
    past = core.log.items[1]
    assert (past.level, past.offset, past.nbytes) == ("error", 512, 512)


def test_write_past_allocation_is_dropped_and_never_reaches_a_neighbour():
    core = make_core()
    dst, addr = gm_tensor(core, "y", np.zeros(128, dtype=np.float32))
    neighbours = [core.gm.malloc(4096) for _ in range(2)]
    for n in neighbours:
        core.gm.bytes_view(n, 4096)[:] = 0x11
    ub = Ub(core).buffer(np.float32, 512, np.full(512, 2.0, dtype=np.float32))
    DataCopy(dst, ub, 512)
    np.testing.assert_array_equal(core.gm.bytes_view(addr, 512).view(np.float32), 2.0)
    for n in neighbours:
        assert np.all(core.gm.bytes_view(n, 4096) == 0x11)
    assert kinds(core) == ["gm_write_past_tensor", "gm_write_past_allocation"]
    assert core.log.items[1].nbytes == 1536


def test_past_allocation_without_sanitizer_raises():
    core = make_core(sanitize=False)
    src, _ = gm_tensor(core, "x", np.ones(128, dtype=np.float32))
    ub = Ub(core).buffer(np.float32, 256)
    with pytest.raises(GMError, match="outside the allocation"):
        DataCopy(ub, src, 256)


def test_type_mismatch_and_bad_operands():
    core = make_core()
    src, _ = gm_tensor(core, "x", np.ones(64, dtype=np.float32))
    ub = Ub(core).buffer(np.float16, 64)
    with pytest.raises(EmulatorError):
        DataCopy(ub, src, 64)
    with pytest.raises(EmulatorError):
        DataCopy(src, src, 64)


def test_local_to_local_copy():
    core = make_core()
    u = Ub(core)
    a = u.buffer(np.int32, 64, np.arange(64))
    b = u.buffer(np.int32, 64)
    DataCopy(b, a, 64)
    np.testing.assert_array_equal(b.numpy(), np.arange(64))
