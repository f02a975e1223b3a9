"""The ThresholdGradV2D AscendC kernel (docs/threshold-grad-v2d.md §6), written against opsnn.ascendc the way the
upstream C++ kernel is written: a class with Init / Process / CopyIn / Compute / CopyOut and
double-buffered queues. Read it beside upstream's threshold_grad_v2_d.cpp; names are upstream's
in snake_case.

The C++ template parameter (the element type) is the `dtype` argument here."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import (
    CMPMODE,
    SELMODE,
    Cast,
    Compares,
    CoreContext,
    DataCopy,
    GlobalTensor,
    GmPtr,
    QuePosition,
    RoundMode,
    Select,
    TBuf,
    TPipe,
    TQue,
)
from opsnn.dtypes import bfloat16
from opsnn.op_common.block_split import share_of

from .threshold_grad_v2_d_tiling_data import ThresholdGradV2DTilingData

BUFFER_NUM = 2  # double buffering: CopyIn of tile t+1 may overlap Compute of tile t on hardware

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
_VIA_FLOAT = (bfloat16, np.dtype(np.int32))  # computed in one float32 temporary
_VIA_HALF_FLOAT = (np.dtype(np.int8), np.dtype(np.uint8))  # through half, then float32


class KernelThresholdGradV2D:
    def __init__(self, ctx: CoreContext, dtype, upstream_int8_temp: bool = False):
        self.ctx = ctx
        self.dtype = np.dtype(dtype)
        # Upstream sizes the int8/uint8 float32 temporary at 2 bytes per element although it
        # holds float32: True reproduces that defect (the sanitizer reports the overflow).
        self.upstream_int8_temp = upstream_int8_temp
        self.in_queue_grad = TQue(QuePosition.VECIN, BUFFER_NUM, name="in_queue_grad")
        self.in_queue_feature = TQue(QuePosition.VECIN, BUFFER_NUM, name="in_queue_feature")
        self.out_queue = TQue(QuePosition.VECOUT, BUFFER_NUM, name="out_queue")
        self.mask_buf = TBuf(QuePosition.VECCALC, name="mask_buf")
        self.tmp_half_buf = TBuf(QuePosition.VECCALC, name="tmp_half_buf")
        self.tmp_float_buf = TBuf(QuePosition.VECCALC, name="tmp_float_buf")
        self.input_gradient_gm = GlobalTensor(self.dtype)
        self.input_feature_gm = GlobalTensor(self.dtype)
        self.output_backprops_gm = GlobalTensor(self.dtype)

    def Init(self, input_gradient: GmPtr, input_feature: GmPtr, output_backprops: GmPtr,  # noqa: N802
             tiling_data: ThresholdGradV2DTilingData, pipe: TPipe) -> None:
        # Upstream computes the core's share inline here; it is the shared block split's rule
        # (big cores first, each small core after the previous one), written once in op_common.
        share = share_of(tiling_data, self.ctx.GetBlockIdx())
        global_buffer_index = share.start
        self.tile_data_num = tiling_data.tile_data_num
        self.core_data_num, self.tile_num, self.tail_data_num = share.data_num, share.tile_num, share.tail_num
        self.threshold = np.float32(tiling_data.threshold)
        with np.errstate(over="ignore"):  # static_cast<half>: beyond half's range it is +-inf
            self.threshold_half = self.threshold.astype(F16)

        t = self.dtype
        self.input_gradient_gm.SetGlobalBuffer(input_gradient.as_type(t) + global_buffer_index, self.core_data_num)
        self.input_feature_gm.SetGlobalBuffer(input_feature.as_type(t) + global_buffer_index, self.core_data_num)
        self.output_backprops_gm.SetGlobalBuffer(output_backprops.as_type(t) + global_buffer_index,
                                                 self.core_data_num)
        tile_bytes = self.tile_data_num * t.itemsize
        pipe.InitBuffer(self.in_queue_grad, BUFFER_NUM, tile_bytes)
        pipe.InitBuffer(self.in_queue_feature, BUFFER_NUM, tile_bytes)
        pipe.InitBuffer(self.out_queue, BUFFER_NUM, tile_bytes)
        pipe.InitBuffer(self.mask_buf, self.tile_data_num)  # 1 byte/element: more than the bits need
        if t in _VIA_FLOAT:
            pipe.InitBuffer(self.tmp_float_buf, self.tile_data_num * 4)
        elif t in _VIA_HALF_FLOAT:
            pipe.InitBuffer(self.tmp_half_buf, self.tile_data_num * 2)
            pipe.InitBuffer(self.tmp_float_buf, self.tile_data_num * (2 if self.upstream_int8_temp else 4))

    def Process(self) -> None:  # noqa: N802
        loop_count = self.tile_num
        self.process_data_num = self.tile_data_num
        for i in range(loop_count):
            if i == loop_count - 1:
                self.process_data_num = self.tail_data_num
            self.ctx.begin_tile(i)  # emulator annotation: findings name the tile
            self.CopyIn(i)
            self.Compute(i)
            self.CopyOut(i)
        self.ctx.end_tiles()

    def CopyIn(self, progress: int) -> None:  # noqa: N802
        grad_local = self.in_queue_grad.AllocTensor(self.dtype)
        feature_local = self.in_queue_feature.AllocTensor(self.dtype)
        offset = progress * self.tile_data_num
        DataCopy(grad_local, self.input_gradient_gm[offset], self.process_data_num)
        DataCopy(feature_local, self.input_feature_gm[offset], self.process_data_num)
        self.in_queue_grad.EnQue(grad_local)
        self.in_queue_feature.EnQue(feature_local)

    def Compute(self, progress: int) -> None:  # noqa: N802
        grad_local = self.in_queue_grad.DeQue(self.dtype)
        feature_local = self.in_queue_feature.DeQue(self.dtype)
        out_local = self.out_queue.AllocTensor(self.dtype)
        mask = self.mask_buf.Get(np.uint8)
        n = self.process_data_num
        t = self.dtype
        if t == F32:
            Compares(mask, feature_local, self.threshold, CMPMODE.GT, n)
            Select(out_local, mask, grad_local, np.float32(0.0), SELMODE.VSEL_TENSOR_SCALAR_MODE, n)
        elif t == F16:
            # The threshold goes to half (nearest-even) and the comparison happens in half.
            Compares(mask, feature_local, self.threshold_half, CMPMODE.GT, n)
            Select(out_local, mask, grad_local, np.float16(0.0), SELMODE.VSEL_TENSOR_SCALAR_MODE, n)
        elif t in _VIA_FLOAT:
            tmp = self.tmp_float_buf.Get(F32)
            Cast(tmp, feature_local, RoundMode.CAST_NONE, n)
            Compares(mask, tmp, self.threshold, CMPMODE.GT, n)
            Cast(tmp, grad_local, RoundMode.CAST_NONE, n)
            Select(tmp, mask, tmp, np.float32(0.0), SELMODE.VSEL_TENSOR_SCALAR_MODE, n)
            # bfloat16: back to nearest-even (exact here); int32: toward zero, saturating.
            Cast(out_local, tmp, RoundMode.CAST_RINT if t == bfloat16 else RoundMode.CAST_TRUNC, n)
        else:  # int8 / uint8
            tmp_half = self.tmp_half_buf.Get(F16)
            tmp = self.tmp_float_buf.Get(F32)
            Cast(tmp_half, feature_local, RoundMode.CAST_NONE, n)
            Cast(tmp, tmp_half, RoundMode.CAST_NONE, n)
            Compares(mask, tmp, self.threshold, CMPMODE.GT, n)
            Cast(tmp_half, grad_local, RoundMode.CAST_NONE, n)
            Cast(tmp, tmp_half, RoundMode.CAST_NONE, n)
            Select(tmp, mask, tmp, np.float32(0.0), SELMODE.VSEL_TENSOR_SCALAR_MODE, n)
            Cast(tmp_half, tmp, RoundMode.CAST_NONE, n)
            Cast(out_local, tmp_half, RoundMode.CAST_TRUNC, n)
        self.out_queue.EnQue(out_local)
        self.in_queue_grad.FreeTensor(grad_local)
        self.in_queue_feature.FreeTensor(feature_local)

    def CopyOut(self, progress: int) -> None:  # noqa: N802
        out_local = self.out_queue.DeQue(self.dtype)
        DataCopy(self.output_backprops_gm[progress * self.tile_data_num], out_local, self.process_data_num)
        self.out_queue.FreeTensor(out_local)


def threshold_grad_v2_d(ctx: CoreContext, input_gradient: GmPtr, input_feature: GmPtr, output_backprops: GmPtr,
                        workspace: GmPtr | None, tiling: bytes, *, dtype, upstream_int8_temp: bool = False) -> None:
    """The kernel entry (`extern "C" __global__ __aicore__ void threshold_grad_v2_d(...)`)."""
    tiling_data = ThresholdGradV2DTilingData.from_bytes(tiling)  # GET_TILING_DATA
    pipe = TPipe(ctx)
    op = KernelThresholdGradV2D(ctx, dtype, upstream_int8_temp)
    op.Init(input_gradient, input_feature, output_backprops, tiling_data, pipe)
    op.Process()
