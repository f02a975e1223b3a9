"""Dtype names shared by every layer; bfloat16 is ml_dtypes.bfloat16."""
from __future__ import annotations

import ml_dtypes
import numpy as np

bfloat16 = np.dtype(ml_dtypes.bfloat16)

BY_NAME: dict[str, np.dtype] = {
    "float32": np.dtype(np.float32),
    "float16": np.dtype(np.float16),
    "bfloat16": bfloat16,
    "int32": np.dtype(np.int32),
    "int8": np.dtype(np.int8),
    "uint8": np.dtype(np.uint8),
    "int64": np.dtype(np.int64),
    "int16": np.dtype(np.int16),  # ThresholdV2 (the forward) has an int16 binary
}


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
    raise TypeError(f"unsupported dtype {dt}; known: {', '.join(BY_NAME)}")


def to_numpy(dtype) -> np.dtype:
    return BY_NAME[dtype_name(dtype)]
