"""A kernel model's float32 compute: halves widened exactly (Cast CAST_NONE) and the float32
result narrowed once (CAST_RINT), with the emulator's cast (opsnn.ascendc), so a model's bits are
the kernel's."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import RoundMode
from opsnn.ascendc.cast import cast_values

F32 = np.dtype(np.float32)


def widen(a: np.ndarray) -> np.ndarray:
    """a as float32 (a contiguous copy or a itself), of a's shape (0-d included)."""
    a = np.asarray(a)
    if a.dtype == F32:
        return a if a.flags.c_contiguous else np.ascontiguousarray(a).reshape(a.shape)
    return cast_values(np.ascontiguousarray(a).reshape(-1), F32, RoundMode.CAST_NONE).reshape(a.shape)


def narrow(r: np.ndarray, dtype) -> np.ndarray:
    """float32 r as dtype, nearest even."""
    return r if np.dtype(dtype) == F32 else cast_values(r.reshape(-1), np.dtype(dtype), RoundMode.CAST_RINT).reshape(
        r.shape)
