"""The SigmoidGrad 910B kernel (upstream experimental op_kernel/sigmoid_grad.h) on the emulator:
the block-split skeleton (opsnn.op_common.block_kernel) and SigmoidGrad's Compute, in float32:

    t = 1.0 (Duplicate);  t = t - y;  t = t * y;  z = dy * t      (z = dy * ((1 - y) * y))

float16 / bfloat16 are widened first (Cast CAST_NONE, exact) and z narrowed with CAST_RINT.
Inputs in kernel order: x = y (the forward's output), y = dy; output z."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import (
    Cast,
    CoreContext,
    Duplicate,
    GmPtr,
    LocalTensor,
    Mul,
    QuePosition,
    RoundMode,
    Sub,
    TBuf,
    TPipe,
)
from opsnn.op_common.block_kernel import BlockSplitKernel
from opsnn.op_common.kernel_entry import entry_runner

from .sigmoid_grad_tiling_data import SigmoidGradTilingData

F32 = np.dtype(np.float32)
ARG_NAMES = ("x", "y", "z")


class KernelSigmoidGrad(BlockSplitKernel):
    INPUTS = (("x", "in_queue_x"), ("y", "in_queue_y"))
    OUTPUT = ("z", "out_queue_z")

    def init_buffers(self, pipe: TPipe, tiling_data) -> None:
        n = self.tile_data_num
        self.tmp = [TBuf(QuePosition.VECCALC, name=f"tmp_queue{i}") for i in range(3 if self.dtype != F32 else 1)]
        for buf in self.tmp:
            pipe.InitBuffer(buf, n * 4)

    def compute(self, inputs: list[LocalTensor], z: LocalTensor, n: int) -> None:
        y, dy = inputs
        t = self.tmp[0].Get(F32)
        if self.dtype != F32:
            y32, dy32 = self.tmp[1].Get(F32), self.tmp[2].Get(F32)
            Cast(y32, y, RoundMode.CAST_NONE, n)
            Cast(dy32, dy, RoundMode.CAST_NONE, n)
            y, dy, out = y32, dy32, dy32
        else:
            out = z
        Duplicate(t, np.float32(1.0), n)
        Sub(t, t, y, n)
        Mul(t, t, y, n)
        Mul(out, dy, t, n)
        if self.dtype != F32:
            Cast(z, out, RoundMode.CAST_RINT, n)


def sigmoid_grad(ctx: CoreContext, x: GmPtr, y: GmPtr, z: GmPtr, tiling: bytes, *, dtype) -> None:
    """The kernel entry: GET_TILING_DATA, Init, Process."""
    op = KernelSigmoidGrad(ctx, dtype)
    op.Init([x, y], z, SigmoidGradTilingData.from_bytes(tiling), TPipe(ctx))
    op.Process()


run_kernel = entry_runner(sigmoid_grad, ARG_NAMES)  # DataCopy of whole 256-byte blocks: the caller pads
