"""Shape inference (InferShape4Elewise): y takes x's shape; threshold and value do not matter.

An unknown rank (None, upstream's -2) propagates; no dtype inference is registered upstream."""
from __future__ import annotations


def infer_shape(x_shape, threshold_shape=None, value_shape=None) -> tuple[int, ...] | None:
    if x_shape is None:
        return None
    shape = tuple(int(d) for d in x_shape)
    if any(d < -1 for d in shape):  # -1 is an unknown dim; anything lower is malformed
        raise ValueError(f"bad dimension in shape {shape}")
    return shape
