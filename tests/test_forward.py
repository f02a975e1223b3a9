"""opsnn.threshold (the forward) against torch.nn.functional.threshold, bit for bit."""
from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

import opsnn

torch = pytest.importorskip("torch")
F = torch.nn.functional

BF16 = np.dtype(ml_dtypes.bfloat16)
DTYPES = [np.dtype(d) for d in (np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32,
                                np.float64)] + [BF16]


def to_torch(a):
    a = np.array(a, order="C", copy=True)
    return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16) if a.dtype == BF16 else torch.from_numpy(a)


def to_numpy(t):
    return t.view(torch.int16).numpy().view(BF16) if t.dtype == torch.bfloat16 else t.numpy()


def sample(dtype, n=500, seed=0):
    rng = np.random.default_rng(seed)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -300), min(info.max, 300), n, endpoint=True).astype(dtype)
    with np.errstate(over="ignore"):
        v = np.concatenate([[0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, 65504, 1e30, 1.0, 2.0],
                            rng.standard_normal(n - 10) * 3]).astype(dtype)
    return v


@pytest.mark.parametrize("backend", ["fast", "reference"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_threshold_matches_torch(dtype, backend):
    x = sample(dtype)
    cases = [(1.0, 0.0), (0.5, -2.5), (-1.7, 1.7), (2, 7), (0.1, 1e5), (0.1, 65504.5), (0.1, 65520.0),
             (0.0, math.nan), (0.0, math.inf), (1.0, -1), (1.0, -255), (1.0, -256), (1.0, 255.5), (1.0, 1e39),
             (math.nan, 3.0), (200, 1), (1.0, 0.1 + 2**-30), (1.0, 1 / 3), (True, False), (1.0, 2**63)]
    for t, v in cases:
        try:
            expected = to_numpy(F.threshold(to_torch(x), t, v))
        except (RuntimeError, OverflowError):
            with pytest.raises(ValueError):  # torch refuses the scalar: so do we
                opsnn.threshold(x, t, v, backend=backend)
            continue
        ours = opsnn.threshold(x, t, v, backend=backend)
        assert ours.dtype == expected.dtype
        a, b = ours.view(f"u{dtype.itemsize}"), expected.view(f"u{dtype.itemsize}")
        if dtype in (np.float16, BF16):  # torch's vector path rewrites NaN payloads of halves
            nan = np.isnan(ours.astype(np.float32)) & np.isnan(expected.astype(np.float32))
            a, b = np.where(nan, 0, a), np.where(nan, 0, b)
        np.testing.assert_array_equal(a, b, err_msg=f"threshold={t!r} value={v!r}")


def test_threshold_large_strided_and_out():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1000, 700)).astype(np.float32)
    view = x[::-1, ::3]
    expected = to_numpy(F.threshold(to_torch(view), 0.3, -4.0))
    out = np.empty_like(view)
    assert opsnn.threshold(view, 0.3, -4.0, out=out) is out
    np.testing.assert_array_equal(out.view(np.uint32), expected.view(np.uint32))
    inplace = x.copy()
    opsnn.threshold(inplace, 0.3, -4.0, out=inplace)
    expected = to_numpy(F.threshold(to_torch(x), 0.3, -4.0))
    np.testing.assert_array_equal(inplace.view(np.uint32), expected.view(np.uint32))


def test_threshold_refuses_like_torch():
    for bad in (np.ones(3, bool), np.ones(3, np.complex64), np.ones(3, np.uint16)):
        with pytest.raises(TypeError):
            opsnn.threshold(bad, 0.5, 0.0)
    with pytest.raises(TypeError):
        opsnn.threshold(np.ones(3), 0.5, 1j)
    with pytest.raises(ValueError):
        opsnn.threshold(np.ones(3), 0.5, 0.0, backend="emulator")


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_signed_zero_values_are_not_confused_by_the_selection_memo(backend):
    # 0.0 == -0.0, so a memo keyed on values would hand one call the other's fill.
    x = np.array([0.5, 2.0], np.float32)
    for value, bits in ((-0.0, 0x80000000), (0.0, 0), (-0.0, 0x80000000)):
        out = opsnn.threshold(x, 1.0, value, backend=backend)
        assert out.view(np.uint32).tolist() == [bits, 0x40000000]


def test_threshold_memo_distinguishes_semantics_and_dtypes():
    g = np.array([3, 4], np.int32)
    f = np.array([1, 2], np.int32)
    for _ in range(2):
        assert opsnn.threshold_backward(g, f, 1.5).tolist() == [0, 4]
        assert opsnn.threshold_backward(g, f, 1.5, semantics="ascend910b").tolist() == [0, 4]
        assert opsnn.threshold_backward(g.astype(np.int8), f.astype(np.int8), 0.9).tolist() == [3, 4]
