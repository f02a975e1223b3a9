"""Functional models of the kernels opsnn does not emulate instruction by instruction.

numpy in, numpy out; inputs already share one shape (the API layer broadcast them) and one dtype.
They live here, under the lowest operator of the threshold-backward path, so that ReluGrad, the
ThresholdGradV2D l0 op and any backend can reuse them without an import cycle.

- relu_grad: ReluGrad on every SoC. TF-style multiply out = grad * (feature > 0) in the dtype's
  own arithmetic: an inf or NaN grad where feature <= 0 (or is NaN) gives NaN, a negative float
  grad there gives -0.0; integers are exact (int64 included). float16/bfloat16 multiply in
  float32 and round back, which is exact since the factor is 0 or 1. Written on the bit
  patterns so that it does not depend on the host CPU: IEEE leaves the sign of inf*0's NaN to
  the implementation (x86 gives -NaN, ARM +NaN), so here a masked inf/NaN becomes the grad's own
  bits with the quiet bit set (sign and payload kept, as a NaN operand of a multiply is), and a
  kept grad is its own bits (x*1 = x).
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


def _float_fields(dtype: np.dtype) -> tuple[np.dtype, int, int, int]:
    """(unsigned view type, sign bit, exponent mask, quiet-NaN bit) of a binary float format."""
    mantissa_bits = {np.dtype(np.float16): 10, bfloat16: 7, np.dtype(np.float32): 23,
                     np.dtype(np.float64): 52}[dtype]
    width = dtype.itemsize * 8
    exponent = ((1 << (width - 1 - mantissa_bits)) - 1) << mantissa_bits
    return np.dtype(f"u{dtype.itemsize}"), 1 << (width - 1), exponent, 1 << (mantissa_bits - 1)


def relu_grad(grad: np.ndarray, feature: np.ndarray) -> np.ndarray:
    positive = feature > 0  # NaN > 0 is false
    if grad.dtype.kind in "iu":
        return np.where(positive, grad, np.zeros((), grad.dtype))  # grad * 1 or grad * 0, exactly
    utype, sign, exponent, quiet = _float_fields(grad.dtype)
    bits = grad.view(utype)
    non_finite = (bits & utype.type(exponent)) == exponent
    times_zero = np.where(non_finite, bits | utype.type(quiet), bits & utype.type(sign))  # NaN or ±0
    return np.where(positive, bits, times_zero).astype(utype).view(grad.dtype)


def arch35_threshold_grad(grad: np.ndarray, feature: np.ndarray, threshold: float) -> np.ndarray:
    masked = features_as_float32(feature) <= np.float32(threshold)  # NaN compares false: grad passes
    return np.where(masked, np.zeros((), grad.dtype), grad_through_float32(grad))
