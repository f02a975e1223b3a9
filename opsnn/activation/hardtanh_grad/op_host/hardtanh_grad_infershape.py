"""Shape inference (opbase InferShape4Elewise): y takes input 0's (result's) shape, unknown dims
(-1) kept, an unknown rank (None, upstream's -2) propagated. grad's shape and every dtype are
not looked at (upstream registers no InferDataType; its UT passes fp16 with fp32)."""
from __future__ import annotations


def infer_shape(result_shape, grad_shape=None) -> tuple[int, ...] | None:
    if result_shape is None:
        return None
    shape = tuple(int(d) for d in result_shape)
    if any(d < -1 for d in shape):  # -1 is an unknown dim; anything lower is malformed
        raise ValueError(f"bad dimension in shape {shape}")
    return shape
