"""The SeluGrad 910B kernel on the emulator, after upstream's experimental op_kernel/selu_grad.h
(Init / Process / CopyIn / Compute / CopyOut, exact DataCopyPad copies, one tile at a time) with
one deliberate change: every dtype computes in float32 (upstream computes float16 in half and
finishes a tile's last partial 256 bytes with scalar code). Compute, per tile of n elements,
the vector instructions over n rounded up to whole 256-byte float32 repeats:

    mask   = outputs < 0                 Compares LT against 0.0
    factor = outputs + SCALE * ALPHA     Adds
    factor = mask ? factor : SCALE       Select, tensor / scalar
    y      = gradients * factor          Mul; halves narrowed with CAST_RINT

so a NaN or a zero output takes SCALE."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import (
    CMPMODE,
    SELMODE,
    Adds,
    Cast,
    Compares,
    CoreContext,
    DataCopyPad,
    GlobalTensor,
    GmPtr,
    Mul,
    QuePosition,
    RoundMode,
    Select,
    TBuf,
    TPipe,
    TQue,
)
from opsnn.op_common.kernel_entry import entry_runner

from .selu_grad_tiling_data import SeluGradTilingData

F32 = np.dtype(np.float32)
SCALE = np.float32(1.0507009873554804934193349852946)
SCALE_ALPHA = np.float32(1.7580993408473768599402175208123)
REPEAT = 64  # float32 elements in one 256-byte repeat
ARG_NAMES = ("gradients", "outputs", "y")


class KernelSeluGrad:
    def __init__(self, ctx: CoreContext, dtype):
        self.ctx, self.t = ctx, np.dtype(dtype)
        self.queues = [TQue(QuePosition.VECIN, 2, name=f"{n}_queue") for n in ARG_NAMES[:2]]
        self.y_queue = TQue(QuePosition.VECOUT, 2, name="y_queue")
        self.bufs = {n: TBuf(QuePosition.VECCALC, name=f"{n}_buf") for n in ("grad32", "out32", "y32", "tmp", "mask")}
        self.gm = [GlobalTensor(self.t) for _ in ARG_NAMES]

    def Init(self, args: list[GmPtr], d: SeluGradTilingData, pipe: TPipe) -> None:  # noqa: N802
        offset = d.block_factor * self.ctx.GetBlockIdx()
        self.length = max(0, min(d.block_factor, d.total_num - offset))
        self.ub = d.ub_factor
        if self.length == 0:
            return
        for gm, ptr in zip(self.gm, args, strict=True):
            gm.SetGlobalBuffer(ptr.as_type(self.t) + offset, self.length)
        for q in (*self.queues, self.y_queue):
            pipe.InitBuffer(q, 2 if self.length > self.ub else 1, self.ub * self.t.itemsize)
        for name, buf in self.bufs.items():
            if self.t != F32 or name in ("tmp", "mask"):
                pipe.InitBuffer(buf, self.ub // 8 + 32 if name == "mask" else self.ub * 4)

    def Process(self) -> None:  # noqa: N802
        for tile, start in enumerate(range(0, self.length, self.ub)):
            n = min(self.ub, self.length - start)
            self.ctx.begin_tile(tile)
            for q, gm in zip(self.queues, self.gm[:2], strict=True):
                local = q.AllocTensor(self.t)
                DataCopyPad(local, gm[start], n)
                q.EnQue(local)
            self.Compute(n)
            y = self.y_queue.DeQue(self.t)
            DataCopyPad(self.gm[2][start], y, n)
            self.y_queue.FreeTensor(y)
        self.ctx.end_tiles()

    def Compute(self, n: int) -> None:  # noqa: N802
        grad, out = (q.DeQue(self.t) for q in self.queues)
        y = self.y_queue.AllocTensor(self.t)
        nv = -(-n // REPEAT) * REPEAT
        mask, tmp = self.bufs["mask"].Get(np.uint8), self.bufs["tmp"].Get(F32)
        g32, o32, y32 = grad, out, y
        if self.t != F32:
            g32, o32, y32 = (self.bufs[k].Get(F32) for k in ("grad32", "out32", "y32"))
            Cast(g32, grad, RoundMode.CAST_NONE, nv)
            Cast(o32, out, RoundMode.CAST_NONE, nv)
        Compares(mask, o32, np.float32(0.0), CMPMODE.LT, nv)
        Adds(tmp, o32, SCALE_ALPHA, nv)
        Select(o32, mask, tmp, SCALE, SELMODE.VSEL_TENSOR_SCALAR_MODE, nv)
        Mul(y32, g32, o32, nv)
        if self.t != F32:
            Cast(y, y32, RoundMode.CAST_RINT, nv)
        self.y_queue.EnQue(y)
        for q, local in zip(self.queues, (grad, out), strict=True):
            q.FreeTensor(local)


def selu_grad(ctx: CoreContext, gradients: GmPtr, outputs: GmPtr, y: GmPtr, tiling: bytes, *, dtype) -> None:
    op = KernelSeluGrad(ctx, dtype)
    op.Init([gradients, outputs, y], SeluGradTilingData.from_bytes(tiling), TPipe(ctx))
    op.Process()


run_kernel = entry_runner(selu_grad, ARG_NAMES)  # exact copies: no padding
