"""ReluGrad's rule as plain numpy, stated once (the emulated kernels and the reference backend
use it): out = grad * (feature > 0), TensorFlow's multiply, in the dtype's own arithmetic.

An inf or NaN grad where feature <= 0 (or is NaN) gives NaN, a negative float grad there gives
-0.0; integers are exact (int64 included). Written on the bit patterns so that it does not depend
on the host CPU (IEEE leaves the sign of inf*0's NaN to the implementation): a masked inf/NaN
becomes the grad's own bits with the quiet bit set (sign and payload kept, as a NaN operand of a
multiply is), and a kept grad is its own bits (x*1 = x) except that a signalling NaN comes out
quiet (IEEE 754: arithmetic on a signalling NaN delivers it quieted; docs/nan-payloads.md)."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import float_layout


def relu_grad(grad: np.ndarray, feature: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # NaN > 0 is false (ml_dtypes < 0.7 warns on bfloat16 NaN)
        positive = feature > 0
    if grad.dtype.kind in "iu":
        return np.where(positive, grad, np.zeros((), grad.dtype))  # grad * 1 or grad * 0, exactly
    layout = float_layout(grad.dtype)
    u = layout.uint.type
    bits = grad.view(layout.uint)
    quieted = bits | u(layout.quiet)
    non_finite = (bits & u(layout.exponent)) == layout.exponent
    times_zero = np.where(non_finite, quieted, bits & u(layout.sign))  # NaN or +-0
    nan = (bits & u(layout.sign - 1)) > layout.exponent
    times_one = np.where(nan, quieted, bits)
    return np.where(positive, times_one, times_zero).astype(layout.uint).view(grad.dtype)
