"""The ReluGrad kernel for Ascend910B, written against opsnn.ascendc like ThresholdGradV2D's:
backprops = gradients * (features > 0 ? 1 : 0), a real multiply, so an inf or NaN gradient
where the feature is not positive gives NaN and a negative one gives -0.0 (TensorFlow's rule).

Per tile: the feature goes to the compute type (float for bfloat16/int32, half for int8/uint8;
every conversion exact for the sign), is compared with 0 into a bit mask, the mask selects 1 or 0
into a factor tensor, and the gradient (in the compute type, int32 kept as int32) is multiplied by
it and converted back (exact: the product is 0 or the gradient)."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import (
    CMPMODE,
    SELMODE,
    Cast,
    Compares,
    CoreContext,
    Duplicate,
    GmPtr,
    LocalTensor,
    Mul,
    QuePosition,
    RoundMode,
    Select,
    TBuf,
    TPipe,
)
from opsnn.dtypes import bfloat16
from opsnn.op_common.block_kernel import BlockSplitKernel

from .relu_grad_tiling_data import COMPUTE_TYPE, I32, ReluGradTilingData


class KernelReluGrad(BlockSplitKernel):
    INPUTS = (("gradients", "in_queue_grad"), ("features", "in_queue_feature"))
    OUTPUT = ("backprops", "out_queue")

    def __init__(self, ctx: CoreContext, dtype):
        super().__init__(ctx, dtype)
        self.compute_type = COMPUTE_TYPE[self.dtype]
        self.mask_buf = TBuf(QuePosition.VECCALC, name="mask_buf")
        self.ones_buf = TBuf(QuePosition.VECCALC, name="ones_buf")
        self.factor_buf = TBuf(QuePosition.VECCALC, name="factor_buf")
        self.feature_buf = TBuf(QuePosition.VECCALC, name="feature_buf")
        self.grad_buf = TBuf(QuePosition.VECCALC, name="grad_buf")

    def init_buffers(self, pipe: TPipe, tiling_data: ReluGradTilingData) -> None:
        t, c, n = self.dtype, self.compute_type, self.tile_data_num
        pipe.InitBuffer(self.mask_buf, n)
        pipe.InitBuffer(self.ones_buf, n * c.itemsize)
        pipe.InitBuffer(self.factor_buf, n * c.itemsize)
        if t != c:
            pipe.InitBuffer(self.feature_buf, n * c.itemsize)
            pipe.InitBuffer(self.grad_buf, n * (4 if t == I32 else c.itemsize))
        Duplicate(self.ones_buf.Get(c), c.type(1), n)  # the "1" of feature > 0 ? 1 : 0, once per core

    def compute(self, inputs: list[LocalTensor], out_local: LocalTensor, n: int) -> None:
        grad_local, feature_local = inputs
        t, c = self.dtype, self.compute_type
        mask, ones, factor = self.mask_buf.Get(np.uint8), self.ones_buf.Get(c), self.factor_buf.Get(c)
        feature = feature_local
        if t != c:
            feature = self.feature_buf.Get(c)
            Cast(feature, feature_local, RoundMode.CAST_NONE, n)  # exact, or int32 rounding that keeps the sign
        Compares(mask, feature, c.type(0), CMPMODE.GT, n)  # NaN > 0 is false
        Select(factor, mask, ones, c.type(0), SELMODE.VSEL_TENSOR_SCALAR_MODE, n)
        if t == c:
            Mul(out_local, grad_local, factor, n)
        elif t == I32:
            factor_int = self.grad_buf.Get(I32)
            Cast(factor_int, factor, RoundMode.CAST_TRUNC, n)
            Mul(out_local, grad_local, factor_int, n)
        else:  # bfloat16 (float), int8/uint8 (half): the product is 0 or the gradient, exact back
            grad = self.grad_buf.Get(c)
            Cast(grad, grad_local, RoundMode.CAST_NONE, n)
            Mul(grad, grad, factor, n)
            Cast(out_local, grad, RoundMode.CAST_RINT if t == bfloat16 else RoundMode.CAST_TRUNC, n)


def relu_grad(ctx: CoreContext, gradients: GmPtr, features: GmPtr, backprops: GmPtr, workspace: GmPtr | None,
              tiling: bytes, *, dtype) -> None:
    """The kernel entry: ReluGrad on this core's share."""
    tiling_data = ReluGradTilingData.from_bytes(tiling)
    pipe = TPipe(ctx)
    op = KernelReluGrad(ctx, dtype)
    op.Init([gradients, features], backprops, tiling_data, pipe)
    op.Process()
