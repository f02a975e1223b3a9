"""What the ThresholdV2 kernels compute, as numpy functions on whole arrays (docs/threshold-v2.md §6).

Kernel models take x and the scalars already converted to the tensor dtype (the host's job,
scalar_to_tensor.py) and return a fresh array of x's dtype:

  threshold_v2_arch35   the Ascend950 DAG: y = x <= t ? value : x, compared in x's own type
                        (bfloat16 widened exactly to float32). NaN x -> x, NaN t -> x everywhere.
  threshold_v2_910b     the Ascend910B built-in TBE kernel: the same rule, but int8 / uint8 /
                        int32 / bfloat16 travel through float32 (int32 beyond 2**24 rounds, and
                        back saturating); float16 / float32 / int64 natively. No int16 kernel.

`aclnn_threshold` is the whole aclnnThreshold computation for a SoC family (int16 through int32
on 910B, scalar conversion, the kernel, the cast back), which the public API's ascend semantics
compute without a device."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import bfloat16

from .scalar_to_tensor import convert_scalar

_F32, _I16, _I32 = np.dtype(np.float32), np.dtype(np.int16), np.dtype(np.int32)
_VIA_FLOAT32_910B = frozenset((np.dtype(np.int8), np.dtype(np.uint8), _I32, bfloat16))
_INT32_MAX = np.float64(2**31 - 1)


def _as_scalar(v, dtype: np.dtype):
    return np.asarray(v).reshape(-1)[0].astype(dtype) if np.ndim(v) else np.asarray(v, dtype)[()]


_HALVES = frozenset((np.dtype(np.float16), bfloat16))


def _compare_le(x: np.ndarray, t) -> np.ndarray:
    if x.dtype in _HALVES:  # widening to float32 is exact (and numpy compares float32 faster)
        return x.astype(_F32) <= np.asarray(t).astype(_F32)
    return x <= t


def threshold_v2_arch35(x: np.ndarray, threshold, value=None) -> np.ndarray:
    """The arch35 DAG (value None: the no-value variant, value 0). Bits of x and value are kept
    (bfloat16 goes through float32 and back exactly, NaN payloads included)."""
    x = np.asarray(x)
    t = _as_scalar(threshold, x.dtype)
    v = np.zeros((), x.dtype) if value is None else _as_scalar(value, x.dtype)
    return np.where(_compare_le(x, t), v, x).astype(x.dtype, copy=False)


def threshold_v2_910b(x: np.ndarray, threshold, value=None) -> np.ndarray:
    """The 910B TBE kernel on the dtypes it has (int16 is refused: aclnn casts it to int32 first)."""
    x = np.asarray(x)
    if x.dtype == _I16:
        raise TypeError("the Ascend910B ThresholdV2 kernel has no int16 (aclnnThreshold casts to int32)")
    t = _as_scalar(threshold, x.dtype)
    v = np.zeros((), x.dtype) if value is None else _as_scalar(value, x.dtype)
    if x.dtype not in _VIA_FLOAT32_910B:
        return np.where(_compare_le(x, t), v, x).astype(x.dtype, copy=False)
    xf, tf, vf = x.astype(_F32), np.asarray(t).astype(_F32), np.asarray(v).astype(_F32)
    mask = xf <= tf
    if x.dtype != _I32:  # int8 / uint8 / bfloat16 are exact in float32: the round trip keeps values
        return np.where(mask, v, x).astype(x.dtype, copy=False)
    r = np.where(mask, vf, xf).astype(np.float64)  # integral; 2**31 saturates on the way back
    return np.minimum(r, _INT32_MAX).astype(_I32)


def aclnn_threshold(x: np.ndarray, threshold, value, family: str) -> np.ndarray:
    """aclnnThreshold on a SoC family ("ascend910b" / "ascend950"), x's dtype in and out."""
    x = np.asarray(x)
    if family == "ascend950":
        return threshold_v2_arch35(x, convert_scalar(threshold, x.dtype), convert_scalar(value, x.dtype))
    if family != "ascend910b":
        raise ValueError(f"unknown SoC family {family!r}")
    if x.dtype == _I16:  # l0 Cast int16 -> int32, the kernel, l0 Cast back (wrapping)
        y = threshold_v2_910b(x.astype(_I32), convert_scalar(threshold, _I32), convert_scalar(value, _I32))
        return y.astype(_I16)
    return threshold_v2_910b(x, convert_scalar(threshold, x.dtype), convert_scalar(value, x.dtype))
