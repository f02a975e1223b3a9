"""What the NPU path (aclnnThresholdBackward, docs/threshold-grad-v2d.md §8/§9) accepts, and how it
reads the threshold."""
from __future__ import annotations

import numpy as np

from opsnn.activation.threshold_grad_v2_d.functional_models import is_relu_threshold  # noqa: F401 - the routing rule, re-read by plan
from opsnn.activation.threshold_grad_v2_d.op_host import THRESHOLD_GRAD_V2D
from opsnn.dtypes import BY_NAME
from opsnn.op_common.api_args import real_scalar

MAX_RANK = 8

# The aclnn layer's ascend910b list is the op definition's (docs/threshold-grad-v2d.md §8 step 5); read it from there.
_A2_DTYPES = frozenset(BY_NAME[n] for n in THRESHOLD_GRAD_V2D.input("input_gradient").dtypes)
_INT64 = BY_NAME["int64"]


def threshold_float32(threshold) -> np.float32:
    """The attribute as the kernel sees it: float(threshold) stored as float32 (may round to inf)."""
    try:
        as_double = float(real_scalar(threshold))
    except OverflowError:
        raise ValueError(f"threshold {threshold} does not fit a float") from None
    with np.errstate(over="ignore"):
        return np.float32(as_double)


def check_dtypes(semantics: str, grad_dtype: np.dtype, feature_dtype: np.dtype, relu: bool) -> None:
    if grad_dtype != feature_dtype:
        raise TypeError(f"{semantics}: grad dtype {grad_dtype} differs from feature dtype {feature_dtype}"
                        " (no type promotion on the NPU path)")
    allowed = _A2_DTYPES | ({_INT64} if semantics == "ascend950" and relu else frozenset())
    if feature_dtype not in allowed:
        extra = " (int64 only with |threshold| <= FLT_EPSILON)" if semantics == "ascend950" else ""
        raise TypeError(f"{semantics} does not support dtype {feature_dtype}{extra}")


def check_rank(semantics: str, *arrays: np.ndarray) -> None:
    for arr in arrays:
        if arr.ndim > MAX_RANK:
            raise ValueError(f"{semantics}: rank {arr.ndim} exceeds {MAX_RANK}")
