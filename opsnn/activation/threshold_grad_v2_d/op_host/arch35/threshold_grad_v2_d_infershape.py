"""arch35 shape inference (upstream threshold_grad_v2_d_infershape.cpp): out = the numpy
broadcast of (gradOutput, self), right-aligned, per-axis max; no validity check (the tiling
refuses shapes that do not broadcast)."""
from __future__ import annotations

from collections.abc import Sequence


def infer_shape_arch35(grad_output_shape: Sequence[int], self_shape: Sequence[int]) -> tuple[int, ...]:
    rank = max(len(grad_output_shape), len(self_shape))
    a = (1,) * (rank - len(grad_output_shape)) + tuple(int(d) for d in grad_output_shape)
    b = (1,) * (rank - len(self_shape)) + tuple(int(d) for d in self_shape)
    return tuple(max(x, y) for x, y in zip(a, b, strict=True))
