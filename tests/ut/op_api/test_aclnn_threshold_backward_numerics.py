"""aclnnThresholdBackward end to end (acl runtime, two phases, kernel or model), bit for bit
against numpy statements of spec §6/§9 written here, independently of opsnn's models."""
import ml_dtypes
import numpy as np
import pytest

from opsnn import aclnn

from .aclnn_harness import bits

BF16 = np.dtype(ml_dtypes.bfloat16)
F32 = np.float32
DTYPES = [np.dtype(d) for d in (np.float32, np.float16, BF16, np.int32, np.int8, np.uint8)]
THRESHOLDS = [1.0, 0.0, 0.3, -2.5]  # 0.3 rounds *up* in half: tells a half compare from a float one
SIZES = [111, 21003]  # one core; many cores with big/small cores and a tail tile


def neighbours(value: np.ndarray) -> list:
    """value and the next representable values below and above it, in its own dtype."""
    u = {1: np.uint8, 2: np.uint16, 4: np.uint32}[value.itemsize]
    b = value.reshape(1).view(u)
    return [value.reshape(1), (b + u(1)).view(value.dtype), (b - u(1)).view(value.dtype)]


def make(dtype: np.dtype, n: int, t: float, rng) -> np.ndarray:
    if dtype.kind == "f" or dtype == BF16:
        specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 65504.0, 1e-8, -1e-8]
        pool = np.array(specials, F32).astype(dtype)
        near = np.concatenate(neighbours(np.asarray(t, F32).astype(dtype))) if t != 0 else pool[:1]
        body = (rng.standard_normal(n) * 3).astype(F32).astype(dtype)
    else:
        info = np.iinfo(dtype)
        body = rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)
        small = rng.integers(max(info.min, -4), 5, n).astype(dtype)
        body = np.where(rng.random(n) < 0.5, small, body)
        extra = [0, 1, 2, info.max, info.min]
        if dtype == np.int32:
            extra += [2**24 + 1, -(2**24 + 1), 2**31 - 1, -(2**31), 2**31 - 65, 123456789]
        pool = np.array(extra, dtype)
        near = pool[:1]
    k = min(n, pool.size + near.size)
    body[:k] = np.concatenate([pool, near])[:k]
    return body


def trunc_saturate_int32(x32: np.ndarray) -> np.ndarray:
    w = np.trunc(x32.astype(np.float64))
    return np.clip(np.where(np.isnan(w), 0, w), -(2**31), 2**31 - 1).astype(np.int32)


def expected_910b(g: np.ndarray, f: np.ndarray, t: float) -> np.ndarray:
    t32 = F32(t)
    if abs(t32) <= np.finfo(F32).eps:  # ReluGrad: a multiply
        if g.dtype.kind in "iu":
            return g * (f > 0).astype(g.dtype)
        with np.errstate(invalid="ignore"):
            return (g.astype(F32) * (f > 0).astype(F32)).astype(g.dtype)
    zero = np.zeros((), g.dtype)
    if g.dtype == np.float32:
        return np.where(f > t32, g, zero)
    if g.dtype == np.float16:
        return np.where(f > np.float16(t32), g, zero)
    if g.dtype == BF16:
        return np.where(f.astype(F32) > t32, g.astype(F32), F32(0)).astype(BF16)
    if g.dtype == np.int32:
        return trunc_saturate_int32(np.where(f.astype(F32) > t32, g.astype(F32), F32(0)))
    return np.where(f.astype(np.float16).astype(F32) > t32, g, zero)  # int8 / uint8


def expected_950(g: np.ndarray, f: np.ndarray, t: float) -> np.ndarray:
    t32 = F32(t)
    if abs(t32) <= np.finfo(F32).eps:
        return expected_910b(g, f, t)
    f32 = f.astype(np.float16).astype(F32) if g.dtype.itemsize == 1 else f.astype(F32)
    passed = trunc_saturate_int32(g.astype(F32)) if g.dtype == np.int32 else g
    return np.where(f32 <= t32, np.zeros((), g.dtype), passed)  # NaN feature: the comparison is false


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
    g = np.array([-3.0, np.inf, np.nan, 2.0, -np.inf], F32)
    f = np.array([-1.0, 0.0, -2.0, np.nan, 1.0], F32)
    out = run(dev, g, f, 0.0)
    assert bits(out[:1])[0] == bits(np.array([-0.0], F32))[0]  # -3 * 0 = -0.0
    assert np.isnan(out[1]) and np.isnan(out[2]) and out[3] == 0 and out[4] == -np.inf


def test_the_reference_example(dev):
    g = np.array([[4.5, 4.4], [4.3, 4.2]], F32)
    f = np.array([[0.2, 1.2], [2.2, 3.2]], F32)
    np.testing.assert_array_equal(run(dev, g, f, 1.0), np.array([[0, 4.4], [4.3, 4.2]], F32))
