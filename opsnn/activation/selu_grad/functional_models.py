"""What SeluGrad computes, as numpy functions on (gradients, outputs) of one shape and dtype
(docs/selu-grad.md), with the emulator's float32 arithmetic (opsnn.ascendc), so the kernels'
bits follow; float16 / bfloat16 widen exactly and narrow once (nearest even).

  selu_grad_910b     g * (o < 0 ? o + SCALE*ALPHA : SCALE)                (Adds, Select, Mul)
  selu_grad_arch35   o <= 0 ? g * (o + SCALE*ALPHA) : g * SCALE           (two products, Select)
  selu_backward_torch  torch's elu_backward(g, alpha, scale, 1, is_result=True, o): o <= 0 ?
                     g * 1 * (o + alpha*scale) : g * scale, in the dtype (float16 / bfloat16
                     in float32), alpha*scale and scale rounded to that opmath type first."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import RoundMode
from opsnn.ascendc.binary import add_values
from opsnn.ascendc.binary import mul_values as mul_a2
from opsnn.ascendc.cast import cast_values
from opsnn.ascendc.mul_arch35 import mul_values as mul_950

from .op_kernel.selu_grad import SCALE, SCALE_ALPHA

F32 = np.dtype(np.float32)
ALPHA = 1.6732632423543772848170429916717  # torch's SELU constants (double)
SCALE_D = 1.0507009873554804934193349852946


def _in(a):
    a = np.ascontiguousarray(a)
    return a if a.dtype == F32 else cast_values(a.reshape(-1), F32, RoundMode.CAST_NONE).reshape(a.shape)


def _out(r, dtype):
    return r if dtype == F32 else cast_values(r.reshape(-1), dtype, RoundMode.CAST_RINT).reshape(r.shape)


def selu_grad_910b(gradients: np.ndarray, outputs: np.ndarray) -> np.ndarray:
    g, o = _in(gradients), _in(outputs)
    with np.errstate(invalid="ignore"):
        factor = np.where(o < 0, add_values(o, SCALE_ALPHA), SCALE)
    return _out(mul_a2(g, factor.astype(F32)), np.asarray(gradients).dtype).reshape(np.shape(gradients))


def selu_grad_arch35(gradients: np.ndarray, outputs: np.ndarray) -> np.ndarray:
    g, o = _in(gradients), _in(outputs)
    negative = mul_950(g, add_values(o, SCALE_ALPHA), np.empty(g.shape, F32))
    positive = mul_950(g, SCALE, np.empty(g.shape, F32))
    with np.errstate(invalid="ignore"):
        keep = o <= 0
    r = np.where(keep, negative.view(np.uint32), positive.view(np.uint32)).view(F32)
    return _out(r, np.asarray(gradients).dtype).reshape(np.shape(gradients))  # 0-d stays 0-d


KERNELS = {"ascend910b": selu_grad_910b, "ascend950": selu_grad_arch35}


def selu_backward_torch(g: np.ndarray, o: np.ndarray) -> np.ndarray:
    """g, o of one floating dtype (broadcast together here)."""
    dtype = g.dtype
    op = np.dtype(np.float64) if dtype == np.float64 else F32
    neg, pos = op.type(op.type(ALPHA) * op.type(SCALE_D)), op.type(SCALE_D)
    a, b = g.astype(op), o.astype(op)
    with np.errstate(all="ignore"):
        r = np.where(b <= 0, a * op.type(1) * (b + neg), a * pos)
    return r.astype(dtype)
