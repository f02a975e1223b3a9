"""ThresholdGradV2D's rules as plain numpy, stated once: what aclnnThresholdBackward routes
where, and what each SoC's kernel computes. The emulated kernels are tested against these, and
the reference backend (the oracle of the fast path) computes with them.

numpy in, numpy out; inputs already share one shape and one dtype.

- is_relu_threshold: |t| <= FLT_EPSILON (t as float32) sends the call to ReluGrad (docs/threshold-grad-v2d.md §8.10).
- int32_through_float32: an int32 grad travels as float32 (round to nearest-even) and comes back
  truncated toward zero and saturated (2**31 -> 2**31 - 1): the Cast chain of both kernels.
- a2_threshold_grad: the Ascend910B kernel (docs/threshold-grad-v2d.md §6): grad where feature > t, else +0; a NaN
  feature compares false (0). float16 compares in half against t rounded to half; every other
  dtype compares in float32 (int8/uint8 via half, exact; int32 rounding to nearest-even).
- arch35_threshold_grad: the Ascend950 kernel (docs/threshold-grad-v2d.md §9): 0 where float32(feature) <= t, else
  grad; a NaN feature compares false, so it passes the grad.
"""
from __future__ import annotations

import numpy as np

FLT_EPSILON = float(np.finfo(np.float32).eps)  # 1.1920929e-07
_F16, _F32, _I32 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.int32)
_INT32_MAX = np.float64(2**31 - 1)


def is_relu_threshold(t: float) -> bool:
    """|t| <= FLT_EPSILON, with t taken as float32: the threshold at which ReluGrad is used."""
    with np.errstate(over="ignore"):
        return bool(abs(np.float32(t)) <= np.float32(FLT_EPSILON))


def features_as_float32(feature: np.ndarray) -> np.ndarray:
    """The feature as the kernels compare it in float32 (int8/uint8 via half: exact)."""
    return feature.astype(_F32)  # int32/int64 round to nearest-even, as the Cast does


def int32_through_float32(grad: np.ndarray) -> np.ndarray:
    """int32 -> float32 (nearest-even) -> int32 (toward zero, saturating); other dtypes unchanged."""
    if grad.dtype != _I32:
        return grad
    return np.minimum(grad.astype(_F32).astype(np.float64), _INT32_MAX).astype(_I32)


def a2_threshold_grad(grad: np.ndarray, feature: np.ndarray, threshold: float) -> np.ndarray:
    t = np.float32(threshold)
    if feature.dtype == _F16:
        with np.errstate(over="ignore"):  # beyond 65504 the threshold rounds to inf
            keep = feature > np.float16(t)
    else:
        keep = features_as_float32(feature) > t
    return np.where(keep, int32_through_float32(grad), np.zeros((), grad.dtype))


def arch35_threshold_grad(grad: np.ndarray, feature: np.ndarray, threshold: float) -> np.ndarray:
    masked = features_as_float32(feature) <= np.float32(threshold)  # NaN compares false: grad passes
    return np.where(masked, np.zeros((), grad.dtype), int32_through_float32(grad))
