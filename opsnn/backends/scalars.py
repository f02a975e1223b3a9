"""The API's scalar arguments (threshold, the forward's value), checked once for every backend.

A scalar is a Python or numpy real number or bool. A 0-d array is read as its element, as numpy
and torch read one, so it computes bit for bit what that element would. Errors: TypeError for
anything else (lists, arrays of any other rank, complex, str, None), ValueError for a long double
too large for a double (the API computes in doubles at most; float() would make it inf where an
equally finite 1e39 is refused by float32 thresholds).
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from opsnn.dtypes import bfloat16

_BF16_SCALAR = bfloat16.type  # a numpy scalar but not a numbers.Real: read exactly as a float


def real_scalar(value, what: str = "threshold"):
    """value as a Python/numpy real scalar (see the module doc); raises TypeError / ValueError."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if type(value) is _BF16_SCALAR:
        return float(value)
    if isinstance(value, complex | np.complexfloating) or not isinstance(value, numbers.Real | np.bool_):
        raise TypeError(f"{what} must be a real number, not {type(value).__name__}")
    if isinstance(value, np.longdouble) and np.isfinite(value) and math.isinf(float(value)):
        shown = np.format_float_scientific(value, trim="-")  # str() would say inf
        raise ValueError(f"{what} {shown} cannot be converted to float64 without overflow")
    return value
