"""CumSum (cumsum.py) against numpy computed the way AscendC's A2 implementation adds: one float32
addition after another along the axis, a half input widened first and rounded back (RINT) at the
end, the Adds-of-0 steps that turn -0.0 into +0.0, lastRow, and the scratch-size rule."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.ascendc import ApiContractError, CumSum, CumSumInfo, EmulatorError
from opsnn.platform import Platform

from .helpers import Ub, bits, make_core


def sequential(x: np.ndarray, axis: int) -> np.ndarray:
    """Prefix sums by hand, float32 each step."""
    acc = x.astype(np.float32)
    out = np.empty_like(acc)
    lines = np.moveaxis(acc, axis, 0)
    res = np.moveaxis(out, axis, 0)
    res[0] = lines[0]
    for k in range(1, len(lines)):
        res[k] = res[k - 1] + lines[k]
    return out


def run(x: np.ndarray, last_axis: bool, last_row: bool = False, tmp_bytes: int = 65536):
    core = make_core(platform=Platform.custom(ub_size=192 * 1024, aiv_cores=1))
    ub = Ub(core)
    t = x.dtype
    rows, inner = x.shape
    src = ub.buffer(t, x.size, x.reshape(-1))
    dst = ub.buffer(t, x.size)
    lr = ub.buffer(t, inner)
    tmp = ub.buffer(np.uint8, tmp_bytes)
    CumSum(dst, lr, src, tmp, CumSumInfo(rows, inner), last_axis, last_row)
    return core, dst.numpy(x.size).reshape(rows, inner), lr.numpy(inner)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("last_axis", [True, False])
@settings(max_examples=15, deadline=None)
@given(rows=st.integers(1, 20), blocks=st.integers(1, 4), seed=st.integers(0, 2 ** 16))
def test_prefix_sums_are_sequential_float32_additions(dtype, last_axis, rows, blocks, seed):
    t = np.dtype(dtype)
    inner = blocks * 32 // t.itemsize
    x = (np.random.default_rng(seed).standard_normal((rows, inner)) * 50).astype(t)
    core, got, _ = run(x, last_axis)
    want = sequential(x, 1 if last_axis else 0).astype(t)
    if last_axis or t == np.float32:
        want = want + t.type(0)  # the implementation's final (or first-row) Adds of 0
    if not last_axis and t == np.float32:
        want[0] = x[0] + t.type(0)
    assert np.array_equal(bits(got), bits(want))
    assert core.log.items == []


def test_negative_zero_and_last_row():
    x = np.array([[-0.0] * 8, [-0.0] * 8], np.float32)
    _, got, last = run(x, True, last_row=True)
    assert not np.signbit(got).any() and not np.signbit(last).any()  # -0 + 0 = +0 (Adds of 0)
    h = np.array([[-0.0] * 16, [1.5] * 16], np.float16)
    _, got, last = run(h, False, last_row=True)
    assert np.signbit(got[0]).all()  # half along the first axis: Cast back, no Adds, the first row keeps -0
    assert np.array_equal(last, got[1])


def test_half_rounds_once_at_the_end():
    # 2048 + 1 + 1 in half would stay 2048 step by step; in float32 then RINT it is 2050
    x = np.array([[2048, 1, 1] + [0] * 13], np.float16)
    _, got, _ = run(x, True)
    assert got[0, :3].tolist() == [2048, 2048, 2050]


def test_a_scratch_below_the_minimum_breaks_the_contract():
    x = np.ones((2, 64), np.float32)  # last axis: 16 rows x 64 x 4 bytes x 2 = 8192 bytes
    with pytest.raises(ApiContractError, match="needs 8192"):
        run(x, True, tmp_bytes=8160)
    run(x, True, tmp_bytes=8192)
    with pytest.raises(EmulatorError, match="32-byte aligned"):
        run(np.ones((2, 6), np.float32), True)
