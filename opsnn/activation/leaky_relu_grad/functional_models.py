"""LeakyReluGrad's rules as plain numpy, stated once (docs/leaky-relu-grad.md §6-7): what each
SoC's kernel computes, and the dtype promotion aclnnLeakyReluBackward does before it. The emulated
arch35 kernel is tested against these bit for bit, the reference backend computes with them, and
the public API's ascend semantics (ascend_semantics.py) are built from them.

Every kernel here is one formula with three knobs (which type the slope is rounded to, which type
the product is computed in, which type the result is narrowed to):

    out = narrow(features > 0 ? wide(grad) : wide(grad) * slope)

  leaky_relu_grad_arch35   Ascend950 AscendC DAG (fp16 / bf16 / fp32): grad widened exactly to
                           float32, the product in float32 with the float32 attr (not rounded to
                           the tensor type), narrowed once, round to nearest even.
  leaky_relu_grad_910b     Ascend910B built-in TBE kernel (fp16 / bf16 / fp32): the slope is first
                           converted to the tensor type, then the product is one correctly rounded
                           multiply in that type (fp16: a half multiply). fp32 equals arch35; fp16
                           and bf16 can differ from arch35 in the last place (and a slope beyond
                           65504 becomes inf in fp16). The bf16 slope rounding is an assumption.
  leaky_relu_grad_aicpu    the AiCpu kernel that takes float64 on every SoC: a double product with
                           the slope as the float attr "alpha" widened (an assumption, docs/leaky-relu-grad.md §9.4).

The compare is features > 0 in the features' own type (widening is exact, so float32 gives the same
answer): NaN, -0.0 and +0.0 features take the product. The product is arithmetic, so an inf or NaN
grad there is NaN even for slope 0. NaN bits follow the rule of the emulator's multiply
(docs/nan-payloads.md): a NaN operand comes out quieted (the grad's if both are NaN), an invalid
product (inf * 0) is the default quiet NaN with the product's sign; a select moves bits. Narrowing
float32 NaNs keeps the sign and the top payload bits (so a widened-and-narrowed grad is its own
bits), as the emulator's Cast does.
"""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import bfloat16, float_layout

F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
KERNEL_DTYPES = (F16, bfloat16, F32)  # the AiCore kernels' (both SoCs)
_HALVES = frozenset((F16, bfloat16))


# ---- promotion (opbase PromoteType, on the dtypes aclnnLeakyReluBackward lets through) -------------

def promote_type(a, b) -> np.dtype:
    """PromoteType for float16 / bfloat16 / float32 / float64: equal -> itself, float64 wins,
    then float32; float16 with bfloat16 is float32 (neither holds the other)."""
    a, b = np.dtype(a), np.dtype(b)
    if a == b:
        return a
    for wide in (F64, F32):
        if wide in (a, b):
            return wide
    if {a, b} == {F16, bfloat16}:
        return F32
    raise TypeError(f"no promotion of {a} with {b} in aclnnLeakyReluBackward")


# ---- the pieces ---------------------------------------------------------------------------------

