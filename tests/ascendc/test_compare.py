"""Compares / CompareScalar: packed LSB-first masks, NaN, the 256-byte repeat rule."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import CMPMODE, Compares, CompareScalar, EmulatorError

from .helpers import Ub, kinds, make_core


def _compare(values, scalar, mode, dtype=np.float32, count=None, mask_init=0):
    core = make_core()
    ub = Ub(core)
    n = len(values)
    src = ub.buffer(dtype, n, values)
    dst = ub.buffer(np.uint8, max(n // 8, 32), np.full(max(n // 8, 32), mask_init, dtype=np.uint8))
    Compares(dst, src, scalar, mode, n if count is None else count)
    return dst.numpy(), core


def test_mask_bit_order_is_lsb_first():
    x = np.zeros(64, dtype=np.float32)
    x[[0, 3, 8, 15, 63]] = 5.0
    mask, core = _compare(x, 1.0, CMPMODE.GT)
    assert kinds(core) == []
    assert list(mask[:8]) == [0b00001001, 0b10000001, 0, 0, 0, 0, 0, 0b10000000]


@pytest.mark.parametrize("mode, op", [
    (CMPMODE.GT, np.greater), (CMPMODE.GE, np.greater_equal), (CMPMODE.LT, np.less),
    (CMPMODE.LE, np.less_equal), (CMPMODE.EQ, np.equal), (CMPMODE.NE, np.not_equal),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_every_mode_and_nan_is_false(mode, op, dtype):
    x = np.array([np.nan, 1.0, 0.5, 2.0, -np.inf, np.inf, -0.0, 0.0] * 16, dtype=dtype)
    mask, _ = _compare(x, 1.0, mode, dtype)
    want = op(x, dtype(1.0)) & ~np.isnan(x)
    got = np.unpackbits(mask, bitorder="little")[:x.size].astype(bool)
    np.testing.assert_array_equal(got, want)
    assert not got[0]  # NaN compares false, NE included


def test_nan_scalar_compares_false_even_for_ne():
    x = np.arange(64, dtype=np.float32)
    mask, _ = _compare(x, np.float32(np.nan), CMPMODE.NE)
    assert not mask.any()


def test_half_compare_uses_the_half_scalar():
    # 1.0001 rounds to 1.0 in half: 1.0 > half(1.0001) is false.
    x = np.full(128, 1.0, dtype=np.float16)
    mask, _ = _compare(x, np.float16(1.0001), CMPMODE.GT, np.float16)
    assert not mask.any()


def test_count_not_a_256_byte_multiple_leaves_the_tail_uncompared_and_is_reported():
    x = np.full(128, 5.0, dtype=np.float32)  # all > 1
    mask, core = _compare(x, 1.0, CMPMODE.GT, count=100, mask_init=0xAA)
    # 64 floats = one 256-byte repeat compared: 8 bytes of ones; bytes from 8 on untouched.
    assert list(mask[:8]) == [0xFF] * 8
    assert list(mask[8:16]) == [0xAA] * 8
    assert kinds(core) == ["compare_count_unaligned"]
    f = core.log.items[0]
    assert (f.instruction, f.offset, f.nbytes) == ("Compares", 64 * 4, 36 * 4)


def test_int32_only_eq_and_alias():
    x = np.array([2 ** 24 + 1, 2 ** 24, 7, -7] * 16, dtype=np.int32)
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.int32, 64, x)
    dst = ub.buffer(np.uint8, 32)
    CompareScalar(dst, src, np.int32(2 ** 24 + 1), CMPMODE.EQ, 64)
    assert np.unpackbits(dst.numpy(8), bitorder="little")[:4].tolist() == [1, 0, 0, 0]
    with pytest.raises(EmulatorError):
        Compares(dst, src, 1, CMPMODE.GT, 64)
    with pytest.raises(EmulatorError):
        Compares(dst, ub.buffer(np.int8, 256), 1, CMPMODE.EQ, 256)
