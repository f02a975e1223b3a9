"""semantics="torch" against torch.ops.aten.threshold_backward (CPU eager), bit for bit."""
from __future__ import annotations

import itertools
import math

import ml_dtypes
import numpy as np
import pytest

import opsnn

torch = pytest.importorskip("torch")

BF16 = np.dtype(ml_dtypes.bfloat16)
TORCH_OF = {np.dtype(np.bool_): torch.bool, np.dtype(np.uint8): torch.uint8, np.dtype(np.int8): torch.int8,
            np.dtype(np.int16): torch.int16, np.dtype(np.int32): torch.int32, np.dtype(np.int64): torch.int64,
            np.dtype(np.float16): torch.float16, BF16: torch.bfloat16, np.dtype(np.float32): torch.float32,
            np.dtype(np.float64): torch.float64}
DTYPES = list(TORCH_OF)
BACKENDS = ("fast", "reference")


def to_torch(a: np.ndarray):
    a = np.array(a, order="C", copy=True)  # np.ascontiguousarray would make 0-d arrays 1-d
    if a.dtype == BF16:
        return torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(a.copy())


def to_numpy(t) -> np.ndarray:
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(BF16)
    return t.numpy()


def torch_result(grad, feature, threshold):
    """torch's answer, or the exception type it raised."""
    if isinstance(threshold, np.generic):  # the aten op takes no numpy scalars; we take them as .item()
        threshold = threshold.item()
    try:
        return to_numpy(torch.ops.aten.threshold_backward(to_torch(grad), to_torch(feature), threshold))
    except (RuntimeError, NotImplementedError, OverflowError, TypeError) as e:
        return e


def assert_bits_equal(ours: np.ndarray, theirs: np.ndarray, *, reduced_nan_grads=None):
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    u = f"u{ours.dtype.itemsize}" if ours.dtype != np.bool_ else "u1"
    a, b = ours.view(u).copy(), theirs.view(u).copy()
    if reduced_nan_grads is not None:
        # torch's vectorised float16/bfloat16 path rewrites NaN payloads (bf16: 0xffff, f16: quieted);
        # there, only NaN-ness must agree
        nan = np.isnan(ours.astype(np.float32)) & np.isnan(theirs.astype(np.float32))
        a[nan] = b[nan] = 0
    np.testing.assert_array_equal(a, b)


def check(grad, feature, threshold, backend="fast", **kw):
    grad, feature = np.asarray(grad), np.asarray(feature)
    expected = torch_result(grad, feature, threshold)
    if isinstance(expected, Exception):
        error = TypeError if isinstance(expected, NotImplementedError) else ValueError
        with pytest.raises(error):
            opsnn.threshold_backward(grad, feature, threshold, backend=backend)
        return expected
    ours = opsnn.threshold_backward(grad, feature, threshold, backend=backend)
    reduced = expected.dtype in (np.float16, BF16)
    assert_bits_equal(ours, expected, reduced_nan_grads=reduced or None)
    return expected


SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.0, -2.5, math.inf, -math.inf, math.nan, 1e-45, -1e-45,
            1e-40, 6e-8, 65504.0, 1e30, -1e30, 3.0, 127.0, -128.0, 255.0]


def special_array(dtype: np.dtype, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        edges = np.array([info.min, info.min + 1, -1, 0, 1, 2, info.max - 1, info.max], np.int64)
        vals = np.concatenate([edges, rng.integers(-300, 300, n)])
        return vals.clip(info.min, info.max).astype(dtype)[rng.permutation(n + len(edges))][:n]
    with np.errstate(over="ignore"):
        vals = np.concatenate([np.array(SPECIALS), rng.standard_normal(n) * 3]).astype(dtype)
    return vals[rng.permutation(len(vals))][:n]


@pytest.mark.parametrize("gd, fd", list(itertools.product(DTYPES, DTYPES)),
                         ids=lambda d: str(d))
def test_every_dtype_pair(gd, fd):
    """Promotion, rule and special values for every real dtype pair (both ranks of promotion)."""
    grad, feature = special_array(gd, 300, 1), special_array(fd, 300, 2)
    for t in (1.0, 0.5, -0.0, 2, -1.7):
        check(grad, feature, t)
    # a 0-d operand only lifts the category (torch's zero-dim rule)
    check(grad, feature[:1].reshape(()), 0.5)
    check(grad[:1].reshape(()), feature, 0.5)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != np.bool_], ids=str)
def test_threshold_values(dtype, backend):
    """Thresholds at and beyond the dtype's range, NaN/inf, rounding and truncation."""
    grad, feature = special_array(dtype, 400, 3), special_array(dtype, 400, 4)
    thresholds = [0, 1, -1, 1.7, -1.7, 0.5, -0.5, 127, 127.5, 128, -128, -128.5, -129, 255, 255.5, 256, -255,
                  -256, 2**31 - 1, 2.0**31 - 1, 2**31, -(2**31), -(2.0**31) - 1, 2**63 - 1, 2**63, 2.0**63,
                  -(2**63), 2**64, -(2**63) - 1, math.nan, math.inf, -math.inf, 1e-40, 65504.0, 65504.5, 65520.0,
                  3.4028235e38, 3.5e38, -3.5e38, 1e300, 1.0000001, 0.99999999, True, False,
                  np.float32(0.1), np.int64(5), np.float16(2.5)]
    for t in thresholds:
        check(grad, feature, t, backend)


