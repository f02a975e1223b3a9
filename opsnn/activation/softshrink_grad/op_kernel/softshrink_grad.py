"""The SoftShrinkGrad arch35 kernel on the emulator, a plain AscendC class as upstream writes it
(op_kernel/arch35/soft_shrink_grad.h; no atvoss DAG): each core takes block_former elements (the
last one the rest) and walks them ub_former at a time: DataCopyPad in, Compute, DataCopyPad out.

Compute, in float32 (halves widened into temporaries zeroed first, the result narrowed with
CAST_ROUND): |x| compared with lambd (CompareScalar GT), Select grad or 0, then x != x (a NaN x)
selects grad again; the compares and selects run over whole 256-byte repeats, past the tile's
data (those lanes are never copied out)."""
from __future__ import annotations

import functools

import numpy as np

from opsnn.ascendc import (
    CMPMODE,
    SELMODE,
    Abs,
    Cast,
    Compare,
    CompareScalar,
    CoreContext,
    DataCopyExtParams,
    DataCopyPad,
    Duplicate,
    GlobalMemory,
    GlobalTensor,
    GmPtr,
    KernelArg,
    LaunchReport,
    QuePosition,
    RoundMode,
    Select,
    TBuf,
    TPipe,
    TQue,
)
from opsnn.op_common.kernel_run import launch_kernel
from opsnn.platform import Platform, get_platform

from .softshrink_grad_tiling_data import SoftShrinkGradTilingData

ARG_NAMES = ("input_grad", "input_x", "output_y")
F32 = np.dtype(np.float32)


class KernelSoftShrinkGrad:
    def __init__(self, ctx: CoreContext, dtype, buffer_num: int):
        self.ctx, self.dtype, self.buffer_num = ctx, np.dtype(dtype), buffer_num
        self.queues = [TQue(QuePosition.VECIN, buffer_num, name=n) for n in ("grad_queue", "x_queue")]
        self.out_queue = TQue(QuePosition.VECOUT, buffer_num, name="out_queue")
        self.temps = {n: TBuf(QuePosition.VECCALC, name=n) for n in ("grad32", "x32", "abs_x", "out32")}
        self.masks = [TBuf(QuePosition.VECCALC, name=n) for n in ("cmp_mask", "nan_mask")]
        self.gm = [GlobalTensor(self.dtype) for _ in ARG_NAMES]

    def Init(self, ptrs: list[GmPtr], td: SoftShrinkGradTilingData, pipe: TPipe) -> None:  # noqa: N802
        b = self.ctx.GetBlockIdx()
        last = b == td.block_num - 1
        self.length = td.dim0 - (td.block_num - 1) * td.block_former if last else td.block_former
        self.ub, self.lambd = td.ub_former, td.lambd
        for gm, ptr in zip(self.gm, ptrs, strict=True):
            gm.SetGlobalBuffer(ptr.as_type(self.dtype) + b * td.block_former, self.length)
        for q in (*self.queues, self.out_queue):
            pipe.InitBuffer(q, self.buffer_num, self.ub * self.dtype.itemsize)
        for name, buf in self.temps.items():  # float32: |x| only (upstream's layout: one buffer)
            if self.dtype != F32 or name == "abs_x":
                pipe.InitBuffer(buf, self.ub * 4)
        for buf in self.masks:
            pipe.InitBuffer(buf, -(-self.ub // 8 // 32) * 32)

    def Process(self) -> None:  # noqa: N802
        loops = -(-self.length // self.ub)
        for i in range(loops):
            n = self.length - self.ub * i if i == loops - 1 else self.ub
            self.ctx.begin_tile(i)
            for q, gm in zip(self.queues, self.gm[:2], strict=True):
                local = q.AllocTensor(self.dtype)
                DataCopyPad(local, gm[i * self.ub], DataCopyExtParams(1, n * self.dtype.itemsize))
                q.EnQue(local)
            self.Compute(n)
            out = self.out_queue.DeQue(self.dtype)
            DataCopyPad(self.gm[2][i * self.ub], out, DataCopyExtParams(1, n * self.dtype.itemsize))
            self.out_queue.FreeTensor(out)
        self.ctx.end_tiles()

    def Compute(self, n: int) -> None:  # noqa: N802
        grad, x = (q.DeQue(self.dtype) for q in self.queues)
        out = self.out_queue.AllocTensor(self.dtype)
        aligned = min(-(-n // 64) * 64, self.ub)  # CompareScalar / Compare: whole 256-byte repeats
        cmp, nan = (m.Get(np.uint8) for m in self.masks)
        abs_x = self.temps["abs_x"].Get(F32)
        if self.dtype == F32:
            g32, x32, o32 = grad, x, out
            Abs(abs_x, x, aligned)
        else:
            g32, x32, o32 = (self.temps[k].Get(F32) for k in ("grad32", "x32", "out32"))
            Duplicate(g32, np.float32(0), aligned)
            Duplicate(x32, np.float32(0), aligned)
            Cast(g32, grad, RoundMode.CAST_NONE, n)
            Cast(x32, x, RoundMode.CAST_NONE, n)
            Abs(abs_x, x32, aligned)
        CompareScalar(cmp, abs_x, np.float32(self.lambd), CMPMODE.GT, aligned)
        Select(o32, cmp, g32, np.float32(0), SELMODE.VSEL_TENSOR_SCALAR_MODE, aligned)
        Compare(nan, x32, x32, CMPMODE.NE, aligned)  # x != x: the NaNs
        Select(o32, nan, g32, o32, SELMODE.VSEL_TENSOR_TENSOR_MODE, aligned)
        if self.dtype != F32:
            Cast(out, o32, RoundMode.CAST_ROUND, n)
        self.out_queue.EnQue(out)
        for q, local in zip(self.queues, (grad, x), strict=True):
            q.FreeTensor(local)


def softshrink_grad(ctx: CoreContext, input_grad: GmPtr, input_x: GmPtr, output_y: GmPtr, tiling: bytes, *,
                    dtype, buffer_mode: int) -> None:
    """The kernel entry (template BUFFER_MODE: the tiling key)."""
    op = KernelSoftShrinkGrad(ctx, dtype, 2 if buffer_mode else 1)
    op.Init([input_grad, input_x, output_y], SoftShrinkGradTilingData.from_bytes(tiling), TPipe(ctx))
    op.Process()


def run_kernel(*, gm: GlobalMemory, platform: Platform | str, dtype, tiling_key: int, block_dim: int,
               tiling: bytes, sanitize: bool = False, **args: KernelArg) -> LaunchReport:
    platform = get_platform(platform) if isinstance(platform, str) else platform
    kernel = functools.partial(softshrink_grad, dtype=np.dtype(dtype), buffer_mode=tiling_key)
    return launch_kernel(kernel, ARG_NAMES, gm=gm, platform=platform, block_dim=block_dim, tiling=bytes(tiling),
                         args=args, sanitize=sanitize)
