"""DimensionCollapse for contiguous inputs: merge neighbouring axes on which every input
broadcasts the same way, and give each input its strides (0 on a broadcast axis)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import TilingError


@dataclass(frozen=True)
class Collapsed:
    output_dims: tuple[int, ...]
    output_strides: tuple[int, ...]
    input_dims: tuple[tuple[int, ...], ...]  # per input, folded, same rank as the output
    input_strides: tuple[tuple[int, ...], ...]

    @property
    def rank(self) -> int:
        return len(self.output_dims)


def ensure_not_scalar(shape: Sequence[int]) -> tuple[int, ...]:
    """A 0-d shape is tiled as [1]."""
    return tuple(int(d) for d in shape) or (1,)


def broadcast_output(input_shapes: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """numpy broadcast of the inputs, right-aligned, per-axis max (as InferShape does)."""
    rank = max(len(s) for s in input_shapes)
    padded = [(1,) * (rank - len(s)) + tuple(s) for s in input_shapes]
    return tuple(max(col) for col in zip(*padded, strict=True))


def _strides(dims: Sequence[int], out: Sequence[int]) -> tuple[int, ...]:
    base, strides = 1, []
    for d, o in zip(reversed(dims), reversed(out), strict=True):
        if d == 1 and o != 1:
            strides.append(0)  # broadcast axis: the same element for every output index
        else:
            strides.append(base)
            base *= d
    return tuple(reversed(strides))


def dimension_collapse(input_shapes: Sequence[Sequence[int]], output_shape: Sequence[int]) -> Collapsed:
    out = ensure_not_scalar(output_shape)
    rank, k = len(out), len(input_shapes)
    padded = []
    for i, s in enumerate(input_shapes):
        s = ensure_not_scalar(s)
        if len(s) > rank:
            raise TilingError(f"input {i} has rank {len(s)} > output rank {rank}")
        padded.append((1,) * (rank - len(s)) + s)
    flags = []
    for axis in range(rank):
        flag = 0
        for i, s in enumerate(padded):
            d = s[axis]
            if d <= 0 or out[axis] <= 0:
                raise TilingError(f"axis {axis}: dims must be > 0, got input {i} {d}, output {out[axis]}")
            if d != 1 and d != out[axis]:
                raise TilingError(f"input {i} dim {d} at axis {axis} does not broadcast to {out[axis]}")
            if d == 1:
                flag |= 1 << (k - 1 - i)  # input 0 is the most significant bit
        flags.append(flag)
    target = (1 << k) - 1
    groups = [[0]]
    prev = flags[0]
    for j in range(1, rank):
        if flags[j] == prev or (prev == target and out[j - 1] == 1):
            groups[-1].append(j)
            prev = flags[j]
        elif flags[j] == target and out[j] == 1:
            continue  # an axis of 1 everywhere: nothing to index
        else:
            groups.append([j])
            prev = flags[j]

    def fold(shape):
        return tuple(math.prod(shape[a] for a in g) for g in groups)

    out_f = fold(out)
    ins = tuple(fold(s) for s in padded)
    return Collapsed(out_f, _strides(out_f, out_f), ins, tuple(_strides(s, out_f) for s in ins))