def test_threshold_rounding_float32_and_halves():
    """float32 inputs compare against float32(t); halves compare in float32, not against half(t)."""
    f32 = np.array([1.0, np.nextafter(np.float32(1), np.float32(2))], np.float32)
    check(np.ones(2, np.float32), f32, 0.99999999)          # rounds to 1.0 in float32
    check(np.ones(2, np.float32), f32, 1.00000005)
    f16 = np.array([1.0, 1.0009766], np.float16)
    check(np.ones(2, np.float16), f16, 1.0004)               # not rounded to half
    check(np.ones(2, np.float64), np.array([1.0, 1.0 + 2**-52]), 1.0 + 2**-53)


@pytest.mark.parametrize("backend", BACKENDS)
def test_broadcasting_and_layouts(backend):
    rng = np.random.default_rng(5)
    g = rng.standard_normal((3, 1, 5, 4)).astype(np.float32)
    f = rng.standard_normal((6, 1, 4)).astype(np.float16)
    check(g, f, 0.1, backend)
    check(g[..., ::-1], f[::-2], -0.2, backend)                      # negative strides
    big = rng.standard_normal((70, 300)).astype(np.float32)
    check(big[:, ::3], big.T[:100, :70].T, 0.0, backend)           # non-contiguous
    check(big, big[:1], 0.3, backend)                              # row broadcast
    check(big, big[:, :1], 0.3, backend)                           # column broadcast
    check(big.astype(BF16), np.float32(0.5), 0.1, backend)         # scalar-like feature (0-d)
    check(np.zeros((3, 0, 2)), np.zeros((2,)), 0.1, backend)       # empty
    err = torch_result(np.ones(3), np.ones(4), 0.5)
    assert isinstance(err, RuntimeError)
    with pytest.raises(ValueError):
        opsnn.threshold_backward(np.ones(3), np.ones(4), 0.5, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_rank_0_and_8(backend):
    rng = np.random.default_rng(6)
    check(np.float32(2.0), np.float32(3.0), 2.5, backend)
    check(np.array(-3, np.int8), np.array(7, np.int8), 6, backend)
    shape = (2, 1, 2, 3, 1, 2, 2, 3)
    g = rng.standard_normal(shape).astype(np.float64)
    f = rng.standard_normal(shape[3:]).astype(np.float32)
    check(g, f, 0.0, backend)
    check(rng.integers(-9, 9, (2,) * 9).astype(np.int16), np.int16(3), 1, backend)  # rank 9 is fine for torch


def test_large_tiled_and_threaded():
    """Sizes that take the threaded flat path and the staged block path."""
    rng = np.random.default_rng(7)
    n = 600_000
    for dt in (np.float32, np.float16, BF16, np.int32, np.uint8):
        dt = np.dtype(dt)
        f = special_array(dt, n, 8)
        g = special_array(dt, n, 9)
        check(g, f, 1.0)
        check(g.reshape(600, 1000)[:, ::2], f.reshape(600, 1000)[::-1, 1::2], 0.5)
    check(rng.standard_normal(n).astype(np.float32), rng.standard_normal(n), 0.25)  # promotion, staged


@pytest.mark.parametrize("bad", [np.ones(3, np.complex64), np.ones(3, np.longdouble), np.array(["a", "b", "c"])])
def test_refused_dtypes(bad):
    with pytest.raises(TypeError):
        opsnn.threshold_backward(bad, np.ones(3, np.float32), 1.0)
    with pytest.raises(TypeError):
        opsnn.threshold_backward(np.ones(3, np.float32), bad, 1.0)


@pytest.mark.parametrize("unsigned", [np.uint16, np.uint32, np.uint64])
def test_wide_unsigned_promote_only_with_floats(unsigned):
    """torch promotes uint16/32/64 with a floating type (to it) and refuses them with an integer
    or alone (issue 27; tests/test_torch_semantics_bits.py compares the bits with torch)."""
    u = np.ones(3, unsigned)
    assert opsnn.threshold_backward(u, np.ones(3, np.float32), 0.5).dtype == np.float32
    for other in (np.ones(3, np.int32), np.ones(3, np.uint8), u):
        with pytest.raises(TypeError):
            opsnn.threshold_backward(u, other, 1.0)


def test_bool_pair_and_complex_threshold_refused():
    assert isinstance(torch_result(np.ones(2, bool), np.ones(2, bool), 0.5), NotImplementedError)
    with pytest.raises(TypeError):
        opsnn.threshold_backward(np.ones(2, bool), np.ones(2, bool), 0.5)
    with pytest.raises(TypeError):
        opsnn.threshold_backward(np.ones(2), np.ones(2), 1j)
    with pytest.raises(TypeError):
        opsnn.threshold_backward(np.ones(2), np.ones(2), "1")


def test_python_scalars_follow_np_asarray():
    """torch takes no Python scalars for the tensors; we take them as np.asarray does (0-d arrays)."""
    out = opsnn.threshold_backward([1.0, 2.0], 3, 2)
    assert out.dtype == np.float64 and out.tolist() == [1.0, 2.0]
    out = opsnn.threshold_backward(np.array([1, 2], np.int8), 3.0, 2)  # 0-d float64 lifts to float64
    assert out.dtype == np.float64
