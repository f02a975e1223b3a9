"""The one table of dtype facts every layer reads: the names opsnn uses for numpy dtypes
(bfloat16 is ml_dtypes.bfloat16), and the bit layout of the binary float types."""
from __future__ import annotations

from typing import NamedTuple

import ml_dtypes
import numpy as np

bfloat16 = np.dtype(ml_dtypes.bfloat16)
finfo = ml_dtypes.finfo  # np.finfo, also for bfloat16 (np.finfo itself knows it only from ml_dtypes 0.7)

# Every dtype some layer names (the ACL data types included); an operator's definition says which
# of them it supports.
BY_NAME: dict[str, np.dtype] = {
    "float32": np.dtype(np.float32),
    "float16": np.dtype(np.float16),
    "bfloat16": bfloat16,
    "int32": np.dtype(np.int32),
    "int8": np.dtype(np.int8),
    "uint8": np.dtype(np.uint8),
    "int64": np.dtype(np.int64),
    "int16": np.dtype(np.int16),  # ThresholdV2 (the forward) has an int16 binary
    "uint16": np.dtype(np.uint16),
    "uint32": np.dtype(np.uint32),
    "uint64": np.dtype(np.uint64),
    "float64": np.dtype(np.float64),
    "bool": np.dtype(np.bool_),
    "complex64": np.dtype(np.complex64),
    "complex128": np.dtype(np.complex128),
    # Ascend950's 8-bit floats (OCP formats, ml_dtypes' types): only the AscendC emulator computes on them
    "float8_e4m3fn": np.dtype(ml_dtypes.float8_e4m3fn),
    "float8_e5m2": np.dtype(ml_dtypes.float8_e5m2),
    "float8_e8m0": np.dtype(ml_dtypes.float8_e8m0fnu),
}


class FloatLayout(NamedTuple):
    """A binary float type's bit pattern, read through the unsigned type of its width."""
    uint: np.dtype
    sign: int  # the sign bit
    exponent: int  # the exponent field's mask (all ones: inf or NaN)
    quiet: int  # the quiet-NaN bit (the top mantissa bit)
    mantissa_bits: int


_MANTISSA_BITS = {np.dtype(np.float16): 10, bfloat16: 7, np.dtype(np.float32): 23, np.dtype(np.float64): 52}


def _layout(dtype: np.dtype) -> FloatLayout:
    m, width = _MANTISSA_BITS[dtype], dtype.itemsize * 8
    return FloatLayout(np.dtype(f"u{dtype.itemsize}"), 1 << (width - 1), ((1 << (width - 1 - m)) - 1) << m,
                       1 << (m - 1), m)


_LAYOUTS = {dt: _layout(dt) for dt in _MANTISSA_BITS}


def float_layout(dtype) -> FloatLayout:
    """The layout of float16, bfloat16, float32 or float64 (KeyError for any other dtype)."""
    return _LAYOUTS[np.dtype(dtype)]


def dtype_name(dtype) -> str:
    """Canonical name of a dtype given as a name, numpy dtype or scalar type."""
    if isinstance(dtype, str):
        if dtype in BY_NAME:
            return dtype
        raise TypeError(f"unknown dtype {dtype!r}; known: {', '.join(BY_NAME)}")
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"not a dtype: {dtype!r}") from None
    for name, known in BY_NAME.items():
        if dt == known:
            return name
    if dt.names is not None and len(dt.names) == 1:  # the emulator's one-byte markers (int4x2, hifloat8...)
        return dt.names[0]
    raise TypeError(f"unsupported dtype {dt}; known: {', '.join(BY_NAME)}")


def to_numpy(dtype) -> np.dtype:
    return BY_NAME[dtype_name(dtype)]
