"""Shape inference every elementwise operator without broadcasting shares: upstream's
InferShape4Elewise, the output takes input 0's shape."""
from __future__ import annotations


def infer_elementwise(first_shape, *other_shapes) -> tuple[int, ...] | None:
    """Input 0's shape (-1, an unknown dimension, kept; an unknown rank, None, propagated);
    ValueError for a dimension below -1. The other inputs' shapes are not read."""
    if first_shape is None:
        return None
    shape = tuple(int(d) for d in first_shape)
    if any(d < -1 for d in shape):
        raise ValueError(f"bad dimension in shape {shape}")
    return shape
