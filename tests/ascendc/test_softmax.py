"""The SoftMax family (softmax.py) against numpy, step by step in float32 as AscendC's
documented algorithm runs (max, sub, exp rounded once from float64, a pairwise-tree row sum, div;
half widened first and narrowed at the end); the sum/max outputs' 32-byte blocks; the shape from
SoftMaxShapeInfo or the tiling, oriSrcK's valid columns."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import EmulatorError
from opsnn.ascendc.softmax import (
    SimpleSoftMax,
    SoftMax,
    SoftmaxGrad,
    SoftmaxGradFront,
    SoftMaxShapeInfo,
    SoftMaxTiling,
)

from .helpers import Ub, bits, make_core

F32 = np.dtype(np.float32)


def tree(values):
    x = [np.float32(v) for v in values]
    while len(x) > 1:
        if len(x) % 2:
            x.append(np.float32(-0.0))
        x = [np.float32(x[i] + x[i + 1]) for i in range(0, len(x), 2)]
    return x[0]


def softmax_ref(x32, valid):
    with np.errstate(all="ignore"):
        mx = x32[:, :valid].max(axis=1)
        e = np.exp((x32 - mx[:, None]).astype(F32).astype(np.float64)).astype(F32)
        s = np.array([tree(row[:valid]) for row in e], F32)
        return (e / s[:, None]).astype(F32), s, mx


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_softmax_with_sum_and_max(dtype):
    t = np.dtype(dtype)
    m, k = 5, 64
    x = (np.random.default_rng(1).standard_normal((m, k)) * 4).astype(t)
    core = make_core()
    ub = Ub(core)
    src, dst = ub.buffer(t, m * k, x.reshape(-1)), ub.buffer(t, m * k)
    per = 32 // t.itemsize
    sum_t, max_t = ub.buffer(t, m * per), ub.buffer(t, m * per)
    SoftMax(dst, sum_t, max_t, src, SoftMaxTiling(m, k), SoftMaxShapeInfo(m, k, m, k))
    want, s, mx = softmax_ref(x.astype(F32), k)
    assert (bits(dst.numpy(m * k)) == bits(want.astype(t).reshape(-1))).all()
    assert (bits(sum_t.numpy(m * per).reshape(m, per)) == bits(np.repeat(s.astype(t)[:, None], per, 1))).all()
    assert (max_t.numpy(m * per).reshape(m, per)[:, -1] == mx.astype(t)).all()


def test_softmax_valid_columns_and_shape_from_tiling():
    m, k, valid = 3, 16, 10
    x = np.random.default_rng(2).standard_normal((m, k)).astype(F32)
    x[:, valid:] = 100.0  # padding: outside the reductions
    core = make_core()
    ub = Ub(core)
    src, dst, tmp = ub.buffer(F32, m * k, x.reshape(-1)), ub.buffer(F32, m * k), ub.buffer(np.uint8, 1024)
    SoftMax(dst, src, tmp, SoftMaxTiling(m, k), SoftMaxShapeInfo(m, k, m, valid))
    want, _, _ = softmax_ref(x, valid)
    assert (bits(dst.numpy(m * k).reshape(m, k)[:, :valid]) == bits(want[:, :valid])).all()
    SoftMax(dst, src, SoftMaxTiling(m, k))  # no shape info: the tiling's, every column
    want, _, _ = softmax_ref(x, k)
    assert (bits(dst.numpy(m * k)) == bits(want.reshape(-1))).all()
    with pytest.raises(EmulatorError, match="32-byte aligned"):
        SoftMax(dst, src, SoftMaxTiling(1, 10))


def test_simple_softmax_and_grad():
    m, k = 2, 32
    rng = np.random.default_rng(3)
    x = rng.standard_normal((m, k)).astype(F32)
    g = rng.standard_normal((m, k)).astype(F32)
    core = make_core()
    ub = Ub(core)
    src, grad, dst = ub.buffer(F32, m * k, x.reshape(-1)), ub.buffer(F32, m * k, g.reshape(-1)), ub.buffer(F32, m * k)
    mx = np.repeat(np.array([0.5, -1.0], F32)[:, None], 8, 1)
    sm = np.repeat(np.array([3.0, 7.0], F32)[:, None], 8, 1)
    max_t, sum_t = ub.buffer(F32, 16, mx.reshape(-1)), ub.buffer(F32, 16, sm.reshape(-1))
    SimpleSoftMax(dst, sum_t, max_t, src, SoftMaxTiling(m, k))
    with np.errstate(all="ignore"):
        want = (np.exp((x - mx[:, :1]).astype(np.float64)).astype(F32) / sm[:, :1]).astype(F32)
    assert (bits(dst.numpy(m * k)) == bits(want.reshape(-1))).all()
    SoftmaxGrad(dst, grad, src, SoftMaxTiling(m, k), False)
    s = np.array([tree((g * x).astype(F32)[r]) for r in range(m)], F32)
    assert (bits(dst.numpy(m * k)) == bits(((g - s[:, None]).astype(F32) * x).astype(F32).reshape(-1))).all()
    front = ub.buffer(F32, 16)
    SoftmaxGradFront(front, grad, src, SoftMaxTiling(m, k))
    assert (bits(front.numpy(16)) == bits(np.repeat(s, 8))).all()


def test_select_with_bytes_mask_forms_truth_and_in_place_compaction():
    from opsnn.ascendc.select_bytes_mask import SelectWithBytesMask, SelectWithBytesMaskShapeInfo
    core = make_core()
    ub = Ub(core)
    x = np.arange(32, dtype=F32).reshape(2, 16)
    mask = np.zeros((2, 32), np.uint16)  # rows of 32 mask elements for rows of 16
    mask[0, [1, 5]] = 1
    mask[1, 3] = 0x8000  # a half -0.0 seen as an int16: true
    mask[1, 20] = 1  # past the row's 16: not used
    src, dst = ub.buffer(F32, 32, x.reshape(-1)), ub.buffer(F32, 32)
    m = ub.buffer(np.uint16, 64, mask.reshape(-1))
    tmp = ub.buffer(np.uint8, 1024)
    SelectWithBytesMask(dst, src, np.float32(-1), m, tmp, SelectWithBytesMaskShapeInfo(2, 16, 32))
    want = np.where(mask[:, :16] != 0, np.float32(-1), x)
    assert (dst.numpy(32).reshape(2, 16) == want).all()
    assert (m.numpy(32) == mask[:, :16].reshape(-1)).all()  # compacted in place (isReuseMask)
    SelectWithBytesMask(dst, np.float32(7), src, m, tmp, SelectWithBytesMaskShapeInfo(2, 16, 16))
    assert (dst.numpy(32).reshape(2, 16) == np.where(mask[:, :16] != 0, x, np.float32(7))).all()
    f = ub.buffer(F32, 16, np.array([0.0, -0.0, np.nan, 1e-30] + [0.0] * 12, F32))
    SelectWithBytesMask(dst, src, np.float32(9), f, tmp, SelectWithBytesMaskShapeInfo(1, 16, 16))
    assert list(dst.numpy(4)) == [0.0, 1.0, 9.0, 9.0]  # float masks: +-0 false, NaN and tiny true
