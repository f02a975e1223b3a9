"""Cutting an iteration space into tiles: flat ranges, or blocks of an N-d broadcast shape."""
from __future__ import annotations

import math

import numpy as np


def split(n: int, parts: int) -> list[tuple[int, int]]:
    """[0, n) in `parts` nearly equal, contiguous ranges, each starting on a 64-element boundary."""
    bounds = [min(n, (n * i // parts) // 64 * 64) for i in range(parts)] + [n]
    return [(lo, hi) for lo, hi in zip(bounds, bounds[1:], strict=False) if hi > lo]


def blocks(shape: tuple, tile: int) -> list[tuple]:
    """Index tuples cutting `shape` into blocks of at most ~tile elements (row-major order).

    The block spans whole trailing axes and a run of the first axis whose tail fits in a tile,
    so every block is one basic-indexing view of any array broadcast to `shape`."""
    if not shape:
        return [()]
    axis = 0
    while axis < len(shape) - 1 and math.prod(shape[axis + 1:]) > tile:
        axis += 1
    inner = math.prod(shape[axis + 1:])
    step = max(1, tile // max(inner, 1))
    runs = [slice(s, min(s + step, shape[axis])) for s in range(0, shape[axis], step)]
    return [outer + (run,) for outer in np.ndindex(*shape[:axis]) for run in runs]
