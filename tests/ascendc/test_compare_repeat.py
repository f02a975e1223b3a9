"""The mask/repeat forms of Compares, Compare and Select (compare_repeat.py) and TQueBind."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.ascendc import CMPMODE, SELMODE, BinaryRepeatParams, Compare, Compares, Select, UnaryRepeatParams
from opsnn.ascendc.pipe import QuePosition, TPipe
from opsnn.ascendc.que_bind import TQueBind

from .helpers import Ub, bits, kinds, make_core


def _want_bits(x: np.ndarray, n_per_repeat: int, active: np.ndarray, repeats: int, scalar) -> np.ndarray:
    """The bytes a repeat-form Compares(GT) writes: bit r*n+j for active j, 0 in inactive bits of
    a written byte."""
    out = np.zeros(32, dtype=np.uint8)
    for r in range(repeats):
        for j in active:
            k = r * n_per_repeat + j
            if x[r * n_per_repeat + j] > scalar:
                out[k // 8] |= 1 << (k % 8)
    return out


@settings(max_examples=25, deadline=None)
@given(mask=st.integers(1, 64), repeats=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_compares_repeat_bits_follow_repeat_and_mask(mask, repeats, seed):
    x = np.random.default_rng(seed).normal(size=64 * repeats).astype(np.float32)
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, x.size, x)
    dst = ub.buffer(np.uint8, 32, np.full(32, 0xAA, dtype=np.uint8))
    Compares(dst, src, np.float32(0.0), CMPMODE.GT, mask, repeats, UnaryRepeatParams(1, 1, 8, 8))
    got = dst.numpy(32)
    want = _want_bits(x, 64, np.arange(mask), repeats, 0.0)
    written = np.zeros(32, dtype=bool)
    for r in range(repeats):
        written[(r * 64) // 8:(r * 64 + mask + 7) // 8] = True
    np.testing.assert_array_equal(got[written], want[written])
    assert (got[~written] == 0xAA).all()  # bytes with no active bit are untouched
    assert kinds(core) == []


def test_select_repeat_scalar_mode_is_relu_with_nan_kept_out():
    x = np.array([1.5, -2.0, np.nan, 0.0, -0.0, np.inf, -np.inf, 3.0] * 8, dtype=np.float32)
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 64, x)
    mask = ub.buffer(np.uint8, 32)
    dst = ub.buffer(np.float32, 64)
    Compares(mask, src, np.float32(0), CMPMODE.GT, 64, 1, UnaryRepeatParams(1, 1, 8, 8))
    Select(dst, mask, src, np.float32(0), SELMODE.VSEL_TENSOR_SCALAR_MODE, 64, 1, BinaryRepeatParams())
    want = np.where(x > 0, x, np.float32(0))  # NaN > 0 is false: 0
    np.testing.assert_array_equal(bits(dst.numpy(64)), bits(want))
    assert kinds(core) == []


def test_compare_repeat_tensor_form_and_strides():
    a = np.arange(128, dtype=np.float32)
    b = np.full(128, 63.5, dtype=np.float32)
    core = make_core()
    ub = Ub(core)
    src0, src1 = ub.buffer(np.float32, 128, a), ub.buffer(np.float32, 128, b)
    dst = ub.buffer(np.uint8, 32)
    # src0 read with block stride 2: elements 0-7, 16-23, ..., 112-119
    Compare(dst, src0, src1, CMPMODE.LT, 64, 1, BinaryRepeatParams(1, 2, 1, 8, 16, 8))
    taken = np.concatenate([a[16 * k:16 * k + 8] for k in range(8)])
    np.testing.assert_array_equal(np.unpackbits(dst.numpy(8), bitorder="little").astype(bool), taken < 63.5)


def test_repeat_form_arity_is_checked():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 64, np.zeros(64, np.float32))
    dst = ub.buffer(np.uint8, 32)
    with pytest.raises(Exception, match="count, or mask, repeatTimes"):
        Compares(dst, src, 0.0, CMPMODE.GT, 64, 1)


def test_tque_bind_enqueues_a_dequeued_buffer_again():
    # CANN's TQueBind::EnQue takes a buffer allocated (OCCUPIED) or dequeued (DEQUE), as often as
    # the stages hand it on; one already queued, or freed, is misuse.
    core = make_core(sanitize=False)
    pipe = TPipe(core)
    q = TQueBind(QuePosition.VECIN, QuePosition.VECOUT, 1)
    pipe.InitBuffer(q, 1, 256)
    t = q.AllocTensor(np.float32)
    q.EnQue(t)
    for _ in range(3):  # VECIN -> compute -> VECOUT -> ...: each hop a DeQue and an EnQue
        t = q.DeQue(np.float32)
        q.EnQue(t)
    with pytest.raises(Exception, match="state 'queued'"):
        q.EnQue(t)  # queued twice without a DeQue
    t = q.DeQue(np.float32)
    q.FreeTensor(t)
    with pytest.raises(Exception, match="state 'free'"):
        q.EnQue(t)
