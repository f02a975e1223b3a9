"""The ThresholdGradV2D AscendC kernel (docs/threshold-grad-v2d.md §6), written against
opsnn.ascendc the way the upstream C++ kernel is written: Init / Process / CopyIn / Compute /
CopyOut over double-buffered queues. The skeleton every 910B block-split kernel shares (this
core's share, the queues, the tile loop, the copies) is opsnn.op_common.block_kernel; what is
ThresholdGradV2D's own is below: its temporaries and its Compute. Read it beside upstream's
threshold_grad_v2_d.cpp; names are upstream's in snake_case.

The C++ template parameter (the element type) is the `dtype` argument here."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import (
    CMPMODE,
    SELMODE,
    Cast,
    Compares,
    CoreContext,
    GmPtr,
    LocalTensor,
    QuePosition,
    RoundMode,
    Select,
    TBuf,
    TPipe,
)
from opsnn.dtypes import bfloat16
from opsnn.op_common.block_kernel import BUFFER_NUM, BlockSplitKernel

from .threshold_grad_v2_d_tiling_data import ThresholdGradV2DTilingData

__all__ = ["BUFFER_NUM", "KernelThresholdGradV2D", "threshold_grad_v2_d"]

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
_VIA_FLOAT = (bfloat16, np.dtype(np.int32))  # computed in one float32 temporary
_VIA_HALF_FLOAT = (np.dtype(np.int8), np.dtype(np.uint8))  # through half, then float32


class KernelThresholdGradV2D(BlockSplitKernel):
    INPUTS = (("input_gradient", "in_queue_grad"), ("input_feature", "in_queue_feature"))
    OUTPUT = ("output_backprops", "out_queue")

    def __init__(self, ctx: CoreContext, dtype, upstream_int8_temp: bool = False):
        super().__init__(ctx, dtype)
        self.in_queue_grad, self.in_queue_feature = self.in_queues
        # Upstream sizes the int8/uint8 float32 temporary at 2 bytes per element although it
        # holds float32: True reproduces that defect (the sanitizer reports the overflow).
        self.upstream_int8_temp = upstream_int8_temp
        self.mask_buf = TBuf(QuePosition.VECCALC, name="mask_buf")
        self.tmp_half_buf = TBuf(QuePosition.VECCALC, name="tmp_half_buf")
        self.tmp_float_buf = TBuf(QuePosition.VECCALC, name="tmp_float_buf")

    def init_buffers(self, pipe: TPipe, tiling_data: ThresholdGradV2DTilingData) -> None:
        self.threshold = np.float32(tiling_data.threshold)
        with np.errstate(over="ignore"):  # static_cast<half>: beyond half's range it is +-inf
            self.threshold_half = self.threshold.astype(F16)
        n, t = self.tile_data_num, self.dtype
        pipe.InitBuffer(self.mask_buf, n)  # 1 byte/element: more than the bits need
        if t in _VIA_FLOAT:
            pipe.InitBuffer(self.tmp_float_buf, n * 4)
        elif t in _VIA_HALF_FLOAT:
            pipe.InitBuffer(self.tmp_half_buf, n * 2)
            pipe.InitBuffer(self.tmp_float_buf, n * (2 if self.upstream_int8_temp else 4))

    def compute(self, inputs: list[LocalTensor], out_local: LocalTensor, n: int) -> None:
        grad_local, feature_local = inputs
        mask = self.mask_buf.Get(np.uint8)
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


def threshold_grad_v2_d(ctx: CoreContext, input_gradient: GmPtr, input_feature: GmPtr, output_backprops: GmPtr,
                        workspace: GmPtr | None, tiling: bytes, *, dtype, upstream_int8_temp: bool = False) -> None:
    """The kernel entry (`extern "C" __global__ __aicore__ void threshold_grad_v2_d(...)`)."""
    tiling_data = ThresholdGradV2DTilingData.from_bytes(tiling)  # GET_TILING_DATA
    pipe = TPipe(ctx)
    op = KernelThresholdGradV2D(ctx, dtype, upstream_int8_temp)
    op.Init([input_gradient, input_feature], output_backprops, tiling_data, pipe)
    op.Process()
