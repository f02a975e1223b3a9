"""l0 ViewCopy: write a dense result into the caller's output through its (maybe strided) view."""
from __future__ import annotations

from ..executor import Executor
from ..l0_tensor import L0Tensor
from ..steps import CopyStep


def view_copy(executor: Executor, src: L0Tensor, dst: L0Tensor) -> None:
    if src.shape != dst.shape:
        raise ValueError(f"ViewCopy of {src.shape} into {dst.shape}")
    executor.add_step(CopyStep("ViewCopy", src, dst))
