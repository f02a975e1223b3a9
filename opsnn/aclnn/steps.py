"""The kinds of step an executor runs. Operator-agnostic: an operator supplies the kernel (or the
functional model) and the tensors; these know how to run them against a RunContext."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .l0_tensor import L0Tensor
from .run_context import RunContext


@dataclass(frozen=True)
class CopyStep:
    """dst[...] = src broadcast to dst's shape: a strided gather/scatter on device memory.
    Serves Contiguous (same shape), BroadcastTo (src broadcastable) and ViewCopy (strided dst)."""
    name: str
    src: L0Tensor
    dst: L0Tensor

    def run(self, ctx: RunContext) -> None:
        dst = ctx.array(self.dst)
        dst[...] = np.broadcast_to(ctx.array(self.src), dst.shape)


@dataclass(frozen=True)
class KernelLaunchStep:
    """An AscendC kernel launch on the emulator: `launch(gm=, platform=, block_dim=, tiling=,
    <arg name>=KernelArg, ..., **options)` returns a LaunchReport; its errors fault the stream."""
    name: str
    launch: Callable
    block_dim: int
    tiling: bytes
    args: tuple[tuple[str, L0Tensor], ...]  # in the kernel's argument order
    options: dict = field(default_factory=dict)
    padding: dict = field(default_factory=dict)  # arg name -> the Paddings its tiling declares

    def run(self, ctx: RunContext) -> None:
        kernel_args = {name: ctx.kernel_arg(name, t, self.padding.get(name, ())) for name, t in self.args}
        report = self.launch(gm=ctx.gm, platform=ctx.platform, block_dim=self.block_dim, tiling=self.tiling,
                             **kernel_args, **self.options)
        if report.errors:
            raise RuntimeError(f"{self.name}: kernel reported {len(report.errors)} error(s): "
                               + "; ".join(str(f) for f in report.errors[:3]))


@dataclass(frozen=True)
class FunctionalStep:
    """A kernel stood in for by a functional model: out = model(*inputs), on numpy arrays."""
    name: str
    model: Callable[..., np.ndarray]
    inputs: tuple[L0Tensor, ...]
    output: L0Tensor

    def run(self, ctx: RunContext) -> None:
        result = self.model(*(np.array(ctx.array(t)) for t in self.inputs))
        out = ctx.array(self.output)
        if result.shape != out.shape or result.dtype != out.dtype:
            raise RuntimeError(f"{self.name}: model gave {result.dtype}{result.shape}, "
                               f"expected {out.dtype}{out.shape}")
        out[...] = result
