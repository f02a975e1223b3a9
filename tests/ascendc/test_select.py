"""Select in tensor-scalar mode: bit i picks src0[i], else the scalar; bit patterns move unchanged."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import SELMODE, EmulatorError, Select

from .helpers import Ub, bits, kinds, make_core


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("scalar", [0.0, -2.5])
def test_select_by_bit(dtype, scalar):
    n = 128
    rng = np.random.default_rng(1)
    src_vals = rng.standard_normal(n).astype(dtype)
    src_vals[5] = np.nan
    mask = rng.integers(0, 256, n // 8).astype(np.uint8)
    mask[0] |= 1 << 5  # keep the NaN
    core = make_core()
    ub = Ub(core)
    m = ub.buffer(np.uint8, n // 8, mask)
    s = ub.buffer(dtype, n, src_vals)
    d = ub.buffer(dtype, n)
    Select(d, m, s, dtype(scalar), SELMODE.VSEL_TENSOR_SCALAR_MODE, n)
    sel = np.unpackbits(mask, bitorder="little").astype(bool)
    want = np.where(sel, src_vals, dtype(scalar))
    np.testing.assert_array_equal(bits(d.numpy(n)), bits(want))
    assert kinds(core) == []


def test_nan_payload_and_negative_zero_pass_unchanged():
    pattern = np.array([0x7FC00123, 0xFFC00001, 0x80000000, 0x7F800000] * 16, dtype=np.uint32)
    core = make_core()
    ub = Ub(core)
    m = ub.buffer(np.uint8, 8, np.full(8, 0xFF, dtype=np.uint8))
    s = ub.buffer(np.float32, 64, pattern.view(np.float32))
    Select(s, m, s, np.float32(0), SELMODE.VSEL_TENSOR_SCALAR_MODE, 64)  # in place, as the kernel does
    np.testing.assert_array_equal(bits(s.numpy(64)), pattern)


def test_masked_lanes_get_positive_zero():
    core = make_core()
    ub = Ub(core)
    m = ub.buffer(np.uint8, 8, np.zeros(8, dtype=np.uint8))
    s = ub.buffer(np.float32, 64, np.full(64, -3.0, dtype=np.float32))
    Select(s, m, s, np.float32(0), SELMODE.VSEL_TENSOR_SCALAR_MODE, 64)
    assert not bits(s.numpy(64)).any()


def test_other_modes_and_types_are_refused():
    ub = Ub(make_core())
    m = ub.buffer(np.uint8, 8)
    s = ub.buffer(np.float32, 64)
    with pytest.raises(EmulatorError):
        Select(s, m, s, 0, SELMODE.VSEL_TENSOR_TENSOR_MODE, 64)
    i = ub.buffer(np.int32, 64)
    with pytest.raises(EmulatorError):
        Select(i, m, i, 0, SELMODE.VSEL_TENSOR_SCALAR_MODE, 64)


def test_mask_read_past_its_buffer_is_reported():
    core = make_core()
    ub = Ub(core)
    m = ub.buffer(np.uint8, 32, np.zeros(32))
    s = ub.buffer(np.float32, 512, np.ones(512))
    Select(s, m, s, np.float32(0), SELMODE.VSEL_TENSOR_SCALAR_MODE, 512)  # needs 64 mask bytes
    assert kinds(core) == ["local_tensor_overflow"]
    assert core.log.items[0].tensor == "buf0" and core.log.items[0].nbytes == 32
