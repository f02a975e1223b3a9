"""acl.util: numpy arrays <-> host pointers, for memcpy."""
from __future__ import annotations

import math

import numpy as np

from .host_memory import HOST


def numpy_to_ptr(array: np.ndarray) -> int:
    """The address of a C-contiguous array's data. memcpy honours it while the array lives."""
    return HOST.register(array)


def ptr_to_numpy(ptr: int, shape, dtype) -> np.ndarray:
    """A numpy view of host memory at `ptr` (from numpy_to_ptr) with `shape` and `dtype`.
    ValueError when the range is not inside a live registered array."""
    dt = np.dtype(dtype)
    shape = tuple(int(d) for d in shape)
    raw = HOST.bytes_at(int(ptr), math.prod(shape) * dt.itemsize, writable=False)
    # bytes_at refuses writes only when asked; the view keeps the array's own writeability.
    return raw.view(dt).reshape(shape)
