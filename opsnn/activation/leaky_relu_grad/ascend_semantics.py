"""The public API's ascend semantics (opsnn.leaky_relu_backward(..., semantics="ascend910b" /
"ascend950")): what aclnnLeakyReluBackward accepts, said as Python errors in its check order,
and its result computed by the functional models without a device (docs/leaky-relu-grad.md §5).

The numpy API's out takes the promoted dtype of (grad, x), so the out-dtype check never fails
here; the slope's aclScalar dtype is the Python/numpy scalar's own (bool BOOL, int INT64 or UINT64,
float DOUBLE, numpy scalars their type)."""
from __future__ import annotations

import numbers
from typing import NamedTuple

import numpy as np

from opsnn.dtypes import bfloat16

from . import functional_models as fm
from .op_api.aclnn_leaky_relu_backward import supported_dtypes, supported_scalar_dtypes

FAMILIES = ("ascend910b", "ascend950")
MAX_RANK = 8
_NUMPY_SCALARS = {np.dtype(t).type: np.dtype(t).name for t in (np.float16, np.float32, np.float64, np.int8,
                                                                 np.uint8, np.int16, np.uint16, np.int32,
                                                                 np.uint32, np.int64, np.uint64)}
_NUMPY_SCALARS[bfloat16.type] = "bfloat16"
_NUMPY_SCALARS[np.bool_] = "bool"


class AscendPlan(NamedTuple):
    family: str
    dtype: np.dtype  # promoted: the inputs are cast to it, the result has it
    shape: tuple[int, ...]
    slope: np.float32  # negativeSlope->ToFloat(), what the kernel gets
    slope_dtype: str  # the aclScalar's dtype
    empty: bool  # self is empty: nothing runs, the result is empty


def scalar_dtype(value) -> str:
    """The aclScalar dtype a Python/numpy scalar travels as."""
    if isinstance(value, bool | np.bool_):
        return "bool"
    if type(value) in _NUMPY_SCALARS:
        return _NUMPY_SCALARS[type(value)]
    if isinstance(value, numbers.Integral):
        v = int(value)
        if -(2**63) <= v < 2**63:
            return "int64"
        if 0 <= v < 2**64:
            return "uint64"
        raise ValueError(f"negative_slope {v} does not fit a 64-bit integer")
    if isinstance(value, numbers.Real):
        if isinstance(value, np.floating):  # long double and the like: no ACL type
            raise TypeError(f"negative_slope of type {type(value).__name__} has no aclScalar dtype")
        return "float64"
    raise TypeError(f"negative_slope must be a real number, not {type(value).__name__}")


def _as_double(value) -> float:
    """aclScalar::ToDouble of the scalar the value travels as."""
    return float(value) if isinstance(value, int) else float(np.float64(value))


def to_float(value) -> np.float32:
    """aclScalar::ToFloat: a C++ conversion to float (nearest even; beyond range +-inf)."""
    if isinstance(value, numbers.Integral | np.bool_) and not isinstance(value, np.integer):
        value = int(value)
        with np.errstate(over="ignore"):
            return np.float32(np.asarray(value, np.int64 if value < 2**63 else np.uint64))
    return fm.as_float32(value)


def plan(grad: np.ndarray, x: np.ndarray, slope, self_is_result: bool, family: str) -> AscendPlan:
    """aclnnLeakyReluBackward's checks in order: TypeError (161002 dtype), ValueError (161002 shape
    or slope). The promoted dtype and broadcast shape of the result."""
    if family not in FAMILIES:
        raise ValueError(f"unknown ascend semantics {family!r}; known: {', '.join(FAMILIES)}")
    tensors = supported_dtypes(family)
    for name, a in (("grad", grad), ("x", x)):
        if a.dtype.name not in tensors:  # bfloat16's name is "bfloat16"
            raise TypeError(f"{family}: {name} dtype {a.dtype} is not in aclnnLeakyReluBackward's list "
                            f"[{', '.join(tensors)}]")
    slope_dtype = scalar_dtype(slope)
    if slope_dtype not in supported_scalar_dtypes(family):
        raise TypeError(f"{family}: negative_slope dtype {slope_dtype} is not in aclnnLeakyReluBackward's scalar "
                        f"list [{', '.join(supported_scalar_dtypes(family))}]")
    for name, a in (("grad", grad), ("x", x)):
        if a.ndim > MAX_RANK:
            raise ValueError(f"{family}: {name} has rank {a.ndim}, more than {MAX_RANK}")
    try:
        shape = np.broadcast_shapes(grad.shape, x.shape)
    except ValueError:
        raise ValueError(f"{family}: shapes {grad.shape} and {x.shape} are not broadcastable") from None
    if self_is_result and _as_double(slope) < 0:
        raise ValueError(f"{family}: negative_slope {slope!r} must not be negative when self_is_result is true")
    dtype = fm.promote_type(grad.dtype, x.dtype)
    return AscendPlan(family, dtype, shape, to_float(slope), slope_dtype, x.size == 0)


def compute(grad: np.ndarray, x: np.ndarray, p: AscendPlan) -> np.ndarray:
    """The aclnn result without a device: casts to the promoted dtype, l0 LeakyReluGrad per SoC.
    RuntimeError where the Ascend950 kernel's tiling refuses (an empty gradOutput against a
    non-empty self: a 0 dim reaches the arch35 tiling; 561103 through aclnn, an inference)."""
    if p.empty:
        return np.zeros(p.shape, p.dtype)
    if (p.family == "ascend950" and 0 in p.shape and p.dtype != fm.F64):
        raise RuntimeError("ascend950: an empty gradOutput against a non-empty self reaches the LeakyReluGrad "
                           "tiling with a 0 dim, which it refuses (ACLNN_ERR_INNER_NULLPTR, 561103)")
    with np.errstate(over="ignore", invalid="ignore"):  # aclnn's Cast: a signalling NaN widened, no warning
        g, f = grad.astype(p.dtype, copy=False), x.astype(p.dtype, copy=False)
    return fm.leaky_relu_grad(g, f, p.slope, p.family)
