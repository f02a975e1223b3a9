"""backend="emulator", semantics="ascend950" runs the arch35 kernels (ThresholdGradV2D, and
ReluGrad at |t| <= FLT_EPSILON) through aclnnThresholdBackward, and agrees bit for bit with the
fast path; the inputs reach the kernel un-broadcast."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from opsnn import aclnn

from .aclnn_harness import bits
from .expectations import DTYPES, make

SHAPES = [((257,), (257,)), ((4, 1, 33), (5, 1)), ((1,), (3, 70)), ((), (6,)), ((), ()), ((2, 3, 1, 5), (3, 4, 1)),
          ((1024, 64), (1024, 1))]
THRESHOLDS = (1.0, 0.0, 1e-8, -2.5, float("nan"), 65504.0)


def _pair(dtype, g_shape, f_shape, t, seed):
    rng = np.random.default_rng(seed)
    with np.errstate(over="ignore"):
        g = make(dtype, max(1, int(np.prod(g_shape))), t, rng).reshape(g_shape)
        f = make(dtype, max(1, int(np.prod(f_shape))), t, rng).reshape(f_shape)
    return g, f


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize(("g_shape", "f_shape"), SHAPES, ids=[f"{a}-{b}" for a, b in SHAPES])
def test_emulator_agrees_with_fast(dtype, g_shape, f_shape):
    for i, t in enumerate(THRESHOLDS):
        g, f = _pair(dtype, g_shape, f_shape, t, i)
        fast = opsnn.threshold_backward(g, f, t, semantics="ascend950")
        emulated = opsnn.threshold_backward(g, f, t, semantics="ascend950", backend="emulator")
        assert emulated.shape == fast.shape and emulated.dtype == fast.dtype
        np.testing.assert_array_equal(bits(emulated), bits(fast))


@pytest.mark.parametrize(("g_shape", "f_shape"), SHAPES[:4])
def test_int64_through_relu_grad(g_shape, f_shape):
    rng = np.random.default_rng(0)
    g = rng.integers(-2**62, 2**62, max(1, int(np.prod(g_shape)))).reshape(g_shape)
    f = rng.integers(-3, 3, max(1, int(np.prod(f_shape)))).reshape(f_shape)
    for t in (0.0, -1e-7):
        fast = opsnn.threshold_backward(g, f, t, semantics="ascend950")
        np.testing.assert_array_equal(opsnn.threshold_backward(g, f, t, semantics="ascend950", backend="emulator"),
                                      fast)


@pytest.mark.parametrize(("t", "op"), [(1.0, "ThresholdGradV2D"), (0.0, "ReluGrad")])
def test_no_broadcast_copies_on_950(dev950, t, op):
    g = dev950.tensor(np.ones((4, 1, 8), np.float32))
    f = dev950.tensor(np.ones((3, 1), np.float32))
    out = dev950.tensor(np.zeros((4, 3, 8), np.float32))
    ws, executor, ret = aclnn.threshold_backward_get_workspace_size(g, f, dev950.scalar(t), out)
    assert ret == 0
    names = [s.name for s in executor.steps]
    assert op in names and not any("BroadcastTo" in n for n in names)
    launch = next(s for s in executor.steps if s.name == op)
    assert [t.shape for _, t in launch.args] == [(4, 1, 8), (3, 1), (4, 3, 8)]
    assert launch.padding == {}  # exact copies: nothing past a tensor
    assert aclnn.threshold_backward(dev950.malloc(ws), ws, executor, dev950.stream) == 0
    assert dev950.runtime.synchronize_stream(dev950.stream) == 0
