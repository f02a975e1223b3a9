"""The numpy APIs' arguments, checked the same way by every operator's numpy API and every
backend: the semantics and backend names, the scalar arguments, `out=`.

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

SEMANTICS = ("torch", "ascend910b", "ascend950")
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


def check_names(semantics, backend, backends: tuple[str, ...]) -> None:
    """semantics one of SEMANTICS and backend one of `backends`: TypeError for a non-str, ValueError
    for an unknown name."""
    for what, name, known in (("semantics", semantics, SEMANTICS), ("backend", backend, backends)):
        if not isinstance(name, str):
            raise TypeError(f"{what} must be a str (one of {', '.join(known)}), not {type(name).__name__}")
        if name not in known:
            raise ValueError(f"unknown {what} {name!r}; known: {', '.join(known)}")


def check_out(out, dtype: np.dtype, shape: tuple[int, ...]) -> None:
    """`out=` (None, or a writeable array of exactly the result's dtype and shape)."""
    if out is None:
        return
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy array, not {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"out has dtype {out.dtype}, the result is {dtype}")
    if out.shape != tuple(shape):
        raise ValueError(f"out has shape {out.shape}, the result is {tuple(shape)}")
    if not out.flags.writeable:
        raise ValueError("out is read-only")


def deliver(result: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    """The result, or `out` with the result copied into it."""
    if out is None:
        return result
    np.copyto(out, result)
    return out
