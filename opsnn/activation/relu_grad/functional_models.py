"""Functional models of the kernels opsnn does not emulate instruction by instruction.

numpy in, numpy out; inputs already share one shape (the API layer broadcast them) and one dtype.
They live here, under the lowest operator of the threshold-backward path, so that ReluGrad, the
ThresholdGradV2D l0 op and any backend can reuse them without an import cycle.

- relu_grad: ReluGrad on every SoC. TF-style multiply out = grad * (feature > 0) in the dtype's
  own arithmetic: an inf or NaN grad where feature <= 0 (or is NaN) gives NaN, a negative float
  grad there gives -0.0; integers are exact (int64 included). float16/bfloat16 multiply in
  float32 and round back, which is exact since the factor is 0 or 1.
- arch35_threshold_grad: ThresholdGradV2D on Ascend950 (arch35, spec §9): out = 0 (+0.0) where
  float32(feature) <= t, else grad; a NaN feature compares false, so it passes grad. Features go
  to float32 (int8/uint8 via half, exact; int32 rounding to nearest-even); t is float32. grad
  takes the float32 round trip of the 910b chain (spec §6): int32 -> float32 (nearest-even) ->
  int32 (truncating, saturating); for every other dtype the trip is exact, so grad is unchanged.
"""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import bfloat16

FLT_EPSILON = float(np.finfo(np.float32).eps)  # 1.1920929e-07
_HALF_OR_BF16 = (np.dtype(np.float16), bfloat16)


def is_relu_threshold(t: float) -> bool:
    """|t| <= FLT_EPSILON, with t taken as float32: the threshold at which ReluGrad is used."""
    return bool(abs(np.float32(t)) <= np.float32(FLT_EPSILON))


def features_as_float32(feature: np.ndarray) -> np.ndarray:
    if feature.dtype in (np.dtype(np.int8), np.dtype(np.uint8)):
        return feature.astype(np.float16).astype(np.float32)
    return feature.astype(np.float32)  # int32/int64: round to nearest-even, as the Cast does


def float32_to_int(x: np.ndarray, dtype) -> np.ndarray:
    """float32 -> integer, truncating toward zero and saturating; NaN -> 0."""
    info = np.iinfo(dtype)
    wide = np.trunc(x.astype(np.float64))
    wide = np.where(np.isnan(wide), 0.0, wide)
    return np.clip(wide, info.min, info.max).astype(dtype)


def grad_through_float32(grad: np.ndarray) -> np.ndarray:
    if grad.dtype == np.dtype(np.int32):
        return float32_to_int(grad.astype(np.float32), np.int32)
    return grad.copy()  # float32/float16/bfloat16/int8/uint8 survive the float32 trip exactly


def relu_grad(grad: np.ndarray, feature: np.ndarray) -> np.ndarray:
    positive = feature > 0  # NaN > 0 is false
    if grad.dtype.kind in "iu":
        return grad * positive.astype(grad.dtype)
    with np.errstate(invalid="ignore"):
        if grad.dtype in _HALF_OR_BF16:
            return (grad.astype(np.float32) * positive.astype(np.float32)).astype(grad.dtype)
        return grad * positive.astype(grad.dtype)


def arch35_threshold_grad(grad: np.ndarray, feature: np.ndarray, threshold: float) -> np.ndarray:
    masked = features_as_float32(feature) <= np.float32(threshold)  # NaN compares false: grad passes
    return np.where(masked, np.zeros((), grad.dtype), grad_through_float32(grad))
