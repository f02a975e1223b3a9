"""What SigmoidGrad computes, as numpy functions on whole arrays (docs/sigmoid-grad.md). Each
takes (y, dy) of one shape and dtype and returns a fresh array of it; the arithmetic is the
emulator's (opsnn.ascendc: IEEE float32, host-independent NaNs), so the kernels' bits follow.

  sigmoid_grad_910b     the 910B kernel: dy * ((1 - y) * y) in float32
  sigmoid_grad_arch35   the Ascend950 DAG: (dy * (1 - y)) * y in float32
  sigmoid_grad_aicpu    the AICPU kernel aclnn picks for float64 / complex: (dy * (1 - y)) * y,
                        complex: conj((1 - y) * y) * dy (numpy on the host: AICPU's NaN bits
                        are not modelled)
  sigmoid_backward_torch  torch's CPU kernel (2.13, measured): (dy * (1 - y)) * y in the dtype,
                        each op rounded (float16 too); bfloat16 through float32, rounded once;
                        complex: dy * conj((1 - y) * y); torch's NaN bits (x86's NaN operand
                        order; bfloat16: 0xFFFF from the vectorised body, 0x7FC0 from the scalar)

float16 / bfloat16 are widened exactly and the float32 result narrowed once, nearest even."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import RoundMode
from opsnn.ascendc.binary import mul_values as mul_a2
from opsnn.ascendc.binary import sub_values
from opsnn.ascendc.cast import cast_values
from opsnn.ascendc.mul_arch35 import mul_values as mul_950
from opsnn.dtypes import bfloat16

F32 = np.dtype(np.float32)
KERNEL_DTYPES = ("float16", "bfloat16", "float32")  # the AI Core's; aclnn sends the others to AICPU


def _f32(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a if a.dtype == F32 else cast_values(a.reshape(-1), F32, RoundMode.CAST_NONE).reshape(a.shape)


def _back(z: np.ndarray, dtype: np.dtype) -> np.ndarray:
    return z if dtype == F32 else cast_values(z.reshape(-1), dtype, RoundMode.CAST_RINT).reshape(z.shape)


def sigmoid_grad_910b(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    y32, dy32 = _f32(y), _f32(dy)
    t = mul_a2(sub_values(np.ones_like(y32), y32), y32)
    return _back(mul_a2(dy32, t), np.asarray(y).dtype)


def sigmoid_grad_arch35(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    y32, dy32 = _f32(y), _f32(dy)
    u = mul_950(dy32, sub_values(np.ones_like(y32), y32), np.empty(y32.shape, F32))
    return _back(mul_950(u, y32, np.empty(y32.shape, F32)), np.asarray(y).dtype)


def sigmoid_grad_aicpu(y: np.ndarray, dy: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        if y.dtype.kind == "c":
            return np.conj((1 - y) * y) * dy
        return dy * (1 - y) * y


KERNELS = {"ascend910b": sigmoid_grad_910b, "ascend950": sigmoid_grad_arch35}


def sigmoid_grad(y: np.ndarray, dy: np.ndarray, family: str) -> np.ndarray:
    """l0 SigmoidGrad on a SoC family: the AI Core kernel for its dtypes, else AICPU."""
    kernel = KERNELS[family] if y.dtype.name in KERNEL_DTYPES else sigmoid_grad_aicpu
    return kernel(y, dy).reshape(y.shape)  # the emulator's value arithmetic gives 0-d operands one element


# torch's NaNs, per result dtype (measured, torch 2.13 x86): the operand whose NaN survives the
# instructions' order (x86 returns an instruction's first NaN operand, quieted), the quiet bit, and
# the NaN an invalid product (inf * 0) makes, the x86 default NaN narrowed.
_NAN_FIRST = {np.dtype(np.float16): "dy", F32: "y", np.dtype(np.float64): "y"}
_QUIET = {np.dtype(np.float16): 0x0200, F32: 0x0040_0000, np.dtype(np.float64): 0x0008_0000_0000_0000}
_DEFAULT_NAN = {np.dtype(np.float16): 0xFE00, F32: 0xFFC0_0000, np.dtype(np.float64): 0xFFF8_0000_0000_0000}
BF16_VECTOR_NAN, BF16_SCALAR_NAN = 0xFFFF, 0x7FC0  # every NaN of the two bodies' bfloat16 narrowing


def _torch_nans(r: np.ndarray, dy: np.ndarray, y: np.ndarray) -> np.ndarray:
    """r with torch's NaN bits: the first-surviving operand's NaN quieted, then the other's, else
    the default NaN (float16 / float32 / float64; bfloat16 is narrowed by the caller)."""
    nan = np.isnan(r)
    if not nan.any():
        return r
    u = np.dtype(f"u{r.dtype.itemsize}")
    first, second = (dy, y) if _NAN_FIRST[r.dtype] == "dy" else (y, dy)
    quiet = u.type(_QUIET[r.dtype])
    bits = np.where(np.isnan(second), second.view(u) | quiet, u.type(_DEFAULT_NAN[r.dtype]))
    bits = np.where(np.isnan(first), first.view(u) | quiet, bits)
    out = r.view(u).copy()
    out[nan] = np.broadcast_to(bits, r.shape)[nan]
    return out.view(r.dtype)


def sigmoid_backward_torch(dy: np.ndarray, y: np.ndarray, vector: np.ndarray | bool = True) -> np.ndarray:
    """dy and y already of torch's result dtype and broadcast together. vector: where torch's
    vectorised body computes (bfloat16's NaN is 0xFFFF there, 0x7FC0 in the scalar body; the other
    dtypes' bodies agree)."""
    dtype = dy.dtype
    with np.errstate(all="ignore"):
        if dtype.kind == "c":
            return dy * np.conj((1 - y) * y)
        if dtype == bfloat16:  # opmath float32, rounded once (float16 goes op by op in half)
            a, b = dy.astype(F32), y.astype(F32)
            r = np.asarray((a * (F32.type(1) - b) * b).astype(dtype))
            nan = np.isnan(r.astype(F32))
            if nan.any():
                bits = np.where(vector, np.uint16(BF16_VECTOR_NAN), np.uint16(BF16_SCALAR_NAN))
                r.view(np.uint16)[nan] = np.broadcast_to(bits, r.shape)[nan]
            return r
        return _torch_nans(np.asarray(dy * (dtype.type(1) - y) * y), dy, y)
