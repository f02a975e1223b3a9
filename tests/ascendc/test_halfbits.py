"""The branch-free half conversions give numpy's results bit for bit."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc.halfbits import float32_to_half, half_to_float32

ALL_HALVES = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)


def test_half_to_float32_every_pattern():
    got = half_to_float32(ALL_HALVES).view(np.uint32)
    np.testing.assert_array_equal(got, ALL_HALVES.astype(np.float32).view(np.uint32))


def _numpy_half(f: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return f.astype(np.float16).view(np.uint16)


def test_float32_to_half_around_every_half_and_midpoint():
    # Each half value, the float32 patterns just around it and around the midpoints to its
    # neighbours (ties), both signs, including subnormals, 65504..inf and NaNs.
    centers = ALL_HALVES[:0x7C01].astype(np.float32).view(np.uint32).astype(np.int64)
    mids = ((centers[:-1] + centers[1:]) // 2)
    offsets = np.array([-2, -1, 0, 1, 2])
    pats = np.concatenate([(centers[:, None] + offsets).ravel(), (mids[:, None] + offsets).ravel(),
                           np.arange(0x7F800000, 0x7F800000 + 4096), np.arange(0x7FFFF000, 0x80000000)])
    pats = np.clip(pats, 0, 0x7FFFFFFF).astype(np.uint32)
    pats = np.concatenate([pats, pats | np.uint32(0x80000000)])
    f = pats.view(np.float32)
    np.testing.assert_array_equal(float32_to_half(f).view(np.uint16), _numpy_half(f))


def test_float32_to_half_random_patterns():
    u = np.random.default_rng(0).integers(0, 2 ** 32, 1 << 21, dtype=np.uint64).astype(np.uint32)
    f = u.view(np.float32)
    np.testing.assert_array_equal(float32_to_half(f).view(np.uint16), _numpy_half(f))


def test_into_out_arrays():
    f = np.array([0.1, -2.5, 65520.0, 1e-7], dtype=np.float32)
    out = np.empty(4, dtype=np.float16)
    assert float32_to_half(f, out) is out
    back = np.empty(4, dtype=np.float32)
    assert half_to_float32(out, back) is back
    want = _numpy_half(f).view(np.float16).astype(np.float32)
    np.testing.assert_array_equal(back.view(np.uint32), want.view(np.uint32))
