"""l0 Contiguous: a dense copy of a strided view, in the workspace (kernels take dense tensors)."""
from __future__ import annotations

from ..executor import Executor
from ..l0_tensor import L0Tensor
from ..steps import CopyStep


def contiguous(executor: Executor, t: L0Tensor) -> L0Tensor:
    """`t` itself when it is dense from its first byte, else a recorded copy into a new slot.

    A dense view that starts past its allocation's first byte is copied too: a kernel reads and
    writes whole 256-byte blocks, and only from an allocation's start is that padding known to
    stay inside the allocation."""
    if t.is_dense_at_start:
        return t
    dst = executor.new_tensor(t.dtype_name, t.dtype, t.shape, "Contiguous")
    executor.add_step(CopyStep("Contiguous", t, dst))
    return dst
