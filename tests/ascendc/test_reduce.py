"""WholeReduceSum/Max/Min, BlockReduceSum/Max/Min and Brcb (reduce.py): the tree order, NaN and
ties, the orders and strides, masks, the sanitizer."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import EmulatorError
from opsnn.ascendc.reduce import (
    BlockReduceMax,
    BlockReduceSum,
    Brcb,
    BrcbRepeatParams,
    ReduceOrder,
    WholeReduceMax,
    WholeReduceMin,
    WholeReduceSum,
)

from .helpers import Ub, bits, copy_out, kinds, make_core


def _tree(x):
    x = list(x)
    while len(x) > 1:
        if len(x) % 2:
            x.append(type(x[0])(-0.0))
        x = [type(x[0])(x[i] + x[i + 1]) for i in range(0, len(x), 2)]
    return x[0]


def _bufs(values, dst_n, dtype):
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(dtype, values.size, values.astype(dtype))
    dst = ub.buffer(dtype, dst_n, np.full(dst_n, 7, dtype))
    return core, src, dst


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_whole_reduce_sum_is_the_pairwise_tree(dtype):
    n = 256 // np.dtype(dtype).itemsize
    x = np.random.default_rng(1).standard_normal(3 * n).astype(dtype) * dtype(100)
    x[0] = dtype(3e4) if dtype == np.float16 else dtype(1e30)  # cancellation makes the order visible
    x[1] = -x[0]
    core, src, dst = _bufs(x, 16, dtype)
    WholeReduceSum(dst, src, n, 3, 2, 1, 8)
    got = dst.numpy(16)
    for r in range(3):
        assert bits(got[2 * r:2 * r + 1])[0] == bits(np.array([_tree(x[r * n:(r + 1) * n])], dtype))[0]
    assert got[1] == 7  # dstRepStride 2: the gaps untouched
    assert kinds(core) == []
    # not the sequential order (the test would not tell the two apart otherwise)
    seq = dtype(0)
    for v in x[n:2 * n]:
        seq = dtype(seq + v)
    assert seq != got[2] or dtype == np.float32


def test_whole_reduce_sum_masked_lanes_and_negative_zero():
    x = np.full(64, -0.0, np.float32)
    x[5] = 1.0
    core, src, dst = _bufs(x, 8, np.float32)
    WholeReduceSum(dst, src, 5, 1, 1, 1, 8)  # lanes 0..4: all -0.0
    assert bits(dst.numpy(1))[0] == 0x80000000
    WholeReduceSum(dst, src, [1 << 5, 0], 1, 1, 1, 8)  # bit mode: lane 5 only
    assert dst.numpy(1)[0] == 1.0


@pytest.mark.parametrize("order, want", [
    (ReduceOrder.ORDER_VALUE_INDEX, ["value", "index"]), (ReduceOrder.ORDER_INDEX_VALUE, ["index", "value"]),
    (ReduceOrder.ORDER_ONLY_VALUE, ["value"]), (ReduceOrder.ORDER_ONLY_INDEX, ["index"]),
])
def test_whole_reduce_max_orders_ties_and_strides(order, want):
    x = np.zeros(128, np.float32)
    x[[3, 9]] = 5.0  # a tie: the first lane wins
    x[64 + 17] = -1.0
    x[64:64 + 17] = -2.0
    x[64 + 18:] = -3.0
    core, src, dst = _bufs(x, 16, np.float32)
    WholeReduceMax(dst, src, 64, 2, 2, 1, 8, order)
    got = dst.numpy(16)
    w = len(want)
    for r, (value, index) in enumerate([(5.0, 3), (-1.0, 17)]):
        out = got[r * 2 * w:(r * 2 + 1) * w]
        for slot, what in zip(out, want, strict=True):
            if what == "value":
                assert slot == value
            else:
                assert np.array([slot]).view(np.uint32)[0] == index
    assert kinds(core) == []


def test_whole_reduce_nan_wins_and_min():
    x = np.arange(128, dtype=np.float16)
    x[40] = np.float16("nan")
    core, src, dst = _bufs(x, 4, np.float16)
    WholeReduceMax(dst, src, 128, 1, 1, 1, 8)
    assert np.isnan(dst.numpy(1)[0]) and dst.numpy(2).view(np.uint16)[1] == 40
    WholeReduceMin(dst, src, 32, 1, 1, 1, 8)
    assert dst.numpy(1)[0] == 0 and dst.numpy(2).view(np.uint16)[1] == 0


def test_block_reduce_sum_and_max():
    x = np.arange(64, dtype=np.float32)
    core, src, dst = _bufs(x, 8, np.float32)
    BlockReduceSum(dst, src, 1, 64, 1, 1, 8)
    np.testing.assert_array_equal(dst.numpy(8), x.reshape(8, 8).sum(axis=1))
    BlockReduceMax(dst, src, 1, 20, 1, 1, 8)  # lanes 0..19: blocks 0, 1 whole, 2 half, the rest empty
    np.testing.assert_array_equal(dst.numpy(8), [7, 15, 19] + [-np.inf] * 5)


def test_brcb_fills_blocks():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 16, np.arange(16, dtype=np.float32))
    dst = ub.buffer(np.float32, 128)
    Brcb(dst, src, 2, BrcbRepeatParams(1, 8))
    np.testing.assert_array_equal(dst.numpy(128), np.repeat(np.arange(16, dtype=np.float32), 8))
    assert kinds(core) == []
    h = ub.buffer(np.float16, 8, np.arange(8, dtype=np.float16))
    d2 = ub.buffer(np.float16, 256, np.zeros(256, np.float16))
    Brcb(d2, h, 1, BrcbRepeatParams(2, 0))  # every other block
    got = d2.numpy(256).reshape(16, 16)
    np.testing.assert_array_equal(got[0::2], np.repeat(np.arange(8, dtype=np.float16), 16).reshape(8, 16))
    assert not got[1::2].any()


def test_errors_and_sanitizer():
    core, src, dst = _bufs(np.zeros(64, np.float32), 8, np.float32)
    with pytest.raises(EmulatorError, match="WholeReduceSum on int32: half or float"):
        WholeReduceSum(dst.ReinterpretCast(np.int32), src.ReinterpretCast(np.int32), 64, 1, 1, 1, 8)
    with pytest.raises(EmulatorError, match="order must be a ReduceOrder"):
        WholeReduceMax(dst, src, 64, 1, 1, 1, 8, 0)
    with pytest.raises(EmulatorError, match="dst of float16 for a float32 source"):
        WholeReduceSum(dst.ReinterpretCast(np.float16), src, 64, 1, 1, 1, 8)
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 64)  # never written
    dst = ub.buffer(np.float32, 8)
    WholeReduceSum(dst, src, 64, 9, 1, 1, 8)  # 9 repeats read past the 64 elements, write 9 results
    assert set(kinds(core)) == {"local_tensor_overflow"}
    copy_out(dst, 8)  # sums of undefined values, used
    assert set(kinds(core)) == {"ub_read_before_write", "local_tensor_overflow"}
