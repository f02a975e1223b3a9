"""The public API's ascend semantics of the forward (opsnn.threshold(..., semantics="ascend910b" /
"ascend950")): what aclnnThreshold accepts, said as Python errors, and its result computed by the
functional models without a device."""
from __future__ import annotations

import numbers

import numpy as np

from opsnn.aclnn.checks import scalar_overflow
from opsnn.dtypes import BY_NAME

from .functional_models import aclnn_threshold
from .op_api.aclnn_threshold import supported_dtypes

MAX_RANK = 8
FAMILIES = ("ascend910b", "ascend950")


def check_scalar(value, what: str) -> None:
    if isinstance(value, complex | np.complexfloating) or not isinstance(value, numbers.Real | np.bool_):
        raise TypeError(f"{what} must be a real number, not {type(value).__name__}")
    if isinstance(value, numbers.Integral | np.bool_) and not -(2**63) <= int(value) < 2**64:
        raise ValueError(f"{what} {int(value)} does not fit a 64-bit integer")


def check_call(x: np.ndarray, threshold, value, semantics: str) -> None:
    """TypeError / ValueError where aclnnThreshold refuses (161002), before any computing."""
    if semantics not in FAMILIES:
        raise ValueError(f"unknown ascend semantics {semantics!r}; known: {', '.join(FAMILIES)}")
    check_scalar(threshold, "threshold")
    check_scalar(value, "value")
    allowed = supported_dtypes(semantics)
    if not any(x.dtype == BY_NAME[d] for d in allowed):
        raise TypeError(f"{semantics}: threshold does not support dtype {x.dtype}; supported: {', '.join(allowed)}")
    if x.ndim > MAX_RANK:
        raise ValueError(f"{semantics}: rank {x.ndim} exceeds {MAX_RANK}")
    for scalar, what in ((threshold, "threshold"), (value, "value")):
        message = scalar_overflow(scalar, what, x.dtype.name)
        if message is not None:  # an integer x's scalar must fit x's dtype (aclnnThreshold: 161002)
            raise ValueError(f"{semantics}: {message}")


def threshold(x: np.ndarray, threshold, value, semantics: str) -> np.ndarray:
    """aclnnThreshold's result for x (checked with check_call), a fresh array of x's dtype."""
    return aclnn_threshold(x, threshold, value, semantics)
