"""aclnnThresholdBackward end to end (acl runtime, two phases, kernel or model), bit for bit
against the numpy statements of docs/threshold-grad-v2d.md §6/§9 in expectations.py (independent of opsnn's models)."""
import numpy as np
import pytest

from opsnn import aclnn

from .aclnn_harness import bits
from .expectations import DTYPES, expected_910b, expected_950, make

F32 = np.float32
THRESHOLDS = [1.0, 0.0, 0.3, -2.5]  # 0.3 rounds *up* in half: tells a half compare from a float one
SIZES = [111, 21003]  # one core; many cores with big/small cores and a tail tile


def run(dev, g, f, t):
    out = dev.empty(g.shape, g.dtype, fill=7)
    assert dev.threshold_backward(dev.tensor(g), dev.tensor(f), dev.scalar(t), out) == aclnn.ACLNN_SUCCESS, \
        aclnn.get_recent_err_msg()
    return dev.read(out)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("t", THRESHOLDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_ascend910b(dev, dtype, t, n):
    rng = np.random.default_rng([n, int(t * 10) & 0xFF, dtype.num])
    g, f = make(dtype, n, t, rng), make(dtype, n, t, rng)
    np.testing.assert_array_equal(bits(run(dev, g, f, t)), bits(expected_910b(g, f, t)))


@pytest.mark.parametrize("t", THRESHOLDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_ascend950(dev950, dtype, t):
    rng = np.random.default_rng([7, int(t * 10) & 0xFF, dtype.num])
    g, f = make(dtype, 2000, t, rng), make(dtype, 2000, t, rng)
    np.testing.assert_array_equal(bits(run(dev950, g, f, t)), bits(expected_950(g, f, t)))


def test_ascend950_int64_relu_is_exact(dev950):
    g = np.array([2**62 + 1, -(2**63), 5, -7, 2**53 + 1], np.int64)
    f = np.array([1, 2**40, 0, -1, 3], np.int64)
    np.testing.assert_array_equal(run(dev950, g, f, 0.0), [2**62 + 1, -(2**63), 0, 0, 2**53 + 1])


def test_semantics_differ_on_nan_feature(dev, dev950):
    g = np.array([5.0, 5.0, -5.0], F32)
    f = np.array([np.nan, 0.5, 2.0], F32)
    np.testing.assert_array_equal(run(dev, g, f, 1.0), [0.0, 0.0, -5.0])
    np.testing.assert_array_equal(run(dev950, g, f, 1.0), [5.0, 0.0, -5.0])


def test_relu_grad_signs_and_nan(dev):
    g = np.array([-3.0, np.inf, -np.inf, np.nan, 2.0, -np.inf, 5.0], F32)
    f = np.array([-1.0, 0.0, -2.0, -1.0, np.nan, 1.0, -0.0], F32)
    got = bits(run(dev, g, f, 0.0))
    want = [0x80000000,  # -3 * 0 = -0.0
            0x7FC00000, 0xFFC00000,  # ±inf * 0: NaN with the grad's sign, whatever the host CPU does
            0x7FC00000,  # NaN * 0: the NaN itself
            0x00000000,  # NaN feature is not > 0
            0xFF800000,  # kept: -inf
            0x00000000]
    np.testing.assert_array_equal(got, np.array(want, np.uint32))


def test_the_reference_example(dev):
    g = np.array([[4.5, 4.4], [4.3, 4.2]], F32)
    f = np.array([[0.2, 1.2], [2.2, 3.2]], F32)
    np.testing.assert_array_equal(run(dev, g, f, 1.0), np.array([[0, 4.4], [4.3, 4.2]], F32))
