"""What SigmoidGrad computes, as numpy functions on whole arrays (docs/sigmoid-grad.md). Each
takes (y, dy) of one shape and dtype and returns a fresh array of it; the arithmetic is the
emulator's (opsnn.ascendc: IEEE float32, host-independent NaNs), so the kernels' bits follow.

  sigmoid_grad_910b     the 910B kernel: dy * ((1 - y) * y) in float32
  sigmoid_grad_arch35   the Ascend950 DAG: (dy * (1 - y)) * y in float32
  sigmoid_grad_aicpu    the AICPU kernel aclnn picks for float64 / complex: (dy * (1 - y)) * y,
                        complex: conj((1 - y) * y) * dy, each complex product the textbook
                        (ac - bd) + (ad + bc)i with every real product rounded (AICPU's NaN bits
                        are not documented: a NaN result, or result component, takes dy's NaN,
                        else y's (real part first), else the default NaN -- fixed so that the
                        bits do not depend on the layout numpy's loops see, nor on numpy's own
                        complex multiply, whose SIMD and scalar loops round differently)
  sigmoid_backward_torch  torch's CPU kernel (2.13, measured): (dy * (1 - y)) * y in the dtype,
                        each op rounded (float16 too); bfloat16 through float32, rounded once;
                        complex: dy * conj((1 - y) * y), each product (ac - bd) + (ad + bc)i
                        rounded product by product as torch's vectorised body does (its scalar
                        loops contract some into fused multiply-adds: docs/sigmoid-grad.md);
                        torch's NaN bits (x86's NaN operand order; bfloat16: 0xFFFF from the
                        vectorised body, 0x7FC0 from the scalar; complex: not modelled, pinned
                        as the AICPU model's so that every layout and chunk gives one answer)

float16 / bfloat16 are widened exactly and the float32 result narrowed once, nearest even."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc.binary import mul_values as mul_a2
from opsnn.ascendc.binary import sub_values
from opsnn.ascendc.mul_arch35 import mul_values as mul_950
from opsnn.dtypes import bfloat16
from opsnn.op_common import torch_nans
from opsnn.op_common.float32_values import narrow, widen

F32 = np.dtype(np.float32)
KERNEL_DTYPES = ("float16", "bfloat16", "float32")  # the AI Core's; aclnn sends the others to AICPU


def sigmoid_grad_910b(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    y32, dy32 = widen(y), widen(dy)
    t = mul_a2(sub_values(np.ones_like(y32), y32), y32)
    return narrow(mul_a2(dy32, t), np.asarray(y).dtype)


def sigmoid_grad_arch35(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    y32, dy32 = widen(y), widen(dy)
    u = mul_950(dy32, sub_values(np.ones_like(y32), y32), np.empty(y32.shape, F32))
    return narrow(mul_950(u, y32, np.empty(y32.shape, F32)), np.asarray(y).dtype)


def complex_product(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """p * q as (ac - bd) + (ad + bc)i, every real product and sum rounded in the parts' dtype:
    the same bits whatever the layout (numpy's own complex multiply rounds by its loop)."""
    a, b, c, d = p.real, p.imag, q.real, q.imag
    out = np.empty(np.broadcast_shapes(p.shape, q.shape), np.result_type(p, q))
    out.real, out.imag = a * c - b * d, a * d + b * c
    return out


def _complex_backward(dy: np.ndarray, y: np.ndarray) -> np.ndarray:
    """conj((1 - y) * y) * dy, the products as complex_product makes them."""
    return complex_product(np.conj(complex_product(np.ones((), y.dtype) - y, y)), dy)


def _pinned_nans(r: np.ndarray, dy: np.ndarray, y: np.ndarray) -> np.ndarray:
    """r with each NaN component as the AICPU model's rule makes it (module doc)."""
    order = (dy.real, dy.imag, y.real, y.imag)
    out = np.empty(r.shape, r.dtype)
    out.real, out.imag = (torch_nans.first_nan(part, *order) for part in (r.real, r.imag))
    return out


def sigmoid_grad_aicpu(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        if y.dtype.kind == "c":
            return _pinned_nans(_complex_backward(dy, y), dy, y)
        # numpy's multiply keeps either operand's NaN depending on the loop a layout selects (a
        # broadcast operand, a chunk): pinned to the scalar order's, so chunks agree with the whole
        return torch_nans.first_nan(dy * (1 - y) * y, dy, y)


KERNELS = {"ascend910b": sigmoid_grad_910b, "ascend950": sigmoid_grad_arch35}


def sigmoid_grad(y: np.ndarray, dy: np.ndarray, family: str) -> np.ndarray:
    """l0 SigmoidGrad on a SoC family: the AI Core kernel for its dtypes, else AICPU."""
    kernel = KERNELS[family] if y.dtype.name in KERNEL_DTYPES else sigmoid_grad_aicpu
    return kernel(y, dy).reshape(y.shape)  # the emulator's value arithmetic gives 0-d operands one element


def sigmoid_backward_torch(dy: np.ndarray, y: np.ndarray, vector: np.ndarray | bool = True) -> np.ndarray:
    """dy and y already of torch's result dtype and broadcast together. NaNs as torch's kernel
    makes them (op_common.torch_nans): float16's (dy * (1 - y)) * y keeps dy's NaN first, the
    float32 / float64 kernels y's; bfloat16 by `vector`, where torch's vectorised body computes."""
    dtype = dy.dtype
    with np.errstate(all="ignore"):
        if dtype.kind == "c":  # torch's NaN bits are not modelled; pinned as the AICPU model's, for one answer
            return _pinned_nans(complex_product(dy, np.conj(complex_product(np.ones((), dtype) - y, y))), dy, y)
        if dtype == bfloat16:  # opmath float32, rounded once (float16 goes op by op in half)
            a, b = dy.astype(F32), y.astype(F32)
            return torch_nans.to_bfloat16(a * (F32.type(1) - b) * b, vector)
        r = dy * (dtype.type(1) - y) * y
        return torch_nans.first_nan(r, *((dy, y) if dtype == np.float16 else (y, dy)))