def as_float32(value) -> np.float32:
    """A slope as a float32 (aclScalar::ToFloat, the Float attr): nearest even, +-inf beyond range;
    a signalling NaN (an aclScalar of a NaN's own bits) converts silently, as C's conversion does."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.float32(value)


def round_to(value: np.float32, dtype: np.dtype):
    """A float32 scalar converted to `dtype` (nearest even; fp16 overflow -> inf)."""
    with np.errstate(over="ignore"):
        return np.asarray(value, F32).astype(dtype)[()]


def multiply(a: np.ndarray, s) -> np.ndarray:
    """a * s (s a scalar of a's type) with the multiply's NaN rule on the bits (module doc)."""
    t = a.dtype
    s = np.asarray(s, t)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        p = np.asarray(np.multiply(a, s))  # 0-d operands give a scalar: make it an array
    nan = np.isnan(p)
    if nan.any():
        lay = float_layout(t)
        u = lay.uint.type
        quiet, sign = u(lay.quiet), u(lay.sign)
        a_bits = a.view(lay.uint)
        s_bits = s.view(lay.uint)[()]
        if np.isnan(s):
            pick = np.where(np.isnan(a), a_bits, s_bits)
        else:
            invalid = u(lay.exponent | lay.quiet) | ((a_bits ^ s_bits) & sign)
            pick = np.where(np.isnan(a), a_bits, invalid)
        p.view(lay.uint)[nan] = (pick | quiet)[nan]
    return p


def narrow(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """float32 (or float64) -> dtype, nearest even, overflow to inf; NaNs keep the sign and top
    payload bits (not forced quiet; one whose kept bits are all zero gets the lowest one)."""
    dtype = np.dtype(dtype)
    if values.dtype == dtype:
        return values
    with np.errstate(over="ignore", invalid="ignore"):
        out = values.astype(dtype)
    if dtype == bfloat16 and values.dtype == F32:  # ml_dtypes makes every NaN 0x7FC0
        nan = np.isnan(values)
        if nan.any():
            high = (values.view(np.uint32)[nan] >> np.uint32(16)).astype(np.uint16)
            high |= ((high & np.uint16(0x7F)) == 0).astype(np.uint16)
            out.view(np.uint16)[nan] = high
    return out


def positive(features: np.ndarray) -> np.ndarray:
    """features > 0 (NaN and both zeros: False)."""
    with np.errstate(invalid="ignore"):
        return features > 0


def leaky(grad: np.ndarray, features: np.ndarray, slope, compute: np.dtype, out: np.dtype,
          product=multiply) -> np.ndarray:
    """narrow(features > 0 ? wide(grad) : wide(grad) * slope): grad widened to `compute` (exact),
    slope a scalar already of `compute`, result narrowed to `out`; grad and features broadcast.
    `product`: the multiply (the device's NaN rule by default; torch semantics pass the host's)."""
    grad, features = np.broadcast_arrays(np.asarray(grad), np.asarray(features))
    g = grad.astype(compute)
    r = np.where(positive(features), g, product(g, slope))
    return narrow(r, out)


# ---- the kernels --------------------------------------------------------------------------------

def _check_kernel_dtype(grad: np.ndarray, features: np.ndarray, kernel: str) -> np.dtype:
    if grad.dtype != features.dtype or grad.dtype not in KERNEL_DTYPES:
        raise TypeError(f"the {kernel} LeakyReluGrad kernel takes gradients and features of one dtype among "
                        f"float16, bfloat16, float32; got {grad.dtype} and {features.dtype}")
    return grad.dtype


def kernel_slope(dtype: np.dtype, negative_slope, family: str) -> np.floating:
    """The slope as the kernel multiplies with it, in the type it computes in: float32 (arch35,
    and 910B float32), float32 of the slope rounded to fp16 / bf16 (910B halves: the product of two
    halves is exact in float32, so one rounding to the half type is its own multiply), float64 of
    the float32 attr (AiCpu, float64 tensors)."""
    slope = as_float32(negative_slope)
    if np.dtype(dtype) == F64:
        return np.float64(slope)
    if family == "ascend910b" and np.dtype(dtype) in _HALVES:
        return np.float32(round_to(slope, np.dtype(dtype)))
    if family not in ("ascend910b", "ascend950"):
        raise ValueError(f"unknown SoC family {family!r}")
    return slope


def leaky_relu_grad_arch35(grad, features, negative_slope) -> np.ndarray:
    """The Ascend950 DAG: U(features > 0 ? float(grad) : float(grad) * float32(slope))."""
    grad, features = np.asarray(grad), np.asarray(features)
    u = _check_kernel_dtype(grad, features, "Ascend950")
    return leaky(grad, features, kernel_slope(u, negative_slope, "ascend950"), F32, u)


def leaky_relu_grad_910b(grad, features, negative_slope) -> np.ndarray:
    """The Ascend910B TBE kernel: the slope converted to the tensor type, one multiply in it."""
    grad, features = np.asarray(grad), np.asarray(features)
    u = _check_kernel_dtype(grad, features, "Ascend910B")
    return leaky(grad, features, kernel_slope(u, negative_slope, "ascend910b"), F32, u)


def leaky_relu_grad_aicpu(grad, features, negative_slope) -> np.ndarray:
    """The AiCpu kernel (float64 on every SoC): a double product with the float attr widened."""
    grad, features = np.asarray(grad), np.asarray(features)
    if grad.dtype != F64 or features.dtype != F64:
        raise TypeError(f"the AiCpu LeakyReluGrad path here takes float64, got {grad.dtype} and {features.dtype}")
    return leaky(grad, features, kernel_slope(F64, negative_slope, "ascend950"), F64, F64)


def leaky_relu_grad(grad, features, negative_slope, family: str) -> np.ndarray:
    """l0 LeakyReluGrad on a SoC family: the AiCore kernel for fp16/bf16/fp32, AiCpu for float64."""
    grad = np.asarray(grad)
    if grad.dtype == F64:
        return leaky_relu_grad_aicpu(grad, features, negative_slope)
    if family == "ascend950":
        return leaky_relu_grad_arch35(grad, features, negative_slope)
    if family == "ascend910b":
        return leaky_relu_grad_910b(grad, features, negative_slope)
    raise ValueError(f"unknown SoC family {family!r}")
