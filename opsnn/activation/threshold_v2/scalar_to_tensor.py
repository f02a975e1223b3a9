"""How the host turns an aclScalar into the one-element tensor ThresholdV2 reads (upstream
opbase `aclTensor(const aclScalar*, dtype)`; docs/threshold-v2.md §5).

The scalar's stored value is taken exactly (every float kind is exact in a double, integers as
Python ints), then converted once to the tensor dtype:
  float32   C++ static_cast<float>: round to nearest even, beyond the range +-inf
  float16   the software fp16_t from the stored value: nearest even, >= 65520 -> inf, denormals
            kept, NaN -> exponent 0x1F with mantissa 0x3FF (0x7FFF / 0xFFFF, the sign kept)
  bfloat16  bfloat16(float(value)): first to float32 (nearest even), then nearest even to bf16;
            NaN -> 0x7FC0
  integers  C++ static_cast<T>: an integer wraps (two's complement); a float truncates toward
            zero. A float outside the range (or NaN/inf) is undefined in C++: we model an x86-64
            host (cvttsd2si), which yields the "integer indefinite" (INT32_MIN through a 32-bit
            conversion for the types up to 32 bits, then wrapped; INT64_MIN for int64).

Belongs with the aclnn framework (it is opbase's); kept with its only user until a second one."""
from __future__ import annotations

import math
import numbers

import numpy as np

from opsnn.dtypes import bfloat16

_F16, _F32 = np.dtype(np.float16), np.dtype(np.float32)
_FP16_NAN = 0x7FFF
_BF16_NAN = 0x7FC0


def exact_value(scalar_value) -> int | float:
    """The stored value of an aclScalar (a numpy or Python scalar) as an exact Python number."""
    v = scalar_value
    if isinstance(v, bool | np.bool_):
        return int(v)
    if isinstance(v, numbers.Integral):
        return int(v)
    if isinstance(v, complex | np.complexfloating):  # To<T> of a complex scalar: its real part
        return float(np.real(v))
    return float(v)


def _to_float32(value: int | float) -> np.float32:
    with np.errstate(over="ignore", invalid="ignore"):  # a signalling NaN converts silently, as in C
        if isinstance(value, int):  # one correctly rounded int64/uint64 -> float conversion
            return np.array(value, np.int64 if value < 2**63 else np.uint64).astype(_F32)[()]
        return np.float32(value)


def _to_float16(value: int | float) -> np.float16:
    if isinstance(value, float) and math.isnan(value):
        sign = 0x8000 if math.copysign(1.0, value) < 0 else 0
        return np.array(_FP16_NAN | sign, np.uint16).view(_F16)[()]
    if isinstance(value, int) and abs(value) >= 65520:  # rounds past 65504 (ints beyond 2**53 too)
        return np.float16(math.copysign(math.inf, value))
    with np.errstate(over="ignore"):
        return np.float64(value).astype(_F16)  # numpy rounds double -> half once, to nearest even


def _to_bfloat16(value: int | float):
    f = _to_float32(value)
    if np.isnan(f):
        return np.array(_BF16_NAN, np.uint16).view(bfloat16)[()]
    return np.array(f).astype(bfloat16)[()]


def _to_integer(value: int | float, dtype: np.dtype):
    bits = dtype.itemsize * 8
    if isinstance(value, float):
        width = 64 if bits == 64 else 32  # the conversion the compiler emits
        lo, hi = -(2 ** (width - 1)), 2 ** (width - 1) - 1
        if math.isfinite(value) and lo <= math.trunc(value) <= hi:
            value = math.trunc(value)
        else:
            value = lo
    wrapped = value % (2**bits)
    if dtype.kind == "i" and wrapped >= 2 ** (bits - 1):
        wrapped -= 2**bits
    return dtype.type(wrapped)


def convert_scalar(value, dtype) -> np.generic:
    """The scalar `value` (Python or numpy number) as the tensor dtype `dtype` stores it."""
    dtype = np.dtype(dtype)
    v = exact_value(value)
    if dtype == _F32:
        return _to_float32(v)
    if dtype == _F16:
        return _to_float16(v)
    if dtype == bfloat16:
        return _to_bfloat16(v)
    if dtype.kind in "iu":
        return _to_integer(v, dtype)
    raise TypeError(f"no scalar conversion to {dtype}")
