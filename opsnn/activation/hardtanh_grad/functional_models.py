"""What HardtanhGrad computes, as numpy functions on whole arrays (docs/hardtanh-grad.md).

Kernel models take (result, grad) of one shape and dtype and the bounds, and return a fresh
array of that shape and dtype:

  hardtanh_grad_arch35   the Ascend950 DAG: result widened to float32 (exact), compared with the
                         float32 bounds; keep = (min < x < max) or x is NaN; y = keep ? grad : +0.
                         A select: grad's bits move unchanged (inf, NaN payloads, -0.0), and an
                         out-of-range element is +0.0 whatever grad is.
  hardtanh_grad_910b     the Ascend910B built-in TBE kernel as its public source reads: result and
                         grad widened to float32; in_range = float(x > min) * float(x < max);
                         y = x is NaN ? grad : in_range * grad; narrowed back (round to nearest
                         even). Same bounds, but out of range is 0 * grad: -0.0 for a negative
                         grad, NaN for an inf or NaN grad; a multiply, so a signalling NaN grad
                         comes out quieted even in range.

`hardtanh_backward_ascend` is aclnnHardtanhBackward on a SoC family (the scalars read as
float32 by aclScalar::ToFloat, the l0 kernel of the family). `hardtanh_backward_torch` is
torch.ops.aten.hardtanh_backward on CPU for inputs already promoted to one floating dtype."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import RoundMode
from opsnn.ascendc.cast import cast_values
from opsnn.ascendc.mul_arch35 import mul_values
from opsnn.dtypes import bfloat16
from opsnn.op_common.torch_loops import torch_threads, torch_vector_lanes, torch_vector_mask  # noqa: F401 (tests)

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_HALVES = frozenset((np.dtype(np.float16), bfloat16))
FAMILIES = ("ascend910b", "ascend950")


def _uint(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}")


def _widen(a: np.ndarray) -> np.ndarray:
    """float16 / bfloat16 / float32 to float32, exactly (the vector unit's Cast, CAST_NONE)."""
    if a.dtype == _F32:
        return a
    return cast_values(np.ascontiguousarray(a).reshape(-1), _F32, RoundMode.CAST_NONE).reshape(a.shape)


def _bound(v) -> np.float32:
    """A bound as the kernels hold it: float32 (the attr / aclScalar::ToFloat)."""
    with np.errstate(over="ignore"):
        return np.float32(v)


def _select(keep: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """keep ? grad : +0 on the bit patterns."""
    u = _uint(grad.dtype)
    return np.where(keep, grad.view(u), u.type(0)).view(grad.dtype)


def _check_pair(result: np.ndarray, grad: np.ndarray) -> None:
    if result.dtype != grad.dtype or result.shape != grad.shape:
        raise ValueError(f"HardtanhGrad takes result and grad of one shape and dtype, got "
                         f"{result.dtype}{list(result.shape)} and {grad.dtype}{list(grad.shape)}")


def keep_mask(x32: np.ndarray, min_val, max_val) -> np.ndarray:
    """(min < x < max) or isnan(x), compared in float32 against the float32 bounds."""
    lo, hi = _bound(min_val), _bound(max_val)
    with np.errstate(invalid="ignore"):
        return ((x32 < hi) & (x32 > lo)) | np.isnan(x32)


def hardtanh_grad_arch35(result: np.ndarray, grad: np.ndarray, min_val=-1.0, max_val=1.0) -> np.ndarray:
    result, grad = np.asarray(result), np.asarray(grad)
    _check_pair(result, grad)
    return _select(keep_mask(_widen(result), min_val, max_val), grad)


def hardtanh_grad_910b(result: np.ndarray, grad: np.ndarray, min_val=-1.0, max_val=1.0) -> np.ndarray:
    result, grad = np.asarray(result), np.asarray(grad)
    _check_pair(result, grad)
    x, g = _widen(result), _widen(grad)
    lo, hi = _bound(min_val), _bound(max_val)
    with np.errstate(invalid="ignore"):
        in_range = (x > lo).astype(_F32) * (x < hi).astype(_F32)
    product = mul_values(in_range, g, np.empty(g.shape, _F32))  # 0 * inf / NaN: NaN, 0 * -g: -0.0
    r = np.where(np.isnan(x), g.view(np.uint32), product.view(np.uint32)).view(_F32)
    if grad.dtype == _F32:
        return r
    # exact for every value r can hold
    return cast_values(r.reshape(-1), grad.dtype, RoundMode.CAST_RINT).reshape(r.shape)


def hardtanh_grad_golden(result: np.ndarray, grad: np.ndarray, min_val=-1.0, max_val=1.0) -> np.ndarray:
    """Upstream's test golden (tests/assets/golden.py), restated: float16 / bfloat16 widened to
    float32, zero where result <= min or result >= max (float32 compares against the float32
    bounds; NaN keeps grad), back to the input dtype. Equal to the arch35 kernel's bits except
    that a NaN grad travels through float32 on the way."""
    result, grad = np.asarray(result), np.asarray(grad)
    r = result.astype(_F32)
    g = grad.astype(_F32)
    with np.errstate(invalid="ignore"):
        zero = (r <= _bound(min_val)) | (r >= _bound(max_val))
    return np.where(zero, np.float32(0), g).astype(grad.dtype)


KERNELS = {"ascend910b": hardtanh_grad_910b, "ascend950": hardtanh_grad_arch35}


def hardtanh_backward_ascend(grad_output: np.ndarray, self: np.ndarray, min_val, max_val,
                             family: str) -> np.ndarray:
    """aclnnHardtanhBackward's out on a SoC family, for arguments its checks accept (one shape,
    one dtype of the list): the scalars read as float32, then the family's kernel with
    result = self and grad = gradOutput."""
    try:
        kernel = KERNELS[family]
    except KeyError:
        raise ValueError(f"unknown SoC family {family!r}; known: {', '.join(FAMILIES)}") from None
    return kernel(self, grad_output, _bound(min_val), _bound(max_val))


# -- torch's CPU loop ---------------------------------------------------------------------------
# torch's hardtanh_backward kernel has two bodies that disagree where x or a bound is NaN: the
# scalar one zeroes `x <= min or x >= max` (NaN keeps grad), the vectorised one keeps
# `x > min and x < max` (NaN gives 0); which element goes through which: op_common/torch_loops.
def hardtanh_backward_torch(grad: np.ndarray, x: np.ndarray, min_val, max_val,
                            threads: int | None = None) -> np.ndarray:
    """torch's CPU kernel on grad and x of one floating dtype (broadcast together): 0 where
    x <= min or x >= max, else grad (its bits). float16 / bfloat16 / float32 compare in float32
    against the bounds as float32, float64 in float64. Where x or a bound is NaN the answer is
    the loop's: grad from the scalar body, 0 from the vectorised one (torch_vector_mask)."""
    dtype = grad.dtype
    shape = tuple(np.broadcast_shapes(grad.shape, x.shape))
    if dtype == _F64:
        xw, lo, hi = x, np.float64(min_val), np.float64(max_val)
    else:
        xw, lo, hi = (x.astype(_F32) if dtype in _HALVES else x), _bound(min_val), _bound(max_val)
    with np.errstate(invalid="ignore"):
        zero = (xw <= lo) | (xw >= hi)
    result = np.array(_select(~np.broadcast_to(zero, shape), np.broadcast_to(grad, shape)))
    nan_x = np.isnan(xw)
    bound_nan = bool(np.isnan(lo) or np.isnan(hi))
    if bound_nan or nan_x.any():
        lanes = torch_vector_mask((grad, x), dtype, dtype.itemsize, threads)  # their layout decides
        hit = lanes if bound_nan else lanes & np.broadcast_to(nan_x, shape)
        result.view(_uint(dtype))[hit] = 0
    return result
