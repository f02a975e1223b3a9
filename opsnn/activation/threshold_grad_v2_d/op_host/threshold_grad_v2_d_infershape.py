"""Shape inference (docs/threshold-grad-v2d.md §3): the output takes input 0's shape; the kernel never broadcasts."""
from __future__ import annotations


def infer_shape(input_gradient_shape, input_feature_shape=None) -> tuple[int, ...]:
    shape = tuple(int(d) for d in input_gradient_shape)
    if any(d < 0 for d in shape):
        raise ValueError(f"negative dimension in shape {shape}")
    return shape
