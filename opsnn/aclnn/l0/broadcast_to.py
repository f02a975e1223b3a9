"""l0 BroadcastTo: materialise a tensor at a broadcast shape (numpy rules), in the workspace."""
from __future__ import annotations

from ..executor import Executor
from ..l0_tensor import L0Tensor
from ..steps import CopyStep


def broadcast_to(executor: Executor, t: L0Tensor, shape: tuple[int, ...]) -> L0Tensor:
    """`t` itself when it already has `shape`, else a recorded dense broadcast copy."""
    shape = tuple(shape)
    if t.shape == shape:
        return t
    dst = executor.new_tensor(t.dtype_name, t.dtype, shape, "BroadcastTo")
    executor.add_step(CopyStep("BroadcastTo", t, dst))
    return dst
