"""What SeluGrad computes, as numpy functions on (gradients, outputs) of one shape and dtype
(docs/selu-grad.md), with the emulator's float32 arithmetic (opsnn.ascendc), so the kernels'
bits follow; float16 / bfloat16 widen exactly and narrow once (nearest even).

  selu_grad_910b     g * (o < 0 ? o + SCALE*ALPHA : SCALE)                (Adds, Select, Mul)
  selu_grad_arch35   o <= 0 ? g * (o + SCALE*ALPHA) : g * SCALE           (two products, Select)
  selu_backward_torch  torch's elu_backward(g, alpha, scale, 1, is_result=True, o): o <= 0 ?
                     g * 1 * (o + alpha*scale) : g * scale, in the dtype (float16 / bfloat16
                     in float32), alpha*scale and scale rounded to that opmath type first; a NaN
                     o is NaN in the vectorised body, g * scale in the scalar one (torch's blend)"""
from __future__ import annotations

import numpy as np

from opsnn.ascendc.binary import add_values
from opsnn.ascendc.binary import mul_values as mul_a2
from opsnn.ascendc.mul_arch35 import mul_values as mul_950
from opsnn.dtypes import bfloat16
from opsnn.op_common import torch_nans
from opsnn.op_common.float32_values import narrow, widen

from .op_kernel.selu_grad import SCALE, SCALE_ALPHA

F32 = np.dtype(np.float32)
ALPHA = 1.6732632423543772848170429916717  # torch's SELU constants (double)
SCALE_D = 1.0507009873554804934193349852946


def selu_grad_910b(gradients: np.ndarray, outputs: np.ndarray) -> np.ndarray:
    g, o = widen(gradients), widen(outputs)
    with np.errstate(invalid="ignore"):
        factor = np.where(o < 0, add_values(o, SCALE_ALPHA), SCALE)
    return narrow(mul_a2(g, factor.astype(F32)), np.asarray(gradients).dtype).reshape(np.shape(gradients))


def selu_grad_arch35(gradients: np.ndarray, outputs: np.ndarray) -> np.ndarray:
    g, o = widen(gradients), widen(outputs)
    negative = mul_950(g, add_values(o, SCALE_ALPHA), np.empty(g.shape, F32))
    positive = mul_950(g, SCALE, np.empty(g.shape, F32))
    with np.errstate(invalid="ignore"):
        keep = o <= 0
    r = np.where(keep, negative.view(np.uint32), positive.view(np.uint32)).view(F32)
    return narrow(r, np.asarray(gradients).dtype).reshape(np.shape(gradients))  # 0-d stays 0-d


KERNELS = {"ascend910b": selu_grad_910b, "ascend950": selu_grad_arch35}


def selu_backward_torch(g: np.ndarray, o: np.ndarray, vector: np.ndarray | bool = True) -> np.ndarray:
    """g, o of one floating dtype, broadcast together. vector: where torch's vectorised body
    computes. That body blends on o > 0, so a NaN o takes the negative branch (a NaN), where the
    scalar body's o <= 0 takes g * scale; the negative product keeps g's NaN first in float16,
    o's in float32 / float64 (op_common.torch_nans); bfloat16's NaNs by body."""
    dtype = g.dtype
    op = np.dtype(np.float64) if dtype == np.float64 else F32
    neg, pos = op.type(op.type(ALPHA) * op.type(SCALE_D)), op.type(SCALE_D)
    a, b = g.astype(op), o.astype(op)
    with np.errstate(all="ignore"):
        left, right = a * op.type(1), b + neg
        negative = torch_nans.first_nan(left * right, *((left, right) if dtype == np.float16 else (right, left)))
        positive = a * pos
        r = np.where(vector, np.where(b > 0, positive, negative), np.where(b <= 0, negative, positive))
        return torch_nans.to_bfloat16(r, vector) if dtype == bfloat16 else r.astype(dtype)
