"""PyTorch's CPU-eager rules for threshold / threshold_backward, restated for numpy arrays.

Three things torch decides before it computes anything:
- the common dtype of (grad, feature): `torch.result_type` with its zero-dim rule
  (a 0-d operand only lifts the result into a higher *category*: bool < integer < float);
- which dtypes the kernel runs on (AT_DISPATCH_ALL_TYPES + half + bfloat16: no bool, no complex,
  uint16/32/64 only promoted to a floating common dtype);
- how a Python scalar becomes the kernel's scalar (c10 `checked_convert`): range checks that raise,
  truncation toward zero for integers, two's-complement wrap of negative ints into uint8.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from opsnn.dtypes import bfloat16, finfo
from opsnn.op_common.api_args import real_scalar
from opsnn.op_common.torch_promotion import result_type

_BOOL = np.dtype(np.bool_)
_U8, _I8, _I16, _I32, _I64 = (np.dtype(t) for t in (np.uint8, np.int8, np.int16, np.int32, np.int64))
_F16, _F32, _F64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))

# Promotion inputs torch knows of (bool included: it promotes, though the kernel refuses it).
_KNOWN = (_BOOL, _U8, _I8, _I16, _I32, _I64, _F16, bfloat16, _F32, _F64)
KERNEL_DTYPES = frozenset(_KNOWN[1:])
_WIDE_UNSIGNED = tuple(np.dtype(t) for t in (np.uint16, np.uint32, np.uint64))  # promote to a float only
REDUCED_FLOATS = frozenset((_F16, bfloat16))
FLOATS = frozenset((_F16, bfloat16, _F32, _F64))



def check_known(dt: np.dtype) -> None:
    if dt.kind == "c":
        raise TypeError(f"complex dtype {dt} is not supported (torch: threshold_cpu not implemented)")
    if dt not in _KNOWN and dt not in _WIDE_UNSIGNED:
        raise TypeError(f"dtype {dt} is not supported by torch's threshold kernel")


def result_dtype(grad: np.ndarray, feature: np.ndarray) -> np.dtype:
    """The dtype torch computes threshold_backward(grad, feature) in; TypeError where torch refuses."""
    g, f = grad.dtype, feature.dtype
    if g == f and g in KERNEL_DTYPES:  # the common case, kept cheap for small calls
        return g
    check_known(g)
    check_known(f)
    dt = result_type(grad, feature)
    if dt == _BOOL:
        raise TypeError("threshold_backward is not implemented for bool (torch: threshold_cpu for 'Bool')")
    if dt in _WIDE_UNSIGNED:
        raise TypeError(f"threshold_backward is not implemented for {dt} (torch: threshold_cpu for 'UInt16')")
    return dt


def scalar_to(value, dtype: np.dtype, what: str = "threshold"):
    """c10 checked_convert of a Python/numpy scalar to the kernel type `dtype`; returns a numpy scalar.

    For float16/bfloat16 threshold pass dtype=float32 (torch compares those in float32); for their
    `value` (forward) pass the half type itself: torch rounds it double -> float -> half.
    """
    value = real_scalar(value, what)
    if isinstance(value, (bool, np.bool_)):
        value = int(value)
    is_int_scalar = isinstance(value, numbers.Integral)
    if is_int_scalar:
        value = int(value)
        if not -(2**63) <= value < 2**64:  # torch.Scalar holds int64 or uint64
            raise ValueError(f"{what} {value} does not fit a 64-bit integer")
    else:
        value = float(value)
    if dtype.kind in "iu":
        return _to_integer(value, dtype, is_int_scalar, what)
    return _to_float(value, dtype, what)


def _overflow(value, dtype, what):
    return ValueError(f"{what} {value!r} cannot be converted to {dtype} without overflow")


_INT_INFO = {dt: np.iinfo(dt) for dt in (_U8, _I8, _I16, _I32, _I64)}


def _to_integer(value, dtype: np.dtype, is_int_scalar: bool, what: str):
    info = _INT_INFO[dtype]
    if is_int_scalar:
        if dtype.kind == "u" and value < 0:
            # c10 lets negative ints wrap into unsigned types (uint8: -1 -> 255), down to -max
            if -value > info.max:
                raise _overflow(value, dtype, what)
            return dtype.type(value % (info.max + 1))
        if value < info.min or value > info.max:
            raise _overflow(value, dtype, what)
        return dtype.type(value)
    if math.isnan(value) or math.isinf(value):
        raise _overflow(value, dtype, what)
    # the bounds are compared as doubles, so int64's 2**63 (== float(max)) slips through ...
    if value < float(info.min) or value > float(info.max):
        raise _overflow(value, dtype, what)
    if value >= 2.0**63:
        # ... and x86's cvttsd2si turns it into the "integer indefinite" INT64_MIN
        return dtype.type(info.min)
    return dtype.type(math.trunc(value))


_FLOAT_MAX = {dt: float(finfo(dt).max) for dt in FLOATS}


def float32_threshold(value: float, what: str = "threshold") -> np.float32:
    """A Python float as a float32 kernel scalar: finite values beyond float32's range raise."""
    if abs(value) > _FLOAT_MAX[_F32] and value != math.inf and value != -math.inf:
        raise _overflow(value, _F32, what)
    return _F32.type(value)


def _to_float(value, dtype: np.dtype, what: str):
    if dtype == _F32 and isinstance(value, float):
        return float32_threshold(value, what)
    if is_int := isinstance(value, int):
        # int64/uint64 -> float is one correctly rounded conversion; numpy's int64/uint64 casts do that
        value_arr = np.array(value, np.int64 if value < 2**63 else np.uint64)
    if dtype == _F64:
        return value_arr.astype(_F64)[()] if is_int else _F64.type(value)
    as_f32 = value_arr.astype(_F32)[()] if is_int else None
    if not is_int:
        fmax = _FLOAT_MAX[dtype]
        if math.isfinite(value) and abs(value) > fmax:
            raise _overflow(value, dtype, what)
        as_f32 = _F32.type(value)
    if dtype == _F32:
        return as_f32
    # float16 / bfloat16 `value`: torch's Half(float(x)) / BFloat16(float(x))
    if is_int and abs(float(as_f32)) > _FLOAT_MAX[dtype]:
        raise _overflow(value, dtype, what)
    return np.array(as_f32).astype(dtype)[()]
