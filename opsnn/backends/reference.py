"""The oracle: each semantics as its plain numpy formula, on whole (broadcast) arrays.

Readable over fast. Results are fresh arrays of plan.shape and plan.dtype.
"""
from __future__ import annotations

import numpy as np

from opsnn.backends.plan import Plan
from opsnn.dtypes import bfloat16

_F32 = np.dtype(np.float32)
_I32 = np.dtype(np.int32)
_INT32_MAX = np.float64(2**31 - 1)
_HALVES = (np.dtype(np.float16), bfloat16)


def threshold_backward(grad: np.ndarray, feature: np.ndarray, plan: Plan) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):  # torch's promotion casts overflow to inf too
        g, f = np.broadcast_arrays(np.asarray(grad, plan.dtype), np.asarray(feature, plan.dtype))
    if plan.semantics == "torch":
        return torch_rule(g, f, plan.threshold, np.zeros((), plan.dtype))
    if plan.relu:
        return _relu_grad(g, f)
    keep = _ascend_keep(f, plan.threshold, plan.semantics)
    return np.where(keep, _grad_through_float32(g), np.zeros((), plan.dtype))


def threshold(x: np.ndarray, plan: Plan) -> np.ndarray:
    return torch_rule(np.asarray(x), np.asarray(x), plan.threshold, plan.fill)


def torch_rule(g, f, t, fill):
    """torch: feature <= t -> fill, else grad (NaN feature keeps grad); halves compared in float32."""
    if f.dtype in _HALVES:
        f = f.astype(_F32)
    return np.where(f <= t, fill, g).astype(g.dtype, copy=False)


def _ascend_keep(f, t32: np.float32, semantics: str):
    """The kernels' comparison (spec §6 / §9) as a boolean mask of grads kept."""
    if semantics == "ascend910b":
        if f.dtype == np.float16:
            with np.errstate(over="ignore"):  # beyond 65504 the threshold rounds to inf
                return f > np.float16(t32)    # compared in half against the rounded threshold
        return f.astype(_F32) > t32     # float32, or exact / RNE conversions to it
    return ~(f.astype(_F32) <= t32)     # ascend950: NaN features keep grad


def _grad_through_float32(g):
    """int32 grads travel as float32 (RNE), then back truncating and saturating (2**31 -> 2**31-1)."""
    if g.dtype != _I32:
        return g
    return np.minimum(g.astype(_F32).astype(np.float64), _INT32_MAX).astype(_I32)


def _relu_grad(g, f):
    """grad * (feature > 0) in the dtype's arithmetic, bit-exact and platform independent:
    kept grads unchanged; masked finite grads -> zero with the grad's sign; masked inf/NaN -> NaN
    (the grad's bits with the quiet bit set: inf*0 and NaN*0 are NaN)."""
    keep = f > 0  # exact for every dtype here (NaN: False)
    if g.dtype.kind in "iu":
        return np.where(keep, g, np.zeros((), g.dtype))
    bits = g.view(np.dtype(f"u{g.dtype.itemsize}"))
    sign, exponent, quiet = float_layout(g.dtype)
    masked = np.where((bits & exponent) == exponent, bits | quiet, bits & sign)
    return np.where(keep, bits, masked).astype(bits.dtype).view(g.dtype)


def float_layout(dtype: np.dtype):
    """(sign mask, exponent mask, quiet-NaN bit) of a binary float type's bit pattern."""
    return _LAYOUTS[np.dtype(dtype)]


def _layout(dtype: np.dtype):
    width = dtype.itemsize * 8
    mantissa = {np.dtype(np.float16): 10, bfloat16: 7, _F32: 23, np.dtype(np.float64): 52}[np.dtype(dtype)]
    ut = np.dtype(f"u{dtype.itemsize}").type
    sign = ut(1 << (width - 1))
    exponent = ut(((1 << (width - 1 - mantissa)) - 1) << mantissa)
    return sign, exponent, ut(1 << (mantissa - 1))


_LAYOUTS = {dt: _layout(dt) for dt in (np.dtype(np.float16), bfloat16, _F32, np.dtype(np.float64))}
