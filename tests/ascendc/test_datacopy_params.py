"""The Atlas A2 burst forms of the copies, reached through DataCopy / DataCopyPad themselves (as
AscendC overloads them): DataCopyParams (bursts of 32-byte blocks, strides in blocks) and
DataCopyExtParams (bursts of bytes, GM strides in bytes, UB strides in blocks, each UB burst
32-byte aligned, optional padding)."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import DataCopy, DataCopyExtParams, DataCopyPad, DataCopyPadExtParams, DataCopyParams
from opsnn.ascendc.errors import EmulatorError

from .helpers import Ub, copy_out, gm_tensor, kinds, make_core

F32 = np.float32


def test_datacopy_bursts_with_strides_both_ways():
    core = make_core()
    ub = Ub(core)
    data = np.arange(64, dtype=F32)
    gm, _ = gm_tensor(core, "x", data)
    t = ub.buffer(F32, 48)
    # 2 bursts of 1 block (8 floats), 1 block apart in GM, 2 blocks apart in UB
    DataCopy(t, gm, DataCopyParams(2, 1, 1, 2))
    got = t.numpy(48)
    np.testing.assert_array_equal(got[:8], data[:8])
    np.testing.assert_array_equal(got[24:32], data[16:24])
    out, addr = gm_tensor(core, "y", np.zeros(64, F32))
    DataCopy(out, t, DataCopyParams(2, 1, 2, 0))  # back, packed
    np.testing.assert_array_equal(core.gm.bytes_view(addr, 64).view(F32), np.r_[data[:8], data[16:24]])
    assert kinds(core) == []


def test_datacopypad_pads_left_and_right_and_leaves_the_rest_undefined():
    core = make_core()
    ub = Ub(core)
    data = np.arange(1, 11, dtype=F32)
    gm, _ = gm_tensor(core, "x", data)
    t = ub.buffer(F32, 32)
    # 2 bursts of 5 floats (20 bytes), GM-contiguous; each UB burst: 1 pad + 5 + 2 pad = 8 floats
    DataCopyPad(t, gm, DataCopyExtParams(2, 20, 0, 0, 0), DataCopyPadExtParams(True, 1, 2, F32(-1)))
    np.testing.assert_array_equal(t.numpy(16), [-1, 1, 2, 3, 4, 5, -1, -1, -1, 6, 7, 8, 9, 10, -1, -1])
    assert kinds(core) == []
    u = ub.buffer(F32, 16)
    DataCopyPad(u, gm, DataCopyExtParams(1, 20, 0, 0, 0), DataCopyPadExtParams(False, 0, 0, F32(0)))
    copy_out(u, 5)
    assert kinds(core) == []
    copy_out(u[5], 3)  # the burst's 32-byte footprint past the data: nothing wrote it
    assert kinds(core) == ["ub_read_before_write"]


def test_datacopypad_to_gm_any_byte_length():
    core = make_core()
    ub = Ub(core)
    t = ub.buffer(F32, 16, np.arange(16, dtype=F32))
    out, addr = gm_tensor(core, "y", np.zeros(12, F32))
    # 2 bursts of 3 floats from UB bursts 32 bytes apart, written 1 float apart in GM
    DataCopyPad(out, t, DataCopyExtParams(2, 12, 0, 4, 0))
    np.testing.assert_array_equal(core.gm.bytes_view(addr, 28).view(F32), [0, 1, 2, 0, 8, 9, 10])
    assert kinds(core) == []


def test_refusals_by_name():
    core = make_core()
    ub = Ub(core)
    gm, _ = gm_tensor(core, "x", np.arange(8, dtype=F32))
    t = ub.buffer(F32, 8)
    with pytest.raises(EmulatorError, match="takes no pad params"):
        DataCopyPad(t, gm, 8, DataCopyPadExtParams(True, 1, 0, F32(0)))
    with pytest.raises(EmulatorError, match="not a whole number of float32 elements"):
        DataCopyPad(t, gm, DataCopyExtParams(1, 6, 0, 0, 0))
    with pytest.raises(EmulatorError, match="UB -> GM takes no padding"):
        DataCopyPad(gm, t, DataCopyExtParams(1, 8, 0, 0, 0), DataCopyPadExtParams())
